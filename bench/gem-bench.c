/*
 * gem-bench: how far gemd is from the floors it cannot beat, measured in
 * the same run: an ioctl and a nop execbuffer against an AF_UNIX round
 * trip between two threads of this process, pwrite/pread against memcpy
 * of the same size.  It starts nothing: gemd must be running at the
 * device path (-D, else $GEM_DEVICE, else the default).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "cmd.h"
#include "libgem.h"
#include "util.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"	/* built without config.h */
#endif

#define EXIT_USAGE	2
#define MSG_SIZE	32
#define MiB		(1ull << 20)

struct opts {
	const char *device;
	unsigned long iterations;
	unsigned long repeat;
	bool json;
};

/* One measured operation: per-op nanoseconds over the repeats. */
struct result {
	const char *name;
	const char *floor;		/* name of the floor it is held against */
	double median, min, max;	/* ns per operation */
	double ratio;			/* median / floor median, 0 if none */
	double goal;			/* highest acceptable ratio, 0 if none */
};

#define MAX_RESULTS 16
static struct result results[MAX_RESULTS];
static int nresults;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("gem-bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("gem-bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'gem-bench --help' for more information.\n", stderr);
	exit(EXIT_USAGE);
}

static void show_help(void)
{
	printf("Usage: gem-bench [OPTION]...\n"
	       "Measure a running gemd against floors taken in the same run.\n\n"
	       "  -D, --device PATH      the gemd socket (default: the device path rule)\n"
	       "  -n, --iterations N     operations per measurement (default 2000)\n"
	       "  -r, --repeat N         measurements per operation; the median is\n"
	       "                         reported with the spread (default 5)\n"
	       "      --json             print the results as JSON\n"
	       "  -h, --help             show this help and exit\n"
	       "  -V, --version          show the version and exit\n\n"
	       "Floors: an AF_UNIX SOCK_STREAM round trip of %d bytes between two\n"
	       "threads of this process, and memcpy of the same size (warm buffers).\n"
	       "Goals: ioctl <= 1.25x the round trip, nop execbuffer <= 1.5x,\n"
	       "pwrite/pread of 1 MiB and more within 2x of memcpy.  Each goal is\n"
	       "reported PASS or MISS; the exit status is 0 whenever the measurements\n"
	       "ran, 1 on a runtime error, 2 on a usage error.\n"
	       "The device path is -D, else $GEM_DEVICE, else $XDG_RUNTIME_DIR/gemkit/card0,\n"
	       "else /run/gemkit/card0 for root and /tmp/gemkit-$UID/card0 for others.\n",
	       MSG_SIZE);
}

static unsigned long parse_count(const char *opt, const char *s)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v == 0 || v > 100000000ul || s[0] == '-')
		usage_error("invalid %s '%s': must be a positive number", opt, s);
	return v;
}

static void parse_options(int argc, char **argv, struct opts *o)
{
	enum { OPT_JSON = 256 };
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'D' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":D:n:r:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'D':
			o->device = optarg;
			break;
		case 'n':
			o->iterations = parse_count("--iterations", optarg);
			break;
		case 'r':
			o->repeat = parse_count("--repeat", optarg);
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case 'h':
			show_help();
			exit(0);
		case 'V':
			printf("gem-bench (gemkit) %s\n", PACKAGE_VERSION);
			exit(0);
		case ':':
			usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			if (optopt && optopt < 256)
				usage_error("unknown option '-%c'", optopt);
			usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
}

/* --- statistics ---------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Run fn(arg, iters) repeat times; each run gives ns per operation. */
typedef void (*bench_fn)(void *arg, unsigned long iters);

