/*
 * `gemctl bench gl`: GL through Mesa's own i915 driver on gemd, against the
 * same program on llvmpipe in the same run.
 *
 * Each workload of gl-bench runs twice: under `gemctl run` against
 * the benchmarked gemd (Mesa's i915_dri.so drawing through the 3D
 * pipeline of the GPU model), and with LIBGL_ALWAYS_SOFTWARE=1 and
 * LP_NUM_THREADS=1 (llvmpipe on one thread, as gemd's command streamer is
 * one).  gl-bench says "ready" after a warm-up frame and "done ..." at
 * the end of its measured window, then waits for its standard input to
 * close, so gemd's CPU is read exactly around the window while the
 * client's connection (and its thread in gemd) is still there.
 *
 * Per frame: frames/s, megapixels/s for the fill rates, the client's CPU
 * (Mesa, libdrm and the interposer, or llvmpipe), gemd's CPU, and the
 * share of gemd's CPU spent on the threads serving this client's
 * requests: the memory manager and the socket.  The rest of gemd's CPU
 * is the GPU model's command streamer.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "gemdebugfs.h"
#include "json.h"
#include "util.h"

#define GL_MAX_REPEAT	64

/* gl-bench's workloads: the fill rates and the GL frame, compared
 * with llvmpipe; then the seed's workloads, gears, texdown and ipers. */
static const struct {
	const char *name;
} gl_workloads[] = {
	{ "fill-flat" }, { "fill-smooth" }, { "fill-texture" }, { "fill-blend" },
	{ "frame" }, { "gears" }, { "texdown" }, { "ipers" },
};

#define NGL (sizeof(gl_workloads) / sizeof(gl_workloads[0]))

struct gl_run {
	bool ok;
	uint64_t frames, ns, client_ns, pixels;
	uint64_t gemd_ns, mm_ns;
	bool mm_known;			/* gemd reported its clients' usage */
};

/* The memory manager's CPU over gemd's clients so far, as gemd measured
 * it (gemkit_clients' cpu_mm_ns): the Mesa client is the only one. */
static bool clients_mm_ns(const char *device, uint64_t *out)
{
	struct strbuf text = STRBUF_INIT;
	struct gdfs_clients c = { 0 };
	struct gdfs *g = NULL;
	const char *key, *nl;
	bool ok;
	size_t i;

	*out = 0;
	ok = !gdfs_open_auto(device, NULL, &g) &&
	     !gdfs_read(g, "gemkit_clients", &text) &&
	     !gdfs_parse_clients(text.buf, text.len, &c, NULL);
	if (ok) {
		/* An older gemd's schema line lists no such field. */
		key = strstr(text.buf, "cpu_mm_ns");
		nl = strchr(text.buf, '\n');
		ok = key && nl && key < nl;
	}
	for (i = 0; ok && i < c.n; i++)
		*out += c.v[i].cpu_mm_ns;
	gdfs_clients_release(&c);
	strbuf_release(&text);
	if (g)
		gdfs_close(g);
	return ok;
}

/* A child with its stdin and stdout on pipes. */
struct child {
	pid_t pid;
	FILE *in, *out;
};

