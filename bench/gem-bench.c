/*
 * gem-bench: how far gemd is from the floors it cannot beat, measured in
 * the same run, for both transports (GEMKIT_TRANSPORT=socket and shm, each
 * on a thread of its own): an ioctl and a nop execbuffer against an
 * AF_UNIX round trip to another process (the socket's floor) and a futex
 * ping-pong between two threads (the shared ring's), BUSY of an idle
 * object against a system call, pwrite/pread against memcpy of the same
 * size.  Everything is measured once per placement (--placement): the
 * measuring threads on one CPU and gemd's threads, with the floors'
 * partners, on the same CPU or on another (or where they are, "any"), so
 * a figure is only ever held against floors taken in its own placement.
 * It starts nothing: gemd must be running at the device path (-D, else
 * $GEM_DEVICE, else the default).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "cmd.h"
#include "cpupin.h"
#include "acct.h"		/* the accounting's cost */
#include "libgem.h"
#include "util.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"	/* built without config.h */
#endif

#define EXIT_USAGE	2
#define MSG_SIZE	32
#define MiB		(1ull << 20)

/* Where the measuring threads run against gemd and the floors' partners. */
enum placement { PLACE_SAME, PLACE_CROSS, PLACE_ANY, NPLACES };

static const char *const place_names[NPLACES] = { "same", "cross", "any" };

#define PLACES_DEFAULT	((1u << PLACE_SAME) | (1u << PLACE_CROSS))

struct opts {
	const char *device;
	unsigned int places;		/* 1 << enum placement */
	unsigned long iterations;
	unsigned long repeat;
	bool json;
};

/* One measured operation: per-op nanoseconds over the repeats. */
struct result {
	const char *name;
	enum placement place;		/* measured in this placement */
	const char *floor;		/* name of the floor it is held against */
	double median, min, max;	/* ns per operation */
	double ratio;			/* median / floor median, 0 if none */
	double goal;			/* highest acceptable ratio, 0 if none */
};

#define MAX_RESULTS 128
static struct result results[MAX_RESULTS];
static int nresults;

/* The placement being measured, and why each asked one was not. */
static enum placement cur_place;
static char not_measured[NPLACES][128];

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
	       "  -p, --placement LIST   where to measure, a comma-separated list of\n"
	       "                         same (gemd on this thread's CPU), cross (gemd\n"
	       "                         on another CPU) and any (unpinned); default\n"
	       "                         same,cross\n"
	       "      --json             print the results as JSON\n"
	       "  -h, --help             show this help and exit\n"
	       "  -V, --version          show the version and exit\n\n"
	       "Every figure is taken for both transports, [socket] and [shm], each\n"
	       "on a thread of its own.  Floors: an AF_UNIX SOCK_STREAM round trip of\n"
	       "%d bytes to another process, a futex ping-pong between two threads\n"
	       "(their partners placed where gemd runs), a system call (getppid),\n"
	       "and memcpy of each size (warm buffers).  Each placement measures\n"
	       "floors and figures alike: the measuring threads are pinned to one\n"
	       "CPU, every thread of gemd (found through SO_PEERCRED) and the\n"
	       "floors' partners to the same CPU (same) or to another (cross); gemd\n"
	       "gets its threads' masks back afterwards.  A placement that cannot\n"
	       "be had (one CPU, a refused sched_setaffinity) is reported as\n"
	       "\"not measured: WHY\".\n"
	       "Goals: on the socket, ioctl <= 1.25x its round trip and nop\n"
	       "execbuffer <= 1.5x; on the shared ring, ioctl <= 3x the futex\n"
	       "ping-pong and nop execbuffer <= 4x; BUSY of an idle object <= 10x a\n"
	       "system call; pwrite/pread of 1 MiB and more <= 1.25x memcpy.  Each\n"
	       "goal is reported PASS or MISS; the exit status is 0 whenever the\n"
	       "measurements ran, 1 on a runtime error, 2 on a usage error.\n"
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

