/*
 * gem_madvise: MADVISE's answers (retained) and purging.  With a 16 MiB
 * aperture (gemd --aperture 16M), making room for an execbuffer evicts a
 * DONTNEED object and throws its pages away; from then on it stays purged,
 * cannot be read (EFAULT) or bound (EFAULT: "Attempting to obtain a
 * purgeable object", Linux 6.1), and WILLNEED reports retained = 0.  An
 * object the client does not need cannot be written by pwrite or used by
 * an execbuffer either (EFAULT; IGT's gem_madvise dontneed-before-*).
 */
#include <stdlib.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

#define MiB	(1ull << 20)

static int gem_madv(int fd, uint32_t handle, uint32_t madv, uint32_t *retained)
{
	struct drm_i915_gem_madvise arg = {
		.handle = handle, .madv = madv, .retained = 0xdead,
	};
	int ret = gem_ioctl(fd, DRM_IOCTL_I915_GEM_MADVISE, &arg);

	if (retained)
		*retained = arg.retained;
	return ret;
}

static uint32_t madv_ok(int fd, uint32_t handle, uint32_t madv)
{
	uint32_t retained = 0xdead;

	gt_assert_eq(gem_madv(fd, handle, madv, &retained), 0);
	return retained;
}

static int store(int fd, uint32_t target, uint32_t offset, uint32_t value)
{
	uint32_t batch = gt_create(fd, 4096);
	struct gen3_batch b;
	int ret;

	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, target, offset, value);
	gen3_batch_end(&b);
	ret = gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, NULL);
	gt_close(fd, batch);
	return ret;
}

static void test_errors(int fd)
{
	uint32_t h = gt_create(fd, 4096);

	gt_assert_errno(gem_madv(fd, h, 2, NULL), EINVAL);
	gt_assert_errno(gem_madv(fd, h, 0xffff, NULL), EINVAL);
	gt_assert_errno(gem_madv(fd, h + 100, I915_MADV_DONTNEED, NULL), ENOENT);
	gt_assert_errno(gem_madv(fd, h + 100, I915_MADV_WILLNEED, NULL), ENOENT);
	/* The advice is checked before the handle. */
	gt_assert_errno(gem_madv(fd, h + 100, 7, NULL), EINVAL);
	gt_close(fd, h);
}

/* Without pressure nothing is purged, bound or not. */
static void test_retained(int fd)
{
	uint32_t h = gt_create(fd, 64 << 10), v = 0;
	uint8_t *buf = malloc(64 << 10);
	size_t bad = 0;

	gt_assert(buf);
	gt_fill_pattern(buf, 64 << 10, 3);
	gt_write(fd, h, 0, buf, 64 << 10);
	gt_assert_eq(madv_ok(fd, h, I915_MADV_DONTNEED), 1);
	gt_assert_eq(madv_ok(fd, h, I915_MADV_DONTNEED), 1);
	gt_assert_eq(madv_ok(fd, h, I915_MADV_WILLNEED), 1);
	gt_read(fd, h, 0, buf, 64 << 10);
	gt_assert_f(gt_check_pattern(buf, 64 << 10, 3, &bad), "byte %zu", bad);

	/* Bound by an execbuffer, then marked: still retained. */
	gt_assert_eq(store(fd, h, 0, 0x600d), 0);
	gt_sync(fd, h);
	gt_assert_eq(madv_ok(fd, h, I915_MADV_DONTNEED), 1);
	gt_assert_eq(madv_ok(fd, h, I915_MADV_WILLNEED), 1);
	gt_read(fd, h, 0, &v, 4);
	gt_assert_eq(v, 0x600d);
	gt_assert_eq(store(fd, h, 4, 0x700d), 0);
	gt_read(fd, h, 4, &v, 4);
	gt_assert_eq(v, 0x700d);
	free(buf);
	gt_close(fd, h);
}

/* An execbuffer may not bind an object the client said it does not need,
 * nor pwrite fill it. */
