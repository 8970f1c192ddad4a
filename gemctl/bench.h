/*
 * gemctl bench: workloads x strategies, measured the same way every time
 * (cmd-bench.c drives; this header is what its parts share).
 *
 *   bench-strategy.c   the strategies: a buffer manager and an upload path
 *   bench.c            one measured run: CPU, counters, wall time
 *   bench-sys.c        gemd's pid and CPU, placement, the machine
 *   bench-floor.c      floors measured in the same run
 *   bench-stats.c      min / median / max / spread
 *   bench-output.c     the table, the JSON document, --compare
 *   bench-micro.c      `bench micro`: the micro benchmarks as subprocesses
 */
#ifndef GEMKIT_GEMCTL_BENCH_H
#define GEMKIT_GEMCTL_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bufmgr.h"
#include "workload.h"

/* --- strategies (bench-strategy.c) ---------------------------------------- */

/* A strategy: how buffers are got, and how data is uploaded. */
struct bench_strategy {
	enum bm_strategy alloc;
	enum bm_upload upload;
	bool upload_named;		/* the name says the path */
	char name[32];			/* "reuse", "gtt-map", "alloc+cpu-map",
					 * "alloc@shm" with a transport */
	const char *transport;		/* $GEMKIT_TRANSPORT for its runs, or
					 * NULL: as this process has it */
};

/* s under transport t ("socket", "shm"): out is named NAME@T.  -EINVAL if
 * the name does not fit. */
int bench_strategy_on(const struct bench_strategy *s, const char *t,
		      struct bench_strategy *out);

/* Parse "alloc" / "reuse" / "suballoc", an upload path alone (with
 * reuse, as libdrm would), or "ALLOC+UPLOAD".  0 or -EINVAL. */
int bench_strategy_parse(const char *s, struct bench_strategy *out);
/* Does s make sense for w (upload paths only where w uploads)? */
bool bench_strategy_applies(const struct bench_strategy *s,
			    const struct workload *w);

/* --- one measured run (bench.c) -------------------------------------------- */

enum bench_metric {
	BM_OPS_PER_S,
	BM_MB_PER_S,
	BM_WALL_US,
	BM_CLIENT_CPU_US,
	BM_GEMD_CPU_US,
	BM_GEMD_CLIENT_US,
	BM_GEMD_MM_US,
	BM_GEMD_SUBMIT_US,
	BM_GEMD_GPU_US,
	BM_GEMD_WAIT_OTHER_US,
	BM_GEMD_REST_US,
	BM_GEMD_PER_REQ,
	BM_GPU_BUSY_US,
	BM_GPU_BUSY_PCT,
	BM_TOTAL_CPU_US,		/* client + gemd: the seed's figure */
	BM_IOCTLS,
	BM_BINDS,
	BM_EVICTIONS,
	BM_CLFLUSH_BYTES,
	BM_WAITS,
	BM_EXECBUFFERS,
	BM_FLOOR_US,
	BM_X_FLOOR,
	BENCH_NMETRICS,
};

struct bench_metric_desc {
	const char *key;		/* JSON key, unit in the name */
	const char *head;		/* table column */
	bool higher_better;
};
extern const struct bench_metric_desc bench_metrics[BENCH_NMETRICS];

/* What gemd measured for this client's drm_file over the window (its
 * fdinfo: debugfs/FORMAT.md), in ns. */
struct bench_gemd_client {
	uint64_t cpu_ns, mm_ns, submit_ns, gpu_ns, wait_ns, other_ns, retire_ns;
	uint64_t gpu_busy_ns, ioctls;
};

struct bench_sample {
	double v[BENCH_NMETRICS];
	/* Metrics that could not be measured (bit per enum bench_metric):
	 * absent from the JSON, "-" in the table, never 0; why says why. */
	uint32_t unknown;
	const char *why_gemd, *why_client;
	uint64_t ops, bytes, elapsed_ns;
	uint64_t client_user_ns, client_sys_ns, gemd_cpu_ns;
	struct bench_gemd_client gc;	/* valid unless why_client */
	/* gemkit's counts and the driver's, for the consistency check */
	uint64_t exec_counted, exec_driver;
	uint64_t reloc_counted, reloc_driver;
	uint64_t pwrite_counted, pwrite_driver;
	uint64_t waits_driver;
	bool counters;			/* the driver's counters were read */
	bool consistent;
};

struct bench_floors;
struct gdfs;

struct bench_env {
	const char *device;
	int gemd_pid;			/* 0: unknown (no gemd CPU) */
	struct gdfs *gdfs;		/* NULL: no driver counters */
	const struct bench_floors *floors;
	uint64_t duration_ns;
	volatile sig_atomic_t *stop;
	uint8_t *src;
};

