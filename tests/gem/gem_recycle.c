/*
 * gem_recycle: a freed object's range that nobody mapped is kept with its
 * pages for the next object of its size (backing.c), instead of being
 * punched and faulted in again.  What the kernel promises must not change:
 * a new object reads as zeros, whoever's pages it gets; and until someone
 * touches it, it has no pages, so MADVISE(DONTNEED) purges it at once
 * (retained 0), while one that was written is kept (retained 1).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

static const uint64_t sizes[] = { 4096, 64 << 10, 1 << 20, 4 << 20 };

static uint32_t madv(int fd, uint32_t handle, uint32_t how)
{
	struct drm_i915_gem_madvise arg = {
		.handle = handle, .madv = how, .retained = 0xdead,
	};

	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_MADVISE, &arg), 0);
	return arg.retained;
}

/* Bytes of handle's first size bytes that are not zero, read by pread
 * (cpu false) or through a CPU map. */
static size_t nonzero(int fd, uint32_t handle, uint64_t size, bool cpu)
{
	uint8_t *buf = malloc(size), *map = NULL;
	size_t i, bad = 0;

	gt_assert(buf);
	if (cpu) {
		map = gt_mmap_cpu(fd, handle, 0, size);
		memcpy(buf, map, size);
		munmap(map, size);
	} else {
		gt_read(fd, handle, 0, buf, size);
	}
	for (i = 0; i < size; i++)
		bad += buf[i] != 0;
	free(buf);
	return bad;
}

/* Written, closed, created again at that size (the same range, if gemd
 * recycles): zeros, by pread and through a map. */
static void test_reads_zero(int fd)
{
	size_t i;
	int round;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (round = 0; round < 3; round++) {
			uint32_t h = gt_create(fd, sizes[i]);

			gt_assert_eq(nonzero(fd, h, sizes[i], round == 2), 0);
			free(gt_upload_pattern(fd, h, sizes[i], (uint32_t)(i * 3 + round)));
			gt_close(fd, h);
		}
	}
}

/* Another file's freed pages never show, even zeroed ones are its own. */
static void test_other_file(int fd)
{
	int other = gt_open();
	uint32_t h = gt_create(fd, 1 << 20), o;

	free(gt_upload_pattern(fd, h, 1 << 20, 77));
	gt_close(fd, h);
	o = gt_create(other, 1 << 20);
	gt_assert_eq(nonzero(other, o, 1 << 20, false), 0);
	gt_close(other, o);
	gem_close(other);
}

/* A recycled object nobody touched has no pages: DONTNEED purges it at
 * once, as on a fresh one; written first, it keeps them. */
static void test_fresh_has_no_pages(int fd)
{
	uint32_t h, v = 1;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		h = gt_create(fd, sizes[i]);
		free(gt_upload_pattern(fd, h, sizes[i], 5));
		gt_close(fd, h);

		h = gt_create(fd, sizes[i]);
		gt_assert_eq(madv(fd, h, I915_MADV_DONTNEED), 0);
		gt_assert_eq(madv(fd, h, I915_MADV_WILLNEED), 0);
		gt_close(fd, h);

		h = gt_create(fd, sizes[i]);
		free(gt_upload_pattern(fd, h, sizes[i], 6));
		gt_close(fd, h);
		h = gt_create(fd, sizes[i]);
		gt_write(fd, h, 0, &v, sizeof(v));
		gt_assert_eq(madv(fd, h, I915_MADV_DONTNEED), 1);
		gt_assert_eq(madv(fd, h, I915_MADV_WILLNEED), 1);
		gt_close(fd, h);
	}
}

/* Many sizes freed and taken in turn: each new object zero, each kept
 * one intact (a recycled range handed out twice would break both). */
static void test_churn(int fd)
{
	enum { N = 96 };
	uint32_t h[N], seeds[N], seed = 1;
	uint64_t sz[N];
	size_t bad;
	uint8_t *buf;
	int i, round;

	for (i = 0; i < N; i++) {
		sz[i] = (uint64_t)(1 + gt_rand(&seed) % 16) << 12;
		h[i] = gt_create(fd, sz[i]);
		seeds[i] = (uint32_t)i;
		free(gt_upload_pattern(fd, h[i], sz[i], seeds[i]));
	}
	for (round = 1; round <= 4; round++) {
		for (i = round % 2; i < N; i += 2) {
			gt_close(fd, h[i]);
			h[i] = gt_create(fd, sz[i]);
			gt_assert_eq(nonzero(fd, h[i], sz[i], false), 0);
			seeds[i] = (uint32_t)(round * N + i);
			free(gt_upload_pattern(fd, h[i], sz[i], seeds[i]));
		}
		for (i = 0; i < N; i++) {
			buf = malloc(sz[i]);
			gt_assert(buf);
			gt_read(fd, h[i], 0, buf, sz[i]);
			gt_assert_f(gt_check_pattern(buf, sz[i], seeds[i], &bad),
				    "object %d, round %d: byte %zu", i, round, bad);
			free(buf);
		}
	}
	for (i = 0; i < N; i++)
		gt_close(fd, h[i]);
}

int main(int argc, char **argv)
{
	int fd = gt_start(argc, argv, NULL, 120);

	gemtest_subtest("new-object-reads-zero")
		test_reads_zero(fd);
	gemtest_subtest("other-file-sees-zero")
		test_other_file(fd);
	gemtest_subtest("recycled-has-no-pages-until-touched")
		test_fresh_has_no_pages(fd);
	gemtest_subtest("churn-keeps-every-object")
		test_churn(fd);

	gem_close(fd);
	return gemtest_exit();
}
