/*
 * gem_context: the default context's parameters, the only context a 945G
 * has.  CONTEXT_SETPARAM stores what ctx_setparam of Linux 6.1 stores
 * without logical contexts; clearing BANNABLE (IGT's igt_allow_hang, as
 * root) keeps a file that hangs the GPU again and again from being banned.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemcontrol.h"
#include "gemdebugfs.h"
#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"
#include "strbuf.h"

#define BAD_COMMAND	0x23456789u	/* client 1: nothing on gen3 */

static const char *device;

static int setparam(int fd, uint32_t ctx, uint64_t param, uint64_t value, uint32_t size)
{
	struct drm_i915_gem_context_param p = {
		.ctx_id = ctx, .param = param, .value = value, .size = size,
	};

	return gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &p);
}

static uint64_t getparam(int fd, uint64_t param)
{
	struct drm_i915_gem_context_param p = { .param = param };

	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &p), 0);
	return p.value;
}

static void test_setparam(int fd)
{
	gt_assert_eq(getparam(fd, I915_CONTEXT_PARAM_BANNABLE), 1);
	gt_assert_eq(setparam(fd, 0, I915_CONTEXT_PARAM_BANNABLE, 0, 0), 0);
	gt_assert_eq(getparam(fd, I915_CONTEXT_PARAM_BANNABLE), 0);
	gt_assert_eq(setparam(fd, 0, I915_CONTEXT_PARAM_BANNABLE, 1, 0), 0);
	gt_assert_eq(getparam(fd, I915_CONTEXT_PARAM_BANNABLE), 1);
	gt_assert_eq(setparam(fd, 0, I915_CONTEXT_PARAM_NO_ERROR_CAPTURE, 1, 0), 0);
	gt_assert_eq(getparam(fd, I915_CONTEXT_PARAM_NO_ERROR_CAPTURE), 1);
	gt_assert_eq(setparam(fd, 0, I915_CONTEXT_PARAM_NO_ERROR_CAPTURE, 0, 0), 0);
	gt_assert_eq(setparam(fd, 0, I915_CONTEXT_PARAM_RECOVERABLE, 0, 0), 0);
	gt_assert_eq(setparam(fd, 0, I915_CONTEXT_PARAM_PERSISTENCE, 1, 0), 0);
	/* What gen3 has no scheduler or logical contexts for. */
	gt_assert_eq(setparam(fd, 0, I915_CONTEXT_PARAM_PERSISTENCE, 0, 0), -ENODEV);
	gt_assert_eq(setparam(fd, 0, I915_CONTEXT_PARAM_PRIORITY, 0, 0), -ENODEV);
	gt_assert_eq(setparam(fd, 0, I915_CONTEXT_PARAM_RINGSIZE, 8192, 0), -ENODEV);
	gt_assert_eq(setparam(fd, 0, I915_CONTEXT_PARAM_SSEU, 0, 0), -ENODEV);
	/* Nothing else, no size, no other context. */
	gt_assert_eq(setparam(fd, 0, I915_CONTEXT_PARAM_BAN_PERIOD, 0, 0), -EINVAL);
	gt_assert_eq(setparam(fd, 0, I915_CONTEXT_PARAM_GTT_SIZE, 0, 0), -EINVAL);
	gt_assert_eq(setparam(fd, 0, I915_CONTEXT_PARAM_BANNABLE, 1, 4), -EINVAL);
	gt_assert_eq(setparam(fd, 1, I915_CONTEXT_PARAM_BANNABLE, 1, 0), -ENOENT);
}

/* Only CAP_SYS_ADMIN may make a context unbannable. */
static void test_unbannable_needs_root(void)
{
	pid_t pid = fork();
	int status;

	gt_assert(pid >= 0);
	if (pid == 0) {
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		fd = gem_open(NULL, 0);
		if (fd < 0 || setparam(fd, 0, I915_CONTEXT_PARAM_BANNABLE, 0, 0) != -EPERM ||
		    setparam(fd, 0, I915_CONTEXT_PARAM_BANNABLE, 1, 0) != 0)
			_exit(1);
		_exit(0);
	}
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status 0x%x", status);
}

/* Hangs so far, from gemkit_counters. */
static uint64_t hangs(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct gdfs_counters c;
	struct gdfs *dfs;
	uint64_t v = 0;

	gt_assert_eq(gdfs_open_socket(device, &dfs), 0);
	gt_assert_eq(gdfs_read(dfs, "gemkit_counters", &sb), 0);
	gt_assert_eq(gdfs_parse_counters(sb.buf, sb.len, &c, NULL), 0);
	gt_assert(gdfs_counter(&c, "hangs", &v));
	gdfs_counters_release(&c);
	strbuf_release(&sb);
	gdfs_close(dfs);
	return v;
}

static void wait_hang(uint64_t after)
{
	struct gdfs_control *ctl;
	struct gdfs_hang ev;
	int result = 0;

	gt_assert_eq(gdfs_control_open(device, &ctl), 0);
	gt_assert_eq(gdfs_hang_wait(ctl, after, 30000, NULL, &ev, &result), 0);
	gt_assert_eq(result, 0);
	gdfs_control_close(ctl);
}

/* Three hangs in a row that would ban a bannable file leave it working. */
static void test_unbannable_not_banned(void)
{
	int fd = gt_open();
	struct gen3_batch b;
	uint64_t seq;
	int i;

	gt_assert_eq(setparam(fd, 0, I915_CONTEXT_PARAM_BANNABLE, 0, 0), 0);
	for (i = 0; i < 3; i++) {
		seq = hangs();
		gen3_batch_reset(&b);
		gen3_batch_emit(&b, BAD_COMMAND);
		gen3_batch_end(&b);
		gt_assert_eq(gt_execbuf(fd, &b, gt_create(fd, 4096), NULL, NULL, 0, 0,
					NULL), 0);
		wait_hang(seq);
	}
	gen3_batch_reset(&b);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, gt_create(fd, 4096), NULL, NULL, 0, 0, NULL), 0);
	gem_close(fd);
}

int main(int argc, char **argv)
{
	int fd;

	/* The nobody child must reach the device: open it to everyone, as
	 * the kernel's render node is (gemd's socket is 0600 otherwise). */
	static const char *const args[] = { "--mode", "0666", NULL };

	gemtest_init(argc, argv);
	device = gemtest_start_gemd(args);
	gt_program_timeout(120, gemtest_gemd_pid());
	chmod(gemtest_tmpdir(), 0755);
	fd = gt_open();

	gemtest_subtest("context-setparam")
		test_setparam(fd);
	if (geteuid() == 0)
		gemtest_subtest("unbannable-needs-root")
			test_unbannable_needs_root();
	gemtest_subtest("unbannable-not-banned")
		test_unbannable_not_banned();

	gem_close(fd);
	return gemtest_exit();
}
