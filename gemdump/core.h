/*
 * The capture file: an ELF core (ET_CORE, EM_NONE, little-endian, 64-bit)
 * whose notes (owner "GEMKIT") describe the driver and whose PT_LOAD
 * segments are the captured objects at their GTT offsets.  The layout and
 * its history are in gemdump/FORMAT.md.
 *
 * Every record starts with struct gd_rec_hdr: the record's version and
 * size in bytes.  Fields are only ever appended: a reader copies
 * min(size, sizeof(its struct)) and zeroes the rest, so an old reader
 * skips new fields and a new reader sees 0 for fields an old writer did
 * not have.  All integers are little-endian.
 */
#ifndef GEMKIT_GEMDUMP_CORE_H
#define GEMKIT_GEMDUMP_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

#define GD_CORE_OWNER		"GEMKIT"
#define GD_CORE_SCHEMA		1

/*
 * Note types.  Tools that do not check the owner (readelf, BFD) read
 * types 1..n of a core as NT_PRSTATUS and friends, so ours start at
 * "GK" << 16 and collide with nothing.
 */
#define GD_NT_BASE 0x474b0000u
enum gd_note_type {
	GD_NT_HEADER = GD_NT_BASE + 1,
	GD_NT_DEVICE = GD_NT_BASE + 2,
	GD_NT_RING = GD_NT_BASE + 3,
	GD_NT_REQUEST = GD_NT_BASE + 4,
	GD_NT_OBJECT = GD_NT_BASE + 5,
	GD_NT_FENCE = GD_NT_BASE + 6,
	GD_NT_REGISTER = GD_NT_BASE + 7,
	GD_NT_EVENT = GD_NT_BASE + 8,
	GD_NT_CLIENT = GD_NT_BASE + 9,
	GD_NT_OWNER = GD_NT_BASE + 10,
};

struct gd_rec_hdr {
	uint32_t version;
	uint32_t size;		/* bytes of the whole record, this header included */
};

enum gd_reason { GD_REASON_LIVE = 1, GD_REASON_ERROR_STATE = 2 };

struct gd_rec_header {
	struct gd_rec_hdr h;
	uint32_t schema;	/* GD_CORE_SCHEMA */
	uint32_t reason;	/* enum gd_reason */
	uint64_t time_ns;	/* CLOCK_REALTIME of the capture */
	char tool_version[32];	/* "gemdump 0.1.0" */
	char source[128];	/* the debugfs or the error-state file */
	char error_time[64];	/* the error state's "Time:" line, if any */
	/* what hangcheck said (error state), 0/"" when none */
	uint32_t guilty_seqno, guilty_file;
	int32_t guilty_pid;
	uint32_t pad0;
	char guilty_comm[16];
	char hang_kind[32];
	uint64_t detect_ns;
};

struct gd_rec_device {
	struct gd_rec_hdr h;
	uint32_t pci_id, gen;
	uint64_t aperture;	/* GTT bytes */
	uint32_t nfences, pad0;
};

enum gd_ring_flags {
	GD_RING_IDLE = 1, GD_RING_STOPPED = 2, GD_RING_WEDGED = 4,
	GD_RING_HAS_ERROR_REGS = 8,	/* ipeir..pgtbl_er are meaningful */
	GD_RING_HAS_FADDR = 16,		/* err_faddr is meaningful */
};

struct gd_rec_ring {
	struct gd_rec_hdr h;
	char name[16];		/* "render" */
	uint32_t head, tail, acthd, start, ctl, flags;
	uint64_t size;
	uint32_t emitted_seqno, completed_seqno, waiting_seqno, irq_seqno;
	uint32_t outstanding, ring_obj;	/* the ring's object id, 0: none */
	uint32_t ipeir, ipehr, instdone, instpm, eir, pgtbl_er;
	/* the ring registers when the error was captured (HAS_ERROR_REGS) */
	uint32_t err_head, err_tail, err_acthd, err_seqno;
	/* the error state's FADDR (HAS_FADDR): the address that faulted */
	uint32_t err_faddr, pad0;
};

struct gd_rec_request {
	struct gd_rec_hdr h;
	uint32_t seqno, tail, file;
	int32_t pid;
	uint64_t age_ns;
	char ring[16];
};

enum gd_obj_flags {
	GD_OBJ_CAPTURED = 1,	/* data_offset/data_size hold its bytes */
	GD_OBJ_DIRTY = 2,
	GD_OBJ_ACTIVE = 4,
	GD_OBJ_BOUND = 8,
	GD_OBJ_RING = 16,	/* a ring buffer */
	GD_OBJ_BATCH = 32,	/* the batch the error state captured */
};

struct gd_rec_object {
	struct gd_rec_hdr h;
	uint32_t id, flags;
	uint64_t size, gtt_offset, gtt_size;
	uint32_t read, write, pin, user_pin;
	int32_t fence;
	uint32_t tiling, stride, madv, cache, list;	/* enum gdfs_* values */
	uint32_t last_read_seqno, last_write_seqno, name, handles;
	int32_t creator_pid;
	uint32_t nowners;
	uint64_t created_ns, binds, evicts;
	uint64_t data_offset, data_size;	/* in the file; 0 when not captured */
};

struct gd_rec_owner {
	struct gd_rec_hdr h;
	uint32_t obj, file, handle;
	int32_t pid;
	char comm[16];
};

struct gd_rec_client {
	struct gd_rec_hdr h;
	uint32_t file;
	int32_t pid;
	char comm[16];
	uint32_t handles, requests;
	uint64_t handle_bytes, bound_bytes;
};

