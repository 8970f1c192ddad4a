/*
 * gem_gtt_view: a GTT mapping of a tiled object shows what a 945G's
 * aperture shows through the fence — the surface linearly, row y at
 * y * stride — while pread, pwrite, CPU maps and the GPU see the tiled
 * bytes, all coherent with one another; and the view under an existing
 * mapping changes with the tiling (issue 16, cause 7).  The tiled layout
 * is the software reference's (gt_tiled_offset), no bit-6 swizzling.
 */
#include <stdlib.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "gemtest-dfs.h"
#include "libgem.h"

static struct gdfs *dfs;

static uint64_t counter(const char *key)
{
	return gt_dfs_counter(dfs, key);
}

static void set_tiling(int fd, uint32_t handle, uint32_t mode, uint32_t stride)
{
	struct drm_i915_gem_set_tiling st = {
		.handle = handle, .tiling_mode = mode, .stride = stride,
	};

	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st), 0);
	gt_assert_eq(st.swizzle_mode, I915_BIT_6_SWIZZLE_NONE);
}

static uint32_t tiled_object(int fd, uint64_t size, uint32_t mode, uint32_t stride)
{
	uint32_t h = gt_create(fd, size);

	set_tiling(fd, h, mode, stride);
	return h;
}

/* Where linear byte lin of the view lives among the object's bytes. */
static uint64_t raw_of(uint32_t mode, uint32_t stride, uint64_t lin)
{
	return gt_tiled_offset(mode, stride, (uint32_t)(lin % stride),
			       (uint32_t)(lin / stride));
}

/* Every dword of raw is where the view (linear dword i = value i ^ seed)
 * puts it. */
static void check_raw_is_tiled(const uint32_t *raw, uint64_t size, uint32_t mode,
			       uint32_t stride, uint32_t seed)
{
	uint64_t lin;

	for (lin = 0; lin < size; lin += 4) {
		uint64_t r = raw_of(mode, stride, lin);

		gt_assert_f(raw[r / 4] == ((uint32_t)(lin / 4) ^ seed),
			    "linear byte %llu (raw %llu): got 0x%x, want 0x%x",
			    (unsigned long long)lin, (unsigned long long)r,
			    raw[r / 4], (uint32_t)(lin / 4) ^ seed);
	}
}

static void fill_linear(uint32_t *map, uint64_t size, uint32_t seed)
{
	uint64_t i;

	for (i = 0; i < size / 4; i++)
		map[i] = (uint32_t)i ^ seed;
}

/* Written linearly through the GTT: pread and a CPU map see it tiled. */
static void test_gtt_write_tiled_read(int fd, uint32_t mode, uint32_t stride)
{
	const uint64_t size = 64 << 10;
	uint32_t h = tiled_object(fd, size, mode, stride);
	uint32_t *gtt = gt_mmap_gtt(fd, h, size), *raw = malloc(size), *cpu;

	gt_assert(raw);
	gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT);
	fill_linear(gtt, size, 0x5a000000);
	/* No set_domain: pread must see the GTT writes (IGT does this). */
	gt_read(fd, h, 0, raw, size);
	check_raw_is_tiled(raw, size, mode, stride, 0x5a000000);
	cpu = gt_mmap_cpu(fd, h, 0, size);
	gt_set_domain(fd, h, I915_GEM_DOMAIN_CPU, 0);
	check_raw_is_tiled(cpu, size, mode, stride, 0x5a000000);
	gem_munmap(cpu, size);
	gem_munmap(gtt, size);
	free(raw);
	gt_close(fd, h);
}

