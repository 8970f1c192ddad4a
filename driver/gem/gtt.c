/* Binding objects into the GTT aperture, pinning, and the aperture ioctls. */
#include <errno.h>

#include "gem_priv.h"
#include "log.h"
#include "util.h"

/*
 * The 945G has no LLC and no ppgtt, so its GGTT is coloured by cache level
 * (i915_ggtt_color_adjust and i915_gem_valid_gtt_space in Linux 6.1's
 * i915_gem_gtt.c, i915_gem_evict_for_node in i915_gem_evict.c): the
 * prefetcher must not run from a snooped page into an uncached one, so
 * objects of different cache levels never abut, a guard page lies between
 * them.  DISPLAY is uncached on a machine without write-through (HAS_WT).
 */
static bool gtt_color(const struct gem_object *obj)
{
	return obj->cache_level == I915_CACHING_CACHED;
}

static struct gem_object *node_object(struct mm_node *node)
{
	return node ? container_of(node, struct gem_object, gtt_node) : NULL;
}

/* The bound neighbour that abuts obj with the other colour, or NULL. */
static struct gem_object *gtt_color_clash(struct gem_object *obj)
{
	struct mm *mm = &obj->dev->gtt;
	struct gem_object *prev = node_object(mm_prev_node(mm, &obj->gtt_node));
	struct gem_object *next = node_object(mm_next_node(mm, &obj->gtt_node));

	if (prev && gtt_color(prev) != gtt_color(obj) &&
	    prev->gtt_node.start + prev->gtt_node.size == obj->gtt_node.start)
		return prev;
	if (next && gtt_color(next) != gtt_color(obj) &&
	    obj->gtt_node.start + obj->gtt_node.size == next->gtt_node.start)
		return next;
	return NULL;
}

/*
 * obj was just reserved at its fixed offset: evict what abuts it with the
 * other colour, as i915_gem_evict_for_node looks a page either side.  A
 * pinned neighbour cannot move: -ENOSPC.  On failure obj is unreserved.
 */
static int gtt_fixed_evict_clash(struct gem_object *obj)
{
	struct gem_object *clash;
	int ret = 0;

	while (!ret && (clash = gtt_color_clash(obj)))
		ret = gem_evict_for_node(obj->dev, clash->gtt_node.start,
					 clash->gtt_node.size);
	if (ret)
		mm_remove_node(&obj->gtt_node);
	return ret;
}

/*
 * obj was just inserted where it abuts the other colour: move it into a
 * hole with a guard page (rounded to its alignment) on either side.
 * *need is what eviction must make room for if there is no such hole.
 */
static int gtt_insert_guarded(struct gem_object *obj, uint64_t size,
			      uint64_t alignment, uint64_t *need)
{
	struct gem_device *dev = obj->dev;
	uint64_t pad = MAX(alignment, (uint64_t)GTT_PAGE_SIZE);
	uint64_t start;
	int ret;

	mm_remove_node(&obj->gtt_node);
	*need = size + 2 * pad;
	ret = mm_insert_node_in_range(&dev->gtt, &obj->gtt_node, *need,
				      alignment, 0, dev->aperture_size,
				      MM_INSERT_BEST);
	if (ret)
		return ret;
	start = obj->gtt_node.start + pad;
	mm_remove_node(&obj->gtt_node);
	obj->gtt_node.start = start;
	obj->gtt_node.size = size;
	return mm_reserve_node(&dev->gtt, &obj->gtt_node);
}

/* The node the object's binding needs: size, alignment, and whether it
 * sits where the request says. */
static bool bind_fits(const struct gem_object *obj, uint64_t size,
		      uint64_t alignment, const struct gem_pin_args *args)
{
	if (args->fixed)
		return obj->gtt_node.start == args->offset && obj->gtt_node.size >= size;
	/* Modulo: legacy GEM_PIN may ask for any multiple of a page. */
	return obj->gtt_node.start % alignment == 0 && obj->gtt_node.size >= size;
}

/*
 * Find room for obj in the aperture and point the page table at its pages
 * (i915_gem_object_bind_to_gtt), or put it exactly at args->offset
 * (EXEC_OBJECT_PINNED: i915_vma_insert with PIN_OFFSET_FIXED).  May evict,
 * and eviction may wait for the GPU with the lock dropped: then -EAGAIN
 * tells the caller to revalidate and try again.
 */
