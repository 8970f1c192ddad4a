/*
 * libgemdebugfs: read a GEM driver's debugfs, whatever holds it.
 *
 * A *source* is where the dri/0 files come from:
 *   - a directory with the kernel's layout: a live gemd mount
 *     (<socket path>.debugfs), a real kernel's /sys/kernel/debug, or a saved
 *     copy (gdfs_save, or a tarball a test rig unpacked).  DIR may name the
 *     debugfs root (holding dri/0), dri/ or dri/0 itself;
 *   - a gemd socket (GEM_MSG_DEBUGFS), for hosts without /dev/fuse or a
 *     gemd started with --no-debugfs.
 *
 * Then parse what was read: the structured gemkit_* files (debugfs/FORMAT.md)
 * into plain structs, and the era files the tools present (describe_obj
 * lines, i915_gem_seqno, i915_ringbuffer_info, i915_error_state).
 *
 * gemtop, gemdump and gemctl read driver state through this library only.
 * Every function returns 0 (or a count) or -errno; parsers return -EINVAL
 * on malformed input and, when err is not NULL, describe the first problem
 * there ("gemkit_objects line 17: bad value for key 'size'").  Parsers never
 * crash or loop on any input, and their allocations are bounded by the
 * input's size.
 */
#ifndef GEMKIT_GEMDEBUGFS_H
#define GEMKIT_GEMDEBUGFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "schema.h"
#include "strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- sources ------------------------------------------------------------ */

/*
 * What a source trusts of what it reads: a file of a directory source is
 * read only if it is a regular file (-ESPIPE for a FIFO, a socket or a
 * device, -EISDIR for a directory), and gdfs_read brings at most
 * GDFS_MAX_FILE_SIZE bytes of it (-EFBIG beyond; gdfs_set_max_size; a
 * range read brings what its caller asks for).  On a live source (a FUSE mount, a gemd socket)
 * each operation waits for an answer GDFS_TIMEOUT_MS at most
 * (gdfs_set_timeout), then fails with -ETIMEDOUT: a stopped or hung gemd
 * never hangs a tool.  gdfs_strerror() words these for a user.
 */
#define GDFS_MAX_FILE_MIB	256
#define GDFS_MAX_FILE_SIZE	((size_t)GDFS_MAX_FILE_MIB << 20)
/* A socket source reads a file larger than a message (GEM_MSG_MAX_PAYLOAD,
 * 64 MiB), and any range, in pieces of this size: the most gemd buffers
 * for one of its requests. */
#define GDFS_SOCKET_CHUNK	(8u << 20)
#define GDFS_TIMEOUT_MS		5000u

struct gdfs;

enum gdfs_kind {
	GDFS_DIR,		/* a directory tree (live mount, kernel, saved copy) */
	GDFS_SOCKET,		/* a gemd socket */
};

/* DIR: root, dri/ or dri/0.  -ENOENT if no dri/0 is found under it. */
int gdfs_open_dir(const char *dir, struct gdfs **out);
/* A gemd socket path (NULL: the device path rule, GEM_DEVICE and the
 * runtime default).  -ENOENT/-ECONNREFUSED when no gemd listens. */
int gdfs_open_socket(const char *path, struct gdfs **out);
/*
 * What the tools do by default: with debugfs_dir set, that directory;
 * else the gemd at device (NULL: the device path rule), asked where its
 * debugfs is (GEM_MSG_MOUNT): through that FUSE mount if it is live and
 * that gemd's (the st_dev gemd gave), else through its socket.  Never a
 * tree found by guessing: two gemds side by side each show their own.
 */
int gdfs_open_auto(const char *device, const char *debugfs_dir, struct gdfs **out);
/* The gemd behind a socket source, or behind the mount gdfs_open_auto
 * chose: its pid and uid as the kernel saw them when it listened
 * (SO_PEERCRED; pid 0 outside our pid namespace).  -ENOENT for a plain
 * directory. */
