/*
 * The structured files' records, written from the field lists in
 * the .def files of debugfs/schema (schema.h): one formatter per record and each
 * file's schema line.  The show functions (objects.c, ring.c, gtt.c,
 * misc.c, events.c) fill a record struct from the snapshot and hand it
 * here, so what a field is called, where it goes and how its value is
 * written are said once, in the .def file, for gemd and libgemdebugfs
 * alike.
 *
 * Every formatter is straight-line code, one fmt_* call per field (the
 * .def expanded in place): no printf and no table walk on the path that
 * writes 100,000 objects.
 */
#include <errno.h>

#include "debugfs_priv.h"
#include "util.h"

/* " key=", without its space for the first field of a line (*skip = 1). */
static inline char *rec_key(char *p, size_t *skip, const char *key, size_t len)
{
	p = fmt_mem(p, key + *skip, len - *skip);
	*skip = 0;
	return p;
}
#define REC_KEY(p, skip, k)	rec_key((p), (skip), " " #k "=", sizeof(" " #k "=") - 1)

static char *rec_bool(char *p, bool v)
{
	*p++ = v ? '1' : '0';
	return p;
}

static char *rec_owners(char *p, const struct gdfs_owner *o, uint32_t n);
static char *rec_perlist(char *p, size_t *skip, const uint64_t *objects,
			 const uint64_t *bytes);

/* A field's value, by kind (schema.h)... */
#define REC_VALUE_U32(p, r, k, a)	fmt_u64(p, (r)->k)
#define REC_VALUE_U64(p, r, k, a)	fmt_u64(p, (r)->k)
#define REC_VALUE_I32(p, r, k, a)	fmt_i64(p, (r)->k)
#define REC_VALUE_HEX(p, r, k, a)	fmt_hex(fmt_lit(p, "0x"), (r)->k, a)
#define REC_VALUE_BOOL(p, r, k, a)	rec_bool(p, (r)->k)
#define REC_VALUE_ENUM(p, r, k, a) \
	fmt_str(p, (unsigned int)(r)->k < GDFS_NAMES_COUNT(a) ? a[(r)->k] : "unknown")
