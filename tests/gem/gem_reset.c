/*
 * gem_reset: what hangs, resets and wedging leave behind, as Linux 6.1
 * answers IGT (gem_eio, gem_reset_stats), and which long work hangcheck
 * leaves alone (gem_set_tiling_vs_blt's big blits):
 *
 * - a write to i915_wedged with i915.reset=0 wedges the device: what was
 *   in flight is cancelled (waits return, nothing of it runs), THROTTLE
 *   and EXECBUFFER2 fail with EIO, GEM_CREATE still works; the next write
 *   with resets allowed unwedges it (intel_gt_reset) and work runs again;
 * - an invalid command stops the parser and resets nothing by itself: with
 *   hangcheck off work still queues behind it, also with i915.reset=0,
 *   and hangcheck later finds the stop, kind "badop";
 * - GET_RESET_STATS: reset_count only for CAP_SYS_ADMIN (0 for anyone
 *   else), batch_active for the guilty file, nothing for the files whose
 *   work was replayed behind it; a file is banned on its third hang, not
 *   its second;
 * - a blit that takes many hangcheck periods of GPU time (the speed model
 *   makes it slow on any machine) makes progress all along and is not
 *   hung; a batch going round a loop still is, kind "runaway";
 * - a fenced blit that runs past its object inside the object's
 *   fence-sized node writes the scratch page, as on a 945G: no fault;
 * - Linux 6.1's request watchdog: a file opened with
 *   i915.request_timeout_ms set has a request running longer cancelled,
 *   kind "watchdog"; with 0 it has none (gem_watchdog).
 *
 * The timer is turned off (enable_hangcheck=0) wherever a hang must come
 * from the test alone, so nothing here depends on how fast the machine is.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemcontrol.h"
#include "gemdebugfs.h"
#include "gemtest.h"
#include "gemtest-batch.h"
#include "gemtest-dfs.h"
#include "libgem.h"
#include "strbuf.h"

#define NOBODY		65534
#define BAD_COMMAND	0x23456789u	/* client 1: nothing on gen3 */
/* The blitter's speed (--gpu-rate): a 1 MiB blit is a second of GPU time,
 * 20 hangcheck periods of 50 ms, five times the batch budget. */
#define BLIT_RATE	"1M"
#define BLIT_BYTES	(1u << 20)

static const char *device;
static struct gdfs *dfs;

#define child_check(cond) do { if (!(cond)) { \
	fprintf(stderr, "# child: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	_exit(1); } } while (0)

static uint64_t counter(const char *key)
{
	return gt_dfs_counter(dfs, key);
}

static void write_file(const char *name, const char *text)
{
	gt_assert_eq(gdfs_write(dfs, name, text, strlen(text)), strlen(text));
}

/* The hang after hang number `after`, as gemd announced it. */
static void hang_wait(uint64_t after, struct gdfs_hang *ev)
{
	struct gdfs_control *ctl;
	int result;

	gt_assert_eq(gdfs_control_open(device, &ctl), 0);
	gt_assert_eq(gdfs_hang_wait(ctl, after, 60000, NULL, ev, &result), 0);
	gt_assert_eq(result, 0);
	gdfs_control_close(ctl);
}

static int throttle(int fd)
{
	return gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_THROTTLE, NULL);
}

static void reset_stats(int fd, struct drm_i915_reset_stats *rs)
{
	memset(rs, 0, sizeof(*rs));
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GET_RESET_STATS, rs), 0);
}

/* Store value at target (offset 0) with a batch of its own. */
static int store(int fd, uint32_t target, uint32_t value)
{
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, target, 0, value);
	gen3_batch_end(&b);
	return gt_execbuf(fd, &b, gt_create(fd, 4096), &target, NULL, 1, 0, NULL);
}

static uint32_t read_dword(int fd, uint32_t handle)
{
	uint32_t v = 0;

	gt_read(fd, handle, 0, &v, 4);
	return v;
}

