/*
 * gem_userptr: DRM_IOCTL_I915_GEM_USERPTR as Linux 6.1 has it on a 945G
 * (snooping, no read-only PTEs): the errno of every argument rule, the
 * first use of a range that is not memory, the operations a userptr
 * object refuses, and blits through the program's own pointer — the
 * object and the pointer are one memory, neighbours are left alone, and
 * the memory outlives the object with its last contents.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

#define PAGE		4096u
#define W		(PAGE / 4)	/* pixels of 4 bytes: one page a row */
#define ROWS		4
#define SURF_SIZE	(PAGE * ROWS)

static int __userptr(int fd, void *ptr, uint64_t size, uint32_t flags,
		     uint32_t *handle)
{
	struct drm_i915_gem_userptr arg = {
		.user_ptr = (uint64_t)(uintptr_t)ptr,
		.user_size = size,
		.flags = flags,
	};
	int ret = gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_USERPTR, &arg);

	if (!ret && handle)
		*handle = arg.handle;
	if (!ret && !handle) {
		struct drm_gem_close c = { .handle = arg.handle };

		gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_GEM_CLOSE, &c), 0);
	}
	return ret;
}

static uint32_t userptr(int fd, void *ptr, uint64_t size)
{
	uint32_t handle = 0;

	gt_assert_eq(__userptr(fd, ptr, size, 0, &handle), 0);
	gt_assert(handle != 0);
	return handle;
}

