/*
 * gem_tiling: SET_TILING/GET_TILING (gen3 i915_tiling_ok: strides are
 * powers of two from the tile width, 512 B for X and 128 B for Y on a
 * 945G, up to 8 KiB; no bit-6 swizzling), and blits into and out of
 * X- and Y-tiled surfaces through a fence, checked byte for byte against
 * the 945G tile layout.
 */
#include <stdlib.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

static int set_tiling(int fd, uint32_t handle, uint32_t mode, uint32_t stride,
		      struct drm_i915_gem_set_tiling *out)
{
	struct drm_i915_gem_set_tiling st = {
		.handle = handle, .tiling_mode = mode, .stride = stride,
		.swizzle_mode = 0xdead,
	};
	int ret = gem_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st);

	if (out)
		*out = st;
	return ret;
}

static void get_tiling(int fd, uint32_t handle, uint32_t *mode, uint32_t *swizzle)
{
	struct drm_i915_gem_get_tiling gt = { .handle = handle, .tiling_mode = 0xdead,
					      .swizzle_mode = 0xdead };

	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_GET_TILING, &gt), 0);
	*mode = gt.tiling_mode;
	*swizzle = gt.swizzle_mode;
}

static void expect_tiling(int fd, uint32_t handle, uint32_t mode)
{
	uint32_t m, sw;

	get_tiling(fd, handle, &m, &sw);
	gt_assert_eq(m, mode);
	gt_assert_eq(sw, I915_BIT_6_SWIZZLE_NONE);
}

static void test_default(int fd)
{
	uint32_t h = gt_create(fd, 1 << 20);

	expect_tiling(fd, h, I915_TILING_NONE);
	gt_close(fd, h);
}

static void test_good_strides(int fd)
{
	uint32_t h = gt_create(fd, 1 << 20), stride;
	struct drm_i915_gem_set_tiling st;

	for (stride = 512; stride <= 8192; stride <<= 1) {
		gt_assert_eq(set_tiling(fd, h, I915_TILING_X, stride, &st), 0);
		gt_assert_eq(st.tiling_mode, I915_TILING_X);
		gt_assert_eq(st.stride, stride);
		gt_assert_eq(st.swizzle_mode, I915_BIT_6_SWIZZLE_NONE);
		expect_tiling(fd, h, I915_TILING_X);
	}
	for (stride = 128; stride <= 8192; stride <<= 1) {
		gt_assert_eq(set_tiling(fd, h, I915_TILING_Y, stride, &st), 0);
		gt_assert_eq(st.tiling_mode, I915_TILING_Y);
		gt_assert_eq(st.stride, stride);
		gt_assert_eq(st.swizzle_mode, I915_BIT_6_SWIZZLE_NONE);
		expect_tiling(fd, h, I915_TILING_Y);
	}
	gt_assert_eq(set_tiling(fd, h, I915_TILING_NONE, 0, &st), 0);
	gt_assert_eq(st.tiling_mode, I915_TILING_NONE);
	gt_assert_eq(st.swizzle_mode, I915_BIT_6_SWIZZLE_NONE);
	expect_tiling(fd, h, I915_TILING_NONE);
	gt_close(fd, h);
}

static void test_bad_strides(int fd)
{
	static const struct { uint32_t mode, stride; } bad[] = {
		{ I915_TILING_X, 100 },		/* not a multiple of the tile */
		{ I915_TILING_X, 1536 },	/* not a power of two */
		{ I915_TILING_X, 256 },		/* narrower than an X tile */
		{ I915_TILING_X, 0 },
		{ I915_TILING_X, 16384 },	/* over 8 KiB */
		{ I915_TILING_Y, 9000 },
		{ I915_TILING_Y, 64 },		/* narrower than a Y tile */
		{ I915_TILING_Y, 384 },
		{ I915_TILING_Y, 16384 },
	};
	uint32_t h = gt_create(fd, 1 << 20);
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		gt_assert_f(set_tiling(fd, h, bad[i].mode, bad[i].stride, NULL) == -1 &&
			    errno == EINVAL, "mode %u stride %u: expected EINVAL, got %s",
			    bad[i].mode, bad[i].stride, strerror(errno));
		expect_tiling(fd, h, I915_TILING_NONE);
	}
	/* A failed change leaves the old tiling in place. */
	gt_assert_eq(set_tiling(fd, h, I915_TILING_X, 2048, NULL), 0);
	gt_assert_errno(set_tiling(fd, h, I915_TILING_Y, 9000, NULL), EINVAL);
	expect_tiling(fd, h, I915_TILING_X);

	gt_assert_errno(set_tiling(fd, h, 7, 512, NULL), EINVAL);
	gt_close(fd, h);
}

