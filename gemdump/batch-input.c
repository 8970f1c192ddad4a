/* Reading batch dwords from raw binary or "%08x : %08x" text. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "util.h"

static bool is_text(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c != '\n' && c != '\r' && c != '\t' && (c < 0x20 || c > 0x7e))
			return false;
	}
	return true;
}

static int push(struct gd_dwords *out, size_t *alloc, uint32_t v)
{
	uint32_t *nv;

	if (out->n == *alloc) {
		size_t na = *alloc ? *alloc * 2 : 1024;

		nv = realloc(out->v, na * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		out->v = nv;
		*alloc = na;
	}
	out->v[out->n++] = v;
	return 0;
}

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* 1 to 8 hex digits, optionally after 0x.  Returns the end or NULL. */
static const char *parse_hex32(const char *p, const char *end, uint32_t *out)
{
	uint32_t v = 0;
	int n = 0;

	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	while (p < end && hex_digit(*p) >= 0) {
		if (++n > 8)
			return NULL;
		v = v << 4 | (uint32_t)hex_digit(*p++);
	}
	if (!n)
		return NULL;
	*out = v;
	return p;
}

/* "[ring name] --- gtt_offset = 0x%08x" and friends: the base, if any. */
static void parse_section(const char *p, const char *end, struct gd_dwords *out)
{
	const char *eq = memchr(p, '=', (size_t)(end - p));
	uint32_t v;

	if (!eq || out->has_base || out->n)
		return;
	p = skip_ws(eq + 1, end);
	if (parse_hex32(p, end, &v)) {
		out->has_base = true;
		out->base = v;
	}
}

static int parse_text(const char *buf, size_t len, struct gd_dwords *out,
		      struct strbuf *err)
{
	const char *p = buf, *end = buf + len;
	unsigned int line = 0;
	size_t alloc = 0;
	uint32_t off, v;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q, *le = eol ? eol : end;

		line++;
		if (le > p && le[-1] == '\r')
			le--;
		q = skip_ws(p, le);
		if (q == le || *q == '#')
			goto next;
		if (le - q >= 3 && memmem(q, (size_t)(le - q), "---", 3)) {
			parse_section(q, le, out);
			goto next;
		}
		q = parse_hex32(q, le, &off);
		if (q) {
			q = skip_ws(q, le);
			if (q < le && *q == ':') {
				q = skip_ws(q + 1, le);
				q = parse_hex32(q, le, &v);
				if (q && skip_ws(q, le) == le) {
					if (push(out, &alloc, v))
						return -ENOMEM;
					goto next;
				}
			}
		}
		if (err)
			strbuf_addf(err, "line %u: not a '%%08x : %%08x' dword line", line);
		return -EINVAL;
next:
		p = eol ? eol + 1 : end;
	}
	return 0;
}

int gd_parse_dwords(const char *buf, size_t len, struct gd_dwords *out,
		    struct strbuf *err)
{
	int ret;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (len && is_text(buf, len)) {
		out->text = true;
		ret = parse_text(buf, len, out, err);
		if (ret)
			gd_dwords_release(out);
		return ret;
	}
	if (len % 4) {
		if (err)
			strbuf_addf(err, "binary input of %zu bytes: a partial dword at byte offset %zu",
				    len, len & ~(size_t)3);
		return -EINVAL;
	}
	out->n = len / 4;
	if (!out->n)
		return 0;
	out->v = malloc(len);
	if (!out->v)
		return -ENOMEM;
	for (i = 0; i < out->n; i++) {
		const unsigned char *b = (const unsigned char *)buf + 4 * i;

		out->v[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 |
			    (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	}
	return 0;
}

void gd_dwords_release(struct gd_dwords *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}
