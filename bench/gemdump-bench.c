/*
 * gemdump-bench: gemdump's two performance goals, each against a floor
 * measured in the same run (not a test: it prints ratios).
 *
 *   decode   `gemdump decode` vs `intel_dump_decode -d 0x2772` on the same
 *            1 MiB batch; goal: ratio (their time / ours) >= 1.
 *   capture  `gemdump capture` of a gemd whose aperture is full of bound
 *            objects vs writing the same number of bytes sequentially to
 *            the same directory; goal: >= 50% of that write rate.
 *
 *   gemdump-bench [--gemd PATH] [--gemdump PATH] [--aperture SIZE] [--dir DIR]
 *
 * Run from the build directory (the defaults are ./gemd and
 * ./gemdump/gemdump).  Each timing is the best of three.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <i915_drm.h>

#include "cmd.h"
#include "libgem.h"
#include "strbuf.h"
#include "util.h"

#define RUNS 3

static const char *gemd_path = "./gemd", *gemdump_path = "./gemdump/gemdump";

/* Run argv with stdout to out (NULL: /dev/null); returns ns or 0 on failure. */
static uint64_t run(const char *const argv[], const char *out)
{
	uint64_t t0 = now_ns();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 0;
	if (pid == 0) {
		int fd = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0)
			dup2(fd, 1);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return 0;
	return now_ns() - t0;
}

/* Best of 2 * RUNS runs of each, alternating, so that a burst of load
 * from elsewhere on the machine hits both alike. */
static void best2(const char *const a[], const char *const b[], uint64_t *ta, uint64_t *tb)
{
	uint64_t t;
	int i;

	*ta = *tb = 0;
	for (i = 0; i < 2 * RUNS; i++) {
		t = run(a, NULL);
		if (t && (!*ta || t < *ta))
			*ta = t;
		t = run(b, NULL);
		if (t && (!*tb || t < *tb))
			*tb = t;
	}
}

/* A 1 MiB batch of MI, 2D and 3D commands that the decoder names. */
static int write_batch(const char *path)
{
	static const uint32_t pattern[] = {
		0x54300004, 0x03f01000, 0x00000000, 0x00640064, 0x00100000, 0xffff0000,
		0x02000000, 0x00000000,
		0x10000002, 0x00000000, 0x00100000, 0xdeadbeef,
		0x7d8e0001, 0x03001000, 0x00100000,
		0x7d800003, 0x00000000, 0x00000000, 0x00ff00ff, 0x00000000,
		0x6d000000, 0x7f800003, 0x00000000,
		0x54f00006, 0x03cc1000, 0x00000000, 0x00100010, 0x00200000, 0x00000000,
		0x00001000, 0x00300000,
	};
	size_t n = (1u << 20) / 4, i;
	uint32_t *v = malloc(n * 4);
	int fd, ret = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		v[i] = pattern[i % ARRAY_SIZE(pattern)];
	v[n - 1] = MI_BATCH_BUFFER_END;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write_full(fd, v, n * 4) < 0)
		ret = -errno;
	if (fd >= 0)
		close(fd);
	free(v);
	return ret;
}

static void bench_decode(const char *dir)
{
	struct strbuf path = STRBUF_INIT;
	uint64_t ours, theirs;

	strbuf_addf(&path, "%s/batch-1m.bin", dir);
	if (write_batch(path.buf)) {
		printf("decode:  cannot write %s\n", path.buf);
		goto out;
	}
	{
		const char *g[] = { gemdump_path, "decode", path.buf, NULL };
		const char *i[] = { "intel_dump_decode", "-d", "0x2772", path.buf, NULL };

		best2(g, i, &ours, &theirs);
	}
	if (!ours) {
		printf("decode:  gemdump decode failed\n");
		goto out;
	}
	if (!theirs) {
		printf("decode:  gemdump %.1f ms; intel_dump_decode not available: no ratio\n",
		       ours / 1e6);
		goto out;
	}
	printf("decode:  gemdump %.1f ms, intel_dump_decode %.1f ms on 1 MiB: "
	       "ratio %.2f (goal >= 1.00) %s\n", ours / 1e6, theirs / 1e6,
	       (double)theirs / ours, theirs >= ours ? "PASS" : "MISS");
out:
	strbuf_release(&path);
}

/* Fill the aperture: objects bound by one execbuffer each. */
static int fill_aperture(const char *sock, uint64_t aperture, int *fdp, uint64_t *bytes)
{
	const uint64_t chunk = 8u << 20;
	uint32_t bb[2] = { MI_BATCH_BUFFER_END, MI_NOOP }, batch;
	struct drm_i915_gem_create c = { .size = 4096 };
	struct drm_i915_gem_pwrite pw = { .size = sizeof(bb), .data_ptr = (uintptr_t)bb };
	uint64_t off, total = 0;
	int fd = gem_open(sock, O_RDWR);

	if (fd < 0)
		return -errno;
	if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c))
		return -errno;
	batch = pw.handle = c.handle;
	if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw))
		return -errno;
	/* Leave room for the ring, the batch and the status page. */
	for (off = 0; off + chunk <= aperture - (1u << 20); off += chunk) {
		struct drm_i915_gem_exec_object2 obj[2] = { { 0 }, { .handle = batch } };
		struct drm_i915_gem_execbuffer2 eb = {
			.buffers_ptr = (uintptr_t)obj, .buffer_count = 2, .batch_len = 8,
		};
		struct drm_i915_gem_set_domain sd = {
			.read_domains = I915_GEM_DOMAIN_GTT, .write_domain = I915_GEM_DOMAIN_GTT,
		};

		c.size = chunk;
		if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c))
			return -errno;
		/* Touch it through the GTT domain so the bytes are real. */
		sd.handle = c.handle;
		gem_ioctl(fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd);
		obj[0].handle = c.handle;
		if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb))
			return -errno;
		total += chunk;
	}
	*fdp = fd;
	*bytes = total;
	return 0;
}

