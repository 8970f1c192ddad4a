/*
 * Private state of the GEM memory manager.  One big lock (dev->lock, the
 * kernel's struct_mutex) protects every list, object and file; it is never
 * held while sleeping on the GPU: waits drop it (gem_wait_seqno) and the
 * caller revalidates what it looked at before, exactly as later i915 did.
 *
 * LOCKING
 *
 * Order, outer first (lock.h checks it in debug builds):
 *
 *	dev->lock  ->  dev->irq_lock  ->  hang->error_lock
 *
 * and any of them before the leaf locks of other layers, which are held
 * only inside their own calls and never call back: gpu->lock (gpu_write,
 * gpu_kick, gpu_reset; driver/gpu) and log_lock (common/log.c).  Today no
 * path holds irq_lock and error_lock together.
 *
 *   dev->lock	everything in the structs below that is not marked
 *		otherwise.  Taken by every locked ioctl (ioctl.c), file
 *		open/release, mmap lookups, the retire worker, hangcheck's
 *		samples and error handling, suspend/resume, and debugfs while
 *		it copies a snapshot (driver/debugfs) — never while formatting.
 *   irq_lock	what the "interrupt handler" touches: irq_cond, irq_count,
 *		irq_seqno, and hangcheck's wake-ups and published hangs
 *		(struct gem_hang in hangcheck.c).  Waiters sleep on irq_cond
 *		with irq_lock alone; they drop dev->lock first.
 *   error_lock	the kept error capture (hangcheck.c): set under dev->lock
 *		and error_lock, read and cleared under error_lock alone, so
 *		formatting a capture never holds up the clients.
 *
 * What the order rests on:
 *  - The command streamer thread calls gem_user_interrupt and
 *    gem_error_interrupt with no lock held, and they take irq_lock only.
 *    gpu_reset(), called under dev->lock, waits for that thread to park,
 *    so an interrupt callback taking dev->lock would deadlock, and so
 *    would calling gpu_reset() with irq_lock or error_lock held.
 *  - gem_wait_seqno (every GPU wait) and ring_wait_for_space drop
 *    dev->lock before they sleep and take it again after; callers return
 *    -EAGAIN or revalidate.  A thread that dropped the lock there may
 *    still hold object references, pins and execbuffer counts (in_exec,
 *    exec_pinned), which is why gem_verify_state counts the ioctls in
 *    flight; what one execbuffer knows of its objects is in its own
 *    struct eb, so another one may list the same objects meanwhile.
 *  - Locks that never nest with these: the server's srv->lock (dropped
 *    before any call into gem), the debugfs export's handle locks
 *    (dropped before a snapshot is taken), the hangcheck thread's sleep
 *    on irq_lock (dropped before it takes dev->lock).
 *
 * Fields read without any lock are "fixed": set before the structure can
 * be seen by another thread (or by gem_device_create before any client)
 * and unchanged until it is freed.  dev->wedged alone is written under
 * dev->lock with atomic stores, so waiters holding only irq_lock read it
 * with an atomic load.
 */
#ifndef GEMKIT_GEM_PRIV_H
#define GEMKIT_GEM_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <drm.h>
#include <i915_drm.h>

#include "gem.h"
#include "acct.h"
#include "gpu.h"
#include "event.h"
#include "faultsim.h"
#include "idmap.h"
#include "list.h"
#include "lock.h"
#include "mm.h"

struct strbuf;

#define GEM_RING_SIZE		(128u << 10)
#define GEM_ARENA_SIZE		(1ull << 30)	/* shared arenas: 1 GiB, sparse */
#define GEM_DEDICATED_SIZE	(16ull << 20)	/* objects this big get their own */
#define GEM_MAX_OBJECT_SIZE	(4ull << 30)
#define GEM_QUARANTINE_BYTES	(256ull << 20)	/* see backing.c */
#define GEM_RECYCLE_BYTES	(64ull << 20)	/* see backing.c */
#define GEM_RECYCLE_RANGES	64u
/* mmap fake offset: id << 34 | mapping type << 32 | byte in the object */
#define GEM_FAKE_OFFSET_SHIFT	34
#define GEM_FAKE_TYPE_SHIFT	32
#define GEM_FAKE_MAX_ID		((1u << (63 - GEM_FAKE_OFFSET_SHIFT)) - 1)
#define GEM_THROTTLE_NS		(20ull * 1000 * 1000)	/* as i915: 20 ms */

