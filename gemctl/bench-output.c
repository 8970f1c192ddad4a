/*
 * The benchmark's output: an aligned table for people, one JSON document
 * for machines (the tools' JSON writer, as the rest of gemctl's --json), and
 * --compare,
 * which reads two such documents back.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "json.h"
#include "util.h"

/* The columns of the table, in order; each shows the median. */
static const enum bench_metric table_cols[] = {
	BM_OPS_PER_S, BM_MB_PER_S, BM_WALL_US, BM_CLIENT_CPU_US, BM_GEMD_CPU_US,
	BM_GEMD_MM_US, BM_GEMD_SUBMIT_US, BM_GEMD_GPU_US, BM_GEMD_WAIT_OTHER_US,
	BM_GEMD_REST_US, BM_GPU_BUSY_PCT, BM_IOCTLS, BM_GEMD_PER_REQ, BM_BINDS,
	BM_EVICTIONS, BM_CLFLUSH_BYTES, BM_WAITS, BM_X_FLOOR,
};
/* Those that also show their spread. */
static bool with_spread(enum bench_metric m)
{
	return m == BM_OPS_PER_S || m == BM_CLIENT_CPU_US || m == BM_GEMD_CPU_US ||
	       m == BM_GEMD_MM_US || m == BM_GEMD_SUBMIT_US || m == BM_GEMD_GPU_US ||
	       m == BM_GPU_BUSY_PCT;
}

/* Is metric m of res a figure (a run measured it)? */
static bool known(const struct bench_result *res, enum bench_metric m)
{
	return !(res->unknown & (1u << m)) && !(m == BM_MB_PER_S && !res->w->bytes);
}

/* Why the figures shown as "-" are missing, each reason once. */
static void print_reasons(FILE *f, const struct bench_report *r)
{
	const char *said[8];
	unsigned int nsaid = 0, i, j, k;

	for (i = 0; i < r->nresults; i++) {
		for (j = 0; j < r->results[i].n; j++) {
			const struct bench_sample *s = &r->results[i].samples[j];
			const char *why[2] = { s->why_gemd, s->why_client };

			for (k = 0; k < 2; k++) {
				unsigned int n;

				if (!why[k])
					continue;
				for (n = 0; n < nsaid && strcmp(said[n], why[k]); n++)
					;
				if (n < nsaid || nsaid == ARRAY_SIZE(said))
					continue;
				said[nsaid++] = why[k];
				fprintf(f, "-: not measured: %s.\n", why[k]);
			}
		}
	}
}

/* The table's number formats: by the size of the value, so that a
 * column lines up whatever the workload. */
