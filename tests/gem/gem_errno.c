/*
 * gem_errno: argument checks whose answers IGT pins, as Linux 6.1 gives
 * them on a 945G: object sizes whose page count overflows an int
 * (E2BIG), CREATE_EXT placements, MMAP_OFFSET's extension chain,
 * execbuffer's DR1/DR4 and very long object lists, and SET_TILING on
 * objects larger than a fence can cover.
 */
#include <stdlib.h>
#include <sys/mman.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

/* gem_create create-massive: "no system has this much memory". */
static void test_create_massive(int fd)
{
	struct drm_i915_gem_create c = { .size = -1ull << 32 };

	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c), E2BIG);
	gt_assert_eq(c.handle, 0);
	c.size = (1ull << 43);		/* 2^31 pages: one too many */
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c), E2BIG);
}

static int create_regions(int fd, const struct drm_i915_gem_memory_class_instance *r,
			  uint32_t n, uint64_t next)
{
	struct drm_i915_gem_create_ext_memory_regions ext = {
		.base = { .name = I915_GEM_CREATE_EXT_MEMORY_REGIONS,
			  .next_extension = next },
		.num_regions = n, .regions = (uintptr_t)r,
	};
	struct drm_i915_gem_create_ext c = {
		.size = 4096, .extensions = (uintptr_t)&ext,
	};
	int ret = gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_CREATE_EXT, &c);

	if (!ret)
		gt_close(fd, c.handle);
	return ret;
}

/* gem_create create-ext-placement-sanity-check, with exact errnos. */
static void test_create_ext_placements(int fd)
{
	static const struct drm_i915_gem_memory_class_instance smem[2] = {
		{ I915_MEMORY_CLASS_SYSTEM, 0 }, { I915_MEMORY_CLASS_SYSTEM, 0 },
	};
	struct drm_i915_gem_create_ext_memory_regions second = {
		.base = { .name = I915_GEM_CREATE_EXT_MEMORY_REGIONS },
		.num_regions = 1, .regions = (uintptr_t)smem,
	};
	struct drm_i915_gem_create_ext c = { .size = 4096, .flags = 1 };

	gt_assert_eq(create_regions(fd, smem, 1, 0), 0);
	gt_assert_eq(create_regions(fd, smem, 0, 0), -EINVAL);	/* none */
	gt_assert_eq(create_regions(fd, smem, 2, 0), -EINVAL);	/* twice */
	gt_assert_eq(create_regions(fd, smem, 8, 0), -EINVAL);	/* > ids */
	gt_assert_eq(create_regions(fd, smem, ~0u, 0), -EINVAL);
	gt_assert_eq(create_regions(fd, smem, 1, (uintptr_t)&second), -EINVAL);
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_CREATE_EXT, &c), -EINVAL);
}

/* gem_mmap_offset bad-extensions. */
static void test_mmap_offset_extensions(int fd)
{
	struct i915_user_extension ext = { .name = ~0u };
	struct drm_i915_gem_mmap_offset arg = {
		.handle = gt_create(fd, 4096), .extensions = -1ull,
	};
	void *none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	gt_assert(none != MAP_FAILED);
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &arg), -EFAULT);
	arg.extensions = (uintptr_t)none;
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &arg), -EFAULT);
	arg.extensions = (uintptr_t)&ext;
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &arg), -EINVAL);
	arg.extensions = 0;
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &arg), 0);
	munmap(none, 4096);
	gt_close(fd, arg.handle);
}

static int exec_dr(int fd, uint32_t dr1, uint32_t dr4)
{
	const uint32_t bbe[2] = { MI_BATCH_BUFFER_END, 0 };
	struct drm_i915_gem_exec_object2 obj = { .handle = gt_create(fd, 4096) };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)&obj, .buffer_count = 1,
		.DR1 = dr1, .DR4 = dr4,
	};
	int ret;

	gt_write(fd, obj.handle, 0, bbe, sizeof(bbe));
	ret = gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
	gt_close(fd, obj.handle);
	return ret;
}

/* gem_exec_params DR1-dirt, DR4-dirt; UXA's DR4 of ~0 is fixed up. */
static void test_exec_dr(int fd)
{
	gt_assert_eq(exec_dr(fd, 1, 0), -EINVAL);
	gt_assert_eq(exec_dr(fd, 0, 1), -EINVAL);
	gt_assert_eq(exec_dr(fd, 0, 0xffffffff), 0);
	gt_assert_eq(exec_dr(fd, 0, 0), 0);
}

/*
 * gem_lut_handle: 65,538 objects of 4 KiB cannot all fit a 256 MiB
 * aperture that holds the ring: -ENOSPC, not a cap on the count.
 */
static void test_many_objects_enospc(int fd)
{
	const unsigned int n = 65538;
	struct drm_i915_gem_exec_object2 *objs = calloc(n, sizeof(*objs));
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)objs, .buffer_count = n,
	};
	const uint32_t bbe[2] = { MI_BATCH_BUFFER_END, 0 };
	unsigned int i;

	gt_assert(objs);
	for (i = 0; i < n; i++)
		objs[i].handle = gt_create(fd, 4096);
	gt_write(fd, objs[n - 1].handle, 0, bbe, sizeof(bbe));
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), -ENOSPC);
	for (i = 0; i < n; i++)
		gt_close(fd, objs[i].handle);
	free(objs);
}

/* i915_tiling_ok no longer limits the size: a 512 MiB object may be tiled. */
static void test_tiling_large(int fd)
{
	struct drm_i915_gem_set_tiling st = {
		.handle = gt_create(fd, 512ull << 20),
		.tiling_mode = I915_TILING_X, .stride = 4096,
	};

	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st), 0);
	gt_assert_eq(st.tiling_mode, I915_TILING_X);
	st.stride = 3 * 512;
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st), -EINVAL);
	gt_close(fd, st.handle);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 300);

	gemtest_subtest("create-massive-e2big")
		test_create_massive(fd);
	gemtest_subtest("create-ext-placements-einval")
		test_create_ext_placements(fd);
	gemtest_subtest("mmap-offset-extensions")
		test_mmap_offset_extensions(fd);
	gemtest_subtest("exec-dr1-dr4")
		test_exec_dr(fd);
	gemtest_subtest("exec-65538-objects-enospc")
		test_many_objects_enospc(fd);
	gemtest_subtest("set-tiling-512mib")
		test_tiling_large(fd);

	gem_close(fd);
	return gemtest_exit();
}
