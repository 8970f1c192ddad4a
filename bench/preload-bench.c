/*
 * preload-bench: what the interposer costs.  Run it under the interposer:
 *
 *	gemctl run ./preload-bench [ROUNDS]
 *
 * It times, in short interleaved blocks and keeping each one's best block
 * (the machine is shared and noisy), ROUNDS (default 300) blocks of:
 *   - a raw AF_UNIX round trip to another process (the floor under any
 *     request to gemd);
 *   - a no-payload ioctl (I915_GEM_THROTTLE) through libgem directly;
 *   - the same ioctl(2) on /dev/dri/card0, through the interposer;
 *   - a plain ioctl(2) (FIONREAD on a pipe) straight into libc;
 *   - the same ioctl(2) passed through the interposer;
 *   - memcpy of 1 MiB between two warm buffers, and GEM_PREAD and
 *     GEM_PWRITE of 1 MiB on an idle object through the interposer;
 * and prints the ratios: interposed / libgem and pass-through / plain
 * (goals: at most 1.10 each), and each 1 MiB copy / memcpy (goal: at most
 * 1.25, issue 18).  The copies are the client's own (fastpath.c) and make
 * no system call: the interposer vouches for its fds and sees every
 * sigaction (vouch.h, copyguard.h), where a program linked to libgem
 * alone pays an fstat and two sigactions per copy (gem-bench measures
 * that one).  The copies are not made through libgem here: a second
 * libgem in the process finds the interposer's fault handler in place
 * and copies by system call, as it must.
 *
 * Exit status: 0, 1 if a measurement failed, 2 on bad usage or when not
 * run under the interposer.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "libgem.h"
#include "util.h"

#define COPY_SIZE	(1u << 20)

enum {
	RAW, LIBGEM, INTERPOSED, PLAIN, PASSTHROUGH,
	MEMCPY, INTERPOSED_PREAD, INTERPOSED_PWRITE,
	NKINDS
};

static const char *const names[NKINDS] = {
	"raw socket round trip", "libgem gem_ioctl (THROTTLE)",
	"interposed ioctl (THROTTLE)", "plain ioctl(2) (FIONREAD)",
	"pass-through ioctl (FIONREAD)",
	"memcpy 1 MiB", "interposed GEM_PREAD 1 MiB",
	"interposed GEM_PWRITE 1 MiB",
};

struct ctx {
	int sock;		/* to the echo process */
	int gemfd;		/* gem_open */
	int cardfd;		/* open("/dev/dri/card0") */
	int pipefd;
	int (*libc_ioctl)(int, unsigned long, ...);
	uint32_t bo;			/* of COPY_SIZE, on cardfd */
	void *src, *dst;		/* COPY_SIZE, touched */
};

/* The other end of the raw round trip: echo a reply per request. */
static void echo_loop(int s)
{
	char req[24], rep[16];

	memset(rep, 0, sizeof(rep));
	while (read_full(s, req, sizeof(req)) == (ssize_t)sizeof(req))
		if (write_full(s, rep, sizeof(rep)) < 0)
			break;
	_exit(0);
}

/* pread and pwrite have one layout. */
static int copy_ioctl(struct ctx *c, bool write)
{
	struct drm_i915_gem_pwrite args = {
		.handle = c->bo,
		.size = COPY_SIZE,
		.data_ptr = (uint64_t)(uintptr_t)(write ? c->src : c->dst),
	};

	return ioctl(c->cardfd, write ? DRM_IOCTL_I915_GEM_PWRITE :
					DRM_IOCTL_I915_GEM_PREAD, &args);
}

static int one(struct ctx *c, int kind)
{
	char req[24] = { 0 }, rep[16];
	int n;

	switch (kind) {
	case RAW:
		if (write_full(c->sock, req, sizeof(req)) < 0 ||
		    read_full(c->sock, rep, sizeof(rep)) != (ssize_t)sizeof(rep))
			return -1;
		return 0;
	case LIBGEM:
		return gem_ioctl(c->gemfd, DRM_IOCTL_I915_GEM_THROTTLE, NULL);
	case INTERPOSED:
		return ioctl(c->cardfd, DRM_IOCTL_I915_GEM_THROTTLE, NULL);
	case PLAIN:
		return c->libc_ioctl(c->pipefd, FIONREAD, &n);
	case PASSTHROUGH:
		return ioctl(c->pipefd, FIONREAD, &n);
	case MEMCPY:
		memcpy(c->dst, c->src, COPY_SIZE);
		/* Keep the compiler from dropping the copy. */
		__asm__ __volatile__("" : : "r"(c->dst) : "memory");
		return 0;
	case INTERPOSED_PREAD:
		return copy_ioctl(c, false);
	default:
		return copy_ioctl(c, true);
	}
}

