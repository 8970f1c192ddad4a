/*
 * The structured files' records, end to end: for every field of every
 * record in the .def files of debugfs/schema, gemd's formatter (driver/debugfs) and
 * libgemdebugfs's parser give back exactly the value put in, at the
 * extremes of its kind (0, the largest value, negatives, empty and fully
 * escaped text), and the schema line gemd prints lists exactly the
 * fields of the .def files, each record kind with its own.
 *
 * The field lists are expanded here too, so a field added to a .def file
 * is tested without touching this file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs_priv.h"
#include "gemdebugfs.h"
#include "gemtest.h"
#include "strbuf.h"
#include "util.h"

/* Records per file: variant v of each value, below. */
#define NV	4

/* 0, the largest, a third of it (all digits), 1. */
static uint64_t val_u(int v, uint64_t max)
{
	static const uint64_t third = 3;

	return v == 0 ? 0 : v == 1 ? max : v == 2 ? max / third : 1;
}

static int32_t val_i(int v)
{
	static const int32_t vals[NV] = { INT32_MIN, INT32_MAX, -1, 0 };

	return vals[v];
}

/* Free text: empty, every byte the format escapes, plain, and 15 bytes
 * (the most a TEXT of 16 holds) of which some escape. */
static const char *const texts[NV] = {
	"", "a b%c=d,e:f\x01\x7f\x80\xff", "gemtop", "0123456789a%=:,",
};

static void set_text(char *dst, size_t size, int v)
{
	size_t n = strlen(texts[v]);

	if (n > size - 1)
		n = size - 1;
	memcpy(dst, texts[v], n);
	dst[n] = '\0';
}

static struct gdfs_owner owner_pool[NV][3];
static const uint32_t owner_counts[NV] = { 0, 3, 1, 2 };

/* Set field k of r to variant v of its kind. */
#define SET_U32(r, k, a, v)	((r)->k = (uint32_t)val_u(v, UINT32_MAX))
#define SET_U64(r, k, a, v)	((r)->k = val_u(v, UINT64_MAX))
#define SET_I32(r, k, a, v)	((r)->k = val_i(v))
#define SET_HEX(r, k, a, v) \
	((r)->k = sizeof((r)->k) == 8 ? val_u(v, UINT64_MAX) : val_u(v, UINT32_MAX))
#define SET_BOOL(r, k, a, v)	((r)->k = (v) & 1)
#define SET_ENUM(r, k, a, v)	((r)->k = (v) % GDFS_NAMES_COUNT(a))
#define SET_TEXT(r, k, a, v)	set_text((r)->k, sizeof((r)->k), v)
#define SET_OWNERS(r, k, a, v)	((r)->k = owner_pool[v], (r)->n##k = owner_counts[v])
#define SET_EVTYPE(r, k, a, v)	((void)0)	/* the events loop sets the type */
#define SET_PERLIST(r, k, a, v) do { \
	unsigned int __l; \
	for (__l = 0; __l < GDFS_LIST_COUNT; __l++) { \
		(r)->k##_objects[__l] = val_u(((v) + __l) % NV, UINT64_MAX); \
		(r)->k##_bytes[__l] = val_u(((v) + __l + 1) % NV, UINT64_MAX); \
	} \
} while (0)

