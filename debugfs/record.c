/*
 * The structured files' record layer (debugfs/FORMAT.md): split at '\n',
 * then at ' ', then at the first '=' of each token.  No sscanf, no
 * strlen over the buffer, no copies: a record is a set of pointers into
 * the caller's buffer, and values are converted by hand.  This is the hot
 * path of every tool's refresh (100,000 objects, 25 keys each).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gemdebugfs.h"
#include "record.h"
#include "util.h"

void gdfs_cursor_init(struct gdfs_cursor *c, const char *buf, size_t len)
{
	c->p = buf;
	c->end = buf + len;
	c->line = 0;
}

int gdfs_next_record(struct gdfs_cursor *c, struct gdfs_kv *kv, int max)
{
	const char *p = c->p, *end = c->end, *tok;
	int n = 0;

	if (p >= end)
		return -1;
	c->line++;
	/* One pass over the line: key up to '=', value up to ' ' or '\n'. */
	for (;;) {
		while (p < end && *p == ' ')
			p++;
		if (p == end || *p == '\n')
			break;
		tok = p;
		while (p < end && *p != '=' && *p != ' ' && *p != '\n')
			p++;
		if (p == end || *p != '=' || p == tok || n >= max)
			goto bad;
		kv[n].key = tok;
		kv[n].klen = (size_t)(p - tok);
		kv[n].val = ++p;
		while (p < end && *p != ' ' && *p != '\n')
			p++;
		kv[n].vlen = (size_t)(p - kv[n].val);
		n++;
	}
	c->p = p < end ? p + 1 : end;
	return n;

bad:
	/* Skip the rest of the line, so a caller may go on past it. */
	p = memchr(p, '\n', (size_t)(end - p));
	c->p = p ? p + 1 : end;
	return -EINVAL;
}

int gdfs_kv_u64(const struct gdfs_kv *kv, uint64_t *out)
{
	return gdfs_parse_u64(kv->val, kv->vlen, out);
}

int gdfs_kv_i64(const struct gdfs_kv *kv, int64_t *out)
{
	uint64_t v;

	if (kv->vlen && kv->val[0] == '-') {
		if (gdfs_parse_u64(kv->val + 1, kv->vlen - 1, &v) || v > (uint64_t)INT64_MAX + 1)
			return -EINVAL;
		*out = (int64_t)(0 - v);
		return 0;
	}
	if (gdfs_parse_u64(kv->val, kv->vlen, &v) || v > INT64_MAX)
		return -EINVAL;
	*out = (int64_t)v;
	return 0;
}

int gdfs_parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;
	int d;

	if (!n)
		return -EINVAL;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (n > 18)
			return -EINVAL;
		for (i = 2; i < n; i++) {
			d = hex_digit(s[i]);
			if (d < 0)
				return -EINVAL;
			v = v << 4 | (uint64_t)d;
		}
		*out = v;
		return 0;
	}
	for (i = 0; i < n; i++) {
		unsigned int c = (unsigned char)s[i] - '0';

		if (c > 9 || v > (UINT64_MAX - c) / 10)
			return -EINVAL;
		v = v * 10 + c;
	}
	*out = v;
	return 0;
}

void gdfs_kv_text(const struct gdfs_kv *kv, char *out, size_t size)
{
	size_t i, o = 0;
	int hi, lo;

	if (!size)
		return;
	for (i = 0; i < kv->vlen && o + 1 < size; i++) {
		char c = kv->val[i];

		if (c == '%' && i + 2 < kv->vlen &&
		    (hi = hex_digit(kv->val[i + 1])) >= 0 &&
		    (lo = hex_digit(kv->val[i + 2])) >= 0) {
			c = (char)(hi << 4 | lo);
			i += 2;
		}
		out[o++] = c;
	}
	out[o] = '\0';
}

void gdfs_err(struct strbuf *err, const char *what, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	if (!err || err->len)
		return;
	if (line)
		strbuf_addf(err, "%s line %u: ", what, line);
	else
		strbuf_addf(err, "%s: ", what);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
}

int gdfs_parse_schema(const char *buf, size_t len, struct gdfs_schema *out,
		      struct strbuf *err)
{
	struct gdfs_cursor c;
	struct gdfs_kv kv[GDFS_MAX_KEYS];
	uint64_t v;
	int n, i;