/* same,cross,any in any order: a mask of 1 << enum placement. */
static unsigned int parse_places(const char *list)
{
	const char *p = list, *comma;
	unsigned int places = 0;
	size_t len, i;

	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		for (i = 0; i < NPLACES; i++)
			if (strlen(place_names[i]) == len && !strncmp(p, place_names[i], len))
				break;
		if (i == NPLACES)
			usage_error("invalid --placement '%s': a list of same, cross and any",
				    list);
		places |= 1u << i;
		if (!comma)
			return places;
		p = comma + 1;
	}
}

static void parse_options(int argc, char **argv, struct opts *o)
{
	enum { OPT_JSON = 256 };
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'D' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "placement", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":D:n:r:p:hV", longopts, NULL)) != -1) {
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
		case 'p':
			o->places = parse_places(optarg);
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
	r->place = cur_place;
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

/* The CPUs the floors' partners run on: gemd's, in every placement. */
static cpu_set_t partner_cpus;
static bool partner_placed;

/* Run the calling thread (a floor's partner) where gemd runs. */
static void place_partner(void)
{
	if (partner_placed)
		sched_setaffinity(0, sizeof(partner_cpus), &partner_cpus);
}

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

/*
 * The shared ring's floor: a futex ping-pong between two threads, each
 * sleeping until the other wakes it (shared futexes, as the ring's).
 */
struct pingpong {
	uint32_t word;		/* odd: the partner's turn; even: ours */
	pthread_t partner;
};

static void futex_wait(uint32_t *addr, uint32_t val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT, val, NULL, NULL, 0);
}