/* Which of the era's lists an object is on (i915_gem_active etc.). */
enum gem_list {
	GEM_LIST_UNBOUND,
	GEM_LIST_INACTIVE,
	GEM_LIST_ACTIVE,
	GEM_LIST_FLUSHING,
	GEM_LIST_PINNED,
	GEM_LIST_COUNT
};

/*
 * Memory that backs objects: a memfd mapped into gemd and, whole or in
 * part, into the clients allowed to see it (backing.c says who).
 */
struct gem_arena {
	/* fixed */
	uint32_t id;
	int fd;
	uint8_t *base;
	uint64_t size;
	dev_t st_dev;		/* the memfd's identity: PRIME imports */
	ino_t st_ino;		/* name objects by it */
	bool dedicated;		/* exactly one object's pages, or its view */
	bool kernel;		/* gemd's own objects: never handed out */

	/* dev->lock */
	struct gem_file *owner;	/* shared: the file whose objects it holds,
				 * NULL once that file is released */
	struct gem_object *obj;	/* dedicated: whose pages (or view) */
	uint32_t ranges;	/* objects and views in it (not quarantine) */
	uint64_t free;		/* bytes not sub-allocated */
	struct mm mm;		/* sub-allocation of [0, size) */
	struct list_head link;	/* dev->arenas */
	struct list_head owner_link;	/* owner->arenas */
	/* gem_verify_state's scratch */
	uint32_t verify_epoch, verify_objects;
	uint64_t verify_bytes;
};

/* A freed range kept reserved in its arena (backing.c): one a client may
 * still map (quarantine), or one nobody mapped, kept with its pages for
 * the next object of its size (recycle). */
struct gem_quarantine {
	/* dev->lock */
	struct mm_node node;
	struct gem_arena *arena;
	struct list_head link;		/* dev->quarantine or dev->recycle,
					 * oldest first */
	bool recycle;
};

/* A file that holds handles to an object (drm_vma_node's allow list). */
struct gem_holder {
	struct gem_file *file;
	uint32_t handles;		/* how many of its handles name it */
	uint32_t prime_handle;		/* the handle PRIME gives back, 0: none */
};

/*
 * The linear view of a tiled object that its GTT mappings show (view.c):
 * the contents a 945G's fence shows through the aperture, kept apart from
 * the object's own (tiled) pages and merged with them at every driver
 * entry point that hands the object from one side to the other.
 */
struct gem_view {
	/* dev->lock */
	struct gem_arena *arena;
	struct mm_node node;		/* in arena->mm */
	uint8_t *vaddr;			/* what the GTT mappings map */
	uint8_t *base;			/* the raw pages as of the last merge */
	uint32_t tiling_mode;		/* the layout it was made for */
	uint32_t stride;
	bool mapped;			/* a client mapped it */
};

struct gem_object {
	/* fixed from gem_object_create to the last put */
	struct gem_device *dev;
	uint32_t id;			/* stable global id, never reused */
	uint64_t size;
	pid_t creator_pid;
	uint64_t created_ns;

	/* everything below: dev->lock */
	/* backing store: the node's links belong to arena->mm; a purge
	 * zeroes the pages in place, and the first export moves them into
	 * an arena of their own (backing.c) */
	struct gem_arena *arena;
	struct mm_node arena_node;
	uint8_t *vaddr;
	struct gem_view *view;		/* tiled and GTT-mapped: view.c */

	unsigned int refcount;		/* handles, active, batches, lookups in flight */
	unsigned int handle_count;
	uint32_t flink_name;		/* 0 = none */
	uid_t flink_uid;		/* the user who named it */
	/* the files holding handles: the first inline, the rest in more[] */
	struct gem_holder holder;
	struct gem_holder *more;
	uint32_t nmore, more_alloc;

	/* GTT */
	struct mm_node gtt_node;	/* allocated while bound */
	unsigned int pin_count;		/* kernel + user pins */
	unsigned int user_pin_count;	/* legacy GEM_PIN */
	struct gem_file *pin_file;
	enum gem_list list;
	struct list_head list_link;	/* on dev->lists[list] */

	/* domains, as i915's read_domains / write_domain */
	uint32_t read_domains;
	uint32_t write_domain;
	bool active;
	uint32_t last_read_seqno;	/* last request that uses the object */
	uint32_t last_write_seqno;	/* last request that writes it */
	bool dirty;
	bool client_mapped;		/* a client mapped its pages */
	bool moving;			/* gem_backing_export copies its pages */
	bool fresh;			/* zeroed by gemd in a recycled range and
					 * untouched since: it has no pages yet,
					 * as far as anyone can tell (backing.c) */

