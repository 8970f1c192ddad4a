/*
 * bufmgr: how a userspace GL driver gets, fills and submits buffers, in the
 * three shapes the 2008 GEM/TTM debate compared, for the workloads
 * (workload.h) and gemctl's own batches (submit.c).
 *
 *   alloc     a fresh object per use, closed after it (the kernel
 *             allocates and frees per batch)
 *   reuse     a cache of idle objects by size, as libdrm's bufmgr keeps:
 *             put marks an object DONTNEED and parks it; get takes the
 *             oldest parked one of the size class that is not busy and
 *             marks it WILLNEED (a purged one is closed and replaced)
 *   suballoc  one large object per frame, carved up in userspace, as
 *             i915tex did; batches are carved from a batch object the
 *             same way (batch_start_offset).  The frame's objects come
 *             from the reuse cache, so the kernel sees one get and one
 *             put per frame.
 *
 * and four upload paths: pwrite, cpu-map (SET_DOMAIN CPU, then a copy
 * through the CPU map), gtt-map (SET_DOMAIN GTT, then a copy through the
 * GTT map) and unsync (a copy through a kept map with no domain change
 * and no wait: the caller knows the GPU is not using that range).  Maps
 * are cached per object, as libdrm does.
 *
 * unsync is suballoc's default, data and batches alike: i915tex wrote
 * its sub-allocations through a mapping it kept, fencing the whole
 * buffer once per frame, not each write.  Under GEM a pwrite or a domain
 * move into a frame object the GPU is still reading waits for it, which
 * would serialise every draw of the frame.  The suballoc arena comes
 * from the cache only once idle and its ranges are disjoint, so nothing
 * is overwritten under the GPU.  i915tex wrote through the aperture,
 * coherent without clflush; gemd's memory is coherent, so the CPU map
 * stands in for it here.
 *
 * Every request goes through bm_ioctl, which counts them, so the harness
 * can set a workload's cost against the floor of its socket round trips
 * and check its own counts against the driver's.
 */
#ifndef GEMKIT_GEMCTL_BUFMGR_H
#define GEMKIT_GEMCTL_BUFMGR_H

#include <stdbool.h>
#include <stdint.h>

enum bm_strategy { BM_ALLOC, BM_REUSE, BM_SUBALLOC, BM_NSTRATEGIES };
enum bm_upload { BM_PWRITE, BM_CPU_MAP, BM_GTT_MAP, BM_UNSYNC, BM_NUPLOADS };
enum bm_kind { BM_DATA, BM_BATCH };

extern const char *const bm_strategy_names[BM_NSTRATEGIES];
extern const char *const bm_upload_names[BM_NUPLOADS];

struct bm_bo;

/* A buffer as the workload sees it: an object and a range in it. */
struct bm_buf {
	uint32_t handle;
	uint64_t offset;		/* 0 unless sub-allocated */
	uint64_t size;
	uint64_t flags;			/* its exec object flags (NEEDS_FENCE) */
	struct bm_bo *bo;		/* NULL: not the bufmgr's */
};

/* What the bufmgr asked of the driver (compared with gemkit_counters). */
struct bm_stats {
	uint64_t ioctls;
	uint64_t creates, closes;
	uint64_t cache_hits;		/* reuse: gets served from the cache */
	uint64_t execbuffers, relocations;
	uint64_t pwrite_bytes;		/* data and batches */
	uint64_t upload_bytes;		/* data through the chosen path */
};

struct bm_cache;

struct bufmgr {
	int fd;
	enum bm_strategy strategy;
	enum bm_upload upload;
	uint64_t arena_size;		/* suballoc: the frame's data object */
	struct bm_stats st;
	struct bm_cache *cache;
	/* suballoc: the frame's objects and how far they are carved */
	struct bm_bo *arena[2];		/* [BM_DATA], [BM_BATCH] */
	uint64_t used[2];
	/* Where each handle was last bound, + 1 (0: unknown), so that
	 * relocations carry presumed offsets as libdrm's do: the driver
	 * then rewrites (and waits for) nothing when nothing moved. */
	uint64_t *offsets;
	uint32_t noffsets;
	/* the first failure: the request's name and -errno */
	const char *failed_op;
	int error;
};

int bm_init(struct bufmgr *bm, int fd, enum bm_strategy s, enum bm_upload u,
	    uint64_t arena_size);
/* Close everything, cached objects too. */
void bm_fini(struct bufmgr *bm);

/* gem_ioctl, counted; 0 or -1 with the failure recorded. */
int bm_ioctl(struct bufmgr *bm, unsigned long req, void *arg, const char *name);

/* An object outside any strategy (render targets, textures that live
 * as long as the workload). */
int bm_create(struct bufmgr *bm, uint64_t size, uint32_t *handle);
void bm_close(struct bufmgr *bm, uint32_t handle);

int bm_get(struct bufmgr *bm, enum bm_kind kind, uint64_t size,
	   struct bm_buf *out);
/* Done with a buffer (the GPU may still use it).  Idempotent on a zeroed
 * buf. */
void bm_put(struct bufmgr *bm, struct bm_buf *buf);
/* The end of a frame: suballoc hands its frame objects back. */
void bm_frame_end(struct bufmgr *bm);

/* Copy data into buf at off through the upload path. */
int bm_upload(struct bufmgr *bm, const struct bm_buf *buf, uint64_t off,
	      const void *data, uint64_t len);

/* The one batch submission: write the batch into batch (pwrite at its
 * offset, or a copy through the kept map under unsync) and submit it with
 * the targets (duplicates allowed: sub-allocated buffers share an object;
 * each target's flags go to its exec object), starting at the batch's
 * offset.  Relocation deltas must already include each target buffer's
 * offset (workload.c). */
#define BM_MAX_OBJECTS	16		/* targets of one bm_exec */
struct gen3_batch;
int bm_exec(struct bufmgr *bm, struct gen3_batch *b, const struct bm_buf *batch,
	    const struct bm_buf *const *targets, unsigned int n);
/* Wait until the GPU is done with buf's object. */
int bm_wait(struct bufmgr *bm, const struct bm_buf *buf);
int bm_wait_handle(struct bufmgr *bm, uint32_t handle);

#endif
