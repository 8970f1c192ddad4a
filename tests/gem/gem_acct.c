/*
 * gem_acct: gemd's per-client accounting adds up.  After a known
 * workload from one client (blits big enough to keep the GPU model busy,
 * objects created and closed, waits), against a private gemd:
 *
 *   - the sum over clients of gemd's per-client CPU (gemkit_clients'
 *     cpu_ns) is within 10% of gemd's process CPU minus its idle
 *     threads, over the same window (per-thread CPU from
 *     /proc/PID/task/TID/schedstat; the working threads are the
 *     client's connection thread, the command streamer gpu-cs and the
 *     retire worker; the rest -- main, accept, hangcheck, watcher --
 *     are idle and printed);
 *   - the client's GPU busy time (drm-engine-render) is within 10% of
 *     the GPU model's busy time (gemkit_counters' gpu_busy_ns);
 *   - its counts are exact.
 * With three clients at once, each one's GPU busy time is its own
 * batches': the two submitters' together match the model, the third's
 * is 0.  The numbers are printed.  No timing is asserted: both sides of each
 * comparison measure the same work.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemdebugfs.h"
#include "gemtest.h"
#include "gemtest-batch.h"
#include "gemtest-dfs.h"
#include "libgem.h"
#include "strbuf.h"

#define ROUNDS		300
#define W		1024		/* pixels, 32 bpp: a 1 MiB surface */
#define H		256

#define MAX_TASKS	64
struct task {
	int tid;
	char comm[32];
	uint64_t ns;
};
struct tasks {
	struct task v[MAX_TASKS];
	unsigned int n;
};

static void read_tasks(int pid, struct tasks *t)
{
	char path[128], buf[128];
	struct dirent *de;
	FILE *f;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	gt_assert(d);
	t->n = 0;
	while ((de = readdir(d)) && t->n < MAX_TASKS) {
		struct task *k = &t->v[t->n];
		unsigned long long ns;

		if (de->d_name[0] == '.')
			continue;
		k->tid = atoi(de->d_name);
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, k->tid);
		f = fopen(path, "r");
		if (!f || !fgets(k->comm, sizeof(k->comm), f)) {
			if (f)
				fclose(f);
			continue;	/* gone meanwhile */
		}
		fclose(f);
		k->comm[strcspn(k->comm, "\n")] = '\0';
		snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", pid, k->tid);
		f = fopen(path, "r");
		if (!f || !fgets(buf, sizeof(buf), f) || sscanf(buf, "%llu", &ns) != 1) {
			if (f)
				fclose(f);
			continue;
		}
		fclose(f);
		k->ns = ns;
		t->n++;
	}
	closedir(d);
}

static const struct task *find_task(const struct tasks *t, int tid)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].tid == tid)
			return &t->v[i];
	return NULL;
}

static double pct_off(double got, double want)
{
	return want ? 100.0 * (got - want) / want : 100.0;
}

/*
 * The workload and its figures, in a function of their own: locals of
 * main() live across the harness's setjmp and may be clobbered.
 */
