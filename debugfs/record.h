/*
 * libgemdebugfs internals: typed records.  A parser describes its record
 * struct with a table of fields (key, type, offset); gdfs_fill_fields
 * converts a line's key=value tokens into it, skipping keys it does not
 * know (fields are only ever added, FORMAT.md).
 */
#ifndef GEMKIT_DEBUGFS_RECORD_H
#define GEMKIT_DEBUGFS_RECORD_H

#include <stddef.h>
#include <string.h>

#include "gemdebugfs.h"

/* The most tokens a line may hold: generous, so a file from a newer gemd
 * with added fields still parses. */
#define GDFS_MAX_KEYS	128

enum gdfs_field_type {
	GDFS_F_U32, GDFS_F_U64, GDFS_F_I32, GDFS_F_BOOL,
	GDFS_F_ENUM,		/* int; names[] gives the words in order */
	GDFS_F_TEXT,		/* percent-decoded into char[size] */
};

struct gdfs_field {
	const char *key;
	unsigned char klen;
	unsigned char type;
	unsigned short size;	/* GDFS_F_TEXT */
	size_t off;
	const char *const *names;	/* GDFS_F_ENUM */
};

#define GDFS_FIELD(k, t, s, m) \
	{ k, sizeof(k) - 1, GDFS_F_##t, 0, offsetof(s, m), NULL }
#define GDFS_FIELD_ENUM(k, s, m, n) \
	{ k, sizeof(k) - 1, GDFS_F_ENUM, 0, offsetof(s, m), n }
#define GDFS_FIELD_TEXT(k, s, m) \
	{ k, sizeof(k) - 1, GDFS_F_TEXT, sizeof(((s *)0)->m), offsetof(s, m), NULL }

/*
 * A record's field table from its .def file (schema/schema.h):
 *
 *	static const struct gdfs_field object_fields[] = {
 *	#define FIELD(k, K, t, a)	GDFS_TAB_##K(struct gdfs_object, k, a)
 *	#include "objects.def"
 *	#undef FIELD
 *	};
 *
 * OWNERS and PERLIST fields are not in the table: their parsers convert
 * them (object_rest, counters_perlist).
 */
#define GDFS_TAB_U32(s, k, a)		GDFS_FIELD(#k, U32, s, k),
#define GDFS_TAB_U64(s, k, a)		GDFS_FIELD(#k, U64, s, k),
#define GDFS_TAB_I32(s, k, a)		GDFS_FIELD(#k, I32, s, k),
#define GDFS_TAB_HEX(s, k, a) \
	{ #k, sizeof(#k) - 1, sizeof(((s *)0)->k) == 8 ? GDFS_F_U64 : GDFS_F_U32, \
	  0, offsetof(s, k), NULL },
#define GDFS_TAB_BOOL(s, k, a)		GDFS_FIELD(#k, BOOL, s, k),
#define GDFS_TAB_ENUM(s, k, a)		GDFS_FIELD_ENUM(#k, s, k, a),
#define GDFS_TAB_TEXT(s, k, a)		GDFS_FIELD_TEXT(#k, s, k),
#define GDFS_TAB_OWNERS(s, k, a)
#define GDFS_TAB_EVTYPE(s, k, a)	GDFS_FIELD_TEXT(#k, s, k##_name),
#define GDFS_TAB_PERLIST(s, k, a)

int gdfs_fill_fields(const struct gdfs_field *tab, size_t ntab, void *rec,
		     const struct gdfs_kv *kv, int nkv, const char *what,
		     unsigned int line, struct strbuf *err);
/*
 * Parse a whole structured file: check its schema line names schema, then
 * call fn for every non-empty record.  fn returns 0 or -errno (having
 * described the problem with gdfs_err).  A file not ending in '\n' is
 * truncated: -EINVAL.
 */
typedef int (*gdfs_record_fn)(void *ctx, const struct gdfs_kv *kv, int n,
			      unsigned int line, struct strbuf *err);
int gdfs_parse_file(const char *buf, size_t len, const char *schema,
		    struct gdfs_schema *out, gdfs_record_fn fn, void *ctx,
		    struct strbuf *err);
/* The token with key, looking at index likely first (negative: from the
 * end; -1 is the last token). */
/*
 * Files of one record kind in bulk (gemkit_objects, gemkit_clients): an
 * array of structs described by a field table whose first field is
 * required.  While a line's keys come in table order each value is
 * converted where it lies, in one pass; the tokens from the first key out
 * of order on go the generic way (gdfs_fill_fields), and to rest() with
 * the record, for keys outside the table and checks.
 */
struct gdfs_vec {
	void *v;
	size_t n, alloc;
};
struct gdfs_array_desc {
	const char *schema;
	const struct gdfs_field *tab;
	size_t ntab;			/* <= 64 */
	size_t size;			/* of a record */
	void (*init)(void *rec);	/* defaults, before filling (may be NULL) */
	int (*rest)(void *ctx, void *rec, size_t index, const struct gdfs_kv *kv,
		    int n, unsigned int line, struct strbuf *err);
};
int gdfs_parse_array(const char *buf, size_t len, const struct gdfs_array_desc *d,
		     struct gdfs_schema *schema, struct gdfs_vec *vec, void *ctx,
		     struct strbuf *err);
/* A file whose records are its table and nothing more: the records into
 * *v and *n (on error nothing: all zero). */
int gdfs_parse_records(const char *buf, size_t len, const struct gdfs_array_desc *d,
		       struct gdfs_schema *schema, void **v, size_t *n, struct strbuf *err);
const struct gdfs_kv *gdfs_kv_find(const struct gdfs_kv *kv, int n, const char *key,
				   int likely);

static inline bool gdfs_kv_is(const struct gdfs_kv *kv, const char *key)
{
	size_t n = strlen(key);

	return kv->klen == n && !memcmp(kv->key, key, n);
}

static inline bool gdfs_val_is(const struct gdfs_kv *kv, const char *word)
{
	size_t n = strlen(word);

	return kv->vlen == n && !memcmp(kv->val, word, n);
}

/* Decimal or 0x hex in exactly n bytes: 0 or -EINVAL. */
int gdfs_parse_u64(const char *s, size_t n, uint64_t *out);

/* Describe the first error of a parse in err (later ones are dropped). */
void gdfs_err(struct strbuf *err, const char *what, unsigned int line,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * A growable array of records: gdfs_vec_push returns a zeroed slot or
 * NULL (-ENOMEM).  Growth is geometric, so n records cost O(n).
 */
void *gdfs_vec_push(void **v, size_t *n, size_t *alloc, size_t size);
/* Room for want records at once: 0 or -ENOMEM. */
int gdfs_vec_reserve(void **v, size_t *alloc, size_t want, size_t size);

#endif
