/*
 * preload_mmio: the 945G's MMIO BAR (PCI resource0) under the interposer
 * holds gemd's live registers, mapped as IGT's intel_mmio maps it through
 * libpciaccess (open O_RDWR, mmap MAP_SHARED writable): the render ring's
 * registers follow the work gemd runs.  A program's writes stay in its own
 * copy of the page: another mapping, the GPU and gemd never see them.  As
 * the kernel's file: a read-only open cannot map writable (EACCES), a map
 * outside the BAR is EINVAL, write() is EIO, and only root may open it.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "batchbuffer.h"
#include "gemtest.h"
#include "preload-test.h"
#include "regs.h"

#define RESOURCE0	"/sys/bus/pci/devices/0000:00:02.0/resource0"
#define BAR_SIZE	(512u << 10)
#define NOBODY		65534

static int xioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg);
}

static int open_bar(int flags)
{
	int fd = open(RESOURCE0, flags | O_CLOEXEC);

	gt_assert_f(fd >= 0, "open %s: %s", RESOURCE0, strerror(errno));
	return fd;
}

/* The whole BAR as libpciaccess maps it. */
static volatile uint32_t *map_bar(int fd, int prot)
{
	void *p = mmap(NULL, BAR_SIZE, prot, MAP_SHARED, fd, 0);

	gt_assert_f(p != MAP_FAILED, "mmap resource0: %s", strerror(errno));
	return p;
}

static uint32_t reg(volatile uint32_t *bar, uint32_t offset)
{
	return bar[offset / 4];
}

/* Store value at target's first dword; wait for it through set_domain. */
static void store_and_wait(int fd, uint32_t batch, uint32_t target, uint32_t value)
{
	struct gen3_exec x = { .batch = batch, .handles = &target, .n = 1 };
	struct drm_i915_gem_set_domain sd = {
		.handle = target, .read_domains = I915_GEM_DOMAIN_CPU,
	};
	struct drm_i915_gem_pread pr = { .handle = target, .size = 4 };
	struct gen3_batch b;
	uint32_t got = 0;

	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, target, 0, value);
	gen3_batch_end(&b);
	gt_assert_eq(gen3_batch_submit(xioctl, fd, &b, &x, NULL), 0);
	gt_assert_eq(ioctl(fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd), 0);
	pr.data_ptr = (uintptr_t)&got;
	gt_assert_eq(ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), 0);
	gt_assert_eq(got, value);
}

/*
 * After the request's seqno the CS still parses the request's last
 * commands: wait (10 s at most) until HEAD has caught up with TAIL.
 */
static void wait_ring_idle(volatile uint32_t *bar)
{
	int i;

	for (i = 0; i < 10000; i++) {
		if ((reg(bar, PRB0_HEAD) & HEAD_ADDR) == reg(bar, PRB0_TAIL))
			return;
		usleep(1000);
	}
	gt_assert_f(0, "ring never idle: HEAD 0x%08x TAIL 0x%08x",
		    reg(bar, PRB0_HEAD), reg(bar, PRB0_TAIL));
}

static void test_live_ring(int fd, uint32_t batch, uint32_t target)
{
	int bfd = open_bar(O_RDWR);
	volatile uint32_t *bar = map_bar(bfd, PROT_READ | PROT_WRITE);
	uint32_t tail, start, size, acthd;

	gt_assert(reg(bar, PRB0_CTL) & RING_VALID);
	gt_assert_eq(reg(bar, PRB0_START) & (4096 - 1), 0);
	store_and_wait(fd, batch, target, 0x1234);
	wait_ring_idle(bar);
	tail = reg(bar, PRB0_TAIL);
	gt_assert(tail != 0);
	store_and_wait(fd, batch, target, 0x5678);
	wait_ring_idle(bar);
	/* The second request moved TAIL on, and HEAD followed it; the last
	 * command parsed, ACTHD, was the ring's (the request's seqno). */
	gt_assert(reg(bar, PRB0_TAIL) != tail);
	start = reg(bar, PRB0_START);
	size = (reg(bar, PRB0_CTL) & RING_NR_PAGES) + 4096;
	acthd = reg(bar, ACTHD);
	gt_assert_f(acthd >= start && acthd < start + size,
		    "ACTHD 0x%08x outside the ring 0x%08x + 0x%x", acthd, start, size);
	munmap((void *)bar, BAR_SIZE);
	close(bfd);
}

