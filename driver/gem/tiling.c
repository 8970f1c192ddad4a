/*
 * Tiling and the 945G's 16 fence registers (i915_gem_tiling.c and the
 * fence code of i915_gem.c).
 *
 * On gen3 a tiled object can only be reached detiled — by the blitter with
 * its tiled bit, or through the aperture — via a fence register covering
 * it.  A fence covers a power-of-two region of at least 1 MiB that must be
 * aligned to its size, so a fenced object is bound at that alignment and
 * its GTT node is the whole fence region.  Strides are powers of two from
 * the tile width (512 bytes for X; 128 for Y on 945) up to 8 KiB.  We
 * report no bit-6 swizzling.
 */
#include <errno.h>
#include <strings.h>

#include "gem_priv.h"
#include "log.h"

#define GEN3_FENCE_MIN_SIZE	(1u << 20)
#define GEN3_MAX_STRIDE		8192

static uint32_t tile_width(uint32_t tiling_mode)
{
	return tiling_mode == I915_TILING_Y ? 128 : 512;
}

uint64_t gem_fence_size(struct gem_object *obj)
{
	uint64_t size = GEN3_FENCE_MIN_SIZE;

	if (obj->tiling_mode == I915_TILING_NONE)
		return obj->size;
	while (size < obj->size)
		size <<= 1;
	return size;
}

uint64_t gem_gtt_alignment(struct gem_object *obj, bool fenced)
{
	if (!fenced || obj->tiling_mode == I915_TILING_NONE)
		return 4096;
	return gem_fence_size(obj);
}

/*
 * i915_tiling_ok of Linux 6.1: no limit on the object's size any more (an
 * object too big for a fence simply cannot be fenced: its binding fails
 * when it is used); gen3 wants a power-of-two stride of at least a tile
 * and at most 8 KiB.
 */
bool gem_tiling_ok(uint64_t size, uint32_t stride, uint32_t tiling_mode)
{
	(void)size;
	if (tiling_mode == I915_TILING_NONE)
		return true;
	if (stride > GEN3_MAX_STRIDE)
		return false;
	/* Pre-965 needs power-of-two strides of at least one tile. */
	if (stride < tile_width(tiling_mode))
		return false;
	if (stride & (stride - 1))
		return false;
	return true;
}

static uint32_t fence_value(struct gem_object *obj)
{
	uint32_t start = gem_object_gtt_offset(obj);
	uint32_t size = (uint32_t)gem_fence_size(obj);
	uint32_t pitch_val = (uint32_t)ffs((int)(obj->stride / tile_width(obj->tiling_mode))) - 1;
	uint32_t val;

	val = (start & I915_FENCE_START_MASK) | I915_FENCE_SIZE_BITS(size) |
	      (pitch_val << I830_FENCE_PITCH_SHIFT) | I830_FENCE_REG_VALID;
	if (obj->tiling_mode == I915_TILING_Y)
		val |= 1u << I830_FENCE_TILING_Y_SHIFT;
	return val;
}

static void fence_write(struct gem_device *dev, int reg, uint32_t val)
{
	gpu_write(dev->gpu, fence_reg_offset(reg), val);
}

/*
 * Give a bound, fenceably placed tiled object a fence register
 * (i915_find_fence_reg): a free one, else the least recently used one
 * whose holder does not need it for the execbuffer being reserved (its
 * pin count is 0), idle holders first.  Taking a register from an object
 * the GPU may still be reading through it waits for that object first,
 * with the lock dropped: -EAGAIN, and the caller starts over.  -ENOBUFS
 * when every register is pinned (fence_find of Linux 6.1).
 */