int gdfs_peer(const struct gdfs *src, pid_t *pid, uid_t *uid);
/* The debugfs mount point of the gemd behind a socket source (the
 * directory holding dri/0), appended to dir once checked to be that
 * gemd's live mount.  -ENOENT when it has none, -ESTALE when what is
 * there now is not its mount. */
int gdfs_mount_dir(struct gdfs *sock, struct strbuf *dir);
void gdfs_close(struct gdfs *src);

/* How long each operation on a live source may wait (0: for ever); the
 * default, for sources opened later and for opening them, is
 * GDFS_TIMEOUT_MS unless gdfs_set_default_timeout changed it. */
void gdfs_set_timeout(struct gdfs *src, uint64_t timeout_ns);
void gdfs_set_default_timeout(uint64_t timeout_ns);
/* The most a whole-file read may bring (default GDFS_MAX_FILE_SIZE). */
void gdfs_set_max_size(struct gdfs *src, size_t max_size);
/* strerror(-err), but for a reader's words where a source's limits are
 * the reason: "not a regular file", "larger than 256 MiB", "no answer
 * within the timeout". */
const char *gdfs_strerror(int err);

enum gdfs_kind gdfs_kind(const struct gdfs *src);
/* "/run/gemkit/card0.debugfs/dri/0" or "socket /run/gemkit/card0", for
 * messages about a file ("DESCRIBE/NAME"). */
const char *gdfs_describe(const struct gdfs *src);
/* Where the state comes from, for a tool's header: "gemd PATH (pid N),
 * mount DIR/dri/0", "gemd PATH (pid N), over the socket", or a
 * directory's path. */
const char *gdfs_origin(const struct gdfs *src);

/*
 * Read a whole file (name relative to dri/0: "i915_gem_objects",
 * "gemkit_events.since.42", "gemkit_object_data/17"), appending to out.
 * A directory source keeps the file open and rereads it from offset 0 on
 * later calls (which regenerates it, as seq_file does), so sampling the
 * same file repeatedly costs one pread per call.  -ENOENT when the file
 * does not exist in this source.
 */
int gdfs_read(struct gdfs *src, const char *name, struct strbuf *out);
/* Bytes [off, off + len) of a raw file (gemkit_aperture, object data). */
int gdfs_read_range(struct gdfs *src, const char *name, uint64_t off, size_t len,
		    struct strbuf *out);
/* Write buf to a writable file (i915_wedged, i915_gem_drop_caches,
 * i915_error_state); returns len or -errno. */
ssize_t gdfs_write(struct gdfs *src, const char *name, const void *buf, size_t len);
/* Does the source have this file? */
bool gdfs_has(struct gdfs *src, const char *name);
/* The names in dri/0, one per line (what readdir shows), then the kept
 * hang records as gemkit_errors/<hang number>. */
int gdfs_list(struct gdfs *src, struct strbuf *out);

/*
 * Save every file of the source's dri/0 (plus gemkit_object_data/ when
 * with_data) under dir/dri/0, creating dir.  Files are written to a
 * temporary name and renamed, so a partial save is never mistaken for a
 * whole one.  Returns the number of files saved.  Files that fail to read
 * (EACCES on a real kernel, for instance) are skipped and counted in
 * *skipped when it is not NULL.
 */
int gdfs_save(struct gdfs *src, const char *dir, bool with_data, unsigned int *skipped);

/* --- structured files: common ------------------------------------------ */

/*
 * Low-level record iteration, for files or fields the typed parsers below
 * do not cover.  Split buf (len bytes, need not be NUL-terminated) at '\n';
 * each line at ' '; each token at its first '='.
 */
struct gdfs_kv {
	const char *key, *val;
	size_t klen, vlen;
};
struct gdfs_cursor {
	const char *p, *end;
	unsigned int line;	/* 1-based number of the line last returned */
};
void gdfs_cursor_init(struct gdfs_cursor *c, const char *buf, size_t len);
/* Next record into kv[0..max): returns the number of tokens (0 for an
 * empty line), -1 at the end, or -EINVAL when a token has no '=' or more
 * than max tokens are on the line. */
