/*
 * Private side of gemd's debugfs: the file table, the snapshot every show
 * function formats from, and the integer formatters that keep generation
 * for 100,000 objects cheap (no printf per field, no malloc per line).
 *
 * How to add a file: write a show function (and a write function if it is
 * writable) next to the subsystem it describes (objects.c, ring.c, gtt.c,
 * misc.c, events.c, error_state.c), declare it below, and add one line to debugfs_files[]
 * in debugfs.c.  Most files are DEBUGFS_SNAP_SHOW functions: their table
 * line names the parts of the snapshot they need (enum snap_want), the
 * core takes it under the lock and releases it afterwards, and the
 * function only formats it into the strbuf, lock-free.  Files that read
 * something else (the event ring, the error state) are DEBUGFS_SHOW.  A
 * structured (gemkit_*) file's records are declared in debugfs/schema and
 * written by records.c: its show function fills them from the snapshot
 * (DEVELOPERS.md, "A debugfs file, or a field of a record").
 */
#ifndef GEMKIT_DEBUGFS_PRIV_H
#define GEMKIT_DEBUGFS_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "debugfs.h"
#include "gem_priv.h"
#include "schema.h"
#include "strbuf.h"

/* --- the table --------------------------------------------------------- */

struct debugfs_snapshot;

struct debugfs_file {
	const char *name;
	/* Generate the whole file (at open) from the driver itself (files
	 * that need no snapshot).  NULL for the others. */
	int (*show)(struct gem_device *dev, struct strbuf *sb, const void *data);
	/* ... or from a snapshot the core takes with the 'snap' flags (enum
	 * snap_want) and releases afterwards: what most files do. */
	int (*snap_show)(const struct debugfs_snapshot *snap, struct strbuf *sb,
			 const void *data);
	unsigned int snap;
	/* Handle a write of the whole buffer; returns 0 or -errno.  NULL:
	 * read-only. */
	int (*write)(struct gem_device *dev, const char *buf, size_t len,
		     const void *data);
	const void *data;
	/* Permissions the file shows (0: 0644 if writable, else 0444). */
	unsigned int mode;
	/* Raw files (read in place, no snapshot): size and positional read. */
	uint64_t (*raw_size)(struct gem_device *dev, const void *data);
	ssize_t (*raw_read)(struct gem_device *dev, void *buf, size_t len,
			    uint64_t off, const void *data);
};

/* A text file (generated at open), as opposed to a raw one. */
static inline bool debugfs_is_text(const struct debugfs_file *f)
{
	return f->show || f->snap_show;
}

extern const struct debugfs_file debugfs_files[];
extern const unsigned int debugfs_nfiles;

/* The module parameters, dri/0/i915_params/<name> (params.def); an entry
 * whose mode is 0 has no file. */
#define DEBUGFS_PARAMS_DIR	"i915_params"
extern const struct debugfs_file debugfs_param_files[];
extern const unsigned int debugfs_nparams;
/* The render node's directory, dri/128: only its name file, as the DRM
 * core gives every minor; IGT finds the primary node's files by it. */
#define DEBUGFS_RENDER_DIR	"dri/128"

/* The directory of per-object raw files: dri/0/gemkit_object_data/<id>. */
#define DEBUGFS_OBJDIR		"gemkit_object_data"
/* The kept hang captures: dri/0/gemkit_errors/<hang number>. */
#define DEBUGFS_ERRDIR		"gemkit_errors"
/* Incremental event reads by name: dri/0/gemkit_events.since.<N>. */
#define DEBUGFS_EVENTS_SINCE	"gemkit_events.since."

/* Resolve a name relative to dri/0.  For gemkit_events.since.N, *arg = N;
 * for gemkit_object_data/ID, *arg = ID and the objdata pseudo-entry is
 * returned; for gemkit_errors/N, *arg = N and the errors pseudo-entry. */
const struct debugfs_file *debugfs_lookup(const char *name, uint64_t *arg);
/* Its permission bits (debugfs.c says which are whose). */
unsigned int debugfs_file_mode(const struct debugfs_file *f);
extern const struct debugfs_file debugfs_objdata_file;
extern const struct debugfs_file debugfs_errors_file;
/* Generate show file f (arg from debugfs_lookup) into out. */
int debugfs_generate(struct gem_device *dev, const struct debugfs_file *f,
		     uint64_t arg, struct strbuf *out);