static void *map_pages(unsigned int n)
{
	void *p = mmap(NULL, (size_t)n * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	gt_assert(p != MAP_FAILED);
	return p;
}

static struct gen3_surf surf(uint32_t handle)
{
	struct gen3_surf s = {
		.handle = handle, .pitch = PAGE, .cpp = 4,
		.tiling = I915_TILING_NONE, .size = SURF_SIZE,
	};

	return s;
}

/* XY_SRC_COPY_BLT of the whole surface, src to dst: 0 or -errno. */
static int copy(int fd, uint32_t dst, uint32_t src)
{
	struct gen3_surf d = surf(dst), s = surf(src);
	uint32_t batch = gt_create(fd, PAGE), handles[2] = { dst, src };
	struct gen3_batch b;
	int ret;

	gen3_batch_reset(&b);
	gen3_emit_copy_blt(&b, &d, 0, 0, &s, 0, 0, W, ROWS);
	gen3_batch_end(&b);
	ret = gt_execbuf(fd, &b, batch, handles, NULL, 2, 0, NULL);
	gt_close(fd, batch);
	return ret;
}

/* The GPU is done with handle: all the kernel needs before the CPU looks
 * at a snooped object (no domain change). */
static void wait_idle(int fd, uint32_t handle)
{
	int64_t timeout = -1;

	gt_assert_eq(__gt_wait(fd, handle, &timeout), 0);
}

static void test_args(int fd)
{
	uint8_t *p = map_pages(2);

	/* i915_gem_userptr_ioctl's order: flags, size, alignment,
	 * access_ok, then the features a gen3 GGTT lacks. */
	gt_assert_eq(__userptr(fd, p, PAGE, 0x4, NULL), -EINVAL);
	gt_assert_eq(__userptr(fd, NULL, 0, ~0u, NULL), -EINVAL);
	gt_assert_eq(__userptr(fd, NULL, ~0ull, ~0u, NULL), -EINVAL);
	gt_assert_eq(__userptr(fd, NULL, ~0ull, 0, NULL), -E2BIG);
	gt_assert_eq(__userptr(fd, p, 1ull << 44, 0, NULL), -E2BIG);
	gt_assert_eq(__userptr(fd, p, 0, 0, NULL), -EINVAL);
	gt_assert_eq(__userptr(fd, p + 1, PAGE, 0, NULL), -EINVAL);
	gt_assert_eq(__userptr(fd, p, PAGE - 1, 0, NULL), -EINVAL);
	gt_assert_eq(__userptr(fd, p + 1, PAGE - 1, 0, NULL), -EINVAL);
	/* access_ok: past the top of the user address space */
	gt_assert_eq(__userptr(fd, (void *)(uintptr_t)0x00007ffffffff000ull,
			       2 * PAGE, 0, NULL), -EFAULT);
	gt_assert_eq(__userptr(fd, (void *)(uintptr_t)0xfffffffffffff000ull,
			       PAGE, 0, NULL), -EFAULT);
	gt_assert_eq(__userptr(fd, p, PAGE, I915_USERPTR_UNSYNCHRONIZED, NULL),
		     -ENODEV);
	gt_assert_eq(__userptr(fd, p, PAGE, I915_USERPTR_READ_ONLY, NULL),
		     -ENODEV);
	/* access_ok comes first */
	gt_assert_eq(__userptr(fd, (void *)(uintptr_t)0xfffffffffffff000ull,
			       PAGE, I915_USERPTR_READ_ONLY, NULL), -EFAULT);
	/* NULL is a user address like any other until first use */
	gt_assert_eq(__userptr(fd, NULL, PAGE, 0, NULL), 0);
	gt_assert_eq(__userptr(fd, p, 2 * PAGE, 0, NULL), 0);
	munmap(p, 2 * PAGE);
}

static void test_probe(int fd)
{
	uint8_t *p = map_pages(3);
	uint32_t bo = gt_create(fd, PAGE);
	void *gtt;

	gt_assert_eq(gt_getparam(fd, I915_PARAM_HAS_USERPTR_PROBE), 1);
	gt_assert_eq(__userptr(fd, p, 3 * PAGE, I915_USERPTR_PROBE, NULL), 0);
	/* a hole in the middle */
	gt_assert_eq(munmap(p + PAGE, PAGE), 0);
	gt_assert_eq(__userptr(fd, p, 3 * PAGE, I915_USERPTR_PROBE, NULL), -EFAULT);
	gt_assert_eq(__userptr(fd, p, PAGE, I915_USERPTR_PROBE, NULL), 0);
	/* without PROBE the hole waits for first use */
	gt_assert_eq(__userptr(fd, p, 3 * PAGE, 0, NULL), 0);
	/* a GTT map of an object is not memory get_user_pages takes */
	gtt = gt_mmap_gtt(fd, bo, PAGE);
	gt_assert_eq(__userptr(fd, gtt, PAGE, I915_USERPTR_PROBE, NULL), -EFAULT);
	gem_munmap(gtt, PAGE);
	gem_munmap(p, PAGE);
	gem_munmap(p + 2 * PAGE, PAGE);
	gt_close(fd, bo);
}

/* A range that is not memory at first use: -EFAULT from every use. */
static void test_first_use(int fd)
{
	uint8_t *p = map_pages(ROWS);
	uint32_t bo = gt_create(fd, SURF_SIZE), h;
	uint8_t byte;

	gem_munmap(p, SURF_SIZE);
	h = userptr(fd, p, SURF_SIZE);
	gt_assert_eq(__gt_set_domain(fd, h, I915_GEM_DOMAIN_CPU, 0), -EFAULT);
	gt_assert_eq(__gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT,
				     I915_GEM_DOMAIN_GTT), -EFAULT);
	gt_assert_eq(__gt_read(fd, h, 0, &byte, 1), -EFAULT);
	gt_assert_eq(copy(fd, bo, h), -EFAULT);
	gt_assert_eq(copy(fd, h, bo), -EFAULT);
	gt_close(fd, h);

	/* A read-only range is no use for a writable object either. */
	p = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	gt_assert(p != MAP_FAILED);
	h = userptr(fd, p, PAGE);
	gt_assert_eq(__gt_set_domain(fd, h, I915_GEM_DOMAIN_CPU, 0), -EFAULT);
	gt_close(fd, h);
	gem_munmap(p, PAGE);
	gt_close(fd, bo);
}