/* A batch jumping to itself, ended by a watchdog should the test fail. */
static void submit_spin(int fd, uint32_t spin)
{
	struct gen3_batch b;

	gt_assert_eq(gt_spin_watchdog(fd, spin, 120000), 0);
	gen3_batch_reset(&b);
	gen3_emit_spin(&b, spin);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, spin, NULL, NULL, 0, 0, NULL), 0);
}

/* IGT's wedge_gpu: resets off, then error handling wedges the device. */
static void wedge(void)
{
	write_file("i915_params/reset", "0");
	write_file("i915_wedged", "18446744073709551615");	/* "%llu", -1ull */
	gt_dfs_expect(dfs, "i915_wedged", "wedged :  1\n");
}

/* IGT's trigger_reset: resets on, and error handling unwedges. */
static void unwedge(void)
{
	write_file("i915_params/reset", "1");
	write_file("i915_wedged", "18446744073709551615");
	gt_dfs_expect(dfs, "i915_wedged", "wedged :  0\n");
}

static void test_wedge_idle(void)
{
	int fd = gt_open();
	uint32_t target = gt_create(fd, 4096), handle;
	uint64_t size = 4096;

	write_file("i915_params/enable_hangcheck", "0");
	wedge();
	gt_assert_eq(throttle(fd), -EIO);
	gt_assert_eq(store(fd, target, 1), -EIO);
	/* Memory management goes on: gem_eio create, create-ext. */
	gt_assert_eq(__gt_create(fd, &size, &handle), 0);
	gt_assert_eq(read_dword(fd, handle), 0);
	gt_close(fd, handle);

	unwedge();
	gt_assert_eq(throttle(fd), 0);
	gt_assert_eq(store(fd, target, 0x5eed), 0);
	gt_sync(fd, target);
	gt_assert_eq(read_dword(fd, target), 0x5eed);
	/* Also from a file opened afterwards (gem_test_all_engines). */
	{
		int fresh = gt_open();

		gt_assert_eq(throttle(fresh), 0);
		gem_close(fresh);
	}
	write_file("i915_params/enable_hangcheck", "1");
	gem_close(fd);
}

static void test_wedge_cancels_in_flight(void)
{
	int fd = gt_open(), other = gt_open();
	uint32_t spin = gt_create(fd, 4096), target = gt_create(other, 4096);

	write_file("i915_params/enable_hangcheck", "0");
	submit_spin(fd, spin);
	gt_assert_eq(store(other, target, 0xbad), 0);
	gt_assert(gt_busy(other, target));

	wedge();
	/* Both requests completed without running: waits return at once. */
	gt_sync(fd, spin);
	gt_sync(other, target);
	gt_assert(!gt_busy(fd, spin));
	gt_assert(!gt_busy(other, target));
	gt_assert_eq(read_dword(other, target), 0);

	unwedge();
	gt_assert_eq(store(other, target, 0x600d), 0);
	gt_sync(other, target);
	gt_assert_eq(read_dword(other, target), 0x600d);
	write_file("i915_params/enable_hangcheck", "1");
	gem_close(fd);
	gem_close(other);
}

/* Hang the GPU from fd with an invalid command (caught at once). */
static void bad_batch(int fd)
{
	uint64_t hangs = counter("hangs");
	struct gdfs_hang ev;
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_batch_emit(&b, BAD_COMMAND);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, gt_create(fd, 4096), NULL, NULL, 0, 0, NULL), 0);
	hang_wait(hangs, &ev);
	gt_assert(!strcmp(ev.kind, "badop"));
}

