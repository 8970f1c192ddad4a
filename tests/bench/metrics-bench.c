/*
 * metrics-bench: what a Prometheus scrape of gemd costs, at 1,000 and at
 * 100,000 objects, as a ratio to reading gemkit_counters in the same run
 * (the floor: one record of counters, no walk of the objects).
 *
 *   scrape        gem_debugfs_read of gemkit_openmetrics (what gemd
 *                 --metrics serves Prometheus) and of gemkit_metrics,
 *                 against gem_debugfs_read of gemkit_counters: printed,
 *                 no goal (the exposition is 7 times the text, and its
 *                 process_* values cost three reads of /proc)
 *   under lock    what the driver pays: the scrape's snapshot
 *                 (SNAP_FILE_TOTALS) against gemkit_counters' (none),
 *                 goal <= 2x at any object count
 *   growth        the scrape at 100,000 objects against the scrape at
 *                 1,000: a scrape must not grow with the objects,
 *                 goal <= 1.5x
 *
 * The driver runs in this process (tests/lib/gemtest-inproc.c), as in
 * debugfs-bench.  Each figure is the best of REPEAT reads, interleaved
 * with the floor's so both see the same machine: it is shared and noisy,
 * and the best read is the one least disturbed.
 *
 *	metrics-bench [SMALL [LARGE]]	(default 1000 100000 objects)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs_priv.h"
#include "gemtest-inproc.h"
#include "metrics_priv.h"
#include "gemtest.h"
#include "strbuf.h"
#include "util.h"

#define REPEAT	200
#define GOAL_LOCK	2.0	/* the scrape's snapshot / gemkit_counters' */
#define GOAL_GROWTH	1.5	/* scrape at LARGE / scrape at SMALL */

struct figures {
	double counters, openmetrics, prometheus;	/* microseconds, best */
	double snap_counters, snap_metrics, process;
	size_t bytes, counters_bytes;
};

static double snapshot_us(unsigned int want)
{
	struct debugfs_snapshot snap;
	uint64_t t0 = now_ns();
	double us;

	if (debugfs_snapshot_take(gti_dev, want, &snap)) {
		fprintf(stderr, "metrics-bench: no snapshot\n");
		exit(1);
	}
	us = (double)(now_ns() - t0) / 1e3;
	debugfs_snapshot_release(&snap);
	return us;
}

static double process_us(void)
{
	struct metrics_process p;
	uint64_t t0 = now_ns();

	metrics_read_process(&p);
	return (double)(now_ns() - t0) / 1e3;
}

static double read_us(const char *file, struct strbuf *sb)
{
	uint64_t t0;

	strbuf_reset(sb);
	t0 = now_ns();
	if (gem_debugfs_read(gti_dev, file, sb)) {
		fprintf(stderr, "metrics-bench: cannot read %s\n", file);
		exit(1);
	}
	return (double)(now_ns() - t0) / 1e3;
}

static double min_d(double a, double b)
{
	return a < b ? a : b;
}

static void measure(struct figures *f)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	f->counters = f->openmetrics = f->prometheus = 1e12;
	f->snap_counters = f->snap_metrics = f->process = 1e12;
	for (r = 0; r < REPEAT; r++) {
		f->counters = min_d(f->counters, read_us("gemkit_counters", &sb));
		f->counters_bytes = sb.len;
		f->openmetrics = min_d(f->openmetrics, read_us("gemkit_openmetrics", &sb));
		f->bytes = sb.len;
		f->prometheus = min_d(f->prometheus, read_us("gemkit_metrics", &sb));
		f->snap_counters = min_d(f->snap_counters, snapshot_us(0));
		f->snap_metrics = min_d(f->snap_metrics, snapshot_us(SNAP_FILE_TOTALS));
		f->process = min_d(f->process, process_us());
	}
	strbuf_release(&sb);
}

static bool report(unsigned int objects, const struct figures *f)
{
	double lock = f->snap_metrics / f->snap_counters;

	printf("%u objects:\n", objects);
	printf("  scrape      gemkit_counters %6.2f us (%zu bytes)   gemkit_openmetrics "
	       "%6.2f us (ratio %5.2f)   gemkit_metrics %6.2f us (ratio %5.2f)\n",
	       f->counters, f->counters_bytes, f->openmetrics, f->openmetrics / f->counters,
	       f->prometheus, f->prometheus / f->counters);
	printf("              of which process_* (/proc/self) %6.2f us\n", f->process);
	printf("  under lock  snapshot for gemkit_counters %6.2f us   for the metrics %6.2f us"
	       "   ratio %5.2f   goal <= %.2f  %s\n", f->snap_counters, f->snap_metrics,
	       lock, GOAL_LOCK, lock <= GOAL_LOCK ? "met" : "MISSED");
	return lock <= GOAL_LOCK;
}

int main(int argc, char **argv)
{
	unsigned int small = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 10) : 1000;
	unsigned int large = argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 10) : 100000;
	struct figures fs, fl;
	unsigned int i;
	double growth;
	bool ok;

	if (argc > 3 || !small || large < small) {
		fprintf(stderr, "usage: metrics-bench [SMALL [LARGE]]\n");
		return 2;
	}
	gti_setup(256u << 20);
	printf("metrics-bench: best of %d reads of each file, interleaved\n", REPEAT);
	for (i = 0; i < small; i++)
		(void)gti_create(4096);
	measure(&fs);
	ok = report(small, &fs);
	for (; i < large; i++)
		(void)gti_create(4096);
	measure(&fl);
	ok = report(large, &fl) && ok;
	growth = fl.openmetrics / fs.openmetrics;
	printf("growth: the OpenMetrics scrape at %u objects is %.2fx the one at %u "
	       "(%zu bytes both times)   goal <= %.2f  %s\n", large, growth, small,
	       fl.bytes, GOAL_GROWTH, growth <= GOAL_GROWTH ? "met" : "MISSED");
	gti_teardown();
	return ok && growth <= GOAL_GROWTH ? 0 : 1;
}
