/*
 * gem_fence: the 945G's 16 fence registers in execbuffer.  A register is
 * pinned only for objects that need one in the execbuffer being reserved;
 * any other holder loses it, including an object of the same execbuffer
 * that does not need it there (i915_find_fence_reg, fence_find).  With
 * more objects needing fences than there are registers the answer is
 * -ENOBUFS (Linux 6.1; IGT's gem_fenced_exec_thrash expects it on gen < 4).
 */
#include <stdlib.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

#define NFENCES		16
#define OBJ_SIZE	(1u << 20)

static uint32_t tiled_object(int fd)
{
	struct drm_i915_gem_set_tiling st = {
		.tiling_mode = I915_TILING_X, .stride = 4096,
	};

	st.handle = gt_create(fd, OBJ_SIZE);
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st), 0);
	return st.handle;
}

static uint32_t batch_object(int fd)
{
	const uint32_t bbe[2] = { MI_BATCH_BUFFER_END, 0 };
	uint32_t h = gt_create(fd, 4096);

	gt_write(fd, h, 0, bbe, sizeof(bbe));
	return h;
}

/* handles[0..n) then the batch; the first nfenced need a fence. */
static int exec(int fd, const uint32_t *handles, unsigned int n,
		unsigned int nfenced, uint32_t batch)
{
	struct drm_i915_gem_exec_object2 objs[2 * NFENCES + 2];
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)objs, .buffer_count = n + 1,
	};
	unsigned int i;

	memset(objs, 0, sizeof(objs));
	for (i = 0; i < n; i++) {
		objs[i].handle = handles[i];
		if (i < nfenced)
			objs[i].flags = EXEC_OBJECT_NEEDS_FENCE;
	}
	objs[n].handle = batch;
	return gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
}

/*
 * gem_fenced_exec_thrash's pattern: 32 tiled objects, the first 16 fenced
 * in one execbuffer, the other 16 in the next with the first 16 listed
 * too but not needing theirs: those registers must be taken from them.
 */
static void test_steal_within_execbuffer(int fd)
{
	uint32_t h[2 * NFENCES], rev[2 * NFENCES], batch = batch_object(fd);
	unsigned int i, round;

	for (i = 0; i < 2 * NFENCES; i++)
		h[i] = tiled_object(fd);
	for (i = 0; i < 2 * NFENCES; i++)
		rev[i] = h[2 * NFENCES - 1 - i];
	for (round = 0; round < 3; round++) {
		gt_assert_eq(exec(fd, h, 2 * NFENCES, NFENCES, batch), 0);
		gt_assert_eq(exec(fd, rev, 2 * NFENCES, NFENCES, batch), 0);
	}
	for (i = 0; i < 2 * NFENCES; i++)
		gt_close(fd, h[i]);
	gt_close(fd, batch);
}

/*
 * Registers held by objects the GPU is still using are taken once it is
 * done with them: the execbuffer waits rather than fail.  The holders are
 * kept busy by a spinning batch that a watchdog ends after a second.
 */
static void test_steal_from_busy(int fd)
{
	uint64_t flags[NFENCES];
	uint32_t h[2 * NFENCES], spin = gt_create(fd, 4096), batch = batch_object(fd);
	struct gen3_batch b;
	unsigned int i;

	for (i = 0; i < 2 * NFENCES; i++)
		h[i] = tiled_object(fd);
	for (i = 0; i < NFENCES; i++)
		flags[i] = EXEC_OBJECT_NEEDS_FENCE;
	gen3_batch_reset(&b);
	gen3_emit_spin(&b, spin);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, spin, h, flags, NFENCES, 0, NULL), 0);
	gt_assert_eq(gt_spin_watchdog(fd, spin, 1000), 0);
	gt_assert_eq(exec(fd, h + NFENCES, NFENCES, NFENCES, batch), 0);
	gt_assert(!gt_busy(fd, spin));
	gt_sync(fd, batch);
	for (i = 0; i < 2 * NFENCES; i++)
		gt_close(fd, h[i]);
	gt_close(fd, batch);
	gt_close(fd, spin);
}

static void test_too_many_enobufs(int fd)
{
	uint32_t h[NFENCES + 1], batch = batch_object(fd);
	unsigned int i;

	for (i = 0; i < NFENCES + 1; i++)
		h[i] = tiled_object(fd);
	gt_assert_eq(exec(fd, h, NFENCES + 1, NFENCES + 1, batch), -ENOBUFS);
	/* Nothing is left pinned: 16 still fit. */
	gt_assert_eq(exec(fd, h, NFENCES, NFENCES, batch), 0);
	gt_assert_eq(exec(fd, h + 1, NFENCES, NFENCES, batch), 0);
	for (i = 0; i < NFENCES + 1; i++)
		gt_close(fd, h[i]);
	gt_close(fd, batch);
}

/*
 * A fenced binding takes the larger of the entry's alignment and the
 * fence's (i915_vma_insert of Linux 6.1): an X-tiled 1 MiB object asked
 * for with 4 KiB alignment is placed on a 1 MiB boundary, not refused
 * with the -EINVAL of Linux 3.x.  IGT's intel_bb passes 4 KiB for an
 * object it believes untiled (gem_set_tiling_vs_blt untiled-to-tiled).
 */
static void test_small_alignment(int fd)
{
	struct drm_i915_gem_exec_object2 objs[2];
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)objs, .buffer_count = 2,
	};
	uint32_t h = tiled_object(fd), batch = batch_object(fd);
	uint64_t align;

	for (align = 4096; align <= 2 * OBJ_SIZE; align <<= 1) {
		memset(objs, 0, sizeof(objs));
		objs[0].handle = h;
		objs[0].flags = EXEC_OBJECT_NEEDS_FENCE;
		objs[0].alignment = align;
		objs[1].handle = batch;
		gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
		gt_assert_eq(objs[0].offset & ((align > OBJ_SIZE ? align : OBJ_SIZE) - 1), 0);
	}
	gt_close(fd, h);
	gt_close(fd, batch);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 120);

	gemtest_subtest("fence-steal-within-execbuffer")
		test_steal_within_execbuffer(fd);
	gemtest_subtest("fence-steal-from-busy")
		test_steal_from_busy(fd);
	gemtest_subtest("fence-too-many-enobufs")
		test_too_many_enobufs(fd);
	gemtest_subtest("fence-small-alignment")
		test_small_alignment(fd);

	gem_close(fd);
	return gemtest_exit();
}
