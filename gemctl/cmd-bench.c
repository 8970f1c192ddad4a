/*
 * bench [SUITE|WORKLOAD]... [--strategy LIST] [--transport LIST] [--repeat N]
 *       [--duration DUR] [--placement same|cross|any] [--json] [-o FILE]
 * bench --compare A.json B.json
 * bench micro [--json] [-o FILE]
 * bench gl [--repeat N] [--duration DUR] [--json] [-o FILE]
 *
 * Every workload under every strategy that applies (under each transport
 * of --transport, as strategy@transport), each run --repeat times, the
 * repeats interleaved (run 1 of everything, then run 2, ...)
 * so that a disturbance on the shared machine spreads over all rows
 * instead of sinking one.  Floors are measured first, in the same run.
 * See bench.h for the parts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "commands.h"
#include "gemdebugfs.h"
#include "json.h"
#include "session.h"
#include "util.h"

#define BENCH_MAX_STRATEGIES	16
#define BENCH_MAX_REPEAT	64

static const char *const default_strategies[] = {
	"alloc", "reuse", "suballoc", "cpu-map", "gtt-map",
};

/* Suites: names for sets of workloads. */
static const char *const suite_seed[] = { "texdown", "gears", "ipers", NULL };

struct bench_opts {
	struct bench_strategy strat[BENCH_MAX_STRATEGIES];
	unsigned int nstrat;
	unsigned int repeat;
	uint64_t duration_ns;
	enum bench_placement placement;
	bool placement_given;		/* --placement was on the command line */
	bool json, compare;
	const char *output;
	const struct workload *w[32];
	unsigned int nw;
	bool micro;
	bool gl;
	const char *transports;		/* --transport, comma separated */
};

static int add_strategies(struct gemctl *ctl, struct bench_opts *o, const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int ret = 0;

	if (!copy)
		return gemctl_error(ctl, GEMCTL_FAILED, "out of memory");
	o->nstrat = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nstrat == BENCH_MAX_STRATEGIES) {
			ret = gemctl_error(ctl, GEMCTL_USAGE, "too many strategies");
			break;
		}
		if (bench_strategy_parse(tok, &o->strat[o->nstrat])) {
			ret = gemctl_error(ctl, GEMCTL_USAGE, "unknown strategy '%s' "
					   "(alloc, reuse, suballoc, pwrite, cpu-map, "
					   "gtt-map, or ALLOC+UPLOAD)", tok);
			break;
		}
		o->nstrat++;
	}
	free(copy);
	if (!ret && !o->nstrat)
		ret = gemctl_error(ctl, GEMCTL_USAGE, "--strategy needs at least one");
	return ret;
}

/* Each strategy once per transport of the list. */
static int add_transports(struct gemctl *ctl, struct bench_opts *o)
{
	struct bench_strategy base[BENCH_MAX_STRATEGIES];
	unsigned int nbase = o->nstrat, i;
	char *copy, *tok, *save = NULL;
	int ret = 0;

	if (!o->transports)
		return 0;
	memcpy(base, o->strat, sizeof(base));
	copy = strdup(o->transports);
	if (!copy)
		return gemctl_error(ctl, GEMCTL_FAILED, "out of memory");
	o->nstrat = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		const char *t = !strcmp(tok, "socket") ? "socket" :
				!strcmp(tok, "shm") ? "shm" : NULL;

		if (!t) {
			ret = gemctl_error(ctl, GEMCTL_USAGE, "unknown transport "
					   "'%s' (socket, shm)", tok);
			break;
		}
		for (i = 0; i < nbase && !ret; i++) {
			if (o->nstrat == BENCH_MAX_STRATEGIES)
				ret = gemctl_error(ctl, GEMCTL_USAGE,
						   "too many strategies");
			else if (bench_strategy_on(&base[i], t, &o->strat[o->nstrat++]))
				ret = gemctl_error(ctl, GEMCTL_USAGE, "strategy "
						   "name too long: %s", base[i].name);
		}
	}
	free(copy);
	if (!ret && !o->nstrat)
		ret = gemctl_error(ctl, GEMCTL_USAGE, "--transport needs at least one");
	return ret;
}

static int add_workload(struct gemctl *ctl, struct bench_opts *o, const char *name)
{
	const struct workload *w = workload_find(name);
	unsigned int i;

	if (!w) {
		gemctl_error(ctl, GEMCTL_USAGE, "unknown workload or suite '%s'; "
			     "suites: all, seed, micro, gl; workloads:", name);
		for (i = 0; i < nworkloads; i++)
			fprintf(stderr, "  %-17s %s\n", workloads[i]->name,
				workloads[i]->summary);
		return GEMCTL_USAGE;
	}
	for (i = 0; i < o->nw; i++)
		if (o->w[i] == w)
			return 0;
	if (o->nw < ARRAY_SIZE(o->w))
		o->w[o->nw++] = w;
	return 0;
}

