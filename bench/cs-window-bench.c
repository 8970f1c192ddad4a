/*
 * cs-window-bench: how briefly the CPU may end a spinning batch for gemd's
 * command streamer to see it.  Run it under the interposer:
 *
 *	gemctl run ./cs-window-bench [TRIALS]
 *
 * The batch is IGT's spinner on gen3: it stores 1 to a flag, then loops on
 * MI_ARB_CHECK and an MI_BATCH_BUFFER_START back to it.  Once the flag
 * says it runs (at once, or 1 ms later), the CPU writes
 * MI_BATCH_BUFFER_END over the MI_ARB_CHECK and, after a delay, writes
 * MI_ARB_CHECK back: the END is held for that long.  The batch either saw
 * it and finished (GEM_WAIT returns at once) or still spins (GEM_WAIT
 * times out after SEEN_WAIT_NS, and the END is then written for good).
 * Each delay and age gets TRIALS (default 50) trials.
 *
 * The first delay is none: END and MI_ARB_CHECK written back to back,
 * with a full barrier after each, as IGT's igt_spin_end() then
 * igt_spin_reset() do at the end of gem_sync active-wakeup's warm-up.  The
 * others are busy loops calibrated in this run.  How long the END is held
 * is measured in the same run: the same code, timed on ordinary memory a
 * million times.
 *
 * It prints what it measured and judges nothing: which ends a GPU would
 * see is for the reader to weigh (README, "The GPU's thread").  A reader on
 * another CPU cannot see a value held for less than a cache line takes to
 * move between CPUs, and gemd's command streamer re-reads a loop only every
 * 50 us once it has gone round it 2,048 times (cs.c, CS_LOOP_NAP_NS).
 *
 * Exit status: 0, 1 if a measurement failed, 2 on bad usage or when not
 * run under the interposer.
 */
#include <link.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "batchbuffer.h"
#include "preload-paths.h"
#include "util.h"

#define SPIN_SIZE	4096u
#define LOOP_AT		64u		/* IGT's LOOP_START_OFFSET */
#define SEEN_WAIT_NS	50000000ll	/* an END seen ends the batch in far less */
#define START_WAIT_NS	5000000000ull	/* the batch must start within this */
#define LATE_NS		1000000ull	/* the second age: 1 ms into the loop */
#define END_WAIT_NS	10000000000ll	/* an END left in place ends it by then */

struct spin {
	int fd;
	uint32_t batch, flag;
	volatile uint32_t *b, *f;
	struct drm_i915_gem_exec_object2 obj[2];
	struct drm_i915_gem_relocation_entry reloc[2];
	struct drm_i915_gem_execbuffer2 eb;
};

static int xioctl(int fd, unsigned long req, void *arg, const char *what)
{
	int ret;

	do
		ret = ioctl(fd, req, arg);
	while (ret && (errno == EINTR || errno == EAGAIN));
	if (ret)
		fprintf(stderr, "cs-window-bench: %s: %s\n", what, strerror(errno));
	return ret;
}

static volatile uint32_t *map_gtt(int fd, uint32_t handle)
{
	struct drm_i915_gem_mmap_gtt arg = { .handle = handle };
	void *p;

	if (xioctl(fd, DRM_IOCTL_I915_GEM_MMAP_GTT, &arg, "GEM_MMAP_GTT"))
		return NULL;
	p = mmap(NULL, SPIN_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, arg.offset);
	if (p == MAP_FAILED) {
		fprintf(stderr, "cs-window-bench: mmap of the GTT map: %s\n",
			strerror(errno));
		return NULL;
	}
	return p;
}

static int create(int fd, uint32_t *handle)
{
	struct drm_i915_gem_create arg = { .size = SPIN_SIZE };

	if (xioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &arg, "GEM_CREATE"))
		return -1;
	*handle = arg.handle;
	return 0;
}

/* The spinner.  Its first submission carries the relocations; the later
 * ones pin it where they put it (spin_submit), as IGT's do. */
