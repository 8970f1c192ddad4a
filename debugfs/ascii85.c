/*
 * The ascii85 buffer lines of later kernels' error states: "~" then the
 * raw dwords, or ":" then a zlib stream of the dwords' bytes, each u32
 * written as five characters '!'..'u' (most significant first), 'z' for
 * 0.  Read here, in the reader library, so that every tool that parses
 * an error state (gdfs_parse_error_state) reads them; zlib inflates.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gemdebugfs.h"

/* Buffers above this size in one line are not a real GPU buffer. */
#define MAX_BUFFER (256u << 20)

static int push(struct gdfs_dwords *d, uint32_t v)
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
static int decode_words(const char *p, size_t len, struct gdfs_dwords *w,
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

int gdfs_ascii85_decode(const char *line, size_t len, struct gdfs_dwords *d,
		      struct strbuf *err)
{
	struct gdfs_dwords w = { 0 };
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
		ret = gdfs_inflate(bytes, w.n * 4, &raw, MAX_BUFFER);
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

int gdfs_inflate(const uint8_t *in, size_t len, struct strbuf *out, size_t max)
{
	unsigned char chunk[16384];
	z_stream z;
	int zr, ret = 0;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return -ENOMEM;
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)len;
	if ((size_t)z.avail_in != len) {
		ret = -EFBIG;
		goto out_end;
	}
	do {
		size_t got;

		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		zr = inflate(&z, Z_NO_FLUSH);
		if (zr != Z_OK && zr != Z_STREAM_END) {
			ret = zr == Z_MEM_ERROR ? -ENOMEM : -EINVAL;
			goto out_end;
		}
		got = sizeof(chunk) - z.avail_out;
		if (out->len + got > max) {
			ret = -EFBIG;
			goto out_end;
		}
		if (strbuf_add(out, chunk, got)) {
			ret = -ENOMEM;
			goto out_end;
		}
		/* No progress and not the end: the stream is cut short. */
		if (zr == Z_OK && !got && !z.avail_in) {
			ret = -EINVAL;
			goto out_end;
		}
	} while (zr != Z_STREAM_END);
out_end:
	inflateEnd(&z);
	return ret;
}

int gdfs_expand_ascii85(const char *buf, size_t len, struct strbuf *out,
			bool *found, struct strbuf *err)
{
	const char *p = buf, *end = buf + len;
	unsigned int line = 0;
	struct gdfs_dwords d = { 0 };
	int ret = 0;

	*found = false;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *le = eol ? eol : end;
		size_t i;

		line++;
		if (le > p && (*p == ':' || *p == '~')) {
			*found = true;
			d.n = 0;
			ret = gdfs_ascii85_decode(p, (size_t)(le - p), &d, err);
			if (ret) {
				if (err) {
					struct strbuf m = STRBUF_INIT;

					strbuf_addf(&m, "line %u: %s", line, err->buf);
					strbuf_reset(err);
					strbuf_addstr(err, m.buf);
					strbuf_release(&m);
				}
				break;
			}
			for (i = 0; i < d.n && !ret; i++)
				ret = strbuf_addf(out, "%08zx :  %08x\n", 4 * i, d.v[i]);
		} else {
			ret = strbuf_add(out, p, (size_t)(le - p)) || strbuf_addch(out, '\n') ?
			      -ENOMEM : 0;
		}
		if (ret)
			break;
		p = eol ? eol + 1 : end;
	}
	free(d.v);
	return ret;
}