	/* tiling and fences */
	uint32_t tiling_mode;
	uint32_t stride;
	int fence_reg;			/* -1: none */

	uint32_t madv;			/* I915_MADV_* or GEM_MADV_PURGED */
	/* its only handle while handle_count is 1 (NULL: not known), whose
	 * entry in the file's handle table says so (status.c) */
	struct gem_file *solo_file;
	uint32_t solo_handle;
	uint32_t cache_level;		/* I915_CACHING_* */
	/* made by GEM_USERPTR: its dedicated arena is mapped over the
	 * client's own range (userptr.c); never purged, tiled or mmapped */
	bool userptr;

	uint64_t bind_count;
	uint64_t evict_count;

	/* The execbuffers in flight that list it (each may drop the lock to
	 * wait, and several clients may list a shared object), and how many
	 * of them pinned it.  Their own state is theirs (execbuffer.c). */
	unsigned int in_exec;
	unsigned int exec_pinned;
	struct list_head evict_link;	/* eviction scan */

	/* gem_verify_state's scratch */
	uint32_t verify_epoch, verify_handles, verify_batches;
	bool verify_solo;		/* solo_file's handle names it */
};

#define GEM_MADV_PURGED 2		/* __I915_MADV_PURGED */

/* The caches the GPU writes through (i915's I915_GEM_GPU_DOMAINS). */
#define I915_GEM_GPU_DOMAINS \
	(I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER | \
	 I915_GEM_DOMAIN_COMMAND | I915_GEM_DOMAIN_INSTRUCTION | \
	 I915_GEM_DOMAIN_VERTEX)

struct gem_request {
	/* fixed once gem_add_request has queued it */
	uint32_t seqno;
	uint32_t tail;			/* ring offset after the request */
	uint64_t emitted_ns;
	uint64_t watchdog_ns;		/* GPU time it may run, 0: any */
	/* for the error state: who submitted it */
	uint32_t file_id;
	pid_t pid;
	char comm[16];

	/* dev->lock */
	struct gem_file *file;		/* NULL once the file is gone */
	struct gem_object *batch;	/* a reference, for the error state */
	struct list_head link;		/* dev->requests, oldest first */
	struct list_head file_link;	/* file->requests */
};

/* A DRM master's state (auth.c, struct drm_master): its magic map. */
struct gem_master {		/* dev->lock */
	unsigned int refcount;		/* the device while current, its files */
	struct idmap magics;		/* magic -> file (or spent) */
	uint32_t next_magic;
};

struct gem_file {
	/* fixed (id is given under dev->lock before the file is seen) */
	struct gem_device *dev;
	uint32_t id;
	uint32_t generation;		/* the device's at open (unbind.c) */
	pid_t pid;
	char comm[16];

	/* DRM master and authentication (auth.c): dev->lock */
	struct gem_master *master;	/* its own, or the current one at open */
	bool is_master;			/* master is its own */
	bool was_master;		/* has been the current master */
	bool authenticated;
	uint32_t magic;			/* 0: none asked for */

	/* dev->lock */
	struct gem_object **handles;	/* handles[h], h >= 1 */
	uint32_t handles_alloc;
	uint32_t lowest_free;		/* hint: no free handle below this */
	uint32_t handle_count;
	uint64_t handle_bytes;		/* sizes of the objects it holds */
	struct list_head arenas;	/* shared arenas of its own objects */
	struct list_head requests;
	struct list_head link;		/* dev->files */
	/* GPU hangs (GET_RESET_STATS, the ban rule): hangcheck.c */
	uint32_t batch_active;		/* its batches that hung the GPU */
	uint32_t batch_pending;		/* innocent ones in flight at a reset */
	uint64_t hang_ns[2];		/* its last two hangs, 0: none (hangcheck.c) */
	bool banned;			/* execbuffer: -EIO */
	/* the handle table its client maps (status.c), once asked for */
	struct gem_handle_state *status;
	int status_fd;
	/* its clients' direct copies in flight (status.c), once asked for:
	 * client-written, so only ever a reason to keep a freed range */
	uint32_t *copies;
	int copies_fd;
	/* its default context's parameters (CONTEXT_SETPARAM, ioctl.c) */
	bool unbannable;		/* BANNABLE cleared: hangs never ban it */
	bool no_error_capture, no_zeromap, unrecoverable;
	/* i915.request_timeout_ms when it was opened, as Linux 6.1 gives
	 * it to a new default context: its requests' watchdog, 0: none */
	uint64_t watchdog_ns;
	struct gem_acct *acct;		/* acct.c: its usage figures */
};