	memset(out, 0, sizeof(*out));
	gdfs_cursor_init(&c, buf, len);
	n = gdfs_next_record(&c, kv, GDFS_MAX_KEYS);
	if (n <= 0 || !gdfs_kv_is(&kv[0], "schema") || !kv[0].vlen ||
	    kv[0].vlen >= sizeof(out->file)) {
		gdfs_err(err, "structured file", 1, "no schema line");
		return -EINVAL;
	}
	memcpy(out->file, kv[0].val, kv[0].vlen);
	out->file[kv[0].vlen] = '\0';
	for (i = 1; i < n; i++) {
		if (gdfs_kv_is(&kv[i], "version")) {
			if (gdfs_kv_u64(&kv[i], &v) || !v || v > UINT32_MAX) {
				gdfs_err(err, out->file, 1, "bad version");
				return -EINVAL;
			}
			out->version = (unsigned int)v;
		} else if (gdfs_kv_is(&kv[i], "count")) {
			if (gdfs_kv_u64(&kv[i], &out->count)) {
				gdfs_err(err, out->file, 1, "bad count");
				return -EINVAL;
			}
		}
	}
	if (!out->version) {
		gdfs_err(err, out->file, 1, "no version in the schema line");
		return -EINVAL;
	}
	return 0;
}

/* Keys are short: compare by hand rather than calling memcmp. */
static inline bool key_eq(const struct gdfs_field *f, const struct gdfs_kv *kv)
{
	size_t i;

	if (f->klen != kv->klen)
		return false;
	for (i = 0; i < kv->klen; i++)
		if (f->key[i] != kv->key[i])
			return false;
	return true;
}

/* Where the field table expects key kv: try the slot after the previous
 * match first (records keep their order), then search. */
static const struct gdfs_field *field_find(const struct gdfs_field *tab, size_t n,
					   size_t *hint, const struct gdfs_kv *kv)
{
	size_t i = *hint;

	if (i < n && key_eq(&tab[i], kv)) {
		*hint = i + 1;
		return &tab[i];
	}
	for (i = 0; i < n; i++)
		if (key_eq(&tab[i], kv)) {
			*hint = i + 1;
			return &tab[i];
		}
	return NULL;
}

static int enum_value(const char *const *names, const struct gdfs_kv *kv)
{
	int i;

	for (i = 0; names[i]; i++)
		if (strlen(names[i]) == kv->vlen && !memcmp(names[i], kv->val, kv->vlen))
			return i;
	return -1;
}

int gdfs_fill_fields(const struct gdfs_field *tab, size_t ntab, void *rec,
		     const struct gdfs_kv *kv, int nkv, const char *what,
		     unsigned int line, struct strbuf *err)
{
	size_t hint = 0;
	uint64_t u;
	int64_t s;
	int i, e;

	for (i = 0; i < nkv; i++) {
		const struct gdfs_field *f = field_find(tab, ntab, &hint, &kv[i]);
		char *dst;

		if (!f)
			continue;	/* fields are only ever added: skip */
		dst = (char *)rec + f->off;
		switch (f->type) {
		case GDFS_F_U32:
			if (gdfs_kv_u64(&kv[i], &u) || u > UINT32_MAX)
				goto bad;
			*(uint32_t *)dst = (uint32_t)u;
			break;
		case GDFS_F_U64:
			if (gdfs_kv_u64(&kv[i], &u))
				goto bad;
			*(uint64_t *)dst = u;
			break;
		case GDFS_F_I32:
			if (gdfs_kv_i64(&kv[i], &s) || s < INT32_MIN || s > INT32_MAX)
				goto bad;
			*(int32_t *)dst = (int32_t)s;
			break;
		case GDFS_F_BOOL:
			if (kv[i].vlen != 1 || (kv[i].val[0] != '0' && kv[i].val[0] != '1'))
				goto bad;
			*(bool *)dst = kv[i].val[0] == '1';
			break;
		case GDFS_F_ENUM:
			e = enum_value(f->names, &kv[i]);
			if (e < 0)
				goto bad;
			*(int *)dst = e;
			break;
		case GDFS_F_TEXT:
			gdfs_kv_text(&kv[i], dst, f->size);
			break;
		}
		continue;
bad:
		gdfs_err(err, what, line, "bad value '%.*s' for key '%.*s'",
			 (int)(kv[i].vlen > 40 ? 40 : kv[i].vlen), kv[i].val,
			 (int)kv[i].klen, kv[i].key);
		return -EINVAL;
	}
	return 0;
}