/* Check field k of got against want ("what" names the record). */
#define SAME(w, g, k, what) \
	gt_assert_f(!memcmp(&(w)->k, &(g)->k, sizeof((w)->k)), "%s: field %s differs", what, #k)
#define EQ_U32(w, g, k, a, what)	SAME(w, g, k, what)
#define EQ_U64(w, g, k, a, what)	SAME(w, g, k, what)
#define EQ_I32(w, g, k, a, what)	SAME(w, g, k, what)
#define EQ_HEX(w, g, k, a, what)	SAME(w, g, k, what)
#define EQ_BOOL(w, g, k, a, what)	SAME(w, g, k, what)
#define EQ_ENUM(w, g, k, a, what)	SAME(w, g, k, what)
#define EQ_TEXT(w, g, k, a, what) \
	gt_assert_f(!strcmp((w)->k, (g)->k), "%s: field %s: '%s', not '%s'", what, #k, \
		    (g)->k, (w)->k)
#define EQ_OWNERS(w, g, k, a, what)	check_owners((w)->k, (w)->n##k, (g)->k, (g)->n##k, what)
#define EQ_EVTYPE(w, g, k, a, what) do { \
	SAME(w, g, k, what); \
	gt_assert_f(!strcmp((g)->k##_name, (w)->k == GDFS_EV_OTHER ? (w)->k##_name : \
			    gdfs_event_type_names[(w)->k]), "%s: type name", what); \
} while (0)
#define EQ_PERLIST(w, g, k, a, what) do { \
	SAME(w, g, k##_objects, what); \
	SAME(w, g, k##_bytes, what); \
} while (0)

static void check_owners(const struct gdfs_owner *w, uint32_t nw,
			 const struct gdfs_owner *g, uint32_t ng, const char *what)
{
	uint32_t i;

	gt_assert_f(nw == ng, "%s: %u owners, not %u", what, ng, nw);
	for (i = 0; i < nw; i++) {
#define FIELD(k, K, t, a)	EQ_##K(&w[i], &g[i], k, a, "owner");
#include "owner.def"
#undef FIELD
	}
}

static void fill_owners(void)
{
	int v;
	uint32_t i;

	for (v = 0; v < NV; v++)
		for (i = 0; i < 3; i++) {
			struct gdfs_owner *o = &owner_pool[v][i];
			int ov = (v + (int)i) % NV;

			(void)ov;
#define FIELD(k, K, t, a)	SET_##K(o, k, a, ov);
#include "owner.def"
#undef FIELD
		}
}

/* The text after "fields=" on the first line of file, up to its end. */
static const char *fields_of(const char *file, char *buf, size_t size)
{
	const char *f = strstr(file, " fields="), *nl = strchr(file, '\n');

	gt_assert_f(f && nl && f < nl, "no fields= on the schema line: %.80s", file);
	f += strlen(" fields=");
	gt_assert((size_t)(nl - f) < size);
	memcpy(buf, f, (size_t)(nl - f));
	buf[nl - f] = '\0';
	return buf;
}

/*
 * In a description "a,b;v1|v2:c,d;kind=k:e", the keys listed for variant
 * name (one of the names before a ':'), or for the part without a ':'
 * when name is NULL.  Every variant must be listed exactly once.
 */
static void variant_keys(const char *desc, const char *name, char *out, size_t size)
{
	char copy[1024], *part, *save = NULL;
	int found = 0;

	gt_assert(strlen(desc) < sizeof(copy));
	memcpy(copy, desc, strlen(desc) + 1);
	out[0] = '\0';
	for (part = strtok_r(copy, ";", &save); part; part = strtok_r(NULL, ";", &save)) {
		char *colon = strchr(part, ':'), *names, *n, *s2 = NULL;

		if (!name) {
			if (!colon) {
				gt_assert(strlen(part) < size);
				memcpy(out, part, strlen(part) + 1);
				found++;
			}
			continue;
		}
		if (!colon)
			continue;
		*colon = '\0';
		names = part;
		for (n = strtok_r(names, "|", &s2); n; n = strtok_r(NULL, "|", &s2))
			if (!strcmp(n, name)) {
				gt_assert(strlen(colon + 1) < size);
				memcpy(out, colon + 1, strlen(colon + 1) + 1);
				found++;
			}
	}
	gt_assert_f(found == 1, "'%s' listed %d times in '%s'", name ? name : "(common)",
		    found, desc);
}

/* ",key" per field of a .def; keys[0] skips the first comma. */
#define KEY(k, K, t, a)		",", #k,
#define VKEY_IF(k, K, t, a, in)	(((in) & keys_mask) && ((in) != GDFS_EV_ALL || keys_all)) ? \
				"," #k : "",

static void join(char *out, size_t size, const char *const *parts, size_t n)
{
	size_t i, len = 0;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		size_t l = strlen(parts[i]);

		gt_assert(len + l < size);
		memcpy(out + len, parts[i], l + 1);
		len += l;
	}
	if (out[0] == ',')
		memmove(out, out + 1, len);
}