static void test_refused(int fd)
{
	uint8_t *p = map_pages(1);
	uint32_t h = userptr(fd, p, PAGE);
	struct drm_i915_gem_mmap mm = { .handle = h, .size = PAGE };
	struct drm_i915_gem_mmap_offset mo = { .handle = h,
					       .flags = I915_MMAP_OFFSET_GTT };
	struct drm_i915_gem_set_tiling st = { .handle = h,
					      .tiling_mode = I915_TILING_X,
					      .stride = 512 };
	struct drm_i915_gem_caching c = { .handle = h };
	struct drm_prime_handle ph = { .handle = h, .flags = DRM_CLOEXEC };

	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_MMAP, &mm), -ENXIO);
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo),
		     -ENODEV);
	mo.flags = I915_MMAP_OFFSET_WB;
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo),
		     -ENODEV);
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st),
		     -ENXIO);
	st.tiling_mode = I915_TILING_NONE;
	st.stride = 0;
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st),
		     -ENXIO);
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_GET_CACHING, &c), 0);
	gt_assert_eq(c.caching, I915_CACHING_CACHED);
	c.caching = I915_CACHING_NONE;
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_SET_CACHING, &c),
		     -ENXIO);
	c.caching = I915_CACHING_CACHED;
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_SET_CACHING, &c), 0);
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph),
		     -EINVAL);
	gt_close(fd, h);
	gem_munmap(p, PAGE);
}