static struct result *measure(const char *name, bench_fn fn, void *arg,
			      unsigned long iters, unsigned long repeat)
{
	double *t = calloc(repeat, sizeof(*t));
	struct result *r;
	unsigned long i;

	if (!t)
		die("out of memory");
	if (nresults >= MAX_RESULTS)
		die("too many results");
	fn(arg, iters < 16 ? 1 : iters / 16);	/* warm up */
	for (i = 0; i < repeat; i++) {
		uint64_t t0 = now_ns();

		fn(arg, iters);
		t[i] = (double)(now_ns() - t0) / (double)iters;
	}
	qsort(t, repeat, sizeof(*t), cmp_double);
	r = &results[nresults++];
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->min = t[0];
	r->max = t[repeat - 1];
	r->median = repeat & 1 ? t[repeat / 2] : (t[repeat / 2 - 1] + t[repeat / 2]) / 2;
	free(t);
	return r;
}

static void against(struct result *r, const struct result *floor, const char *fname,
		    double goal)
{
	r->floor = fname;
	r->ratio = floor->median > 0 ? r->median / floor->median : 0;
	r->goal = goal;
}

/* --- the floors ------------------------------------------------------------ */

/*
 * The floor for a request is a round trip to another *process* blocked in
 * read(), as gemd's connection thread is: a thread of our own could share
 * our CPU and skip the cross-CPU wake-up every gemd request pays.
 */
struct sock_pair {
	int fd[2];
	pid_t echo;
};

