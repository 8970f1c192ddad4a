/*
 * The exposition: every family of metrics.def, from a debugfs snapshot
 * (taken by the debugfs core with SNAP_FILE_TOTALS, under the driver lock,
 * and formatted here without it) plus gemd's process_* values.
 *
 * Per-client series are per process (pid and comm), not per DRM file: a
 * process's files are summed, and only the METRICS_CLIENTS_MAX holding
 * the most bytes get series of their own; the rest are one pid="other"
 * row, so the series stay bounded however many clients come and go, and
 * sums over the label stay right.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs_priv.h"
#include "exposition.h"
#include "metrics_priv.h"
#include "strbuf.h"
#include "util.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

const struct metrics_format metrics_formats[METRICS_FORMAT_COUNT] = {
	[METRICS_PROMETHEUS] = { METRICS_PROMETHEUS, GDFS_FILE_METRICS,
				 "text/plain; version=0.0.4; charset=utf-8", false },
	[METRICS_OPENMETRICS] = { METRICS_OPENMETRICS, GDFS_FILE_OPENMETRICS,
				  "application/openmetrics-text; version=1.0.0; charset=utf-8",
				  true },
};

/*
 * The header lines, as exposition.c's essay says the formats differ: the
 * sample suffix and the type word by type, the # UNIT line by unit.
 */
#define SUFFIX_COUNTER		"_total"
#define SUFFIX_GAUGE		""
#define SUFFIX_INFO		"_info"
#define PROM_TYPE_COUNTER	"counter"
#define PROM_TYPE_GAUGE		"gauge"
#define PROM_TYPE_INFO		"gauge"
#define OM_TYPE_COUNTER		"counter"
#define OM_TYPE_GAUGE		"gauge"
#define OM_TYPE_INFO		"info"
#define UNIT_UNITLESS		""
#define UNIT_bytes		"bytes"
#define UNIT_seconds		"seconds"
#define UNIT_LINE_UNITLESS(name)	""
#define UNIT_LINE_bytes(name)		"# UNIT " #name " bytes\n"
#define UNIT_LINE_seconds(name)		"# UNIT " #name " seconds\n"

#define PROM_HEADER(name, type, unit, help) \
	"# HELP " #name SUFFIX_##type " " help "\n" \
	"# TYPE " #name SUFFIX_##type " " PROM_TYPE_##type "\n"
#define OM_HEADER(name, type, unit, help) \
	"# HELP " #name " " help "\n" \
	"# TYPE " #name " " OM_TYPE_##type "\n" UNIT_LINE_##unit(name)

const struct metrics_family metrics_families[] = {
#define METRIC(name_, type_, unit_, by_, value_, help_, expr)			\
	{ .name = #name_, .unit = UNIT_##unit_, .help = help_,			\
	  .type = METRICS_##type_, .by = METRICS_BY_##by_,			\
	  .value = METRICS_##value_,						\
	  .header = {								\
		[METRICS_PROMETHEUS] = PROM_HEADER(name_, type_, unit_, help_), \
		[METRICS_OPENMETRICS] = OM_HEADER(name_, type_, unit_, help_),	\
	  },									\
	  .header_len = {							\
		[METRICS_PROMETHEUS] =						\
			sizeof(PROM_HEADER(name_, type_, unit_, help_)) - 1,	\
		[METRICS_OPENMETRICS] =						\
			sizeof(OM_HEADER(name_, type_, unit_, help_)) - 1,	\
	  } },
#include "metrics.def"
#undef METRIC
};
const size_t metrics_nfamilies = ARRAY_SIZE(metrics_families);

/* Family k's value i: metrics.def's expressions, in table order. */
static uint64_t family_value(size_t k, const struct metrics_snap *s, size_t i)
{
	size_t n = 0;

	(void)i;
#define METRIC(name_, type_, unit_, by_, value_, help_, expr) \
	if (k == n++)						\
		return (uint64_t)(expr);
#include "metrics.def"
#undef METRIC
	return 0;
}

static size_t label_count(enum metrics_by by, const struct metrics_snap *s)
{
	switch (by) {
	case METRICS_BY_LIST:
		return GEM_LIST_COUNT;
	case METRICS_BY_HANG_KIND:
		return GEM_HANG_KIND_COUNT;
	case METRICS_BY_CLIENT:
		return s->nclients;
	case METRICS_BY_NONE:
	case METRICS_BY_BUILD:
		break;
	}
	return 1;
}