/* A find for a key outside the table (kind=, owners=). */
const struct gdfs_kv *gdfs_kv_find(const struct gdfs_kv *kv, int n, const char *key,
				   int likely)
{
	int i;

	if (likely < 0)
		likely += n;
	if (likely >= 0 && likely < n && gdfs_kv_is(&kv[likely], key))
		return &kv[likely];
	for (i = 0; i < n; i++)
		if (gdfs_kv_is(&kv[i], key))
			return &kv[i];
	return NULL;
}

int gdfs_parse_file(const char *buf, size_t len, const char *schema,
		    struct gdfs_schema *out, gdfs_record_fn fn, void *ctx,
		    struct strbuf *err)
{
	struct gdfs_kv kv[GDFS_MAX_KEYS];
	struct gdfs_cursor c;
	int n, ret;

	ret = gdfs_parse_schema(buf, len, out, err);
	if (ret)
		return ret;
	if (strcmp(out->file, schema)) {
		gdfs_err(err, schema, 1, "this is a %s file", out->file);
		return -EINVAL;
	}
	gdfs_cursor_init(&c, buf, len);
	gdfs_next_record(&c, kv, GDFS_MAX_KEYS);	/* the schema line */
	while ((n = gdfs_next_record(&c, kv, GDFS_MAX_KEYS)) != -1) {
		if (n < 0) {
			gdfs_err(err, schema, c.line, "malformed record (a token without '=')");
			return -EINVAL;
		}
		if (!n)
			continue;
		ret = fn(ctx, kv, n, c.line, err);
		if (ret)
			return ret;
	}
	if (len && buf[len - 1] != '\n') {
		gdfs_err(err, schema, c.line, "truncated (no newline at the end)");
		return -EINVAL;
	}
	return 0;
}

/* hex_digit as a table for the fast path: the digit's value plus one,
 * 0 for anything else. */
static const unsigned char hexval1[256] = {
	['0'] = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
	['A'] = 11, 12, 13, 14, 15, 16,
	['a'] = 11, 12, 13, 14, 15, 16,
};

/*
 * The fast path of gdfs_parse_array: convert the value of field f that
 * starts at v, in place, without splitting the line first.  Returns the
 * end of the value (a ' ' or le), or NULL if it does not convert cleanly
 * (the generic path then says why).
 */
static const char *fast_value(const struct gdfs_field *f, char *dst, const char *v,
			      const char *le)
{
	const char *p = v, *start;
	struct gdfs_kv kv;
	uint64_t x = 0;
	bool neg = false;
	int d;

	switch (f->type) {
	case GDFS_F_U32:
	case GDFS_F_U64:
	case GDFS_F_I32:
		if (f->type == GDFS_F_I32 && p < le && *p == '-') {
			neg = true;
			p++;
		}
		if (le - p > 2 && p[0] == '0' && p[1] == 'x') {
			start = p += 2;
			while (p < le && (d = hexval1[(unsigned char)*p] - 1) >= 0) {
				x = x << 4 | (uint64_t)d;
				p++;
			}
			if (p == start || p - start > 16)
				return NULL;
		} else {
			start = p;
			while (p < le && (unsigned int)(*p - '0') <= 9) {
				unsigned int c = (unsigned int)(*p - '0');

				if (x > (UINT64_MAX - c) / 10)
					return NULL;
				x = x * 10 + c;
				p++;
			}
			if (p == start)
				return NULL;
		}
		if (f->type == GDFS_F_U32) {
			if (neg || x > UINT32_MAX)
				return NULL;
			*(uint32_t *)dst = (uint32_t)x;
		} else if (f->type == GDFS_F_U64) {
			*(uint64_t *)dst = x;
		} else {
			if (x > (neg ? 0x80000000ull : (uint64_t)INT32_MAX))
				return NULL;
			*(int32_t *)dst = neg ? (int32_t)(0 - x) : (int32_t)x;
		}
		break;
	case GDFS_F_BOOL:
		if (p == le || (*p != '0' && *p != '1'))
			return NULL;
		*(bool *)dst = *p++ == '1';
		break;
	case GDFS_F_ENUM:
	case GDFS_F_TEXT:
		p = memchr(v, ' ', (size_t)(le - v));
		if (!p)
			p = le;
		kv.val = v;
		kv.vlen = (size_t)(p - v);
		if (f->type == GDFS_F_TEXT) {
			gdfs_kv_text(&kv, dst, f->size);
		} else {
			d = enum_value(f->names, &kv);
			if (d < 0)
				return NULL;
			*(int *)dst = d;
		}
		break;
	}
	return p == le || *p == ' ' ? p : NULL;
}

