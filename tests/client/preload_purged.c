/*
 * preload_purged: a purged object's mappings fault.  The kernel truncates
 * an object marked DONTNEED that has no pages at once (retained 0), and
 * its fault handler then cannot get the pages: every access to a CPU or
 * GTT mapping of it is SIGBUS, whether the mapping was made before the
 * purge or after it, and whether or not the file is still open (IGT
 * gem_madvise dontneed-before-mmap, dontneed-after-mmap).  An object
 * whose pages were touched keeps them, and its mapping keeps working.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "preload-test.h"

#define SIZE	(1024 * 1024)

static sigjmp_buf jump;

static void on_fault(int sig)
{
	siglongjmp(jump, sig);
}

static int open_card(void)
{
	int fd = open("/dev/dri/card0", O_RDWR);

	gt_assert_f(fd >= 0, "open: %s", strerror(errno));
	return fd;
}

/* MADVISE: the retained answer. */
static int dontneed(int fd, uint32_t handle)
{
	struct drm_i915_gem_madvise m = { .handle = handle, .madv = I915_MADV_DONTNEED };

	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_MADVISE, &m), 0);
	return (int)m.retained;
}

static unsigned char *map(int fd, uint32_t handle, unsigned int type)
{
	struct drm_i915_gem_mmap_offset mo = { .handle = handle, .flags = type };
	void *p;

	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), 0);
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)mo.offset);
	gt_assert_f(p != MAP_FAILED, "mmap: %s", strerror(errno));
	return p;
}

/* The signal a write to p raises: 0 if none. */
static int touch(volatile unsigned char *p)
{
	struct sigaction sa = { .sa_handler = on_fault }, old_bus, old_segv;
	int sig;

	sigaction(SIGBUS, &sa, &old_bus);
	sigaction(SIGSEGV, &sa, &old_segv);
	sig = sigsetjmp(jump, 1);
	if (!sig)
		*p = 1;
	sigaction(SIGBUS, &old_bus, NULL);
	sigaction(SIGSEGV, &old_segv, NULL);
	return sig;
}

static const unsigned int types[] = { I915_MMAP_OFFSET_GTT, I915_MMAP_OFFSET_WB };

static void test_before_mmap(void)
{
	size_t t;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		int fd = open_card();
		uint32_t h = pt_create(fd, SIZE);
		unsigned char *p;

		gt_assert_eq(dontneed(fd, h), 0);
		p = map(fd, h, types[t]);
		close(fd);
		gt_assert_eq(touch(p), SIGBUS);
		gt_assert_eq(touch(p + SIZE - 1), SIGBUS);
		munmap(p, SIZE);
	}
}

static void test_after_mmap(void)
{
	size_t t;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		int fd = open_card();
		uint32_t h = pt_create(fd, SIZE);
		unsigned char *p = map(fd, h, types[t]);

		gt_assert_eq(dontneed(fd, h), 0);
		close(fd);
		gt_assert_eq(touch(p), SIGBUS);
		munmap(p, SIZE);
	}
}

/* Pages touched: the object keeps them, DONTNEED or not. */
static void test_touched_is_retained(void)
{
	size_t t;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		int fd = open_card();
		uint32_t h = pt_create(fd, SIZE);
		unsigned char *p = map(fd, h, types[t]);

		gt_assert_eq(touch(p + 4096), 0);
		gt_assert_eq(dontneed(fd, h), 1);
		gt_assert_eq(touch(p), 0);
		gt_assert_eq(p[4096], 1);
		munmap(p, SIZE);
		close(fd);
	}
}

int main(int argc, char **argv)
{
	preload_test_init(argc, argv);

	gemtest_subtest("dontneed-before-mmap-sigbus")
		test_before_mmap();
	gemtest_subtest("dontneed-after-mmap-sigbus")
		test_after_mmap();
	gemtest_subtest("touched-object-is-retained")
		test_touched_is_retained();

	return gemtest_exit();
}
