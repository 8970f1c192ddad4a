/*
 * The structured debugfs files' records (debugfs/FORMAT.md), written
 * down once and shared by both ends: gemd's formatters (driver/debugfs)
 * and libgemdebugfs's parsers (debugfs/parse-*.c).  This directory holds
 * facts only -- no code of either end -- so the driver may include it
 * without seeing the reader, and the reader without seeing the driver.
 *
 * Each record is a list of fields in a .def file beside this header, one
 * line per field in file order:
 *
 *	FIELD(key, KIND, ctype, arg)
 *
 *   key    the record's key, and the member of the record struct
 *   KIND   how the value is written:
 *	      U32, U64   decimal
 *	      I32        signed decimal
 *	      HEX        "0x" and lower-case hex, at least arg digits
 *	      BOOL       0 or 1
 *	      ENUM       a word of the name table arg (below)
 *	      TEXT       free text, percent-encoded; the member is char[arg]
 *	                 and the value at most arg - 1 bytes
 *	    and three that belong to one record each:
 *	      OWNERS     gemkit_objects' owners: owner.def records joined by
 *	                 ',', their fields by ':'; members ctype *key and
 *	                 uint32_t nkey
 *	      EVTYPE     gemkit_events' type: a word of gdfs_event_type_names,
 *	                 or one a reader does not know (GDFS_EV_OTHER); members
 *	                 ctype key and char key_name[arg] (the word as read)
 *	      PERLIST    gemkit_counters' per-list totals: "<list>_objects=N
 *	                 <list>_bytes=M" for every list in gdfs_list_names
 *	                 order; members ctype key_objects[] and key_bytes[]
 *   ctype  the member's C type (checked against KIND below)
 *   arg    HEX: digits; ENUM: the table; TEXT, EVTYPE: the member's size;
 *	    otherwise empty
 *
 * Records with variants (gemkit_gtt's range and hole, gemkit_events'
 * types) have one list for all of them, with a fifth column saying which
 * variants carry the field: VFIELD(key, KIND, ctype, arg, in).
 *
 * Generated from the lists: the record structs below, the parsers' field
 * tables (debugfs/parse-*.c), the driver's formatters and each file's
 * "fields=" description (driver/debugfs/records.c), and the round-trip
 * test of every field (tests/unit/test-schema.c).  A consumer includes a
 * .def file with FIELD (and VFIELD) defined to what it wants of a field.
 */
#ifndef GEMKIT_DEBUGFS_SCHEMA_H
#define GEMKIT_DEBUGFS_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every structured file's schema line says version=1.  It changes only if
 * a field's meaning changes, which we avoid: fields are only ever added. */
#define GDFS_SCHEMA_VERSION	1

/* The metrics for Prometheus (gemd's driver/metrics; gemctl metrics): not
 * records, text in the Prometheus 0.0.4 and the OpenMetrics formats. */
#define GDFS_FILE_METRICS	"gemkit_metrics"
#define GDFS_FILE_OPENMETRICS	"gemkit_openmetrics"

/* --- name tables ---------------------------------------------------------
 *
 * The words of the enumerated values, as the structured files, gemtop,
 * gemctl and gemdump print them.  Each table is indexed by its enum and
 * ends in NULL; the enums' values are those of the uAPI where there is
 * one (the driver checks that at compile time).
 */

enum gdfs_list {
	GDFS_LIST_UNBOUND, GDFS_LIST_INACTIVE, GDFS_LIST_ACTIVE,
	GDFS_LIST_FLUSHING, GDFS_LIST_PINNED, GDFS_LIST_COUNT,
};
/* I915_TILING_* */
enum gdfs_tiling { GDFS_TILING_NONE, GDFS_TILING_X, GDFS_TILING_Y, GDFS_TILING_COUNT };
/* I915_MADV_*, then the kernel's __I915_MADV_PURGED */
enum gdfs_madv { GDFS_MADV_WILLNEED, GDFS_MADV_DONTNEED, GDFS_MADV_PURGED, GDFS_MADV_COUNT };
/* I915_CACHING_* */
enum gdfs_cache { GDFS_CACHE_NONE, GDFS_CACHE_CACHED, GDFS_CACHE_DISPLAY, GDFS_CACHE_COUNT };
enum gdfs_event_type {
	GDFS_EV_BIND, GDFS_EV_UNBIND, GDFS_EV_EVICT, GDFS_EV_DOMAIN,
	GDFS_EV_SUBMIT, GDFS_EV_WAIT, GDFS_EV_RETIRE, GDFS_EV_PURGE,
	GDFS_EV_OTHER,		/* a type this library does not know yet */
};

/* I915_GEM_DOMAIN_* bit i is named gdfs_domain_names[i], or the letter
 * gdfs_domain_letters[i] ("crsmivg": c(pu) r(ender) s(ampler) m (command)
 * i(nstruction) v(ertex) g(tt)). */
#define GDFS_DOMAIN_COUNT	7