static int spin_init(struct spin *s, int fd)
{
	struct gen3_batch b;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	if (create(fd, &s->batch) || create(fd, &s->flag) ||
	    !(s->b = map_gtt(fd, s->batch)) || !(s->f = map_gtt(fd, s->flag)))
		return -1;
	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, s->flag, 0, 1);
	gen3_batch_pad_to(&b, LOOP_AT / 4);
	gen3_batch_emit(&b, MI_ARB_CHECK);
	gen3_batch_emit(&b, MI_BATCH_BUFFER_START_GTT);
	gen3_batch_emit_reloc(&b, s->batch, LOOP_AT + MI_BATCH_NON_SECURE,
			      I915_GEM_DOMAIN_COMMAND, 0);
	if (b.overflow || b.nreloc > ARRAY_SIZE(s->reloc))
		return -1;
	for (i = 0; i < b.len; i++)
		s->b[i] = b.dw[i];
	memcpy(s->reloc, b.reloc, b.nreloc * sizeof(b.reloc[0]));
	s->obj[0] = (struct drm_i915_gem_exec_object2){
		.handle = s->flag, .flags = EXEC_OBJECT_WRITE,
	};
	s->obj[1] = (struct drm_i915_gem_exec_object2){
		.handle = s->batch, .relocation_count = b.nreloc,
		.relocs_ptr = (uintptr_t)s->reloc,
	};
	s->eb = (struct drm_i915_gem_execbuffer2){
		.buffers_ptr = (uintptr_t)s->obj, .buffer_count = 2,
		.batch_len = (b.len * 4 + 7) & ~7u,	/* the kernel wants 8-byte units */
	};
	return 0;
}

/* Interrupted, the spinner is ended rather than left to hangcheck. */
static volatile uint32_t *interrupted_loop;

static void on_signal(int sig)
{
	if (interrupted_loop)
		*interrupted_loop = MI_BATCH_BUFFER_END;
	signal(sig, SIG_DFL);
	raise(sig);
}

static int spin_submit(struct spin *s)
{
	int i;

	if (xioctl(s->fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &s->eb, "EXECBUFFER2"))
		return -1;
	for (i = 0; i < 2; i++) {
		s->obj[i].relocation_count = 0;
		s->obj[i].relocs_ptr = 0;
		s->obj[i].flags |= EXEC_OBJECT_PINNED;
	}
	return 0;
}

/* GEM_WAIT: 0 idle, 1 still busy after timeout_ns, -1 on error. */
static int spin_wait(struct spin *s, int64_t timeout_ns)
{
	struct drm_i915_gem_wait arg = { .bo_handle = s->batch, .timeout_ns = timeout_ns };
	int ret;

	do
		ret = ioctl(s->fd, DRM_IOCTL_I915_GEM_WAIT, &arg);
	while (ret && (errno == EINTR || errno == EAGAIN));
	if (ret && errno == ETIME)
		return 1;
	if (ret)
		fprintf(stderr, "cs-window-bench: GEM_WAIT: %s\n", strerror(errno));
	return ret ? -1 : 0;
}

/*
 * End the loop at *loop and take the end back after a busy loop of spins:
 * the window measured.  A full barrier after each store, as IGT's
 * sync_write().  Not inlined, so that the window is the same code whether
 * it is timed on plain memory or run on the batch.
 */
static __attribute__((noinline)) void end_and_restore(volatile uint32_t *loop,
						      unsigned long spins)
{
	volatile unsigned long i;

	*loop = MI_BATCH_BUFFER_END;
	__sync_synchronize();
	for (i = 0; i < spins; i++)
		;
	*loop = MI_ARB_CHECK;
	__sync_synchronize();
}

/* How long end_and_restore(spins) holds the END, in ns: the whole call,
 * timed a million times over (the best of five) on plain memory. */
static double held_ns(unsigned long spins)
{
	static volatile uint32_t word;
	double best = 0;
	long reps = spins ? 4000000 / (long)(spins + 40) + 1 : 1000000;
	int r;
	long i;

	for (r = 0; r < 5; r++) {
		uint64_t t0 = now_ns(), t;

		for (i = 0; i < reps; i++)
			end_and_restore(&word, spins);
		t = now_ns() - t0;
		if (!best || (double)t / (double)reps < best)
			best = (double)t / (double)reps;
	}
	return best;
}

