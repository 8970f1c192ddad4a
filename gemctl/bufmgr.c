/* The workloads' buffer manager: strategies, upload paths, submission (bufmgr.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <drm.h>
#include <i915_drm.h>

#include "batchbuffer.h"
#include "bufmgr.h"
#include "libgem.h"

const char *const bm_strategy_names[BM_NSTRATEGIES] = { "alloc", "reuse", "suballoc" };
const char *const bm_upload_names[BM_NUPLOADS] = {
	"pwrite", "cpu-map", "gtt-map", "unsync",
};

/* Size classes: powers of two from 4 KiB to 64 MiB.  libdrm has four
 * classes per power of two; one is enough for these workloads, whose
 * sizes are powers of two. */
#define BM_MIN_SHIFT	12
#define BM_NBUCKETS	15
/* Parked objects per class beyond which put closes instead (libdrm
 * frees by age; a bound does the same job in a benchmark). */
#define BM_BUCKET_MAX	64
#define BM_ARENA_ALIGN	4096
#define BM_BATCH_ALIGN	64
#define BM_BATCH_ARENA	(64u << 10)

struct bm_bo {
	uint32_t handle;
	uint64_t size;
	void *cpu_map, *gtt_map;
	struct bm_bo *next;		/* in a cache bucket */
};

struct bm_cache {
	struct bm_bo *head[BM_NBUCKETS], *tail[BM_NBUCKETS];
	unsigned int count[BM_NBUCKETS];
};

int bm_ioctl(struct bufmgr *bm, unsigned long req, void *arg, const char *name)
{
	bm->st.ioctls++;
	if (gem_ioctl(bm->fd, req, arg) == 0)
		return 0;
	if (!bm->error) {
		bm->error = -errno;
		bm->failed_op = name;
	}
	return -1;
}

int bm_init(struct bufmgr *bm, int fd, enum bm_strategy s, enum bm_upload u,
	    uint64_t arena_size)
{
	memset(bm, 0, sizeof(*bm));
	bm->fd = fd;
	bm->strategy = s;
	bm->upload = u;
	bm->arena_size = arena_size;
	bm->cache = calloc(1, sizeof(*bm->cache));
	return bm->cache ? 0 : -ENOMEM;
}

int bm_create(struct bufmgr *bm, uint64_t size, uint32_t *handle)
{
	struct drm_i915_gem_create arg = { .size = size };

	if (bm_ioctl(bm, DRM_IOCTL_I915_GEM_CREATE, &arg, "DRM_IOCTL_I915_GEM_CREATE"))
		return -1;
	bm->st.creates++;
	*handle = arg.handle;
	return 0;
}

void bm_close(struct bufmgr *bm, uint32_t handle)
{
	struct drm_gem_close arg = { .handle = handle };

	if (handle < bm->noffsets)
		bm->offsets[handle] = 0;	/* the handle will be reused */

	if (bm_ioctl(bm, DRM_IOCTL_GEM_CLOSE, &arg, "DRM_IOCTL_GEM_CLOSE") == 0)
		bm->st.closes++;
}

static struct bm_bo *bo_new(struct bufmgr *bm, uint64_t size)
{
	struct bm_bo *bo = calloc(1, sizeof(*bo));

	if (!bo) {
		if (!bm->error) {
			bm->error = -ENOMEM;
			bm->failed_op = "malloc";
		}
		return NULL;
	}
	if (bm_create(bm, size, &bo->handle)) {
		free(bo);
		return NULL;
	}
	bo->size = size;
	return bo;
}

static void bo_free(struct bufmgr *bm, struct bm_bo *bo)
{
	if (bo->cpu_map)
		munmap(bo->cpu_map, bo->size);
	if (bo->gtt_map)
		munmap(bo->gtt_map, bo->size);
	bm_close(bm, bo->handle);
	free(bo);
}

static unsigned int bucket_of(uint64_t size, uint64_t *class_size)
{
	unsigned int b = 0;

	while (b + 1 < BM_NBUCKETS && (1ull << (BM_MIN_SHIFT + b)) < size)
		b++;
	*class_size = 1ull << (BM_MIN_SHIFT + b);
	if (*class_size < size)
		*class_size = size;	/* beyond the last class: exact */
	return b;
}