static void test_private_writes(int fd, uint32_t batch, uint32_t target)
{
	int fd1 = open_bar(O_RDWR), fd2 = open_bar(O_RDWR);
	volatile uint32_t *mine = map_bar(fd1, PROT_READ | PROT_WRITE);
	volatile uint32_t *other = map_bar(fd2, PROT_READ | PROT_WRITE);
	uint32_t tail = reg(other, PRB0_TAIL), ctl = reg(other, PRB0_CTL);

	/* Stop the ring and move its TAIL: in this program's copy only. */
	mine[PRB0_CTL / 4] = 0;
	mine[PRB0_TAIL / 4] = 0xdead0;
	gt_assert_eq(reg(mine, PRB0_TAIL), 0xdead0);
	gt_assert_eq(reg(other, PRB0_TAIL), tail);
	gt_assert_eq(reg(other, PRB0_CTL), ctl);
	store_and_wait(fd, batch, target, 0x9abc);
	wait_ring_idle(other);
	gt_assert(reg(other, PRB0_TAIL) != tail);
	/* The written page is this program's copy from now on. */
	gt_assert_eq(reg(mine, PRB0_TAIL), 0xdead0);
	munmap((void *)mine, BAR_SIZE);
	munmap((void *)other, BAR_SIZE);
	close(fd1);
	close(fd2);
}

static void test_read_only(void)
{
	int fd = open_bar(O_RDONLY);
	volatile uint32_t *bar = map_bar(fd, PROT_READ);

	gt_assert(reg(bar, PRB0_CTL) & RING_VALID);
	errno = 0;
	gt_assert(mmap(NULL, BAR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) ==
		  MAP_FAILED);
	gt_assert_eq(errno, EACCES);
	munmap((void *)bar, BAR_SIZE);
	close(fd);
}

static void expect_einval(int fd, size_t len, off_t off)
{
	errno = 0;
	gt_assert_f(mmap(NULL, len, PROT_READ, MAP_SHARED, fd, off) == MAP_FAILED,
		    "mmap of %zu bytes at %lld mapped", len, (long long)off);
	gt_assert_eq(errno, EINVAL);
}

static void test_bounds_and_write(void)
{
	int fd = open_bar(O_RDWR);
	uint32_t v = 0;
	void *p;

	expect_einval(fd, BAR_SIZE + 4096, 0);
	expect_einval(fd, 4096, BAR_SIZE);
	expect_einval(fd, 8192, BAR_SIZE - 4096);
	/* The last page alone is inside. */
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, BAR_SIZE - 4096);
	gt_assert(p != MAP_FAILED);
	munmap(p, 4096);
	errno = 0;
	gt_assert_eq(write(fd, &v, sizeof(v)), -1);
	gt_assert_eq(errno, EIO);
	close(fd);
}

static void test_nobody(void)
{
	int status;
	pid_t pid;

	if (geteuid() != 0)
		gemtest_skip("needs root to drop it");
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0) {
		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(2);
		_exit(open(RESOURCE0, O_RDONLY) == -1 && errno == EACCES ? 0 : 1);
	}
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "nobody's open: status 0x%x", status);
}

int main(int argc, char **argv)
{
	uint32_t batch, target;
	int fd;

	preload_test_init(argc, argv);
	fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
	gt_assert(fd >= 0);
	batch = pt_create(fd, 4096);
	target = pt_create(fd, 4096);

	gemtest_subtest("ring-registers-are-live")
		test_live_ring(fd, batch, target);
	gemtest_subtest("writes-stay-in-the-writers-copy")
		test_private_writes(fd, batch, target);
	gemtest_subtest("read-only-open-maps-read-only")
		test_read_only();
	gemtest_subtest("maps-inside-the-bar-write-eio")
		test_bounds_and_write();
	gemtest_subtest("nobody-gets-eacces")
		test_nobody();
	close(fd);
	return gemtest_exit();
}
