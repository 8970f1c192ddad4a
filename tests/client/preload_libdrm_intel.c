/*
 * preload_libdrm_intel: Debian's libdrm_intel buffer manager, unmodified,
 * on gemd through the interposer: init, allocation (plain and tiled),
 * subdata, CPU and GTT maps, 2D blits built with emit_reloc and executed
 * with the pixels checked, busy and wait (a spinning batch really is
 * busy), flink across two files, tiling, aperture sizes and the BO reuse
 * cache.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <i915_drm.h>
#include <intel_bufmgr.h>

#include "cmd.h"
#include "gemtest.h"
#include "preload-test.h"

#define W		256
#define H		64
#define PITCH		(W * 4)
#define SIZE		(PITCH * H)

#define XY_BLT_WRITE_ARGB	(XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB)

static int card(void)
{
	int fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);

	gt_assert_f(fd >= 0, "open /dev/dri/card0: %s", strerror(errno));
	return fd;
}

static drm_intel_bufmgr *bufmgr_init(int fd)
{
	drm_intel_bufmgr *b = drm_intel_bufmgr_gem_init(fd, 4096);

	gt_assert(b != NULL);
	return b;
}

static void fill_pattern(uint32_t *p, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = seed * 2654435761u + (uint32_t)i * 0x01000193u;
}

/* A batch: dwords and the relocations libdrm is told about. */
struct batch {
	drm_intel_bo *bo;
	uint32_t dw[64];
	unsigned int n;
};

static void emit(struct batch *b, uint32_t v)
{
	b->dw[b->n++] = v;
}

static void emit_reloc(struct batch *b, drm_intel_bo *target, uint32_t delta,
		       uint32_t write)
{
	gt_assert_eq(drm_intel_bo_emit_reloc(b->bo, b->n * 4, target, delta,
					     I915_GEM_DOMAIN_RENDER, write), 0);
	emit(b, (uint32_t)target->offset64 + delta);
}

static void submit(struct batch *b)
{
	emit(b, MI_BATCH_BUFFER_END);
	if (b->n & 1)
		emit(b, 0);
	gt_assert_eq(drm_intel_bo_subdata(b->bo, 0, b->n * 4, b->dw), 0);
	gt_assert_eq(drm_intel_bo_exec(b->bo, b->n * 4, NULL, 0, 0), 0);
}

static void copy_blt(drm_intel_bufmgr *mgr, drm_intel_bo *dst, drm_intel_bo *src)
{
	struct batch b = { .bo = drm_intel_bo_alloc(mgr, "batch", 4096, 4096) };

	gt_assert(b.bo != NULL);
	emit(&b, XY_SRC_COPY_BLT_CMD | XY_BLT_WRITE_ARGB);
	emit(&b, BR13_32BPP | BR13_ROP(ROP_SRCCOPY) | PITCH);
	emit(&b, 0);
	emit(&b, (H << 16) | W);
	emit_reloc(&b, dst, 0, I915_GEM_DOMAIN_RENDER);
	emit(&b, 0);
	emit(&b, PITCH);
	emit_reloc(&b, src, 0, 0);
	submit(&b);
	drm_intel_bo_unreference(b.bo);
}

static void color_blt(drm_intel_bufmgr *mgr, drm_intel_bo *dst, int x1, int y1,
		      int x2, int y2, uint32_t color)
{
	struct batch b = { .bo = drm_intel_bo_alloc(mgr, "batch", 4096, 4096) };

	gt_assert(b.bo != NULL);
	emit(&b, XY_COLOR_BLT_CMD | XY_BLT_WRITE_ARGB);
	emit(&b, BR13_32BPP | BR13_ROP(ROP_PATCOPY) | PITCH);
	emit(&b, ((uint32_t)y1 << 16) | (uint32_t)x1);
	emit(&b, ((uint32_t)y2 << 16) | (uint32_t)x2);
	emit_reloc(&b, dst, 0, I915_GEM_DOMAIN_RENDER);
	emit(&b, color);
	submit(&b);
	drm_intel_bo_unreference(b.bo);
}