static bool bo_busy(struct bufmgr *bm, struct bm_bo *bo)
{
	struct drm_i915_gem_busy arg = { .handle = bo->handle };

	if (bm_ioctl(bm, DRM_IOCTL_I915_GEM_BUSY, &arg, "DRM_IOCTL_I915_GEM_BUSY"))
		return true;
	return arg.busy != 0;
}

/* madvise; returns whether the pages are still there. */
static bool bo_madvise(struct bufmgr *bm, struct bm_bo *bo, uint32_t advice)
{
	struct drm_i915_gem_madvise arg = { .handle = bo->handle, .madv = advice };

	if (bm_ioctl(bm, DRM_IOCTL_I915_GEM_MADVISE, &arg, "DRM_IOCTL_I915_GEM_MADVISE"))
		return false;
	return arg.retained != 0;
}

/* The oldest idle object of the class, or a new one. */
static struct bm_bo *cache_get(struct bufmgr *bm, uint64_t size)
{
	struct bm_cache *c = bm->cache;
	uint64_t csize;
	unsigned int b = bucket_of(size, &csize);
	struct bm_bo *bo;

	while ((bo = c->head[b]) && bo->size >= size) {
		/* Oldest first: if it is busy, the younger ones are too. */
		if (bo_busy(bm, bo))
			break;
		c->head[b] = bo->next;
		if (!c->head[b])
			c->tail[b] = NULL;
		c->count[b]--;
		bo->next = NULL;
		if (bo_madvise(bm, bo, I915_MADV_WILLNEED)) {
			bm->st.cache_hits++;
			return bo;
		}
		bo_free(bm, bo);	/* purged under memory pressure */
	}
	return bo_new(bm, csize);
}

static void cache_put(struct bufmgr *bm, struct bm_bo *bo)
{
	struct bm_cache *c = bm->cache;
	uint64_t csize;
	unsigned int b = bucket_of(bo->size, &csize);

	if (c->count[b] >= BM_BUCKET_MAX || csize != bo->size) {
		bo_free(bm, bo);
		return;
	}
	bo_madvise(bm, bo, I915_MADV_DONTNEED);
	bo->next = NULL;
	if (c->tail[b])
		c->tail[b]->next = bo;
	else
		c->head[b] = bo;
	c->tail[b] = bo;
	c->count[b]++;
}

static int arena_get(struct bufmgr *bm, enum bm_kind kind, uint64_t size,
		     struct bm_buf *out)
{
	uint64_t align = kind == BM_BATCH ? BM_BATCH_ALIGN : BM_ARENA_ALIGN;
	uint64_t asize = kind == BM_BATCH ? BM_BATCH_ARENA : bm->arena_size;
	uint64_t off = (bm->used[kind] + align - 1) & ~(align - 1);

	if (size > asize)
		asize = size;
	if (bm->arena[kind] && off + size > bm->arena[kind]->size) {
		/* Full before the frame ended: start another. */
		cache_put(bm, bm->arena[kind]);
		bm->arena[kind] = NULL;
	}
	if (!bm->arena[kind]) {
		bm->arena[kind] = cache_get(bm, asize);
		if (!bm->arena[kind])
			return -1;
		off = 0;
	}
	out->bo = bm->arena[kind];
	out->handle = out->bo->handle;
	out->offset = off;
	out->size = size;
	bm->used[kind] = off + size;
	return 0;
}

int bm_get(struct bufmgr *bm, enum bm_kind kind, uint64_t size,
	   struct bm_buf *out)
{
	memset(out, 0, sizeof(*out));
	switch (bm->strategy) {
	case BM_ALLOC:
		out->bo = bo_new(bm, size);
		break;
	case BM_REUSE:
		out->bo = cache_get(bm, size);
		break;
	case BM_SUBALLOC:
	default:
		return arena_get(bm, kind, size, out);
	}
	if (!out->bo)
		return -1;
	out->handle = out->bo->handle;
	out->size = size;
	return 0;
}

