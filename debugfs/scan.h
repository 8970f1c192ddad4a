/*
 * libgemdebugfs internals: scanning the era files, which were written for
 * people ("Current sequence (render ring): 10", "%08x :  %08x").  A scan
 * is a window [p, end) of one line; each call consumes what it matched.
 */
#ifndef GEMKIT_DEBUGFS_SCAN_H
#define GEMKIT_DEBUGFS_SCAN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct scan {
	const char *p, *end;
};

static inline void skip_spaces(struct scan *s)
{
	while (s->p < s->end && *s->p == ' ')
		s->p++;
}

/* Consume lit if the window starts with it. */
static inline bool eat(struct scan *s, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, lit, n))
		return false;
	s->p += n;
	return true;
}

/* Digits of base 10 or 16 (no prefix), at least one, without overflow. */
bool scan_number(struct scan *s, int base, uint64_t *out);
/* The same, at most UINT32_MAX. */
bool scan_number32(struct scan *s, int base, uint32_t *out);
/* A %d: seqnos print negative past 2^31; the bits are kept. */
bool scan_signed32(struct scan *s, uint32_t *out);

#endif