static void futex_wake(uint32_t *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

#define PINGPONG_STOP	UINT32_MAX

static void *pingpong_main(void *arg)
{
	struct pingpong *pp = arg;
	uint32_t v;

	place_partner();
	for (;;) {
		v = __atomic_load_n(&pp->word, __ATOMIC_ACQUIRE);
		if (v == PINGPONG_STOP)
			return NULL;
		if (!(v & 1)) {
			futex_wait(&pp->word, v);
			continue;
		}
		__atomic_store_n(&pp->word, v + 1, __ATOMIC_RELEASE);
		futex_wake(&pp->word);
	}
}

static void bench_futex(void *arg, unsigned long iters)
{
	struct pingpong *pp = arg;
	unsigned long i;
	uint32_t v;

	for (i = 0; i < iters; i++) {
		v = __atomic_load_n(&pp->word, __ATOMIC_ACQUIRE) + 1;
		__atomic_store_n(&pp->word, v, __ATOMIC_RELEASE);
		futex_wake(&pp->word);
		while (__atomic_load_n(&pp->word, __ATOMIC_ACQUIRE) == v)
			futex_wait(&pp->word, v);
	}
}

static void bench_syscall(void *arg, unsigned long iters)
{
	unsigned long i;

	(void)arg;
	for (i = 0; i < iters; i++)
		syscall(SYS_getppid);
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

/* What gemd adds to every ioctl to account for it (acct.h): the same
 * calls on a file of our own, with no gemd around them: the dispatch's
 * begin and end, and the flushes they make (one CPU clock reading per
 * 128 requests or 1 ms). */
static void bench_acct(void *arg, unsigned long iters)
{
	struct gem_acct *acct = arg;
	unsigned int nr = _IOC_NR(DRM_IOCTL_I915_GETPARAM);
	unsigned long i;

	for (i = 0; i < iters; i++) {
		gem_acct_serve_begin(acct, nr);
		gem_acct_serve_end(acct, nr);
	}
	gem_acct_flush();
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

struct busy {
	int fd;
	uint32_t handle;
};

static void bench_busy(void *arg, unsigned long iters)
{
	struct busy *b = arg;
	struct drm_i915_gem_busy busy = { .handle = b->handle };
	unsigned long i;

	for (i = 0; i < iters; i++) {
		xioctl(b->fd, DRM_IOCTL_I915_GEM_BUSY, &busy, "GEM_BUSY");
		if (busy.busy)
			die("GEM_BUSY: the object is busy");
	}
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

/* A name for the results, kept for the whole run. */
static const char *result_name(const char *what, const char *tag)
{
	static char names[MAX_RESULTS][48];
	static int n;

	if (n == MAX_RESULTS)
		die("too many results");
	snprintf(names[n], sizeof(names[n]), "%s [%s]", what, tag);
	return names[n++];
}

static const struct result *memcpy_floor(const struct opts *o, size_t len,
					 const char *name);

/* Each size right after its memcpy floor, which a disturbance of the
 * shared machine then more likely hits alike. */
static void run_copies(const struct opts *o, int fd, const char *tag)
{
	static const struct { size_t len; const char *tag; bool goal; } sizes[] = {
		{ 4096, "4 KiB", false },
		{ MiB, "1 MiB", true },
		{ 64 * MiB, "64 MiB", true },
	};
	char what[32];
	size_t i;

	for (i = 0; i < 3; i++) {
		size_t len = sizes[i].len;
		unsigned long n = iters_for(o, len);
		struct drm_i915_gem_create c = { .size = len };
		struct drm_gem_close cl = { 0 };
		const struct result *floor;
		struct copy cp;
		struct rw rw;
		struct result *r;

		snprintf(what, sizeof(what), "memcpy %s", sizes[i].tag);
		floor = memcpy_floor(o, len, result_name(what, tag));
		xioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c, "GEM_CREATE");
		cp.src = xmalloc_touched(len, 1);
		cp.dst = xmalloc_touched(len, 2);
		cp.len = len;
		rw.fd = fd;
		rw.handle = c.handle;
		rw.buf = cp.src;
		rw.len = len;

		snprintf(what, sizeof(what), "pwrite %s", sizes[i].tag);
		r = measure(result_name(what, tag), bench_pwrite, &rw, n, o->repeat);
		against(r, floor, floor->name, sizes[i].goal ? 1.25 : 0);
		rw.buf = cp.dst;
		snprintf(what, sizeof(what), "pread %s", sizes[i].tag);
		r = measure(result_name(what, tag), bench_pread, &rw, n, o->repeat);
		against(r, floor, floor->name, sizes[i].goal ? 1.25 : 0);

		cl.handle = c.handle;
		xioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl, "GEM_CLOSE");
		free(cp.src);
		free(cp.dst);
	}
}

static const struct result *memcpy_floor(const struct opts *o, size_t len,
					 const char *name)
{
	struct copy cp = {
		.src = xmalloc_touched(len, 1), .dst = xmalloc_touched(len, 2),
		.len = len,
	};
	const struct result *r = measure(name, bench_memcpy, &cp,
					 iters_for(o, len), o->repeat);

	free(cp.src);
	free(cp.dst);
	return r;
}

/* The floors of the requests, measured once for both transports. */
struct floors {
	const struct result *sock, *futex, *syscall;
};

static void measure_floors(const struct opts *o, struct floors *f)
{
	struct sock_pair sp;
	struct pingpong pp = { .word = 0 };

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp.fd) < 0)
		die("socketpair: %s", strerror(errno));
	sp.echo = fork();
	if (sp.echo < 0)
		die("cannot start the echo process: %s", strerror(errno));
	if (sp.echo == 0) {
		close(sp.fd[0]);
		place_partner();
		echo_main(sp.fd[1]);
	}
	close(sp.fd[1]);
	f->sock = measure("socket round trip", bench_socket, &sp, o->iterations,
			  o->repeat);
	close(sp.fd[0]);
	waitpid(sp.echo, NULL, 0);

	if (pthread_create(&pp.partner, NULL, pingpong_main, &pp))
		die("cannot start the futex partner");
	f->futex = measure("futex ping-pong", bench_futex, &pp, o->iterations,
			   o->repeat);
	__atomic_store_n(&pp.word, PINGPONG_STOP, __ATOMIC_RELEASE);
	futex_wake(&pp.word);
	pthread_join(pp.partner, NULL);

	f->syscall = measure("system call", bench_syscall, NULL,
			     o->iterations * 10, o->repeat);
}

/* Everything measured on one transport. */
struct transport_run {
	const struct opts *o;
	int fd;
	const char *tag;		/* $GEMKIT_TRANSPORT of its thread */
	const struct floors *floors;
};