/* --- the snapshot ------------------------------------------------------ */

struct snap_obj {
	uint32_t id;
	uint32_t flink_name;
	uint64_t size;
	uint64_t gtt_start;
	uint64_t gtt_size;		/* 0: not bound */
	uint64_t created_ns;		/* CLOCK_REALTIME */
	uint64_t bind_count, evict_count;
	uint32_t read_domains, write_domain;
	uint32_t last_read_seqno, last_write_seqno;
	uint32_t pin_count, user_pin_count;
	uint32_t tiling_mode, stride, madv, cache_level;
	uint32_t handle_count;
	uint32_t owner_first, owner_count;	/* into snap->owners */
	int32_t fence_reg;
	pid_t creator_pid;
	uint8_t list;			/* enum gem_list */
	bool active, dirty, map_and_fenceable, is_ring;
};

struct snap_owner {
	uint32_t file_id;		/* index into snap->files by id: see snap_file_of */
	uint32_t handle;
};

struct snap_file {
	uint32_t id;
	pid_t pid;
	char comm[16];
	uint32_t handle_count;
	uint32_t requests;		/* outstanding */
	uint64_t handle_bytes;		/* sum of sizes over its handles */
	uint64_t bound_bytes;		/* ... of those bound in the GTT */
	uint64_t resident_bytes;	/* ... of those with their pages */
	uint64_t purgeable_bytes;	/* ... of those DONTNEED, not purged */
	uint64_t active_bytes;		/* ... of those the GPU uses */
	struct gem_acct_stats acct;	/* acct.h */
};

/* A file's figures, without its owners (snapshot.c); dev->lock. */
void snap_file_fill(struct snap_file *sf, struct gem_file *file,
		    bool totals_only);

struct snap_request {
	uint32_t seqno;
	uint32_t tail;
	uint64_t emitted_ns;
	uint32_t file_id;		/* 0: none / gone */
	pid_t pid;
};

enum snap_want {
	SNAP_OBJECTS	= 1 << 0,	/* objs[] grouped by list, list order kept */
	SNAP_GTT_ORDER	= 1 << 1,	/* gtt_order[]: bound objects by address */
	SNAP_OWNERS	= 1 << 2,	/* owners[] per object, and files[] */
	SNAP_FILES	= 1 << 3,	/* files[] */
	SNAP_REQUESTS	= 1 << 4,	/* reqs[] */
	SNAP_RING	= 1 << 5,	/* ring[]: the ring's contents */
	SNAP_BATCHES	= 1 << 6,	/* batches: active COMMAND objects' contents */
	SNAP_HWS	= 1 << 7,	/* hws[] */
	/* files[] without a walk of their handles: handle_count,
	 * handle_bytes and requests only (bound_bytes 0), for the metrics,
	 * whose cost must not grow with the objects. */
	SNAP_FILE_TOTALS = 1 << 8,
};

struct snap_batch {
	uint32_t gtt_offset;
	uint32_t size;
	uint32_t *data;			/* size / 4 dwords */
};

struct debugfs_snapshot {
	unsigned int want;
	uint64_t taken_ns;		/* CLOCK_MONOTONIC */

	struct snap_obj *objs;
	size_t nobjs;
	size_t list_start[GEM_LIST_COUNT + 1];	/* objs of list l: [start[l], start[l+1]) */
	uint32_t *gtt_order;		/* indices into objs */
	size_t ngtt;
	struct snap_owner *owners;
	size_t nowners;
	struct snap_file *files;
	size_t nfiles;
	struct snap_request *reqs;
	size_t nreqs;
	uint32_t *ring;
	uint32_t ring_size;
	struct snap_batch *batches;
	size_t nbatches;
	uint32_t hws[1024];
	int32_t fence_obj[GEN3_NUM_FENCES];	/* index into objs, -1 = unused */

