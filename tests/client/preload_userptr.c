/*
 * preload_userptr: GEM_USERPTR under the interposer, where the program's
 * own munmap, mremap and mmap(MAP_FIXED) reach libgem as they reach the
 * kernel's MMU notifier: each invalidates the object, whose next use
 * takes the memory then there or fails with -EFAULT.  And the memory of
 * a closed userptr object is private again: a fork child that writes it
 * (heap memory free() gave back, say) does not write the parent's.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "preload-test.h"

#define PAGE	4096u

static int ioctl_errno(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

static uint32_t userptr(int fd, void *p, uint64_t size)
{
	struct drm_i915_gem_userptr u = {
		.user_ptr = (uintptr_t)p, .user_size = size,
	};

	gt_assert_eq(ioctl_errno(fd, DRM_IOCTL_I915_GEM_USERPTR, &u), 0);
	return u.handle;
}

static void close_handle(int fd, uint32_t h)
{
	struct drm_gem_close c = { .handle = h };

	gt_assert_eq(ioctl_errno(fd, DRM_IOCTL_GEM_CLOSE, &c), 0);
}

/* First dword of the object through GEM_PREAD: 0 or -errno. */
static int read_dword(int fd, uint32_t h, uint32_t *v)
{
	struct drm_i915_gem_pread pr = {
		.handle = h, .size = 4, .data_ptr = (uintptr_t)v,
	};

	return ioctl_errno(fd, DRM_IOCTL_I915_GEM_PREAD, &pr);
}

static uint32_t *anon(void *at, size_t size, uint32_t fill)
{
	uint32_t *p = mmap(at, size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | (at ? MAP_FIXED : 0),
			   -1, 0);

	gt_assert(p != MAP_FAILED);
	p[0] = fill;
	return p;
}

static void test_munmap(int fd)
{
	uint32_t *p = anon(NULL, PAGE, 0x1111), v = 0;
	uint32_t h = userptr(fd, p, PAGE);

	gt_assert_eq(read_dword(fd, h, &v), 0);
	gt_assert_eq(v, 0x1111);
	gt_assert_eq(munmap(p, PAGE), 0);
	gt_assert_eq(read_dword(fd, h, &v), -EFAULT);
	anon(p, PAGE, 0x2222);
	gt_assert_eq(read_dword(fd, h, &v), 0);
	gt_assert_eq(v, 0x2222);
	close_handle(fd, h);
	munmap(p, PAGE);
}

static void test_map_fixed(int fd)
{
	uint32_t *p = anon(NULL, 2 * PAGE, 0x3333), v = 0;
	uint32_t h = userptr(fd, p, 2 * PAGE);

	gt_assert_eq(read_dword(fd, h, &v), 0);
	/* a new mapping over part of the range: the MMU notifier's UNMAP */
	anon(p, PAGE, 0x4444);
	gt_assert_eq(read_dword(fd, h, &v), 0);
	gt_assert_eq(v, 0x4444);
	/* the object follows the memory now there, both ways */
	p[0] = 0x5555;
	gt_assert_eq(read_dword(fd, h, &v), 0);
	gt_assert_eq(v, 0x5555);
	close_handle(fd, h);
	munmap(p, 2 * PAGE);
}

static void test_mremap(int fd)
{
	uint32_t *p = anon(NULL, PAGE, 0x6666), *q, v = 0;
	uint32_t h = userptr(fd, p, PAGE);

	q = mremap(p, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
		   anon(NULL, PAGE, 0));
	gt_assert(q != MAP_FAILED);
	gt_assert_eq(read_dword(fd, h, &v), -EFAULT);
	close_handle(fd, h);
	munmap(q, PAGE);
}

/* A PROBE over a GTT map through the interposer: not memory. */
static void test_probe_gtt(int fd)
{
	struct drm_i915_gem_create c = { .size = PAGE };
	struct drm_i915_gem_mmap_gtt mg = { 0 };
	struct drm_i915_gem_userptr u = { .user_size = PAGE,
					  .flags = I915_USERPTR_PROBE };
	void *gtt;

	gt_assert_eq(ioctl_errno(fd, DRM_IOCTL_I915_GEM_CREATE, &c), 0);
	mg.handle = c.handle;
	gt_assert_eq(ioctl_errno(fd, DRM_IOCTL_I915_GEM_MMAP_GTT, &mg), 0);
	gtt = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)mg.offset);
	gt_assert(gtt != MAP_FAILED);
	u.user_ptr = (uintptr_t)gtt;
	gt_assert_eq(ioctl_errno(fd, DRM_IOCTL_I915_GEM_USERPTR, &u), -EFAULT);
	munmap(gtt, PAGE);
	close_handle(fd, c.handle);
}

/* After GEM_CLOSE a fork child's writes stay the child's. */
static void test_private_after_close(int fd)
{
	uint32_t *p = anon(NULL, PAGE, 0x7777);
	uint32_t h = userptr(fd, p, PAGE);
	int status;
	pid_t pid;

	p[1] = 0x8888;
	close_handle(fd, h);
	gt_assert_eq(p[0], 0x7777);
	gt_assert_eq(p[1], 0x8888);
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0) {
		p[0] = 0xdead;
		_exit(p[0] == 0xdead ? 0 : 1);
	}
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	gt_assert_eq(p[0], 0x7777);
	munmap(p, PAGE);
}

int main(int argc, char **argv)
{
	int fd;

	preload_test_init(argc, argv);
	fd = open("/dev/dri/card0", O_RDWR);
	gt_assert_f(fd >= 0, "open: %s", strerror(errno));

	gemtest_subtest("munmap-invalidates")
		test_munmap(fd);
	gemtest_subtest("map-fixed-invalidates")
		test_map_fixed(fd);
	gemtest_subtest("mremap-invalidates")
		test_mremap(fd);
	gemtest_subtest("probe-gtt-map-efault")
		test_probe_gtt(fd);
	gemtest_subtest("private-after-close")
		test_private_after_close(fd);

	close(fd);
	return gemtest_exit();
}
