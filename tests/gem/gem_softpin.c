/*
 * gem_softpin: EXEC_OBJECT_PINNED and EXEC_OBJECT_PAD_TO_SIZE, with the
 * rules of i915_gem_execbuffer.c (eb_validate_vma) and i915_vma_insert of
 * Linux 6.1: a page-aligned canonical offset, aligned as asked, inside the
 * aperture, else -EINVAL; whatever sits there is evicted unless it is
 * pinned (an object of the same execbuffer, the ring): -ENOSPC.  Every
 * generation reports HAS_EXEC_SOFTPIN, gen3 included, and IGT's allocator
 * probes the lowest usable offset with it.
 */
#include <stdlib.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

#define APERTURE	(256ull << 20)

static uint32_t batch_object(int fd, uint64_t size)
{
	const uint32_t bbe = MI_BATCH_BUFFER_END;
	uint32_t h = gt_create(fd, size);

	gt_write(fd, h, 0, &bbe, sizeof(bbe));
	return h;
}

/* Submit objs (the last is the batch) as they are; 0 or -errno. */
static int exec(int fd, struct drm_i915_gem_exec_object2 *objs, unsigned int n)
{
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)objs, .buffer_count = n,
	};

	return gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
}

static int exec_pinned(int fd, uint32_t handle, uint64_t offset)
{
	struct drm_i915_gem_exec_object2 obj = {
		.handle = handle, .offset = offset, .flags = EXEC_OBJECT_PINNED,
	};
	int ret = exec(fd, &obj, 1);

	if (!ret)
		gt_assert_eq_u64(obj.offset, offset);
	return ret;
}

/* Where the driver put an object that has no placement of its own. */
static uint64_t placed(int fd, uint32_t handle)
{
	struct drm_i915_gem_exec_object2 obj = { .handle = handle };

	gt_assert_eq(exec(fd, &obj, 1), 0);
	return obj.offset;
}

static void test_param(int fd)
{
	gt_assert_eq(gt_getparam(fd, I915_PARAM_HAS_EXEC_SOFTPIN), 1);
}

/* gem_softpin's "invalid", as a 256 MiB gen3 aperture answers it. */
static void test_invalid(int fd)
{
	struct drm_i915_gem_exec_object2 obj = {
		.handle = batch_object(fd, 8192),
		.flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_SUPPORTS_48B_ADDRESS,
	};

	obj.offset = 4096;
	obj.alignment = 64 << 10;
	gt_assert_eq(exec(fd, &obj, 1), -EINVAL);	/* misaligned */
	obj.alignment = 0;
	obj.offset = -4096ull;
	gt_assert_eq(exec(fd, &obj, 1), -EINVAL);	/* wraps past the top */
	obj.offset = APERTURE - 4096;
	gt_assert_eq(exec(fd, &obj, 1), -EINVAL);	/* runs past the end */
	obj.offset = 4096 + 64;
	gt_assert_eq(exec(fd, &obj, 1), -EINVAL);	/* not page aligned */
	obj.offset = 1ull << 47;
	gt_assert_eq(exec(fd, &obj, 1), -EINVAL);	/* not canonical */
	obj.offset = APERTURE - 8192;
	gt_assert_eq(exec(fd, &obj, 1), 0);		/* the last slot */
	gt_assert_eq_u64(obj.offset, APERTURE - 8192);
	obj.flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_PAD_TO_SIZE;
	obj.pad_to_size = 4096 + 1;
	gt_assert_eq(exec(fd, &obj, 1), -EINVAL);	/* pad: pages only */
	/* Without its flag, pad_to_size is a reserved field: ignored. */
	obj.flags = EXEC_OBJECT_PINNED;
	gt_assert_eq(exec(fd, &obj, 1), 0);
	gt_close(fd, obj.handle);
}

/* Placed exactly where asked, moved when asked elsewhere, and seen there by
 * relocations that point at it. */
static void test_place_and_move(int fd)
{
	uint32_t h = batch_object(fd, 4096);
	uint64_t at = 64ull << 20;

	gt_assert_eq(exec_pinned(fd, h, at), 0);
	gt_assert_eq_u64(placed(fd, h), at);		/* stays put */
	gt_assert_eq(exec_pinned(fd, h, at + (1 << 20)), 0);
	gt_assert_eq_u64(placed(fd, h), at + (1 << 20));
	gt_close(fd, h);
}

/* An object in the way is evicted; the ring is pinned and is not. */
static void test_evict(int fd)
{
	uint32_t a = batch_object(fd, 4096), b = batch_object(fd, 4096);
	uint64_t where = placed(fd, a);

	gt_assert_eq(exec_pinned(fd, b, where), 0);
	gt_assert(placed(fd, a) != where);
	gt_close(fd, a);
	gt_close(fd, b);
}

/* Two objects of one execbuffer may not overlap: -ENOSPC (6.1 no longer
 * says -EINVAL for it), also when pad_to_size makes them. */