/*
 * Time one block of calls.  Blocks are short and the kinds interleave, so
 * the best block of each kind is one no other process interrupted.
 */
static int measure(struct ctx *c, int kind, long calls, double *best)
{
	uint64_t t0 = now_ns(), t;
	double ns;
	long i;

	for (i = 0; i < calls; i++) {
		if (one(c, kind) < 0) {
			fprintf(stderr, "preload-bench: %s: %s\n", names[kind],
				strerror(errno));
			return -1;
		}
	}
	t = now_ns() - t0;
	ns = (double)t / (double)calls;
	if (*best == 0 || ns < *best)
		*best = ns;
	return 0;
}

/* Calls per block: round trips are ~100 times slower than local calls. */
static long block_calls(int kind)
{
	return kind == PLAIN || kind == PASSTHROUGH ? 2000 : 20;
}

/* "met"/"MISSED", as debugfs-bench says it (gemctl bench micro reads it). */
static void print_ratio(const char *what, double ratio, double goal)
{
	printf("%-33s %.3f (goal <= %.2f)  %s\n", what, ratio, goal,
	       ratio <= goal ? "met" : "MISSED");
}

int main(int argc, char **argv)
{
	struct drm_i915_gem_create create = { .size = COPY_SIZE };
	double best[NKINDS] = { 0 };
	long rounds = 300;
	struct ctx c;
	void *libc;
	int sv[2], p[2], r, k, ret = 0;
	pid_t pid;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: gemctl run %s [ROUNDS]\n", argv[0]);
		return 0;
	}
	if (argc > 1 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))) {
		printf("preload-bench (gemkit) %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (argc > 2 || (argc == 2 && (rounds = atol(argv[1])) <= 0)) {
		fprintf(stderr, "usage: gemctl run %s [ROUNDS]\n", argv[0]);
		return 2;
	}
	libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	c.libc_ioctl = libc ? (int (*)(int, unsigned long, ...))dlsym(libc, "ioctl") : NULL;
	if (!c.libc_ioctl || (void *)c.libc_ioctl == (void *)dlsym(RTLD_DEFAULT, "ioctl")) {
		fprintf(stderr, "preload-bench: not under the interposer; run it as "
			"`gemctl run %s`\n", argv[0]);
		return 2;
	}
	c.gemfd = gem_open(NULL, O_CLOEXEC);
	c.cardfd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
	if (c.gemfd < 0 || c.cardfd < 0) {
		fprintf(stderr, "preload-bench: cannot open the device: %s\n",
			strerror(errno));
		return 1;
	}
	c.src = malloc(COPY_SIZE);
	c.dst = malloc(COPY_SIZE);
	if (!c.src || !c.dst) {
		fprintf(stderr, "preload-bench: out of memory\n");
		return 1;
	}
	memset(c.src, 1, COPY_SIZE);
	memset(c.dst, 2, COPY_SIZE);
	if (ioctl(c.cardfd, DRM_IOCTL_I915_GEM_CREATE, &create)) {
		fprintf(stderr, "preload-bench: GEM_CREATE of 1 MiB: %s\n",
			strerror(errno));
		return 1;
	}
	c.bo = create.handle;
	if (pipe(p) || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		perror("preload-bench");
		return 1;
	}
	c.pipefd = p[0];
	pid = fork();
	if (pid < 0) {
		perror("preload-bench: fork");
		return 1;
	}
	if (pid == 0) {
		close(sv[0]);
		echo_loop(sv[1]);
	}
	close(sv[1]);
	c.sock = sv[0];

	for (k = 0; k < NKINDS; k++)	/* warm up: channels, caches */
		if (measure(&c, k, block_calls(k), &best[k]))
			ret = 1;
	memset(best, 0, sizeof(best));
	for (r = 0; r < rounds && !ret; r++)
		for (k = 0; k < NKINDS; k++)
			if (measure(&c, k, block_calls(k), &best[k]))
				ret = 1;
	close(c.sock);
	waitpid(pid, NULL, 0);
	if (ret)
		return ret;

	for (k = 0; k < NKINDS; k++)
		printf("%-32s %9.1f ns\n", names[k], best[k]);
	print_ratio("interposed / libgem:", best[INTERPOSED] / best[LIBGEM], 1.10);
	printf("%-33s %.3f\n", "libgem / raw round trip:", best[LIBGEM] / best[RAW]);
	print_ratio("pass-through / plain:", best[PASSTHROUGH] / best[PLAIN], 1.10);
	for (k = INTERPOSED_PREAD; k < NKINDS; k++) {
		char what[48];

		snprintf(what, sizeof(what), "%s / memcpy:", names[k]);
		print_ratio(what, best[k] / best[MEMCPY], 1.25);
	}
	free(c.src);
	free(c.dst);
	return 0;
}
