/*
 * gem_many: 100,000 live 4 KiB objects in one drm_file, under the usual
 * default limit of 1024 open files (for gemd and for us) and the default
 * map count: every object cannot be an fd or a mapping of its own.
 * Creating, touching a sample and closing them all must take well under a
 * minute.
 */
#include <stdlib.h>
#include <sys/resource.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"
#include "util.h"

#define COUNT		100000
#define SAMPLE_STEP	97
#define TIME_LIMIT_S	60

static uint32_t sample_value(uint32_t i)
{
	return i * 2654435761u ^ 0x5a5a5a5au;
}

static uint64_t sample_offset(uint32_t i)
{
	return (uint64_t)(i % 1024) * 4;
}

static bool sampled(uint32_t i)
{
	return i % SAMPLE_STEP == 0 || i == COUNT - 1;
}

static void test_many(int fd)
{
	uint32_t *h = malloc(COUNT * sizeof(*h)), i, v;
	uint64_t t0 = now_ns(), t_create, t_rw, t_close;
	double total;

	gt_assert(h);
	for (i = 0; i < COUNT; i++) {
		uint64_t size = 4096;

		gt_assert_eq(__gt_create(fd, &size, &h[i]), 0);
		gt_assert_f(h[i] == i + 1, "object %u got handle %u", i, h[i]);
	}
	t_create = now_ns();

	for (i = 0; i < COUNT; i++) {
		if (!sampled(i))
			continue;
		v = sample_value(i);
		gt_write(fd, h[i], sample_offset(i), &v, 4);
	}
	for (i = 0; i < COUNT; i++) {
		if (!sampled(i))
			continue;
		v = 0;
		gt_read(fd, h[i], sample_offset(i), &v, 4);
		gt_assert_f(v == sample_value(i), "object %u: 0x%x, expected 0x%x",
			    i, v, sample_value(i));
		/* Neighbours were not touched. */
		if (i + 1 < COUNT) {
			gt_read(fd, h[i + 1], sample_offset(i), &v, 4);
			gt_assert_eq(v, 0);
		}
	}
	t_rw = now_ns();

	for (i = 0; i < COUNT; i++)
		gt_assert_eq(__gt_close(fd, h[i]), 0);
	t_close = now_ns();

	total = (double)(t_close - t0) / 1e9;
	gemtest_diag("%d objects: create %.2f s, sample rw %.2f s, close %.2f s, "
		     "total %.2f s", COUNT, (double)(t_create - t0) / 1e9,
		     (double)(t_rw - t_create) / 1e9,
		     (double)(t_close - t_rw) / 1e9, total);
	gt_assert_f(total < TIME_LIMIT_S, "took %.1f s", total);

	/* All gone: the handle space starts over. */
	gt_assert_errno(__gt_close(fd, COUNT / 2), EINVAL);
	v = gt_create(fd, 4096);
	gt_assert_eq(v, 1);
	gt_close(fd, v);
	free(h);
}

/* Many live objects do not get in the way of execution. */
static void test_exec_among_many(int fd)
{
	const uint32_t n = 20000;
	uint32_t *h = malloc(n * sizeof(*h)), i, v = 0, batch;
	struct gen3_batch b;

	gt_assert(h);
	for (i = 0; i < n; i++)
		h[i] = gt_create(fd, 4096);
	batch = gt_create(fd, 4096);
	gen3_batch_reset(&b);
	for (i = 0; i < 64; i++)
		gen3_emit_store_dword(&b, h[i * 311], 8, 0x3a00u + i);
	gen3_batch_end(&b);
	for (i = 0; i < 64; i++)
		h[i] = h[i * 311];	/* the exec list: the targets */
	gt_assert_eq(gt_execbuf(fd, &b, batch, h, NULL, 64, 0, NULL), 0);
	for (i = 0; i < 64; i++) {
		gt_read(fd, h[i], 8, &v, 4);
		gt_assert_eq(v, 0x3a00u + i);
	}
	gt_close(fd, batch);
	/* Handles are 1..n, whatever h[] holds now. */
	for (i = 1; i <= n; i++)
		gt_close(fd, i);
	free(h);
}

int main(int argc, char **argv)
{
	struct rlimit rl;
	int fd;

	gemtest_init(argc, argv);
	/* The default soft limit, whatever this machine raised it to; gemd
	 * inherits it, as its hard limit too, so it cannot raise it. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur > 1024) {
		rl.rlim_cur = rl.rlim_max = 1024;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	gemtest_start_gemd(NULL);
	/* Seconds; a hung gemd fails the program instead of the suite. */
	gt_program_timeout(300, gemtest_gemd_pid());
	fd = gt_open();

	gemtest_subtest("100k-objects")
		test_many(fd);
	gemtest_subtest("exec-among-20k-objects")
		test_exec_among_many(fd);

	gem_close(fd);
	return gemtest_exit();
}