static void test_bad_handle(int fd)
{
	struct drm_i915_gem_get_tiling gt = { .handle = 0x7ffff };

	gt_assert_errno(set_tiling(fd, 0x7ffff, I915_TILING_X, 512, NULL), ENOENT);
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_GET_TILING, &gt), ENOENT);
}

/* A 32 bpp surface of stride bytes and rows rows (whole tile rows). */
static struct gen3_surf tiled_surf(int fd, uint32_t tiling, uint32_t stride,
				 uint32_t rows)
{
	struct gen3_surf s = {
		.pitch = stride, .cpp = 4, .tiling = tiling,
		.size = (uint64_t)stride * rows,
	};

	s.handle = gt_create(fd, s.size);
	if (tiling != I915_TILING_NONE)
		gt_assert_eq(set_tiling(fd, s.handle, tiling, stride, NULL), 0);
	return s;
}

/* PREAD sees the raw (tiled) bytes: compare them all with the reference. */
static void check_raw(int fd, const struct gen3_surf *s, const uint8_t *ref)
{
	uint8_t *got = malloc(s->size);
	uint64_t i;

	gt_assert(got);
	gt_read(fd, s->handle, 0, got, s->size);
	for (i = 0; i < s->size; i++) {
		uint8_t g = got[i];

		if (g == ref[i])
			continue;
		free(got);
		gt_assert_f(0, "tiling %u stride %u: raw byte %" PRIu64
			    " (tile %" PRIu64 ", offset %" PRIu64 " in it): got "
			    "0x%02x, expected 0x%02x", s->tiling, s->pitch, i,
			    i / 4096, i % 4096, g, ref[i]);
	}
	free(got);
}

static const uint64_t fenced[2] = { EXEC_OBJECT_NEEDS_FENCE, EXEC_OBJECT_NEEDS_FENCE };

/* A fill with the destination tiled: each pixel at its tiled offset. */
static void test_fill_tiled(int fd, uint32_t tiling, uint32_t stride, uint32_t rows)
{
	struct gen3_surf dst = tiled_surf(fd, tiling, stride, rows);
	uint32_t w = stride / 4, batch = gt_create(fd, 4096);
	uint8_t *ref = gt_upload_pattern(fd, dst.handle, dst.size, tiling * 1000 + stride);
	struct gen3_rect r[3] = {
		{ 1, 1, (int)w - 3, (int)rows - 2 },
		{ 0, 0, 1, 1 },
		{ (int)w - 1, (int)rows - 1, (int)w, (int)rows },
	};
	static const uint32_t color[3] = { 0x01020304, 0xa0b0c0d0, 0x55aa55aa };
	struct gen3_batch b;
	int i;

	gen3_batch_reset(&b);
	for (i = 0; i < 3; i++) {
		gen3_emit_color_blt(&b, &dst, &r[i], color[i]);
		gt_ref_color_blt(ref, &dst, &r[i], color[i], 0xf);
	}
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &dst.handle, fenced, 1, 0, NULL), 0);
	check_raw(fd, &dst, ref);

	/* One pixel, spelled out: (x, y) lands at the tile layout's offset. */
	{
		uint32_t x = w - 2, y = rows - 3, px = 0;
		struct gen3_rect one = { (int)x, (int)y, (int)x + 1, (int)y + 1 };

		gen3_batch_reset(&b);
		gen3_emit_color_blt(&b, &dst, &one, 0xcafef00d);
		gen3_batch_end(&b);
		gt_assert_eq(gt_execbuf(fd, &b, batch, &dst.handle, fenced, 1, 0, NULL), 0);
		gt_read(fd, dst.handle, gt_tiled_offset(tiling, stride, x * 4, y), &px, 4);
		gt_assert_eq(px, 0xcafef00d);
	}
	free(ref);
	gt_close(fd, batch);
	gt_close(fd, dst.handle);
}

/*
 * Linear to tiled and back: copy a linear pattern into a tiled surface
 * (dst tiled), check its raw layout, then copy it out again (src tiled)
 * into a second linear surface, which must match the first in the rect.
 */
