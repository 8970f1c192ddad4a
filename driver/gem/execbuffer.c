/*
 * EXECBUFFER2 (and the legacy EXECBUFFER): validation, reservation of the
 * aperture, relocation, domain changes and submission
 * (i915_gem_execbuffer.c).
 *
 * Checks come in the kernel's order, because clients probe with them
 * (IGT's gem_context_has_engine expects ENOENT for a bad handle on a
 * valid ring but EINVAL for an invalid ring): flags and counts, then the
 * context, then the ring, then the handles.
 *
 * Reservation binds every object (fence-aligned where a fence is needed)
 * and pins it for the duration.  If the aperture is full we evict; when
 * eviction had to wait for the GPU (the lock was dropped) we unpin and
 * start over, and if even that fails we evict everything once and retry
 * before giving up with -ENOSPC, as i915_gem_execbuffer_reserve did.
 *
 * Relocations are applied whenever the presumed offset is wrong, whatever
 * I915_EXEC_NO_RELOC says (a hint only); the new offsets are written back
 * into the caller's exec objects and relocation entries.
 *
 * An execbuffer may drop the lock to wait (eviction, relocation, ring
 * space), and another client's execbuffer may list the same (flinked)
 * objects meanwhile.  So what belongs to one execbuffer lives in its
 * struct eb: the entries, the pending domains, its pins, and a table of
 * its objects that finds an object listed twice ("Object listed twice",
 * EINVAL) and the target of a relocation by handle.  The object only
 * counts the execbuffers that hold it (in_exec) and their pins.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "gem_priv.h"
#include "log.h"
#include "util.h"

#define EXEC_OBJECT_KNOWN	(EXEC_OBJECT_NEEDS_FENCE | EXEC_OBJECT_NEEDS_GTT | \
				 EXEC_OBJECT_WRITE | EXEC_OBJECT_ASYNC | \
				 EXEC_OBJECT_SUPPORTS_48B_ADDRESS | EXEC_OBJECT_CAPTURE | \
				 EXEC_OBJECT_PINNED | EXEC_OBJECT_PAD_TO_SIZE)
#define EXEC_FLAGS_KNOWN	(I915_EXEC_RING_MASK | I915_EXEC_GEN7_SOL_RESET | \
				 I915_EXEC_SECURE | I915_EXEC_IS_PINNED | \
				 I915_EXEC_NO_RELOC | I915_EXEC_HANDLE_LUT | \
				 I915_EXEC_BSD_MASK | I915_EXEC_BATCH_FIRST | \
				 I915_EXEC_FENCE_IN | I915_EXEC_FENCE_OUT | \
				 I915_EXEC_FENCE_SUBMIT)
#define IN_FENCES		(I915_EXEC_FENCE_IN | I915_EXEC_FENCE_SUBMIT)
#define GTT_PAGE_MASK		(~(uint64_t)4095)

/* Softpin offsets: bits 63..48 repeat bit 47 (gen8_canonical_addr). */
static uint64_t gen8_canonical_addr(uint64_t addr)
{
	return (uint64_t)((int64_t)(addr << 16) >> 16);
}

static uint64_t gen8_noncanonical_addr(uint64_t addr)
{
	return addr & ((1ull << 48) - 1);
}

/* One object's state in one execbuffer. */
struct eb_vma {
	uint32_t pending_read, pending_write;
	bool pinned;
	bool fence_pinned;		/* holds a pin on its fence register */
};

struct eb {
	struct gem_file *file;
	struct drm_i915_gem_execbuffer2 *args;
	struct drm_i915_gem_exec_object2 *exec;
	struct gem_object **objs;
	struct eb_vma *vma;		/* vma[i] goes with objs[i] and exec[i] */
	uint32_t *table;		/* open addressing: index + 1, 0 empty */
	uint32_t table_mask;
	unsigned int count;
	unsigned int batch;		/* index of the batch object */
	bool secure;			/* I915_EXEC_SECURE, allowed */
	struct gem_syncfile *out_fence;	/* I915_EXEC_FENCE_OUT */
	int out_fence_fd;		/* its client end, -1: none */
};

/*
 * The checks of i915_gem_check_execbuffer and i915_gem_do_execbuffer, in
 * their order: illegal flags (unknown ones, any constants mode but the
 * default, the resource streamer), DRI1 cliprects, DR1/DR4, alignment of
 * the batch range, secure dispatch, then the context and the engine.
 */
