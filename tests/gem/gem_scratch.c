/*
 * gem_scratch: GTT space no object is bound to is the scratch page for
 * the GPU, as the kernel's PTEs make it (i915_gem_gtt.c points every
 * unbound entry there): a batch running off its end fetches it, a store
 * lands in it, a blit reading past its object reads it back -- with no
 * fault, no hang and no ban (IGT's gem_close_race reads 2 MiB past a
 * 256 KiB object thousands of times).  gemkit_counters'
 * gpu_scratch_accesses counts these accesses.  Only an address past the
 * aperture is a page-table error (gem_hang: blit-past-aperture, past-end).
 *
 * Objects are softpinned high in the 256 MiB aperture, far from anything
 * gemd binds itself, so the pages between them are unbound.
 */
#include <sys/mman.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemdebugfs.h"
#include "gemtest.h"
#include "gemtest-batch.h"
#include "gemtest-dfs.h"
#include "libgem.h"

#define BATCH_AT	(128u << 20)
#define TARGET_AT	(160u << 20)
#define UNBOUND_AT	(192u << 20)	/* nothing is ever bound here */
#define SCRATCH_VALUE	0x5c4a7c11u

static const char *device;
static struct gdfs *dfs;

static uint64_t counter(const char *key)
{
	return gt_dfs_counter(dfs, key);
}

/* Submit objs (the batch last), each pinned where its offset says. */
static void exec_pinned(int fd, struct drm_i915_gem_exec_object2 *objs,
			unsigned int n)
{
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)objs, .buffer_count = n,
	};
	uint64_t want[4];
	unsigned int i;

	gt_assert(n <= 4);
	for (i = 0; i < n; i++) {
		objs[i].flags |= EXEC_OBJECT_PINNED;
		want[i] = objs[i].offset;
	}
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
	for (i = 0; i < n; i++)
		gt_assert_eq_u64(objs[i].offset, want[i]);
}

/* No hang was declared and the file is not charged with one. */
static void assert_no_hang(int fd, uint64_t hangs)
{
	struct drm_i915_reset_stats rs = { 0 };

	gt_assert_eq(counter("hangs"), hangs);
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	gt_assert_eq(rs.batch_active, 0);
	gt_assert_eq(rs.batch_pending, 0);
}

/* Run the dwords of cmd (MI_BATCH_BUFFER_END appended) from an object at
 * BATCH_AT, with target at TARGET_AT, and wait. */
static void run_pinned(int fd, uint32_t target, const uint32_t *cmd,
		       unsigned int n)
{
	uint32_t batch = gt_create(fd, 4096), end = MI_BATCH_BUFFER_END;
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = target, .offset = TARGET_AT, .flags = EXEC_OBJECT_WRITE },
		{ .handle = batch, .offset = BATCH_AT },
	};

	gt_write(fd, batch, 0, cmd, 4 * n);
	gt_write(fd, batch, 4 * n, &end, 4);
	exec_pinned(fd, objs, 2);
	gt_sync(fd, batch);
	gt_close(fd, batch);
}

/*
 * A page of MI_NOOP with no end, then an unbound page, then an object
 * whose store and MI_BATCH_BUFFER_END finish the batch: the parser runs
 * through the scratch page (zeros: MI_NOOP) into it, one fetch a dword.
 */
static void test_batch_through_scratch(void)
{
	int fd = gt_open();
	uint32_t batch = gt_create(fd, 4096), tail = gt_create(fd, 4096);
	uint32_t target = gt_create(fd, 4096), v = 0;
	uint32_t store[] = { MI_STORE_DWORD_IMM_GTT, 0, TARGET_AT + 8, 0x600d5c4a,
			     MI_BATCH_BUFFER_END };
	struct drm_i915_gem_exec_object2 objs[3] = {
		{ .handle = tail, .offset = BATCH_AT + 8192 },
		{ .handle = target, .offset = TARGET_AT, .flags = EXEC_OBJECT_WRITE },
		{ .handle = batch, .offset = BATCH_AT },
	};
	uint64_t hangs = counter("hangs");
	uint64_t scratch = counter("gpu_scratch_accesses");

	gt_write(fd, tail, 0, store, sizeof(store));	/* batch: zeros */
	exec_pinned(fd, objs, 3);
	gt_sync(fd, batch);
	gt_read(fd, target, 8, &v, 4);
	gt_assert_eq(v, 0x600d5c4a);
	assert_no_hang(fd, hangs);
	gt_assert_eq_u64(counter("gpu_scratch_accesses") - scratch, 1024);
	gem_close(fd);
}