static int add_target(struct gemctl *ctl, struct bench_opts *o, const char *name)
{
	unsigned int i;
	int ret;

	if (!strcmp(name, "micro")) {
		o->micro = true;
		return 0;
	}
	if (!strcmp(name, "gl")) {
		o->gl = true;
		return 0;
	}
	if (!strcmp(name, "all")) {
		for (i = 0; i < nworkloads; i++)
			if ((ret = add_workload(ctl, o, workloads[i]->name)))
				return ret;
		return 0;
	}
	if (!strcmp(name, "seed")) {
		for (i = 0; suite_seed[i]; i++)
			if ((ret = add_workload(ctl, o, suite_seed[i])))
				return ret;
		return 0;
	}
	return add_workload(ctl, o, name);
}

static int parse_args(struct gemctl *ctl, int argc, char **argv,
		      struct bench_opts *o, char ***rest, int *nrest)
{
	uint64_t v;
	int opt, ret;
	unsigned int i;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		switch (opt) {
		case 's':
			if ((ret = add_strategies(ctl, o, optarg)))
				return ret;
			break;
		case 'r':
			if ((ret = gemctl_parse_u64(ctl, "repeat count", optarg, &v)))
				return ret;
			if (!v || v > BENCH_MAX_REPEAT)
				return gemctl_error(ctl, GEMCTL_USAGE,
						    "--repeat must be 1 to %d",
						    BENCH_MAX_REPEAT);
			o->repeat = (unsigned int)v;
			break;
		case 'd':
			if (parse_duration_ns(optarg, &o->duration_ns) ||
			    !o->duration_ns)
				return gemctl_error(ctl, GEMCTL_USAGE,
						    "invalid --duration '%s' (e.g. 1s, 200ms)",
						    optarg);
			break;
		case 'p':
			for (i = 0; i < 3; i++)
				if (!strcmp(optarg, bench_placement_names[i]))
					break;
			if (i == 3)
				return gemctl_error(ctl, GEMCTL_USAGE,
						    "--placement is same, cross or any, not '%s'",
						    optarg);
			o->placement = (enum bench_placement)i;
			o->placement_given = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'c':
			o->compare = true;
			break;
		case 't':
			o->transports = optarg;
			break;
		default:
			return gemctl_usage(ctl);
		}
	}
	*rest = argv + optind;
	*nrest = argc - optind;
	return 0;
}

static FILE *open_output(struct gemctl *ctl, const struct bench_opts *o)
{
	FILE *f;

	if (!o->output || !strcmp(o->output, "-"))
		return stdout;
	f = fopen(o->output, "we");
	if (!f)
		gemctl_error(ctl, GEMCTL_FAILED, "cannot write '%s': %s", o->output,
			     strerror(errno));
	return f;
}

static int close_output(struct gemctl *ctl, const struct bench_opts *o, FILE *f)
{
	if (f == stdout)
		return fflush(f) ? GEMCTL_FAILED : GEMCTL_OK;
	if (fclose(f))
		return gemctl_error(ctl, GEMCTL_FAILED, "cannot write '%s': %s",
				    o->output, strerror(errno));
	return GEMCTL_OK;
}

static void progress(bool on, unsigned int done, unsigned int total,
		     const struct bench_result *r, unsigned int rep, unsigned int nrep)
{
	if (!on)
		return;
	if (!r) {
		fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "\r\033[K[%u/%u] %s %s, run %u of %u", done + 1, total,
		r->w->name, r->s.name, rep + 1, nrep);
	fflush(stderr);
}

static int run_results(struct gemctl *ctl, const struct bench_opts *o,
		       struct bench_report *rep, const struct bench_env *env)
{
	bool show = isatty(STDERR_FILENO) && !ctl->quiet;
	unsigned int r, i, k, total = rep->nresults * o->repeat, done = 0;
	const char *failed;
	double v[BENCH_MAX_REPEAT];
	int ret;

	for (r = 0; r < o->repeat; r++) {
		for (i = 0; i < rep->nresults; i++, done++) {
			struct bench_result *res = &rep->results[i];

			progress(show, done, total, res, r, o->repeat);
			ret = bench_measure(env, res->w, &res->s, &res->samples[r],
					    &failed);
			if (ret) {
				progress(show, 0, 0, NULL, 0, 0);
				return gemctl_ioctl_error(ctl, failed ? failed : "setup",
							  -ret, "%s under %s",
							  res->w->name, res->s.name);
			}
			res->n = r + 1;
			if (env->stop && *env->stop) {
				progress(show, 0, 0, NULL, 0, 0);
				return gemctl_error(ctl, GEMCTL_FAILED, "interrupted");
			}
		}
	}
	progress(show, 0, 0, NULL, 0, 0);
	for (i = 0; i < rep->nresults; i++) {
		struct bench_result *res = &rep->results[i];

		res->consistent = true;
		for (r = 0; r < res->n; r++)
			res->consistent &= res->samples[r].consistent;
		for (k = 0; k < BENCH_NMETRICS; k++) {
			unsigned int n = 0;

			/* Over the runs that measured it; none: unknown. */
			for (r = 0; r < res->n; r++)
				if (!(res->samples[r].unknown & (1u << k)))
					v[n++] = res->samples[r].v[k];
			if (!n)
				res->unknown |= 1u << k;
			bench_stat(v, n, &res->st[k]);
		}
	}
	return GEMCTL_OK;
}