static void test_reset_stats(void)
{
	int bad = gt_open(), good = gt_open();
	uint32_t spin = gt_create(bad, 4096), target = gt_create(good, 4096);
	struct drm_i915_reset_stats rs;
	uint64_t hangs = counter("hangs"), resets = counter("resets");
	struct gdfs_hang ev;
	pid_t pid;
	int status;

	/* The guilty one spins; the good file's work queues behind it. */
	write_file("i915_params/enable_hangcheck", "0");
	submit_spin(bad, spin);
	gt_assert_eq(store(good, target, 0x1234), 0);
	write_file("i915_wedged", "1");
	hang_wait(hangs, &ev);
	gt_assert_eq(ev.recovered, 1);
	gt_sync(good, target);
	gt_assert_eq(read_dword(good, target), 0x1234);
	write_file("i915_params/enable_hangcheck", "1");

	reset_stats(bad, &rs);
	gt_assert_eq(rs.batch_active, 1);
	gt_assert_eq(rs.batch_pending, 0);
	reset_stats(good, &rs);
	gt_assert_eq(rs.batch_active, 0);
	gt_assert_eq(rs.batch_pending, 0);
	if (geteuid() == 0)
		gt_assert_eq(rs.reset_count, resets + 1);
	gt_assert_eq(counter("resets"), resets + 1);

	/* Not CAP_SYS_ADMIN: no reset count, on the same file. */
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0) {
		struct drm_i915_reset_stats crs = { .reset_count = 0xdead };

		if (geteuid() == 0 && (setgid(NOBODY) || setuid(NOBODY)))
			_exit(2);
		child_check(gt_ioctl_errno(good, DRM_IOCTL_I915_GET_RESET_STATS,
					   &crs) == 0);
		child_check(crs.reset_count == 0);
		_exit(0);
	}
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "child status 0x%x", status);
	gem_close(bad);
	gem_close(good);
}

/*
 * The command streamer stopped by an invalid command (IGT's gen3 spinner
 * ends in one, IGT_SPIN_INVALID_CS): fd's batch stores 0xb0b to flag,
 * then stops the parser.  Returns once the store landed, read through a
 * CPU map without waiting for the GPU, which never finishes the batch.
 */
static void submit_stopping(int fd, uint32_t flag)
{
	uint32_t *map = gt_mmap_cpu(fd, flag, 0, 4096);
	struct gen3_batch b;
	int i;

	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, flag, 0, 0xb0b);
	gen3_batch_emit(&b, BAD_COMMAND);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, gt_create(fd, 4096), &flag, NULL, 1, 0,
				NULL), 0);
	for (i = 0; i < 60000 && __atomic_load_n(map, __ATOMIC_ACQUIRE) != 0xb0b; i++)
		usleep(1000);
	gt_assert_eq(__atomic_load_n(map, __ATOMIC_ACQUIRE), 0xb0b);
	munmap(map, 4096);
}

/*
 * The error interrupt of a gen3 parser error resets nothing (Linux 6.1's
 * i9xx_error_irq_handler logs it): with hangcheck off and i915.reset=0 the
 * ring stays stopped, no hang is counted and execbuffer still queues work
 * behind it, until the test wedges the GPU, which cancels that work with
 * EIO (gem_eio in-flight-internal).  Then, resets and hangcheck back on,
 * the same stop is found by hangcheck as kind "badop" and recovered.
 */
static void test_badop_no_immediate_reset(void)
{
	int fd = gt_open(), other = gt_open();
	uint32_t flag = gt_create(fd, 4096), target = gt_create(other, 4096);
	uint64_t hangs = counter("hangs");
	struct gdfs_hang ev;
	int i;

	write_file("i915_params/enable_hangcheck", "0");
	write_file("i915_params/reset", "0");
	submit_stopping(fd, flag);
	gt_assert_eq(store(other, target, 0xbad), 0);
	/* Give an immediate handling every chance to show itself. */
	for (i = 0; i < 20; i++) {
		usleep(10000);
		gt_assert(gt_busy(other, target));
	}
	gt_assert_eq(counter("hangs"), hangs);
	gt_dfs_expect(dfs, "i915_wedged", "wedged :  0\n");
	gt_assert_eq(store(other, target, 0xbad), 0);

	write_file("i915_wedged", "18446744073709551615");
	gt_dfs_expect(dfs, "i915_wedged", "wedged :  1\n");
	gt_sync(other, target);
	gt_assert_eq(read_dword(other, target), 0);
	unwedge();

	/* Recovered by hangcheck alone, with the kind the stop had. */
	hangs = counter("hangs");
	submit_stopping(fd, flag);
	gt_assert_eq(store(other, target, 0x600d), 0);
	gt_assert_eq(counter("hangs"), hangs);
	write_file("i915_params/enable_hangcheck", "1");
	hang_wait(hangs, &ev);
	gt_assert_f(!strcmp(ev.kind, "badop"), "kind %s", ev.kind);
	gt_assert_eq(ev.ipehr, BAD_COMMAND);
	gt_assert_eq(ev.recovered, 1);
	gt_sync(other, target);
	gt_assert_eq(read_dword(other, target), 0x600d);
	gem_close(fd);
	gem_close(other);
}

