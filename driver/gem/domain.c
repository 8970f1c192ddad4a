/*
 * Read and write domains, and the CPU access paths that move objects
 * between them (set_domain, pread, pwrite, mmap).
 *
 * The essay, as i915_gem.c had it: an object has a set of read domains
 * (caches that may hold valid copies) and at most one write domain (the
 * cache that may hold newer data than memory).  Moving to a new domain
 * means flushing the old write domain and invalidating the new read
 * domain.  On a 945G:
 *
 *  - CPU writes land in the CPU cache; before the GPU may read the object
 *    the cache lines are flushed (clflush).  We count those bytes — that
 *    is the cost GEM's critics measured — even though simulated memory
 *    needs no actual flush.
 *  - GPU writes (render, blitter) are flushed by MI_FLUSH, which every
 *    request ends with; CPU access to an object the GPU writes must wait
 *    for that request, and reads must then invalidate the CPU cache.
 *  - GTT access is uncached (write-combined): no flush, but it must wait
 *    for the GPU like any CPU access.
 *
 * Worked cases: a batch buffer is written by the CPU (write CPU), then
 * executed (read COMMAND): clflush on the transition, no wait.  A render
 * target the GPU draws to (write RENDER) is then read with pread: wait
 * for the request, invalidate, read domain CPU.  A constant buffer
 * rewritten every frame through pwrite waits for the previous frame's
 * reads before its new contents go in.
 */
#include <errno.h>

#include "gem_priv.h"
#include "util.h"

static void count_clflush(struct gem_object *obj)
{
	obj->dev->stats.clflush_bytes += obj->size;
	obj->dev->stats.domain_flushes++;
}

void gem_object_flush_cpu_write_domain(struct gem_object *obj)
{
	if (obj->write_domain != I915_GEM_DOMAIN_CPU)
		return;
	count_clflush(obj);
	obj->write_domain = 0;
}

/* Flush GPU writes (i915_gem_object_flush_gpu_write_domain): wait for the
 * request that writes the object; the MI_FLUSH in it did the rest. */
static int flush_gpu_write_domain(struct gem_object *obj)
{
	int ret;

	if (!(obj->write_domain & I915_GEM_GPU_DOMAINS))
		return 0;
	ret = gem_object_wait_rendering(obj, true);
	if (ret)
		return ret;
	obj->write_domain &= ~I915_GEM_GPU_DOMAINS;
	obj->dev->stats.domain_flushes++;
	return 0;
}

/* What any CPU access needs first: the GPU's writes flushed and, for a
 * writer, the GPU's reads finished too. */
static int wait_for_cpu_access(struct gem_object *obj, bool write)
{
	int ret = flush_gpu_write_domain(obj);

	if (ret)
		return ret;
	return gem_object_wait_rendering(obj, !write);
}

int gem_object_set_to_gtt_domain(struct gem_object *obj, bool write)
{
	uint32_t old_read = obj->read_domains, old_write = obj->write_domain;
	int ret;

	ret = wait_for_cpu_access(obj, write);
	if (ret)
		return ret;
	gem_object_flush_cpu_write_domain(obj);
	obj->read_domains |= I915_GEM_DOMAIN_GTT;
	if (write) {
		obj->read_domains = I915_GEM_DOMAIN_GTT;
		obj->write_domain = I915_GEM_DOMAIN_GTT;
		obj->dirty = true;
	}
	gem_event_domain(obj, old_read, old_write);
	return 0;
}

int gem_object_set_to_cpu_domain(struct gem_object *obj, bool write)
{
	uint32_t old_read = obj->read_domains, old_write = obj->write_domain;
	int ret;

	ret = wait_for_cpu_access(obj, write);
	if (ret)
		return ret;
	if (obj->write_domain == I915_GEM_DOMAIN_GTT)
		obj->write_domain = 0;
	/* Invalidate stale CPU cache lines before reading through it. */
	if (!(obj->read_domains & I915_GEM_DOMAIN_CPU)) {
		count_clflush(obj);
		obj->read_domains |= I915_GEM_DOMAIN_CPU;
	}
	if (write) {
		obj->read_domains = I915_GEM_DOMAIN_CPU;
		obj->write_domain = I915_GEM_DOMAIN_CPU;
		obj->dirty = true;
	}
	gem_event_domain(obj, old_read, old_write);
	return 0;
}

#define CPU_DOMAINS (I915_GEM_DOMAIN_CPU | I915_GEM_DOMAIN_GTT | I915_GEM_DOMAIN_WC)

int gem_set_domain_ioctl(struct gem_file *file, void *data,
			 struct gem_call *call)
{
	struct drm_i915_gem_set_domain *args = data;
	uint32_t read = args->read_domains, write = args->write_domain;
	struct gem_object *obj;
	bool stay_in_gtt;
	int ret;

	/* Only the domains the CPU uses, and a writer reads what it writes. */
	if ((write | read) & ~CPU_DOMAINS)
		return -EINVAL;
	if (write && read != write)
		return -EINVAL;
	obj = gem_handle_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	/*
	 * The GTT asked for again by an object the program has been writing
	 * through the GTT: the kernel returns at once (set_to_gtt_domain's
	 * early exit), since no other writer is one the uAPI lets it expect
	 * to see (a GPU write or a CPU-domain move would have changed the
	 * domain).  So the view needs no merge either: a merge costs two
	 * passes over the object, and IGT's gem_mmap_gtt *-copy-XY asks for
	 * the GTT before every 4 KiB copy of a 64 MiB tiled object.
	 */
	stay_in_gtt = read == I915_GEM_DOMAIN_GTT &&
		      obj->read_domains == I915_GEM_DOMAIN_GTT &&
		      obj->write_domain == I915_GEM_DOMAIN_GTT;
	do {
		if (read & (I915_GEM_DOMAIN_GTT | I915_GEM_DOMAIN_WC))
			ret = gem_object_set_to_gtt_domain(obj, write != 0);
		else
			ret = gem_object_set_to_cpu_domain(obj, write != 0);
	} while (ret == -EAGAIN);
	/* Either way the program looks at one view next (view.c). */
	if (!ret && !stay_in_gtt)
		gem_view_sync(obj);
	gem_object_put(obj);
	return ret;
}

