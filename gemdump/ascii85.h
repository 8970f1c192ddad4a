/*
 * The ascii85 buffer lines of later kernels' error states: "~" then the
 * raw dwords, or ":" then a zlib stream of the dwords' bytes, each u32
 * written as five characters '!'..'u' (most significant first), 'z' for 0.
 */
#ifndef GEMKIT_GEMDUMP_ASCII85_H
#define GEMKIT_GEMDUMP_ASCII85_H

#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

struct gd_dwords_buf {
	uint32_t *v;
	size_t n, alloc;
};

/* Decode one line (with its ':' or '~'), appending to d.  0 or -EINVAL
 * (err says where in the line), -ENOMEM. */
int gd_ascii85_decode(const char *line, size_t len, struct gd_dwords_buf *d,
		      struct strbuf *err);

/*
 * Inflate a zlib stream (RFC 1950/1951) into out, at most max bytes.
 * 0, or -EINVAL for a corrupt or truncated stream, -EFBIG past max.
 */
int gd_inflate(const uint8_t *in, size_t len, struct strbuf *out, size_t max);

#endif