/* Keys are a few bytes: a loop beats a call to memcmp. */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/*
 * Fill rec from the line [*pp, le) while its keys come in table order:
 * one pass, each value converted where it lies.  Stops at the end of the
 * line or at the first token that is not the next field (a new key, keys
 * out of order, a bad value), leaving *pp there.  Returns a mask of the
 * fields taken (bit i: tab[i]).
 */
static uint64_t fill_fast(const struct gdfs_field *tab, size_t ntab, void *rec,
			  const char **pp, const char *le)
{
	const char *p = *pp, *end;
	uint64_t seen = 0;
	size_t i;

	for (i = 0; i < ntab && p < le; i++) {
		const struct gdfs_field *f = &tab[i];

		if ((size_t)(le - p) <= f->klen || p[f->klen] != '=' ||
		    !same_bytes(p, f->key, f->klen))
			break;
		end = fast_value(f, (char *)rec + f->off, p + f->klen + 1, le);
		if (!end)
			break;
		seen |= 1ull << i;
		p = end;
		while (p < le && *p == ' ')
			p++;
	}
	*pp = p;
	return seen;
}

int gdfs_parse_array(const char *buf, size_t len, const struct gdfs_array_desc *d,
		     struct gdfs_schema *schema, struct gdfs_vec *vec, void *ctx,
		     struct strbuf *err)
{
	const char *p = buf, *end = buf + len, *le, *nl;
	struct gdfs_kv kv[GDFS_MAX_KEYS];
	struct gdfs_cursor c;
	unsigned int line = 1;
	uint64_t seen;
	void *rec;
	int n, ret;

	ret = gdfs_parse_schema(buf, len, schema, err);
	if (ret)
		return ret;
	if (strcmp(schema->file, d->schema)) {
		gdfs_err(err, d->schema, 1, "this is a %s file", schema->file);
		return -EINVAL;
	}
	nl = memchr(p, '\n', len);
	p = nl ? nl + 1 : end;
	for (; p < end; p = le + 1) {
		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			gdfs_err(err, d->schema, line, "truncated (no newline at the end)");
			return -EINVAL;
		}
		le = nl;
		if (p == le)
			continue;
		rec = gdfs_vec_push(&vec->v, &vec->n, &vec->alloc, d->size);
		if (!rec)
			return -ENOMEM;
		if (d->init)
			d->init(rec);
		seen = fill_fast(d->tab, d->ntab, rec, &p, le);
		/* What the fast path left: the generic way, which also names
		 * any problem. */
		n = 0;
		if (p < le) {
			gdfs_cursor_init(&c, p, (size_t)(le - p));
			n = gdfs_next_record(&c, kv, GDFS_MAX_KEYS);
			if (n < 0) {
				gdfs_err(err, d->schema, line, "malformed record (a token without '=')");
				return -EINVAL;
			}
			ret = gdfs_fill_fields(d->tab, d->ntab, rec, kv, n, d->schema, line, err);
			if (ret)
				return ret;
		}
		if (!(seen & 1) && !gdfs_kv_find(kv, n, d->tab[0].key, 0)) {
			gdfs_err(err, d->schema, line, "record without %s", d->tab[0].key);
			return -EINVAL;
		}
		if (d->rest) {
			ret = d->rest(ctx, rec, vec->n - 1, kv, n, line, err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int gdfs_parse_records(const char *buf, size_t len, const struct gdfs_array_desc *d,
		       struct gdfs_schema *schema, void **v, size_t *n, struct strbuf *err)
{
	struct gdfs_vec vec = { NULL, 0, 0 };
	int ret = gdfs_parse_array(buf, len, d, schema, &vec, NULL, err);

	if (ret) {
		free(vec.v);
		vec.v = NULL;
		vec.n = 0;
		memset(schema, 0, sizeof(*schema));
	}
	*v = vec.v;
	*n = vec.n;
	return ret;
}