int gem_object_get_fence(struct gem_object *obj)
{
	struct gem_device *dev = obj->dev;
	int i, best = -1, busy = -1;
	struct gem_object *old;
	int ret;

	if (obj->tiling_mode == I915_TILING_NONE) {
		gem_object_put_fence(obj);
		return 0;
	}
	if (obj->fence_reg >= 0)
		goto out_update;
	for (i = 0; i < GEN3_NUM_FENCES; i++) {
		struct gem_fence *f = &dev->fences[i];

		if (!f->obj) {
			best = i;
			break;
		}
		if (f->pin_count)
			continue;
		if (gem_object_busy(f->obj)) {
			if (busy < 0 || f->lru < dev->fences[busy].lru)
				busy = i;
		} else if (best < 0 || f->lru < dev->fences[best].lru) {
			best = i;
		}
	}
	if (best < 0 && busy < 0)
		return -ENOBUFS;
	if (best < 0) {
		/* Only busy holders: their access through the fence must end
		 * before the register changes. */
		old = dev->fences[busy].obj;
		gem_object_get(old);
		ret = gem_object_wait_rendering(old, false);
		gem_object_put(old);
		return ret ? ret : -EAGAIN;
	}
	if (dev->fences[best].obj)
		gem_object_put_fence(dev->fences[best].obj);
	obj->fence_reg = best;
	dev->fences[best].obj = obj;
out_update:
	fence_write(dev, obj->fence_reg, fence_value(obj));
	dev->fences[obj->fence_reg].lru = ++dev->fence_lru_clock;
	return 0;
}

void gem_object_put_fence(struct gem_object *obj)
{
	struct gem_device *dev = obj->dev;

	if (obj->fence_reg < 0)
		return;
	fence_write(dev, obj->fence_reg, 0);
	dev->fences[obj->fence_reg].obj = NULL;
	obj->fence_reg = -1;
}

int gem_set_tiling_ioctl(struct gem_file *file, void *data,
			 struct gem_call *call)
{
	struct drm_i915_gem_set_tiling *args = data;
	struct gem_object *obj;
	int ret = 0;

	obj = gem_handle_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	/* A proxy object's tiling is its generator's (userptr: linear). */
	if (obj->userptr) {
		ret = -ENXIO;
		goto out_put;
	}
	if (args->tiling_mode > I915_TILING_Y ||
	    !gem_tiling_ok(obj->size, args->stride, args->tiling_mode)) {
		ret = -EINVAL;
		goto out_put;
	}
	if (obj->pin_count) {
		ret = -EBUSY;
		goto out_put;
	}
	if (args->tiling_mode == I915_TILING_NONE) {
		args->swizzle_mode = I915_BIT_6_SWIZZLE_NONE;
		args->stride = 0;
	} else {
		args->swizzle_mode = I915_BIT_6_SWIZZLE_NONE;
	}

	if (args->tiling_mode != obj->tiling_mode || args->stride != obj->stride) {
		uint32_t old_mode = obj->tiling_mode, old_stride = obj->stride;
		bool misplaced, mapped;

		/* The GPU may be reading through the current fence. */
		ret = gem_object_wait_rendering(obj, false);
		if (ret)
			goto out_put;
		gem_object_put_fence(obj);
		mapped = obj->client_mapped || obj->view;
		/* The GTT view changes: the old one goes (view.c), and the
		 * client maps its GTT mappings again. */
		gem_view_drop(obj);
		if (mapped) {
			call->loc = (struct gem_backing_loc){
				.flags = GEM_LOC_REMAP,
				.object = (uint64_t)obj->id << GEM_FAKE_OFFSET_SHIFT,
			};
			call->has_loc = true;
		}
		obj->tiling_mode = args->tiling_mode;
		obj->stride = args->stride;
		/* A binding that cannot hold the new fence must go (i915 does
		 * the same); the object is rebound on its next use. */
		misplaced = gem_object_bound(obj) &&
			    obj->tiling_mode != I915_TILING_NONE &&
			    (obj->gtt_node.start & (gem_fence_size(obj) - 1) ||
			     obj->gtt_node.size < gem_fence_size(obj));
		if (misplaced) {
			do {
				ret = gem_object_unbind(obj);
			} while (ret == -EAGAIN);
			if (ret) {
				obj->tiling_mode = old_mode;
				obj->stride = old_stride;
				goto out_put;
			}
		}
	}
out_put:
	gem_object_put(obj);
	return ret;
}

int gem_get_tiling_ioctl(struct gem_file *file, void *data,
			 struct gem_call *call)
{
	struct drm_i915_gem_get_tiling *args = data;
	struct gem_object *obj;

	obj = gem_handle_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	args->tiling_mode = obj->tiling_mode;
	args->swizzle_mode = I915_BIT_6_SWIZZLE_NONE;
	args->phys_swizzle_mode = I915_BIT_6_SWIZZLE_NONE;
	gem_object_put(obj);
	return 0;
}