/* Run w with s once for env->duration_ns.  0, or -errno with *failed_op
 * naming the request. */
int bench_measure(const struct bench_env *env, const struct workload *w,
		  const struct bench_strategy *s, struct bench_sample *out,
		  const char **failed_op);

/* --- the system (bench-sys.c) ---------------------------------------------- */

/* gemd's pid: the peer of a connection to its socket.  -errno. */
int bench_gemd_pid(const char *device);
/* CPU time gemd's threads have used, ns (0 when unreadable). */
uint64_t bench_gemd_cpu_ns(int pid);
/* This thread's user and system CPU, ns. */
void bench_thread_cpu(uint64_t *user_ns, uint64_t *sys_ns);

enum bench_placement { BENCH_ANY, BENCH_SAME, BENCH_CROSS };
/* Pin this thread and gemd's threads.  Returns what was achieved
 * (BENCH_ANY when pinning was refused), *why says why not. */
enum bench_placement bench_place(int gemd_pid, enum bench_placement want,
				 const char **why);
/* Undo bench_place: gemd's threads and this one get their old masks. */
void bench_unplace(int gemd_pid);
extern const char *const bench_placement_names[3];

struct bench_machine {
	char cpu_model[128];
	unsigned int cores;
	char kernel[256];
};
void bench_machine(struct bench_machine *m);

/* --- floors (bench-floor.c) ------------------------------------------------ */

#define BENCH_NSIZES	4
extern const uint64_t bench_floor_sizes[BENCH_NSIZES];

struct bench_floors {
	double rtt_ns;				/* AF_UNIX round trip, 64 bytes */
	double memcpy_ns[BENCH_NSIZES];		/* per copy of each size */
	double pwrite_ns[BENCH_NSIZES];		/* pwrite(2) to a memfd */
	double dfs_floor_ns;			/* snprintf + strtoul of the counters */
	double dfs_cycle_ns;			/* read + parse gemkit_counters */
	size_t dfs_bytes;
};

int bench_floors_measure(struct bench_floors *f, struct gdfs *gdfs);
/* ns to copy len bytes: memcpy (map uploads) or pwrite(2) (pwrite). */
double bench_floor_copy_ns(const struct bench_floors *f, bool pwrite,
			   uint64_t len);

/* --- statistics (bench-stats.c) ------------------------------------------ */

struct bench_stat {
	double min, median, max;
	double spread_pct;		/* (max - min) / median * 100 */
};
void bench_stat(const double *v, unsigned int n, struct bench_stat *out);

/* --- results and output (bench-output.c) ---------------------------------- */

struct bench_result {
	const struct workload *w;
	struct bench_strategy s;
	struct bench_sample *samples;	/* repeat of them */
	unsigned int n;
	struct bench_stat st[BENCH_NMETRICS];	/* over the runs that measured it */
	uint32_t unknown;		/* metrics no run measured */
	bool consistent;
};

struct bench_report {
	struct bench_machine machine;
	enum bench_placement placement;
	const char *device;
	unsigned int repeat;
	uint64_t duration_ns;
	struct bench_floors floors;
	bool have_floors;
	struct bench_result *results;
	unsigned int nresults;
};

void bench_print_table(FILE *f, const struct bench_report *r);
/* Write the JSON document; 0 or -errno. */
int bench_write_json(FILE *f, const struct bench_report *r);
/* --compare: print the ratios B/A; returns the number of flagged
 * changes, or -errno (with a message). */
int bench_compare(FILE *f, const char *a, const char *b);

/* --- bench micro (bench-micro.c) ------------------------------------------ */

/* Run the micro benchmarks against gemd (gemd_pid) at device.  With a
 * placement, gem-bench measures in it (--placement) and the others run
 * with gemd and this thread pinned to it; without, gem-bench measures in
 * its default placements and the others run unpinned.  0 or -errno. */
int bench_micro(const char *device, bool json, FILE *out, int gemd_pid,
		const enum bench_placement *placement);
/* Where the benchmark programs are ($GEMCTL_BENCH_DIR, else the build
 * tree around this gemctl), and this gemctl's own path.  0 or -errno. */
int bench_dir(char *dir, size_t len, char *self, size_t selflen);
/* `bench gl`: gl-bench through Mesa's i915 driver on the device and
 * through llvmpipe, repeat times each for duration_ns (bench-gl.c). */
int bench_gl(const char *device, int gemd_pid, bool json, FILE *out,
	     uint64_t duration_ns, unsigned int repeat);

#endif
