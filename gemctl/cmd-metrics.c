/*
 * metrics [--openmetrics]: print gemd's metrics once, in the Prometheus
 * 0.0.4 text format (gemkit_metrics) or in OpenMetrics (gemkit_openmetrics),
 * the bytes gemd --metrics serves over HTTP: for cron, the node_exporter
 * textfile collector or a rig's log, without the HTTP server.  The text
 * is printed as gemd wrote it, even with -q (it is the verb's output);
 * with --json, as the document's "exposition".
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "gemdebugfs.h"
#include "json.h"
#include "session.h"

enum { OPT_OPENMETRICS = 'o' };

static const struct tool_opt metrics_opts[] = {
	{ "openmetrics", 0, OPT_OPENMETRICS, TOOL_ARG_NONE, NULL,
	  "the OpenMetrics text format instead of Prometheus 0.0.4" },
	TOOL_OPT_END
};

static int cmd_metrics(struct gemctl *ctl, int argc, char **argv)
{
	const char *file = GDFS_FILE_METRICS;
	bool openmetrics = false;
	struct strbuf buf = STRBUF_INIT;
	struct gdfs *src;
	int opt, ret;
	gj *doc;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		if (opt != OPT_OPENMETRICS)
			return gemctl_usage(ctl);
		openmetrics = true;
	}
	if (optind != argc)
		return gemctl_usage(ctl);
	if ((ret = gemctl_debugfs(ctl, &src)))
		return ret;
	if (openmetrics)
		file = GDFS_FILE_OPENMETRICS;
	ret = gdfs_read(src, file, &buf);
	if (ret < 0) {
		ret = gemctl_error(ctl, GEMCTL_FAILED, "cannot read %s/%s: %s",
				   gdfs_describe(src), file, gdfs_strerror(ret));
		strbuf_release(&buf);
		return ret;
	}
	doc = gemctl_json_begin(ctl);
	if (doc) {
		gj_str(doc, "format", openmetrics ? "openmetrics" : "prometheus");
		gj_str(doc, "exposition", buf.buf);
		gemctl_json_end(ctl, doc);
	} else {
		fwrite(buf.buf, 1, buf.len, stdout);
		fflush(stdout);
	}
	strbuf_release(&buf);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_metrics_entry = {
	.name = "metrics",
	.args = "[--openmetrics]",
	.summary = "print gemd's metrics for Prometheus once",
	.opts = metrics_opts,
	.fn = cmd_metrics,
	.no_device = true,
};