static void echo_main(int fd)
{
	char buf[MSG_SIZE];

	while (read_full(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf))
		if (write_full(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			break;
	_exit(0);
}

static void bench_socket(void *arg, unsigned long iters)
{
	struct sock_pair *sp = arg;
	char buf[MSG_SIZE] = "gem-bench round trip";
	unsigned long i;

	for (i = 0; i < iters; i++) {
		if (write_full(sp->fd[0], buf, sizeof(buf)) != (ssize_t)sizeof(buf) ||
		    read_full(sp->fd[0], buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			die("socket round trip failed");
	}
}

struct copy {
	void *dst, *src;
	size_t len;
};

static void bench_memcpy(void *arg, unsigned long iters)
{
	struct copy *c = arg;
	unsigned long i;

	for (i = 0; i < iters; i++) {
		memcpy(c->dst, c->src, c->len);
		/* Keep the compiler from dropping the copy. */
		__asm__ __volatile__("" : : "r"(c->dst) : "memory");
	}
}

/* --- gemd ---------------------------------------------------------------- */

static void xioctl(int fd, unsigned long request, void *arg, const char *what)
{
	if (gem_ioctl(fd, request, arg))
		die("%s: %s", what, strerror(errno));
}

static void bench_getparam(void *arg, unsigned long iters)
{
	int fd = *(int *)arg, value;
	struct drm_i915_getparam gp = { .param = I915_PARAM_CHIPSET_ID, .value = &value };
	unsigned long i;

	for (i = 0; i < iters; i++)
		xioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp, "GETPARAM");
}

struct nop {
	int fd;
	uint32_t batch;
};

static void bench_nop_exec(void *arg, unsigned long iters)
{
	struct nop *n = arg;
	struct drm_i915_gem_exec_object2 obj = { .handle = n->batch };
	struct drm_i915_gem_execbuffer2 eb;
	struct drm_i915_gem_wait wait = { .bo_handle = n->batch, .timeout_ns = -1 };
	unsigned long i;

	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = (uint64_t)(uintptr_t)&obj;
	eb.buffer_count = 1;
	eb.flags = I915_EXEC_HANDLE_LUT | I915_EXEC_NO_RELOC;
	for (i = 0; i < iters; i++)
		xioctl(n->fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb, "EXECBUFFER2");
	/* The work submitted is part of the cost. */
	xioctl(n->fd, DRM_IOCTL_I915_GEM_WAIT, &wait, "GEM_WAIT");
}

static void bench_create_close(void *arg, unsigned long iters)
{
	int fd = *(int *)arg;
	unsigned long i;

	for (i = 0; i < iters; i++) {
		struct drm_i915_gem_create c = { .size = 4096 };
		struct drm_gem_close cl;

		xioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c, "GEM_CREATE");
		cl.handle = c.handle;
		cl.pad = 0;
		xioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl, "GEM_CLOSE");
	}
}

struct rw {
	int fd;
	uint32_t handle;
	void *buf;
	size_t len;
};

static void bench_pwrite(void *arg, unsigned long iters)
{
	struct rw *rw = arg;
	struct drm_i915_gem_pwrite pw = {
		.handle = rw->handle, .size = rw->len,
		.data_ptr = (uint64_t)(uintptr_t)rw->buf,
	};
	unsigned long i;

	for (i = 0; i < iters; i++)
		xioctl(rw->fd, DRM_IOCTL_I915_GEM_PWRITE, &pw, "GEM_PWRITE");
}

static void bench_pread(void *arg, unsigned long iters)
{
	struct rw *rw = arg;
	struct drm_i915_gem_pread pr = {
		.handle = rw->handle, .size = rw->len,
		.data_ptr = (uint64_t)(uintptr_t)rw->buf,
	};
	unsigned long i;

	for (i = 0; i < iters; i++)
		xioctl(rw->fd, DRM_IOCTL_I915_GEM_PREAD, &pr, "GEM_PREAD");
}

/* Fewer iterations for big copies: about 256 MiB per measurement. */
static unsigned long iters_for(const struct opts *o, size_t len)
{
	unsigned long n = (unsigned long)((256 * MiB) / len);

	if (n > o->iterations)
		n = o->iterations;
	return n < 3 ? 3 : n;
}

static void *xmalloc_touched(size_t len, int c)
{
	void *p = malloc(len);

	if (!p)
		die("out of memory (%zu bytes)", len);
	memset(p, c, len);
	return p;
}

static void run_copies(const struct opts *o, int fd)
{
	static const struct { size_t len; const char *tag; bool goal; } sizes[] = {
		{ 4096, "4 KiB", false },
		{ MiB, "1 MiB", true },
		{ 64 * MiB, "64 MiB", true },
	};
	static char names[3][3][32];
	size_t i;

	for (i = 0; i < 3; i++) {
		size_t len = sizes[i].len;
		unsigned long n = iters_for(o, len);
		struct drm_i915_gem_create c = { .size = len };
		struct drm_gem_close cl = { 0 };
		struct copy cp;
		struct rw rw;
		struct result *floor, *r;

		xioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c, "GEM_CREATE");
		cp.src = xmalloc_touched(len, 1);
		cp.dst = xmalloc_touched(len, 2);
		cp.len = len;
		rw.fd = fd;
		rw.handle = c.handle;
		rw.buf = cp.src;
		rw.len = len;

		snprintf(names[i][0], sizeof(names[i][0]), "memcpy %s", sizes[i].tag);
		snprintf(names[i][1], sizeof(names[i][1]), "pwrite %s", sizes[i].tag);
		snprintf(names[i][2], sizeof(names[i][2]), "pread %s", sizes[i].tag);
		floor = measure(names[i][0], bench_memcpy, &cp, n, o->repeat);
		r = measure(names[i][1], bench_pwrite, &rw, n, o->repeat);
		against(r, floor, names[i][0], sizes[i].goal ? 2.0 : 0);
		rw.buf = cp.dst;
		r = measure(names[i][2], bench_pread, &rw, n, o->repeat);
		against(r, floor, names[i][0], sizes[i].goal ? 2.0 : 0);

		cl.handle = c.handle;
		xioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl, "GEM_CLOSE");
		free(cp.src);
		free(cp.dst);
	}
}

static void run_all(const struct opts *o, int fd)
{
	struct sock_pair sp;
	struct result *sock, *r;
	struct nop nop = { .fd = fd };
	struct drm_i915_gem_create c = { .size = 4096 };
	uint32_t bbe[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	struct drm_i915_gem_pwrite pw = { .size = sizeof(bbe),
					  .data_ptr = (uint64_t)(uintptr_t)bbe };
	struct drm_gem_close cl = { 0 };

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp.fd) < 0)
		die("socketpair: %s", strerror(errno));
	sp.echo = fork();
	if (sp.echo < 0)
		die("cannot start the echo process: %s", strerror(errno));
	if (sp.echo == 0) {
		close(sp.fd[0]);
		echo_main(sp.fd[1]);
	}
	close(sp.fd[1]);
	sock = measure("socket round trip", bench_socket, &sp, o->iterations, o->repeat);

	r = measure("ioctl (GETPARAM)", bench_getparam, &fd, o->iterations, o->repeat);
	against(r, sock, "socket round trip", 1.25);

	xioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c, "GEM_CREATE");
	nop.batch = c.handle;
	pw.handle = c.handle;
	xioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw, "GEM_PWRITE");
	r = measure("nop execbuffer", bench_nop_exec, &nop, o->iterations, o->repeat);
	against(r, sock, "socket round trip", 1.5);
	cl.handle = c.handle;
	xioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl, "GEM_CLOSE");

	r = measure("create+close 4 KiB", bench_create_close, &fd, o->iterations, o->repeat);
	against(r, sock, "socket round trip", 0);

	close(sp.fd[0]);
	waitpid(sp.echo, NULL, 0);

	run_copies(o, fd);
}

