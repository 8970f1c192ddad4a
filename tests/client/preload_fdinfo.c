/*
 * preload_fdinfo: /proc/self/fdinfo/<fd> of a device fd under the
 * interposer answers as Linux does for a DRM file: the VFS's lines, then
 * the file's usage stats (drm-driver, drm-client-id, drm-engine-render,
 * drm-total-system ...) with that fd's own figures, read by a parser
 * written from the kernel's document (gdfs_parse_fdinfo).  Other fds'
 * fdinfo stays the kernel's; it cannot be opened for writing.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemdebugfs.h"
#include "gemtest.h"
#include "preload-test.h"
#include "strbuf.h"

static int open_card(void)
{
	int fd = open("/dev/dri/card0", O_RDWR);

	gt_assert_f(fd >= 0, "open card0: %s", strerror(errno));
	return fd;
}

static uint32_t create(int fd, uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };

	gt_assert_eq(ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c), 0);
	return c.handle;
}

/* The whole of path (read(2) in small pieces, as cat does). */
static void slurp(const char *path, struct strbuf *sb)
{
	char buf[61];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	gt_assert_f(fd >= 0, "open %s: %s", path, strerror(errno));
	strbuf_reset(sb);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		gt_assert_eq(strbuf_add(sb, buf, (size_t)n), 0);
	gt_assert_eq(n, 0);
	close(fd);
}

/* The value of "key:\t<value>\n" in text, or -1. */
static long long value_of(const char *text, const char *key)
{
	char pat[96];
	const char *p;

	snprintf(pat, sizeof(pat), "\n%s:\t", key);
	p = strstr(text, pat);
	return p ? strtoll(p + strlen(pat), NULL, 10) : -1;
}

int main(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	char path[64];
	int a, b;

	preload_test_init(argc, argv);
	a = open_card();
	b = open_card();

	gemtest_subtest("fdinfo-has-the-vfs-lines-then-the-drm-keys") {
		struct drm_i915_gem_madvise m = { .madv = I915_MADV_DONTNEED };

		uint32_t v = 1;
		struct drm_i915_gem_pwrite pw = {
			.size = sizeof(v), .data_ptr = (uintptr_t)&v,
		};

		create(a, 4096);
		m.handle = create(a, 8192);
		/* pages, or DONTNEED purges the object at once */
		pw.handle = m.handle;
		gt_assert_eq(ioctl(a, DRM_IOCTL_I915_GEM_PWRITE, &pw), 0);
		gt_assert_eq(ioctl(a, DRM_IOCTL_I915_GEM_MADVISE, &m), 0);
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", a);
		slurp(path, &sb);
		gt_assert_f(!strncmp(sb.buf, "pos:\t", 5), "%s", sb.buf);
		gt_assert(strstr(sb.buf, "\nflags:\t"));
		gt_assert(strstr(sb.buf, "\ndrm-driver:\ti915\n"));
		gt_assert(strstr(sb.buf, "\ndrm-pdev:\t0000:00:02.0\n"));
		gt_assert_eq(value_of(sb.buf, "drm-total-system"), 12);
		gt_assert(strstr(sb.buf, "\ndrm-total-system:\t12 KiB\n"));
		gt_assert_eq(value_of(sb.buf, "drm-resident-system"), 12);
		gt_assert_eq(value_of(sb.buf, "drm-purgeable-system"), 8);
		gt_assert_eq(value_of(sb.buf, "drm-active-system"), 0);
		gt_assert(strstr(sb.buf, "\ndrm-engine-render:\t0 ns\n"));
		gt_assert_eq(value_of(sb.buf, "gemkit-ioctl-i915-gem-create"), 2);
		gt_assert_eq(value_of(sb.buf, "gemkit-ioctl-i915-gem-madvise"), 1);
		gt_assert_eq(value_of(sb.buf, "gemkit-execbuffers"), 0);
		gt_assert(value_of(sb.buf, "gemkit-cpu-ns") > 0);
		gt_assert(value_of(sb.buf, "gemkit-cpu-mm-ns") > 0);
	}

	gemtest_subtest("each-fd-its-own-file-parsed-by-the-kernel-grammar") {
		struct gdfs_clients ca, cb;

		create(b, 65536);
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", a);
		slurp(path, &sb);
		gt_assert_eq(gdfs_parse_fdinfo(sb.buf, sb.len, &ca, &err), 0);
		snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)getpid(), b);
		slurp(path, &sb);
		gt_assert_eq(gdfs_parse_fdinfo(sb.buf, sb.len, &cb, &err), 0);
		gt_assert_eq(ca.n, 1);
		gt_assert_eq(cb.n, 1);
		gt_assert(ca.v[0].file != cb.v[0].file);
		gt_assert_eq_u64(ca.v[0].total_bytes, 12288);
		gt_assert_eq_u64(ca.v[0].purgeable_bytes, 8192);
		gt_assert_eq_u64(cb.v[0].total_bytes, 65536);
		gt_assert_eq_u64(cb.v[0].purgeable_bytes, 0);
		gt_assert_eq_u64(cb.v[0].ioctls, 1);
		gdfs_clients_release(&ca);
		gdfs_clients_release(&cb);
	}

	gemtest_subtest("openat-in-an-open-fdinfo-dir-as-igt-does") {
		char name[16], buf[4096];
		ssize_t n;
		int dir, fd;

		dir = open("/proc/self/fdinfo", O_DIRECTORY | O_RDONLY);
		gt_assert(dir >= 0);
		snprintf(name, sizeof(name), "%d", b);
		fd = openat(dir, name, O_RDONLY);
		gt_assert_f(fd >= 0, "openat: %s", strerror(errno));
		n = read(fd, buf, sizeof(buf) - 1);
		gt_assert(n > 0);
		buf[n] = '\0';
		gt_assert(strstr(buf, "\ndrm-total-system:\t64 KiB\n"));
		close(fd);
		close(dir);
	}

	gemtest_subtest("fopen-reads-the-same") {
		FILE *f;
		char line[128];
		bool seen = false;

		snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", b);
		f = fopen(path, "r");
		gt_assert(f);
		while (fgets(line, sizeof(line), f))
			seen |= !strcmp(line, "drm-total-system:\t64 KiB\n");
		fclose(f);
		gt_assert(seen);
	}

	gemtest_subtest("read-only-and-other-fds-untouched") {
		int fd;

		snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", a);
		errno = 0;
		gt_assert_eq(open(path, O_WRONLY), -1);
		gt_assert_eq(errno, EACCES);
		fd = open("/dev/null", O_RDONLY);
		gt_assert(fd >= 0);
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
		slurp(path, &sb);
		gt_assert(!strstr(sb.buf, "drm-driver"));
		gt_assert(strstr(sb.buf, "pos:\t0\n"));
		close(fd);
	}

	close(a);
	close(b);
	strbuf_release(&sb);
	strbuf_release(&err);
	return gemtest_exit();
}