/* Written raw (pwrite, CPU map): the GTT view shows it linearly. */
static void test_raw_write_gtt_read(int fd)
{
	const uint64_t size = 32 << 10, stride = 1024;
	uint32_t h = tiled_object(fd, size, I915_TILING_X, stride);
	uint32_t *gtt = gt_mmap_gtt(fd, h, size), *raw = malloc(size), *cpu;
	uint64_t lin;

	gt_assert(raw);
	for (lin = 0; lin < size; lin += 4)
		raw[raw_of(I915_TILING_X, stride, lin) / 4] = (uint32_t)(lin / 4) ^ 7;
	gt_write(fd, h, 0, raw, size);
	/* No set_domain either: the pwrite reached the view. */
	for (lin = 0; lin < size / 4; lin++)
		gt_assert_eq(gtt[lin], (uint32_t)lin ^ 7);
	cpu = gt_mmap_cpu(fd, h, 0, size);
	gt_set_domain(fd, h, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU);
	cpu[raw_of(I915_TILING_X, stride, 4096 + 8) / 4] = 0xfeedface;
	gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT, 0);
	gt_assert_eq(gtt[(4096 + 8) / 4], 0xfeedface);
	gem_munmap(cpu, size);
	gem_munmap(gtt, size);
	free(raw);
	gt_close(fd, h);
}

/* Disjoint writes through both views with no call between them: the
 * next call merges both, byte by byte. */
static void test_both_sides_merge(int fd)
{
	const uint64_t size = 16 << 10, stride = 512;
	uint32_t h = tiled_object(fd, size, I915_TILING_X, stride);
	uint8_t *gtt = gt_mmap_gtt(fd, h, size), *cpu = gt_mmap_cpu(fd, h, 0, size);
	uint8_t raw[16 << 10];
	uint64_t r = raw_of(I915_TILING_X, stride, 513);

	gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT);
	gtt[1] = 0x11;		/* byte 1 of linear row 0 */
	cpu[r] = 0x22;		/* byte 1 of linear row 1, same tile row */
	gt_read(fd, h, 0, raw, size);
	gt_assert_eq(raw[1], 0x11);
	gt_assert_eq(raw[r], 0x22);
	gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT, 0);
	gt_assert_eq(gtt[513], 0x22);
	gem_munmap(gtt, size);
	gem_munmap(cpu, size);
	gt_close(fd, h);
}

/* The blitter reaches a tiled surface through a fence. */
static const uint64_t fenced[2] = { EXEC_OBJECT_NEEDS_FENCE, 0 };

/* A 32 bpp surface of the whole object, X-tiled. */
static struct gen3_surf x_surf(int fd, uint32_t stride, uint32_t rows)
{
	struct gen3_surf s = {
		.pitch = stride, .cpp = 4, .tiling = I915_TILING_X,
		.size = (uint64_t)stride * rows,
	};

	s.handle = tiled_object(fd, s.size, I915_TILING_X, stride);
	return s;
}

/* Mesa's texture upload: written linearly through the GTT, copied by the
 * blitter through its fence, the copy is the linear image. */
static void test_gpu_reads_gtt_writes(int fd)
{
	struct gen3_surf src = x_surf(fd, 1024, 32), dst = src;
	uint32_t *gtt = gt_mmap_gtt(fd, src.handle, src.size);
	uint32_t batch = gt_create(fd, 4096), *out = malloc(src.size), i;
	struct gen3_batch b;
	uint32_t handles[2];

	gt_assert(out);
	dst.tiling = I915_TILING_NONE;
	dst.handle = gt_create(fd, dst.size);
	gt_set_domain(fd, src.handle, I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT);
	fill_linear(gtt, src.size, 0x3c000000);
	gen3_batch_reset(&b);
	gen3_emit_copy_blt(&b, &dst, 0, 0, &src, 0, 0, 256, 32);
	gen3_batch_end(&b);
	handles[0] = src.handle;
	handles[1] = dst.handle;
	gt_assert_eq(gt_execbuf(fd, &b, batch, handles, fenced, 2, 0, NULL), 0);
	gt_read(fd, dst.handle, 0, out, dst.size);
	for (i = 0; i < dst.size / 4; i++)
		gt_assert_f(out[i] == (i ^ 0x3c000000), "dword %u: 0x%x", i, out[i]);
	gem_munmap(gtt, src.size);
	free(out);
	gt_close(fd, batch);
	gt_close(fd, src.handle);
	gt_close(fd, dst.handle);
}

/* glReadPixels of a tiled render target: the blitter fills it through a
 * fence, the GTT map shows the rectangle where it is on screen, whether
 * the program waits with set_domain or polls busy. */