static void *run_transport(void *arg)
{
	const struct transport_run *t = arg;
	const struct opts *o = t->o;
	const struct floors *f = t->floors;
	bool shm = !strcmp(t->tag, "shm");
	const struct result *rtt = shm ? f->futex : f->sock;
	struct nop nop = { .fd = t->fd };
	struct busy busy = { .fd = t->fd };
	struct drm_i915_gem_create c = { .size = 4096 };
	uint32_t bbe[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	struct drm_i915_gem_pwrite pw = { .size = sizeof(bbe),
					  .data_ptr = (uint64_t)(uintptr_t)bbe };
	struct drm_i915_gem_wait wait = { .timeout_ns = -1 };
	struct drm_gem_close cl = { 0 };
	struct gem_acct *acct;
	struct result *r, *getparam;
	int fd = t->fd;

	r = measure(result_name("ioctl (GETPARAM)", t->tag), bench_getparam, &fd,
		    o->iterations, o->repeat);
	against(r, rtt, rtt->name, shm ? 3 : 1.25);
	getparam = r;

	/* The accounting is always on: its cost against the cheapest ioctl
	 * of the same run, goal 2%. */
	acct = gem_acct_new();
	if (!acct)
		die("out of memory");
	r = measure(result_name("accounting per ioctl", t->tag), bench_acct,
		    acct, o->iterations * 10, o->repeat);
	against(r, getparam, getparam->name, 0.02);
	gem_acct_put(acct);

	xioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c, "GEM_CREATE");
	nop.batch = c.handle;
	pw.handle = c.handle;
	xioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw, "GEM_PWRITE");
	r = measure(result_name("nop execbuffer", t->tag), bench_nop_exec, &nop,
		    o->iterations, o->repeat);
	against(r, rtt, rtt->name, shm ? 4 : 1.5);

	/* The batch has run and retired: BUSY of an idle object. */
	wait.bo_handle = c.handle;
	xioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &wait, "GEM_WAIT");
	busy.handle = c.handle;
	r = measure(result_name("BUSY, idle object", t->tag), bench_busy, &busy,
		    o->iterations * 10, o->repeat);
	against(r, f->syscall, f->syscall->name, 10);
	cl.handle = c.handle;
	xioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl, "GEM_CLOSE");

	r = measure(result_name("create+close 4 KiB", t->tag), bench_create_close,
		    &fd, o->iterations, o->repeat);
	against(r, rtt, rtt->name, 0);

	run_copies(o, fd, t->tag);
	return NULL;
}

/* --- placements ------------------------------------------------------------ */

/*
 * A placement pins this thread (and so the transport threads it starts,
 * which inherit its mask) to one CPU of those it was given, and every
 * thread of gemd and the floors' partners to the same CPU or to another
 * of them.  gemd's serving threads for our connections are born after
 * the pinning, from pinned threads, so they inherit it too.  gemd gets
 * its threads' old masks back at the end (cpupin_restore), also when
 * gem-bench dies of an error (atexit); a signal leaves gemd pinned.
 */
static cpu_set_t own_cpus;		/* this thread's mask at start */
static struct cpupin_saved gemd_saved;

static void unplace(void)
{
	cpupin_restore(&gemd_saved);
	sched_setaffinity(0, sizeof(own_cpus), &own_cpus);
}

static int nth_cpu(const cpu_set_t *set, int n)
{
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set) && n-- == 0)
			return cpu;
	return -1;
}

/* Take placement p; false (with not_measured[p] saying why) if it cannot
 * be had. */
