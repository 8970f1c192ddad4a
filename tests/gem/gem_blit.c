/*
 * gem_blit: XY_COLOR_BLT and XY_SRC_COPY_BLT on linear surfaces at 8, 16
 * (565) and 32 bpp.  Every byte of every object is compared with a
 * reference computed here, so pixels outside the rectangles, the pitch
 * padding and the tail of the object must come through untouched.
 */
#include <stdlib.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

#define W	157
#define H	45

static const uint32_t colors[3][4] = {
	/* 8 bpp: only bits 7:0 count */
	{ 0x5a, 0xffffff01, 0x80, 0x12345600 },
	/* 16 bpp: only bits 15:0 count */
	{ 0xf81f, 0xdead07e0, 0x001f, 0xffff0000 },
	{ 0x11223344, 0xff00ff00, 0x00000001, 0xdeadbeef },
};

static int bpp_index(uint32_t cpp)
{
	return cpp == 1 ? 0 : cpp == 2 ? 1 : 2;
}

static struct gen3_surf make_surf(int fd, uint32_t cpp, uint32_t extra_pitch)
{
	struct gen3_surf s;

	s.cpp = cpp;
	s.pitch = ((W * cpp + 63) & ~63u) + extra_pitch;
	s.size = ((uint64_t)s.pitch * H + 4095) & ~4095ull;
	s.tiling = I915_TILING_NONE;
	s.handle = gt_create(fd, s.size);
	return s;
}

/* Compare the whole object with the reference, naming the first pixel off. */
static void check_surface(int fd, const struct gen3_surf *s, const uint8_t *ref)
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
		gt_assert_f(0, "byte %" PRIu64 " (x %" PRIu64 " y %" PRIu64
			    ", pitch %u, cpp %u): got 0x%02x, expected 0x%02x",
			    i, (i % s->pitch) / s->cpp, i / s->pitch, s->pitch,
			    s->cpp, g, ref[i]);
	}
	free(got);
}

static void test_fill(int fd, uint32_t cpp)
{
	static const struct gen3_rect rects[] = {
		{ 3, 2, 100, 40 },	/* large */
		{ 0, 0, 1, 1 },		/* the first pixel */
		{ W - 5, H - 3, W, H },	/* the last pixels */
		{ 50, 0, 51, H },	/* a column */
		{ 0, 20, W, 21 },	/* a row */
	};
	struct gen3_surf dst = make_surf(fd, cpp, 64);
	uint32_t batch = gt_create(fd, 4096);
	uint8_t *ref = gt_upload_pattern(fd, dst.handle, dst.size, 100 + cpp);
	struct gen3_batch b;
	size_t i;

	gen3_batch_reset(&b);
	for (i = 0; i < sizeof(rects) / sizeof(rects[0]); i++) {
		uint32_t color = colors[bpp_index(cpp)][i % 4];

		gen3_emit_color_blt(&b, &dst, &rects[i], color);
		gt_ref_color_blt(ref, &dst, &rects[i], color, 0xf);
	}
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &dst.handle, NULL, 1, 0, NULL), 0);
	check_surface(fd, &dst, ref);

	free(ref);
	gt_close(fd, batch);
	gt_close(fd, dst.handle);
}

static void test_copy(int fd, uint32_t cpp)
{
	static const struct { int sx, sy, dx, dy, w, h; } c[] = {
		{ 5, 7, 20, 3, 100, 30 },
		{ 0, 0, 0, 0, 1, 1 },
		{ W - 10, H - 10, 0, H - 10, 10, 10 },
		{ 0, 0, W - 1, 0, 1, H },
		{ 0, 0, 0, 0, W, H },
	};
	struct gen3_surf src = make_surf(fd, cpp, 0);
	struct gen3_surf dst = make_surf(fd, cpp, 128);
	uint32_t batch = gt_create(fd, 4096), handles[2] = { dst.handle, src.handle };
	uint8_t *sref = gt_upload_pattern(fd, src.handle, src.size, 200 + cpp);
	uint8_t *dref = gt_upload_pattern(fd, dst.handle, dst.size, 300 + cpp);
	size_t i;

	/* One copy per batch, checked each time: the last covers all. */
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct gen3_batch b;

		gen3_batch_reset(&b);
		gen3_emit_copy_blt(&b, &dst, c[i].dx, c[i].dy, &src, c[i].sx,
				 c[i].sy, c[i].w, c[i].h);
		gen3_batch_end(&b);
		gt_assert_eq(gt_execbuf(fd, &b, batch, handles, NULL, 2, 0, NULL), 0);
		gt_ref_copy_blt(dref, &dst, c[i].dx, c[i].dy, sref, &src,
				c[i].sx, c[i].sy, c[i].w, c[i].h);
		check_surface(fd, &dst, dref);
		check_surface(fd, &src, sref);
	}

	free(sref);
	free(dref);
	gt_close(fd, batch);
	gt_close(fd, src.handle);
	gt_close(fd, dst.handle);
}