int gdfs_next_record(struct gdfs_cursor *c, struct gdfs_kv *kv, int max);
/* Value helpers: 0 or -EINVAL (not a number of that kind, or overflow). */
int gdfs_kv_u64(const struct gdfs_kv *kv, uint64_t *out);	/* decimal or 0x hex */
int gdfs_kv_i64(const struct gdfs_kv *kv, int64_t *out);
/* Percent-decode a free-text value into out (NUL-terminated, truncated to
 * size - 1). */
void gdfs_kv_text(const struct gdfs_kv *kv, char *out, size_t size);
/* Parse a schema line (line 1 of every structured file). */
int gdfs_parse_schema(const char *buf, size_t len, struct gdfs_schema *out,
		      struct strbuf *err);

/* --- gemkit_objects ----------------------------------------------------- */

/*
 * The record structs (struct gdfs_object, gdfs_client, gdfs_fence,
 * gdfs_gtt_range, gdfs_gtt, gdfs_request, gdfs_ring, gdfs_counter_values,
 * gdfs_event, gdfs_events), their enums and the name tables
 * (gdfs_list_names[], gdfs_list_name(), ...) are in schema/schema.h,
 * generated from the .def files beside it: one line per field, with what
 * it means.
 */

struct gdfs_objects {
	struct gdfs_schema schema;
	struct gdfs_object *v;
	size_t n;
	struct gdfs_owner *owner_pool;
	size_t nowner_pool;
	struct gdfs_object **index;	/* by id, built by gdfs_objects_find */
};
int gdfs_parse_objects(const char *buf, size_t len, struct gdfs_objects *out,
		       struct strbuf *err);
void gdfs_objects_release(struct gdfs_objects *objs);
/* The object with id, or NULL (binary search: records are not sorted by
 * id, so this builds an index on first use). */
const struct gdfs_object *gdfs_objects_find(struct gdfs_objects *objs, uint32_t id);

/* --- gemkit_clients ----------------------------------------------------- */

struct gdfs_clients {
	struct gdfs_schema schema;
	struct gdfs_client *v;
	size_t n;
	/* The records carry the usage figures (fdinfo.def): gemd measured
	 * them.  An older gemd's do not, and those members are 0 then. */
	bool has_usage;
};
int gdfs_parse_clients(const char *buf, size_t len, struct gdfs_clients *out,
		       struct strbuf *err);
void gdfs_clients_release(struct gdfs_clients *c);

/* --- DRM client usage stats (gemkit_fdinfo, /proc/<pid>/fdinfo) ------------ */

/*
 * One line of the kernel's format (Documentation/gpu/drm-usage-stats.rst):
 * "key: value", the key without whitespace up to the first ':', the value
 * after the whitespace that follows; a value that is an unsigned integer
 * optionally followed by one unit word is is_num, with num and unit.
 * Pointers are into the line.  0, or -EINVAL: not a key-value line.
 */
struct gdfs_fdinfo_kv {
	const char *key, *value, *unit;
	size_t keylen, valuelen, unitlen;
	bool is_num;
	uint64_t num;
};
int gdfs_fdinfo_line(const char *line, size_t len, struct gdfs_fdinfo_kv *kv);
bool gdfs_fdinfo_key_is(const struct gdfs_fdinfo_kv *kv, const char *key);
/* A numerical value in its unit's base (ns, bytes, Hz): KiB x 1024 ...;
 * -EINVAL for a string or an unknown unit, -ERANGE on overflow. */
int gdfs_fdinfo_value(const struct gdfs_fdinfo_kv *kv, uint64_t *out);
/* Blocks of fdinfo lines, each starting at drm-driver (gemkit_fdinfo, or
 * one /proc fdinfo file), into gemkit_clients records: file is
 * drm-client-id, the fdinfo.def figures are filled (bytes, ns), the rest
 * is 0; other keys and lines are ignored.  out->schema is unset. */