static int eb_check_args(struct eb *eb, struct gem_call *call)
{
	struct drm_i915_gem_execbuffer2 *args = eb->args;
	uint64_t ring = args->flags & I915_EXEC_RING_MASK;

	if (args->flags & ~(uint64_t)EXEC_FLAGS_KNOWN)
		return -EINVAL;
	if (args->num_cliprects || args->cliprects_ptr)
		return -EINVAL;		/* kernel clipping was a DRI1 misfeature */
	if (args->DR4 == 0xffffffff)
		args->DR4 = 0;		/* "UXA submitting garbage DR4, fixing up" */
	if (args->DR1 || args->DR4)
		return -EINVAL;
	if ((args->batch_start_offset | args->batch_len) & 7)
		return -EINVAL;
	if (args->flags & I915_EXEC_SECURE) {
		/* HAS_SECURE_BATCHES (gen < 6): the DRM master, as root */
		if (!gem_file_is_master(eb->file) || !call->caller_admin)
			return -EPERM;
		eb->secure = true;
	}
	/*
	 * In-fences: only gemd's own (the client sends the inode of its
	 * descriptor in rsvd2's low half), all earlier on the one ring, so
	 * nothing to wait for.  A submit fence is the same on gen3.
	 */
	if (args->flags & IN_FENCES) {
		if ((args->flags & IN_FENCES) == IN_FENCES)
			return -EINVAL;
		if (gem_syncfile_lookup(eb->file->dev, (uint32_t)args->rsvd2))
			return -EINVAL;
	}
	if (i915_execbuffer2_get_context_id(*args))
		return -ENOENT;		/* gen3: only the default context 0 */
	if (ring != I915_EXEC_DEFAULT && ring != I915_EXEC_RENDER)
		return -EINVAL;
	if (args->flags & I915_EXEC_BSD_MASK)
		return -EINVAL;		/* BSD selectors need the BSD ring */
	if (args->flags & I915_EXEC_GEN7_SOL_RESET)
		return -EINVAL;		/* "sol reset is gen7/rcs only" */
	return 0;
}

/*
 * eb_validate_vma: the entry's flags, its alignment, and for softpin an
 * offset that is page aligned and in canonical form; pad_to_size counts
 * only with its flag.  The offset is kept in non-canonical form from here
 * on (gen3's addresses are far below bit 47, so both are the same).
 */
static int eb_validate_entry(struct drm_i915_gem_exec_object2 *entry)
{
	if (entry->flags & ~(uint64_t)EXEC_OBJECT_KNOWN)
		return -EINVAL;
	if (entry->alignment & (entry->alignment - 1))
		return -EINVAL;
	if ((entry->flags & EXEC_OBJECT_PINNED) &&
	    entry->offset != gen8_canonical_addr(entry->offset & GTT_PAGE_MASK))
		return -EINVAL;
	if (entry->flags & EXEC_OBJECT_PAD_TO_SIZE) {
		if (entry->pad_to_size & ~GTT_PAGE_MASK)
			return -EINVAL;
	} else {
		entry->pad_to_size = 0;
	}
	entry->offset = gen8_noncanonical_addr(entry->offset);
	return 0;
}

static void eb_release(struct eb *eb)
{
	unsigned int i;

	if (eb->objs) {
		for (i = 0; i < eb->count; i++) {
			struct gem_object *obj = eb->objs[i];

			if (!obj)
				continue;
			obj->in_exec--;
			gem_object_put(obj);
		}
	}
	free(eb->objs);		/* and vma and table: one allocation */
}

static uint32_t eb_hash(const struct eb *eb, const struct gem_object *obj)
{
	uint64_t h = (uint64_t)(uintptr_t)obj * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32) & eb->table_mask;
}

/* This execbuffer's index of obj, or -1 if it does not list it. */
static int eb_index(const struct eb *eb, const struct gem_object *obj)
{
	uint32_t slot;

	for (slot = eb_hash(eb, obj); eb->table[slot];
	     slot = (slot + 1) & eb->table_mask)
		if (eb->objs[eb->table[slot] - 1] == obj)
			return (int)eb->table[slot] - 1;
	return -1;
}

/* Enter objs[i]; false if the execbuffer lists it already. */
static bool eb_add(struct eb *eb, unsigned int i)
{
	uint32_t slot;

	for (slot = eb_hash(eb, eb->objs[i]); eb->table[slot];
	     slot = (slot + 1) & eb->table_mask)
		if (eb->objs[eb->table[slot] - 1] == eb->objs[i])
			return false;
	eb->table[slot] = i + 1;
	return true;
}