#define REC_VALUE_TEXT(p, r, k, a)	fmt_token(p, (r)->k, (a) - 1)
#define REC_VALUE_OWNERS(p, r, k, a)	rec_owners(p, (r)->k, (r)->n##k)
#define REC_VALUE_EVTYPE(p, r, k, a) \
	((unsigned int)(r)->k < GDFS_EV_OTHER ? fmt_str(p, gdfs_event_type_names[(r)->k]) : \
	 fmt_token(p, (r)->k##_name, (a) - 1))
/* ... and the field, " key=value" (PERLIST writes its own keys). */
#define REC_FIELD(p, s, r, k, K, a)	REC_VALUE_##K(REC_KEY(p, s, k), r, k, a)
#define REC_U32(p, s, r, k, a)		REC_FIELD(p, s, r, k, U32, a)
#define REC_U64(p, s, r, k, a)		REC_FIELD(p, s, r, k, U64, a)
#define REC_I32(p, s, r, k, a)		REC_FIELD(p, s, r, k, I32, a)
#define REC_HEX(p, s, r, k, a)		REC_FIELD(p, s, r, k, HEX, a)
#define REC_BOOL(p, s, r, k, a)		REC_FIELD(p, s, r, k, BOOL, a)
#define REC_ENUM(p, s, r, k, a)		REC_FIELD(p, s, r, k, ENUM, a)
#define REC_TEXT(p, s, r, k, a)		REC_FIELD(p, s, r, k, TEXT, a)
#define REC_OWNERS(p, s, r, k, a)	REC_FIELD(p, s, r, k, OWNERS, a)
#define REC_EVTYPE(p, s, r, k, a)	REC_FIELD(p, s, r, k, EVTYPE, a)
#define REC_PERLIST(p, s, r, k, a)	rec_perlist(p, s, (r)->k##_objects, (r)->k##_bytes)

/* The longest a field's value can be written, by kind. */
#define REC_MAX_U32(a)		10
#define REC_MAX_U64(a)		20
#define REC_MAX_I32(a)		11
#define REC_MAX_HEX(a)		18
#define REC_MAX_BOOL(a)		1
#define REC_MAX_ENUM(a)		16
#define REC_MAX_TEXT(a)		(3 * ((a) - 1))
#define REC_MAX_OWNERS(a)	0	/* plus debugfs_owner_max per owner */
#define REC_MAX_EVTYPE(a)	(3 * ((a) - 1))
#define REC_MAX_PERLIST(a)	(GDFS_LIST_COUNT * 2 * (16 + 10 + REC_MAX_U64(a)))
/* " key=" and the value; a record's total is the sum over its .def, plus
 * its kind= and the newline. */
#define REC_MAX(k, K, t, a)	+ (sizeof(#k) + 1 + REC_MAX_##K(a))
#define REC_VMAX(k, K, t, a, in) REC_MAX(k, K, t, a)

/* The keys of each record, in order, for the schema line; in: variants. */
struct rec_key {
	const char *key;
	unsigned int in;
};
#define REC_KEYS(k, K, t, a)	{ #k, ~0u },
#define REC_VKEYS(k, K, t, a, in) { #k, in },

/* Append the keys of keys[0..n) present in variant mask, joined by ','. */
static int add_keys(struct strbuf *sb, const struct rec_key *keys, size_t n,
		    unsigned int mask)
{
	size_t i, done = 0;
	int ret = 0;

	for (i = 0; !ret && i < n; i++)
		if (keys[i].in & mask)
			ret = strbuf_addf(sb, "%s%s", done++ ? "," : "", keys[i].key);
	return ret;
}

/* A schema line up to its fields: "schema=<file> version=1[ count=N] fields=". */
static int schema_start(struct strbuf *sb, const char *file, bool counted, size_t count)
{
	int ret = strbuf_addf(sb, "schema=%s version=%d", file, GDFS_SCHEMA_VERSION);

	if (!ret && counted)
		ret = strbuf_addf(sb, " count=%zu", count);
	return ret ? ret : strbuf_addstr(sb, " fields=");
}

/* One kind's part of fields=: "<sep><kind>:<keys>" ("kind=hole:start,size"). */
static int add_kind(struct strbuf *sb, const char *sep, const char *kind,
		    const struct rec_key *keys, size_t n, unsigned int mask)
{
	int ret = strbuf_addf(sb, "%s%s:", sep, kind);

	return ret ? ret : add_keys(sb, keys, n, mask);
}

/* The schema line of a file of one record kind: its keys in order. */
static int schema_one(struct strbuf *sb, const char *file, size_t count,
		      const struct rec_key *keys, size_t n)
{
	int ret = schema_start(sb, file, true, count);

	if (!ret)
		ret = add_keys(sb, keys, n, ~0u);
	return ret ? ret : strbuf_addch(sb, '\n');
}

/* --- gemkit_objects ------------------------------------------------------- */

#define REC_DEF		"objects.def"
#define REC_TYPE	struct gdfs_object
#define REC_KEYS_NAME	object_keys
#define REC_MAX_NAME	debugfs_object_max
#define REC_FMT_NAME	debugfs_fmt_object
#include "record-kind.inc"

const size_t debugfs_owner_max = 0
#define FIELD(k, K, t, a)	+ (1 + REC_MAX_##K(a))
#include "owner.def"
#undef FIELD
	;

/* file:pid:comm:handle,...: owner.def's values in order, no keys. */
static char *rec_owners(char *p, const struct gdfs_owner *o, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++, o++) {
		bool first = true;

		if (i)
			*p++ = ',';
#define FIELD(k, K, t, a) \
		if (!first) \
			*p++ = ':'; \
		first = false; \
		p = REC_VALUE_##K(p, o, k, a);
#include "owner.def"
#undef FIELD
	}
	return p;
}

int debugfs_schema_objects(struct strbuf *sb, size_t count)
{
	return schema_one(sb, "gemkit_objects", count, object_keys, ARRAY_SIZE(object_keys));
}

/* --- gemkit_fences -------------------------------------------------------- */

#define REC_DEF		"fences.def"
#define REC_TYPE	struct gdfs_fence
#define REC_KEYS_NAME	fence_keys
#define REC_MAX_NAME	debugfs_fence_max
#define REC_FMT_NAME	debugfs_fmt_fence
#include "record-kind.inc"

int debugfs_schema_fences(struct strbuf *sb, size_t count)
{
	return schema_one(sb, "gemkit_fences", count, fence_keys, ARRAY_SIZE(fence_keys));
}

/* --- gemkit_clients ------------------------------------------------------- */

#define REC_DEF		"clients.def"
#define REC_TYPE	struct gdfs_client
#define REC_KEYS_NAME	client_keys
#define REC_MAX_NAME	debugfs_client_max
#define REC_FMT_NAME	debugfs_fmt_client
#include "record-kind.inc"

int debugfs_schema_clients(struct strbuf *sb, size_t count)
{
	return schema_one(sb, "gemkit_clients", count, client_keys, ARRAY_SIZE(client_keys));
}

/* --- gemkit_gtt ----------------------------------------------------------- */

static const struct rec_key gtt_range_keys[] = {
#define VFIELD REC_VKEYS
#include "gtt.def"
#undef VFIELD
};
const size_t debugfs_gtt_range_max = sizeof("kind=range\n")
#define VFIELD REC_VMAX
#include "gtt.def"
#undef VFIELD
	;
char *debugfs_fmt_gtt_range(char *p, const struct gdfs_gtt_range *r)
{
	unsigned int in = r->hole ? GDFS_GTT_HOLE : GDFS_GTT_RANGE;
	size_t skip = 0;

	p = r->hole ? fmt_lit(p, "kind=hole") : fmt_lit(p, "kind=range");
#define VFIELD(k, K, t, a, vin) \
	if ((vin) & in) \
		p = REC_##K(p, &skip, r, k, a);
#include "gtt.def"
#undef VFIELD
	*p++ = '\n';
	return p;
}

#define REC_DEF		"gtt-summary.def"
#define REC_TYPE	struct gdfs_gtt
#define REC_KIND	"kind=summary"
#define REC_KEYS_NAME	gtt_summary_keys
#define REC_MAX_NAME	debugfs_gtt_summary_max
#define REC_FMT_NAME	debugfs_fmt_gtt_summary
#include "record-kind.inc"

int debugfs_schema_gtt(struct strbuf *sb)
{
	int ret = schema_start(sb, "gemkit_gtt", false, 0);

	if (!ret)
		ret = add_kind(sb, "", "kind=range", gtt_range_keys,
			       ARRAY_SIZE(gtt_range_keys), GDFS_GTT_RANGE);
	if (!ret)
		ret = add_kind(sb, ";", "kind=hole", gtt_range_keys,
			       ARRAY_SIZE(gtt_range_keys), GDFS_GTT_HOLE);
	if (!ret)
		ret = add_kind(sb, ";", "kind=summary", gtt_summary_keys,
			       ARRAY_SIZE(gtt_summary_keys), ~0u);
	return ret ? ret : strbuf_addch(sb, '\n');
}

/* --- gemkit_ring ---------------------------------------------------------- */

#define REC_DEF		"ring.def"
#define REC_TYPE	struct gdfs_ring
#define REC_KIND	"kind=ring"
#define REC_KEYS_NAME	ring_keys
#define REC_MAX_NAME	debugfs_ring_max
#define REC_FMT_NAME	debugfs_fmt_ring
#include "record-kind.inc"

#define REC_DEF		"request.def"
#define REC_TYPE	struct gdfs_request
#define REC_KIND	"kind=request"
#define REC_KEYS_NAME	request_keys
#define REC_MAX_NAME	debugfs_request_max
#define REC_FMT_NAME	debugfs_fmt_request
#include "record-kind.inc"

int debugfs_schema_ring(struct strbuf *sb)
{
	int ret = schema_start(sb, "gemkit_ring", false, 0);

	if (!ret)
		ret = add_kind(sb, "", "kind=ring", ring_keys, ARRAY_SIZE(ring_keys), ~0u);
	if (!ret)
		ret = add_kind(sb, ";", "kind=request", request_keys,
			       ARRAY_SIZE(request_keys), ~0u);
	return ret ? ret : strbuf_addch(sb, '\n');
}

/* --- gemkit_counters ------------------------------------------------------ */

/* "<list>_objects=N <list>_bytes=M" for every list, in list order. */
static char *rec_perlist(char *p, size_t *skip, const uint64_t *objects,
			 const uint64_t *bytes)
{
	unsigned int l;

	for (l = 0; l < GDFS_LIST_COUNT; l++) {
		if (!*skip)
			*p++ = ' ';
		*skip = 0;
		p = fmt_str(p, gdfs_list_names[l]);
		p = fmt_lit(p, "_objects=");
		p = fmt_u64(p, objects[l]);
		*p++ = ' ';
		p = fmt_str(p, gdfs_list_names[l]);
		p = fmt_lit(p, "_bytes=");
		p = fmt_u64(p, bytes[l]);
	}
	return p;
}

/* The file has no fields= list: it is one record of counters, each read
 * by name. */
int debugfs_fmt_counters(struct strbuf *sb, const struct gdfs_counter_values *r)
{
	char *p;
	size_t skip = 1;
	int ret;

	ret = strbuf_addf(sb, "schema=gemkit_counters version=%d\n", GDFS_SCHEMA_VERSION);
	if (ret)
		return ret;
	p = sb_reserve(sb, 1
#define FIELD REC_MAX
#include "counters.def"
#undef FIELD
		       );
	if (!p)
		return -ENOMEM;
#define FIELD(k, K, t, a)	p = REC_##K(p, &skip, r, k, a);
#include "counters.def"
#undef FIELD
	*p++ = '\n';
	sb_commit(sb, p);
	return 0;
}

/* --- gemkit_events -------------------------------------------------------- */

static const struct rec_key event_keys[] = {
#define VFIELD REC_VKEYS
#include "events.def"
#undef VFIELD
};

const size_t debugfs_event_max = 1
#define VFIELD REC_VMAX
#include "events.def"
#undef VFIELD
	;

char *debugfs_fmt_event(char *p, const struct gdfs_event *r)
{
	unsigned int in = 1u << r->type;
	size_t skip = 1;

#define VFIELD(k, K, t, a, vin) \
	if ((vin) & in) \
		p = REC_##K(p, &skip, r, k, a);
#include "events.def"
#undef VFIELD
	*p++ = '\n';
	return p;
}

/* ",key" for each key type t adds to the common ones. */
static int event_type_keys(struct strbuf *sb, unsigned int t)
{
	size_t i;
	int ret = 0;

	strbuf_reset(sb);
	for (i = 0; !ret && i < ARRAY_SIZE(event_keys); i++)
		if (event_keys[i].in != GDFS_EV_ALL && (event_keys[i].in & (1u << t)))
			ret = strbuf_addf(sb, ",%s", event_keys[i].key);
	return ret;
}

/*
 * fields=: the keys every event has, then for each type the keys it adds;
 * types in a row with the same keys share an entry:
 * "seq,ts_ns,type;bind|unbind|evict:obj,offset,size;domain:...".
 */
static int add_event_fields(struct strbuf *sb)
{
	struct strbuf keys = STRBUF_INIT, next = STRBUF_INIT;
	unsigned int t, u;
	size_t i;
	int ret;

	for (i = 0, ret = 0; !ret && i < ARRAY_SIZE(event_keys); i++)
		if (event_keys[i].in == GDFS_EV_ALL)
			ret = strbuf_addf(sb, "%s%s", i ? "," : "", event_keys[i].key);
	for (t = 0; !ret && t < GDFS_EV_OTHER; t = u) {
		ret = event_type_keys(&keys, t);
		if (!ret)
			ret = strbuf_addf(sb, ";%s", gdfs_event_type_names[t]);
		for (u = t + 1; !ret && u < GDFS_EV_OTHER; u++) {
			ret = event_type_keys(&next, u);
			if (ret || strcmp(keys.buf, next.buf))
				break;
			ret = strbuf_addf(sb, "|%s", gdfs_event_type_names[u]);
		}
		if (!ret)
			ret = strbuf_addf(sb, ":%s", keys.len ? keys.buf + 1 : "");
	}
	strbuf_release(&keys);
	strbuf_release(&next);
	return ret;
}

int debugfs_schema_events(struct strbuf *sb, const struct gdfs_events *window,
			  uint64_t count)
{
	char *p;
	size_t skip = 0;
	int ret;

	ret = strbuf_addf(sb, "schema=gemkit_events version=%d", GDFS_SCHEMA_VERSION);
	if (ret)
		return ret;
	p = sb_reserve(sb, 1
#define FIELD REC_MAX
#include "events-window.def"
#undef FIELD
		       );
	if (!p)
		return -ENOMEM;
#define FIELD(k, K, t, a)	p = REC_##K(p, &skip, window, k, a);
#include "events-window.def"
#undef FIELD
	sb_commit(sb, p);
	ret = strbuf_addf(sb, " count=%llu fields=", (unsigned long long)count);
	if (!ret)
		ret = add_event_fields(sb);
	return ret ? ret : strbuf_addch(sb, '\n');
}