static void cell(char *buf, size_t len, double v)
{
	if (v == 0)
		snprintf(buf, len, "0");
	else if (v >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (v >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

/* What alloc / suballoc is taken of: the seed's question (who spends the
 * CPU) per op, each figure a metric. */
static const enum bench_metric ratio_cols[] = {
	BM_WALL_US, BM_TOTAL_CPU_US, BM_CLIENT_CPU_US, BM_GEMD_CPU_US,
	BM_GEMD_MM_US, BM_GEMD_SUBMIT_US, BM_GEMD_GPU_US,
};

/* The row of workload w under allocation strategy a over transport t
 * (NULL: as the process has it), no upload path named; or NULL. */
static const struct bench_result *row_of(const struct bench_report *r,
					 const struct workload *w, enum bm_strategy a,
					 const char *t)
{
	const struct bench_result *res;
	unsigned int i;

	for (i = 0; i < r->nresults; i++) {
		res = &r->results[i];
		if (res->w == w && res->s.alloc == a && !res->s.upload_named &&
		    (res->s.transport == t ||
		     (res->s.transport && t && !strcmp(res->s.transport, t))))
			return res;
	}
	return NULL;
}

/* The suballoc row res's alloc row is compared with, or NULL when res is
 * no alloc row (upload path named) or has no such partner. */
static const struct bench_result *suballoc_of(const struct bench_report *r,
					      const struct bench_result *res)
{
	if (res != row_of(r, res->w, BM_ALLOC, res->s.transport))
		return NULL;
	return row_of(r, res->w, BM_SUBALLOC, res->s.transport);
}

/* "gears", or "gears@shm" under --transport. */
static void ratio_name(char *buf, size_t len, const struct bench_result *res)
{
	snprintf(buf, len, "%s%s%s", res->w->name, res->s.transport ? "@" : "",
		 res->s.transport ? res->s.transport : "");
}

/* num / den of metric m, run by run (the runs are interleaved, so run k
 * of each saw the same machine); false if a run lacks it. */
static bool run_ratio(const struct bench_result *num, const struct bench_result *den,
		      enum bench_metric m, struct bench_stat *out)
{
	double v[64];
	unsigned int k, n = MIN(MIN(num->n, den->n), 64u);

	for (k = 0; k < n; k++) {
		const struct bench_sample *a = &num->samples[k], *b = &den->samples[k];

		if ((a->unknown | b->unknown) & (1u << m) || b->v[m] <= 0)
			return false;
		v[k] = a->v[m] / b->v[m];
	}
	bench_stat(v, n, out);
	return n > 0;
}

/* "alloc / suballoc" per workload that ran both: each figure's ratio. */
static void print_ratios(FILE *f, const struct bench_report *r)
{
	unsigned int i, c;
	bool head = false;

	for (i = 0; i < r->nresults; i++) {
		const struct bench_result *a = &r->results[i], *s = suballoc_of(r, a);
		char name[48];

		if (!s)
			continue;
		if (!head) {
			fprintf(f, "\nalloc / suballoc, run by run: the median ratio "
				"(min-max):\n%-17s", "workload");
			for (c = 0; c < ARRAY_SIZE(ratio_cols); c++)
				fprintf(f, " %20s", bench_metrics[ratio_cols[c]].head);
			fputc('\n', f);
			head = true;
		}
		ratio_name(name, sizeof(name), a);
		fprintf(f, "%-17s", name);
		for (c = 0; c < ARRAY_SIZE(ratio_cols); c++) {
			struct bench_stat st;
			char buf[40] = "-";

			if (run_ratio(a, s, ratio_cols[c], &st))
				snprintf(buf, sizeof(buf), "%.2fx (%.2f-%.2f)", st.median,
					 st.min, st.max);
			fprintf(f, " %20s", buf);
		}
		fputc('\n', f);
	}
}

void bench_print_table(FILE *f, const struct bench_report *r)
{
	char buf[32];
	unsigned int i, c, s;
	int sw = 14;		/* the strategy column: strategy@transport is wider */

	for (i = 0; i < r->nresults; i++)
		sw = MAX(sw, (int)strlen(r->results[i].s.name));
	fprintf(f, "gemctl bench: %s, %u cores, %s; placement %s; "
		"%u run%s of %.2f s each\n", r->machine.cpu_model, r->machine.cores,
		r->machine.kernel, bench_placement_names[r->placement], r->repeat,
		r->repeat == 1 ? "" : "s", (double)r->duration_ns / 1e9);
	if (r->have_floors) {
		fprintf(f, "floors: socket round trip %.0f ns; memcpy", r->floors.rtt_ns);
		for (s = 0; s < BENCH_NSIZES; s++)
			fprintf(f, " %llu KiB %.2f GB/s%s",
				(unsigned long long)bench_floor_sizes[s] >> 10,
				(double)bench_floor_sizes[s] / r->floors.memcpy_ns[s],
				s + 1 < BENCH_NSIZES ? "," : ";");
		fprintf(f, " pwrite(2)");
		for (s = 0; s < BENCH_NSIZES; s++)
			fprintf(f, " %.2f", (double)bench_floor_sizes[s] / r->floors.pwrite_ns[s]);
		fprintf(f, " GB/s\n");
		if (r->floors.dfs_cycle_ns > 0)
			fprintf(f, "debugfs cycle (gemkit_counters, %zu bytes): %.1f us, "
				"%.1fx its snprintf/strtoul floor of %.2f us\n",
				r->floors.dfs_bytes, r->floors.dfs_cycle_ns / 1e3,
				r->floors.dfs_cycle_ns / r->floors.dfs_floor_ns,
				r->floors.dfs_floor_ns / 1e3);
	}
	fputc('\n', f);
	fprintf(f, "%-17s %-*s", "workload", sw, "strategy");
	for (c = 0; c < ARRAY_SIZE(table_cols); c++) {
		fprintf(f, " %10s", bench_metrics[table_cols[c]].head);
		if (with_spread(table_cols[c]))
			fprintf(f, " %5s", "+-%");
	}
	fprintf(f, "  counts\n");
	for (i = 0; i < r->nresults; i++) {
		const struct bench_result *res = &r->results[i];

		fprintf(f, "%-17s %-*s", res->w->name, sw, res->s.name);
		for (c = 0; c < ARRAY_SIZE(table_cols); c++) {
			enum bench_metric m = table_cols[c];

			if (!known(res, m))
				snprintf(buf, sizeof(buf), "-");
			else
				cell(buf, sizeof(buf), res->st[m].median);
			fprintf(f, " %10s", buf);
			if (with_spread(m) && known(res, m))
				fprintf(f, " %5.1f", res->st[m].spread_pct);
			else if (with_spread(m))
				fprintf(f, " %5s", "-");
		}
		fprintf(f, "  %s\n", !res->samples[0].counters ? "n/a" :
			res->consistent ? "ok" : "DIFFER");
	}
	fprintf(f, "\nMedians of the runs; +-%% is the spread (max - min) / median.  "
		"us are microseconds per op\n(texdown: an upload; "
		"texdown-subimage: an update; gears, ipers: a frame; the rest: an "
		"execbuffer).\nx floor: wall time over the floor of the same run "
		"(one socket round trip per request, one copy per uploaded byte).\n"
		"gemd us: gemd's process CPU; as gemd measured it for this client "
		"(its fdinfo): mm us (the memory\nmanager: create, close, madvise, "
		"set_domain, pwrite ..., execbuffer's binding and eviction,\n"
		"retiring), submit us (the rest of execbuffer), gpu us (the GPU "
		"model running its batches),\nw+o us (waits and other ioctls); "
		"rest us: gemd's CPU no client was charged for (idle threads,\n"
		"the GPU model's spins).  gemd us = mm + submit + gpu + w+o + rest.  "
		"us/req: gemd's CPU for the\nclient per request it served.  "
		"busy %%: GPU busy time of the client's batches over the wall time.\n"
		"counts: gemkit's execbuffers, relocations and pwrite bytes "
		"equal the driver's counters.\n");
	print_reasons(f, r);
	print_ratios(f, r);
}

static gj *stat_json(const struct bench_stat *s)
{
	gj *o = gj_object();

	gj_double(o, "min", s->min);
	gj_double(o, "median", s->median);
	gj_double(o, "max", s->max);
	gj_double(o, "spread_pct", s->spread_pct);
	return o;
}

static gj *run_json(const struct bench_sample *s)
{
	gj *o = gj_object();

	gj_uint(o, "ops", s->ops);
	gj_uint(o, "bytes", s->bytes);
	gj_uint(o, "elapsed_ns", s->elapsed_ns);
	gj_uint(o, "client_user_ns", s->client_user_ns);
	gj_uint(o, "client_sys_ns", s->client_sys_ns);
	if (!s->why_gemd)
		gj_uint(o, "gemd_cpu_ns", s->gemd_cpu_ns);
	if (!s->why_client) {
		gj_uint(o, "gemd_client_cpu_ns", s->gc.cpu_ns);
		gj_uint(o, "gemd_mm_cpu_ns", s->gc.mm_ns);
		gj_uint(o, "gemd_submit_cpu_ns", s->gc.submit_ns);
		gj_uint(o, "gemd_gpu_cpu_ns", s->gc.gpu_ns);
		gj_uint(o, "gemd_wait_cpu_ns", s->gc.wait_ns);
		gj_uint(o, "gemd_other_cpu_ns", s->gc.other_ns);
		gj_uint(o, "gemd_retire_cpu_ns", s->gc.retire_ns);
		gj_uint(o, "gpu_busy_ns", s->gc.gpu_busy_ns);
		gj_uint(o, "gemd_ioctls", s->gc.ioctls);
	}
	gj_bool(o, "counters_read", s->counters);
	gj_uint(o, "execbuffers_counted", s->exec_counted);
	gj_uint(o, "execbuffers_driver", s->exec_driver);
	gj_uint(o, "relocations_counted", s->reloc_counted);
	gj_uint(o, "relocations_driver", s->reloc_driver);
	gj_uint(o, "pwrite_bytes_counted", s->pwrite_counted);
	gj_uint(o, "pwrite_bytes_driver", s->pwrite_driver);
	gj_uint(o, "waits_driver", s->waits_driver);
	gj_bool(o, "consistent", s->consistent);
	return o;
}

static gj *floors_json(const struct bench_floors *fl)
{
	gj *o = gj_object(), *sizes = gj_array();
	unsigned int s;

	gj_double(o, "socket_rtt_ns", fl->rtt_ns);
	for (s = 0; s < BENCH_NSIZES; s++) {
		gj *e = gj_object();

		gj_uint(e, "size_bytes", bench_floor_sizes[s]);
		gj_double(e, "memcpy_ns", fl->memcpy_ns[s]);
		gj_double(e, "pwrite_ns", fl->pwrite_ns[s]);
		gj_push(sizes, e);
	}
	gj_set(o, "copies", sizes);
	gj_double(o, "debugfs_cycle_ns", fl->dfs_cycle_ns);
	gj_double(o, "debugfs_floor_ns", fl->dfs_floor_ns);
	gj_uint(o, "debugfs_bytes", fl->dfs_bytes);
	return o;
}

/* print_ratios' figures: per workload, each metric's run-by-run ratio. */
static gj *ratios_json(const struct bench_report *r)
{
	gj *arr = gj_array();
	unsigned int i, c;

	for (i = 0; i < r->nresults; i++) {
		const struct bench_result *a = &r->results[i], *s = suballoc_of(r, a);
		gj *o, *met;

		if (!s)
			continue;
		o = gj_object();
		met = gj_object();
		gj_str(o, "workload", a->w->name);
		if (a->s.transport)
			gj_str(o, "transport", a->s.transport);
		for (c = 0; c < ARRAY_SIZE(ratio_cols); c++) {
			struct bench_stat st;

			if (run_ratio(a, s, ratio_cols[c], &st))
				gj_set(met, bench_metrics[ratio_cols[c]].key, stat_json(&st));
		}
		gj_set(o, "metrics", met);
		gj_push(arr, o);
	}
	return arr;
}

int bench_write_json(FILE *f, const struct bench_report *r)
{
	gj *doc = gj_doc("gemctl", GEMCTL_SCHEMA_VERSION), *m, *arr, *res, *met, *runs;
	unsigned int i, k, j;
	int ret;

	gj_str(doc, "verb", "bench");
	gj_str(doc, "device", r->device);
	gj_uint(doc, "timestamp_ns", now_realtime_ns());
	m = gj_object();
	gj_str(m, "cpu_model", r->machine.cpu_model);
	gj_uint(m, "cores", r->machine.cores);
	gj_str(m, "kernel", r->machine.kernel);
	gj_str(m, "placement", bench_placement_names[r->placement]);
	gj_set(doc, "machine", m);
	gj_uint(doc, "repeat", r->repeat);
	gj_uint(doc, "duration_ns", r->duration_ns);
	if (r->have_floors)
		gj_set(doc, "floors", floors_json(&r->floors));
	arr = gj_array();
	for (i = 0; i < r->nresults; i++) {
		const struct bench_result *b = &r->results[i];

		res = gj_object();
		gj_str(res, "workload", b->w->name);
		gj_str(res, "strategy", b->s.name);
		gj_str(res, "alloc", bm_strategy_names[b->s.alloc]);
		gj_str(res, "upload", bm_upload_names[b->s.upload]);
		if (b->s.transport)
			gj_str(res, "transport", b->s.transport);
		gj_str(res, "op", b->w->op);
		gj_bool(res, "consistent", b->consistent);
		met = gj_object();
		for (k = 0; k < BENCH_NMETRICS; k++) {
			if (!known(b, k))
				continue;
			gj_set(met, bench_metrics[k].key,
					       stat_json(&b->st[k]));
		}
		gj_set(res, "metrics", met);
		runs = gj_array();
		for (j = 0; j < b->n; j++)
			gj_push(runs, run_json(&b->samples[j]));
		gj_set(res, "runs", runs);
		gj_push(arr, res);
	}
	gj_set(doc, "results", arr);
	gj_set(doc, "alloc_over_suballoc", ratios_json(r));
	ret = gj_write(f, doc);
	gj_free(doc);
	return ret ? ret : ferror(f) ? -EIO : 0;
}

static json_object *load(const char *path)
{
	json_object *doc = json_object_from_file(path), *v;

	if (!doc) {
		fprintf(stderr, "gemctl bench: cannot read '%s': %s\n", path,
			json_util_get_last_err());
		return NULL;
	}
	if (!json_object_object_get_ex(doc, "results", &v) ||
	    !json_object_is_type(v, json_type_array) ||
	    !json_object_object_get_ex(doc, "schema_version", &v) ||
	    json_object_get_int(v) != GEMCTL_SCHEMA_VERSION) {
		fprintf(stderr, "gemctl bench: '%s' is not a gemctl bench document "
			"(schema_version %d)\n", path, GEMCTL_SCHEMA_VERSION);
		json_object_put(doc);
		return NULL;
	}
	return doc;
}

static const char *str_of(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return "";
	return json_object_get_string(v);
}

static json_object *find_result(json_object *doc, const char *w, const char *s)
{
	json_object *arr, *e;
	size_t i;

	json_object_object_get_ex(doc, "results", &arr);
	for (i = 0; i < json_object_array_length(arr); i++) {
		e = json_object_array_get_idx(arr, i);
		if (!strcmp(str_of(e, "workload"), w) && !strcmp(str_of(e, "strategy"), s))
			return e;
	}
	return NULL;
}

static bool get_stat(json_object *res, const char *key, double *median,
		     double *spread)
{
	json_object *met, *m, *v;

	if (!json_object_object_get_ex(res, "metrics", &met) ||
	    !json_object_object_get_ex(met, key, &m) ||
	    !json_object_object_get_ex(m, "median", &v))
		return false;
	*median = json_object_get_double(v);
	*spread = json_object_object_get_ex(m, "spread_pct", &v) ?
		  json_object_get_double(v) : 0;
	return true;
}

/* What --compare looks at. */
static const enum bench_metric compare_cols[] = {
	BM_OPS_PER_S, BM_MB_PER_S, BM_WALL_US, BM_CLIENT_CPU_US, BM_GEMD_CPU_US,
	BM_GEMD_CLIENT_US, BM_GEMD_MM_US, BM_GEMD_SUBMIT_US, BM_GEMD_GPU_US,
	BM_GEMD_WAIT_OTHER_US, BM_GEMD_PER_REQ, BM_GPU_BUSY_US, BM_IOCTLS, BM_BINDS,
	BM_EVICTIONS, BM_CLFLUSH_BYTES, BM_WAITS,
};

int bench_compare(FILE *f, const char *a_path, const char *b_path)
{
	json_object *a = load(a_path), *b = load(b_path), *arr, *rb, *ra;
	unsigned int c, flagged = 0, compared = 0;
	size_t i;

	if (!a || !b) {
		if (a)
			json_object_put(a);
		if (b)
			json_object_put(b);
		return -EINVAL;
	}
	fprintf(f, "%-17s %-14s %-22s %12s %12s %7s  %s\n", "workload", "strategy",
		"figure", "A", "B", "B/A", "beyond spread");
	json_object_object_get_ex(b, "results", &arr);
	for (i = 0; i < json_object_array_length(arr); i++) {
		rb = json_object_array_get_idx(arr, i);
		ra = find_result(a, str_of(rb, "workload"), str_of(rb, "strategy"));
		if (!ra)
			continue;
		for (c = 0; c < ARRAY_SIZE(compare_cols); c++) {
			const struct bench_metric_desc *d = &bench_metrics[compare_cols[c]];
			double ma, sa, mb, sb, ratio, limit;
			const char *flag = "";

			if (!get_stat(ra, d->key, &ma, &sa) ||
			    !get_stat(rb, d->key, &mb, &sb) || (ma == 0 && mb == 0))
				continue;
			compared++;
			ratio = ma != 0 ? mb / ma : INFINITY;
			limit = (sa > sb ? sa : sb) / 100;
			/* A change is real when it is bigger than either
			 * run's own spread. */
			if (fabs(ratio - 1) > limit) {
				flagged++;
				flag = (ratio > 1) == d->higher_better ? "better" : "WORSE";
			}
			fprintf(f, "%-17s %-14s %-22s %12.4g %12.4g %7.3f  %s\n",
				str_of(rb, "workload"), str_of(rb, "strategy"), d->key,
				ma, mb, ratio, flag);
		}
	}
	fprintf(f, "\n%u figures compared, %u changed beyond the larger of the "
		"two runs' spreads\n", compared, flagged);
	json_object_put(a);
	json_object_put(b);
	return (int)flagged;
}