static void test_exec_dontneed(int fd)
{
	uint32_t h = gt_create(fd, 4096), v = 0;

	gt_write(fd, h, 0, &v, 4);	/* pages, so that DONTNEED keeps them */
	gt_assert_eq(madv_ok(fd, h, I915_MADV_DONTNEED), 1);
	gt_assert_errno(store(fd, h, 0, 1), EFAULT);
	gt_assert_errno(__gt_write(fd, h, 0, &v, 4), EFAULT);
	gt_assert_eq(madv_ok(fd, h, I915_MADV_WILLNEED), 1);
	gt_assert_eq(store(fd, h, 0, 0x4242), 0);
	gt_read(fd, h, 0, &v, 4);
	gt_assert_eq(v, 0x4242);
	gt_close(fd, h);
}

/*
 * An 8 MiB DONTNEED object is bound; a 12 MiB object then needs the
 * space, so the first is evicted and purged.
 */
static void test_purge(int fd)
{
	uint32_t a = gt_create(fd, 8 * MiB), big = gt_create(fd, 12 * MiB), v = 0;
	uint32_t keep = gt_create(fd, 1 * MiB);

	v = 0xa5a5a5a5;
	gt_write(fd, a, 8 * MiB - 4, &v, 4);
	gt_write(fd, keep, 4, &v, 4);
	gt_assert_eq(store(fd, a, 0, 0x11), 0);
	gt_assert_eq(store(fd, keep, 0, 0x33), 0);
	gt_sync(fd, a);
	gt_sync(fd, keep);
	gt_assert_eq(madv_ok(fd, a, I915_MADV_DONTNEED), 1);

	gt_assert_eq(store(fd, big, 12 * MiB - 4, 0x22), 0);
	gt_read(fd, big, 12 * MiB - 4, &v, 4);
	gt_assert_eq(v, 0x22);
	/* The WILLNEED object went through the same pressure unharmed. */
	gt_read(fd, keep, 0, &v, 4);
	gt_assert_eq(v, 0x33);
	gt_read(fd, keep, 4, &v, 4);
	gt_assert_eq(v, 0xa5a5a5a5);

	gt_assert_eq(madv_ok(fd, a, I915_MADV_WILLNEED), 0);
	gt_assert_eq(madv_ok(fd, a, I915_MADV_WILLNEED), 0);
	gt_assert_eq(madv_ok(fd, a, I915_MADV_DONTNEED), 0);
	gt_assert_errno(__gt_read(fd, a, 0, &v, 4), EFAULT);
	gt_assert_errno(store(fd, a, 0, 1), EFAULT);
	/* Closing a purged object is fine. */
	gt_close(fd, a);
	gt_close(fd, big);
	gt_close(fd, keep);
}

/*
 * i915_gem_madvise_ioctl truncates a DONTNEED object that has no pages
 * at once: retained is 0 from the first answer, and the object stays
 * purged (IGT gem_madvise dontneed-*-mmap rely on it).  A pread has no
 * pages to copy.
 */
static void test_no_pages_purged_at_once(int fd)
{
	uint32_t h = gt_create(fd, 64 << 10), v = 0;

	gt_assert_eq(madv_ok(fd, h, I915_MADV_DONTNEED), 0);
	gt_assert_eq(madv_ok(fd, h, I915_MADV_WILLNEED), 0);
	gt_assert_errno(__gt_read(fd, h, 0, &v, 4), EFAULT);
	gt_assert_errno(store(fd, h, 0, 1), EFAULT);
	gt_close(fd, h);
}

int main(int argc, char **argv)
{
	static const char *const args[] = { "--aperture", "16M", NULL };
	int fd;

	fd = gt_start(argc, argv, args, 120);

	gemtest_subtest("madvise-errors")
		test_errors(fd);
	gemtest_subtest("retained-without-pressure")
		test_retained(fd);
	gemtest_subtest("exec-pwrite-dontneed-efault")
		test_exec_dontneed(fd);
	gemtest_subtest("purged-under-pressure")
		test_purge(fd);
	gemtest_subtest("no-pages-purged-at-once")
		test_no_pages_purged_at_once(fd);

	gem_close(fd);
	return gemtest_exit();
}