static int eb_lookup(struct eb *eb)
{
	uint32_t size = 2;
	unsigned int i;

	while (size < 2 * eb->count)
		size <<= 1;
	eb->table_mask = size - 1;
	/* One allocation: objs, then vma, then table (alignment descends). */
	eb->objs = gem_calloc(1, eb->count * (sizeof(*eb->objs) + sizeof(*eb->vma)) +
				 size * sizeof(*eb->table));
	if (!eb->objs)
		return -ENOMEM;
	eb->vma = (struct eb_vma *)(eb->objs + eb->count);
	eb->table = (uint32_t *)(eb->vma + eb->count);
	for (i = 0; i < eb->count; i++) {
		struct drm_i915_gem_exec_object2 *entry = &eb->exec[i];
		struct gem_object *obj;
		int ret;

		obj = gem_handle_lookup(eb->file, entry->handle);
		if (!obj)
			return -ENOENT;
		ret = eb_validate_entry(entry);
		if (ret) {
			gem_object_put(obj);
			return ret;
		}
		eb->objs[i] = obj;
		obj->in_exec++;
		if (!eb_add(eb, i))
			return -EINVAL;	/* "Object listed twice" */
	}
	return 0;
}

static bool eb_needs_fence(const struct eb *eb, unsigned int i)
{
	return (eb->exec[i].flags & EXEC_OBJECT_NEEDS_FENCE) &&
	       eb->objs[i]->tiling_mode != I915_TILING_NONE;
}

static void eb_unreserve(struct eb *eb)
{
	unsigned int i;

	for (i = 0; i < eb->count; i++) {
		struct gem_object *obj = eb->objs[i];
		struct eb_vma *v = &eb->vma[i];

		if (v->fence_pinned) {
			obj->dev->fences[obj->fence_reg].pin_count--;
			v->fence_pinned = false;
		}
		if (v->pinned) {
			gem_object_unpin(obj);
			obj->exec_pinned--;
			v->pinned = false;
		}
	}
}

/*
 * Bind and pin one object where its entry asks, and hold its fence
 * register for the execbuffer if it needs one there: that register cannot
 * be stolen for another object of the same execbuffer, every other one can.
 */
static int eb_reserve_object(struct eb *eb, unsigned int i)
{
	const struct drm_i915_gem_exec_object2 *entry = &eb->exec[i];
	struct gem_object *obj = eb->objs[i];
	struct eb_vma *v = &eb->vma[i];
	struct gem_pin_args pin = {
		.alignment = entry->alignment,
		.min_size = entry->pad_to_size,
		.offset = entry->offset,
		.fixed = entry->flags & EXEC_OBJECT_PINNED,
		.fenceable = eb_needs_fence(eb, i),
	};
	int ret;

	ret = gem_object_pin_args(obj, &pin);
	if (ret)
		return ret;
	v->pinned = true;
	obj->exec_pinned++;
	if (!pin.fenceable)
		return 0;
	ret = gem_object_get_fence(obj);
	if (ret)
		return ret;
	obj->dev->fences[obj->fence_reg].pin_count++;
	v->fence_pinned = true;
	return 0;
}

/*
 * Bind and pin everything for the duration of the execbuffer: softpinned
 * objects first, so that their slots are free when they ask for them, as
 * eb_reserve orders "pinned must have their slot".
 */
static int eb_reserve(struct eb *eb)
{
	struct gem_device *dev = eb->file->dev;
	uint64_t total = 0;
	bool evicted_all = false;
	unsigned int i, pass;
	int ret = 0;

	for (i = 0; i < eb->count; i++) {
		struct gem_object *obj = eb->objs[i];
		uint64_t size = eb_needs_fence(eb, i) ? gem_fence_size(obj) : obj->size;

		size = MAX(size, eb->exec[i].pad_to_size);
		if (obj->madv != I915_MADV_WILLNEED)
			return -EFAULT;	/* "Attempting to obtain a purgeable object" */
		if (size > dev->aperture_size)
			return -E2BIG;	/* "larger than the aperture" */
		total += size;
	}
	/* Early rejection: even an empty aperture could not hold them all. */
	if (total > dev->aperture_size - dev->pinned_bytes)
		return -ENOSPC;

	for (;;) {
		ret = 0;
		for (pass = 0; pass < 2 && !ret; pass++) {
			for (i = 0; i < eb->count; i++) {
				bool fixed = eb->exec[i].flags & EXEC_OBJECT_PINNED;

				if (fixed != (pass == 0))
					continue;
				ret = eb_reserve_object(eb, i);
				if (ret)
					break;
			}
		}
		if (ret == 0)
			return 0;
		eb_unreserve(eb);
		if (ret == -EAGAIN)
			continue;	/* we slept: everything may have moved */
		if (ret != -ENOSPC || evicted_all)
			return ret;
		ret = gem_evict_everything(dev, false);
		if (ret && ret != -EAGAIN)
			return ret;
		evicted_all = true;
	}
}