	/* device */
	uint64_t object_count, object_bytes;
	uint64_t list_count[GEM_LIST_COUNT], list_bytes[GEM_LIST_COUNT];
	uint64_t aperture_size, pinned_bytes;
	uint64_t gtt_free, gtt_largest_hole;
	uint32_t fences_used;		/* fence registers holding an object */
	uint32_t requests_outstanding;	/* dev->requests after the retire */
	uint64_t oldest_request_ns;	/* its oldest's emitted_ns, 0: none */
	uint64_t hangcheck_period_ns;	/* 0: off */
	uint32_t next_seqno, hw_seqno, waiting_seqno, irq_seqno, ring_tail;
	uint64_t irq_count;
	bool wedged, gpu_stopped, gpu_idle;
	struct gem_stats stats;
	struct gpu_stats gpu;
	/* registers */
	uint32_t head, tail, acthd, ctl, start, nopid;
	uint32_t ier, iir, imr, pipea_stat, pipeb_stat;
	uint32_t eir, instdone, ipehr;
};

int debugfs_snapshot_take(struct gem_device *dev, unsigned int want,
			  struct debugfs_snapshot *snap);
void debugfs_snapshot_release(struct debugfs_snapshot *snap);
/* The snapshot's file record with id, or NULL. */
const struct snap_file *snap_file_of(const struct debugfs_snapshot *snap, uint32_t id);

/* --- show and write functions, one group per subsystem ----------------- */

#define DEBUGFS_SHOW(fn) int fn(struct gem_device *dev, struct strbuf *sb, const void *data)
#define DEBUGFS_SNAP_SHOW(fn) int fn(const struct debugfs_snapshot *snap, struct strbuf *sb, \
				     const void *data)
#define DEBUGFS_WRITE(fn) int fn(struct gem_device *dev, const char *buf, size_t len, \
				 const void *data)

/* objects.c: object lists, i915_gem_objects, fences, gemkit_objects, clients,
 * gemkit_fences */
DEBUGFS_SNAP_SHOW(debugfs_show_gem_objects);
DEBUGFS_SNAP_SHOW(debugfs_show_gem_gtt);
DEBUGFS_SNAP_SHOW(debugfs_show_gem_list);	/* data = (uintptr_t)enum gem_list */
DEBUGFS_SNAP_SHOW(debugfs_show_fence_regs);
DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_objects);
DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_clients);
DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_fdinfo);	/* fdinfo.c */
/* A file's gemkit_clients record, usage figures included (fdinfo.c). */
void debugfs_client_record(struct gdfs_client *r, const struct snap_file *f);
DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_fences);
/* ring.c: requests, seqnos, interrupts, status page, ring, batches */
DEBUGFS_SNAP_SHOW(debugfs_show_gem_request);
DEBUGFS_SNAP_SHOW(debugfs_show_gem_seqno);
DEBUGFS_SNAP_SHOW(debugfs_show_gem_interrupt);
DEBUGFS_SNAP_SHOW(debugfs_show_gem_hws);
DEBUGFS_SNAP_SHOW(debugfs_show_ringbuffer_info);
DEBUGFS_SNAP_SHOW(debugfs_show_ringbuffer_data);
DEBUGFS_SNAP_SHOW(debugfs_show_batchbuffers);
DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_ring);
/* gtt.c: the GTT map and raw access to memory */
DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_gtt);
uint64_t debugfs_aperture_size(struct gem_device *dev, const void *data);
ssize_t debugfs_aperture_read(struct gem_device *dev, void *buf, size_t len,
			      uint64_t off, const void *data);
uint64_t debugfs_objdata_size(struct gem_device *dev, const void *data);
ssize_t debugfs_objdata_read(struct gem_device *dev, void *buf, size_t len,
			     uint64_t off, const void *data);