/* --- output ---------------------------------------------------------------- */

static const char *status(const struct result *r)
{
	if (!r->goal)
		return NULL;
	return r->ratio <= r->goal ? "PASS" : "MISS";
}

static void fmt_time(char *buf, size_t len, double ns)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.2f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
}

static double spread_pct(const struct result *r)
{
	return r->median > 0 ? 100.0 * (r->max - r->min) / r->median : 0;
}

static void print_table(const struct opts *o, const char *device)
{
	int i, pass = 0, miss = 0;

	printf("gem-bench %s: %s, %lu iterations (fewer for big copies), "
	       "median of %lu runs\n\n", PACKAGE_VERSION, device, o->iterations,
	       o->repeat);
	printf("%-20s %11s %8s  %-20s %7s  %s\n", "operation", "median", "spread",
	       "floor", "ratio", "goal");
	for (i = 0; i < nresults; i++) {
		const struct result *r = &results[i];
		const char *st = status(r);
		char t[32], ratio[16] = "-", goal[32] = "";

		fmt_time(t, sizeof(t), r->median);
		if (r->floor)
			snprintf(ratio, sizeof(ratio), "%.2fx", r->ratio);
		if (st) {
			snprintf(goal, sizeof(goal), "<= %.2fx %s", r->goal, st);
			if (r->ratio <= r->goal)
				pass++;
			else
				miss++;
		}
		printf("%-20s %11s %7.1f%%  %-20s %7s  %s\n", r->name, t, spread_pct(r),
		       r->floor ? r->floor : "-", ratio, goal);
	}
	printf("\nspread: (slowest - fastest run) / median.  goals: %d PASS, %d MISS\n",
	       pass, miss);
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void print_json(const struct opts *o, const char *device)
{
	int i;

	printf("{\"version\":");
	json_string(PACKAGE_VERSION);
	printf(",\"device\":");
	json_string(device);
	printf(",\"iterations\":%lu,\"repeat\":%lu,\"results\":[", o->iterations,
	       o->repeat);
	for (i = 0; i < nresults; i++) {
		const struct result *r = &results[i];
		const char *st = status(r);

		printf("%s{\"name\":", i ? "," : "");
		json_string(r->name);
		printf(",\"median_ns\":%.1f,\"min_ns\":%.1f,\"max_ns\":%.1f",
		       r->median, r->min, r->max);
		if (r->floor) {
			printf(",\"floor\":");
			json_string(r->floor);
			printf(",\"ratio\":%.4f", r->ratio);
		}
		if (st)
			printf(",\"goal_ratio\":%.2f,\"status\":\"%s\"", r->goal, st);
		putchar('}');
	}
	printf("]}\n");
}

int main(int argc, char **argv)
{
	struct opts o = { .iterations = 2000, .repeat = 5 };
	const char *device;
	int fd;

	parse_options(argc, argv, &o);
	device = o.device ? o.device : gem_default_device();
	if (!device)
		die("cannot work out the device path: %s", strerror(errno));
	fd = gem_open(o.device, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die("cannot open '%s': %s (is gemd running?)", device, strerror(errno));
	run_all(&o, fd);
	gem_close(fd);
	if (o.json)
		print_json(&o, device);
	else
		print_table(&o, device);
	return 0;
}