void bm_put(struct bufmgr *bm, struct bm_buf *buf)
{
	if (!buf->bo)
		return;
	switch (bm->strategy) {
	case BM_ALLOC:
		bo_free(bm, buf->bo);
		break;
	case BM_REUSE:
		cache_put(bm, buf->bo);
		break;
	case BM_SUBALLOC:
	default:
		break;			/* the frame's object goes at frame end */
	}
	memset(buf, 0, sizeof(*buf));
}

void bm_frame_end(struct bufmgr *bm)
{
	unsigned int k;

	if (bm->strategy != BM_SUBALLOC)
		return;
	for (k = 0; k < 2; k++) {
		if (bm->arena[k])
			cache_put(bm, bm->arena[k]);
		bm->arena[k] = NULL;
		bm->used[k] = 0;
	}
}

static void *bo_map(struct bufmgr *bm, struct bm_bo *bo, bool gtt)
{
	if (!gtt && !bo->cpu_map) {
		struct drm_i915_gem_mmap arg = { .handle = bo->handle, .size = bo->size };

		if (bm_ioctl(bm, DRM_IOCTL_I915_GEM_MMAP, &arg, "DRM_IOCTL_I915_GEM_MMAP"))
			return NULL;
		bo->cpu_map = (void *)(uintptr_t)arg.addr_ptr;
	} else if (gtt && !bo->gtt_map) {
		struct drm_i915_gem_mmap_gtt arg = { .handle = bo->handle };
		void *p;

		if (bm_ioctl(bm, DRM_IOCTL_I915_GEM_MMAP_GTT, &arg,
			     "DRM_IOCTL_I915_GEM_MMAP_GTT"))
			return NULL;
		p = gem_mmap(NULL, bo->size, PROT_READ | PROT_WRITE, MAP_SHARED,
			     bm->fd, (off_t)arg.offset);
		if (p == MAP_FAILED) {
			if (!bm->error) {
				bm->error = -errno;
				bm->failed_op = "mmap (GTT)";
			}
			return NULL;
		}
		bo->gtt_map = p;
	}
	return gtt ? bo->gtt_map : bo->cpu_map;
}

int bm_upload(struct bufmgr *bm, const struct bm_buf *buf, uint64_t off,
	      const void *data, uint64_t len)
{
	struct drm_i915_gem_set_domain sd = { .handle = buf->handle };
	bool gtt = bm->upload == BM_GTT_MAP;
	uint8_t *p;

	if (bm->upload == BM_PWRITE) {
		struct drm_i915_gem_pwrite arg = {
			.handle = buf->handle, .offset = buf->offset + off,
			.size = len, .data_ptr = (uintptr_t)data,
		};

		if (bm_ioctl(bm, DRM_IOCTL_I915_GEM_PWRITE, &arg,
			     "DRM_IOCTL_I915_GEM_PWRITE"))
			return -1;
		bm->st.pwrite_bytes += len;
		bm->st.upload_bytes += len;
		return 0;
	}
	p = bo_map(bm, buf->bo, gtt);
	if (!p)
		return -1;
	if (bm->upload == BM_UNSYNC) {
		memcpy(p + buf->offset + off, data, len);
		bm->st.upload_bytes += len;
		return 0;
	}
	/* The domain move waits for the GPU and flushes, as it must
	 * before the CPU writes through either map. */
	sd.read_domains = gtt ? I915_GEM_DOMAIN_GTT : I915_GEM_DOMAIN_CPU;
	sd.write_domain = sd.read_domains;
	if (bm_ioctl(bm, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd,
		     "DRM_IOCTL_I915_GEM_SET_DOMAIN"))
		return -1;
	memcpy(p + buf->offset + off, data, len);
	bm->st.upload_bytes += len;
	return 0;
}

static void offset_set(struct bufmgr *bm, uint32_t handle, uint64_t offset)
{
	if (handle >= bm->noffsets) {
		uint32_t n = bm->noffsets ? bm->noffsets : 256;
		uint64_t *o;

		while (n <= handle)
			n *= 2;
		o = realloc(bm->offsets, n * sizeof(*o));
		if (!o)
			return;		/* only an optimisation */
		memset(o + bm->noffsets, 0, (n - bm->noffsets) * sizeof(*o));
		bm->offsets = o;
		bm->noffsets = n;
	}
	bm->offsets[handle] = offset + 1;
}