struct gd_rec_fence {
	struct gd_rec_hdr h;
	uint32_t index, obj;	/* obj 0: unused */
	uint64_t value;		/* the gen3 FENCE_REG value */
};

struct gd_rec_register {
	struct gd_rec_hdr h;
	char name[24];
	uint32_t value, pad0;
};

struct gd_rec_event {
	struct gd_rec_hdr h;
	uint64_t seq, ts_ns;
	uint32_t type;		/* enum gdfs_event_type */
	char type_name[16];
	uint32_t obj;
	uint64_t offset, size;
	uint32_t old_read, old_write, read, write;
	uint32_t seqno, file;
	uint64_t wait_ns;
	int32_t result;
	uint32_t pad0;
};

/* A capture in memory: what the writer takes and the reader gives. */
struct gd_capture {
	struct gd_rec_header header;
	struct gd_rec_device device;
	struct gd_rec_ring *rings;
	struct gd_rec_request *requests;
	struct gd_rec_object *objects;
	const uint8_t **data;	/* per object: its bytes, or NULL */
	struct gd_rec_owner *owners;
	struct gd_rec_client *clients;
	struct gd_rec_fence *fences;
	struct gd_rec_register *regs;
	struct gd_rec_event *events;
	size_t nrings, nrequests, nobjects, nowners, nclients, nfences, nregs, nevents;
	/* what release() frees */
	void *file;		/* the reader's copy of the file */
	size_t file_len;
	uint8_t **owned;	/* data buffers the writer side allocated */
	size_t nowned;
	/*
	 * Contents streamed at write time instead of held in data[]: for an
	 * object with GD_OBJ_CAPTURED set and data[i] NULL, the writer calls
	 * fill() to write its size bytes into fd at off.  -ENOENT or -ENODATA
	 * (the object went or changed meanwhile) keeps it without contents;
	 * another error fails the write.  release() calls fill_release().
	 */
	int (*fill)(void *arg, const struct gd_rec_object *o, int fd, uint64_t off);
	void (*fill_release)(void *arg);
	void *fill_arg;
};

void gd_capture_init(struct gd_capture *c);
void gd_capture_release(struct gd_capture *c);
/* The header's source: as is when it fits, else "..." and its end (the
 * part that says what it is: ".../gemkit/debugfs"), never its start only. */
void gd_capture_set_source(struct gd_capture *c, const char *source);
/* Append a zeroed record (with its header set); NULL on ENOMEM. */
struct gd_rec_object *gd_capture_add_object(struct gd_capture *c);
struct gd_rec_ring *gd_capture_add_ring(struct gd_capture *c);
struct gd_rec_request *gd_capture_add_request(struct gd_capture *c);
struct gd_rec_owner *gd_capture_add_owner(struct gd_capture *c);
struct gd_rec_client *gd_capture_add_client(struct gd_capture *c);
struct gd_rec_fence *gd_capture_add_fence(struct gd_capture *c);
struct gd_rec_register *gd_capture_add_register(struct gd_capture *c, const char *name,
						uint32_t value);
struct gd_rec_event *gd_capture_add_event(struct gd_capture *c);
/* Hand a malloc'd buffer to the capture (freed by release). */
int gd_capture_own(struct gd_capture *c, uint8_t *buf);

/* Write c to path atomically (temp file + rename).  0 or -errno; err says why.
 * Objects whose streamed contents vanished lose GD_OBJ_CAPTURED. */
int gd_capture_write(struct gd_capture *c, const char *path, struct strbuf *err);

/*
 * Parse a capture from buf (len bytes; the capture keeps buf, which must
 * be malloc'd, and frees it on release — also on failure).  0, or
 * -EINVAL with the offset of the problem in err.
 */
int gd_capture_parse(void *buf, size_t len, struct gd_capture *c, struct strbuf *err);
/* Read and parse a file. */
int gd_capture_load(const char *path, struct gd_capture *c, struct strbuf *err);

/* Lookups. */
const struct gd_rec_object *gd_capture_find_id(const struct gd_capture *c, uint32_t id);
/* The ring's requests that completed (seqno at or before completed_seqno,
 * modulo 2^32) but were not yet retired: counted in r->outstanding, yet
 * not outstanding for the GPU (gemtop says "+N retiring" too). */
unsigned int gd_ring_retiring(const struct gd_capture *c, const struct gd_rec_ring *r);

/* Objects and bytes of a capture: all, bound, with contents (info). */
struct gd_totals {
	size_t n, bound, captured;
	uint64_t bytes, bound_bytes, captured_bytes;
};
void gd_capture_totals(const struct gd_capture *c, struct gd_totals *t);
/* The bound object whose [gtt_offset, +size) holds addr, or NULL. */
const struct gd_rec_object *gd_capture_find_addr(const struct gd_capture *c, uint64_t addr);
const uint8_t *gd_capture_data(const struct gd_capture *c, const struct gd_rec_object *o);
bool gd_capture_reg(const struct gd_capture *c, const char *name, uint32_t *value);

/* Text helpers shared by info, list and hang. */
/* One row of "gemdump list" (cmd-list.c), and its header. */
void gd_print_object_header(void);
/* SIZE in bytes, or as 128K when ctx->human. */
struct gd_ctx;
void gd_print_object(const struct gd_ctx *ctx, const struct gd_capture *c,
		     const struct gd_rec_object *o);

#endif
