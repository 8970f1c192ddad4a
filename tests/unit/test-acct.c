/* Unit tests of the accounting's flush (acct.h): the split of a thread's
 * CPU over its pending charges, and when the pending table flushes. */
#include <stdlib.h>
#include <time.h>

#include "gem_priv.h"
#include "gemtest.h"
#include "util.h"

struct split_case {
	uint64_t total;
	unsigned int n;
	uint64_t weight[4], share[4];
};

static const struct split_case split_cases[] = {
	{ 1000, 1, { 7 }, { 1000 } },
	{ 1000, 2, { 1, 1 }, { 500, 500 } },
	{ 1000, 2, { 1, 3 }, { 250, 750 } },
	{ 10, 3, { 1, 1, 1 }, { 4, 3, 3 } },	/* remainder: first of equals */
	{ 10, 3, { 1, 2, 1 }, { 2, 6, 2 } },	/* remainder: the largest */
	{ 7, 2, { 0, 5 }, { 0, 7 } },			/* no weight, no share */
	{ 7, 3, { 0, 0, 0 }, { 3, 2, 2 } },		/* all 0: equal */
	{ 0, 2, { 3, 4 }, { 0, 0 } },
	/* weights and total near 2^64: no overflow */
	{ UINT64_MAX, 2, { UINT64_MAX, UINT64_MAX },
	  { UINT64_MAX / 2 + 1, UINT64_MAX / 2 } },
};

static void check_split(const struct split_case *c)
{
	uint64_t share[4];
	unsigned int i;

	gem_acct_split(c->total, c->weight, c->n, share);
	for (i = 0; i < c->n; i++)
		gt_assert_eq_u64(share[i], c->share[i]);
}

/* Random weights: the shares sum to the total, and each is its exact
 * proportion rounded down, but the largest's, which takes the rest. */
static void check_split_random(unsigned int seed)
{
	uint64_t w[8], share[8], total, sum = 0;
	unsigned __int128 wsum = 0;
	unsigned int i, n, big = 0;

	srand(seed);
	n = 1 + (unsigned int)rand() % 8;
	total = (uint64_t)rand() * (uint64_t)rand();
	for (i = 0; i < n; i++) {
		w[i] = (uint64_t)rand() * 1000u;
		wsum += w[i];
		if (w[i] > w[big])
			big = i;
	}
	gem_acct_split(total, w, n, share);
	for (i = 0; i < n; i++) {
		uint64_t exact = total / n;

		if (wsum)
			exact = (uint64_t)((unsigned __int128)total * w[i] /
					   wsum);

		sum += share[i];
		if (i != big)
			gt_assert_eq_u64(share[i], exact);
		else
			gt_assert(share[i] >= exact && share[i] - exact < n);
	}
	gt_assert_eq_u64(sum, total);
}

static uint64_t cpu_of(struct gem_acct *acct, enum gem_acct_class cls)
{
	struct gem_file f = { .acct = acct };
	struct gem_acct_stats st;

	gem_acct_read(&f, &st);
	return st.cpu_ns[cls];
}

static uint64_t ioctls_of(struct gem_acct *acct)
{
	struct gem_file f = { .acct = acct };
	struct gem_acct_stats st;

	gem_acct_read(&f, &st);
	return st.ioctls_total;
}

/* Spend ns of this thread's CPU, so that a flush has CPU to split. */
static void burn_cpu(uint64_t ns)
{
	uint64_t start = thread_cpu_ns();

	while (thread_cpu_ns() - start < ns)
		;
}

/*
 * A GPU run starting on a thread with charges pending pays them with one
 * reading of the clock (it made two: a flush, then a reading for the
 * run), and with none when the model hands it the reading it just made;
 * the charge gets the CPU up to that reading either way.
 */