static void test_sum_of_clients(int pid, struct gdfs *src)
{
	struct gen3_surf dst = { .pitch = W * 4, .cpp = 4, .size = (uint64_t)W * 4 * H };
	const struct gen3_rect all = { 0, 0, W, H };
	struct tasks t0, t1;
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct gdfs_clients cl;
	uint64_t busy0, busy1, sum_cpu = 0, working = 0, idle = 0, busy_client = 0;
	unsigned int i;
	uint32_t batch;
	int fd;

	busy0 = gt_dfs_counter(src, "gpu_busy_ns");
	read_tasks(pid, &t0);

	/* The workload: one client, every class of ioctl. */
	fd = gt_open();
	dst.handle = gt_create(fd, dst.size);
	batch = gt_create(fd, 4096);
	for (i = 0; i < ROUNDS; i++) {
		struct gen3_batch b;
		uint32_t tmp = gt_create(fd, 65536);

		gen3_batch_reset(&b);
		gen3_emit_color_blt(&b, &dst, &all, 0xff000000u | i);
		gen3_batch_end(&b);
		gt_assert_eq(gt_execbuf(fd, &b, batch, &dst.handle, NULL, 1, 0, NULL), 0);
		if (i % 8 == 7)
			gt_set_domain(fd, dst.handle, I915_GEM_DOMAIN_CPU,
				      I915_GEM_DOMAIN_CPU);
		gt_close(fd, tmp);
	}
	gt_set_domain(fd, dst.handle, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU);

	read_tasks(pid, &t1);
	busy1 = gt_dfs_counter(src, "gpu_busy_ns");
	gt_assert_eq(gdfs_read(src, "gemkit_clients", &sb), 0);
	gt_assert_f(gdfs_parse_clients(sb.buf, sb.len, &cl, &err) == 0, "%s", err.buf);
	gt_assert(cl.has_usage);
	gt_assert_eq(cl.n, 1);
	for (i = 0; i < cl.n; i++)
		sum_cpu += cl.v[i].cpu_ns;
	busy_client = cl.v[0].engine_render_ns;
	/* Exact counts: one execbuffer and one relocation a round. */
	gt_assert_eq_u64(cl.v[0].execbuffers, ROUNDS);
	gt_assert_eq_u64(cl.v[0].relocations, ROUNDS);
	gt_assert_eq_u64(cl.v[0].total_bytes, dst.size + 4096);

	for (i = 0; i < t1.n; i++) {
		const struct task *a = find_task(&t0, t1.v[i].tid);
		uint64_t d = t1.v[i].ns - (a ? a->ns : 0);
		/* New threads are the client's connection's. */
		bool work = !a || !strcmp(t1.v[i].comm, "gpu-cs") ||
			    !strcmp(t1.v[i].comm, "gemd-retire");

		printf("# thread %d %-15s %s %8.3f ms\n", t1.v[i].tid, t1.v[i].comm,
		       work ? "working" : "idle   ", (double)d / 1e6);
		if (work)
			working += d;
		else
			idle += d;
	}
	printf("# gemd CPU: working threads %.3f ms, idle threads %.3f ms; "
	       "sum of clients' cpu_ns %.3f ms (%+.1f%%)\n", (double)working / 1e6,
	       (double)idle / 1e6, (double)sum_cpu / 1e6, pct_off((double)sum_cpu,
	       (double)working));
	printf("# GPU busy: model %.3f ms, client's drm-engine-render %.3f ms "
	       "(%+.1f%%)\n", (double)(busy1 - busy0) / 1e6,
	       (double)busy_client / 1e6,
	       pct_off((double)busy_client, (double)(busy1 - busy0)));
	gt_assert(busy1 > busy0);
	gt_assert_f(sum_cpu * 10 >= working * 9 && sum_cpu * 10 <= working * 11,
		    "clients %llu ns vs working threads %llu ns",
		    (unsigned long long)sum_cpu, (unsigned long long)working);
	gt_assert_f(busy_client * 10 >= (busy1 - busy0) * 9 &&
		    busy_client * 10 <= (busy1 - busy0) * 11,
		    "client busy %llu ns vs model %llu ns",
		    (unsigned long long)busy_client,
		    (unsigned long long)(busy1 - busy0));
	gdfs_clients_release(&cl);
	gt_close(fd, batch);
	gt_close(fd, dst.handle);
	gem_close(fd);
	strbuf_release(&sb);
	strbuf_release(&err);
}

/* The client of gemkit_clients whose objects total total_bytes. */
static const struct gdfs_client *client_by_size(const struct gdfs_clients *cl,
						uint64_t total_bytes)
{
	size_t i;

	for (i = 0; i < cl->n; i++)
		if (cl->v[i].total_bytes == total_bytes)
			return &cl->v[i];
	gt_assert_f(0, "no client with %llu bytes", (unsigned long long)total_bytes);
	return NULL;
}

/*
 * Three clients at once: two submit blits in turn (a big one and a small
 * one), the third only creates and closes objects.  The GPU busy time is
 * each submitter's own: together within 10% of the model's, each > 0,
 * and exactly 0 for the client that never submitted.
 */