/* The device's copy of the i915 module parameters (params.def). */
struct gem_params {		/* dev->lock */
#define GEM_PARAM(T, name, def, mode) T name;
#include "params.def"
#undef GEM_PARAM
};

enum gem_param_type {
	GEM_PARAM_BOOL,
	GEM_PARAM_INT,
	GEM_PARAM_UINT,
	GEM_PARAM_CHARP,
};

/* One parameter that has a file: its name, type, mode and place. */
struct gem_param_desc {
	const char *name;
	enum gem_param_type type;
	unsigned int mode;		/* 0600 writable, 0400 read-only */
	size_t offset;			/* in struct gem_params */
};

struct gem_fence {		/* dev->lock */
	struct gem_object *obj;		/* NULL when free */
	uint64_t lru;			/* last use, for stealing */
	unsigned int pin_count;		/* execbuffers that need it now */
};

enum gem_hang_kind {
#define GEM_HANG_KIND(id, name) GEM_HANG_##id,
#include "hang-kinds.def"
#undef GEM_HANG_KIND
	GEM_HANG_KIND_COUNT
};
extern const char *const gem_hang_kind_names[GEM_HANG_KIND_COUNT];
/* The hangcheck period (gemd --hangcheck), 0: off.  Fixed while served. */
uint64_t gem_hangcheck_period_ns(const struct gem_device *dev);

struct gem_stats {		/* dev->lock */
	uint64_t execbuffers, relocations, binds, evictions, waits, wait_ns;
	uint64_t domain_flushes, clflush_bytes, pwrite_bytes, pread_bytes;
	uint64_t purges, retires, faults;
	uint64_t view_merges, view_merge_bytes;	/* view.c */
	uint64_t hangs, resets;		/* error captures, ring resets */
	uint64_t bans;			/* files banned (hangcheck.c) */
	uint64_t requests;		/* emitted (gem_add_request) */
	uint64_t hang_kinds[GEM_HANG_KIND_COUNT];	/* hangs by kind */
};

struct gem_device {
	/* fixed while clients are served (gem_device_create to _destroy) */
	struct gpu *gpu;
	uint64_t aperture_size;
	bool share_names;		/* gem_device_config's */
	struct gem_object *ring;	/* the object; its state is dev->lock's */
	struct gem_hang *hang;		/* hangcheck.c: set and cleared under
					 * irq_lock, by start and stop only */
	pthread_t retire_thread;
	bool retire_running;
	uint32_t verify;		/* verify.c: checks earned per ioctl,
					 * 0: off, UINT32_MAX: every ioctl */
	uint32_t *hws;			/* the hardware status page, in a memfd */
	int hws_fd;			/* that clients map (status.c) */
	uint32_t *mmio;			/* the GPU's registers (BAR 0), in a memfd */
	int mmio_fd;			/* that tools map (status.c) */

	pthread_mutex_t lock;		/* struct_mutex: everything below up to irq_lock */

	/* GTT */
	struct mm gtt;
	struct list_head lists[GEM_LIST_COUNT];
	/* Objects and bytes on each list, kept as objects move, so the
	 * tools' headers cost no walk of the lists. */
	uint64_t list_count[GEM_LIST_COUNT], list_bytes[GEM_LIST_COUNT];
	uint64_t pinned_bytes;
	struct gem_fence fences[GEN3_NUM_FENCES];
	uint64_t fence_lru_clock;

	/* objects */
	struct idmap objects;		/* id -> object */
	struct idmap names;		/* flink name -> object */
	uint32_t next_object_id;
	uint32_t next_name;
	uint64_t object_count, object_bytes;
	struct list_head arenas;
	struct list_head kernel_arenas;	/* the shared ones of gemd's own objects */
	uint32_t next_arena_id;
	struct idmap arena_ids;		/* id -> arena */
	struct list_head quarantine;	/* freed ranges clients may still map */
	uint64_t quarantine_bytes;
	struct list_head recycle;	/* freed ranges kept for reuse */
	uint64_t recycle_bytes;
	uint32_t recycle_ranges;

	/* files */
	struct list_head files;
	struct gem_master *master;	/* the current DRM master, or NULL */
	uint32_t next_file_id;

