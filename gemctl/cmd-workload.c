/*
 * workload NAME [--duration DUR] [--clients N]: run a synthetic workload
 * (workload.h) and report ops and bytes, per second too.  Ctrl-C stops it
 * early (the report covers what ran).  The value is the op count.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "session.h"
#include "workload.h"

static const struct tool_opt workload_opts[] = {
	{ "duration", 0, 'd', TOOL_ARG_VALUE, "DUR",
	  "run for DUR (default 2s)" },
	{ "clients", 0, 'c', TOOL_ARG_VALUE, "N",
	  "run N clients at once, 1 to 64 (default 1)" },
	TOOL_OPT_END
};

static int cmd_workload(struct gemctl *ctl, int argc, char **argv)
{
	struct workload_params p = {
		.duration_ns = 2000000000ull,
		.clients = 1,
		/* A GL driver's shape: libdrm's cache, pwrite uploads. */
		.strategy = { BM_REUSE, BM_PWRITE },
		.stop = &gemctl_interrupted,
	};
	struct workload_result r;
	const struct workload *w;
	double secs;
	int opt, ret;
	unsigned int i;
	gj *doc;

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
	ret = workload_run(w, &p, &r);
	if (ret && r.failed_op && !strcmp(r.failed_op, "gem_open"))
		return gemctl_unreachable(ctl, -ret);
	if (ret)
		return gemctl_ioctl_error(ctl, r.failed_op ? r.failed_op : "workload",
					  -ret, "in workload %s", w->name);
	secs = r.elapsed_ns ? (double)r.elapsed_ns / 1e9 : 1e-9;
	gemctl_result(ctl, "%llu", (unsigned long long)r.ops);
	gemctl_say(ctl, "%s: %u client(s), %.2f s: %llu ops (%.1f/s), %llu bytes (%.1f MiB/s)\n",
		   w->name, p.clients, secs, (unsigned long long)r.ops, r.ops / secs,
		   (unsigned long long)r.bytes, r.bytes / secs / 1048576.0);
	doc = gemctl_json_begin(ctl);
	gj_str(doc, "workload", w->name);
	gj_uint(doc, "clients", p.clients);
	gj_uint(doc, "elapsed_ns", r.elapsed_ns);
	gj_uint(doc, "ops", r.ops);
	gj_uint(doc, "bytes", r.bytes);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_workload_entry = {
	.name = "workload",
	.args = "gears|texdown|ipers|thrash [--duration DUR] [--clients N]",
	.summary = "run a synthetic workload and report ops and bytes",
	.opts = workload_opts,
	.complete = GEMCTL_COMPLETE_WORKLOAD,
	.fn = cmd_workload,
	.no_device = true,
};