/* Linux 6.1's mark_guilty: the third hang within 120 s bans. */
static void test_ban_third(void)
{
	int fd = gt_open();
	uint32_t target = gt_create(fd, 4096);
	struct drm_i915_reset_stats rs;

	bad_batch(fd);
	bad_batch(fd);
	gt_assert_eq(store(fd, target, 2), 0);
	gt_sync(fd, target);
	gt_assert_eq(read_dword(fd, target), 2);
	bad_batch(fd);
	gt_assert_eq(store(fd, target, 3), -EIO);
	reset_stats(fd, &rs);
	gt_assert_eq(rs.batch_active, 3);
	gem_close(fd);
}

/* An unrecoverable file is banned on its first hang. */
static void test_ban_unrecoverable(void)
{
	int fd = gt_open();
	struct drm_i915_gem_context_param p = {
		.param = I915_CONTEXT_PARAM_RECOVERABLE, .value = 0,
	};

	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &p), 0);
	bad_batch(fd);
	gt_assert_eq(store(fd, gt_create(fd, 4096), 1), -EIO);
	gem_close(fd);
}

/* A blit of many hangcheck periods of GPU time, progressing: no hang. */
static void test_long_blit(void)
{
	int fd = gt_open();
	struct gen3_surf dst = { .handle = gt_create(fd, BLIT_BYTES), .pitch = 1024,
				 .cpp = 4, .tiling = I915_TILING_NONE,
				 .size = BLIT_BYTES };
	struct gen3_rect r = { 0, 0, 256, BLIT_BYTES / 1024 };
	uint64_t hangs = counter("hangs");
	uint32_t v[2];
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_emit_color_blt(&b, &dst, &r, 0xa5a5f00d);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, gt_create(fd, 4096), &dst.handle, NULL, 1,
				0, NULL), 0);
	gt_sync(fd, dst.handle);
	gt_assert_eq(counter("hangs"), hangs);
	gt_read(fd, dst.handle, 0, &v[0], 4);
	gt_read(fd, dst.handle, BLIT_BYTES - 4, &v[1], 4);
	gt_assert_eq(v[0], 0xa5a5f00d);
	gt_assert_eq(v[1], 0xa5a5f00d);
	gem_close(fd);
}

/*
 * gem_gtt_hog's tiled objects: 257 rows of 4 KiB, X-tiled, so the last
 * row sits in a tile row the object only partly covers.  A fenced blit
 * of every row (gen3: tiling from the fence, no tiled bit) touches that
 * whole tile row, past the object but inside its fence-sized node, where
 * the kernel's PTEs point at the scratch page: no fault, no hang.
 */
static void test_fenced_blit_past_object(void)
{
	const uint32_t rows = 257, size = rows * 4096;
	int fd = gt_open();
	struct drm_i915_gem_set_tiling st = {
		.tiling_mode = I915_TILING_X, .stride = 4096,
	};
	struct gen3_surf dst = { .pitch = 4096, .cpp = 4,
				 .tiling = I915_TILING_X, .size = size };
	struct gen3_rect r = { 0, 0, 1024, (int)rows };
	uint64_t hangs = counter("hangs"), flags = EXEC_OBJECT_NEEDS_FENCE;
	uint32_t v[4];
	struct gen3_batch b;

	dst.handle = st.handle = gt_create(fd, size);
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st), 0);
	gen3_batch_reset(&b);
	gen3_emit_color_blt_cmd(&b, XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, &dst,
				&r, 0xcafe0001);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, gt_create(fd, 4096), &dst.handle, &flags,
				1, 0, NULL), 0);
	gt_sync(fd, dst.handle);
	gt_assert_eq(counter("hangs"), hangs);
	/* Rows 0-255 fill the first 32 tile rows; row 256 is the first 512
	 * bytes of the last page (tile 0, its row 0); rows 257-263 of that
	 * tile were not blitted. */
	gt_read(fd, dst.handle, 0, &v[0], 4);
	gt_read(fd, dst.handle, (1u << 20) - 4, &v[1], 4);
	gt_read(fd, dst.handle, 1u << 20, &v[2], 4);
	gt_read(fd, dst.handle, (1u << 20) + 512, &v[3], 4);
	gt_assert_eq(v[0], 0xcafe0001);
	gt_assert_eq(v[1], 0xcafe0001);
	gt_assert_eq(v[2], 0xcafe0001);
	gt_assert_eq(v[3], 0);
	gem_close(fd);
}

