/*
 * The OpenMetrics and Prometheus 0.0.4 text formats, written from the
 * family table.  Where they differ (OpenMetrics' "Text format" section
 * against Prometheus' exposition_formats.md):
 *
 *   counter  OpenMetrics names the family without _total (# TYPE x
 *            counter, sample x_total); 0.0.4 names both x_total.
 *   info     OpenMetrics has the type (# TYPE x info, sample x_info);
 *            0.0.4 has not: a gauge x_info.
 *   unit     OpenMetrics only: # UNIT x bytes.
 *   end      OpenMetrics only: # EOF.
 *
 * Label values and help text are escaped as both require (\\, \n, and \"
 * in label values); bytes outside printable ASCII become '?', since both
 * formats are UTF-8 and a process name is any bytes.
 */
#include <errno.h>
#include <string.h>

#include "exposition.h"
#include "strbuf.h"

static const char *const type_names[2][3] = {
	[false] = { [METRICS_COUNTER] = "counter", [METRICS_GAUGE] = "gauge",
		    [METRICS_INFO] = "gauge" },
	[true] = { [METRICS_COUNTER] = "counter", [METRICS_GAUGE] = "gauge",
		   [METRICS_INFO] = "info" },
};

static const char *sample_suffix(const struct metrics_family *f)
{
	return f->type == METRICS_COUNTER ? "_total" :
	       f->type == METRICS_INFO ? "_info" : "";
}

static int add_escaped(struct strbuf *sb, const char *s, bool quote)
{
	int ret = 0;

	for (; *s && !ret; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\')
			ret = strbuf_addstr(sb, "\\\\");
		else if (c == '\n')
			ret = strbuf_addstr(sb, "\\n");
		else if (c == '"' && quote)
			ret = strbuf_addstr(sb, "\\\"");
		else
			ret = strbuf_addch(sb, c < 0x20 || c > 0x7e ? '?' : c);
	}
	return ret;
}

int expo_family(struct expo *e, const struct metrics_family *f)
{
	const char *suffix = e->openmetrics ? "" : sample_suffix(f);
	size_t oldlen = e->sb->len;
	int ret;

	ret = strbuf_addf(e->sb, "# HELP %s%s ", f->name, suffix);
	if (!ret)
		ret = add_escaped(e->sb, f->help, e->openmetrics);
	if (!ret)
		ret = strbuf_addf(e->sb, "\n# TYPE %s%s %s\n", f->name, suffix,
				  type_names[e->openmetrics][f->type]);
	if (!ret && e->openmetrics && f->unit[0])
		ret = strbuf_addf(e->sb, "# UNIT %s %s\n", f->name, f->unit);
	if (ret)
		strbuf_setlen(e->sb, oldlen);
	return ret;
}

/* Nanoseconds as seconds, exactly: "12.000340000". */
static int add_value(struct strbuf *sb, const struct metrics_family *f, uint64_t v)
{
	if (f->value == METRICS_NS)
		return strbuf_addf(sb, " %llu.%09llu\n",
				   (unsigned long long)(v / 1000000000u),
				   (unsigned long long)(v % 1000000000u));
	return strbuf_addf(sb, " %llu\n", (unsigned long long)v);
}

int expo_sample(struct expo *e, const struct metrics_family *f,
		const struct expo_label *labels, size_t nlabels, uint64_t v)
{
	size_t oldlen = e->sb->len, i;
	int ret;

	ret = strbuf_addf(e->sb, "%s%s", f->name, sample_suffix(f));
	for (i = 0; i < nlabels && !ret; i++) {
		ret = strbuf_addf(e->sb, "%c%s=\"", i ? ',' : '{', labels[i].name);
		if (!ret)
			ret = add_escaped(e->sb, labels[i].value, true);
		if (!ret)
			ret = strbuf_addstr(e->sb, i + 1 == nlabels ? "\"}" : "\"");
	}
	if (!ret)
		ret = add_value(e->sb, f, v);
	if (ret)
		strbuf_setlen(e->sb, oldlen);
	return ret;
}

int expo_end(struct expo *e)
{
	return e->openmetrics ? strbuf_addstr(e->sb, "# EOF\n") : 0;
}