int main(int argc, char **argv)
{
	static uint32_t want[SIZE / 4], got[SIZE / 4];
	drm_intel_bufmgr *mgr;
	int fd;

	preload_test_init(argc, argv);
	fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
	mgr = fd >= 0 ? drm_intel_bufmgr_gem_init(fd, 4096) : NULL;

	gemtest_subtest("bufmgr-gem-init") {
		gt_assert(fd >= 0);
		gt_assert(mgr != NULL);
	}
	if (!mgr)
		return gemtest_exit();

	gemtest_subtest("alloc-subdata-get-subdata") {
		drm_intel_bo *bo = drm_intel_bo_alloc(mgr, "a", SIZE, 0);

		gt_assert(bo != NULL);
		gt_assert(bo->size >= SIZE);
		fill_pattern(want, SIZE / 4, 1);
		gt_assert_eq(drm_intel_bo_subdata(bo, 0, SIZE, want), 0);
		memset(got, 0, sizeof(got));
		gt_assert_eq(drm_intel_bo_get_subdata(bo, 0, SIZE, got), 0);
		gt_assert(!memcmp(got, want, SIZE));
		drm_intel_bo_unreference(bo);
	}

	gemtest_subtest("map-write-unmap-read-back") {
		drm_intel_bo *bo = drm_intel_bo_alloc(mgr, "m", SIZE, 0);

		gt_assert(bo != NULL);
		gt_assert_eq(drm_intel_bo_map(bo, 1), 0);
		fill_pattern(want, SIZE / 4, 2);
		memcpy(bo->virtual, want, SIZE);
		gt_assert_eq(drm_intel_bo_unmap(bo), 0);
		gt_assert_eq(drm_intel_bo_get_subdata(bo, 0, SIZE, got), 0);
		gt_assert(!memcmp(got, want, SIZE));
		gt_assert_eq(drm_intel_bo_map(bo, 0), 0);
		gt_assert(!memcmp(bo->virtual, want, SIZE));
		gt_assert_eq(drm_intel_bo_unmap(bo), 0);
		drm_intel_bo_unreference(bo);
	}

	gemtest_subtest("map-gtt") {
		drm_intel_bo *bo = drm_intel_bo_alloc(mgr, "g", SIZE, 0);

		gt_assert(bo != NULL);
		gt_assert_eq(drm_intel_gem_bo_map_gtt(bo), 0);
		fill_pattern(want, SIZE / 4, 3);
		memcpy(bo->virtual, want, SIZE);
		gt_assert_eq(drm_intel_gem_bo_unmap_gtt(bo), 0);
		gt_assert_eq(drm_intel_bo_get_subdata(bo, 0, SIZE, got), 0);
		gt_assert(!memcmp(got, want, SIZE));
		drm_intel_bo_unreference(bo);
	}

	gemtest_subtest("copy-blit-pixels") {
		drm_intel_bo *src = drm_intel_bo_alloc(mgr, "src", SIZE, 0);
		drm_intel_bo *dst = drm_intel_bo_alloc(mgr, "dst", SIZE, 0);

		gt_assert(src && dst);
		fill_pattern(want, SIZE / 4, 4);
		gt_assert_eq(drm_intel_bo_subdata(src, 0, SIZE, want), 0);
		memset(got, 0, sizeof(got));
		gt_assert_eq(drm_intel_bo_subdata(dst, 0, SIZE, got), 0);
		copy_blt(mgr, dst, src);
		drm_intel_bo_wait_rendering(dst);
		gt_assert_eq(drm_intel_bo_busy(dst), 0);
		gt_assert_eq(drm_intel_bo_get_subdata(dst, 0, SIZE, got), 0);
		gt_assert(!memcmp(got, want, SIZE));
		drm_intel_bo_unreference(src);
		drm_intel_bo_unreference(dst);
	}

	gemtest_subtest("color-blit-rectangle") {
		drm_intel_bo *dst = drm_intel_bo_alloc(mgr, "dst", SIZE, 0);
		int x, y;

		gt_assert(dst != NULL);
		memset(want, 0x11, sizeof(want));
		gt_assert_eq(drm_intel_bo_subdata(dst, 0, SIZE, want), 0);
		color_blt(mgr, dst, 8, 4, 40, 20, 0xff00ff00);
		for (y = 4; y < 20; y++)
			for (x = 8; x < 40; x++)
				want[y * W + x] = 0xff00ff00;
		gt_assert_eq(drm_intel_gem_bo_wait(dst, -1), 0);
		gt_assert_eq(drm_intel_bo_map(dst, 0), 0);
		gt_assert(!memcmp(dst->virtual, want, SIZE));
		drm_intel_bo_unmap(dst);
		drm_intel_bo_unreference(dst);
	}

	gemtest_subtest("spinning-batch-is-busy-until-ended") {
		drm_intel_bo *bo = drm_intel_bo_alloc(mgr, "spin", 4096, 4096);
		uint32_t dw[2];
		volatile uint32_t *map;

		gt_assert(bo != NULL);
		/* Map before the GPU owns it: a synchronised map would wait. */
		gt_assert_eq(drm_intel_gem_bo_map_unsynchronized(bo), 0);
		map = bo->virtual;
		gt_assert_eq(drm_intel_bo_emit_reloc(bo, 4, bo, 1,
						     I915_GEM_DOMAIN_COMMAND, 0), 0);
		dw[0] = MI_BATCH_BUFFER_START_GTT;
		dw[1] = (uint32_t)bo->offset64 | 1;
		memcpy((void *)map, dw, sizeof(dw));
		gt_assert_eq(drm_intel_bo_exec(bo, 8, NULL, 0, 0), 0);
		gt_assert(drm_intel_bo_busy(bo) != 0);
		gt_assert_eq(drm_intel_gem_bo_wait(bo, 0), -ETIME);
		gt_assert_eq(drm_intel_gem_bo_wait(bo, 1000000), -ETIME);
		gt_assert(drm_intel_bo_busy(bo) != 0);
		map[0] = MI_BATCH_BUFFER_END;	/* the loop's next pass ends it */
		gt_assert_eq(drm_intel_gem_bo_wait(bo, -1), 0);
		gt_assert_eq(drm_intel_bo_busy(bo), 0);
		drm_intel_gem_bo_unmap_gtt(bo);
		drm_intel_bo_unreference(bo);
	}

	gemtest_subtest("flink-and-open-by-name-in-a-second-file") {
		int fd2 = card();
		drm_intel_bufmgr *mgr2 = bufmgr_init(fd2);
		drm_intel_bo *bo = drm_intel_bo_alloc(mgr, "shared", SIZE, 0), *bo2;
		uint32_t name = 0, v = 0xdeadbeef;

		gt_assert(bo != NULL);
		fill_pattern(want, SIZE / 4, 5);
		gt_assert_eq(drm_intel_bo_subdata(bo, 0, SIZE, want), 0);
		gt_assert_eq(drm_intel_bo_flink(bo, &name), 0);
		gt_assert(name != 0);
		bo2 = drm_intel_bo_gem_create_from_name(mgr2, "shared", name);
		gt_assert(bo2 != NULL);
		gt_assert_eq(bo2->size, bo->size);
		gt_assert_eq(drm_intel_bo_get_subdata(bo2, 0, SIZE, got), 0);
		gt_assert(!memcmp(got, want, SIZE));
		gt_assert_eq(drm_intel_bo_subdata(bo2, 64, 4, &v), 0);
		v = 0;
		gt_assert_eq(drm_intel_bo_get_subdata(bo, 64, 4, &v), 0);
		gt_assert_eq(v, 0xdeadbeef);
		drm_intel_bo_unreference(bo2);
		drm_intel_bufmgr_destroy(mgr2);
		close(fd2);
		drm_intel_bo_unreference(bo);
	}

	gemtest_subtest("tiling-get-set") {
		uint32_t tiling = I915_TILING_X, swizzle = 99;
		unsigned long pitch = 0;
		drm_intel_bo *bo = drm_intel_bo_alloc_tiled(mgr, "t", 512, 64, 4,
							     &tiling, &pitch, 0);

		gt_assert(bo != NULL);
		gt_assert_eq(tiling, I915_TILING_X);
		gt_assert_eq(pitch, 2048);
		tiling = 99;
		gt_assert_eq(drm_intel_bo_get_tiling(bo, &tiling, &swizzle), 0);
		gt_assert_eq(tiling, I915_TILING_X);
		gt_assert(swizzle != 99);
		tiling = I915_TILING_Y;
		gt_assert_eq(drm_intel_bo_set_tiling(bo, &tiling, 2048), 0);
		gt_assert_eq(tiling, I915_TILING_Y);
		tiling = I915_TILING_X;
		gt_assert_eq(drm_intel_bo_set_tiling(bo, &tiling, 1000), -EINVAL);
		tiling = I915_TILING_NONE;
		gt_assert_eq(drm_intel_bo_set_tiling(bo, &tiling, 0), 0);
		gt_assert_eq(tiling, I915_TILING_NONE);
		drm_intel_bo_unreference(bo);
	}

	gemtest_subtest("aperture-sizes") {
		size_t mappable = 0, total = 0;

		gt_assert_eq(drm_intel_get_aperture_sizes(fd, &mappable, &total), 0);
		gt_assert_eq(total, 256u << 20);
		gt_assert(mappable > 0 && mappable <= total);
	}

	gemtest_subtest("reuse-cache-returns-the-same-object") {
		drm_intel_bo *a, *b;
		uint32_t handle;

		drm_intel_bufmgr_gem_enable_reuse(mgr);
		a = drm_intel_bo_alloc(mgr, "r", 8192, 0);
		gt_assert(a != NULL);
		handle = a->handle;
		/* pages, or DONTNEED purges it and libdrm frees it */
		gt_assert_eq(drm_intel_bo_subdata(a, 0, 4, &handle), 0);
		drm_intel_bo_unreference(a);	/* MADV_DONTNEED, into the cache */
		b = drm_intel_bo_alloc(mgr, "r", 8192, 0);
		gt_assert(b != NULL);
		gt_assert_eq(b->handle, handle);
		gt_assert_eq(drm_intel_bo_madvise(b, I915_MADV_DONTNEED), 1);
		gt_assert_eq(drm_intel_bo_madvise(b, I915_MADV_WILLNEED), 1);
		drm_intel_bo_unreference(b);
	}

	gemtest_subtest("context-create-is-enodev-on-gen3") {
		gt_assert(drm_intel_gem_context_create(mgr) == NULL);
	}

	drm_intel_bufmgr_destroy(mgr);
	close(fd);
	return gemtest_exit();
}
