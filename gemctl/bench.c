/*
 * One measured run of a workload under a strategy.  The window is
 * bracketed the same way every time, outermost first:
 *
 *   driver counters (gemkit_counters, through libgemdebugfs)
 *     what gemd measured for this client (its fdinfo, gem_fdinfo)
 *       gemd CPU (/proc/PID)
 *         this thread's CPU (getrusage), wall clock
 *           the ops until the duration passes, then a wait for the GPU
 *
 * so that reading the counters, which costs gemd CPU itself, falls
 * outside the CPU figures.  Setup (objects that live as long as the
 * workload) and teardown are outside too.
 *
 * gemd's CPU for this client and its split come from gemd itself: it
 * reads each serving thread's CPU clock per request and charges it to
 * the request's drm_file and ioctl class, and the GPU model's CPU and
 * busy time to the file whose request ran (driver/gem/acct.h).  The
 * rest of gemd's process CPU is what no client was charged for (idle
 * threads' spins, retirement, the other clients).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <drm.h>
#include <i915_drm.h>

#include "bench.h"
#include "gemdebugfs.h"
#include "libgem.h"
#include "strbuf.h"
#include "util.h"

const struct bench_metric_desc bench_metrics[BENCH_NMETRICS] = {
	[BM_OPS_PER_S] = { "ops_per_s", "ops/s", true },
	[BM_MB_PER_S] = { "mb_per_s", "MB/s", true },
	[BM_WALL_US] = { "wall_us_per_op", "wall us", false },
	[BM_CLIENT_CPU_US] = { "client_cpu_us_per_op", "client us", false },
	[BM_GEMD_CPU_US] = { "gemd_cpu_us_per_op", "gemd us", false },
	[BM_GEMD_CLIENT_US] = { "gemd_client_cpu_us_per_op", "client's", false },
	[BM_GEMD_MM_US] = { "gemd_mm_cpu_us_per_op", "mm us", false },
	[BM_GEMD_SUBMIT_US] = { "gemd_submit_cpu_us_per_op", "submit us", false },
	[BM_GEMD_GPU_US] = { "gemd_gpu_cpu_us_per_op", "gpu us", false },
	[BM_GEMD_WAIT_OTHER_US] = { "gemd_wait_other_cpu_us_per_op", "w+o us", false },
	[BM_GEMD_REST_US] = { "gemd_rest_cpu_us_per_op", "rest us", false },
	[BM_GEMD_PER_REQ] = { "gemd_cpu_us_per_request", "us/req", false },
	[BM_GPU_BUSY_US] = { "gpu_busy_us_per_op", "busy us", false },
	[BM_GPU_BUSY_PCT] = { "gpu_busy_pct", "busy %", false },
	[BM_TOTAL_CPU_US] = { "total_cpu_us_per_op", "total us", false },
	[BM_IOCTLS] = { "ioctls_per_op", "ioctls", false },
	[BM_BINDS] = { "binds_per_op", "binds", false },
	[BM_EVICTIONS] = { "evictions_per_op", "evicts", false },
	[BM_CLFLUSH_BYTES] = { "clflush_bytes_per_op", "clflush B", false },
	[BM_WAITS] = { "waits_per_op", "waits", false },
	[BM_EXECBUFFERS] = { "execbuffers_per_op", "execs", false },
	[BM_FLOOR_US] = { "floor_us_per_op", "floor us", false },
	[BM_X_FLOOR] = { "wall_over_floor", "x floor", false },
};

enum { C_EXEC, C_RELOC, C_BINDS, C_EVICT, C_CLFLUSH, C_WAITS, C_PWRITE, NC };
static const char *const counter_keys[NC] = {
	"execbuffers", "relocations", "binds", "evictions", "clflush_bytes",
	"waits", "pwrite_bytes",
};

static int read_counters(struct gdfs *g, uint64_t *v)
{
	struct gdfs_counters c = { 0 };
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	unsigned int i;
	int ret;

	ret = gdfs_read(g, "gemkit_counters", &text);
	if (!ret)
		ret = gdfs_parse_counters(text.buf, text.len, &c, &err);
	for (i = 0; !ret && i < NC; i++)
		if (!gdfs_counter(&c, counter_keys[i], &v[i]))
			ret = -ENOENT;
	gdfs_counters_release(&c);
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

static double per(double v, uint64_t ops)
{
	return ops ? v / (double)ops : 0;
}

/* The metrics each missing measurement takes with it. */
#define GEMD_METRICS	(1u << BM_GEMD_CPU_US | 1u << BM_GEMD_REST_US | \
			 1u << BM_TOTAL_CPU_US)