	/* ring and requests */
	uint32_t ring_tail;
	uint32_t next_seqno;
	struct list_head requests;
	/* explicit fences (syncfile.c) */
	struct list_head syncfiles_pending;	/* in seqno order */
	struct list_head syncfiles_done;	/* signaled, oldest first */
	unsigned int nsyncfiles_done;
	struct {
		uint32_t seqno;
		int error;
	} fence_errors[64];			/* requests that failed */
	unsigned int fence_errors_next;

	/* retire worker: sleeps on retire_cond with dev->lock */
	bool stopping;
	pthread_cond_t retire_cond;	/* signalled under lock when requests are queued */
	bool retire_idle;		/* the worker sleeps on an empty list (dev->lock) */

	struct gem_stats stats;
	struct gem_acct_dev *acct;	/* acct.c: requests' files by seqno */
	struct gem_params params;	/* i915_params (params.c) */

	/* debugfs: i915_wedged, the seqno lines, gemkit_events */
	bool wedged;			/* a reset failed (hangcheck.c): -EIO.
					 * Atomic stores; waiters load it under
					 * irq_lock alone */
	bool suspended;			/* suspend.c: execbuffer -EBUSY until resume */
	bool unbound;			/* unbind.c: opens -ENODEV until bind */
	uint32_t generation;		/* unbind.c: bumped by each unbind; a file
					 * of an older one is unplugged.  Atomic
					 * loads, stores under dev->lock */
	bool closing;			/* gem_device_unblock: waits return -EINTR.
					 * Atomic stores and loads */
	uint32_t waiting_seqno;		/* seqno a waiter sleeps on, 0 = none */
	struct gem_event_log events;

	/* gem_verify_state (verify.c) */
	unsigned int ioctls_in_flight;	/* locked ioctls begun, not ended */
	uint64_t verify_credit;
	uint32_t verify_epoch;

	/* interrupts and waiting: irq_lock */
	pthread_mutex_t irq_lock;
	pthread_cond_t irq_cond;
	uint64_t irq_count;
	uint32_t irq_seqno;		/* HWS seqno seen by the last interrupt */
};

/*
 * The rules gem_verify_state checks, one per fact the driver keeps in more
 * than one place: X(id, name, what breaks it).
 */
#define GEM_VERIFY_RULES(X) \
	X(LIST_TAG, "list-tag", "an object sits on a list other than the one it records") \
	X(LIST_STATE, "list-state", "an object is not on the list its state says") \
	X(LIST_COUNTERS, "list-counters", "a per-list counter differs from a recount") \
	X(OBJECTS, "objects", "the object counters or the id map disagree with the lists") \
	X(ACTIVE, "active", "an active object is unbound, has no seqno or is out of submission order") \
	X(DOMAINS, "domains", "a write domain is not one of the read domains, or an idle object keeps a GPU write domain") \
	X(PIN, "pin", "a pin count differs from the pins held, or a pinned object is unbound") \
	X(PINNED_BYTES, "pinned-bytes", "the pinned byte counter differs from the pinned nodes") \
	X(GTT_NODE, "gtt-node", "bound objects and the GTT allocator's nodes disagree") \
	X(GTT_PTE, "gtt-pte", "the page table does not map a bound object's pages, or maps past them") \
	X(FENCE, "fence", "fence registers, fence slots and fenced objects disagree") \
	X(HANDLES, "handles", "a file's handle table, count or free-handle hint is wrong") \
	X(HANDLE_COUNT, "handle-count", "an object's handle count differs from the handles naming it") \
	X(FLINK, "flink", "flink names and the name map disagree, or a named object has no handle") \
	X(REFCOUNT, "refcount", "a reference count differs from its holders") \
	X(EXEC, "exec", "execbuffer marks are inconsistent or outlive their execbuffer") \
	X(ARENA, "arena", "the backing store disagrees with its arenas") \
	X(STATUS, "status", "a handle table entry clients read differs from its handle, or an object's only handle is not where it says") \
	X(ISOLATION, "isolation", "a file holds an object in an arena it may not see") \
	X(REQUESTS, "requests", "requests are out of order or linked to the wrong file")

enum gem_verify_rule {
#define X(id, name, what) GEM_VERIFY_##id,
	GEM_VERIFY_RULES(X)
#undef X
	GEM_VERIFY_RULE_COUNT
};

/* seqno arithmetic that survives wrap (i915_seqno_passed). */
static inline bool seqno_passed(uint32_t seq1, uint32_t seq2)
{
	return (int32_t)(seq1 - seq2) >= 0;
}