int gdfs_parse_fdinfo(const char *buf, size_t len, struct gdfs_clients *out,
		      struct strbuf *err);

/* --- gemkit_fences ------------------------------------------------------ */

struct gdfs_fences {
	struct gdfs_schema schema;
	struct gdfs_fence *v;		/* by register index */
	size_t n;
};
int gdfs_parse_fences(const char *buf, size_t len, struct gdfs_fences *out,
		      struct strbuf *err);
void gdfs_fences_release(struct gdfs_fences *f);

/* --- gemkit_gtt --------------------------------------------------------- */

int gdfs_parse_gtt(const char *buf, size_t len, struct gdfs_gtt *out,
		   struct strbuf *err);
void gdfs_gtt_release(struct gdfs_gtt *g);
/* The range or hole containing GTT address addr, or NULL. */
const struct gdfs_gtt_range *gdfs_gtt_lookup(const struct gdfs_gtt *g, uint64_t addr);

/* --- gemkit_ring -------------------------------------------------------- */

int gdfs_parse_ring(const char *buf, size_t len, struct gdfs_ring *out,
		    struct strbuf *err);
void gdfs_ring_release(struct gdfs_ring *r);

/* --- gemkit_counters ---------------------------------------------------- */

/*
 * Every key=value of the record, in file order (so a new counter is never
 * lost), plus the ones the tools use by name.
 */
struct gdfs_counter {
	char key[32];
	uint64_t value;
};
struct gdfs_counters {
	struct gdfs_schema schema;
	struct gdfs_counter *v;
	size_t n;
	struct gdfs_counter_values known;	/* those of counters.def (0: absent) */
};
int gdfs_parse_counters(const char *buf, size_t len, struct gdfs_counters *out,
			struct strbuf *err);
void gdfs_counters_release(struct gdfs_counters *c);
/* The counter named key; 0 and false when absent. */
bool gdfs_counter(const struct gdfs_counters *c, const char *key, uint64_t *value);

/* --- gemkit_events ------------------------------------------------------ */

int gdfs_parse_events(const char *buf, size_t len, struct gdfs_events *out,
		      struct strbuf *err);
void gdfs_events_release(struct gdfs_events *e);
/* Read the events after seq 'since' (0: all held) from src and parse them. */
int gdfs_read_events(struct gdfs *src, uint64_t since, struct gdfs_events *out,
		     struct strbuf *err);

/* --- era files ---------------------------------------------------------- */

/*
 * One describe_obj line of Linux 3.2 (i915_gem_active, _inactive, _pinned,
 * _gtt), with or without its leading spaces:
 *   "ffff880000400000: pX    16384 0002 0002 7 0 dirty (name: 3)
 *    (fence: 2) (gtt offset: 00040000, size: 00004000) (p mappable)
 *    (render ring)"
 */
struct gdfs_era_obj {
	uint64_t ptr;		/* the %p */
	char pin;		/* 'P' (user pin), 'p' (kernel pin) or ' ' */
	char tiling;		/* 'X', 'Y' or ' ' */
	uint64_t size;
	uint32_t read, write;
	uint32_t last_rendering_seqno, last_fenced_seqno;
	char cache[16];		/* "" or the cache level word (" snooped" ...) */
	bool dirty, purgeable;
	uint32_t name;		/* flink name, 0: none */
	int32_t fence;		/* -1: none */
	bool bound;
	uint32_t gtt_offset, gtt_size;
	bool pin_mappable, fault_mappable;
	char ring[16];		/* "render ring" or "" */
};
/* Parse one line (without its '\n'); -EINVAL if it is not one. */
int gdfs_parse_era_obj(const char *line, size_t len, struct gdfs_era_obj *out);
/* gemd's object id for an era line's pointer, or 0 if it is not gemd's. */
uint32_t gdfs_era_obj_id(uint64_t ptr);

