/*
 * Unit tests of the memory manager's internals, in process and without a
 * socket: lists, domains and their flush accounting, eviction order and
 * purging — the state the uAPI does not show directly.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "gem_priv.h"
#include "gemtest.h"

#define MI_BATCH_BUFFER_END 0x05000000

static struct gem_device *dev;
static struct gem_file *file;

static void setup(uint64_t aperture)
{
	struct gem_device_config cfg = { .aperture_size = aperture };

	gt_assert_eq(gem_device_create(&cfg, &dev), 0);
	gt_assert_eq(gem_file_open(dev, 1, "test", &file), 0);
}

static void teardown(void)
{
	gem_file_release(file);
	gem_device_destroy(dev);
	file = NULL;
	dev = NULL;
}

static int ioctl_(unsigned long cmd, void *arg)
{
	struct gem_call call;

	return gem_ioctl(file, (unsigned int)cmd, arg, &call);
}

static uint32_t create(uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };

	gt_assert_eq(ioctl_(DRM_IOCTL_I915_GEM_CREATE, &c), 0);
	return c.handle;
}

static struct gem_object *obj_of(uint32_t handle)
{
	struct gem_object *obj;

	pthread_mutex_lock(&dev->lock);
	obj = gem_handle_lookup(file, handle);
	if (obj)
		gem_object_put(obj);	/* the handle keeps it alive */
	pthread_mutex_unlock(&dev->lock);
	gt_assert(obj);
	return obj;
}