/* event.c: the event log (under dev->lock) */
void gem_event(struct gem_device *dev, enum gem_event_type type, uint32_t obj,
	       uint64_t a, uint64_t b, int c);
/* Emit GEM_EV_DOMAIN if obj's domains differ from old_read/old_write. */
void gem_event_domain(struct gem_object *obj, uint32_t old_read, uint32_t old_write);

/* device.c */
uint32_t gem_hw_seqno(struct gem_device *dev);

/*
 * backing.c: object memory in memfd arenas.  owner is the file whose
 * arenas hold a new object (NULL: gemd's own, never handed out).
 */
int gem_backing_alloc(struct gem_device *dev, struct gem_file *owner,
		      struct gem_object *obj);
void gem_backing_free(struct gem_device *dev, struct gem_object *obj);
void gem_backing_shrink(struct gem_device *dev);	/* punch the recycled */
void gem_backing_discard(struct gem_object *obj);	/* purge: zero the pages */
bool gem_backing_has_pages(const struct gem_object *obj);
/* i915_gem_object_truncate: the pages go, for good (madv PURGED). */
void gem_object_purge(struct gem_object *obj);
void gem_backing_fini(struct gem_device *dev);
void gem_backing_file_release(struct gem_file *file);
/* Give obj an arena of its own (its first export), moving its pages. */
int gem_backing_export(struct gem_object *obj);
/* Memory for obj's view, next to obj's own; and back. */
int gem_backing_view_alloc(struct gem_object *obj, struct gem_view *view);
void gem_backing_view_free(struct gem_object *obj, struct gem_view *view);
/* The object whose own dedicated arena is the memfd fd (PRIME import),
 * or NULL. */
struct gem_object *gem_backing_find(struct gem_device *dev, int fd);
/* A new object on the client's memfd fd (a PRIME import of an object
 * that no longer exists in gemd): -EINVAL unless it is sealed as ours. */
int gem_backing_adopt(struct gem_device *dev, int fd, struct gem_object *obj);
void gem_object_location(const struct gem_object *obj, struct gem_backing_loc *loc);
void gem_object_hand_out(struct gem_object *obj, struct gem_backing_loc *loc);

/*
 * view.c: the GTT view of tiled objects.  gem_view_sync merges what
 * changed on either side since the last merge; gem_view_get makes the
 * view (a tiled object's first GTT mapping); gem_view_drop merges and
 * lets it go (a tiling change, an export, a purge, the object's end).
 */
void gem_view_sync(struct gem_object *obj);
int gem_view_get(struct gem_object *obj);
void gem_view_drop(struct gem_object *obj);
void gem_view_free(struct gem_object *obj);	/* no merge: contents go */
/* Where a GTT mapping of obj's view goes (marks the view mapped). */
void gem_view_location(struct gem_object *obj, struct gem_backing_loc *loc);
/*
 * The 3-way merge it uses, on len bytes: a (the side that wins a
 * conflict) and b were both equal to base at the last merge; bytes that
 * changed on one side are copied to the other, and all three are equal
 * afterwards.  Returns true if anything changed.
 */
bool gem_merge3(uint8_t *a, uint8_t *b, uint8_t *base, size_t len);

/* object.c */
int gem_object_create(struct gem_device *dev, struct gem_file *owner,
		      uint64_t size, struct gem_object **out);
int gem_object_adopt(struct gem_device *dev, int fd, struct gem_object **out);
int gem_object_create_userptr(struct gem_device *dev, struct gem_file *owner,
			      uint64_t size, struct gem_object **out);
/* Move obj into memory of its own before it is shared (FLINK, PRIME);
 * call learns whether the client must map it again. */
int gem_object_export(struct gem_object *obj, struct gem_call *call);
void gem_object_get(struct gem_object *obj);
void gem_object_put(struct gem_object *obj);
void gem_object_move_to_list(struct gem_object *obj, enum gem_list list);
void gem_object_update_list(struct gem_object *obj);	/* by its state */
enum gem_list gem_object_state_list(const struct gem_object *obj);

/* auth.c: DRM master, under dev->lock */
int gem_master_open(struct gem_file *file);	/* drm_master_open */
void gem_master_release(struct gem_file *file);
void gem_master_unplug(struct gem_device *dev);	/* no master until the next open */
bool gem_file_is_master(const struct gem_file *file);	/* drm_is_current_master */