/* i915_gem_seqno: "Current sequence (render ring): %d" ... */
struct gdfs_era_seqno {
	uint32_t current;
	bool has_waiter;
	uint32_t waiter;	/* "Waiter sequence" */
	uint32_t irq;		/* "IRQ sequence" */
};
int gdfs_parse_era_seqno(const char *buf, size_t len, struct gdfs_era_seqno *out,
			 struct strbuf *err);

/* i915_ringbuffer_info: the "Ring render ring:" block. */
struct gdfs_era_ringinfo {
	uint32_t head, tail, size, active, nopid, ctl, start;
};
int gdfs_parse_era_ringinfo(const char *buf, size_t len, struct gdfs_era_ringinfo *out,
			    struct strbuf *err);

/* ascii85.c: the buffer lines of later kernels' error states. */
struct gdfs_dwords {
	uint32_t *v;
	size_t n, alloc;
};

/* Decode one line (with its ':' or '~'), appending to d.  0, or -EINVAL
 * (err says where in the line), -ENOMEM. */
int gdfs_ascii85_decode(const char *line, size_t len, struct gdfs_dwords *d,
			struct strbuf *err);

/* Inflate a zlib stream (RFC 1950) into out, at most max bytes (zlib).
 * 0, or -EINVAL for a corrupt or truncated stream, -EFBIG past max. */
int gdfs_inflate(const uint8_t *in, size_t len, struct strbuf *out, size_t max);

/* Copy buf to out with every ascii85 line expanded to "%08x :  %08x"
 * lines; *found says whether there was any.  0, -EINVAL, -ENOMEM. */
int gdfs_expand_ascii85(const char *buf, size_t len, struct strbuf *out,
			bool *found, struct strbuf *err);

/*
 * i915_error_state (Linux 3.2-3.4 layouts, gemd's extra lines, and the
 * later "no error state collected").  The parser lives in errstate.c.
 */
struct gdfs_err_buffer {
	char name[32];		/* "render ring --- gtt_offset = 0x%08x" kind: "batch", "ring", ... */
	uint32_t gtt_offset;
	uint32_t *dwords;	/* into gdfs_error_state.dword_pool */
	size_t ndwords;
	char ring[24];		/* text before " ---": "render ring", "" */
};
struct gdfs_err_request {
	uint32_t seqno;
	uint64_t jiffies;
	uint32_t tail;
};
struct gdfs_error_state {
	bool present;		/* false: "no error state collected" */
	char time[64];		/* "Time: 1234 s 567 us" as text */
	uint32_t pci_id;
	uint32_t eir, pgtbl_er;
	uint32_t fences[16];
	unsigned int nfences;
	/* render command stream */
	uint32_t head, tail, acthd, ipeir, ipehr, instdone, instpm, seqno;
	uint32_t ring_head, ring_tail;
	bool has_ring_regs;
	/* gemd's extra lines (0 / "" when absent) */
	pid_t guilty_pid;
	char guilty_comm[16];
	uint32_t guilty_file;
	uint32_t guilty_seqno;
	uint64_t detect_ns;	/* submission to detection */
	char hang_kind[32];
	uint64_t hang_seq;	/* "gemd hang number", 0: absent */
	bool has_gemd;		/* any gemd line was seen */
	int64_t time_sec, time_usec;	/* the Time: line's values */
	/* buffer lists */
	struct gdfs_era_obj *active, *pinned;
	size_t nactive, npinned;
	struct gdfs_err_request *requests;
	size_t nrequests;
	struct gdfs_err_buffer *buffers;	/* batch(es) then the ring */
	size_t nbuffers;
	uint32_t *dword_pool;
	size_t ndword_pool;
	/* "  FADDR:" (3.10+ every gen; gemd: the faulting GTT address after
	 * a page-table error, else ACTHD at the error) */
	uint32_t faddr;
	bool has_faddr;
};
int gdfs_parse_error_state(const char *buf, size_t len, struct gdfs_error_state *out,
			   struct strbuf *err);
void gdfs_error_state_release(struct gdfs_error_state *e);

#ifdef __cplusplus
}
#endif
#endif