/*
 * The entry as it is now, read once: relocations that came out of line
 * are in the client's memfd, which it may write while we work, so what
 * is checked must be what is used (the kernel's copy_from_user into its
 * stack array does the same).  The barrier keeps the compiler from
 * reading the source again in place of the copy.
 */
static void eb_read_reloc(struct drm_i915_gem_relocation_entry *to,
			  const struct drm_i915_gem_relocation_entry *from)
{
	memcpy(to, from, sizeof(*to));
	__asm__ __volatile__("" : : "r"(to) : "memory");
}

/*
 * Apply one object's relocations.  If a value must change in an object
 * the GPU is still reading, wait for it first (lock dropped): -EAGAIN.
 */
static int eb_relocate_object(struct eb *eb, unsigned int i_obj)
{
	struct gem_object *obj = eb->objs[i_obj];
	struct drm_i915_gem_exec_object2 *entry = &eb->exec[i_obj];
	struct drm_i915_gem_relocation_entry *relocs =
		(void *)(uintptr_t)entry->relocs_ptr;
	bool lut = eb->args->flags & I915_EXEC_HANDLE_LUT;
	uint32_t i;
	int ret;

	for (i = 0; i < entry->relocation_count; i++) {
		struct drm_i915_gem_relocation_entry reloc, *r = &reloc;
		struct gem_object *target;
		struct eb_vma *tv;
		uint32_t value, *dst;
		int t;

		eb_read_reloc(r, &relocs[i]);
		if (lut) {
			if (r->target_handle >= eb->count)
				return -ENOENT;
			t = (int)r->target_handle;
		} else {
			target = gem_handle_lookup(eb->file, r->target_handle);
			if (!target)
				return -ENOENT;
			t = eb_index(eb, target);
			gem_object_put(target);	/* the file's handle keeps it */
			if (t < 0)
				return -ENOENT;	/* not part of this execbuffer */
		}
		target = eb->objs[t];
		tv = &eb->vma[t];
		/* Validate the target's domains (i915_gem_execbuffer_relocate_entry). */
		if (r->write_domain & (r->write_domain - 1))
			return -EINVAL;
		if ((r->write_domain | r->read_domains) & ~I915_GEM_GPU_DOMAINS)
			return -EINVAL;	/* CPU and GTT are no GPU domains */
		if (r->write_domain && tv->pending_write &&
		    r->write_domain != tv->pending_write)
			return -EINVAL;
		tv->pending_read |= r->read_domains;
		tv->pending_write |= r->write_domain;

		if (r->offset > obj->size - 4 || (r->offset & 3))
			return -EINVAL;
		value = gem_object_gtt_offset(target) + (uint32_t)r->delta;
		dst = (uint32_t *)(obj->vaddr + r->offset);
		if (r->presumed_offset != gem_object_gtt_offset(target) ||
		    *dst != value) {
			if (*dst != value) {
				if (gem_object_busy(obj)) {
					ret = gem_object_wait_rendering(obj, false);
					return ret ? ret : -EAGAIN;
				}
				*dst = value;
			}
			relocs[i].presumed_offset = gem_object_gtt_offset(target);
		}
	}
	return 0;
}

static int eb_relocate(struct eb *eb)
{
	uint64_t count = 0;
	bool moved = false;
	unsigned int i;
	int ret;

	for (i = 0; i < eb->count; i++) {
		eb->vma[i].pending_read = 0;
		eb->vma[i].pending_write = 0;
		if (eb->exec[i].offset != gem_object_gtt_offset(eb->objs[i]))
			moved = true;
	}
	/*
	 * With NO_RELOC the kernel reads no relocation at all while every
	 * object is where the caller says (__EXEC_HAS_RELOC): IGT's gem_busy
	 * passes stale LUT relocations that would otherwise be -ENOENT.
	 */
	if ((eb->args->flags & I915_EXEC_NO_RELOC) && !moved)
		return 0;
	for (i = 0; i < eb->count; i++) {
		ret = eb_relocate_object(eb, i);
		if (ret)
			return ret;	/* -EAGAIN: all of them again after the wait */
		count += eb->exec[i].relocation_count;
	}
	/* Counted once the pass succeeds, so a restart counts nothing twice. */
	eb->file->dev->stats.relocations += count;
	gem_acct_relocations(count);
	return 0;
}