/* Execute batch (MI_BATCH_BUFFER_END written at 0) with extra objects. */
static int exec(uint32_t batch, const uint32_t *handles, unsigned int n,
		uint32_t write_handle)
{
	struct drm_i915_gem_exec_object2 objs[16];
	struct drm_i915_gem_execbuffer2 eb;
	unsigned int i;

	memset(objs, 0, sizeof(objs));
	for (i = 0; i < n; i++) {
		objs[i].handle = handles[i];
		if (handles[i] == write_handle)
			objs[i].flags = EXEC_OBJECT_WRITE;
	}
	objs[n].handle = batch;
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = (uintptr_t)objs;
	eb.buffer_count = n + 1;
	eb.flags = I915_EXEC_RENDER;
	return ioctl_(DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
}

static uint32_t make_batch(void)
{
	uint32_t h = create(4096);

	*(uint32_t *)obj_of(h)->vaddr = MI_BATCH_BUFFER_END;
	return h;
}

static void idle(void)
{
	pthread_mutex_lock(&dev->lock);
	gt_assert_eq(gem_gpu_idle(dev), 0);
	gem_retire_requests(dev);
	pthread_mutex_unlock(&dev->lock);
}

static unsigned int list_count(enum gem_list l)
{
	struct gem_object *obj;
	unsigned int n = 0;

	pthread_mutex_lock(&dev->lock);
	list_for_each_entry(obj, &dev->lists[l], list_link)
		n++;
	pthread_mutex_unlock(&dev->lock);
	return n;
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);

	gemtest_subtest("lists-follow-execution") {
		uint32_t batch, a;

		setup(16u << 20);
		batch = make_batch();
		a = create(8192);
		gt_assert_eq(obj_of(a)->list, GEM_LIST_UNBOUND);
		gt_assert_eq(exec(batch, &a, 1, a), 0);
		idle();
		gt_assert_eq(obj_of(a)->list, GEM_LIST_INACTIVE);
		gt_assert(gem_object_bound(obj_of(a)));
		gt_assert_eq(obj_of(a)->read_domains, I915_GEM_DOMAIN_RENDER);
		gt_assert_eq(obj_of(a)->write_domain, 0);
		/* ring + batch + a were bound once each */
		gt_assert_eq(dev->stats.binds, 3);
		gt_assert_eq(list_count(GEM_LIST_PINNED), 1);	/* the ring */
		teardown();
	}

	gemtest_subtest("clflush-accounted-on-cpu-to-gpu") {
		uint32_t batch, a;
		uint64_t before;

		setup(16u << 20);
		batch = make_batch();
		a = create(65536);
		before = dev->stats.clflush_bytes;
		/* Fresh objects are in the CPU write domain: the batch and a are
		 * flushed on their way to the GPU. */
		gt_assert_eq(exec(batch, &a, 1, 0), 0);
		gt_assert_eq(dev->stats.clflush_bytes - before, 65536 + 4096);
		idle();
		before = dev->stats.clflush_bytes;
		gt_assert_eq(exec(batch, &a, 1, 0), 0);
		gt_assert_eq(dev->stats.clflush_bytes - before, 0);
		teardown();
	}

	gemtest_subtest("set-domain-cpu-invalidates") {
		struct drm_i915_gem_set_domain sd = { 0 };
		uint32_t batch, a;
		uint64_t before;

		setup(16u << 20);
		batch = make_batch();
		a = create(4096);
		gt_assert_eq(exec(batch, &a, 1, a), 0);
		sd.handle = a;
		sd.read_domains = I915_GEM_DOMAIN_CPU;
		before = dev->stats.clflush_bytes;
		gt_assert_eq(ioctl_(DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd), 0);
		gt_assert(!gem_object_busy(obj_of(a)));
		gt_assert_eq(dev->stats.clflush_bytes - before, 4096);
		gt_assert_eq(obj_of(a)->read_domains,
			     I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_CPU);
		gt_assert_eq(obj_of(a)->write_domain, 0);
		teardown();
	}

	gemtest_subtest("lru-eviction-keeps-contents") {
		uint32_t batch, h[12];
		unsigned int i, round;

		setup(4u << 20);	/* ring 128K: room for three 1 MiB objects */
		batch = make_batch();
		for (i = 0; i < 12; i++) {
			h[i] = create(1u << 20);
			memset(obj_of(h[i])->vaddr, 0x40 + i, 1u << 20);
		}
		for (round = 0; round < 2; round++)
			for (i = 0; i < 12; i++)
				gt_assert_eq(exec(batch, &h[i], 1, 0), 0);
		idle();
		gt_assert(dev->stats.evictions >= 20);
		for (i = 0; i < 12; i++) {
			uint8_t *p = obj_of(h[i])->vaddr;

			gt_assert_eq(p[0], 0x40 + i);
			gt_assert_eq(p[(1u << 20) - 1], 0x40 + i);
		}
		/* The most recently used objects are the ones still bound. */
		gt_assert(gem_object_bound(obj_of(h[11])));
		gt_assert(!gem_object_bound(obj_of(h[0])));
		teardown();
	}

	gemtest_subtest("purgeable-evicted-first-and-purged") {
		struct drm_i915_gem_madvise madv = { 0 };
		uint32_t batch, keep, junk, big;

		setup(4u << 20);
		batch = make_batch();
		junk = create(1u << 20);
		keep = create(1u << 20);
		memset(obj_of(keep)->vaddr, 0x5a, 1u << 20);
		memset(obj_of(junk)->vaddr, 0xa5, 1u << 20);
		/* junk is used first, so plain LRU would keep it longer... */
		gt_assert_eq(exec(batch, &keep, 1, 0), 0);
		gt_assert_eq(exec(batch, &junk, 1, 0), 0);
		idle();
		madv.handle = junk;
		madv.madv = I915_MADV_DONTNEED;
		gt_assert_eq(ioctl_(DRM_IOCTL_I915_GEM_MADVISE, &madv), 0);
		gt_assert_eq(madv.retained, 1);
		/* ...but it is purgeable: it goes first. */
		big = create(2u << 20);
		gt_assert_eq(exec(batch, &big, 1, 0), 0);
		idle();
		gt_assert(!gem_object_bound(obj_of(junk)));
		gt_assert(gem_object_bound(obj_of(keep)));
		gt_assert_eq(obj_of(junk)->madv, GEM_MADV_PURGED);
		gt_assert_eq(((uint8_t *)obj_of(junk)->vaddr)[4096], 0);
		madv.madv = I915_MADV_WILLNEED;
		gt_assert_eq(ioctl_(DRM_IOCTL_I915_GEM_MADVISE, &madv), 0);
		gt_assert_eq(madv.retained, 0);
		gt_assert_eq(exec(batch, &junk, 1, 0), -EINVAL);
		teardown();
	}

	gemtest_subtest("enospc-and-e2big") {
		uint32_t batch, h[3], huge;

		setup(4u << 20);
		batch = make_batch();
		h[0] = create(2u << 20);
		h[1] = create(2u << 20);
		h[2] = create(1u << 20);
		gt_assert_eq(exec(batch, h, 3, 0), -ENOSPC);
		huge = create(8u << 20);
		gt_assert_eq(exec(batch, &huge, 1, 0), -E2BIG);
		/* Nothing is left pinned by the failures. */
		gt_assert_eq(dev->pinned_bytes, GEM_RING_SIZE);
		teardown();
	}

	gemtest_subtest("fence-for-tiled-blit-target") {
		struct drm_i915_gem_set_tiling st = { 0 };
		struct drm_i915_gem_exec_object2 objs[2];
		struct drm_i915_gem_execbuffer2 eb;
		uint32_t batch, t;
		struct gem_object *obj;

		setup(16u << 20);
		batch = make_batch();
		t = create(256u << 10);
		st.handle = t;
		st.tiling_mode = I915_TILING_X;
		st.stride = 2048;
		gt_assert_eq(ioctl_(DRM_IOCTL_I915_GEM_SET_TILING, &st), 0);
		memset(objs, 0, sizeof(objs));
		objs[0].handle = t;
		objs[0].flags = EXEC_OBJECT_NEEDS_FENCE;
		objs[1].handle = batch;
		memset(&eb, 0, sizeof(eb));
		eb.buffers_ptr = (uintptr_t)objs;
		eb.buffer_count = 2;
		gt_assert_eq(ioctl_(DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
		obj = obj_of(t);
		gt_assert(obj->fence_reg >= 0);
		/* 1 MiB fence region, aligned to its size */
		gt_assert_eq(obj->gtt_node.size, 1u << 20);
		gt_assert_eq(obj->gtt_node.start & ((1u << 20) - 1), 0);
		gt_assert_eq(objs[0].offset, obj->gtt_node.start);
		/* X tiling, 2048 = 512 << 2, 1 MiB, valid */
		gt_assert_eq_u64(gpu_read(dev->gpu, fence_reg_offset(obj->fence_reg)),
				 (uint32_t)obj->gtt_node.start | (2u << 4) | 1u);
		teardown();
	}

	return gemtest_exit();
}