static void test_copy_tiled(int fd, uint32_t tiling, uint32_t stride, uint32_t rows)
{
	struct gen3_surf lin = tiled_surf(fd, I915_TILING_NONE, stride, rows);
	struct gen3_surf til = tiled_surf(fd, tiling, stride, rows);
	struct gen3_surf out = tiled_surf(fd, I915_TILING_NONE, stride, rows);
	uint32_t batch = gt_create(fd, 4096), w = stride / 4, h[2];
	uint8_t *rlin = gt_upload_pattern(fd, lin.handle, lin.size, 1);
	uint8_t *rtil = gt_upload_pattern(fd, til.handle, til.size, 2);
	uint8_t *rout = gt_upload_pattern(fd, out.handle, out.size, 3);
	uint64_t flags[2] = { 0, 0 };
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_emit_copy_blt(&b, &til, 2, 3, &lin, 5, 1, (int)w - 7, (int)rows - 4);
	gen3_batch_end(&b);
	h[0] = til.handle;
	h[1] = lin.handle;
	flags[0] = EXEC_OBJECT_NEEDS_FENCE;
	flags[1] = 0;
	gt_assert_eq(gt_execbuf(fd, &b, batch, h, flags, 2, 0, NULL), 0);
	gt_ref_copy_blt(rtil, &til, 2, 3, rlin, &lin, 5, 1, (int)w - 7, (int)rows - 4);
	check_raw(fd, &til, rtil);

	gen3_batch_reset(&b);
	gen3_emit_copy_blt(&b, &out, 0, 0, &til, 0, 0, (int)w, (int)rows);
	gen3_batch_end(&b);
	h[0] = out.handle;
	h[1] = til.handle;
	flags[0] = 0;
	flags[1] = EXEC_OBJECT_NEEDS_FENCE;
	gt_assert_eq(gt_execbuf(fd, &b, batch, h, flags, 2, 0, NULL), 0);
	gt_ref_copy_blt(rout, &out, 0, 0, rtil, &til, 0, 0, (int)w, (int)rows);
	check_raw(fd, &out, rout);
	check_raw(fd, &lin, rlin);

	free(rlin);
	free(rtil);
	free(rout);
	gt_close(fd, batch);
	gt_close(fd, lin.handle);
	gt_close(fd, til.handle);
	gt_close(fd, out.handle);
}

/* The layout itself, against hand-computed offsets. */
static void test_layout_formula(void)
{
	/* X: 512 B x 8 rows; stride 2048 = 4 tiles across. */
	gt_assert_eq(gt_tiled_offset(I915_TILING_X, 2048, 0, 0), 0);
	gt_assert_eq(gt_tiled_offset(I915_TILING_X, 2048, 511, 0), 511);
	gt_assert_eq(gt_tiled_offset(I915_TILING_X, 2048, 512, 0), 4096);
	gt_assert_eq(gt_tiled_offset(I915_TILING_X, 2048, 0, 1), 512);
	gt_assert_eq(gt_tiled_offset(I915_TILING_X, 2048, 4, 7), 7 * 512 + 4);
	gt_assert_eq(gt_tiled_offset(I915_TILING_X, 2048, 0, 8), 4 * 4096);
	gt_assert_eq(gt_tiled_offset(I915_TILING_X, 2048, 1030, 9), 6 * 4096 + 512 + 6);
	/* Y: 128 B x 32 rows of 16-byte columns; stride 512 = 4 tiles. */
	gt_assert_eq(gt_tiled_offset(I915_TILING_Y, 512, 15, 0), 15);
	gt_assert_eq(gt_tiled_offset(I915_TILING_Y, 512, 16, 0), 512);
	gt_assert_eq(gt_tiled_offset(I915_TILING_Y, 512, 0, 1), 16);
	gt_assert_eq(gt_tiled_offset(I915_TILING_Y, 512, 0, 31), 31 * 16);
	gt_assert_eq(gt_tiled_offset(I915_TILING_Y, 512, 127, 31), 7 * 512 + 31 * 16 + 15);
	gt_assert_eq(gt_tiled_offset(I915_TILING_Y, 512, 128, 0), 4096);
	gt_assert_eq(gt_tiled_offset(I915_TILING_Y, 512, 0, 32), 4 * 4096);
	gt_assert_eq(gt_tiled_offset(I915_TILING_Y, 512, 200, 33),
		     5 * 4096 + 4 * 512 + 16 + 8);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 120);

	gemtest_subtest("tiled-layout-formula")
		test_layout_formula();
	gemtest_subtest("get-tiling-default-none")
		test_default(fd);
	gemtest_subtest("set-tiling-good-strides")
		test_good_strides(fd);
	gemtest_subtest("set-tiling-bad-strides-einval")
		test_bad_strides(fd);
	gemtest_subtest("tiling-unknown-handle-enoent")
		test_bad_handle(fd);
	gemtest_subtest("fill-x-tiled-stride-512")
		test_fill_tiled(fd, I915_TILING_X, 512, 64);
	gemtest_subtest("fill-x-tiled-stride-2048")
		test_fill_tiled(fd, I915_TILING_X, 2048, 40);
	gemtest_subtest("fill-y-tiled-stride-128")
		test_fill_tiled(fd, I915_TILING_Y, 128, 96);
	gemtest_subtest("fill-y-tiled-stride-512")
		test_fill_tiled(fd, I915_TILING_Y, 512, 64);
	gemtest_subtest("copy-x-tiled")
		test_copy_tiled(fd, I915_TILING_X, 1024, 48);
	gemtest_subtest("copy-y-tiled")
		test_copy_tiled(fd, I915_TILING_Y, 256, 96);

	gem_close(fd);
	return gemtest_exit();
}