/*
 * gem_close_race's shape: a copy from a 256 KiB object whose source rows
 * lie 2 MiB and more past its end.  A store into unbound space first
 * leaves a mark in the scratch page; every row of the copy reads it back.
 */
static void test_blit_past_object(void)
{
	const uint32_t pitch = 4096, rows = 16, row0 = 576;	/* 2.25 MiB */
	int fd = gt_open();
	uint32_t src = gt_create(fd, 256 << 10), dst = gt_create(fd, rows * pitch);
	uint32_t mark[] = { MI_STORE_DWORD_IMM_GTT, 0, UNBOUND_AT + 0x40,
			    SCRATCH_VALUE };
	uint32_t copy[] = { XY_SRC_COPY_BLT_CMD | XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB,
			    BR13_32BPP | BR13_ROP(ROP_SRCCOPY) | pitch, 0,
			    rows << 16 | 1024, TARGET_AT,
			    row0 << 16, pitch, BATCH_AT + 8192 };
	struct drm_i915_gem_exec_object2 objs[3] = {
		{ .handle = src, .offset = BATCH_AT + 8192 },
		{ .handle = dst, .offset = TARGET_AT, .flags = EXEC_OBJECT_WRITE },
		{ .handle = gt_create(fd, 4096), .offset = BATCH_AT },
	};
	uint32_t end = MI_BATCH_BUFFER_END, *got, r, i;
	uint64_t hangs = counter("hangs");
	uint64_t scratch = counter("gpu_scratch_accesses");

	run_pinned(fd, dst, mark, 4);
	gt_assert_eq_u64(counter("gpu_scratch_accesses") - scratch, 1);

	gt_write(fd, objs[2].handle, 0, copy, sizeof(copy));
	gt_write(fd, objs[2].handle, sizeof(copy), &end, 4);
	exec_pinned(fd, objs, 3);
	gt_sync(fd, dst);
	got = gt_mmap_cpu(fd, dst, 0, rows * pitch);
	for (r = 0; r < rows; r++)
		for (i = 0; i < pitch / 4; i++)
			gt_assert_f(got[r * pitch / 4 + i] ==
				    (i == 0x10 ? SCRATCH_VALUE : 0),
				    "row %u dword %u: 0x%08x", r, i,
				    got[r * pitch / 4 + i]);
	munmap(got, rows * pitch);
	assert_no_hang(fd, hangs);
	/* One page run a row. */
	gt_assert_eq_u64(counter("gpu_scratch_accesses") - scratch, 1 + rows);

	/* Leave the scratch page as it was found. */
	mark[3] = 0;
	run_pinned(fd, dst, mark, 4);
	gem_close(fd);
}

/*
 * Many clients doing so at once, as gem_close_race does: none is banned,
 * and each still runs work afterwards.
 */
static void test_no_ban(void)
{
	uint32_t mark[] = { MI_STORE_DWORD_IMM_GTT, 0, UNBOUND_AT, 0 };
	uint64_t hangs = counter("hangs"), bans = counter("bans");
	int i;

	for (i = 0; i < 8; i++) {
		int fd = gt_open();
		uint32_t target = gt_create(fd, 4096), v = 1;

		run_pinned(fd, target, mark, 4);
		run_pinned(fd, target, mark, 4);
		run_pinned(fd, target, mark, 4);
		mark[2] = TARGET_AT;
		run_pinned(fd, target, mark, 4);
		mark[2] = UNBOUND_AT;
		gt_read(fd, target, 0, &v, 4);
		gt_assert_eq(v, 0);
		assert_no_hang(fd, hangs);
		gem_close(fd);
	}
	gt_assert_eq(counter("bans"), bans);
}

int main(int argc, char **argv)
{
	const char *args[] = { "--hangcheck", "50ms", NULL };

	gemtest_init(argc, argv);
	device = gemtest_start_gemd(args);
	gt_program_timeout(120, gemtest_gemd_pid());
	gt_assert_eq(gdfs_open_socket(device, &dfs), 0);

	/* First: it needs the scratch page still zero. */
	gemtest_subtest("batch-through-scratch")
		test_batch_through_scratch();
	gemtest_subtest("blit-past-object")
		test_blit_past_object();
	gemtest_subtest("no-ban")
		test_no_ban();

	gdfs_close(dfs);
	return gemtest_exit();
}