static bool place(int fd, enum placement p)
{
	char *why = not_measured[p];
	size_t wlen = sizeof(not_measured[p]);
	struct ucred cred;
	socklen_t len = sizeof(cred);
	cpu_set_t mine;
	int cpu, tid, ret;

	cur_place = p;
	partner_placed = false;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) || cred.pid <= 0) {
		if (p == PLACE_ANY)
			return true;
		snprintf(why, wlen, "gemd's pid is unknown (SO_PEERCRED: %s)",
			 cred.pid <= 0 ? "no pid" : strerror(errno));
		return false;
	}
	if (p == PLACE_ANY) {
		partner_placed = !sched_getaffinity(cred.pid, sizeof(partner_cpus),
						    &partner_cpus);
		return true;
	}
	cpu = nth_cpu(&own_cpus, p == PLACE_CROSS);
	if (cpu < 0) {
		snprintf(why, wlen, "gem-bench may run on one CPU only");
		return false;
	}
	CPU_ZERO(&partner_cpus);
	CPU_SET(cpu, &partner_cpus);
	partner_placed = true;
	ret = cpupin_process(cred.pid, &partner_cpus, &gemd_saved, &tid);
	if (ret) {
		snprintf(why, wlen, "cannot pin gemd's thread %d: %s", tid,
			 strerror(-ret));
		return false;
	}
	CPU_ZERO(&mine);
	CPU_SET(nth_cpu(&own_cpus, 0), &mine);
	if (sched_setaffinity(0, sizeof(mine), &mine)) {
		snprintf(why, wlen, "cannot pin gem-bench: %s", strerror(errno));
		unplace();
		return false;
	}
	return true;
}

/*
 * libgem picks a thread's transport when the thread first talks to gemd,
 * from $GEMKIT_TRANSPORT: each transport gets a fresh thread.
 */
static void run_placement(const struct opts *o, int fd)
{
	static const char *const tags[] = { "socket", "shm" };
	struct floors f;
	struct transport_run t = { .o = o, .fd = fd, .floors = &f };
	pthread_t tid;
	size_t i;

	measure_floors(o, &f);
	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		t.tag = tags[i];
		if (setenv("GEMKIT_TRANSPORT", tags[i], 1))
			die("setenv: %s", strerror(errno));
		if (pthread_create(&tid, NULL, run_transport, &t))
			die("cannot start the %s thread", tags[i]);
		pthread_join(tid, NULL);
	}
}

static void run_all(const struct opts *o, int fd)
{
	enum placement p;

	if (sched_getaffinity(0, sizeof(own_cpus), &own_cpus))
		die("sched_getaffinity: %s", strerror(errno));
	atexit(unplace);
	for (p = 0; p < NPLACES; p++) {
		if (!(o->places & (1u << p)) || !place(fd, p))
			continue;
		run_placement(o, fd);
		unplace();
	}
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
	printf("%-5s  %-28s %11s %8s  %-20s %7s  %s\n", "place", "operation",
	       "median", "spread", "floor", "ratio", "goal");
	for (i = 0; i < NPLACES; i++)
		if ((o->places & (1u << i)) && not_measured[i][0])
			printf("%-5s  not measured: %s\n", place_names[i], not_measured[i]);
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
		printf("%-5s  %-28s %11s %7.1f%%  %-20s %7s  %s\n", place_names[r->place],
		       r->name, t, spread_pct(r), r->floor ? r->floor : "-", ratio, goal);
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
	int i, n;

	printf("{\"version\":");
	json_string(PACKAGE_VERSION);
	printf(",\"device\":");
	json_string(device);
	printf(",\"iterations\":%lu,\"repeat\":%lu,\"placements\":[", o->iterations,
	       o->repeat);
	for (i = 0, n = 0; i < NPLACES; i++) {
		if (!(o->places & (1u << i)))
			continue;
		printf("%s{\"placement\":\"%s\",\"measured\":%s", n++ ? "," : "",
		       place_names[i], not_measured[i][0] ? "false" : "true");
		if (not_measured[i][0]) {
			printf(",\"why\":");
			json_string(not_measured[i]);
		}
		putchar('}');
	}
	printf("],\"results\":[");
	for (i = 0; i < nresults; i++) {
		const struct result *r = &results[i];
		const char *st = status(r);

		printf("%s{\"name\":", i ? "," : "");
		json_string(r->name);
		printf(",\"placement\":\"%s\"", place_names[r->place]);
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
	struct opts o = { .iterations = 2000, .repeat = 5, .places = PLACES_DEFAULT };
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