extern const char *const gdfs_list_names[GDFS_LIST_COUNT + 1];
extern const char *const gdfs_tiling_names[GDFS_TILING_COUNT + 1];
extern const char *const gdfs_madv_names[GDFS_MADV_COUNT + 1];
extern const char *const gdfs_cache_names[GDFS_CACHE_COUNT + 1];
extern const char *const gdfs_event_type_names[GDFS_EV_OTHER + 1];
extern const char *const gdfs_domain_names[GDFS_DOMAIN_COUNT + 1];
extern const char gdfs_domain_letters[GDFS_DOMAIN_COUNT + 1];
/* i915_gem_drop_caches' bits (the kernel's DROP_*): bit i is
 * gdfs_drop_names[i], "unbound", "bound", ... */
#define GDFS_DROP_COUNT		10
extern const char *const gdfs_drop_names[GDFS_DROP_COUNT + 1];

/* The word for a value; "?" when it is out of range ("other" for an
 * event type). */
const char *gdfs_list_name(enum gdfs_list l);		/* "inactive", ... */
const char *gdfs_tiling_name(enum gdfs_tiling t);	/* "none", "x", "y" */
const char *gdfs_madv_name(enum gdfs_madv m);		/* "willneed", ... */
const char *gdfs_cache_name(enum gdfs_cache c);		/* "none", ... */
const char *gdfs_event_type_name(enum gdfs_event_type t);	/* "bind", ... */
/* The index of word in a NULL-terminated table, or -1.  With
 * ignore_case, "X" finds "x". */
int gdfs_name_lookup(const char *const *table, const char *word, bool ignore_case);
/* The era files' tiling letter (describe_obj's 'X'/'Y', the error
 * state's " X"/" Y"); ' ' for none. */
char gdfs_tiling_letter(enum gdfs_tiling t);
/* ... and back: 'X' or 'Y', else GDFS_TILING_NONE. */
enum gdfs_tiling gdfs_tiling_of_letter(char c);

/*
 * Domain masks as letters, after 3.2's describe_obj habit of showing both:
 * read domains in lower case, '/', the write domain in upper case; "-"
 * for none ("rs/R" reads render and sampler and writes render).  Always
 * NUL-terminated; truncated to size.
 */
void gdfs_domains_str(uint32_t read, uint32_t write, char *out, size_t size);

/* The number of words in a name table declared above (its NULL aside). */
#define GDFS_NAMES_COUNT(table)	(sizeof(table) / sizeof((table)[0]) - 1)

/* --- kinds ---------------------------------------------------------------- */

/* The member(s) a field declares in its record struct. */
#define GDFS_DECL_U32(t, k, a)		t k;
#define GDFS_DECL_U64(t, k, a)		t k;
#define GDFS_DECL_I32(t, k, a)		t k;
#define GDFS_DECL_HEX(t, k, a)		t k;
#define GDFS_DECL_BOOL(t, k, a)		t k;
#define GDFS_DECL_ENUM(t, k, a)		t k;
#define GDFS_DECL_TEXT(t, k, a)		t k[a];
#define GDFS_DECL_OWNERS(t, k, a)	t *k; uint32_t n##k;
#define GDFS_DECL_EVTYPE(t, k, a)	t k; char k##_name[a];
#define GDFS_DECL_PERLIST(t, k, a)	t k##_objects[GDFS_LIST_COUNT]; t k##_bytes[GDFS_LIST_COUNT];
#define GDFS_MEMBER(k, K, t, a)		GDFS_DECL_##K(t, k, a)
#define GDFS_VMEMBER(k, K, t, a, in)	GDFS_DECL_##K(t, k, a)