static uint64_t write_floor(const char *dir, uint64_t bytes)
{
	struct strbuf path = STRBUF_INIT;
	size_t buflen = 1u << 20;
	uint64_t t0, left, b = 0, t;
	char *buf = malloc(buflen);
	int i, fd;

	if (!buf)
		return 0;
	memset(buf, 0x5a, buflen);
	strbuf_addf(&path, "%s/floor.bin", dir);
	for (i = 0; i < RUNS; i++) {
		t0 = now_ns();
		fd = open(path.buf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			break;
		for (left = bytes; left; left -= MIN(left, buflen))
			if (write_full(fd, buf, MIN(left, buflen)) < 0)
				break;
		close(fd);
		t = now_ns() - t0;
		if (!b || t < b)
			b = t;
		unlink(path.buf);
	}
	free(buf);
	strbuf_release(&path);
	return b;
}

static void bench_capture(const char *dir, const char *aperture_s, bool fuse)
{
	struct strbuf sock = STRBUF_INIT, pidf = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf dfs = STRBUF_INIT, logf = STRBUF_INIT;
	uint64_t aperture, bytes = 0, t, floor_ns, b = 0;
	char pid_s[32] = "";
	struct stat st;
	int fd = -1, i, pfd;

	if (parse_size(aperture_s, &aperture)) {
		printf("capture: bad --aperture '%s'\n", aperture_s);
		return;
	}
	/* Names of their own per run: the last gemd may still be exiting. */
	strbuf_addf(&sock, "%s/card0-%s", dir, fuse ? "fuse" : "sock");
	strbuf_addf(&pidf, "%s/gemd-%s.pid", dir, fuse ? "fuse" : "sock");
	strbuf_addf(&logf, "%s/gemd-%s.log", dir, fuse ? "fuse" : "sock");
	strbuf_addf(&out, "%s/full.core", dir);
	strbuf_addf(&dfs, "%s/debugfs", dir);
	{
		const char *g[] = { gemd_path, "-D", sock.buf, "--daemon", "--pidfile",
			      pidf.buf, "--log-file", logf.buf, "--aperture", aperture_s,
			      "--no-debugfs", NULL, NULL };

		if (fuse) {
			g[10] = "--debugfs";
			g[11] = dfs.buf;
		}

		if (!run(g, NULL)) {
			printf("capture: cannot start %s\n", gemd_path);
			goto out;
		}
	}
	if (fill_aperture(sock.buf, aperture, &fd, &bytes)) {
		printf("capture: cannot fill the aperture: %s\n", strerror(errno));
		goto out_gemd;
	}
	{
		const char *g[] = { gemdump_path, "-D", sock.buf, "capture", "-q", "-o",
			      out.buf, NULL, NULL, NULL };

		if (fuse) {
			g[1] = "--debugfs";
			g[2] = dfs.buf;
		}

		for (i = 0; i < RUNS; i++) {
			t = run(g, NULL);
			if (!t) {
				printf("capture: gemdump capture failed\n");
				goto out_gemd;
			}
			if (!b || t < b)
				b = t;
		}
	}
	if (stat(out.buf, &st))
		st.st_size = 0;
	floor_ns = write_floor(dir, (uint64_t)st.st_size);
	unlink(out.buf);
	printf("capture (%s): %.0f MiB of objects (file %.0f MiB) in %.0f ms = %.0f MiB/s; "
	       "sequential write %.0f MiB/s: %.0f%% (goal >= 50%%) %s\n",
	       fuse ? "FUSE debugfs" : "socket", bytes / 1048576.0, st.st_size / 1048576.0, b / 1e6,
	       st.st_size / 1048576.0 / (b / 1e9),
	       st.st_size / 1048576.0 / (floor_ns / 1e9), 100.0 * floor_ns / b,
	       2 * floor_ns >= b ? "PASS" : "MISS");
out_gemd:
	if (fd >= 0)
		close(fd);
	pfd = open(pidf.buf, O_RDONLY);
	if (pfd >= 0) {
		ssize_t n = read(pfd, pid_s, sizeof(pid_s) - 1);

		close(pfd);
		if (n > 0 && atoi(pid_s) > 0)
			kill(atoi(pid_s), SIGTERM);
	}
out:
	strbuf_release(&sock);
	strbuf_release(&pidf);
	strbuf_release(&out);
	strbuf_release(&dfs);
	strbuf_release(&logf);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "gemd", required_argument, NULL, 'g' },
		{ "gemdump", required_argument, NULL, 'd' },
		{ "aperture", required_argument, NULL, 'a' },
		{ "dir", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *aperture = "256M", *dir = NULL;
	char tmpl[] = "/tmp/gemdump-bench.XXXXXX";
	int opt;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'g':
			gemd_path = optarg;
			break;
		case 'd':
			gemdump_path = optarg;
			break;
		case 'a':
			aperture = optarg;
			break;
		case 'D':
			dir = optarg;
			break;
		case 'h':
			printf("usage: gemdump-bench [--gemd PATH] [--gemdump PATH] "
			       "[--aperture SIZE] [--dir DIR]\n");
			return 0;
		default:
			return 2;
		}
	}
	if (!dir) {
		dir = mkdtemp(tmpl);
		if (!dir) {
			perror("mkdtemp");
			return 1;
		}
	}
	bench_decode(dir);
	/* Through the FUSE mount (the tools' default when gemd has one), and
	 * through the socket (hosts without /dev/fuse). */
	if (fuse_available())
		bench_capture(dir, aperture, true);
	bench_capture(dir, aperture, false);
	return 0;
}