static void check_keys(const char *got, const char *const *parts, size_t n,
		       const char *what)
{
	char want[1024];

	join(want, sizeof(want), parts, n);
	gt_assert_f(!strcmp(got, want), "%s: fields '%s', the .def says '%s'", what, got, want);
}

static char *show(int (*fn)(const struct debugfs_snapshot *, struct strbuf *, const void *),
		  const struct debugfs_snapshot *snap)
{
	struct strbuf sb = STRBUF_INIT;

	gt_assert_eq(fn(snap, &sb, NULL), 0);
	return strbuf_detach(&sb, NULL);
}

int main(int argc, char **argv)
{
	char buf[1024], keys[1024];

	gemtest_init(argc, argv);
	fill_owners();

	gemtest_subtest("objects-round-trip") {
		struct gdfs_object want[NV];
		struct gdfs_objects got;
		struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
		int v;

		gt_assert_eq(debugfs_schema_objects(&sb, NV), 0);
		for (v = 0; v < NV; v++) {
			struct gdfs_object *r = &want[v];
			size_t room;

			memset(r, 0, sizeof(*r));
#define FIELD(k, K, t, a)	SET_##K(r, k, a, v);
#include "objects.def"
#undef FIELD
			/* id is the record's key: keep it non-zero */
			r->id = (uint32_t)v + 1;
			room = debugfs_object_max + r->nowners * debugfs_owner_max;
			sb_commit(&sb, debugfs_fmt_object(sb_reserve(&sb, room), r));
		}
		gt_assert_f(gdfs_parse_objects(sb.buf, sb.len, &got, &err) == 0, "%s", err.buf);
		gt_assert_eq(got.n, NV);
		gt_assert_eq(got.schema.count, NV);
		gt_assert(!strcmp(got.schema.file, "gemkit_objects"));
		gt_assert_eq(got.schema.version, GDFS_SCHEMA_VERSION);
		for (v = 0; v < NV; v++) {
#define FIELD(k, K, t, a)	EQ_##K(&want[v], &got.v[v], k, a, "gemkit_objects");
#include "objects.def"
#undef FIELD
		}
		gdfs_objects_release(&got);
		strbuf_release(&sb);
		strbuf_release(&err);
	}

	gemtest_subtest("clients-round-trip") {
		struct gdfs_client want[NV];
		struct gdfs_clients got;
		struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
		int v;

		gt_assert_eq(debugfs_schema_clients(&sb, NV), 0);
		for (v = 0; v < NV; v++) {
			struct gdfs_client *r = &want[v];

			memset(r, 0, sizeof(*r));
#define FIELD(k, K, t, a)	SET_##K(r, k, a, v);
#include "clients.def"
#undef FIELD
			sb_commit(&sb, debugfs_fmt_client(sb_reserve(&sb, debugfs_client_max), r));
		}
		gt_assert_f(gdfs_parse_clients(sb.buf, sb.len, &got, &err) == 0, "%s", err.buf);
		gt_assert_eq(got.n, NV);
		for (v = 0; v < NV; v++) {
#define FIELD(k, K, t, a)	EQ_##K(&want[v], &got.v[v], k, a, "gemkit_clients");
#include "clients.def"
#undef FIELD
		}
		gdfs_clients_release(&got);
		strbuf_release(&sb);
		strbuf_release(&err);
	}

	gemtest_subtest("fences-round-trip") {
		struct gdfs_fence want[NV];
		struct gdfs_fences got;
		struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
		int v;

		gt_assert_eq(debugfs_schema_fences(&sb, NV), 0);
		for (v = 0; v < NV; v++) {
			struct gdfs_fence *r = &want[v];

			memset(r, 0, sizeof(*r));
#define FIELD(k, K, t, a)	SET_##K(r, k, a, v);
#include "fences.def"
#undef FIELD
			sb_commit(&sb, debugfs_fmt_fence(sb_reserve(&sb, debugfs_fence_max), r));
		}
		gt_assert_f(gdfs_parse_fences(sb.buf, sb.len, &got, &err) == 0, "%s", err.buf);
		gt_assert_eq(got.n, NV);
		gt_assert_eq(got.schema.count, NV);
		for (v = 0; v < NV; v++) {
#define FIELD(k, K, t, a)	EQ_##K(&want[v], &got.v[v], k, a, "gemkit_fences");
#include "fences.def"
#undef FIELD
		}
		gdfs_fences_release(&got);
		strbuf_release(&sb);
		strbuf_release(&err);
	}

	gemtest_subtest("gtt-round-trip") {
		struct gdfs_gtt_range want[2 * NV];
		struct gdfs_gtt sum, got;
		struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
		uint64_t start = 0;
		int v, i;

		gt_assert_eq(debugfs_schema_gtt(&sb), 0);
		/* A hole and a range per variant, in address order (the
		 * parser refuses overlaps): starts and sizes stay small but
		 * still reach the extremes in the last record. */
		for (i = 0; i < 2 * NV; i++) {
			struct gdfs_gtt_range *r = &want[i];

			v = i / 2;
			memset(r, 0, sizeof(*r));
			r->hole = i % 2 == 0;
#define VFIELD(k, K, t, a, in)	if ((in) & (r->hole ? GDFS_GTT_HOLE : GDFS_GTT_RANGE)) \
					SET_##K(r, k, a, v);
#include "gtt.def"
#undef VFIELD
			if (r->hole)
				r->fence = -1;	/* what a parsed hole holds */
			r->start = start;
			r->size = i == 2 * NV - 1 ? UINT64_MAX - start : (uint64_t)i * 4096;
			start += r->size;
			sb_commit(&sb, debugfs_fmt_gtt_range(sb_reserve(&sb, debugfs_gtt_range_max), r));
		}
		memset(&sum, 0, sizeof(sum));
#define FIELD(k, K, t, a)	SET_##K(&sum, k, a, 1);
#include "gtt-summary.def"
#undef FIELD
		sb_commit(&sb, debugfs_fmt_gtt_summary(sb_reserve(&sb, debugfs_gtt_summary_max),
						       &sum));
		gt_assert_f(gdfs_parse_gtt(sb.buf, sb.len, &got, &err) == 0, "%s", err.buf);
		gt_assert_eq(got.n, 2 * NV);
		for (i = 0; i < 2 * NV; i++) {
			gt_assert_eq(got.v[i].hole, want[i].hole);
#define VFIELD(k, K, t, a, in)	if ((in) & (want[i].hole ? GDFS_GTT_HOLE : GDFS_GTT_RANGE)) \
					EQ_##K(&want[i], &got.v[i], k, a, "gemkit_gtt range");
#include "gtt.def"
#undef VFIELD
			if (want[i].hole)
				gt_assert_eq(got.v[i].fence, -1);
		}
#define FIELD(k, K, t, a)	EQ_##K(&sum, &got, k, a, "gemkit_gtt summary");
#include "gtt-summary.def"
#undef FIELD
		gdfs_gtt_release(&got);
		strbuf_release(&sb);
		strbuf_release(&err);
	}

	gemtest_subtest("ring-round-trip") {
		struct gdfs_ring want, got;
		struct gdfs_request reqs[NV];
		struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
		int v;

		for (v = 0; v < NV; v++) {
			strbuf_reset(&sb);
			gt_assert_eq(debugfs_schema_ring(&sb), 0);
			memset(&want, 0, sizeof(want));
#define FIELD(k, K, t, a)	SET_##K(&want, k, a, v);
#include "ring.def"
#undef FIELD
			sb_commit(&sb, debugfs_fmt_ring(sb_reserve(&sb, debugfs_ring_max), &want));
			for (int i = 0; i < NV; i++) {
				memset(&reqs[i], 0, sizeof(reqs[i]));
#define FIELD(k, K, t, a)	SET_##K(&reqs[i], k, a, (v + i) % NV);
#include "request.def"
#undef FIELD
				sb_commit(&sb, debugfs_fmt_request(sb_reserve(&sb, debugfs_request_max),
								   &reqs[i]));
			}
			gt_assert_f(gdfs_parse_ring(sb.buf, sb.len, &got, &err) == 0, "%s", err.buf);
#define FIELD(k, K, t, a)	EQ_##K(&want, &got, k, a, "gemkit_ring");
#include "ring.def"
#undef FIELD
			gt_assert_eq(got.nrequests, NV);
			for (int i = 0; i < NV; i++) {
#define FIELD(k, K, t, a)	EQ_##K(&reqs[i], &got.requests[i], k, a, "gemkit_ring request");
#include "request.def"
#undef FIELD
			}
			gdfs_ring_release(&got);
		}
		strbuf_release(&sb);
		strbuf_release(&err);
	}

	gemtest_subtest("counters-round-trip") {
		struct gdfs_counter_values want;
		struct gdfs_counters got;
		struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
		uint64_t value;
		int v;

		for (v = 0; v < NV; v++) {
			strbuf_reset(&sb);
			memset(&want, 0, sizeof(want));
#define FIELD(k, K, t, a)	SET_##K(&want, k, a, v);
#include "counters.def"
#undef FIELD
			gt_assert_eq(debugfs_fmt_counters(&sb, &want), 0);
			gt_assert_f(gdfs_parse_counters(sb.buf, sb.len, &got, &err) == 0, "%s",
				    err.buf);
#define FIELD(k, K, t, a)	EQ_##K(&want, &got.known, k, a, "gemkit_counters");
#include "counters.def"
#undef FIELD
			/* and by name, the way the tools read them */
			gt_assert(gdfs_counter(&got, "execbuffers", &value));
			gt_assert_eq_u64(value, want.execbuffers);
			gt_assert(gdfs_counter(&got, "inactive_bytes", &value));
			gt_assert_eq_u64(value, want.list_bytes[GDFS_LIST_INACTIVE]);
			gdfs_counters_release(&got);
		}
		strbuf_release(&sb);
		strbuf_release(&err);
	}

	gemtest_subtest("events-round-trip") {
		struct gdfs_event want[(GDFS_EV_OTHER + 1) * NV];
		struct gdfs_events window, got;
		struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
		size_t n = 0, i;
		int t, v;

		memset(&window, 0, sizeof(window));
#define FIELD(k, K, t, a)	SET_##K(&window, k, a, 1);
#include "events-window.def"
#undef FIELD
		gt_assert_eq(debugfs_schema_events(&sb, &window, ARRAY_SIZE(want)), 0);
		for (t = 0; t <= GDFS_EV_OTHER; t++)
			for (v = 0; v < NV; v++) {
				struct gdfs_event *r = &want[n];

				memset(r, 0, sizeof(*r));
#define VFIELD(k, K, ct, a, in)	if ((in) & (1u << t)) \
					SET_##K(r, k, a, v);
#include "events.def"
#undef VFIELD
				r->type = (enum gdfs_event_type)t;
				set_text(r->type_name, sizeof(r->type_name), 1);
				/* rising, as the parser wants, up to the largest */
				r->seq = ++n == ARRAY_SIZE(want) ? UINT64_MAX : n;
				sb_commit(&sb, debugfs_fmt_event(sb_reserve(&sb, debugfs_event_max),
								 r));
			}
		gt_assert_f(gdfs_parse_events(sb.buf, sb.len, &got, &err) == 0, "%s", err.buf);
#define FIELD(k, K, t, a)	EQ_##K(&window, &got, k, a, "gemkit_events window");
#include "events-window.def"
#undef FIELD
		gt_assert_eq(got.schema.count, n);
		gt_assert_eq(got.n, n);
		for (i = 0; i < n; i++) {
			unsigned int bit = 1u << want[i].type;

#define VFIELD(k, K, t, a, in)	if ((in) & bit) \
					EQ_##K(&want[i], &got.v[i], k, a, "gemkit_events");
#include "events.def"
#undef VFIELD
		}
		gdfs_events_release(&got);
		strbuf_release(&sb);
		strbuf_release(&err);
	}

	gemtest_subtest("schema-lines-list-the-def-fields") {
		static struct debugfs_snapshot empty;
		static const char *const object_keys[] = {
#define FIELD KEY
#include "objects.def"
#undef FIELD
		};
		static const char *const client_keys[] = {
#define FIELD KEY
#include "clients.def"
#undef FIELD
		};
		static const char *const ring_keys[] = {
#define FIELD KEY
#include "ring.def"
#undef FIELD
		};
		static const char *const request_keys[] = {
#define FIELD KEY
#include "request.def"
#undef FIELD
		};
		static const char *const fence_keys[] = {
#define FIELD KEY
#include "fences.def"
#undef FIELD
		};
		static const char *const summary_keys[] = {
#define FIELD KEY
#include "gtt-summary.def"
#undef FIELD
		};
		struct gdfs_events window = { .first_seq = 1 };
		struct strbuf sb = STRBUF_INIT;
		char *f;
		int t;

		/* What the show functions print, on an empty snapshot. */
		for (t = 0; t < GEN3_NUM_FENCES; t++)
			empty.fence_obj[t] = -1;
		f = show(debugfs_show_gemkit_objects, &empty);
		check_keys(fields_of(f, buf, sizeof(buf)), object_keys, ARRAY_SIZE(object_keys),
			   "gemkit_objects");
		free(f);
		f = show(debugfs_show_gemkit_clients, &empty);
		check_keys(fields_of(f, buf, sizeof(buf)), client_keys, ARRAY_SIZE(client_keys),
			   "gemkit_clients");
		free(f);

		f = show(debugfs_show_gemkit_fences, &empty);
		check_keys(fields_of(f, buf, sizeof(buf)), fence_keys, ARRAY_SIZE(fence_keys),
			   "gemkit_fences");
		free(f);

		f = show(debugfs_show_gemkit_ring, &empty);
		fields_of(f, buf, sizeof(buf));
		variant_keys(buf, "kind=ring", keys, sizeof(keys));
		check_keys(keys, ring_keys, ARRAY_SIZE(ring_keys), "gemkit_ring kind=ring");
		variant_keys(buf, "kind=request", keys, sizeof(keys));
		check_keys(keys, request_keys, ARRAY_SIZE(request_keys), "gemkit_ring kind=request");
		free(f);

		f = show(debugfs_show_gemkit_gtt, &empty);
		fields_of(f, buf, sizeof(buf));
		{
			const unsigned int keys_all = 1, kinds[2] = { GDFS_GTT_RANGE, GDFS_GTT_HOLE };
			const char *const names[2] = { "kind=range", "kind=hole" };
			int k;

			for (k = 0; k < 2; k++) {
				const unsigned int keys_mask = kinds[k];
				const char *const range_keys[] = {
#define VFIELD VKEY_IF
#include "gtt.def"
#undef VFIELD
				};

				variant_keys(buf, names[k], keys, sizeof(keys));
				check_keys(keys, range_keys, ARRAY_SIZE(range_keys), names[k]);
			}
		}
		variant_keys(buf, "kind=summary", keys, sizeof(keys));
		check_keys(keys, summary_keys, ARRAY_SIZE(summary_keys), "gemkit_gtt kind=summary");
		free(f);

		gt_assert_eq(debugfs_schema_events(&sb, &window, 0), 0);
		fields_of(sb.buf, buf, sizeof(buf));
		{
			const unsigned int keys_all = 1, keys_mask = GDFS_EV_ALL;
			const char *const common[] = {
#define VFIELD(k, K, ct, a, in)	(in) == GDFS_EV_ALL ? "," #k : "",
#include "events.def"
#undef VFIELD
			};

			(void)keys_all;
			(void)keys_mask;
			variant_keys(buf, NULL, keys, sizeof(keys));
			check_keys(keys, common, ARRAY_SIZE(common), "gemkit_events");
		}
		for (t = 0; t < GDFS_EV_OTHER; t++) {
			const unsigned int keys_all = 0, keys_mask = 1u << t;
			const char *const type_keys[] = {
#define VFIELD VKEY_IF
#include "events.def"
#undef VFIELD
			};

			variant_keys(buf, gdfs_event_type_names[t], keys, sizeof(keys));
			check_keys(keys, type_keys, ARRAY_SIZE(type_keys), gdfs_event_type_names[t]);
		}
		strbuf_release(&sb);
	}

	gemtest_subtest("name-tables") {
		gt_assert(!strcmp(gdfs_list_name(GDFS_LIST_FLUSHING), "flushing"));
		gt_assert(!strcmp(gdfs_list_name(GDFS_LIST_COUNT), "?"));
		gt_assert(!strcmp(gdfs_tiling_name(GDFS_TILING_Y), "y"));
		gt_assert(!strcmp(gdfs_madv_name(GDFS_MADV_PURGED), "purged"));
		gt_assert(!strcmp(gdfs_cache_name(GDFS_CACHE_DISPLAY), "display"));
		gt_assert(!strcmp(gdfs_event_type_name(GDFS_EV_PURGE), "purge"));
		gt_assert(!strcmp(gdfs_event_type_name(GDFS_EV_OTHER), "other"));
		gt_assert_eq(gdfs_name_lookup(gdfs_tiling_names, "X", true), GDFS_TILING_X);
		gt_assert_eq(gdfs_name_lookup(gdfs_tiling_names, "X", false), -1);
		gt_assert_eq(gdfs_name_lookup(gdfs_madv_names, "dontneed", false),
			     GDFS_MADV_DONTNEED);
		gt_assert_eq(gdfs_tiling_letter(GDFS_TILING_X), 'X');
		gt_assert_eq(gdfs_tiling_letter(GDFS_TILING_NONE), ' ');
		gt_assert_eq(gdfs_tiling_of_letter('Y'), GDFS_TILING_Y);
		gt_assert_eq(gdfs_tiling_of_letter(' '), GDFS_TILING_NONE);
		gt_assert_eq(gdfs_name_lookup(gdfs_domain_names, "gtt", false), 6);
		gt_assert_eq(gdfs_name_lookup(gdfs_drop_names, "shrink-all", false), 5);
		gt_assert_eq(gdfs_name_lookup(gdfs_drop_names, "rcu", false), 9);
		gdfs_domains_str(0x06, 0x02, buf, sizeof(buf));
		gt_assert(!strcmp(buf, "rs/R"));
		gdfs_domains_str(0, 0x40, buf, sizeof(buf));
		gt_assert(!strcmp(buf, "-/G"));
		gdfs_domains_str(0x7f, 0, buf, 5);
		gt_assert(!strcmp(buf, "cr/-"));
		gt_assert_eq(GDFS_NAMES_COUNT(gdfs_list_names), GDFS_LIST_COUNT);
		gt_assert_eq(GDFS_NAMES_COUNT(gdfs_event_type_names), GDFS_EV_OTHER);
	}

	return gemtest_exit();
}