/* misc.c: device identity, wedged, drop_caches, counters */
DEBUGFS_SHOW(debugfs_show_name);
DEBUGFS_SHOW(debugfs_show_param);
DEBUGFS_SHOW(debugfs_show_swizzle_info);
DEBUGFS_SHOW(debugfs_show_wa_registers);
DEBUGFS_WRITE(debugfs_write_param);
DEBUGFS_SHOW(debugfs_show_capabilities);
DEBUGFS_SHOW(debugfs_show_wedged);
DEBUGFS_WRITE(debugfs_write_wedged);
DEBUGFS_SHOW(debugfs_show_drop_caches);
DEBUGFS_WRITE(debugfs_write_drop_caches);
DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_counters);
/* driver/metrics: the exposition (data = the struct metrics_format) */
DEBUGFS_SNAP_SHOW(debugfs_show_metrics);
/* error_state.c: i915_error_state from the kept capture */
DEBUGFS_SHOW(debugfs_show_error_state);	/* data: naming, NULL = 3.x */
struct error_naming;
extern const struct error_naming debugfs_error_naming_engines;	/* "rcs0" */
DEBUGFS_WRITE(debugfs_write_error_state);	/* clears it (and the records) */
DEBUGFS_SHOW(debugfs_show_error_record);	/* data = (uintptr_t)hang number */
/* events.c */
DEBUGFS_SHOW(debugfs_show_gemkit_events);	/* data: NULL = all */
int debugfs_events_since(struct gem_device *dev, struct strbuf *sb, uint64_t after);

/* The kernel's DROP_* bits (i915_debugfs.c, i915_gem_drop_caches). */
#define DROP_UNBOUND		(1u << 0)
#define DROP_BOUND		(1u << 1)
#define DROP_RETIRE		(1u << 2)
#define DROP_ACTIVE		(1u << 3)
#define DROP_FREED		(1u << 4)
#define DROP_SHRINK_ALL		(1u << 5)
#define DROP_IDLE		(1u << 6)
#define DROP_RESET_ACTIVE	(1u << 7)
#define DROP_RESET_SEQNO	(1u << 8)
#define DROP_RCU		(1u << 9)
#define DROP_ALL		0x3ffu
_Static_assert(DROP_ALL == (1u << GDFS_DROP_COUNT) - 1 && DROP_RCU == 1u << 9,
	       "gdfs_drop_names names every DROP_* bit");

/* --- the structured files' records (records.c) ---------------------------
 *
 * Formatters generated from the .def files of debugfs/schema: a show function fills
 * the record struct (schema.h) from its snapshot and writes it with these.
 * A formatter writes one line, '\n' included, at p, which has room for
 * debugfs_<record>_max bytes (objects: plus debugfs_owner_max per owner),
 * and returns its end; debugfs_fmt_counters appends the whole file to sb.
 * The schema functions write a file's first line.
 */
extern const size_t debugfs_object_max, debugfs_owner_max, debugfs_client_max;
extern const size_t debugfs_fence_max, debugfs_gtt_range_max, debugfs_gtt_summary_max;
extern const size_t debugfs_ring_max, debugfs_request_max, debugfs_event_max;
char *debugfs_fmt_object(char *p, const struct gdfs_object *r);
char *debugfs_fmt_fence(char *p, const struct gdfs_fence *r);
char *debugfs_fmt_client(char *p, const struct gdfs_client *r);
char *debugfs_fmt_gtt_range(char *p, const struct gdfs_gtt_range *r);
char *debugfs_fmt_gtt_summary(char *p, const struct gdfs_gtt *r);
char *debugfs_fmt_ring(char *p, const struct gdfs_ring *r);
char *debugfs_fmt_request(char *p, const struct gdfs_request *r);
char *debugfs_fmt_event(char *p, const struct gdfs_event *r);
int debugfs_fmt_counters(struct strbuf *sb, const struct gdfs_counter_values *r);
int debugfs_schema_objects(struct strbuf *sb, size_t count);
int debugfs_schema_clients(struct strbuf *sb, size_t count);
int debugfs_schema_fences(struct strbuf *sb, size_t count);
int debugfs_schema_gtt(struct strbuf *sb);
int debugfs_schema_ring(struct strbuf *sb);
/* Its first line, with the window (first_seq ... dropped) of window. */
int debugfs_schema_events(struct strbuf *sb, const struct gdfs_events *window,
			  uint64_t count);

/* The driver's values are the schema's words' indices (schema.h). */
_Static_assert((int)GEM_LIST_UNBOUND == GDFS_LIST_UNBOUND && (int)GEM_LIST_INACTIVE == GDFS_LIST_INACTIVE &&
	       (int)GEM_LIST_ACTIVE == GDFS_LIST_ACTIVE && (int)GEM_LIST_FLUSHING == GDFS_LIST_FLUSHING &&
	       (int)GEM_LIST_PINNED == GDFS_LIST_PINNED && (int)GEM_LIST_COUNT == GDFS_LIST_COUNT,
	       "enum gem_list is gdfs_list_names' order");
