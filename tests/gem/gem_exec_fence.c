/*
 * gem_exec_fence: I915_EXEC_FENCE_OUT gives a sync_file-like descriptor
 * that polls readable once the request is done, FENCE_IN takes one back,
 * and the sync_file ioctls (FILE_INFO, MERGE) answer as the kernel's:
 * status 0 while the batch runs, 1 once done, -EIO for a batch that hung
 * the GPU.  IGT's gem_exec_fence crashed in its fixture without them.
 */
#include <poll.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>
#include <linux/sync_file.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

#define BAD_COMMAND	0x23456789u	/* client 1: nothing on gen3 */


/* Submit batch (written from b, relocations and all) with flags and
 * rsvd2; rsvd2 comes back. */
static int exec(int fd, struct gen3_batch *b, uint32_t batch, uint64_t flags,
		uint64_t *rsvd2)
{
	struct gen3_exec x = { .batch = batch, .exec_flags = flags };
	struct drm_i915_gem_exec_object2 obj[1];
	struct drm_i915_gem_execbuffer2 eb;
	int ret;

	gen3_batch_execbuf(b, &x, obj, &eb);
	eb.rsvd2 = *rsvd2;
	gt_write(fd, batch, 0, b->dw, gen3_batch_bytes(b));
	ret = gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
	*rsvd2 = eb.rsvd2;
	return ret;
}

static int out_fence(int fd, uint32_t batch, struct gen3_batch *b)
{
	uint64_t rsvd2 = 0;

	gt_assert_eq(exec(fd, b, batch, I915_EXEC_FENCE_OUT, &rsvd2), 0);
	gt_assert((int)(rsvd2 >> 32) > 2);
	return (int)(rsvd2 >> 32);
}

static int status(int fence)
{
	struct sync_file_info info = { .num_fences = 0 };

	gt_assert_eq(gem_syncfile_ioctl(fence, SYNC_IOC_FILE_INFO, &info), 0);
	gt_assert_eq(info.num_fences, 1);
	return info.status;
}

/* Until the GPU is done with handle, reads included. */
static void wait_idle(int fd, uint32_t handle)
{
	int64_t timeout = -1;

	gt_assert_eq(__gt_wait(fd, handle, &timeout), 0);
}