/* MI_NOOPs jumping back to their start: ACTHD moves, gets nowhere. */
static void submit_loop(int fd, uint32_t batch)
{
	struct gen3_batch b;
	int i;

	gt_assert_eq(gt_spin_watchdog(fd, batch, 120000), 0);
	gen3_batch_reset(&b);
	for (i = 0; i < 64; i++)
		gen3_batch_emit(&b, MI_NOOP);
	gen3_batch_emit(&b, MI_BATCH_BUFFER_START_GTT);
	/* To dword 0, where the watchdog's MI_BATCH_BUFFER_END lands. */
	gen3_batch_emit_reloc(&b, batch, MI_BATCH_NON_SECURE,
			      I915_GEM_DOMAIN_COMMAND, 0);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, NULL, NULL, 0, 0, NULL), 0);
}

/*
 * A loop from a file opened with i915.request_timeout_ms set to
 * timeout_ms ends in a hang of the given kind, charged to that file.
 * The budget for loops is 4 periods (200 ms) of GPU time: a 100 ms
 * watchdog, sampled first, always comes before it, whatever the load.
 */
static void loop_hang_kind(const char *timeout_ms, const char *kind)
{
	uint64_t hangs = counter("hangs");
	struct drm_i915_reset_stats rs;
	struct gdfs_hang ev;
	uint32_t batch;
	int fd;

	write_file("i915_params/request_timeout_ms", timeout_ms);
	fd = gt_open();		/* takes the timeout, as a new context */
	write_file("i915_params/request_timeout_ms", "20000");
	batch = gt_create(fd, 4096);
	submit_loop(fd, batch);
	hang_wait(hangs, &ev);
	gt_assert_f(!strcmp(ev.kind, kind), "kind %s", ev.kind);
	gt_sync(fd, batch);
	reset_stats(fd, &rs);
	gt_assert_eq(rs.batch_active, 1);
	gem_close(fd);
}

int main(int argc, char **argv)
{
	const char *args[] = { "--hangcheck", "50ms", "--gpu-rate", BLIT_RATE,
			       NULL };

	gemtest_init(argc, argv);
	device = gemtest_start_gemd(args);
	gt_program_timeout(300, gemtest_gemd_pid());
	gt_assert_eq(gdfs_open_socket(device, &dfs), 0);

	gemtest_subtest("wedge-idle-then-reset")
		test_wedge_idle();
	gemtest_subtest("wedge-cancels-in-flight")
		test_wedge_cancels_in_flight();
	gemtest_subtest("reset-stats")
		test_reset_stats();
	gemtest_subtest("badop-no-immediate-reset")
		test_badop_no_immediate_reset();
	gemtest_subtest("ban-on-third-hang")
		test_ban_third();
	gemtest_subtest("ban-unrecoverable")
		test_ban_unrecoverable();
	gemtest_subtest("long-blit-not-hung")
		test_long_blit();
	gemtest_subtest("fenced-blit-past-object")
		test_fenced_blit_past_object();
	gemtest_subtest("loop-runaway")
		loop_hang_kind("20000", "runaway");
	gemtest_subtest("request-watchdog")
		loop_hang_kind("100", "watchdog");
	gemtest_subtest("request-watchdog-off")
		loop_hang_kind("0", "runaway");

	gdfs_close(dfs);
	return gemtest_exit();
}