/* Whether a member of size n can hold what the parser stores for KIND. */
#define GDFS_SIZE_OK_U32(n)		((n) == 4)
#define GDFS_SIZE_OK_U64(n)		((n) == 8)
#define GDFS_SIZE_OK_I32(n)		((n) == 4)
#define GDFS_SIZE_OK_HEX(n)		((n) == 4 || (n) == 8)
#define GDFS_SIZE_OK_BOOL(n)		((n) == sizeof(bool))
#define GDFS_SIZE_OK_ENUM(n)		((n) == sizeof(int))
#define GDFS_SIZE_OK_TEXT(n)		((n) > 1)
#define GDFS_SIZE_OK_OWNERS(n)		((n) == sizeof(void *))
#define GDFS_SIZE_OK_EVTYPE(n)		((n) == sizeof(int))
#define GDFS_SIZE_OK_PERLIST(n)		1
#define GDFS_MEMBER_OF(s, k, K)		((s *)0)->GDFS_MEMBER_NAME_##K(k)
#define GDFS_MEMBER_NAME_U32(k)		k
#define GDFS_MEMBER_NAME_U64(k)		k
#define GDFS_MEMBER_NAME_I32(k)		k
#define GDFS_MEMBER_NAME_HEX(k)		k
#define GDFS_MEMBER_NAME_BOOL(k)	k
#define GDFS_MEMBER_NAME_ENUM(k)	k
#define GDFS_MEMBER_NAME_TEXT(k)	k
#define GDFS_MEMBER_NAME_OWNERS(k)	k
#define GDFS_MEMBER_NAME_EVTYPE(k)	k
#define GDFS_MEMBER_NAME_PERLIST(k)	k##_objects
#ifdef __cplusplus
#define GDFS_CHECK(s, k, K)
#else
#define GDFS_CHECK(s, k, K) \
	_Static_assert(GDFS_SIZE_OK_##K(sizeof(GDFS_MEMBER_OF(s, k, K))), \
		       #s "." #k ": the C type does not fit kind " #K);
#endif

/* Variants: which records of a file carry a field (VFIELD's last column). */
#define GDFS_GTT_RANGE		(1u << 0)	/* kind=range */
#define GDFS_GTT_HOLE		(1u << 1)	/* kind=hole */
#define GDFS_EV(type)		(1u << GDFS_EV_##type)
#define GDFS_EV_ALL		(~0u)

/* --- records --------------------------------------------------------------
 *
 * Each struct is its .def file's fields; the GDFS_CHECK lines after it
 * make the compiler refuse a C type that does not fit the field's kind.
 */

/* The schema line's common keys (the first line of every structured file). */
struct gdfs_schema {
	char file[32];		/* schema=... */
	unsigned int version;
	uint64_t count;		/* count= when present, else 0 */
};

/* gemkit_objects */
struct gdfs_owner {
#define FIELD GDFS_MEMBER
#include "owner.def"
#undef FIELD
};
#define FIELD(k, K, t, a)	GDFS_CHECK(struct gdfs_owner, k, K)
#include "owner.def"
#undef FIELD
struct gdfs_object {
#define FIELD GDFS_MEMBER
#include "objects.def"
#undef FIELD
};
#define FIELD(k, K, t, a)	GDFS_CHECK(struct gdfs_object, k, K)
#include "objects.def"
#undef FIELD

/* gemkit_fences */
struct gdfs_fence {
#define FIELD GDFS_MEMBER
#include "fences.def"
#undef FIELD
};
#define FIELD(k, K, t, a)	GDFS_CHECK(struct gdfs_fence, k, K)
#include "fences.def"
#undef FIELD

/* gemkit_clients */
struct gdfs_client {
#define FIELD GDFS_MEMBER
#include "clients.def"
#undef FIELD
};
#define FIELD(k, K, t, a)	GDFS_CHECK(struct gdfs_client, k, K)
#include "clients.def"
#undef FIELD

/* gemkit_gtt: the ranges and holes, and the summary */
struct gdfs_gtt_range {
	bool hole;		/* kind=hole: only start and size are set */
#define VFIELD GDFS_VMEMBER
#include "gtt.def"
#undef VFIELD
};
#define VFIELD(k, K, t, a, in)	GDFS_CHECK(struct gdfs_gtt_range, k, K)
#include "gtt.def"
#undef VFIELD
struct gdfs_gtt {
	struct gdfs_schema schema;
	struct gdfs_gtt_range *v;	/* ranges and holes, in address order */
	size_t n;
#define FIELD GDFS_MEMBER
#include "gtt-summary.def"
#undef FIELD
};
#define FIELD(k, K, t, a)	GDFS_CHECK(struct gdfs_gtt, k, K)
#include "gtt-summary.def"
#undef FIELD

/* gemkit_ring: the ring and its outstanding requests */
struct gdfs_request {
#define FIELD GDFS_MEMBER
#include "request.def"
#undef FIELD
};
#define FIELD(k, K, t, a)	GDFS_CHECK(struct gdfs_request, k, K)
#include "request.def"
#undef FIELD
struct gdfs_ring {
	struct gdfs_schema schema;
#define FIELD GDFS_MEMBER
#include "ring.def"
#undef FIELD
	struct gdfs_request *requests;	/* oldest first */
	size_t nrequests;
};
#define FIELD(k, K, t, a)	GDFS_CHECK(struct gdfs_ring, k, K)
#include "ring.def"
#undef FIELD

/* gemkit_counters: the counters this library knows (struct gdfs_counters
 * also keeps every key=value of the record, known or not) */
struct gdfs_counter_values {
#define FIELD GDFS_MEMBER
#include "counters.def"
#undef FIELD
};
#define FIELD(k, K, t, a)	GDFS_CHECK(struct gdfs_counter_values, k, K)
#include "counters.def"
#undef FIELD

/* gemkit_events: the window on the schema line, and the events */
struct gdfs_event {
#define VFIELD GDFS_VMEMBER
#include "events.def"
#undef VFIELD
};
#define VFIELD(k, K, t, a, in)	GDFS_CHECK(struct gdfs_event, k, K)
#include "events.def"
#undef VFIELD
struct gdfs_events {
	struct gdfs_schema schema;
#define FIELD GDFS_MEMBER
#include "events-window.def"
#undef FIELD
	struct gdfs_event *v;
	size_t n;
};
#define FIELD(k, K, t, a)	GDFS_CHECK(struct gdfs_events, k, K)
#include "events-window.def"
#undef FIELD

#ifdef __cplusplus
}
#endif
#endif
