/*
 * File tokens (protocol.h's struct gem_token): the one place that says
 * what two tokens being equal means.  gemd compares a client's token with
 * its files' in constant time: every byte is looked at whatever the first
 * difference, so a refusal's timing does not tell a guesser how much of
 * the token it had right.
 */
#ifndef GEMKIT_TOKEN_H
#define GEMKIT_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

_Static_assert(sizeof(struct gem_token) == 16, "128-bit file tokens");
_Static_assert(sizeof(struct gem_msg_hdr) == 32 &&
	       offsetof(struct gem_msg_hdr, file) == 16,
	       "the header's layout, as protocol.h documents it");
_Static_assert(sizeof(struct gem_open_reply) == 24 &&
	       offsetof(struct gem_open_reply, file) == 8,
	       "the OPEN reply's layout, as protocol.h documents it");

#define GEM_TOKEN_NONE	((struct gem_token){ 0, 0 })

static inline bool gem_token_equal(struct gem_token a, struct gem_token b)
{
	uint64_t diff = (a.lo ^ b.lo) | (a.hi ^ b.hi);

	/* Keep the compiler from turning this into two early-out tests. */
	__asm__("" : "+r"(diff));
	return diff == 0;
}

static inline bool gem_token_is_none(struct gem_token t)
{
	return gem_token_equal(t, GEM_TOKEN_NONE);
}

/* 16 bits of the token for log lines: enough to tell files apart in a
 * log, far too few to help anyone forge one. */
static inline unsigned int gem_token_tag(struct gem_token t)
{
	return (unsigned int)(t.hi >> 48);
}

#endif
