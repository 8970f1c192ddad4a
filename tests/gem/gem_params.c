/*
 * gem_params: the i915 module parameters in debugfs (dri/0/i915_params/,
 * i915_debugfs_params.c of Linux 6.1) and what two of them change:
 * IGT's hang detector writes reset, and GETPARAM HAS_GPU_RESET follows
 * reset and enable_hangcheck.  Also the render node's debugfs directory
 * (dri/128/name), by which IGT finds the primary node's files, and
 * i915_swizzle_info, which IGT searches for an L-shaped memory layout,
 * and i915_wa_registers, empty for a gen3 ring (gem_workarounds skips).
 */
#include <stdlib.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemdebugfs.h"
#include "gemtest.h"
#include "gemtest-batch.h"
#include "gemtest-dfs.h"
#include "libgem.h"
#include "strbuf.h"

#define BAD_COMMAND	0x23456789u	/* client 1: nothing on gen3 */

static struct gdfs *dfs;

static void expect_file(const char *name, const char *text)
{
	gt_dfs_expect(dfs, name, text);
}

/* Linux 6.1 lists each engine's context workarounds; a gen3 ring has
 * none, and an engine without any prints nothing. */
static void test_wa_registers(void)
{
	expect_file("i915_wa_registers", "");
}

/* Until gemd has declared the device wedged (gemkit_counters), 60 s. */
static void wait_wedged(void)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < 600; i++) {
		strbuf_reset(&sb);
		gt_assert_eq(gdfs_read(dfs, "gemkit_counters", &sb), 0);
		if (strstr(sb.buf, " wedged=1"))
			break;
		usleep(100 * 1000);
	}
	gt_assert_f(strstr(sb.buf, " wedged=1"), "never wedged: %s", sb.buf);
	strbuf_release(&sb);
}

static void write_param(const char *name, const char *text, ssize_t expect)
{
	char path[128];

	snprintf(path, sizeof(path), "i915_params/%s", name);
	gt_assert_eq(gdfs_write(dfs, path, text, strlen(text)), expect);
}

static void expect_param(const char *name, const char *text)
{
	char path[128];

	snprintf(path, sizeof(path), "i915_params/%s", name);
	expect_file(path, text);
}

/* The era's defaults, in each type's format. */
static void test_defaults(void)
{
	expect_param("reset", "3\n");			/* unsigned int */
	expect_param("enable_hangcheck", "Y\n");	/* bool */
	expect_param("modeset", "-1\n");		/* int */
	expect_param("enable_ips", "1\n");
	expect_param("request_timeout_ms", "20000\n");
	expect_param("error_capture", "Y\n");
	expect_param("vbt_firmware", "(null)\n");	/* char *, NULL */
	expect_param("force_probe", "\n");		/* char *, empty */
	/* Probing sets "auto" (-1) to 0 before gen12: no GuC submission. */
	expect_param("enable_guc", "0\n");
	/* Parameters without a file (mode 0) do not exist. */
	gt_assert_eq(gdfs_read(dfs, "i915_params/inject_probe_failure", NULL), -ENOENT);
	gt_assert_eq(gdfs_read(dfs, "i915_params/verbose_state_checks", NULL), -ENOENT);
	gt_assert_eq(gdfs_read(dfs, "i915_params/no_such_param", NULL), -ENOENT);
}

/* kstrtouint_from_user(base 0), then kstrtobool, as i915_param_uint_write. */
static void test_write_uint(void)
{
	write_param("reset", "1", 1);
	expect_param("reset", "1\n");
	write_param("reset", "4294967295\n", 11);	/* IGT: "%u", -1u */
	expect_param("reset", "4294967295\n");
	write_param("reset", "0x10", 4);
	expect_param("reset", "16\n");
	write_param("reset", "010", 3);			/* octal */
	expect_param("reset", "8\n");
	write_param("reset", "n", 1);			/* a boolean word */
	expect_param("reset", "0\n");
	write_param("reset", "on", 2);
	expect_param("reset", "1\n");
	write_param("reset", "-1", -EINVAL);
	write_param("reset", "2 ", -EINVAL);
	/* Out of range, but its first character is a boolean "1". */
	write_param("reset", "18446744073709551616", 20);
	expect_param("reset", "1\n");
	write_param("reset", "3", 1);
	expect_param("reset", "3\n");
}