static void test_run_start_readings(void)
{
	struct gem_acct *a = gem_acct_new();
	uint64_t reads, before, cpu;

	gt_assert(a);
	gem_acct_flush();
	gt_assert_eq(gem_acct_pend(a, GEM_ACCT_SUBMIT, 1), 0);
	reads = gem_acct_clock_reads();
	gem_acct_gpu_run_start(NULL, 0);
	gt_assert_eq_u64(gem_acct_clock_reads() - reads, 1);
	gt_assert_eq(gem_acct_pending(), 0);

	before = cpu_of(a, GEM_ACCT_SUBMIT);
	gt_assert_eq(gem_acct_pend(a, GEM_ACCT_SUBMIT, 1), 0);
	burn_cpu(2000000);
	cpu = thread_cpu_ns();
	reads = gem_acct_clock_reads();
	gem_acct_gpu_run_start(NULL, cpu);
	gt_assert_eq_u64(gem_acct_clock_reads() - reads, 0);
	gt_assert_eq(gem_acct_pending(), 0);
	gt_assert(cpu_of(a, GEM_ACCT_SUBMIT) - before >= 2000000);

	/* Nothing pending: the reading only starts the next interval. */
	reads = gem_acct_clock_reads();
	gem_acct_discard();
	gt_assert_eq_u64(gem_acct_clock_reads() - reads, 1);
	gem_acct_put(a);
}

/*
 * A GPU run inline on a submitting thread: two readings in all, the
 * model's at its start and end.  Its user interrupts make none; their
 * request gets all the CPU between the two (one interrupt), or the CPU
 * split by the wall time before each (two).
 */
static void test_inline_run_readings(void)
{
	struct gem_device dev = { 0 };
	struct gem_acct *a = gem_acct_new(), *b = gem_acct_new();
	struct gem_file fa = { .acct = a }, fb = { .acct = b };
	uint64_t reads, cpu0, cpu1, ga, gb;

	gt_assert(a && b);
	dev.gpu = gpu_create(&(struct gpu_config){ .aperture_size = 32u << 20 },
			     NULL, NULL);
	gt_assert(dev.gpu);
	gt_assert_eq(pthread_mutex_init(&dev.lock, NULL), 0);
	gt_assert_eq(gem_acct_device_init(&dev), 0);
	gem_lock(&dev);
	gem_acct_request(&dev, &fa, 7);
	gem_acct_request(&dev, &fb, 8);
	gem_unlock(&dev);
	gem_acct_flush();

	cpu0 = thread_cpu_ns();
	reads = gem_acct_clock_reads();
	gem_acct_gpu_run_start(&dev, cpu0);
	burn_cpu(1000000);
	gem_acct_interrupt(&dev, 7);
	cpu1 = thread_cpu_ns();
	gem_acct_gpu_run_end(&dev, cpu1);
	gt_assert_eq_u64(gem_acct_clock_reads() - reads, 0);
	gt_assert_eq(gem_acct_pending(), 0);
	gt_assert_eq_u64(cpu_of(a, GEM_ACCT_GPU), cpu1 - cpu0);

	/* Two requests in one run: each a part, the two summing exactly. */
	ga = cpu_of(a, GEM_ACCT_GPU);
	cpu0 = thread_cpu_ns();
	gem_acct_gpu_run_start(&dev, cpu0);
	burn_cpu(1000000);
	gem_acct_interrupt(&dev, 7);
	burn_cpu(3000000);
	gem_acct_interrupt(&dev, 8);
	cpu1 = thread_cpu_ns();
	gem_acct_gpu_run_end(&dev, cpu1);
	ga = cpu_of(a, GEM_ACCT_GPU) - ga;
	gb = cpu_of(b, GEM_ACCT_GPU);
	gt_assert(ga > 0 && gb > 0);
	gt_assert_eq_u64(ga + gb, cpu1 - cpu0);
	gt_assert_eq(gem_acct_pending(), 0);

	/* The CS thread's runs (no reading of the model's): one each. */
	reads = gem_acct_clock_reads();
	gem_acct_gpu_run_start(&dev, 0);
	gem_acct_interrupt(&dev, 8);
	gt_assert_eq_u64(gem_acct_clock_reads() - reads, 2);

	gem_acct_device_fini(&dev);
	gpu_destroy(dev.gpu);
	pthread_mutex_destroy(&dev.lock);
	gem_acct_put(a);
	gem_acct_put(b);
}

#define NACCT	9