/* pread and pwrite work on a userptr object, on the user's pages. */
static void test_rw(int fd)
{
	uint8_t *p = map_pages(1), buf[64];
	uint32_t h;

	memset(p, 0x5a, PAGE);
	h = userptr(fd, p, PAGE);
	gt_read(fd, h, 100, buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		gt_assert_eq(buf[i], 0x5a);
	memset(buf, 0xc3, sizeof(buf));
	gt_write(fd, h, 200, buf, sizeof(buf));
	gt_assert_eq(p[199], 0x5a);
	gt_assert_eq(p[200], 0xc3);
	gt_assert_eq(p[263], 0xc3);
	gt_assert_eq(p[264], 0x5a);
	gt_close(fd, h);
	gem_munmap(p, PAGE);
}

/* The GPU reads what the program wrote through its own pointer, and the
 * program reads what the GPU wrote, with no domain change. */
static void test_blits(int fd)
{
	uint8_t *p = map_pages(ROWS), *ref = malloc(SURF_SIZE), *got = malloc(SURF_SIZE);
	uint32_t bo = gt_create(fd, SURF_SIZE), h;
	size_t bad;

	gt_assert(ref && got);
	gt_fill_pattern(p, SURF_SIZE, 11);
	h = userptr(fd, p, SURF_SIZE);
	/* written after GEM_USERPTR, before first use: the GPU sees it */
	p[5] = 0xee;
	gt_assert_eq(copy(fd, bo, h), 0);
	gt_read(fd, bo, 0, got, SURF_SIZE);
	gt_fill_pattern(ref, SURF_SIZE, 11);
	ref[5] = 0xee;
	gt_assert(memcmp(got, ref, SURF_SIZE) == 0);

	free(gt_upload_pattern(fd, bo, SURF_SIZE, 12));
	gt_assert_eq(copy(fd, h, bo), 0);
	wait_idle(fd, h);
	gt_assert(gt_check_pattern(p, SURF_SIZE, 12, &bad));

	/* a write through the pointer reaches the GPU at once */
	memset(p, 0x77, SURF_SIZE);
	gt_assert_eq(copy(fd, bo, h), 0);
	gt_read(fd, bo, 0, got, SURF_SIZE);
	memset(ref, 0x77, SURF_SIZE);
	gt_assert(memcmp(got, ref, SURF_SIZE) == 0);

	free(ref);
	free(got);
	gt_close(fd, h);
	gt_close(fd, bo);
	gem_munmap(p, SURF_SIZE);
}

/* A userptr page in the middle of the heap: the GPU writes it, and
 * neither the pages around it nor later allocations are touched. */
static void test_neighbours(int fd)
{
	uint8_t *heap, *page, *later[8];
	uint32_t bo = gt_create(fd, SURF_SIZE), h;
	size_t bad, i;

	gt_assert_eq(posix_memalign((void **)&heap, PAGE, (ROWS + 2) * PAGE), 0);
	gt_fill_pattern(heap, (ROWS + 2) * PAGE, 21);
	page = heap + PAGE;
	h = userptr(fd, page, SURF_SIZE);
	for (i = 0; i < 8; i++) {
		later[i] = malloc(100 + 700 * i);
		gt_assert(later[i]);
		memset(later[i], 0x30 + (int)i, 100 + 700 * i);
	}
	free(gt_upload_pattern(fd, bo, SURF_SIZE, 22));
	gt_assert_eq(copy(fd, h, bo), 0);
	wait_idle(fd, h);
	gt_assert(gt_check_pattern(page, SURF_SIZE, 22, &bad));
	/* the page before and the one after are as the program left them */
	{
		uint8_t *ref = malloc((ROWS + 2) * PAGE);

		gt_assert(ref);
		gt_fill_pattern(ref, (ROWS + 2) * PAGE, 21);
		gt_assert(memcmp(heap, ref, PAGE) == 0);
		gt_assert(memcmp(heap + (ROWS + 1) * PAGE,
				 ref + (ROWS + 1) * PAGE, PAGE) == 0);
		free(ref);
	}
	for (i = 0; i < 8; i++) {
		for (size_t j = 0; j < 100 + 700 * i; j++)
			gt_assert_eq(later[i][j], 0x30 + (int)i);
		free(later[i]);
	}
	gt_close(fd, h);
	gt_close(fd, bo);
	free(heap);
}

/* GEM_CLOSE leaves the program's memory with the GPU's last writes. */
static void test_close(int fd)
{
	uint8_t *p = map_pages(ROWS);
	uint32_t bo = gt_create(fd, SURF_SIZE), h;
	size_t bad;

	h = userptr(fd, p, SURF_SIZE);
	free(gt_upload_pattern(fd, bo, SURF_SIZE, 31));
	gt_assert_eq(copy(fd, h, bo), 0);
	gt_close(fd, h);	/* the kernel waits for nothing here */
	gt_close(fd, bo);
	/* gemd's next objects must not land on these pages */
	h = gt_create(fd, SURF_SIZE);
	free(gt_upload_pattern(fd, h, SURF_SIZE, 32));
	gt_close(fd, h);
	gt_assert(gt_check_pattern(p, SURF_SIZE, 31, &bad));
	memset(p, 0x11, SURF_SIZE);
	gt_assert_eq(p[SURF_SIZE - 1], 0x11);
	gem_munmap(p, SURF_SIZE);
}

/* munmap invalidates the object as the MMU notifier does: -EFAULT while
 * nothing is there, the new memory once something is. */
static void test_unmap(int fd)
{
	uint8_t *p = map_pages(ROWS), *q, *got = malloc(SURF_SIZE);
	uint32_t bo = gt_create(fd, SURF_SIZE), h;
	size_t bad;

	gt_assert(got);
	gt_fill_pattern(p, SURF_SIZE, 41);
	h = userptr(fd, p, SURF_SIZE);
	gt_assert_eq(copy(fd, bo, h), 0);
	gt_assert_eq(gem_munmap(p, SURF_SIZE), 0);
	gt_assert_eq(copy(fd, bo, h), -EFAULT);
	gt_assert_eq(copy(fd, h, bo), -EFAULT);
	q = mmap(p, SURF_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	gt_assert(q == p);
	gt_fill_pattern(q, SURF_SIZE, 42);
	gt_assert_eq(copy(fd, bo, h), 0);
	gt_read(fd, bo, 0, got, SURF_SIZE);
	gt_assert(gt_check_pattern(got, SURF_SIZE, 42, &bad));
	free(got);
	gt_close(fd, h);
	gt_close(fd, bo);
	gem_munmap(q, SURF_SIZE);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 120);

	gemtest_subtest("args")
		test_args(fd);
	gemtest_subtest("probe")
		test_probe(fd);
	gemtest_subtest("first-use-efault")
		test_first_use(fd);
	gemtest_subtest("refused-ops")
		test_refused(fd);
	gemtest_subtest("pread-pwrite")
		test_rw(fd);
	gemtest_subtest("blits-through-pointer")
		test_blits(fd);
	gemtest_subtest("neighbours-untouched")
		test_neighbours(fd);
	gemtest_subtest("close-keeps-memory")
		test_close(fd);
	gemtest_subtest("unmap-invalidates")
		test_unmap(fd);

	gem_close(fd);
	return gemtest_exit();
}