static void test_busy_per_client(struct gdfs *src)
{
	struct gen3_surf big = { .pitch = W * 4, .cpp = 4, .size = (uint64_t)W * 4 * H };
	struct gen3_surf small = { .pitch = 64 * 4, .cpp = 4, .size = 64 * 4 * 64 };
	const struct gen3_rect all_big = { 0, 0, W, H }, all_small = { 0, 0, 64, 64 };
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	const struct gdfs_client *a, *b, *c;
	struct gdfs_clients cl;
	uint64_t busy0, model, kept = 3 * 4096;
	uint32_t batch_a, batch_b, kept_c;
	unsigned int i;
	int fa, fb, fc;

	fa = gt_open();
	fb = gt_open();
	fc = gt_open();
	big.handle = gt_create(fa, big.size);
	batch_a = gt_create(fa, 4096);
	small.handle = gt_create(fb, small.size);
	batch_b = gt_create(fb, 4096);
	kept_c = gt_create(fc, kept);
	busy0 = gt_dfs_counter(src, "gpu_busy_ns");
	for (i = 0; i < ROUNDS / 3; i++) {
		struct gen3_batch bb;

		gen3_batch_reset(&bb);
		gen3_emit_color_blt(&bb, &big, &all_big, 0xff000000u | i);
		gen3_batch_end(&bb);
		gt_assert_eq(gt_execbuf(fa, &bb, batch_a, &big.handle, NULL, 1, 0, NULL), 0);
		gen3_batch_reset(&bb);
		gen3_emit_color_blt(&bb, &small, &all_small, 0xff000000u | i);
		gen3_batch_end(&bb);
		gt_assert_eq(gt_execbuf(fb, &bb, batch_b, &small.handle, NULL, 1, 0, NULL), 0);
		gt_close(fc, gt_create(fc, 65536));
	}
	gt_set_domain(fa, big.handle, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU);
	gt_set_domain(fb, small.handle, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU);
	model = gt_dfs_counter(src, "gpu_busy_ns") - busy0;

	gt_assert_eq(gdfs_read(src, "gemkit_clients", &sb), 0);
	gt_assert_f(gdfs_parse_clients(sb.buf, sb.len, &cl, &err) == 0, "%s", err.buf);
	gt_assert_eq(cl.n, 3);
	a = client_by_size(&cl, big.size + 4096);
	b = client_by_size(&cl, small.size + 4096);
	c = client_by_size(&cl, kept);
	printf("# GPU busy: model %.3f ms; big blits %.3f ms, small blits %.3f ms, "
	       "no batches %.3f ms\n", (double)model / 1e6,
	       (double)a->engine_render_ns / 1e6, (double)b->engine_render_ns / 1e6,
	       (double)c->engine_render_ns / 1e6);
	gt_assert_eq_u64(a->execbuffers, ROUNDS / 3);
	gt_assert_eq_u64(b->execbuffers, ROUNDS / 3);
	gt_assert_eq_u64(c->execbuffers, 0);
	gt_assert_eq_u64(c->engine_render_ns, 0);
	gt_assert(a->engine_render_ns > 0);
	gt_assert(b->engine_render_ns > 0);
	gt_assert_f((a->engine_render_ns + b->engine_render_ns) * 10 >= model * 9 &&
		    (a->engine_render_ns + b->engine_render_ns) * 10 <= model * 11,
		    "clients' busy %llu + %llu ns vs model %llu ns",
		    (unsigned long long)a->engine_render_ns,
		    (unsigned long long)b->engine_render_ns,
		    (unsigned long long)model);
	gdfs_clients_release(&cl);
	gt_close(fc, kept_c);
	gem_close(fc);
	gem_close(fb);
	gem_close(fa);
	strbuf_release(&sb);
	strbuf_release(&err);
}

int main(int argc, char **argv)
{
	struct gdfs *src;
	int pid;

	gemtest_init(argc, argv);
	gemtest_start_gemd(NULL);
	pid = gemtest_gemd_pid();
	gt_assert_eq(gdfs_open_socket(NULL, &src), 0);

	gemtest_subtest("sum-of-clients-cpu-and-gpu-busy-match-gemd")
		test_sum_of_clients(pid, src);
	gemtest_subtest("gpu-busy-is-each-submitters-own")
		test_busy_per_client(src);

	gdfs_close(src);
	return gemtest_exit();
}