#define CLIENT_METRICS	(1u << BM_GEMD_CLIENT_US | 1u << BM_GEMD_MM_US | \
			 1u << BM_GEMD_SUBMIT_US | 1u << BM_GEMD_GPU_US | \
			 1u << BM_GEMD_WAIT_OTHER_US | 1u << BM_GEMD_REST_US | \
			 1u << BM_GEMD_PER_REQ | 1u << BM_GPU_BUSY_US | \
			 1u << BM_GPU_BUSY_PCT)
_Static_assert(BENCH_NMETRICS <= 32, "unknown is a 32-bit mask");

/* gemd's CPU split as gemd measured it for this client. */
static void derive_gemd(struct bench_sample *s)
{
	const struct bench_gemd_client *g = &s->gc;

	if (s->why_gemd)
		s->unknown |= GEMD_METRICS;
	if (s->why_client) {
		s->unknown |= CLIENT_METRICS;
		return;
	}
	s->v[BM_GEMD_CLIENT_US] = per((double)g->cpu_ns / 1e3, s->ops);
	/* The memory manager: its ioctls and retiring the client's work. */
	s->v[BM_GEMD_MM_US] = per((double)(g->mm_ns + g->retire_ns) / 1e3, s->ops);
	s->v[BM_GEMD_SUBMIT_US] = per((double)g->submit_ns / 1e3, s->ops);
	s->v[BM_GEMD_GPU_US] = per((double)g->gpu_ns / 1e3, s->ops);
	s->v[BM_GEMD_WAIT_OTHER_US] = per((double)(g->wait_ns + g->other_ns) / 1e3, s->ops);
	/* Signed: the two clocks are read a moment apart. */
	s->v[BM_GEMD_REST_US] = s->v[BM_GEMD_CPU_US] - s->v[BM_GEMD_CLIENT_US];
	/* What one request costs gemd, by gemd's count of them. */
	s->v[BM_GEMD_PER_REQ] = per((double)g->cpu_ns / 1e3, g->ioctls);
	s->v[BM_GPU_BUSY_US] = per((double)g->gpu_busy_ns / 1e3, s->ops);
	s->v[BM_GPU_BUSY_PCT] = s->elapsed_ns ?
		100.0 * (double)g->gpu_busy_ns / (double)s->elapsed_ns : 0;
}

/* This client's figures as gemd measured them (its fdinfo); NULL, or
 * why they could not be read. */
static const char *read_client(int fd, struct bench_gemd_client *g)
{
	char buf[8192];
	struct gdfs_clients c;
	const char *why = NULL;

	if (gem_fdinfo(fd, buf, sizeof(buf)) < 0)
		return errno == EINVAL || errno == ENOENT ?
		       "this gemd does not report per-client usage" :
		       "gemd did not answer the client's fdinfo";
	if (gdfs_parse_fdinfo(buf, strlen(buf), &c, NULL) || c.n != 1)
		why = "the client's fdinfo did not parse";
	else
		*g = (struct bench_gemd_client){
			.cpu_ns = c.v[0].cpu_ns, .mm_ns = c.v[0].cpu_mm_ns,
			.submit_ns = c.v[0].cpu_submit_ns, .gpu_ns = c.v[0].cpu_gpu_ns,
			.wait_ns = c.v[0].cpu_wait_ns, .other_ns = c.v[0].cpu_other_ns,
			.retire_ns = c.v[0].cpu_retire_ns,
			.gpu_busy_ns = c.v[0].engine_render_ns, .ioctls = c.v[0].ioctls,
		};
	gdfs_clients_release(&c);
	return why;
}

