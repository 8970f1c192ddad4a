/*
 * `gemctl bench micro`: the micro benchmarks of the earlier issues, run
 * as they are (subprocesses), their ratio lines gathered into one report.
 * Each already measures its own floors in its own run; re-implementing
 * them here would only give two versions to keep in step.
 *
 *   gem-bench       ioctl and nop execbuffer vs a socket round trip and
 *                   a futex ping-pong, pwrite/pread vs memcpy,
 *                   create/close, in each placement (--json, parsed)
 *   debugfs-bench   the debugfs cycle at 100k objects, in-process
 *   preload-bench   the interposer's cost, under `gemctl run`
 *   gemtop-bench    gemtop's CPU per refresh
 *   metrics-bench   a metrics scrape at 1,000 and 100,000 objects vs
 *                   gemkit_counters, in-process
 *
 * They are found in the build tree around gemctl, under pkglibexecdir
 * once installed, or in $GEMCTL_BENCH_DIR (bench_dir()).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "json.h"
#include "locate.h"
#include "preload-paths.h"
#include "strbuf.h"
#include "util.h"

/* Run argv with stdout into out (stderr passes through).  Returns the
 * exit status, or -errno when it could not run. */
static int run_capture(char *const *argv, struct strbuf *out)
{
	int pfd[2], status;
	pid_t pid;

	if (access(argv[0], X_OK))
		return -errno;
	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	if (pid == 0) {
		dup2(pfd[1], STDOUT_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	strbuf_read_fd(out, pfd[0]);
	close(pfd[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The programs say PASS/MISS (gem-bench), met/MISSED (debugfs-bench),
 * ok/OVER (gemtop-bench). */
static const char *line_status(const char *line)
{
	size_t len = strlen(line);

	if (strstr(line, "MISS") || strstr(line, " OVER"))
		return "MISS";
	if (strstr(line, "PASS") || strstr(line, " met") ||
	    (len >= 3 && !strcmp(line + len - 3, " ok")))
		return "PASS";
	return "";
}

struct micro_out {
	FILE *f;
	bool json;
	gj *rows;
	const char *place;	/* gem-bench's placement of the next row, or NULL */
};

/* The text table's figure column.  A figure is formatted whole into a
 * growable buffer and printed whole: one wider than the column (a "not
 * run" line naming a deep path, a long ratio line) runs past it and
 * pushes its status right, never loses its end. */
#define MICRO_FIGURE_WIDTH 70

static void row(struct micro_out *o, const char *prog, const char *status,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void row(struct micro_out *o, const char *prog, const char *status,
		const char *fmt, ...)
{
	struct strbuf text = STRBUF_INIT;
	va_list ap;

	/* The text table shows gem-bench's placement first; JSON a field. */
	if (o->place && !o->json)
		strbuf_addf(&text, "%-5s  ", o->place);
	va_start(ap, fmt);
	strbuf_vaddf(&text, fmt, ap);
	va_end(ap);
	if (!o->json && *status) {
		fprintf(o->f, "%-14s %-*s %s\n", prog, MICRO_FIGURE_WIDTH,
			text.buf, status);
	} else if (!o->json) {
		fprintf(o->f, "%-14s %s\n", prog, text.buf);
	} else {
		gj *r = gj_object();

		gj_str(r, "program", prog);
		if (o->place)
			gj_str(r, "placement", o->place);
		gj_str(r, "text", text.buf);
		gj_str(r, "status", status);
		gj_push(o->rows, r);
	}
	strbuf_release(&text);
}

/* Every non-empty line of a program's output, with its status if any. */
static void text_rows(struct micro_out *o, const char *prog, struct strbuf *sb)
{
	char *line = sb->buf, *nl;
	size_t len;

	while (line && *line) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		line += strspn(line, " ");
		len = strlen(line);
		while (len && line[len - 1] == ' ')
			line[--len] = '\0';
		if (*line)
			row(o, prog, line_status(line), "%s", line);
		line = nl ? nl + 1 : NULL;
	}
}

/* gem-bench's placements that could not be had, a row each: "not
 * measured: WHY". */
static void gem_bench_unplaced(struct micro_out *o, json_object *doc)
{
	json_object *places, *e, *v;
	size_t i;

	if (!json_object_object_get_ex(doc, "placements", &places) ||
	    !json_object_is_type(places, json_type_array))
		return;
	for (i = 0; i < json_object_array_length(places); i++) {
		const char *why = "";

		e = json_object_array_get_idx(places, i);
		if (!json_object_object_get_ex(e, "measured", &v) ||
		    json_object_get_boolean(v))
			continue;
		if (json_object_object_get_ex(e, "why", &v))
			why = json_object_get_string(v);
		o->place = json_object_object_get_ex(e, "placement", &v) ?
			   json_object_get_string(v) : "?";
		row(o, "gem-bench", "", "not measured: %s", why);
	}
	o->place = NULL;
}

/* gem-bench --json: one row per result, its placement, ratio and goal. */
static bool gem_bench_rows(struct micro_out *o, struct strbuf *sb)
{
	json_object *doc = json_tokener_parse(sb->buf), *res, *e, *v;
	size_t i;

	if (!doc)
		return false;
	if (!json_object_object_get_ex(doc, "results", &res)) {
		json_object_put(doc);
		return false;
	}
	gem_bench_unplaced(o, doc);
	for (i = 0; i < json_object_array_length(res); i++) {
		const char *name = "", *floor = NULL, *status = "";
		double median = 0, ratio = 0, goal = 0;

		e = json_object_array_get_idx(res, i);
		o->place = json_object_object_get_ex(e, "placement", &v) ?
			   json_object_get_string(v) : NULL;
		if (json_object_object_get_ex(e, "name", &v))
			name = json_object_get_string(v);
		if (json_object_object_get_ex(e, "median_ns", &v))
			median = json_object_get_double(v);
		if (json_object_object_get_ex(e, "floor", &v))
			floor = json_object_get_string(v);
		if (json_object_object_get_ex(e, "ratio", &v))
			ratio = json_object_get_double(v);
		if (json_object_object_get_ex(e, "goal_ratio", &v))
			goal = json_object_get_double(v);
		if (json_object_object_get_ex(e, "status", &v))
			status = json_object_get_string(v);
		if (floor && goal > 0)
			row(o, "gem-bench", status, "%s: %.0f ns, %.2fx %s (goal <= %.2fx)",
			    name, median, ratio, floor, goal);
		else if (floor)
			row(o, "gem-bench", status, "%s: %.0f ns, %.2fx %s", name,
			    median, ratio, floor);
		else
			row(o, "gem-bench", status, "%s: %.0f ns", name, median);
	}
	o->place = NULL;
	json_object_put(doc);
	return true;
}

/* Where the micro benchmarks are: $GEMCTL_BENCH_DIR, else the build tree
 * around this gemctl (<build>/gemctl/gemctl, or gemctl/.libs/lt-gemctl
 * under libtool), else pkglibexecdir relative to this gemctl (a DESTDIR
 * or moved install), else the configured pkglibexecdir.  gem-bench marks
 * the directory. */
int bench_dir(char *dir, size_t len, char *self, size_t selflen)
{
	static const char *const marks[] = {
		"../gem-bench", "../../gem-bench",
		GEMKIT_BIN_TO_PKGLIBEXECDIR "/gem-bench", NULL,
	};
	const char *env = getenv("GEMCTL_BENCH_DIR");
	struct strbuf found = STRBUF_INIT;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -errno;
	exe[n] = '\0';
	snprintf(self, selflen, "%s", exe);
	if (env && *env) {
		snprintf(dir, len, "%s", env);
		return 0;
	}
	if (locate_self_dir(exe, sizeof(exe)) &&
	    locate_near(&found, exe, marks, true))
		snprintf(dir, len, "%s", dirname(found.buf));
	else
		snprintf(dir, len, "%s", GEMKIT_PKGLIBEXECDIR);
	strbuf_release(&found);
	return 0;
}

static void run_one(struct micro_out *o, const char *prog, char *const *argv,
		    bool gem_json)
{
	struct strbuf sb = STRBUF_INIT;
	int st;

	if (o->json == false)
		fprintf(stderr, "gemctl bench micro: running %s...\n", prog);
	st = run_capture(argv, &sb);
	if (st < 0) {
		row(o, prog, "", "not run: %s: %s", argv[0], strerror(-st));
	} else {
		if (!(gem_json && gem_bench_rows(o, &sb)))
			text_rows(o, prog, &sb);
		if (st) {
			row(o, prog, "", "exited with status %d", st);
		}
	}
	strbuf_release(&sb);
}

/* How a micro benchmark runs. */
enum micro_how {
	MICRO_ALONE,		/* PROG: in-process, no gemd */
	MICRO_DEVICE_JSON,	/* PROG -D DEVICE --json [--placement P]
				 * (gem_bench_rows); it places itself */
	MICRO_UNDER_RUN,	/* gemctl -D DEVICE run PROG; "not built" if absent */
};

static const struct micro_prog {
	const char *name;
	enum micro_how how;
} micro_progs[] = {
	{ "gem-bench", MICRO_DEVICE_JSON },
	{ "debugfs-bench", MICRO_ALONE },
	{ "preload-bench", MICRO_UNDER_RUN },
	{ "gemtop-bench", MICRO_ALONE },
	{ "metrics-bench", MICRO_ALONE },
};

static void run_prog(struct micro_out *o, const struct micro_prog *mp, const char *dir,
		     char *self, const char *device, const char *placement)
{
	char path[PATH_MAX + 32];
	char *argv[7] = { path, NULL };

	snprintf(path, sizeof(path), "%s/%s", dir, mp->name);
	switch (mp->how) {
	case MICRO_ALONE:
		break;
	case MICRO_DEVICE_JSON:
		argv[1] = (char *)"-D";
		argv[2] = (char *)device;
		argv[3] = (char *)"--json";
		if (placement) {
			argv[4] = (char *)"--placement";
			argv[5] = (char *)placement;
		}
		break;
	case MICRO_UNDER_RUN:
		if (access(path, X_OK)) {
			row(o, mp->name, "", "not built");
			return;
		}
		argv[0] = self;
		argv[1] = (char *)"-D";
		argv[2] = (char *)device;
		argv[3] = (char *)"run";
		argv[4] = path;
		break;
	}
	run_one(o, mp->name, argv, mp->how == MICRO_DEVICE_JSON);
}

int bench_micro(const char *device, bool json, FILE *out, int gemd_pid,
		const enum bench_placement *placement)
{
	char dir[PATH_MAX], self[PATH_MAX];
	struct micro_out o = { .f = out, .json = json };
	enum bench_placement placed = BENCH_ANY;
	const char *why, *pname = NULL;
	bool pinning = placement && *placement != BENCH_ANY;
	size_t i;
	int ret;

	if (placement)
		pname = bench_placement_names[*placement];

	ret = bench_dir(dir, sizeof(dir), self, sizeof(self));
	if (ret)
		return ret;
	o.rows = gj_array();
	if (!json)
		fprintf(out, "%-14s %-*s %s\n", "program", MICRO_FIGURE_WIDTH,
			"figure", "goal");
	for (i = 0; i < ARRAY_SIZE(micro_progs); i++) {
		/* gem-bench pins itself and gemd per placement; the others
		 * inherit this thread's affinity, taken after it. */
		if (pinning && micro_progs[i].how != MICRO_DEVICE_JSON) {
			pinning = false;
			placed = bench_place(gemd_pid, *placement, &why);
			if (placed == BENCH_ANY)
				fprintf(stderr, "gemctl bench: placement %s refused (%s)\n",
					pname, why);
		}
		run_prog(&o, &micro_progs[i], dir, self, device, pname);
	}
	if (placed != BENCH_ANY)
		bench_unplace(gemd_pid);
	if (json) {
		gj *doc = gj_doc("gemctl", GEMCTL_SCHEMA_VERSION);

		gj_str(doc, "verb", "bench");
		gj_str(doc, "suite", "micro");
		gj_str(doc, "device", device);
		gj_set(doc, "micro", o.rows);
		gj_write(out, doc);
		gj_free(doc);
	} else {
		gj_free(o.rows);
	}
	return 0;
}