static int build_results(struct gemctl *ctl, const struct bench_opts *o,
			 struct bench_report *rep)
{
	unsigned int i, s;

	rep->results = calloc(o->nw * o->nstrat, sizeof(*rep->results));
	if (!rep->results)
		return gemctl_error(ctl, GEMCTL_FAILED, "out of memory");
	for (i = 0; i < o->nw; i++) {
		for (s = 0; s < o->nstrat; s++) {
			struct bench_result *res = &rep->results[rep->nresults];

			if (!bench_strategy_applies(&o->strat[s], o->w[i]))
				continue;
			res->w = o->w[i];
			res->s = o->strat[s];
			res->samples = calloc(o->repeat, sizeof(*res->samples));
			if (!res->samples)
				return gemctl_error(ctl, GEMCTL_FAILED, "out of memory");
			rep->nresults++;
		}
	}
	if (!rep->nresults)
		return gemctl_error(ctl, GEMCTL_USAGE,
				    "no strategy applies to these workloads");
	return GEMCTL_OK;
}

static int bench_suite(struct gemctl *ctl, struct bench_opts *o)
{
	struct bench_report rep = { 0 };
	struct bench_env env = { 0 };
	const char *why;
	struct gdfs *gdfs = NULL;
	FILE *out = NULL;
	int pid, ret, code;
	unsigned int i;

	env.device = gemctl_device(ctl);
	pid = bench_gemd_pid(env.device);
	if (pid < 0)
		return gemctl_unreachable(ctl, -pid);
	ret = gdfs_open_auto(env.device, NULL, &gdfs);
	if (ret) {
		fprintf(stderr, "gemctl bench: no driver counters (debugfs: %s)\n",
			strerror(-ret));
		gdfs = NULL;
	}
	code = build_results(ctl, o, &rep);
	if (code)
		goto out_free;
	env.src = malloc(WORKLOAD_SRC_BYTES);
	if (!env.src) {
		code = gemctl_error(ctl, GEMCTL_FAILED, "out of memory");
		goto out_free;
	}
	memset(env.src, 0x5a, WORKLOAD_SRC_BYTES);
	env.gemd_pid = pid;
	env.gdfs = gdfs;
	env.duration_ns = o->duration_ns;
	env.stop = &gemctl_interrupted;
	bench_machine(&rep.machine);
	rep.device = env.device;
	rep.repeat = o->repeat;
	rep.duration_ns = o->duration_ns;
	rep.placement = bench_place(pid, o->placement, &why);
	if (o->placement != BENCH_ANY && rep.placement == BENCH_ANY)
		fprintf(stderr, "gemctl bench: placement %s refused (%s); "
			"reporting \"any\"\n", bench_placement_names[o->placement], why);
	ret = bench_floors_measure(&rep.floors, gdfs);
	if (ret) {
		code = gemctl_error(ctl, GEMCTL_FAILED, "measuring the floors: %s",
				    strerror(-ret));
		goto out_unplace;
	}
	rep.have_floors = true;
	env.floors = &rep.floors;
	code = run_results(ctl, o, &rep, &env);
	if (code)
		goto out_unplace;
	out = open_output(ctl, o);
	if (!out) {
		code = GEMCTL_FAILED;
		goto out_unplace;
	}
	if (o->json)
		bench_write_json(out, &rep);
	else
		bench_print_table(out, &rep);
	code = close_output(ctl, o, out);
	for (i = 0; i < rep.nresults; i++)
		if (rep.results[i].samples[0].counters && !rep.results[i].consistent)
			fprintf(stderr, "gemctl bench: %s under %s: gemkit's counts "
				"differ from the driver's counters\n",
				rep.results[i].w->name, rep.results[i].s.name);
	gemctl_result(ctl, "%u", rep.nresults);
out_unplace:
	if (rep.placement != BENCH_ANY)
		bench_unplace(pid);
out_free:
	for (i = 0; i < rep.nresults; i++)
		free(rep.results[i].samples);
	free(rep.results);
	free(env.src);
	if (gdfs)
		gdfs_close(gdfs);
	return code;
}