/* file.c: handles */
struct gem_object *gem_handle_lookup(struct gem_file *file, uint32_t handle);	/* +ref */
int gem_handle_create(struct gem_file *file, struct gem_object *obj, uint32_t *handle);
int gem_handle_delete(struct gem_file *file, uint32_t handle);
/* file's entry in obj's holders, or NULL: it holds no handle to obj */
struct gem_holder *gem_holder_find(struct gem_object *obj, const struct gem_file *file);

/* request.c */
void gem_request_free(struct gem_device *dev, struct gem_request *rq);
int gem_ring_begin(struct gem_device *dev, unsigned int dwords);
void gem_ring_emit(struct gem_device *dev, uint32_t dw);
void gem_ring_advance(struct gem_device *dev);
/* Start what this thread submitted (gem_ring_advance), running it here if
 * the GPU is idle; with dev->lock not held (gem_ioctl_dispatch). */
void gem_gpu_kick(struct gem_device *dev);
/*
 * Submitting: gem_request_alloc, then gem_ring_begin for the commands plus
 * GEM_REQUEST_DWORDS (either may fail, or wait with the lock dropped),
 * then emit and gem_add_request, which cannot fail: nothing is left
 * half-emitted in the ring.  Returns the request's seqno.
 */
#define GEM_REQUEST_DWORDS	6
struct gem_request *gem_request_alloc(void);
uint32_t gem_add_request(struct gem_device *dev, struct gem_file *file,
			 struct gem_request *rq);
void gem_retire_requests(struct gem_device *dev);
int gem_wait_seqno(struct gem_device *dev, uint32_t seqno, int64_t *timeout_ns);
int gem_object_wait_rendering(struct gem_object *obj, bool readonly);
bool gem_object_busy(struct gem_object *obj);
int gem_gpu_idle(struct gem_device *dev);
void gem_request_file_release(struct gem_file *file);
int gem_retire_worker_start(struct gem_device *dev);
void gem_retire_worker_stop(struct gem_device *dev);

/* status.c: the hardware status page, the register file and the handle
 * tables (dev->lock).  init needs dev->hws_fd and mmio_fd at -1; fini
 * undoes whatever init did. */
int gem_status_pages_init(struct gem_device *dev);
void gem_status_pages_fini(struct gem_device *dev);
void gem_status_publish(struct gem_file *file, uint32_t handle,
			struct gem_object *obj);
/* What file's entry for a handle of obj (NULL: a free one) says. */
void gem_status_entry(const struct gem_file *file, const struct gem_object *obj,
		      struct gem_handle_state *val);
void gem_status_handle_added(struct gem_file *file, uint32_t handle,
			     struct gem_object *obj);
void gem_status_handle_removed(struct gem_file *file, uint32_t handle,
			       struct gem_object *obj);
/* obj's seqnos or madvise changed: its only handle's entry follows. */
void gem_status_object_changed(struct gem_object *obj);
void gem_status_object_moving(struct gem_object *obj, bool moving);
void gem_status_file_release(struct gem_file *file);
/* Whether file's clients may be copying directly into its arenas now. */
bool gem_status_copies_in_flight(const struct gem_file *file);
/* The file's table says dead: libgem stops answering for it (unbind.c). */
void gem_status_file_unplugged(struct gem_file *file);

/*
 * syncfile.c: explicit fences (I915_EXEC_FENCE_IN/OUT), dev->lock held
 * except where said.  prepare makes the fence and the client's end
 * before anything can fail; commit ties it to the request's seqno (or
 * abort undoes prepare).  A fence is named by the inode of the client's
 * end.  retire signals what the seqno passed (gem_retire_requests);
 * set_error marks a request's fences failed (a hang: -EIO); wedged fails
 * every pending one.  info and merge take the lock themselves.
 */
struct gem_syncfile;
int gem_syncfile_prepare(struct gem_device *dev, struct gem_syncfile **out,
			 int *client_fd);
void gem_syncfile_commit(struct gem_device *dev, struct gem_syncfile *sf,
			 uint32_t seqno);
void gem_syncfile_abort(struct gem_syncfile *sf, int client_fd);
int gem_syncfile_lookup(struct gem_device *dev, uint32_t ino);	/* 0, -EINVAL */
void gem_syncfiles_retire(struct gem_device *dev, uint32_t hw_seqno);
void gem_request_set_error(struct gem_device *dev, uint32_t seqno, int error);
void gem_syncfiles_wedged(struct gem_device *dev);
void gem_syncfiles_fini(struct gem_device *dev);