/* i915_gem_object_set_to_gpu_domain, minus the pieces MI_FLUSH covers. */
static void eb_move_to_gpu(struct eb *eb)
{
	unsigned int i;

	for (i = 0; i < eb->count; i++) {
		struct gem_object *obj = eb->objs[i];
		struct eb_vma *v = &eb->vma[i];
		uint32_t old_read = obj->read_domains, old_write = obj->write_domain;

		if (eb->exec[i].flags & EXEC_OBJECT_WRITE)
			v->pending_write |= I915_GEM_DOMAIN_RENDER;
		if (i == eb->batch)
			v->pending_read |= I915_GEM_DOMAIN_COMMAND;
		if (v->pending_write)
			v->pending_read |= v->pending_write;
		if (!v->pending_read)
			v->pending_read = I915_GEM_DOMAIN_RENDER;
		/* CPU writes must reach memory before the GPU reads, and
		 * so must writes through the GTT view of a tiled object. */
		gem_object_flush_cpu_write_domain(obj);
		gem_view_sync(obj);
		obj->read_domains = v->pending_read;
		obj->write_domain = v->pending_write;
		gem_event_domain(obj, old_read, old_write);
	}
}

static void eb_move_to_active(struct eb *eb, uint32_t seqno)
{
	unsigned int i;

	for (i = 0; i < eb->count; i++) {
		struct gem_object *obj = eb->objs[i];

		if (!obj->active) {
			obj->active = true;
			gem_object_get(obj);	/* held until retired */
		}
		obj->last_read_seqno = seqno;
		if (obj->write_domain) {
			obj->last_write_seqno = seqno;
			obj->dirty = true;
		}
		gem_object_move_to_list(obj, GEM_LIST_ACTIVE);
		gem_status_object_changed(obj);
	}
}

static void eb_write_back_offsets(struct eb *eb)
{
	unsigned int i;

	for (i = 0; i < eb->count; i++)
		eb->exec[i].offset = gem_object_gtt_offset(eb->objs[i]);
}

#define EB_DWORDS	4	/* what eb_submit emits before the request */

/* Emit the batch and queue its request.  rq and the ring space were
 * taken first (eb_execute), so nothing here can fail. */
static void eb_submit(struct eb *eb, struct gem_request *rq)
{
	struct gem_device *dev = eb->file->dev;
	struct gem_object *batch = eb->objs[eb->batch];
	uint32_t start = eb->args->batch_start_offset;
	uint32_t seqno;

	gem_ring_emit(dev, MI_BATCH_BUFFER_START_GTT);
	gem_ring_emit(dev, (gem_object_gtt_offset(batch) + start) |
			   (eb->secure ? 0 : MI_BATCH_NON_SECURE));
	gem_ring_emit(dev, MI_FLUSH);
	gem_ring_emit(dev, MI_NOOP);
	seqno = gem_add_request(dev, eb->file, rq);
	/* The error state dumps the batch of a request that hangs. */
	rq->batch = batch;
	gem_object_get(batch);
	eb_move_to_active(eb, seqno);
	dev->stats.execbuffers++;
	gem_acct_execbuffer();
}

static int eb_execute(struct gem_file *file, struct drm_i915_gem_execbuffer2 *args,
		      struct drm_i915_gem_exec_object2 *exec, struct gem_call *call)
{
	struct gem_device *dev = file->dev;
	struct eb eb = {
		.file = file, .args = args, .exec = exec,
		.count = args->buffer_count, .out_fence_fd = -1,
	};
	struct gem_object *batch;
	struct gem_request *rq;
	int ret;

	ret = eb_check_args(&eb, call);
	if (ret)
		return ret;
	/* The out-fence's descriptor comes before anything else can fail
	 * (get_unused_fd_flags). */
	if (args->flags & I915_EXEC_FENCE_OUT) {
		ret = gem_syncfile_prepare(dev, &eb.out_fence, &eb.out_fence_fd);
		if (ret)
			return ret;
	}
	if (dev->wedged)
		return -EIO;		/* recovery failed: until gemd restarts */
	if (dev->suspended)
		return -EBUSY;		/* suspend.c: until resume */
	if (file->banned)
		return -EIO;		/* hung the GPU too often (hangcheck.c) */
	eb.batch = args->flags & I915_EXEC_BATCH_FIRST ? 0 : eb.count - 1;
	gem_retire_requests(dev);
	ret = eb_lookup(&eb);
	if (ret)
		goto out_release;

