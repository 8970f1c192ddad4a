/* ascii85 buffer lines of the error state (see ascii85.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ascii85.h"

/* Buffers above this size in one line are not a real GPU buffer. */
#define MAX_BUFFER (256u << 20)

static int push(struct gd_dwords_buf *d, uint32_t v)
{
	if (d->n == d->alloc) {
		size_t na = d->alloc ? d->alloc * 2 : 1024;
		uint32_t *nv = realloc(d->v, na * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		d->v = nv;
		d->alloc = na;
	}
	d->v[d->n++] = v;
	return 0;
}

/* The line's u32 values, in order. */
static int decode_words(const char *p, size_t len, struct gd_dwords_buf *w,
			struct strbuf *err)
{
	size_t i = 0;

	while (i < len) {
		uint64_t v = 0;
		int k;

		if (p[i] == 'z') {
			if (push(w, 0))
				return -ENOMEM;
			i++;
			continue;
		}
		if (p[i] == '\r' || p[i] == ' ')
			break;
		if (len - i < 5) {
			if (err)
				strbuf_addf(err, "ascii85: a partial group at column %zu", i + 2);
			return -EINVAL;
		}
		for (k = 0; k < 5; k++) {
			unsigned char c = (unsigned char)p[i + k];

			if (c < '!' || c > 'u') {
				if (err)
					strbuf_addf(err, "ascii85: bad character at column %zu",
						    i + (size_t)k + 2);
				return -EINVAL;
			}
			v = v * 85 + (c - '!');
		}
		if (v > UINT32_MAX) {
			if (err)
				strbuf_addf(err, "ascii85: group at column %zu overflows", i + 2);
			return -EINVAL;
		}
		if (push(w, (uint32_t)v))
			return -ENOMEM;
		i += 5;
	}
	return 0;
}

int gd_ascii85_decode(const char *line, size_t len, struct gd_dwords_buf *d,
		      struct strbuf *err)
{
	struct gd_dwords_buf w = { 0 };
	struct strbuf raw = STRBUF_INIT;
	size_t i;
	int ret;

	if (!len || (line[0] != ':' && line[0] != '~'))
		return -EINVAL;
	ret = decode_words(line + 1, len - 1, &w, err);
	if (ret)
		goto out;
	if (line[0] == '~') {
		for (i = 0; i < w.n && !ret; i++)
			ret = push(d, w.v[i]);
		goto out;
	}
	/* zlib: the words are the stream's bytes, little-endian. */
	{
		uint8_t *bytes = malloc(w.n * 4 + 1);

		if (!bytes) {
			ret = -ENOMEM;
			goto out;
		}
		for (i = 0; i < w.n; i++) {
			bytes[4 * i] = (uint8_t)w.v[i];
			bytes[4 * i + 1] = (uint8_t)(w.v[i] >> 8);
			bytes[4 * i + 2] = (uint8_t)(w.v[i] >> 16);
			bytes[4 * i + 3] = (uint8_t)(w.v[i] >> 24);
		}
		ret = gd_inflate(bytes, w.n * 4, &raw, MAX_BUFFER);
		free(bytes);
	}
	if (ret) {
		if (err)
			strbuf_addf(err, "zlib: %s", ret == -EFBIG ? "inflates past 256 MiB" :
				    "corrupt or truncated stream");
		goto out;
	}
	if (raw.len % 4) {
		if (err)
			strbuf_addf(err, "zlib: %zu bytes is not whole dwords", raw.len);
		ret = -EINVAL;
		goto out;
	}
	for (i = 0; i + 4 <= raw.len && !ret; i += 4) {
		const unsigned char *b = (const unsigned char *)raw.buf + i;

		ret = push(d, (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			      (uint32_t)b[3] << 24);
	}
out:
	free(w.v);
	strbuf_release(&raw);
	return ret;
}