static void test_overlap(int fd)
{
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = batch_object(fd, 8192), .offset = 32 << 20,
		  .flags = EXEC_OBJECT_PINNED },
		{ .handle = batch_object(fd, 4096), .offset = (32 << 20) + 4096,
		  .flags = EXEC_OBJECT_PINNED },
	};

	gt_assert_eq(exec(fd, objs, 2), -ENOSPC);
	objs[1].offset = (32 << 20) + 8192;
	gt_assert_eq(exec(fd, objs, 2), 0);
	gt_assert_eq_u64(objs[0].offset, 32 << 20);
	gt_assert_eq_u64(objs[1].offset, (32 << 20) + 8192);
	/* Padding the first to 16 KiB covers the second again. */
	objs[0].flags |= EXEC_OBJECT_PAD_TO_SIZE;
	objs[0].pad_to_size = 16384;
	gt_assert_eq(exec(fd, objs, 2), -ENOSPC);
	objs[1].offset = (32 << 20) + 16384;
	gt_assert_eq(exec(fd, objs, 2), 0);
	gt_close(fd, objs[0].handle);
	gt_close(fd, objs[1].handle);
}

/* IGT's gem_detect_min_start_offset_for_region: the lowest offset from 0,
 * 4 KiB and then doubling, at which a pinned batch is taken. */
static void test_min_start_offset(int fd)
{
	uint32_t h = batch_object(fd, 4096);
	uint64_t off = 0;
	int ret;

	/* gemd's ring is the first thing bound, at 0, and pinned. */
	while ((ret = exec_pinned(fd, h, off)) != 0) {
		gt_assert_eq(ret, -ENOSPC);
		off = off ? off << 1 : 4096;
		gt_assert(off < APERTURE);
	}
	gt_assert_eq_u64(off, 128 << 10);		/* GEM_RING_SIZE */
	gt_close(fd, h);
}

/* Relocations resolve to the pinned offset. */
static void test_reloc_target(int fd)
{
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 4096);
	struct drm_i915_gem_relocation_entry reloc = {
		.target_handle = target, .offset = 4, .delta = 0x40,
		.presumed_offset = ~0ull,
		.read_domains = I915_GEM_DOMAIN_RENDER,
	};
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = target, .offset = 48 << 20, .flags = EXEC_OBJECT_PINNED },
		{ .handle = batch, .relocation_count = 1,
		  .relocs_ptr = (uintptr_t)&reloc },
	};
	uint32_t dw[2] = { MI_BATCH_BUFFER_END, 0 }, got = 0;

	gt_write(fd, batch, 0, dw, sizeof(dw));
	gt_assert_eq(exec(fd, objs, 2), 0);
	gt_assert_eq_u64(reloc.presumed_offset, 48 << 20);
	gt_read(fd, batch, 4, &got, sizeof(got));
	gt_assert_eq(got, (48 << 20) + 0x40);
	gt_close(fd, target);
	gt_close(fd, batch);
}

/*
 * The 945G's GTT is coloured by cache level (no LLC, no ppgtt): a snooped
 * object may not abut an uncached one.  Pinned side by side in one
 * execbuffer, either order, they are -ENOSPC (i915_gem_evict_for_node
 * finds the pinned neighbour); a page apart, or of one colour, they fit;
 * an unpinned snooped object is placed away from the uncached one.
 */
static void test_color_guard(int fd)
{
	struct drm_i915_gem_caching caching = {
		.handle = gt_create(fd, 4096), .caching = I915_CACHING_CACHED,
	};
	uint64_t at = 96ull << 20;
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = caching.handle, .flags = EXEC_OBJECT_PINNED },
		{ .handle = batch_object(fd, 4096), .flags = EXEC_OBJECT_PINNED },
	};

	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_SET_CACHING, &caching), 0);
	objs[0].offset = at;
	objs[1].offset = at + 4096;
	gt_assert_eq(exec(fd, objs, 2), -ENOSPC);	/* snooped, then uncached */
	objs[0].offset = at + 4096;
	objs[1].offset = at;
	gt_assert_eq(exec(fd, objs, 2), -ENOSPC);	/* uncached, then snooped */
	objs[0].offset = at + 8192;
	gt_assert_eq(exec(fd, objs, 2), 0);		/* a guard page between */
	gt_assert_eq_u64(objs[0].offset, at + 8192);

	/* Unpinned, the snooped object leaves the uncached one's side. */
	objs[0].flags = 0;
	objs[1].offset = at + 4096;
	gt_assert_eq(exec(fd, objs, 2), 0);
	gt_assert_eq_u64(objs[1].offset, at + 4096);
	gt_assert(objs[0].offset + 4096 != at + 4096);
	gt_assert(objs[0].offset != at + 8192);

	/* One colour: abutting is fine. */
	caching.caching = I915_CACHING_NONE;
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_SET_CACHING, &caching), 0);
	objs[0].flags = EXEC_OBJECT_PINNED;
	objs[0].offset = at;
	gt_assert_eq(exec(fd, objs, 2), 0);
	gt_assert_eq_u64(objs[0].offset, at);
	gt_close(fd, objs[0].handle);
	gt_close(fd, objs[1].handle);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 120);

	gemtest_subtest("softpin-param")
		test_param(fd);
	gemtest_subtest("softpin-invalid")
		test_invalid(fd);
	gemtest_subtest("softpin-place-and-move")
		test_place_and_move(fd);
	gemtest_subtest("softpin-evict")
		test_evict(fd);
	gemtest_subtest("softpin-overlap-enospc")
		test_overlap(fd);
	gemtest_subtest("softpin-min-start-offset")
		test_min_start_offset(fd);
	gemtest_subtest("softpin-reloc-target")
		test_reloc_target(fd);
	gemtest_subtest("softpin-color-guard")
		test_color_guard(fd);

	gem_close(fd);
	return gemtest_exit();
}