static int gem_object_bind(struct gem_object *obj, const struct gem_pin_args *args)
{
	struct gem_device *dev = obj->dev;
	uint64_t fence_align = gem_gtt_alignment(obj, args->fenceable);
	uint64_t size = args->fenceable ? gem_fence_size(obj) : obj->size;
	uint64_t alignment = args->alignment;
	int ret;

	if (obj->madv != I915_MADV_WILLNEED)
		return -EINVAL;		/* "Attempting to bind a purgeable object" */
	size = MAX(size, args->min_size);
	if (args->fixed) {
		/* i915_vma_insert: too big for the aperture, then the
		 * placement itself. */
		alignment = MAX(alignment, fence_align);
		if (size > dev->aperture_size)
			return -ENOSPC;
		if ((args->offset & (alignment - 1)) ||
		    args->offset > dev->aperture_size ||
		    size > dev->aperture_size - args->offset)
			return -EINVAL;
	} else {
		/* i915_vma_insert of Linux 6.1: at least the fence's
		 * alignment for a fenced binding.  Linux 3.x refused a
		 * smaller explicit alignment with -EINVAL ("Invalid object
		 * alignment requested"); 6.1 takes the larger, and IGT
		 * (intel_bb's 4 KiB for an object it thinks untiled,
		 * gem_set_tiling_vs_blt) relies on that. */
		alignment = MAX(alignment, fence_align);
		/* Reject early: no amount of eviction makes room (i915: -E2BIG). */
		if (size > dev->aperture_size)
			return -E2BIG;
	}

	if (gem_object_bound(obj)) {
		/* A fence must cover exactly its own node: no sharing. */
		if (bind_fits(obj, size, alignment, args))
			return 0;
		if (obj->pin_count)
			return args->fixed ? -ENOSPC : -EBUSY;
		ret = gem_object_unbind(obj);
		if (ret)
			return ret;
	}

	for (;;) {
		uint64_t need = size;

		if (args->fixed) {
			obj->gtt_node.start = args->offset;
			obj->gtt_node.size = size;
			ret = mm_reserve_node(&dev->gtt, &obj->gtt_node);
			if (!ret) {
				ret = gtt_fixed_evict_clash(obj);
				break;
			}
			if (ret != -ENOSPC)
				break;
			ret = gem_evict_for_node(dev, args->offset, size);
		} else {
			ret = mm_insert_node_in_range(&dev->gtt, &obj->gtt_node, size,
						      alignment, 0, dev->aperture_size,
						      MM_INSERT_BEST);
			if (!ret && gtt_color_clash(obj))
				ret = gtt_insert_guarded(obj, size, alignment, &need);
			if (ret != -ENOSPC)
				break;
			ret = gem_evict_something(dev, need, alignment);
		}
		if (ret)
			return ret;
	}
	if (ret)
		return ret;

	/* The object's own pages, then the scratch page for the rest of a
	 * fence-sized or padded node, as the kernel's PTEs: a fenced blit
	 * of a tiled object whose rows end inside a tile row touches the
	 * whole tile row (gem_gtt_hog), which a 945G does without a fault.
	 * GTT space outside every node stays invalid: an access there
	 * faults, which gemd reports where the chip would scribble. */
	gpu_gtt_bind(dev->gpu, (uint32_t)obj->gtt_node.start, obj->vaddr,
		     (uint32_t)obj->size);
	if (obj->gtt_node.size > obj->size)
		gpu_gtt_bind_scratch(dev->gpu,
				     (uint32_t)(obj->gtt_node.start + obj->size),
				     (uint32_t)(obj->gtt_node.size - obj->size));
	obj->bind_count++;
	obj->fresh = false;	/* the GPU may touch it now */
	dev->stats.binds++;
	gem_event(dev, GEM_EV_BIND, obj->id, obj->gtt_node.start, obj->gtt_node.size, 0);
	gem_object_update_list(obj);
	return 0;
}

/* Remove obj from the GTT.  The caller makes sure the GPU is done with it
 * (unbinding an active object waits, lock dropped: may return -EAGAIN). */