static void client_delta(struct bench_gemd_client *d, const struct bench_gemd_client *a,
			 const struct bench_gemd_client *b)
{
	*d = (struct bench_gemd_client){
		.cpu_ns = b->cpu_ns - a->cpu_ns, .mm_ns = b->mm_ns - a->mm_ns,
		.submit_ns = b->submit_ns - a->submit_ns, .gpu_ns = b->gpu_ns - a->gpu_ns,
		.wait_ns = b->wait_ns - a->wait_ns, .other_ns = b->other_ns - a->other_ns,
		.retire_ns = b->retire_ns - a->retire_ns,
		.gpu_busy_ns = b->gpu_busy_ns - a->gpu_busy_ns,
		.ioctls = b->ioctls - a->ioctls,
	};
}

/* The figures of a sample from its raw counts. */
static void derive(struct bench_sample *s, const struct workload *w,
		   const struct bench_strategy *st, const struct bench_env *env,
		   const uint64_t *dc, uint64_t ioctls, uint64_t upload_bytes)
{
	double secs = (double)s->elapsed_ns / 1e9, floor_ns;

	s->v[BM_OPS_PER_S] = secs > 0 ? (double)s->ops / secs : 0;
	s->v[BM_MB_PER_S] = w->bytes && secs > 0 ? (double)s->bytes / secs / 1e6 : 0;
	s->v[BM_WALL_US] = per((double)s->elapsed_ns / 1e3, s->ops);
	s->v[BM_CLIENT_CPU_US] = per((double)(s->client_user_ns + s->client_sys_ns) / 1e3,
				     s->ops);
	s->v[BM_GEMD_CPU_US] = per((double)s->gemd_cpu_ns / 1e3, s->ops);
	s->v[BM_TOTAL_CPU_US] = s->v[BM_CLIENT_CPU_US] + s->v[BM_GEMD_CPU_US];
	s->v[BM_IOCTLS] = per((double)ioctls, s->ops);
	derive_gemd(s);
	s->v[BM_BINDS] = per((double)dc[C_BINDS], s->ops);
	s->v[BM_EVICTIONS] = per((double)dc[C_EVICT], s->ops);
	s->v[BM_CLFLUSH_BYTES] = per((double)dc[C_CLFLUSH], s->ops);
	s->v[BM_WAITS] = per((double)dc[C_WAITS], s->ops);
	s->v[BM_EXECBUFFERS] = per((double)s->exec_counted, s->ops);
	/* The floor: each request one socket round trip, each uploaded
	 * byte one copy (pwrite(2) into a memfd for the pwrite path,
	 * memcpy for the maps), nothing else. */
	floor_ns = s->v[BM_IOCTLS] * env->floors->rtt_ns;
	if (upload_bytes && s->ops)
		floor_ns += bench_floor_copy_ns(env->floors, st->upload == BM_PWRITE,
						upload_bytes / s->ops);
	s->v[BM_FLOOR_US] = floor_ns / 1e3;
	s->v[BM_X_FLOOR] = floor_ns > 0 ? s->v[BM_WALL_US] * 1e3 / floor_ns : 0;
}