static void test_write_int_bool_string(void)
{
	write_param("enable_fbc", "-2\n", 3);
	expect_param("enable_fbc", "-2\n");
	write_param("enable_fbc", "2147483648", -EINVAL);	/* "2...": not a bool */
	write_param("enable_fbc", "-1", 2);
	expect_param("enable_fbc", "-1\n");

	write_param("enable_hangcheck", "0", 1);
	expect_param("enable_hangcheck", "N\n");
	write_param("enable_hangcheck", "yes", 3);
	expect_param("enable_hangcheck", "Y\n");
	write_param("enable_hangcheck", "maybe", -EINVAL);
	expect_param("enable_hangcheck", "Y\n");
}

/* 0400 parameters have no write: the socket says -EACCES. */
static void test_read_only(void)
{
	write_param("modeset", "0", -EACCES);
	expect_param("modeset", "-1\n");
	write_param("vbt_firmware", "x", -EACCES);
}

/* i915_getparam: enable_hangcheck && intel_has_gpu_reset (i915.reset). */
static void test_has_gpu_reset(int fd)
{
	gt_assert_eq(gt_getparam(fd, I915_PARAM_HAS_GPU_RESET), 1);
	write_param("reset", "0", 1);
	gt_assert_eq(gt_getparam(fd, I915_PARAM_HAS_GPU_RESET), 0);
	write_param("reset", "1", 1);
	gt_assert_eq(gt_getparam(fd, I915_PARAM_HAS_GPU_RESET), 1);
	write_param("enable_hangcheck", "N", 1);
	gt_assert_eq(gt_getparam(fd, I915_PARAM_HAS_GPU_RESET), 0);
	write_param("enable_hangcheck", "Y", 1);
	gt_assert_eq(gt_getparam(fd, I915_PARAM_HAS_GPU_RESET), 1);
}

/* The render node's directory shows the same name as the primary's. */
static void test_render_node_name(void)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	gt_assert_eq(gdfs_read(dfs, "dri/128/name", &a), 0);
	gt_assert_eq(gdfs_read(dfs, "name", &b), 0);
	gt_assert_f(!strcmp(a.buf, b.buf), "'%s' != '%s'", a.buf, b.buf);
	gt_assert_eq(gdfs_read(dfs, "dri/128/i915_gem_objects", NULL), -ENOENT);
	strbuf_release(&a);
	strbuf_release(&b);
}

/* gem_tiled_swapping skips on "L-shaped" memory; a 945G never is. */
static void test_swizzle_info(void)
{
	expect_file("i915_swizzle_info",
		    "bit6 swizzle for X-tiling = none\n"
		    "bit6 swizzle for Y-tiling = none\n"
		    "DDC = 0x00000000\n"
		    "C0DRB3 = 0x0020\n"
		    "C1DRB3 = 0x0020\n");
}

/* The directory is listed with dri/0's files. */
static void test_listed(void)
{
	struct strbuf sb = STRBUF_INIT;

	gt_assert_eq(gdfs_list(dfs, &sb), 0);
	gt_assert_f(strstr(sb.buf, "\ni915_params\n"), "no i915_params in:\n%s", sb.buf);
	strbuf_release(&sb);
}

/* i915.reset=0: a GPU error wedges the device instead of resetting it. */
static void test_reset_off_wedges(int fd)
{
	struct gen3_batch b;
	uint32_t batch = gt_create(fd, 4096), batch2 = gt_create(fd, 4096);

	write_param("reset", "0", 1);
	gen3_batch_reset(&b);
	gen3_batch_emit(&b, BAD_COMMAND);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, NULL, NULL, 0, 0, NULL), 0);
	gt_sync(fd, batch);
	/* i915_wedged says 1 as soon as the command streamer stops; the
	 * hangcheck thread wedges the device a moment later. */
	wait_wedged();
	expect_file("i915_wedged", "wedged :  1\n");
	gen3_batch_reset(&b);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch2, NULL, NULL, 0, 0, NULL), -EIO);
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

	gemtest_subtest("params-defaults")
		test_defaults();
	gemtest_subtest("params-write-uint")
		test_write_uint();
	gemtest_subtest("params-write-int-bool")
		test_write_int_bool_string();
	gemtest_subtest("params-read-only")
		test_read_only();
	gemtest_subtest("params-has-gpu-reset")
		test_has_gpu_reset(fd);
	gemtest_subtest("params-listed")
		test_listed();
	gemtest_subtest("render-node-name")
		test_render_node_name();
	gemtest_subtest("swizzle-info")
		test_swizzle_info();
	gemtest_subtest("wa-registers-empty")
		test_wa_registers();
	/* Last: the device stays wedged. */
	gemtest_subtest("params-reset-off-wedges")
		test_reset_off_wedges(fd);

	gem_close(fd);
	gdfs_close(dfs);
	return gemtest_exit();
}