static void test_gtt_sees_gpu_writes(int fd, bool poll_busy)
{
	struct gen3_surf dst = x_surf(fd, 2048, 16);
	const struct gen3_rect r = { 130, 3, 200, 11 };
	uint32_t *gtt = gt_mmap_gtt(fd, dst.handle, dst.size);
	uint32_t batch = gt_create(fd, 4096), x, y;
	struct gen3_batch b;

	gt_set_domain(fd, dst.handle, I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT);
	fill_linear(gtt, dst.size, 0);
	gen3_batch_reset(&b);
	gen3_emit_color_blt(&b, &dst, &r, 0xc0c0c0c0);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &dst.handle, fenced, 1, 0, NULL), 0);
	if (poll_busy) {
		int64_t t = 5000000000ll;

		gt_assert_eq(__gt_wait(fd, dst.handle, &t), 0);
		while (gt_busy(fd, dst.handle))
			;
	} else {
		gt_set_domain(fd, dst.handle, I915_GEM_DOMAIN_GTT, 0);
	}
	for (y = 0; y < 16; y++)
		for (x = 0; x < 512; x++) {
			uint32_t i = y * 512 + x;
			bool in = x >= 130 && x < 200 && y >= 3 && y < 11;

			gt_assert_f(gtt[i] == (in ? 0xc0c0c0c0 : i),
				    "pixel %u,%u: 0x%x", x, y, gtt[i]);
		}
	gem_munmap(gtt, dst.size);
	gt_close(fd, batch);
	gt_close(fd, dst.handle);
}

/*
 * A mapping made before the tiling changes shows the new view after it,
 * with the object's bytes unchanged (gem_set_tiling_vs_gtt and
 * gem_tiling_max_stride depend on it): untiled -> X -> X of twice the
 * stride -> untiled.
 */
static void test_tiling_change_under_map(int fd)
{
	const uint64_t size = 64 << 10, stride = 2048;
	uint32_t h = gt_create(fd, size);
	uint32_t *gtt = gt_mmap_gtt(fd, h, size), *raw = malloc(size);
	uint64_t lin;

	gt_assert(raw);
	gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT);
	fill_linear(gtt, size, 0);	/* untiled: raw == linear */

	set_tiling(fd, h, I915_TILING_X, stride);
	for (lin = 0; lin < size; lin += 4)
		gt_assert_eq(gtt[lin / 4], raw_of(I915_TILING_X, stride, lin) / 4);

	fill_linear(gtt, size, 0x1000000);
	set_tiling(fd, h, I915_TILING_X, 2 * stride);
	gt_read(fd, h, 0, raw, size);
	check_raw_is_tiled(raw, size, I915_TILING_X, stride, 0x1000000);
	for (lin = 0; lin < size; lin += 4)
		gt_assert_eq(gtt[lin / 4],
			     raw[raw_of(I915_TILING_X, 2 * stride, lin) / 4]);

	set_tiling(fd, h, I915_TILING_NONE, 0);
	for (lin = 0; lin < size; lin += 4)
		gt_assert_eq(gtt[lin / 4], raw[lin / 4]);
	gem_munmap(gtt, size);
	free(raw);
	gt_close(fd, h);
}

/* The view outlives the handle as any mapping does (cause 6). */
static void test_view_outlives_handle(int fd)
{
	const uint64_t size = 16 << 10;
	uint32_t h = tiled_object(fd, size, I915_TILING_Y, 128), i;
	uint32_t *gtt = gt_mmap_gtt(fd, h, size), more[4];

	gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT);
	fill_linear(gtt, size, 0x77000000);
	gt_close(fd, h);
	for (i = 0; i < 4; i++)
		more[i] = gt_create(fd, size);
	for (i = 0; i < size / 4; i++)
		gt_assert_eq(gtt[i], i ^ 0x77000000);
	for (i = 0; i < 4; i++)
		gt_close(fd, more[i]);
	gem_munmap(gtt, size);
}

/* An object that ends inside a tile row: the view's bytes that the fence
 * would send past the object's tiles are merged with nothing. */