	batch = eb.objs[eb.batch];
	if (args->batch_start_offset >= batch->size ||
	    args->batch_len > batch->size - args->batch_start_offset) {
		ret = -EINVAL;
		goto out_release;
	}
	for (;;) {
		enum gem_acct_class cls = gem_acct_switch(GEM_ACCT_MM);

		ret = eb_reserve(&eb);
		gem_acct_switch(cls);
		if (ret)
			goto out_release;
		ret = eb_relocate(&eb);
		if (ret != -EAGAIN)
			break;
		eb_unreserve(&eb);
	}
	if (ret)
		goto out_unreserve;
	if (eb.vma[eb.batch].pending_write) {
		ret = -EINVAL;		/* "Attempting to use self-modifying batch" */
		goto out_unreserve;
	}
	/*
	 * What can fail comes before anything is emitted or any domain
	 * moves: the request's memory, then ring space for the batch and
	 * the request together (a wait there drops the lock; our objects
	 * stay pinned and relocated).
	 */
	rq = gem_request_alloc();
	if (!rq) {
		ret = -ENOMEM;
		goto out_unreserve;
	}
	ret = gem_ring_begin(dev, EB_DWORDS + GEM_REQUEST_DWORDS);
	if (ret) {
		gem_request_free(dev, rq);
		goto out_unreserve;
	}
	eb_move_to_gpu(&eb);
	eb_submit(&eb, rq);
	eb_write_back_offsets(&eb);
	if (eb.out_fence) {
		gem_syncfile_commit(dev, eb.out_fence, rq->seqno);
		call->fd_out = eb.out_fence_fd;
		eb.out_fence = NULL;
	}
out_unreserve:
	eb_unreserve(&eb);
out_release:
	eb_release(&eb);
	if (eb.out_fence)
		gem_syncfile_abort(eb.out_fence, eb.out_fence_fd);
	return ret;
}

int gem_execbuffer2_ioctl(struct gem_file *file, void *data,
			  struct gem_call *call)
{
	struct drm_i915_gem_execbuffer2 *args = data;
	struct drm_i915_gem_exec_object2 *exec = (void *)(uintptr_t)args->buffers_ptr;

	if (args->buffer_count < 1 || !exec)
		return -EINVAL;
	return eb_execute(file, args, exec, call);
}

/* The 2008 interface: converted as i915_gem_execbuffer did, with every
 * object needing a fence on pre-965 hardware. */
int gem_execbuffer_ioctl(struct gem_file *file, void *data,
			 struct gem_call *call)
{
	struct drm_i915_gem_execbuffer *args = data;
	struct drm_i915_gem_exec_object *list = (void *)(uintptr_t)args->buffers_ptr;
	struct drm_i915_gem_execbuffer2 args2 = {
		.buffer_count = args->buffer_count,
		.batch_start_offset = args->batch_start_offset,
		.batch_len = args->batch_len,
		.DR1 = args->DR1, .DR4 = args->DR4,
		.num_cliprects = args->num_cliprects,
		.cliprects_ptr = args->cliprects_ptr,
		.flags = I915_EXEC_RENDER,
	};
	struct drm_i915_gem_exec_object2 *exec;
	uint32_t i;
	int ret;

	if (args->buffer_count < 1 || args->buffer_count > (1u << 16) || !list)
		return -EINVAL;
	exec = gem_calloc(args->buffer_count, sizeof(*exec));
	if (!exec)
		return -ENOMEM;
	for (i = 0; i < args->buffer_count; i++) {
		exec[i].handle = list[i].handle;
		exec[i].relocation_count = list[i].relocation_count;
		exec[i].relocs_ptr = list[i].relocs_ptr;
		exec[i].alignment = list[i].alignment;
		exec[i].offset = list[i].offset;
		exec[i].flags = EXEC_OBJECT_NEEDS_FENCE;
	}
	args2.buffers_ptr = (uintptr_t)exec;
	ret = eb_execute(file, &args2, exec, call);
	if (ret == 0)
		for (i = 0; i < args->buffer_count; i++)
			list[i].offset = exec[i].offset;
	free(exec);
	return ret;
}