int main(int argc, char **argv)
{
	struct gem_acct *acct[NACCT];
	unsigned int i;

	gemtest_init(argc, argv);
	for (i = 0; i < NACCT; i++)
		gt_assert(acct[i] = gem_acct_new());

	gemtest_subtest("split-cases") {
		for (i = 0; i < ARRAY_SIZE(split_cases); i++)
			check_split(&split_cases[i]);
	}

	gemtest_subtest("split-random") {
		for (i = 1; i <= 1000; i++)
			check_split_random(i);
	}

	/* Eight (acct, class) pairs fit, a ninth does not; a pair already
	 * pending only adds weight.  Weight 0 gets no CPU. */
	gemtest_subtest("pend-overflow") {
		for (i = 0; i < 8; i++)
			gt_assert_eq(gem_acct_pend(acct[i], GEM_ACCT_MM,
						   i ? 0 : 1), 0);
		gt_assert_eq(gem_acct_pend(acct[0], GEM_ACCT_MM, 5), 0);
		gt_assert_eq(gem_acct_pending(), 8);
		gt_assert_eq(gem_acct_pend(acct[8], GEM_ACCT_MM, 1), 1);
		gt_assert_eq(gem_acct_pend(acct[0], GEM_ACCT_SUBMIT, 1), 1);
		gt_assert_eq(gem_acct_pending(), 8);
		gem_acct_flush();
		gt_assert_eq(gem_acct_pending(), 0);
		for (i = 1; i < 8; i++)
			gt_assert_eq_u64(cpu_of(acct[i], GEM_ACCT_MM), 0);
		gt_assert_eq_u64(cpu_of(acct[8], GEM_ACCT_MM), 0);
	}

	/* A request for a file that does not fit flushes the others first,
	 * then pends alone (or is flushed too, if 1 ms went by); its count
	 * is not delayed. */
	gemtest_subtest("acct-change-flush") {
		unsigned int nr = _IOC_NR(DRM_IOCTL_I915_GEM_CREATE);

		for (i = 0; i < 8; i++)
			gt_assert_eq(gem_acct_pend(acct[i], GEM_ACCT_OTHER,
						   i ? 0 : 1), 0);
		gem_acct_serve_begin(acct[8], nr);
		gem_acct_serve_end(acct[8], nr);
		gt_assert(gem_acct_pending() <= 1);
		gt_assert_eq_u64(ioctls_of(acct[8]), 1);
		for (i = 1; i < 8; i++)
			gt_assert_eq_u64(cpu_of(acct[i], GEM_ACCT_OTHER), 0);
		gem_acct_flush();
		gt_assert_eq(gem_acct_pending(), 0);
	}

	/* An execbuffer's binding is the memory manager's: a request that
	 * switches class mid-way charges each part to its own class, and
	 * switches back to where it was; outside a request nothing pends. */
	gemtest_subtest("switch-class") {
		unsigned int nr = _IOC_NR(DRM_IOCTL_I915_GEM_EXECBUFFER2);
		struct gem_acct *a = gem_acct_new();
		uint64_t mm, submit;

		gt_assert(a);
		gem_acct_flush();
		gem_acct_serve_begin(a, nr);
		burn_cpu(200000);
		gt_assert_eq(gem_acct_switch(GEM_ACCT_MM), GEM_ACCT_SUBMIT);
		gt_assert_eq(gem_acct_switch(GEM_ACCT_MM), GEM_ACCT_MM);
		burn_cpu(200000);
		gt_assert_eq(gem_acct_switch(GEM_ACCT_SUBMIT), GEM_ACCT_MM);
		burn_cpu(200000);
		gem_acct_serve_end(a, nr);
		gem_acct_flush();
		mm = cpu_of(a, GEM_ACCT_MM);
		submit = cpu_of(a, GEM_ACCT_SUBMIT);
		gt_assert(mm > 0);
		gt_assert(submit > 0);
		gt_assert_eq_u64(cpu_of(a, GEM_ACCT_OTHER), 0);
		gt_assert_eq_u64(ioctls_of(a), 1);
		gem_acct_switch(GEM_ACCT_MM);
		gt_assert_eq(gem_acct_pending(), 0);
		gem_acct_put(a);
	}

	/* A pending charge keeps its acct alive after its owner let go
	 * (run under ASan this is a use after free otherwise). */
	gemtest_subtest("pending-holds-ref") {
		struct gem_acct *a = gem_acct_new();

		gt_assert(a);
		gt_assert_eq(gem_acct_pend(a, GEM_ACCT_WAIT, 1), 0);
		gem_acct_put(a);
		gem_acct_flush();
		gt_assert_eq(gem_acct_pending(), 0);
	}

	gemtest_subtest("run-start-readings")
		test_run_start_readings();
	gemtest_subtest("inline-run-readings")
		test_inline_run_readings();

	for (i = 0; i < NACCT; i++)
		gem_acct_put(acct[i]);
	return gemtest_exit();
}