/* The busy-loop spins that hold the END about target_ns. */
static unsigned long spins_for(double target_ns)
{
	double per = (held_ns(10000) - held_ns(0)) / 10000.0;

	return per > 0 ? (unsigned long)(target_ns / per) : 0;
}

/* One trial, the END written age_ns after the batch started: 1 when the
 * CS saw it, 0 when it did not, -1 on error. */
static int trial(struct spin *s, unsigned long spins, uint64_t age_ns)
{
	volatile uint32_t *loop = &s->b[LOOP_AT / 4];
	uint64_t deadline;
	int ret;

	s->f[0] = 0;
	*loop = MI_ARB_CHECK;
	__sync_synchronize();
	if (spin_submit(s))
		return -1;
	deadline = now_ns() + START_WAIT_NS;
	while (!s->f[0]) {
		if (now_ns() > deadline) {
			fprintf(stderr, "cs-window-bench: the spinner did not start "
				"in %llu s\n", START_WAIT_NS / 1000000000ull);
			*loop = MI_BATCH_BUFFER_END;
			return -1;
		}
	}
	/* Busy, as IGT's client is while its spinner runs. */
	for (deadline = now_ns() + age_ns; age_ns && now_ns() < deadline; )
		;
	end_and_restore(loop, spins);
	ret = spin_wait(s, SEEN_WAIT_NS);
	if (ret != 1)
		return ret < 0 ? -1 : 1;
	/* Not seen: it still spins.  End it for good. */
	*loop = MI_BATCH_BUFFER_END;
	__sync_synchronize();
	ret = spin_wait(s, END_WAIT_NS);
	if (ret == 1)
		fprintf(stderr, "cs-window-bench: the spinner ran on for %lld s "
			"with MI_BATCH_BUFFER_END in place\n", END_WAIT_NS / 1000000000ll);
	return ret ? -1 : 0;
}

/* dl_iterate_phdr: is this object the interposer? */
static int is_interposer(struct dl_phdr_info *info, size_t size, void *data)
{
	const char *slash = strrchr(info->dlpi_name, '/');

	(void)size;
	(void)data;
	return !strcmp(slash ? slash + 1 : info->dlpi_name, GEMKIT_PRELOAD_NAME);
}

static void usage(FILE *f, const char *argv0)
{
	fprintf(f, "usage: gemctl run %s [TRIALS]\n", argv0);
}

int main(int argc, char **argv)
{
	static const double targets_ns[] = { 0, 100, 300, 1000, 3000, 10000 };
	unsigned long spins;
	long trials = 50;
	struct spin s;
	size_t k;
	int fd;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout, argv[0]);
		return 0;
	}
	if (argc > 1 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))) {
		printf("cs-window-bench (gemkit) %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (argc > 2 || (argc == 2 && (trials = atol(argv[1])) <= 0)) {
		usage(stderr, argv[0]);
		return 2;
	}
	/* Asked of the loaded objects, not of which ioctl() a lookup finds:
	 * a sanitizer's interceptors come first in that. */
	if (!dl_iterate_phdr(is_interposer, NULL)) {
		fprintf(stderr, "cs-window-bench: not under the interposer; run it as "
			"`gemctl run %s`\n", argv[0]);
		return 2;
	}
	fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "cs-window-bench: /dev/dri/card0: %s\n", strerror(errno));
		return 1;
	}
	if (spin_init(&s, fd))
		return 1;
	interrupted_loop = &s.b[LOOP_AT / 4];
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);

	for (k = 0; k < ARRAY_SIZE(targets_ns); k++) {
		static const uint64_t ages_ns[2] = { 0, LATE_NS };
		long seen[2] = { 0, 0 }, i;
		double held;
		int a, r;

		spins = targets_ns[k] > 0 ? spins_for(targets_ns[k]) : 0;
		held = held_ns(spins);
		for (i = 0; i < trials; i++) {
			for (a = 0; a < 2; a++) {
				r = trial(&s, spins, ages_ns[a]);
				if (r < 0)
					return 1;
				seen[a] += r;
			}
		}
		printf("END held %7.0f ns%-18s seen %3ld of %ld at once, %3ld of %ld after 1 ms\n",
		       held, spins ? ":" : " (IGT's end+reset):", seen[0], trials,
		       seen[1], trials);
		fflush(stdout);
	}
	return 0;
}