/* Presume each target is where it was last bound (libdrm's bo->offset). */
static void presume_offsets(struct bufmgr *bm, struct gen3_batch *b)
{
	struct drm_i915_gem_relocation_entry *r;
	unsigned int i;

	for (i = 0; i < b->nreloc; i++) {
		r = &b->reloc[i];
		if (r->target_handle >= bm->noffsets || !bm->offsets[r->target_handle])
			continue;
		r->presumed_offset = bm->offsets[r->target_handle] - 1;
		b->dw[r->offset / 4] = (uint32_t)(r->presumed_offset + r->delta);
	}
}

int bm_exec(struct bufmgr *bm, struct gen3_batch *b, const struct bm_buf *batch,
	    const struct bm_buf *const *targets, unsigned int n)
{
	struct drm_i915_gem_exec_object2 obj[BM_MAX_OBJECTS + 1];
	struct drm_i915_gem_execbuffer2 eb;
	uint32_t handles[BM_MAX_OBJECTS];
	uint64_t flags[BM_MAX_OBJECTS];
	struct gen3_exec x = {
		.batch = batch->handle, .batch_offset = (uint32_t)batch->offset,
		.handles = handles, .flags = flags,
	};
	uint32_t bytes = gen3_batch_bytes(b);
	unsigned int i, j;

	if (b->overflow || n > BM_MAX_OBJECTS) {
		if (!bm->error) {
			bm->error = -E2BIG;
			bm->failed_op = "batch too large";
		}
		return -1;
	}
	presume_offsets(bm, b);
	/* Relocation offsets are within the batch object. */
	for (i = 0; i < b->nreloc; i++)
		b->reloc[i].offset += batch->offset;
	if (bm->upload == BM_UNSYNC && batch->bo) {
		uint8_t *p = bo_map(bm, batch->bo, false);

		if (!p)
			return -1;
		memcpy(p + batch->offset, b->dw, bytes);
	} else {
		struct drm_i915_gem_pwrite pw = {
			.handle = batch->handle, .offset = batch->offset,
			.size = bytes, .data_ptr = (uintptr_t)b->dw,
		};

		if (bm_ioctl(bm, DRM_IOCTL_I915_GEM_PWRITE, &pw,
			     "DRM_IOCTL_I915_GEM_PWRITE"))
			return -1;
		bm->st.pwrite_bytes += bytes;
	}
	/* Sub-allocated buffers share an object: list each object once. */
	for (i = 0; i < n; i++) {
		for (j = 0; j < x.n; j++)
			if (handles[j] == targets[i]->handle)
				break;
		if (j == x.n) {
			handles[x.n] = targets[i]->handle;
			flags[x.n++] = 0;
		}
		flags[j] |= targets[i]->flags;
	}
	gen3_batch_execbuf(b, &x, obj, &eb);
	if (bm_ioctl(bm, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb,
		     "DRM_IOCTL_I915_GEM_EXECBUFFER2"))
		return -1;
	bm->st.execbuffers++;
	bm->st.relocations += b->nreloc;
	for (i = 0; i <= x.n; i++)
		offset_set(bm, obj[i].handle, obj[i].offset);
	return 0;
}

int bm_wait_handle(struct bufmgr *bm, uint32_t handle)
{
	struct drm_i915_gem_wait arg = { .bo_handle = handle, .timeout_ns = -1 };

	return bm_ioctl(bm, DRM_IOCTL_I915_GEM_WAIT, &arg, "DRM_IOCTL_I915_GEM_WAIT");
}

int bm_wait(struct bufmgr *bm, const struct bm_buf *buf)
{
	return buf->bo ? bm_wait_handle(bm, buf->handle) : 0;
}

void bm_fini(struct bufmgr *bm)
{
	struct bm_bo *bo;
	unsigned int b;

	bm_frame_end(bm);
	for (b = 0; bm->cache && b < BM_NBUCKETS; b++) {
		while ((bo = bm->cache->head[b])) {
			bm->cache->head[b] = bo->next;
			bo_free(bm, bo);
		}
	}
	free(bm->cache);
	bm->cache = NULL;
	free(bm->offsets);
	bm->offsets = NULL;
	bm->noffsets = 0;
}
