/*
 * preload_prime: dma-buf fds under the interposer, as a program sees the
 * kernel's: llseek only to the start or the end, mmap refused past the
 * end, DMA_BUF_IOCTL_SYNC's checks, poll() telling whether the GPU still
 * writes (POLLIN) or uses (POLLOUT) the buffer (prime_busy), and munmap
 * making libgem forget a mapping it would otherwise map again.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>
#include <linux/dma-buf.h>
#include <xf86drm.h>

#include "batchbuffer.h"
#include "gemtest.h"
#include "preload-test.h"

#define SIZE	(16u << 10)

static int xioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg);
}

static uint32_t create(int fd, uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };

	gt_assert_eq(ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c), 0);
	return c.handle;
}

static int export(int fd, uint32_t handle)
{
	int pfd = -1;

	gt_assert_eq(drmPrimeHandleToFD(fd, handle, DRM_CLOEXEC | DRM_RDWR, &pfd), 0);
	return pfd;
}

static void test_llseek(int fd)
{
	int pfd = export(fd, create(fd, SIZE));

	gt_assert_eq(lseek(pfd, 0, SEEK_END), (off_t)SIZE);
	gt_assert_eq(lseek(pfd, 0, SEEK_SET), 0);
	gt_assert_errno(lseek(pfd, 1, SEEK_SET), EINVAL);
	gt_assert_errno(lseek(pfd, -1, SEEK_END), EINVAL);
	gt_assert_errno(lseek(pfd, SIZE, SEEK_SET), EINVAL);
	gt_assert_errno(lseek(pfd, 0, SEEK_CUR), EINVAL);
	close(pfd);
}

static void test_mmap_bounds(int fd)
{
	int pfd = export(fd, create(fd, SIZE));
	void *p;

	gt_assert(mmap(NULL, 2 * SIZE, PROT_READ, MAP_SHARED, pfd, 0) == MAP_FAILED);
	gt_assert_eq(errno, EINVAL);
	gt_assert(mmap(NULL, SIZE, PROT_READ, MAP_SHARED, pfd, SIZE / 2) == MAP_FAILED);
	gt_assert_eq(errno, EINVAL);
	p = mmap(NULL, SIZE, PROT_READ, MAP_SHARED, pfd, 0);
	gt_assert(p != MAP_FAILED);
	munmap(p, SIZE);
	close(pfd);
}

static void test_sync_flags(int fd)
{
	static const uint64_t bad[] = {
		~0ull, 0, DMA_BUF_SYNC_RW + 1, DMA_BUF_SYNC_VALID_FLAGS_MASK + 1,
	};
	int pfd = export(fd, create(fd, SIZE));
	struct dma_buf_sync s;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		s.flags = bad[i];
		gt_assert_errno(ioctl(pfd, DMA_BUF_IOCTL_SYNC, &s), EINVAL);
	}
	s.flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_RW;
	gt_assert_eq(ioctl(pfd, DMA_BUF_IOCTL_SYNC, &s), 0);
	s.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_RW;
	gt_assert_eq(ioctl(pfd, DMA_BUF_IOCTL_SYNC, &s), 0);
	close(pfd);
}

static short poll_one(int pfd, short events, int timeout)
{
	struct pollfd p = { .fd = pfd, .events = events };

	gt_assert(poll(&p, 1, timeout) >= 0);
	return p.revents;
}

/*
 * A batch writes target and spins: target is neither readable nor
 * writable, the batch readable (the GPU only reads it) but not writable;
 * once the spin ends, both are both — also when waited for in poll.
 */
static void test_poll_busy(int fd)
{
	uint32_t batch = create(fd, 4096), target = create(fd, 4096), spin_dw;
	struct gen3_exec x = { .batch = batch, .handles = &target, .n = 1 };
	struct drm_i915_gem_mmap mm = { .handle = batch, .size = 4096 };
	struct gen3_batch b;
	struct pollfd mix[2];
	int pt, pb, pipefd[2];
	uint32_t *bmap;

	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, target, 0, 1);
	spin_dw = b.len;
	gen3_emit_spin(&b, batch);
	gen3_batch_end(&b);
	gt_assert_eq(gen3_batch_submit(xioctl, fd, &b, &x, NULL), 0);
	gt_assert_eq(ioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &mm), 0);
	bmap = (uint32_t *)(uintptr_t)mm.addr_ptr;

	pt = export(fd, target);
	pb = export(fd, batch);
	gt_assert_eq(poll_one(pt, POLLIN, 0), 0);
	gt_assert_eq(poll_one(pt, POLLOUT, 0), 0);
	gt_assert_eq(poll_one(pb, POLLIN, 0), POLLIN);
	gt_assert_eq(poll_one(pb, POLLOUT, 0), 0);
	/* Mixed with a readable pipe: only the pipe is ready. */
	gt_assert_eq(pipe(pipefd), 0);
	gt_assert_eq(write(pipefd[1], "x", 1), 1);
	mix[0] = (struct pollfd){ .fd = pt, .events = POLLOUT };
	mix[1] = (struct pollfd){ .fd = pipefd[0], .events = POLLIN };
	gt_assert_eq(poll(mix, 2, 10), 1);
	gt_assert_eq(mix[0].revents, 0);
	gt_assert_eq(mix[1].revents, POLLIN);

	__atomic_store_n(&bmap[spin_dw], MI_BATCH_BUFFER_END, __ATOMIC_SEQ_CST);
	gt_assert_eq(poll_one(pt, POLLOUT, 10000), POLLOUT);
	gt_assert_eq(poll_one(pt, POLLIN | POLLOUT, 0), POLLIN | POLLOUT);
	gt_assert_eq(poll_one(pb, POLLOUT, 0), POLLOUT);
	munmap(bmap, 4096);
	close(pipefd[0]);
	close(pipefd[1]);
	close(pt);
	close(pb);
}

/*
 * munmap goes through libgem: a tiling change must not map the object
 * again over addresses the program has since used for something else.
 */
static void test_munmap_forgets(int fd)
{
	uint32_t h = create(fd, 16384);
	struct drm_i915_gem_mmap_gtt mg = { .handle = h };
	struct drm_i915_gem_set_tiling st = {
		.handle = h, .tiling_mode = I915_TILING_X, .stride = 512,
	};
	uint8_t *gtt, *anon;

	gt_assert_eq(ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_GTT, &mg), 0);
	gtt = mmap(NULL, 16384, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)mg.offset);
	gt_assert(gtt != MAP_FAILED);
	gt_assert_eq(munmap(gtt, 16384), 0);
	anon = mmap(gtt, 16384, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	gt_assert(anon == gtt);
	memset(anon, 0x77, 16384);
	gt_assert_eq(ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st), 0);
	gt_assert_eq(anon[0], 0x77);
	gt_assert_eq(anon[16383], 0x77);
	munmap(anon, 16384);
}

int main(int argc, char **argv)
{
	int fd;

	preload_test_init(argc, argv);
	fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
	gt_assert(fd >= 0);

	gemtest_subtest("dma-buf-llseek")
		test_llseek(fd);
	gemtest_subtest("dma-buf-mmap-bounds")
		test_mmap_bounds(fd);
	gemtest_subtest("dma-buf-sync-flags")
		test_sync_flags(fd);
	gemtest_subtest("dma-buf-poll-busy")
		test_poll_busy(fd);
	gemtest_subtest("munmap-forgets-the-mapping")
		test_munmap_forgets(fd);
	close(fd);
	return gemtest_exit();
}