/* Labels of value i; pid is room for the pid's digits. */
static size_t labels_of(enum metrics_by by, const struct metrics_snap *s, size_t i,
			struct expo_label *l, char *pid, size_t pidlen)
{
	const struct metrics_client *c;

	switch (by) {
	case METRICS_BY_LIST:
		l[0] = (struct expo_label){ "list", gdfs_list_names[i] };
		return 1;
	case METRICS_BY_HANG_KIND:
		l[0] = (struct expo_label){ "kind", gem_hang_kind_names[i] };
		return 1;
	case METRICS_BY_CLIENT:
		c = &s->clients[i];
		if (c->other)
			snprintf(pid, pidlen, "other");
		else
			snprintf(pid, pidlen, "%d", (int)c->pid);
		l[0] = (struct expo_label){ "pid", pid };
		l[1] = (struct expo_label){ "comm", c->other ? "other" : c->comm };
		return 2;
	case METRICS_BY_BUILD:
		l[0] = (struct expo_label){ "version", PACKAGE_VERSION };
		return 1;
	case METRICS_BY_NONE:
		break;
	}
	return 0;
}

int metrics_write(struct strbuf *sb, const struct metrics_snap *s,
		  const struct metrics_format *fmt)
{
	struct expo e = { .sb = sb, .format = fmt };
	struct expo_label labels[2];
	char pid[16];
	size_t k, i, n, nl;
	int ret = 0;

	for (k = 0; k < metrics_nfamilies && !ret; k++) {
		const struct metrics_family *f = &metrics_families[k];

		ret = expo_family(&e, f);
		n = label_count(f->by, s);
		for (i = 0; i < n && !ret; i++) {
			nl = labels_of(f->by, s, i, labels, pid, sizeof(pid));
			ret = expo_sample(&e, f, labels, nl, family_value(k, s, i));
		}
	}
	return ret ? ret : expo_end(&e);
}

/* --- per-process rows ----------------------------------------------------- */

static int by_pid(const void *a, const void *b)
{
	const struct snap_file *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strcmp(x->comm, y->comm);
}

static int by_bytes(const void *a, const void *b)
{
	const struct metrics_client *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static void client_add(struct metrics_client *c, const struct snap_file *f)
{
	c->objects += f->handle_count;
	c->bytes += f->handle_bytes;
	c->requests += f->requests;
}

/* s->clients from the snapshot's files: per process, the biggest first. */
static int gather_clients(struct metrics_snap *s)
{
	const struct debugfs_snapshot *d = s->d;
	struct metrics_client *all;
	struct snap_file *files;
	size_t n = 0, i;

	s->nclients = 0;
	if (!d->nfiles)
		return 0;
	files = malloc(d->nfiles * sizeof(*files));
	all = calloc(d->nfiles, sizeof(*all));
	if (!files || !all) {
		free(files);
		free(all);
		return -ENOMEM;
	}
	memcpy(files, d->files, d->nfiles * sizeof(*files));
	qsort(files, d->nfiles, sizeof(*files), by_pid);
	for (i = 0; i < d->nfiles; i++) {
		if (!n || by_pid(&files[i], &files[i - 1])) {
			all[n].pid = files[i].pid;
			memcpy(all[n].comm, files[i].comm, sizeof(all[n].comm));
			n++;
		}
		client_add(&all[n - 1], &files[i]);
	}
	qsort(all, n, sizeof(*all), by_bytes);
	s->nclients = MIN(n, (size_t)METRICS_CLIENTS_MAX);
	memcpy(s->clients, all, s->nclients * sizeof(*all));
	if (n > METRICS_CLIENTS_MAX) {
		struct metrics_client *other = &s->clients[s->nclients++];

		memset(other, 0, sizeof(*other));
		other->other = true;
		for (i = METRICS_CLIENTS_MAX; i < n; i++) {
			other->objects += all[i].objects;
			other->bytes += all[i].bytes;
			other->requests += all[i].requests;
		}
	}
	free(files);
	free(all);
	return 0;
}

/* data: the struct metrics_format to write. */
DEBUGFS_SNAP_SHOW(debugfs_show_metrics)
{
	struct metrics_snap s = { .d = snap };
	int ret;

	ret = gather_clients(&s);
	if (ret)
		return ret;
	metrics_read_process(&s.proc);
	return metrics_write(sb, &s, data);
}