static void test_partial_tile_row(int fd)
{
	const uint64_t stride = 4096, size = 3 * 4096;	/* 3 of a row's 8 tiles */
	uint32_t h = tiled_object(fd, size, I915_TILING_X, stride);
	uint8_t *gtt = gt_mmap_gtt(fd, h, size), raw[3 * 4096];
	uint64_t lin;

	gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT);
	memset(gtt, 0xab, size);
	gt_read(fd, h, 0, raw, size);
	for (lin = 0; lin < size; lin++) {
		uint64_t r = raw_of(I915_TILING_X, stride, lin);

		if (r < size)
			gt_assert_eq(raw[r], 0xab);
	}
	/* Linear row 0 reaches tiles 0..7; only 0..2 exist. */
	memset(raw, 0x5c, size);
	gt_write(fd, h, 0, raw, size);
	gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT, 0);
	gt_assert_eq(gtt[0], 0x5c);
	gt_assert_eq(gtt[3 * 512], 0xab);
	gem_munmap(gtt, size);
	gt_close(fd, h);
}

/*
 * Asking for the GTT domain again while the program writes through the
 * GTT returns at once, as the kernel's set_to_gtt_domain does, without a
 * merge: IGT's gem_mmap_gtt *-copy-XY asks before every 4 KiB copy of a
 * 64 MiB tiled object, and two merges of the object each time kept it
 * running for hours.  pread, and the GTT asked for after leaving it,
 * merge as before, and see every write.
 */
static void test_gtt_again_no_merge(int fd)
{
	const uint64_t size = 64 << 10, stride = 512;
	uint32_t h = tiled_object(fd, size, I915_TILING_X, stride);
	uint32_t *gtt = gt_mmap_gtt(fd, h, size), *raw = malloc(size), i;
	uint64_t merges, bytes;

	gt_assert(raw);
	gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT);
	merges = counter("view_merges");
	bytes = counter("view_merge_bytes");
	for (i = 0; i < 16; i++) {
		gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT);
		gtt[i * 1024] = 0xc0de0000 | i;
	}
	gt_assert_eq_u64(counter("view_merges"), merges);
	gt_read(fd, h, 0, raw, size);
	gt_assert_eq_u64(counter("view_merges"), merges + 1);
	gt_assert_eq_u64(counter("view_merge_bytes"), bytes + size);
	for (i = 0; i < 16; i++)
		gt_assert_eq(raw[raw_of(I915_TILING_X, stride, i * 4096) / 4],
			     0xc0de0000 | i);
	/* pread left the GTT write domain: the way back merges. */
	gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT, 0);
	gt_assert_eq_u64(counter("view_merges"), merges + 2);
	gem_munmap(gtt, size);
	free(raw);
	gt_close(fd, h);
}

int main(int argc, char **argv)
{
	const char *device;
	int fd;

	gemtest_init(argc, argv);
	device = gemtest_start_gemd(NULL);
	gt_program_timeout(120, gemtest_gemd_pid());
	gt_assert_eq(gdfs_open_socket(device, &dfs), 0);
	fd = gt_open();

	gemtest_subtest("x-gtt-write-tiled-read")
		test_gtt_write_tiled_read(fd, I915_TILING_X, 2048);
	gemtest_subtest("x-max-stride")
		test_gtt_write_tiled_read(fd, I915_TILING_X, 8192);
	gemtest_subtest("y-gtt-write-tiled-read")
		test_gtt_write_tiled_read(fd, I915_TILING_Y, 512);
	gemtest_subtest("raw-write-gtt-read")
		test_raw_write_gtt_read(fd);
	gemtest_subtest("both-sides-merge")
		test_both_sides_merge(fd);
	gemtest_subtest("gpu-reads-gtt-writes")
		test_gpu_reads_gtt_writes(fd);
	gemtest_subtest("gtt-sees-gpu-writes-set-domain")
		test_gtt_sees_gpu_writes(fd, false);
	gemtest_subtest("gtt-sees-gpu-writes-busy")
		test_gtt_sees_gpu_writes(fd, true);
	gemtest_subtest("tiling-change-under-map")
		test_tiling_change_under_map(fd);
	gemtest_subtest("view-outlives-handle")
		test_view_outlives_handle(fd);
	gemtest_subtest("partial-tile-row")
		test_partial_tile_row(fd);
	gemtest_subtest("gtt-again-no-merge")
		test_gtt_again_no_merge(fd);
	gem_close(fd);
	gdfs_close(dfs);
	return gemtest_exit();
}
