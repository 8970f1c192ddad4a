/*
 * preload_procmem: the process's own /proc/self/mem over GEM mappings
 * stops where the kernel's vm_access() stops (IGT gem_mmap_offset
 * oob-read).  A read or write that starts inside an object's mapping and
 * runs past the object fails with EIO; one that reaches the mapping from
 * ordinary memory moves the bytes before it; one inside the object moves
 * them all.  Both a GTT and a CPU (WB) mapping, through MMAP_OFFSET.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "preload-test.h"

static void close_object(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_GEM_CLOSE, &c), 0);
}

/* Map handle's 4096 bytes of type at addr (NULL: anywhere). */
static unsigned char *map_object(int fd, uint32_t handle, unsigned int type,
				 void *addr)
{
	struct drm_i915_gem_mmap_offset mo = { .handle = handle, .flags = type };
	void *p;

	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), 0);
	p = mmap(addr, 4096, PROT_READ | PROT_WRITE,
		 MAP_SHARED | (addr ? MAP_FIXED : 0), fd, (off_t)mo.offset);
	gt_assert_f(p != MAP_FAILED, "mmap: %s", strerror(errno));
	return p;
}

/* pread of /proc/self/mem: the count, or -errno. */
static long mem_pread(int memfd, void *buf, size_t len, const void *at)
{
	ssize_t n = pread(memfd, buf, len, (off_t)(uintptr_t)at);

	return n < 0 ? -errno : (long)n;
}

static const unsigned int types[] = { I915_MMAP_OFFSET_GTT, I915_MMAP_OFFSET_WB };

static void test_past_end_eio(int fd, int memfd)
{
	unsigned char buf[16];
	size_t t;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		uint32_t h = pt_create(fd, 4096);
		unsigned char *p = map_object(fd, h, types[t], NULL);

		memset(p, 0xa5, 4096);
		/* as IGT does: read() after lseek() */
		gt_assert_eq(lseek(memfd, (off_t)(uintptr_t)(p + 4092), SEEK_SET),
			     (off_t)(uintptr_t)(p + 4092));
		gt_assert_eq(read(memfd, buf, 8), -1);
		gt_assert_eq(errno, EIO);
		gt_assert_eq(mem_pread(memfd, buf, 8, p + 4092), -EIO);
		gt_assert_eq(pwrite(memfd, buf, 8, (off_t)(uintptr_t)(p + 4092)), -1);
		gt_assert_eq(errno, EIO);
		/* inside the object: every byte */
		memset(buf, 0, sizeof(buf));
		gt_assert_eq(mem_pread(memfd, buf, 4, p + 4092), 4);
		gt_assert_eq(buf[0], 0xa5);
		gt_assert_eq(buf[3], 0xa5);
		gt_assert_eq(mem_pread(memfd, buf, 16, p + 8), 16);
		munmap(p, 4096);
		close_object(fd, h);
	}
}

/*
 * Ordinary memory right before the object: mem_rw's first page-sized
 * chunk ends inside the object and is served whole; the next one runs
 * past the object, so the read stops there having moved 4096 bytes.
 */
static void test_partial_from_before(int fd, int memfd)
{
	static unsigned char buf[8192];
	size_t t;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		unsigned char *anon = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
					   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		uint32_t h = pt_create(fd, 4096);
		unsigned char *p;

		gt_assert(anon != MAP_FAILED);
		memset(anon, 0x11, 4096);
		p = map_object(fd, h, types[t], anon + 4096);
		memset(p, 0x22, 4096);
		gt_assert_eq(mem_pread(memfd, buf, 4104, anon + 4092), 4096);
		gt_assert_eq(buf[3], 0x11);
		gt_assert_eq(buf[4], 0x22);
		gt_assert_eq(buf[4095], 0x22);
		gt_assert_eq(mem_pread(memfd, buf, 8, anon + 4092), 8);
		munmap(anon, 8192);
		close_object(fd, h);
	}
}

int main(int argc, char **argv)
{
	int fd, memfd;

	preload_test_init(argc, argv);
	fd = open("/dev/dri/card0", O_RDWR);
	gt_assert_f(fd >= 0, "open: %s", strerror(errno));
	memfd = open("/proc/self/mem", O_RDWR);
	gt_assert_f(memfd >= 0, "/proc/self/mem: %s", strerror(errno));

	gemtest_subtest("past-end-eio")
		test_past_end_eio(fd, memfd);
	gemtest_subtest("partial-from-before")
		test_partial_from_before(fd, memfd);

	close(memfd);
	close(fd);
	return gemtest_exit();
}