int gem_object_unbind(struct gem_object *obj)
{
	struct gem_device *dev = obj->dev;
	uint32_t old_read, old_write;
	int ret;

	if (!gem_object_bound(obj))
		return 0;
	if (obj->pin_count)
		return -EBUSY;
	if (obj->active) {
		ret = gem_object_wait_rendering(obj, false);
		if (ret)
			return ret;
		return -EAGAIN;
	}
	/* Contents are already in memory: moving to the CPU domain only
	 * costs the cache flush bookkeeping. */
	old_read = obj->read_domains;
	old_write = obj->write_domain;
	gem_object_flush_cpu_write_domain(obj);
	gem_object_put_fence(obj);
	gem_event(dev, GEM_EV_UNBIND, obj->id, obj->gtt_node.start, obj->gtt_node.size, 0);
	gpu_gtt_clear(dev->gpu, (uint32_t)obj->gtt_node.start,
		      (uint32_t)obj->gtt_node.size);
	mm_remove_node(&obj->gtt_node);
	obj->read_domains = I915_GEM_DOMAIN_CPU;
	obj->write_domain = I915_GEM_DOMAIN_CPU;
	gem_event_domain(obj, old_read, old_write);
	gem_object_update_list(obj);
	return 0;
}

int gem_object_pin(struct gem_object *obj, uint64_t alignment, bool map_and_fenceable)
{
	struct gem_pin_args args = {
		.alignment = alignment, .fenceable = map_and_fenceable,
	};

	return gem_object_pin_args(obj, &args);
}

int gem_object_pin_args(struct gem_object *obj, const struct gem_pin_args *args)
{
	struct gem_device *dev = obj->dev;
	int ret;

	ret = gem_object_bind(obj, args);
	if (ret)
		return ret;
	if (obj->pin_count++ == 0) {
		dev->pinned_bytes += obj->gtt_node.size;
		if (!obj->active)
			gem_object_update_list(obj);
	}
	return 0;
}

void gem_object_unpin(struct gem_object *obj)
{
	if (!obj->pin_count)
		return;
	if (--obj->pin_count == 0) {
		obj->dev->pinned_bytes -= obj->gtt_node.size;
		if (!obj->active)
			gem_object_update_list(obj);
	}
}

int gem_get_aperture_ioctl(struct gem_file *file, void *data,
			   struct gem_call *call)
{
	struct drm_i915_gem_get_aperture *args = data;
	struct gem_device *dev = file->dev;

	args->aper_size = dev->aperture_size;
	args->aper_available_size = dev->aperture_size - dev->pinned_bytes;
	return 0;
}

/* Legacy GEM_PIN (2008 X.org/UMS clients): pins until UNPIN or close. */
int gem_pin_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_i915_gem_pin *args = data;
	struct gem_object *obj;
	int ret = 0;

	obj = gem_handle_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	if (obj->madv != I915_MADV_WILLNEED) {
		ret = -EINVAL;	/* "Attempting to pin a purgeable buffer" */
		goto out_put;
	}
	if (obj->pin_file && obj->pin_file != file) {
		ret = -EINVAL;	/* "Already pinned by another file" */
		goto out_put;
	}
	if (obj->user_pin_count == 0) {
		/* i915_gem_object_bind_to_gtt of Linux 3.x, for a mappable
		 * pin: "Invalid object alignment requested" unless it is a
		 * multiple of what the fence needs (a page at least).  A
		 * second pin of the same object binds nothing: not checked. */
		if (args->alignment &&
		    args->alignment % gem_gtt_alignment(obj, true)) {
			ret = -EINVAL;
			goto out_put;
		}
		do {
			ret = gem_object_pin(obj, args->alignment, true);
		} while (ret == -EAGAIN);
		if (ret)
			goto out_put;
	}
	obj->user_pin_count++;
	obj->pin_file = file;
	args->offset = gem_object_gtt_offset(obj);
out_put:
	gem_object_put(obj);
	return ret;
}

int gem_unpin_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_i915_gem_pin *args = data;
	struct gem_object *obj;
	int ret = 0;

	obj = gem_handle_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	if (obj->pin_file != file) {
		ret = -EINVAL;	/* "Not pinned by caller" */
		goto out_put;
	}
	if (--obj->user_pin_count == 0) {
		obj->pin_file = NULL;
		gem_object_unpin(obj);
	}
out_put:
	gem_object_put(obj);
	return ret;
}