static int measure_here(const struct bench_env *env, const struct workload *w,
			const struct bench_strategy *st, struct bench_sample *out,
			const char **failed_op)
{
	const struct workload_strategy ws = { st->alloc, st->upload };
	uint64_t c0[NC] = { 0 }, c1[NC] = { 0 }, dc[NC] = { 0 };
	uint64_t u0, s0, u1, s1, g0, g1, t0;
	struct bench_gemd_client f0 = { 0 }, f1 = { 0 };
	struct workload_ctx x;
	const char *failed;
	unsigned int i;
	int fd, ret;

	memset(out, 0, sizeof(*out));
	*failed_op = NULL;
	fd = gem_open(env->device, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		*failed_op = "gem_open";
		return -errno;
	}
	if (workload_begin(&x, w, fd, &ws, env->src, 1))
		goto out_end;

	out->counters = env->gdfs && read_counters(env->gdfs, c0) == 0;
	out->why_client = read_client(fd, &f0);
	g0 = bench_gemd_cpu_ns(env->gemd_pid);
	/* Count the window only. */
	memset(&x.bm.st, 0, sizeof(x.bm.st));
	bench_thread_cpu(&u0, &s0);
	t0 = now_ns();
	workload_loop(&x, w, t0 + env->duration_ns, env->stop);
	out->elapsed_ns = now_ns() - t0;
	bench_thread_cpu(&u1, &s1);
	g1 = bench_gemd_cpu_ns(env->gemd_pid);
	if (!out->why_client)
		out->why_client = read_client(fd, &f1);
	if (out->counters)
		out->counters = read_counters(env->gdfs, c1) == 0;

	for (i = 0; out->counters && i < NC; i++)
		dc[i] = c1[i] - c0[i];
	out->ops = x.ops;
	out->bytes = x.bytes;
	out->client_user_ns = u1 - u0;
	out->client_sys_ns = s1 - s0;
	out->gemd_cpu_ns = g1 > g0 ? g1 - g0 : 0;
	if (!g0 || !g1)
		out->why_gemd = env->gemd_pid > 0 ? "gemd's /proc/PID is not readable" :
			"gemd's pid is unknown";
	client_delta(&out->gc, &f0, &f1);
	out->exec_counted = x.bm.st.execbuffers;
	out->reloc_counted = x.bm.st.relocations;
	out->pwrite_counted = x.bm.st.pwrite_bytes;
	out->exec_driver = dc[C_EXEC];
	out->reloc_driver = dc[C_RELOC];
	out->pwrite_driver = dc[C_PWRITE];
	out->waits_driver = dc[C_WAITS];
	/* gemd counts the relocations of a pass again when the pass had to
	 * wait for the GPU and restart (execbuffer.c), so after a wait the
	 * driver's count may exceed ours, never fall short. */
	out->consistent = out->counters && out->exec_counted == out->exec_driver &&
			  (out->reloc_counted == out->reloc_driver ||
			   (out->reloc_driver > out->reloc_counted && dc[C_WAITS])) &&
			  out->pwrite_counted == out->pwrite_driver;
	derive(out, w, st, env, dc, x.bm.st.ioctls, x.bm.st.upload_bytes);

out_end:
	ret = workload_end(&x, w, &failed);
	if (ret)
		*failed_op = failed;
	gem_close(fd);
	return ret;
}

/* A run under another transport: libgem picks a thread's transport when
 * the thread first talks to gemd, so the run gets a thread of its own. */
struct measure_args {
	const struct bench_env *env;
	const struct workload *w;
	const struct bench_strategy *st;
	struct bench_sample *out;
	const char **failed_op;
	int ret;
};

static void *measure_thread(void *arg)
{
	struct measure_args *a = arg;

	a->ret = measure_here(a->env, a->w, a->st, a->out, a->failed_op);
	return NULL;
}

int bench_measure(const struct bench_env *env, const struct workload *w,
		  const struct bench_strategy *st, struct bench_sample *out,
		  const char **failed_op)
{
	struct measure_args a = { env, w, st, out, failed_op, 0 };
	pthread_t tid;
	int ret;

	if (!st->transport)
		return measure_here(env, w, st, out, failed_op);
	*failed_op = NULL;
	if (setenv("GEMKIT_TRANSPORT", st->transport, 1))
		return -errno;
	ret = pthread_create(&tid, NULL, measure_thread, &a);
	if (ret)
		return -ret;
	pthread_join(tid, NULL);
	return a.ret;
}
