/*
 * The DRM client usage stats as Documentation/gpu/drm-usage-stats.rst
 * specifies them, parsed from the document's grammar and nothing of
 * gemd's: one "key: value" pair per line; the key has no whitespace and
 * ends at the first ':'; whitespace after the ':' is skipped; a numerical
 * value may end in a unit ("ns", "KiB", "MiB" ...).  So the same code
 * reads a kernel's /proc/<pid>/fdinfo/<fd>, gemd's gemkit_fdinfo and the
 * interposer's answer for a fake device's fd.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gemdebugfs.h"
#include "record.h"
#include "util.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

int gdfs_fdinfo_line(const char *line, size_t len, struct gdfs_fdinfo_kv *kv)
{
	const char *colon = memchr(line, ':', len), *p, *end = line + len;
	size_t i;

	memset(kv, 0, sizeof(*kv));
	if (len && line[len - 1] == '\n')
		end--;
	if (!colon || colon == line || colon > end)
		return -EINVAL;
	for (i = 0; line + i < colon; i++)
		if (is_space(line[i]))
			return -EINVAL;		/* keys have no whitespace */
	kv->key = line;
	kv->keylen = (size_t)(colon - line);
	for (p = colon + 1; p < end && is_space(*p); p++)
		;
	while (end > p && is_space(end[-1]))
		end--;
	kv->value = p;
	kv->valuelen = (size_t)(end - p);
	/* <uint> [unit]: digits, then optionally whitespace and one word. */
	if (p == end || *p < '0' || *p > '9')
		return 0;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (kv->num > (UINT64_MAX - 9) / 10)
			return 0;		/* not a number we can hold */
		kv->num = kv->num * 10 + (uint64_t)(*p - '0');
	}
	if (p < end && !is_space(*p))
		return 0;			/* "12abc": a string */
	while (p < end && is_space(*p))
		p++;
	for (i = 0; p + i < end; i++)
		if (is_space(p[i]))
			return 0;		/* more than one word after it */
	kv->is_num = true;
	kv->unit = p;
	kv->unitlen = (size_t)(end - p);
	return 0;
}

bool gdfs_fdinfo_key_is(const struct gdfs_fdinfo_kv *kv, const char *key)
{
	return strlen(key) == kv->keylen && !memcmp(kv->key, key, kv->keylen);
}

/* The units the document names, and what one is worth. */
static const struct {
	const char *name;
	uint64_t scale;
} units[] = {
	{ "", 1 }, { "ns", 1 }, { "KiB", 1ull << 10 }, { "MiB", 1ull << 20 },
	{ "GiB", 1ull << 30 }, { "Hz", 1 }, { "KHz", 1000 }, { "MHz", 1000000 },
};

int gdfs_fdinfo_value(const struct gdfs_fdinfo_kv *kv, uint64_t *out)
{
	size_t i;

	if (!kv->is_num)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (strlen(units[i].name) == kv->unitlen &&
		    !memcmp(units[i].name, kv->unit, kv->unitlen)) {
			if (kv->num > UINT64_MAX / units[i].scale)
				return -ERANGE;
			*out = kv->num * units[i].scale;
			return 0;
		}
	return -EINVAL;
}

/* Where each fdinfo.def key goes in a record. */
static const struct {
	const char *name;
	size_t offset;
} fdinfo_keys[] = {
#define FDINFO(field, name, unit) { name, offsetof(struct gdfs_client, field) },
#include "fdinfo.def"
#undef FDINFO
};

static int fdinfo_store(struct gdfs_client *c, const struct gdfs_fdinfo_kv *kv)
{
	uint64_t v;
	size_t i;

	if (gdfs_fdinfo_key_is(kv, "drm-client-id")) {
		if (gdfs_fdinfo_value(kv, &v) || v > UINT32_MAX)
			return -EINVAL;
		c->file = (uint32_t)v;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(fdinfo_keys); i++)
		if (gdfs_fdinfo_key_is(kv, fdinfo_keys[i].name)) {
			if (gdfs_fdinfo_value(kv, &v))
				return -EINVAL;
			memcpy((char *)c + fdinfo_keys[i].offset, &v, sizeof(v));
			return 0;
		}
	return 0;		/* a key of someone else's: ignored */
}

int gdfs_parse_fdinfo(const char *buf, size_t len, struct gdfs_clients *out,
		      struct strbuf *err)
{
	struct gdfs_client *c = NULL;
	size_t alloc = 0, off = 0, lineno = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	while (!ret && off < len) {
		const char *line = buf + off, *nl = memchr(line, '\n', len - off);
		size_t n = nl ? (size_t)(nl - line) : len - off;
		struct gdfs_fdinfo_kv kv;

		off += n + (nl != NULL);
		lineno++;
		if (!n || gdfs_fdinfo_line(line, n, &kv))
			continue;	/* blank lines part blocks; others are not ours */
		/* Every client's block starts with the mandatory drm-driver. */
		if (gdfs_fdinfo_key_is(&kv, "drm-driver")) {
			c = gdfs_vec_push((void **)&out->v, &out->n, &alloc, sizeof(*c));
			if (!c)
				ret = -ENOMEM;
			continue;
		}
		if (!c)
			continue;	/* pos:, flags: ... before the block */
		ret = fdinfo_store(c, &kv);
		if (ret && err)
			strbuf_addf(err, "line %zu: %.*s: not a number in a known unit",
				    lineno, (int)kv.keylen, kv.key);
	}
	if (ret)
		gdfs_clients_release(out);
	return ret;
}