/* bench gl: Mesa's i915 driver on this gemd against llvmpipe. */
static int bench_gl_suite(struct gemctl *ctl, const struct bench_opts *o)
{
	int pid, ret;
	FILE *out;

	if (o->nw || o->micro)
		return gemctl_error(ctl, GEMCTL_USAGE,
				    "gl runs on its own, without workloads");
	pid = bench_gemd_pid(gemctl_device(ctl));
	if (pid < 0)
		return gemctl_unreachable(ctl, -pid);
	out = open_output(ctl, o);
	if (!out)
		return GEMCTL_FAILED;
	ret = bench_gl(gemctl_device(ctl), pid, o->json, out, o->duration_ns, o->repeat);
	if (ret) {
		if (out != stdout)
			fclose(out);
		return gemctl_error(ctl, GEMCTL_FAILED, "bench gl: %s%s", strerror(-ret),
				    ret == -ENOENT ? " (gl-bench is not built)" : "");
	}
	return close_output(ctl, o, out);
}

static const struct tool_opt bench_opts[] = {
	{ "strategy", 0, 's', TOOL_ARG_VALUE, "LIST",
	  "the buffer strategies, comma separated (default: all)" },
	{ "transport", 0, 't', TOOL_ARG_VALUE, "LIST",
	  "run each strategy under these transports (socket, shm)" },
	{ "repeat", 0, 'r', TOOL_ARG_VALUE, "N",
	  "runs of each workload and strategy" },
	{ "duration", 0, 'd', TOOL_ARG_VALUE, "DUR",
	  "length of one run" },
	{ "placement", 0, 'p', TOOL_ARG_VALUE, "same|cross|any",
	  "the CPUs of gemd and the client" },
	{ "json", 0, 'j', TOOL_ARG_NONE, NULL,
	  "write one JSON document" },
	{ "output", 'o', 'o', TOOL_ARG_FILE, "FILE",
	  "write the results to FILE" },
	{ "compare", 0, 'c', TOOL_ARG_NONE, NULL,
	  "compare two --json results A and B" },
	TOOL_OPT_END
};

static int cmd_bench(struct gemctl *ctl, int argc, char **argv)
{
	struct bench_opts o = {
		.repeat = 5,
		.duration_ns = 1000000000ull,
		.placement = BENCH_ANY,
	};
	char **rest = NULL;
	int nrest = 0, i, ret, pid;
	FILE *out;

	for (i = 0; i < (int)ARRAY_SIZE(default_strategies); i++)
		bench_strategy_parse(default_strategies[i], &o.strat[o.nstrat++]);
	if ((ret = parse_args(ctl, argc, argv, &o, &rest, &nrest)))
		return ret;
	o.json |= ctl->json;
	if ((ret = add_transports(ctl, &o)))
		return ret;
	if (o.compare) {
		if (nrest != 2)
			return gemctl_error(ctl, GEMCTL_USAGE,
					    "--compare takes two files, A.json B.json");
		ret = bench_compare(stdout, rest[0], rest[1]);
		return ret < 0 ? GEMCTL_FAILED : GEMCTL_OK;
	}
	for (i = 0; i < nrest; i++)
		if ((ret = add_target(ctl, &o, rest[i])))
			return ret;
	if (o.gl)
		return bench_gl_suite(ctl, &o);
	if (o.micro) {
		if (o.nw)
			return gemctl_error(ctl, GEMCTL_USAGE,
					    "micro runs on its own, without workloads");
		pid = bench_gemd_pid(gemctl_device(ctl));
		if (pid < 0)
			return gemctl_unreachable(ctl, -pid);
		out = open_output(ctl, &o);
		if (!out)
			return GEMCTL_FAILED;
		ret = bench_micro(gemctl_device(ctl), o.json, out, pid,
				  o.placement_given ? &o.placement : NULL);
		if (ret) {
			if (out != stdout)
				fclose(out);
			return gemctl_error(ctl, GEMCTL_FAILED, "%s", strerror(-ret));
		}
		return close_output(ctl, &o, out);
	}
	if (!o.nw)
		add_target(ctl, &o, "all");
	return bench_suite(ctl, &o);
}

const struct gemctl_cmd cmd_bench_entry = {
	.name = "bench",
	.args = "[all|seed|micro|gl|WORKLOAD]... [--strategy LIST] [--transport LIST] [--repeat N] [--duration DUR] [--placement same|cross|any] [--json] [-o FILE] | --compare A.json B.json",
	.summary = "benchmark workloads x buffer strategies against same-run floors",
	.opts = bench_opts,
	.complete = GEMCTL_COMPLETE_WORKLOAD | GEMCTL_COMPLETE_FILE,
	.fn = cmd_bench,
	.no_device = true,
};