/* At 32 bpp the write-enable bits pick alpha (byte 3) and RGB (0-2). */
static void test_write_enables(int fd)
{
	static const struct { uint32_t flags, mask; } we[] = {
		{ XY_BLT_WRITE_RGB, 0x7 },
		{ XY_BLT_WRITE_ALPHA, 0x8 },
		{ XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, 0xf },
	};
	struct gen3_surf dst = make_surf(fd, 4, 0);
	uint32_t batch = gt_create(fd, 4096);
	uint8_t *ref = gt_upload_pattern(fd, dst.handle, dst.size, 77);
	size_t i;

	for (i = 0; i < sizeof(we) / sizeof(we[0]); i++) {
		struct gen3_rect r = { 10 * (int)i, 5, 10 * (int)i + 40, 30 };
		uint32_t color = 0xa1b2c3d4 + (uint32_t)i;
		struct gen3_batch b;

		gen3_batch_reset(&b);
		gen3_emit_color_blt_cmd(&b, we[i].flags, &dst, &r, color);
		gen3_batch_end(&b);
		gt_assert_eq(gt_execbuf(fd, &b, batch, &dst.handle, NULL, 1, 0, NULL), 0);
		gt_ref_color_blt(ref, &dst, &r, color, we[i].mask);
		check_surface(fd, &dst, ref);
	}
	free(ref);
	gt_close(fd, batch);
	gt_close(fd, dst.handle);
}

/* Many blits and relocations to one target in one batch. */
static void test_many_fills(int fd)
{
	struct gen3_surf dst = make_surf(fd, 4, 0);
	uint32_t batch = gt_create(fd, 8192), seed = 4242;
	uint8_t *ref = gt_upload_pattern(fd, dst.handle, dst.size, 5);
	struct gen3_batch b;
	int i;

	gen3_batch_reset(&b);
	for (i = 0; i < 120; i++) {
		struct gen3_rect r;
		uint32_t color = gt_rand(&seed);

		r.x1 = (int)(gt_rand(&seed) % W);
		r.y1 = (int)(gt_rand(&seed) % H);
		r.x2 = r.x1 + 1 + (int)(gt_rand(&seed) % (uint32_t)(W - r.x1));
		r.y2 = r.y1 + 1 + (int)(gt_rand(&seed) % (uint32_t)(H - r.y1));
		gen3_emit_color_blt(&b, &dst, &r, color);
		gt_ref_color_blt(ref, &dst, &r, color, 0xf);
	}
	gen3_batch_end(&b);
	gt_assert(!b.overflow);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &dst.handle, NULL, 1, 0, NULL), 0);
	check_surface(fd, &dst, ref);
	free(ref);
	gt_close(fd, batch);
	gt_close(fd, dst.handle);
}

/*
 * A chain of batches, each reading what the previous one wrote, submitted
 * without waiting in between: fill A, copy A to B, copy B to C.
 */
static void test_chain(int fd)
{
	struct gen3_surf a = make_surf(fd, 2, 0), bs = make_surf(fd, 2, 64);
	struct gen3_surf c = make_surf(fd, 2, 128);
	uint32_t batch[3], h[2];
	uint8_t *ra = gt_upload_pattern(fd, a.handle, a.size, 1);
	uint8_t *rb = gt_upload_pattern(fd, bs.handle, bs.size, 2);
	uint8_t *rc = gt_upload_pattern(fd, c.handle, c.size, 3);
	struct gen3_rect all = { 0, 0, W, H };
	struct gen3_batch b;
	int i;

	for (i = 0; i < 3; i++)
		batch[i] = gt_create(fd, 4096);

	gen3_batch_reset(&b);
	gen3_emit_color_blt(&b, &a, &all, 0x07e0);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch[0], &a.handle, NULL, 1, 0, NULL), 0);
	gt_ref_color_blt(ra, &a, &all, 0x07e0, 0xf);

	gen3_batch_reset(&b);
	gen3_emit_copy_blt(&b, &bs, 1, 1, &a, 0, 0, W - 1, H - 1);
	gen3_batch_end(&b);
	h[0] = bs.handle;
	h[1] = a.handle;
	gt_assert_eq(gt_execbuf(fd, &b, batch[1], h, NULL, 2, 0, NULL), 0);
	gt_ref_copy_blt(rb, &bs, 1, 1, ra, &a, 0, 0, W - 1, H - 1);

	gen3_batch_reset(&b);
	gen3_emit_copy_blt(&b, &c, 0, 0, &bs, 0, 0, W, H);
	gen3_batch_end(&b);
	h[0] = c.handle;
	h[1] = bs.handle;
	gt_assert_eq(gt_execbuf(fd, &b, batch[2], h, NULL, 2, 0, NULL), 0);
	gt_ref_copy_blt(rc, &c, 0, 0, rb, &bs, 0, 0, W, H);

	check_surface(fd, &c, rc);
	check_surface(fd, &bs, rb);
	check_surface(fd, &a, ra);
	free(ra);
	free(rb);
	free(rc);
	for (i = 0; i < 3; i++)
		gt_close(fd, batch[i]);
	gt_close(fd, a.handle);
	gt_close(fd, bs.handle);
	gt_close(fd, c.handle);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 120);

	gemtest_subtest("color-fill-8bpp")
		test_fill(fd, 1);
	gemtest_subtest("color-fill-16bpp")
		test_fill(fd, 2);
	gemtest_subtest("color-fill-32bpp")
		test_fill(fd, 4);
	gemtest_subtest("src-copy-8bpp")
		test_copy(fd, 1);
	gemtest_subtest("src-copy-16bpp")
		test_copy(fd, 2);
	gemtest_subtest("src-copy-32bpp")
		test_copy(fd, 4);
	gemtest_subtest("color-fill-32bpp-write-enables")
		test_write_enables(fd);
	gemtest_subtest("many-fills-one-batch")
		test_many_fills(fd);
	gemtest_subtest("dependent-batches")
		test_chain(fd);

	gem_close(fd);
	return gemtest_exit();
}
