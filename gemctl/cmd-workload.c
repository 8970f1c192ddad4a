/*
 * workload NAME [--duration DUR] [--clients N] [--interval DUR]: run a
 * synthetic workload (workload.h) and report ops and bytes, per second
 * too.  While it runs, progress goes to stderr every interval: one line
 * rewritten in place on a terminal, one line per interval otherwise (a
 * rig waits for the first to know it runs).  SIGINT (Ctrl-C) stops it
 * early, in the shell or not: the report covers what ran, says
 * "interrupted", and the status is 130.  The value is the op count.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "json.h"
#include "session.h"
#include "workload.h"

static const struct tool_opt workload_opts[] = {
	{ "duration", 0, 'd', TOOL_ARG_VALUE, "DUR",
	  "run for DUR (default 2s)" },
	{ "clients", 0, 'c', TOOL_ARG_VALUE, "N",
	  "run N clients at once, 1 to 64 (default 1)" },
	{ "interval", 0, 'i', TOOL_ARG_VALUE, "DUR",
	  "progress on stderr every DUR (default 1s; 0: none)" },
	TOOL_OPT_END
};

struct progress {
	const struct workload *w;
	unsigned int clients;
	bool tty;			/* stderr is a terminal: rewrite one line */
	bool shown;			/* a line is on the terminal to clear */
};

/* "gears: 1 client(s), 1.00 s: 512 ops (512.0/s), 0 bytes (0.0 MiB/s)":
 * the progress and the report alike. */
static void describe(struct strbuf *sb, const struct progress *pr,
		     const struct workload_result *r)
{
	double secs = r->elapsed_ns ? (double)r->elapsed_ns / 1e9 : 1e-9;

	strbuf_addf(sb, "%s: %u client(s), %.2f s: %llu ops (%.1f/s), %llu bytes (%.1f MiB/s)",
		    pr->w->name, pr->clients, secs, (unsigned long long)r->ops,
		    r->ops / secs, (unsigned long long)r->bytes, r->bytes / secs / 1048576.0);
}

static void on_progress(void *arg, const struct workload_result *sofar)
{
	struct progress *pr = arg;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, pr->tty ? "\r\033[K" : "");
	strbuf_addstr(&sb, "running ");
	describe(&sb, pr, sofar);
	strbuf_addstr(&sb, pr->tty ? "" : "\n");
	if (sb.buf)
		fputs(sb.buf, stderr);
	fflush(stderr);
	pr->shown = pr->tty;
	strbuf_release(&sb);
}

static int cmd_workload(struct gemctl *ctl, int argc, char **argv)
{
	struct workload_params p = {
		.duration_ns = 2000000000ull,
		.clients = 1,
		/* A GL driver's shape: libdrm's cache, pwrite uploads. */
		.strategy = { BM_REUSE, BM_PWRITE },
		.stop = &gemctl_interrupted,
	};
	struct progress pr = { .tty = isatty(STDERR_FILENO) };
	struct strbuf line = STRBUF_INIT;
	struct workload_result r;
	const struct workload *w;
	struct sigaction old;
	int opt, ret;
	unsigned int i;
	gj *doc;

	p.interval_ns = 1000000000ull;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		switch (opt) {
		case 'd':
			if ((ret = gemctl_parse_timeout(ctl, optarg, &p.duration_ns)))
				return ret;
			break;
		case 'c':
			if ((ret = gemctl_parse_u32(ctl, "client count", optarg, &p.clients)))
				return ret;
			if (!p.clients || p.clients > 64)
				return gemctl_error(ctl, GEMCTL_USAGE,
						    "clients must be 1 to 64");
			break;
		case 'i':
			if ((ret = gemctl_parse_timeout(ctl, optarg, &p.interval_ns)))
				return ret;
			break;
		default:
			return gemctl_usage(ctl);
		}
	}
	if (argc - optind != 1)
		return gemctl_usage(ctl);
	w = workload_find(argv[optind]);
	if (!w || !w->verb) {
		gemctl_error(ctl, GEMCTL_USAGE, "unknown workload '%s'; there are:",
			     argv[optind]);
		for (i = 0; i < nworkloads; i++)
			if (workloads[i]->verb)
				fprintf(stderr, "  %-8s %s\n", workloads[i]->name,
					workloads[i]->summary);
		return GEMCTL_USAGE;
	}
	p.device = ctl->device_arg;
	pr.w = w;
	pr.clients = p.clients;
	/* Progress is for people and rigs watching; -q and --json print
	 * only the result. */
	if (!ctl->quiet && !ctl->json && !ctl->capture) {
		p.progress = on_progress;
		p.progress_arg = &pr;
	}
	/* Outside the shell SIGINT would kill us with nothing said. */
	if (!ctl->interactive)
		gemctl_catch_sigint(&old);
	ret = workload_run(w, &p, &r);
	if (!ctl->interactive)
		sigaction(SIGINT, &old, NULL);
	if (pr.shown)
		fputs("\r\033[K", stderr);
	if (ret && r.failed_op && !strcmp(r.failed_op, "gem_open"))
		return gemctl_unreachable(ctl, -ret);
	if (ret)
		return gemctl_ioctl_error(ctl, r.failed_op ? r.failed_op : "workload",
					  -ret, "in workload %s", w->name);
	gemctl_result(ctl, "%llu", (unsigned long long)r.ops);
	describe(&line, &pr, &r);
	gemctl_say(ctl, "%s%s\n", line.buf ? line.buf : "", r.stopped ? "; interrupted" : "");
	strbuf_release(&line);
	doc = gemctl_json_begin(ctl);
	gj_str(doc, "workload", w->name);
	gj_uint(doc, "clients", p.clients);
	gj_uint(doc, "elapsed_ns", r.elapsed_ns);
	gj_uint(doc, "ops", r.ops);
	gj_uint(doc, "bytes", r.bytes);
	gj_bool(doc, "interrupted", r.stopped);
	gemctl_json_end(ctl, doc);
	return r.stopped ? GEMCTL_INTERRUPTED : GEMCTL_OK;
}

const struct gemctl_cmd cmd_workload_entry = {
	.name = "workload",
	.args = "gears|texdown|ipers|thrash [--duration DUR] [--clients N] [--interval DUR]",
	.summary = "run a synthetic workload and report ops and bytes",
	.opts = workload_opts,
	.complete = GEMCTL_COMPLETE_WORKLOAD,
	.fn = cmd_workload,
	.no_device = true,
};