_Static_assert((int)I915_TILING_NONE == GDFS_TILING_NONE && (int)I915_TILING_X == GDFS_TILING_X &&
	       (int)I915_TILING_Y == GDFS_TILING_Y, "(int)I915_TILING_* index gdfs_tiling_names");
_Static_assert((int)I915_MADV_WILLNEED == GDFS_MADV_WILLNEED &&
	       (int)I915_MADV_DONTNEED == GDFS_MADV_DONTNEED && (int)GEM_MADV_PURGED == GDFS_MADV_PURGED,
	       "(int)I915_MADV_* index gdfs_madv_names");
_Static_assert((int)I915_CACHING_NONE == GDFS_CACHE_NONE && (int)I915_CACHING_CACHED == GDFS_CACHE_CACHED &&
	       (int)I915_CACHING_DISPLAY == GDFS_CACHE_DISPLAY, "(int)I915_CACHING_* index gdfs_cache_names");

/* --- fast formatting ----------------------------------------------------
 *
 * A line is written by reserving room for its longest form, appending
 * fields through a cursor and committing the cursor:
 *
 *	char *p = sb_reserve(sb, 256);
 *	if (!p) return -ENOMEM;
 *	p = fmt_lit(p, "id=");
 *	p = fmt_u64(p, id);
 *	*p++ = '\n';
 *	sb_commit(sb, p);
 */

/* Room for n more bytes; returns the write cursor or NULL (-ENOMEM).
 * Grows geometrically, so reserving per line is amortised O(1). */
static inline char *sb_reserve(struct strbuf *sb, size_t n)
{
	if (sb->alloc - sb->len <= n) {
		size_t want = sb->alloc > n ? sb->alloc : n + 1;

		if (strbuf_grow(sb, want))
			return NULL;
	}
	return sb->buf + sb->len;
}

static inline void sb_commit(struct strbuf *sb, char *p)
{
	sb->len = (size_t)(p - sb->buf);
	sb->buf[sb->len] = '\0';
}

static inline char *fmt_mem(char *p, const void *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}
#define fmt_lit(p, lit)	fmt_mem((p), (lit), sizeof(lit) - 1)
static inline char *fmt_str(char *p, const char *s)
{
	return fmt_mem(p, s, strlen(s));
}

/* Decimal, no padding. */
static inline char *fmt_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static inline char *fmt_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return fmt_u64(p, (uint64_t)0 - (uint64_t)v);
	}
	return fmt_u64(p, (uint64_t)v);
}

/* Decimal right-aligned in width columns (printf "%*llu"). */
static inline char *fmt_u64_pad(char *p, uint64_t v, int width)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (; width > n; width--)
		*p++ = ' ';
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* Lower-case hex, zero-padded to at least width digits ("%0*llx"). */
static inline char *fmt_hex(char *p, uint64_t v, int width)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	for (; width > n; width--)
		*p++ = '0';
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* Exactly 8 hex digits ("%08x"): the dump lines' hot path. */
static inline char *fmt_hex8(char *p, uint32_t v)
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 7; i >= 0; i--) {
		p[i] = digits[v & 15];
		v >>= 4;
	}
	return p + 8;
}

/* A value of a key=value record: bytes outside printable ASCII and
 * ' ', '%', '=', ',' and ':' are written as %XX (FORMAT.md); an empty
 * string gives an empty value.  Writes at most 3 * maxlen bytes. */
char *fmt_token(char *p, const char *s, size_t maxlen);

/* describe_obj of Linux 3.2 (no trailing newline); at most 256 bytes. */
char *fmt_describe_obj(char *p, const struct snap_obj *o);
/* The fake kernel pointer printed for object id (%p). */
static inline uint64_t debugfs_obj_ptr(uint32_t id)
{
	return 0xffff880000000000ull + ((uint64_t)id << 10);
}

/* Write a dump of n dwords as "%08x :  %08x" lines, offsets from 0, or
 * restarting at every page when per_page (i915_dump_object's quirk). */
int fmt_dword_dump(struct strbuf *sb, const uint32_t *dw, size_t n, bool per_page);

#endif