/* gtt.c */
/*
 * Where and how an object is bound (gem_object_pin_args).  alignment 0
 * is the object's own (a fence's, if fenceable); min_size pads the node
 * (EXEC_OBJECT_PAD_TO_SIZE); fixed puts it at exactly offset
 * (EXEC_OBJECT_PINNED), evicting what is in the way: -EINVAL for an
 * offset that is misaligned or runs past the aperture, -ENOSPC when a
 * pinned object is in the way.
 */
struct gem_pin_args {
	uint64_t alignment;
	uint64_t min_size;
	uint64_t offset;
	bool fixed;
	bool fenceable;
};
int gem_object_unbind(struct gem_object *obj);
int gem_object_pin(struct gem_object *obj, uint64_t alignment, bool map_and_fenceable);
int gem_object_pin_args(struct gem_object *obj, const struct gem_pin_args *args);
void gem_object_unpin(struct gem_object *obj);
static inline bool gem_object_bound(const struct gem_object *obj)
{
	return mm_node_allocated(&obj->gtt_node);
}
static inline uint32_t gem_object_gtt_offset(const struct gem_object *obj)
{
	return (uint32_t)obj->gtt_node.start;
}

/* evict.c */
int gem_evict_something(struct gem_device *dev, uint64_t size, uint64_t align);
int gem_evict_everything(struct gem_device *dev, bool purgeable_only);
int gem_evict_for_node(struct gem_device *dev, uint64_t start, uint64_t size);

/* domain.c */
int gem_object_set_to_gtt_domain(struct gem_object *obj, bool write);
int gem_object_set_to_cpu_domain(struct gem_object *obj, bool write);
void gem_object_flush_cpu_write_domain(struct gem_object *obj);

/*
 * params.c: the module parameters.  gem_param_at(i) is the i-th
 * parameter with a file, counting from i (NULL past the last: iterate with
 * gem_param_index(p) + 1); show formats its value as its file reads,
 * store parses a write as the kernel's file does (0 or -errno: -EINVAL,
 * -ERANGE, -EACCES for a read-only one).  Both take dev->lock.
 */
int gem_params_init(struct gem_params *params);
void gem_params_release(struct gem_params *params);
const struct gem_param_desc *gem_param_at(unsigned int i);
unsigned int gem_param_index(const struct gem_param_desc *p);
const struct gem_param_desc *gem_param_lookup(const char *name);
int gem_param_show(struct gem_device *dev, const struct gem_param_desc *p,
		   struct strbuf *sb);
int gem_param_store(struct gem_device *dev, const struct gem_param_desc *p,
		    const char *buf, size_t len);
bool gem_has_gpu_reset(struct gem_device *dev);	/* dev->lock held */

/* tiling.c */
uint64_t gem_fence_size(struct gem_object *obj);
uint64_t gem_gtt_alignment(struct gem_object *obj, bool fenced);
bool gem_tiling_ok(uint64_t size, uint32_t stride, uint32_t tiling_mode);
int gem_object_get_fence(struct gem_object *obj);
void gem_object_put_fence(struct gem_object *obj);

/*
 * verify.c: gem_verify_state (i915_verify_lists).  With dev->lock held,
 * check every rule of GEM_VERIFY_RULES, log each violation with its
 * object, and return the mask of broken rules (1u << rule), 0 if none.
 */
uint32_t gem_verify_state(struct gem_device *dev);
const char *gem_verify_rule_name(unsigned int rule);
/* Enable from the build and GEMKIT_VERIFY (gem_device_create). */
void gem_verify_init(struct gem_device *dev);
/* Verify if enabled and affordable (see verify.c); abort on a violation.
 * dev->lock held.  what and file name the operation for the log. */
void gem_verify_after(struct gem_device *dev, const char *what,
		      const struct gem_file *file);
/* Bracket a locked ioctl: take dev->lock and count it in flight; stop
 * counting, verify, drop the lock. */
void gem_ioctl_enter(struct gem_file *file);
void gem_ioctl_exit(struct gem_file *file, const char *name);

/*
 * The ioctl handlers, one per uAPI entry point, declared from the one list
 * of ioctls (lib/proto/ioctls.def) that also names them in the dispatch
 * table (ioctl.c).  IOCTL_UNLOCKED is its flag for a handler that runs
 * without dev->lock.  The list is included by its path: the protocol's
 * directory is not on the core's include path.
 */
#define IOCTL_UNLOCKED	(1u << 0)
#define IOCTL(name, kcmd, handler, flags, codec) \
	int handler(struct gem_file *file, void *data, struct gem_call *call);
#include "../../lib/proto/ioctls.def"
#undef IOCTL

#endif