int gem_sw_finish_ioctl(struct gem_file *file, void *data,
			struct gem_call *call)
{
	struct drm_i915_gem_sw_finish *args = data;
	struct gem_object *obj;

	obj = gem_handle_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	/* libgem's follow-up of a pwrite to an object with a GTT view. */
	gem_view_sync(obj);
	gem_object_put(obj);
	return 0;
}

/*
 * Shared checks of pread and pwrite; on success *objp holds a reference.
 * A purged object has no pages to copy (-EFAULT, as getting its pages
 * fails); pwrite refuses any object that is not WILLNEED, as Linux 6.1's
 * shmem_pwrite does (gem_madvise dontneed-before-pwrite).
 */
static int rw_lookup(struct gem_file *file, uint32_t handle, uint64_t offset,
		     uint64_t size, bool write, struct gem_object **objp)
{
	struct gem_object *obj;

	obj = gem_handle_lookup(file, handle);
	if (!obj)
		return -ENOENT;
	if (offset > obj->size || size > obj->size - offset) {
		gem_object_put(obj);
		return -EINVAL;
	}
	if (obj->madv == GEM_MADV_PURGED ||
	    (write && obj->madv != I915_MADV_WILLNEED)) {
		gem_object_put(obj);
		return -EFAULT;
	}
	*objp = obj;
	return 0;
}

/*
 * pread/pwrite: gemd does the checks, the waiting and the domain moves;
 * the client then copies between its buffer and the shared object pages
 * at call->loc (bulk data never crosses the socket).
 */
int gem_pread_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_i915_gem_pread *args = data;
	struct gem_object *obj;
	int ret;

	if (args->size == 0)
		return 0;
	ret = rw_lookup(file, args->handle, args->offset, args->size, false, &obj);
	if (ret)
		return ret;
	ret = gem_object_set_to_cpu_domain(obj, false);
	if (ret == 0) {
		gem_object_hand_out(obj, &call->loc);
		call->has_loc = true;
		file->dev->stats.pread_bytes += args->size;
	}
	gem_object_put(obj);
	return ret;
}

int gem_pwrite_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_i915_gem_pwrite *args = data;
	struct gem_object *obj;
	int ret;

	if (args->size == 0)
		return 0;
	ret = rw_lookup(file, args->handle, args->offset, args->size, true, &obj);
	if (ret)
		return ret;
	/* As i915: bound untiled objects are written through the GTT
	 * (no clflush needed), everything else through the CPU cache. */
	if (gem_object_bound(obj) && obj->tiling_mode == I915_TILING_NONE)
		ret = gem_object_set_to_gtt_domain(obj, true);
	else
		ret = gem_object_set_to_cpu_domain(obj, true);
	if (ret == 0) {
		gem_object_hand_out(obj, &call->loc);
		/* The copy comes after this reply: the client asks for the
		 * merge into the view once it is done. */
		if (obj->view)
			call->loc.flags |= GEM_LOC_SYNC_AFTER;
		call->has_loc = true;
		file->dev->stats.pwrite_bytes += args->size;
	}
	gem_object_put(obj);
	return ret;
}

/* GEM_MMAP: the client maps the object's pages itself, at call->loc. */
int gem_mmap_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_i915_gem_mmap *args = data;
	struct gem_object *obj;
	int ret = 0;

	if (args->flags & ~(uint64_t)I915_MMAP_WC)
		return -EINVAL;
	obj = gem_handle_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	/* "prime objects have no backing filp to GEM mmap pages from" */
	if (obj->userptr) {
		ret = -ENXIO;
		goto out_put;
	}
	if (args->offset > obj->size || args->size > obj->size - args->offset ||
	    !args->size) {
		ret = -EINVAL;
		goto out_put;
	}
	gem_object_hand_out(obj, &call->loc);
	call->has_loc = true;
	obj->client_mapped = true;
out_put:
	gem_object_put(obj);
	return ret;
}

/*
 * MMAP_GTT (16 bytes) and MMAP_OFFSET (32 bytes) share a number; the
 * short form arrives zero-extended, i.e. with flags = I915_MMAP_OFFSET_GTT.
 * The fake offset names the object by id and the mapping type, as the
 * kernel's has a node per type; mmap(fd, offset) goes through
 * gem_mmap_lookup.
 */
int gem_mmap_gtt_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_i915_gem_mmap_offset *args = data;
	struct gem_object *obj;

	if (args->extensions)
		return -EINVAL;
	switch (args->flags) {
	case I915_MMAP_OFFSET_GTT:
	case I915_MMAP_OFFSET_WC:
	case I915_MMAP_OFFSET_WB:
	case I915_MMAP_OFFSET_UC:
		break;
	case I915_MMAP_OFFSET_FIXED:
		return -ENODEV;		/* integrated parts have no FIXED */
	default:
		return -EINVAL;
	}
	obj = gem_handle_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	/* i915_gem_object_never_mmap: userptr pages are the user's own. */
	if (obj->userptr) {
		gem_object_put(obj);
		return -ENODEV;
	}
	args->offset = (uint64_t)obj->id << GEM_FAKE_OFFSET_SHIFT |
		       (uint64_t)args->flags << GEM_FAKE_TYPE_SHIFT;
	gem_object_put(obj);
	return 0;
}