static int spawn(char *const *argv, bool sw, struct child *c)
{
	int to[2], from[2];

	if (pipe2(to, O_CLOEXEC))
		return -errno;
	if (pipe2(from, O_CLOEXEC)) {
		close(to[0]);
		close(to[1]);
		return -errno;
	}
	c->pid = fork();
	if (c->pid < 0) {
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		return -errno;
	}
	if (c->pid == 0) {
		dup2(to[0], STDIN_FILENO);
		dup2(from[1], STDOUT_FILENO);
		if (sw) {
			setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
			setenv("LP_NUM_THREADS", "1", 1);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	c->in = fdopen(to[1], "w");
	c->out = fdopen(from[0], "r");
	return 0;
}

static int reap(struct child *c)
{
	int status;

	if (c->in)
		fclose(c->in);
	if (c->out)
		fclose(c->out);
	if (waitpid(c->pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Read lines until one starts with what; false at end of file. */
static bool wait_line(struct child *c, const char *what, char *line, size_t len)
{
	while (fgets(line, (int)len, c->out))
		if (!strncmp(line, what, strlen(what)))
			return true;
	return false;
}

static void run_one(const char *prog, const char *self, const char *device,
		    int gemd_pid, const char *name, bool sw, uint64_t duration_ns,
		    struct gl_run *r)
{
	char ms[32], line[256];
	unsigned long long f, ns, u, s, px;
	uint64_t g0 = 0, m0 = 0, m1 = 0;
	struct child c = { 0 };
	char *hw_argv[] = { (char *)self, (char *)"-D", (char *)device, (char *)"run",
			    (char *)"--", (char *)prog, (char *)"--duration", ms,
			    (char *)name, NULL };
	char *sw_argv[] = { (char *)prog, (char *)"--sw", (char *)"--duration", ms,
			    (char *)name, NULL };

	memset(r, 0, sizeof(*r));
	snprintf(ms, sizeof(ms), "%llu", (unsigned long long)(duration_ns / 1000000));
	if (spawn(sw ? sw_argv : hw_argv, sw, &c))
		return;
	if (!wait_line(&c, "ready", line, sizeof(line)))
		goto out_reap;
	if (!sw) {
		r->mm_known = clients_mm_ns(device, &m0);
		g0 = bench_gemd_cpu_ns(gemd_pid);
	}
	if (!wait_line(&c, "done", line, sizeof(line)) ||
	    sscanf(line, "done frames=%llu ns=%llu user_ns=%llu sys_ns=%llu pixels=%llu",
		   &f, &ns, &u, &s, &px) != 5 || !f)
		goto out_reap;
	if (!sw) {
		r->gemd_ns = bench_gemd_cpu_ns(gemd_pid) - g0;
		r->mm_known = r->mm_known && clients_mm_ns(device, &m1);
		r->mm_ns = m1 > m0 ? m1 - m0 : 0;
	}
	r->frames = f;
	r->ns = ns;
	r->client_ns = u + s;
	r->pixels = px;
	r->ok = true;
out_reap:
	if (reap(&c))
		r->ok = false;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
}

struct gl_row {
	double fps, mpix, client_ms, gemd_ms, share;
	bool share_known;
	unsigned int runs;
};

static void summarise(const struct gl_run *runs, unsigned int n, struct gl_row *row)
{
	double fps[GL_MAX_REPEAT], mpix[GL_MAX_REPEAT], cl[GL_MAX_REPEAT];
	double gm[GL_MAX_REPEAT], sh[GL_MAX_REPEAT];
	unsigned int i, k = 0, ks = 0;

	for (i = 0; i < n; i++) {
		const struct gl_run *r = &runs[i];

		if (!r->ok)
			continue;
		fps[k] = (double)r->frames * 1e9 / (double)r->ns;
		mpix[k] = (double)r->pixels * 1e3 / (double)r->ns;
		cl[k] = (double)r->client_ns / 1e6 / (double)r->frames;
		gm[k] = (double)r->gemd_ns / 1e6 / (double)r->frames;
		if (r->mm_known && r->gemd_ns)
			sh[ks++] = 100.0 * (double)r->mm_ns / (double)r->gemd_ns;
		k++;
	}
	row->runs = k;
	row->fps = median(fps, k);
	row->mpix = median(mpix, k);
	row->client_ms = median(cl, k);
	row->gemd_ms = median(gm, k);
	row->share_known = ks > 0;
	row->share = median(sh, ks);
}

static void json_row(gj *rows, const char *name, bool sw, const struct gl_row *row,
		     const struct gl_row *ref)
{
	bool fill = !strncmp(name, "fill-", 5);

	{
		gj *r = gj_object();

		gj_str(r, "workload", name);
		gj_str(r, "driver", sw ? "llvmpipe" : "i915");
		gj_uint(r, "runs", row->runs);
		gj_uint(r, "frames_per_s_x1000", (uint64_t)(row->fps * 1000));
		if (fill)
			gj_uint(r, "kpixels_per_s", (uint64_t)(row->mpix * 1000));
		gj_uint(r, "client_cpu_us_per_frame", (uint64_t)(row->client_ms * 1000));
		if (!sw) {
			gj_uint(r, "gemd_cpu_us_per_frame", (uint64_t)(row->gemd_ms * 1000));
			if (row->share_known)
				gj_uint(r, "gemd_mm_share_permille",
					(uint64_t)(row->share * 10));
		}
		if (ref && ref->fps > 0)
			gj_uint(r, "x_llvmpipe_permille", (uint64_t)(row->fps / ref->fps * 1000));
		gj_push(rows, r);
	}
}

static void print_row(FILE *out, const char *name, bool sw, const struct gl_row *row,
		      const struct gl_row *ref)
{
	char mpix[16] = "", gemd[16] = "", share[16] = "", ratio[16] = "";

	if (!row->runs) {
		fprintf(out, "%-13s %-9s failed\n", name, sw ? "llvmpipe" : "i915");
		return;
	}
	if (!strncmp(name, "fill-", 5))
		snprintf(mpix, sizeof(mpix), "%.1f", row->mpix);
	if (!sw) {
		snprintf(gemd, sizeof(gemd), "%.2f", row->gemd_ms);
		snprintf(share, sizeof(share), row->share_known ? "%.1f%%" : "-",
			 row->share);
	}
	if (ref && ref->fps > 0)
		snprintf(ratio, sizeof(ratio), "%.3fx", row->fps / ref->fps);
	fprintf(out, "%-13s %-9s %9.2f %8s %11.2f %11s %8s %10s\n", name,
		sw ? "llvmpipe" : "i915", row->fps, mpix, row->client_ms, gemd, share,
		ratio);
}

int bench_gl(const char *device, int gemd_pid, bool json, FILE *out,
	     uint64_t duration_ns, unsigned int repeat)
{
	char dir[PATH_MAX], self[PATH_MAX], prog[PATH_MAX + 16];
	static struct gl_run runs[NGL][2][GL_MAX_REPEAT];
	struct gl_row rows[NGL][2];
	unsigned int w, k, d;
	gj *doc = NULL, *list = NULL;
	int ret;

	if (repeat > GL_MAX_REPEAT)
		repeat = GL_MAX_REPEAT;
	ret = bench_dir(dir, sizeof(dir), self, sizeof(self));
	if (ret)
		return ret;
	snprintf(prog, sizeof(prog), "%s/gl-bench", dir);
	if (access(prog, X_OK))
		return -errno;
	/* Repeats interleaved, so that a disturbance spreads over all rows. */
	for (k = 0; k < repeat; k++) {
		for (w = 0; w < NGL; w++) {
			for (d = 0; d < 2; d++) {
				if (!json)
					fprintf(stderr, "gemctl bench gl: %s on %s, run %u...\n",
						gl_workloads[w].name,
						d ? "llvmpipe" : "i915", k + 1);
				run_one(prog, self, device, gemd_pid, gl_workloads[w].name,
					d == 1, duration_ns, &runs[w][d][k]);
			}
		}
	}
	for (w = 0; w < NGL; w++)
		for (d = 0; d < 2; d++)
			summarise(runs[w][d], repeat, &rows[w][d]);
	if (json) {
		doc = gj_doc("gemctl", GEMCTL_SCHEMA_VERSION);
		list = gj_array();
		gj_str(doc, "verb", "bench");
		gj_str(doc, "suite", "gl");
		gj_str(doc, "device", device);
		gj_uint(doc, "duration_ms", duration_ns / 1000000);
		gj_uint(doc, "repeat", repeat);
		for (w = 0; w < NGL; w++) {
			json_row(list, gl_workloads[w].name, false, &rows[w][0],
				 &rows[w][1]);
			json_row(list, gl_workloads[w].name, true, &rows[w][1], NULL);
		}
		gj_set(doc, "gl", list);
		gj_write(out, doc);
		gj_free(doc);
		return 0;
	}
	fprintf(out, "%-13s %-9s %9s %8s %11s %11s %8s %10s\n", "gl workload", "driver",
		"frames/s", "Mpix/s", "client ms/f", "gemd ms/f", "mm share",
		"x llvmpipe");
	for (w = 0; w < NGL; w++) {
		print_row(out, gl_workloads[w].name, false, &rows[w][0], &rows[w][1]);
		print_row(out, gl_workloads[w].name, true, &rows[w][1], NULL);
	}
	fprintf(out, "\nllvmpipe runs on one thread (LP_NUM_THREADS=1); \"mm share\" is "
		"the part of gemd's CPU its\nmemory manager spent on the client's "
		"requests, as gemd measured it (gemkit_clients'\ncpu_mm_ns); \"-\": "
		"this gemd does not report it.\n");
	return 0;
}