static bool readable(int fence)
{
	struct pollfd p = { .fd = fence, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static void test_param(int fd)
{
	gt_assert_eq(gt_getparam(fd, I915_PARAM_HAS_EXEC_FENCE), 1);
	/* What needs syncobjs or a scheduler stays off. */
	gt_assert_eq(gt_getparam(fd, I915_PARAM_HAS_EXEC_FENCE_ARRAY), 0);
	gt_assert_eq(gt_getparam(fd, I915_PARAM_HAS_EXEC_SUBMIT_FENCE), 0);
}

/* Active while the batch spins, signaled once it ends: poll and status. */
static void test_out_fence(int fd)
{
	uint32_t spin = gt_create(fd, 4096);
	struct pollfd p;
	struct gen3_batch b;
	int fence;

	gen3_batch_reset(&b);
	gen3_emit_spin(&b, spin);
	gen3_batch_end(&b);
	fence = out_fence(fd, spin, &b);
	gt_assert_eq(gt_spin_watchdog(fd, spin, 500), 0);
	/* The watchdog ends the spin; the fence must follow, and then only. */
	p = (struct pollfd){ .fd = fence, .events = POLLIN };
	gt_assert_eq(poll(&p, 1, 30000), 1);
	gt_assert(!gt_busy(fd, spin));
	gt_assert_eq(status(fence), 1);
	close(fence);
	gt_close(fd, spin);
}

static void test_out_fence_active(int fd)
{
	uint32_t spin = gt_create(fd, 4096), *map;
	struct gen3_batch b;
	int fence;

	gen3_batch_reset(&b);
	gen3_emit_spin(&b, spin);
	gen3_batch_end(&b);
	fence = out_fence(fd, spin, &b);
	map = gt_mmap_cpu(fd, spin, 0, 4096);
	/* Nothing ends the spin but us: the fence cannot have signaled. */
	gt_assert_eq(status(fence), 0);
	gt_assert(!readable(fence));
	__atomic_store_n(&map[0], MI_BATCH_BUFFER_END, __ATOMIC_RELEASE);
	wait_idle(fd, spin);
	gt_assert_eq(status(fence), 1);
	gt_assert(readable(fence));
	close(fence);
	munmap(map, 4096);
	gt_close(fd, spin);
}

/* The guilty batch's fence reports the hang. */
static void test_out_fence_hang(int fd)
{
	uint32_t batch = gt_create(fd, 4096);
	struct pollfd p;
	struct gen3_batch b;
	int fence;

	gen3_batch_reset(&b);
	gen3_batch_emit(&b, BAD_COMMAND);
	gen3_batch_end(&b);
	fence = out_fence(fd, batch, &b);
	p = (struct pollfd){ .fd = fence, .events = POLLIN };
	gt_assert_eq(poll(&p, 1, 30000), 1);
	gt_assert_eq(status(fence), -EIO);
	close(fence);
	gt_close(fd, batch);
}

/* FENCE_IN: gemd's fences only; rsvd2's low half is the caller's again. */
static void test_in_fence(int fd)
{
	uint32_t batch = gt_create(fd, 4096);
	struct gen3_batch b;
	uint64_t rsvd2;
	int fence, pfd[2];

	gen3_batch_reset(&b);
	gen3_batch_end(&b);
	fence = out_fence(fd, batch, &b);
	rsvd2 = (uint32_t)fence;
	gt_assert_eq(exec(fd, &b, batch, I915_EXEC_FENCE_IN | I915_EXEC_FENCE_OUT,
			  &rsvd2), 0);
	gt_assert_eq((uint32_t)rsvd2, (uint32_t)fence);
	wait_idle(fd, batch);
	close((int)(rsvd2 >> 32));
	/* Not a fence: a pipe, a closed descriptor. */
	gt_assert_eq(pipe(pfd), 0);
	rsvd2 = (uint32_t)pfd[0];
	gt_assert_eq(exec(fd, &b, batch, I915_EXEC_FENCE_IN, &rsvd2), -EINVAL);
	rsvd2 = 1000;
	gt_assert_eq(exec(fd, &b, batch, I915_EXEC_FENCE_IN, &rsvd2), -EINVAL);
	rsvd2 = (uint32_t)fence;
	gt_assert_eq(exec(fd, &b, batch, I915_EXEC_FENCE_IN | I915_EXEC_FENCE_SUBMIT,
			  &rsvd2), -EINVAL);
	close(pfd[0]);
	close(pfd[1]);
	close(fence);
	gt_close(fd, batch);
}

/* MERGE: one timeline, so the later fence; FILE_INFO's argument checks. */
static void test_merge(int fd)
{
	uint32_t a = gt_create(fd, 4096), s = gt_create(fd, 4096), *map;
	struct sync_merge_data m = { .name = "merged" };
	struct sync_file_info info = { .flags = 1 };
	struct gen3_batch b;
	int f1, f2, pfd[2];

	gen3_batch_reset(&b);
	gen3_batch_end(&b);
	f1 = out_fence(fd, a, &b);
	wait_idle(fd, a);
	gen3_batch_reset(&b);
	gen3_emit_spin(&b, s);
	gen3_batch_end(&b);
	f2 = out_fence(fd, s, &b);
	map = gt_mmap_cpu(fd, s, 0, 4096);

	m.fd2 = f2;
	gt_assert_eq(gem_syncfile_ioctl(f1, SYNC_IOC_MERGE, &m), 0);
	gt_assert(m.fence > 2 && m.fence != f1 && m.fence != f2);
	gt_assert_eq(status(f1), 1);
	gt_assert_eq(status(m.fence), 0);		/* the spinning one's */
	__atomic_store_n(&map[0], MI_BATCH_BUFFER_END, __ATOMIC_RELEASE);
	wait_idle(fd, s);
	gt_assert_eq(status(m.fence), 1);

	gt_assert_errno(gem_syncfile_ioctl(f1, SYNC_IOC_FILE_INFO, &info), EINVAL);
	gt_assert_eq(pipe(pfd), 0);
	m.fd2 = pfd[0];
	gt_assert_errno(gem_syncfile_ioctl(f1, SYNC_IOC_MERGE, &m), ENOENT);
	gt_assert_errno(gem_syncfile_ioctl(pfd[0], SYNC_IOC_FILE_INFO, &info), ENOTTY);
	close(pfd[0]);
	close(pfd[1]);
	close(m.fence);
	close(f1);
	close(f2);
	munmap(map, 4096);
	gt_close(fd, a);
	gt_close(fd, s);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 120);

	gemtest_subtest("exec-fence-param")
		test_param(fd);
	gemtest_subtest("out-fence-signals")
		test_out_fence(fd);
	gemtest_subtest("out-fence-active-until-done")
		test_out_fence_active(fd);
	gemtest_subtest("in-fence")
		test_in_fence(fd);
	gemtest_subtest("merge-and-info")
		test_merge(fd);
	gemtest_subtest("out-fence-hang-eio")
		test_out_fence_hang(fd);

	gem_close(fd);
	return gemtest_exit();
}
