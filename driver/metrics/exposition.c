/*
 * The OpenMetrics and Prometheus 0.0.4 text formats.  Where they differ
 * (OpenMetrics' "Text format" section against Prometheus'
 * exposition_formats.md):
 *
 *   counter  OpenMetrics names the family without _total (# TYPE x
 *            counter, sample x_total); 0.0.4 names both x_total.
 *   info     OpenMetrics has the type (# TYPE x info, sample x_info);
 *            0.0.4 has not: a gauge x_info.
 *   unit     OpenMetrics only: # UNIT x bytes.
 *   end      OpenMetrics only: # EOF.
 *
 * The header lines of each family are string literals (metrics.c makes
 * them from metrics.def at compile time), so a scrape writes only the
 * samples, each into room reserved for its longest form.  Label values
 * are escaped as both formats require (\\, \" and \n); bytes outside
 * printable ASCII become '?', since both formats are UTF-8 and a process
 * name is any bytes.
 */
#include <errno.h>
#include <string.h>

#include "debugfs_priv.h"	/* the fast formatters: fmt_str, fmt_u64 */
#include "exposition.h"
#include "strbuf.h"

static const char *sample_suffix(const struct metrics_family *f)
{
	return f->type == METRICS_COUNTER ? "_total" :
	       f->type == METRICS_INFO ? "_info" : "";
}

int expo_family(struct expo *e, const struct metrics_family *f)
{
	return strbuf_add(e->sb, f->header[e->format->id], f->header_len[e->format->id]);
}

/* At most 2 bytes out per byte in. */
static char *put_escaped(char *p, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\' || c == '"') {
			*p++ = '\\';
			*p++ = (char)c;
		} else if (c == '\n') {
			*p++ = '\\';
			*p++ = 'n';
		} else {
			*p++ = c < 0x20 || c > 0x7e ? '?' : (char)c;
		}
	}
	return p;
}

/* Nanoseconds as seconds, exactly: "12.000340000". */
static char *put_seconds(char *p, uint64_t ns)
{
	uint64_t frac = ns % 1000000000u;
	int i;

	p = fmt_u64(p, ns / 1000000000u);
	*p++ = '.';
	for (i = 8; i >= 0; i--) {
		p[i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	return p + 9;
}

int expo_sample(struct expo *e, const struct metrics_family *f,
		const struct expo_label *labels, size_t nlabels, uint64_t v)
{
	/* name, suffix, '{', '}', ' ', the value (20 + '.' + 9), '\n' */
	size_t room = strlen(f->name) + 6 + 3 + 31 + 1, i;
	char *p;

	for (i = 0; i < nlabels; i++)
		room += strlen(labels[i].name) + 2 * strlen(labels[i].value) + 4;
	p = sb_reserve(e->sb, room);
	if (!p)
		return -ENOMEM;
	p = fmt_str(p, f->name);
	p = fmt_str(p, sample_suffix(f));
	for (i = 0; i < nlabels; i++) {
		*p++ = i ? ',' : '{';
		p = fmt_str(p, labels[i].name);
		*p++ = '=';
		*p++ = '"';
		p = put_escaped(p, labels[i].value);
		*p++ = '"';
	}
	if (nlabels)
		*p++ = '}';
	*p++ = ' ';
	p = f->value == METRICS_NS ? put_seconds(p, v) : fmt_u64(p, v);
	*p++ = '\n';
	sb_commit(e->sb, p);
	return 0;
}

int expo_end(struct expo *e)
{
	return e->format->openmetrics ? strbuf_addstr(e->sb, "# EOF\n") : 0;
}
