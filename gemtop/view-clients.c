/*
 * The clients view: the open drm files, what they hold, what they lost to
 * eviction, and what gemd measured for each (gemkit_clients' usage
 * figures): GPU busy % and gemd CPU % over the last refresh, waits.
 * Sortable by any column (> < I, as the objects view); a rate that cannot
 * be measured (a gemd without the figures, a file new since the last
 * sample, a paused frame) is "-", never 0.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

/* Evictions an object's owners suffered: the sum over the objects they hold. */
static uint64_t client_evictions(const struct gt_sample *c, uint32_t file)
{
	uint64_t sum = 0;
	size_t i;
	uint32_t k;

	if (!(c->have & GT_NEED_OBJECTS))
		return 0;
	for (i = 0; i < c->objs.n; i++)
		for (k = 0; k < c->objs.v[i].nowners; k++)
			if (c->objs.v[i].owners[k].file == file) {
				sum += c->objs.v[i].evicts;
				break;
			}
	return sum;
}

/* One client's row: its record and what is derived from two samples. */
struct row {
	const struct gdfs_client *cl;
	uint64_t evicted;
	double gpu_pct, cpu_pct;	/* < 0: not measured */
};

enum col {
	COL_FILE, COL_PID, COL_COMM, COL_OBJECTS, COL_BYTES, COL_BOUND,
	COL_REQUESTS, COL_EVICTED, COL_GPU, COL_CPU, COL_WAITS, NCOLS
};
static const char *const col_names[NCOLS] = {
	"FILE", "PID", "COMM", "OBJECTS", "BYTES", "BOUND", "REQUESTS",
	"EVICTED", "GPU%", "CPU%", "WAITS",
};
/* The view's sort: by file (the record order) until asked. */
static enum col sort_col = COL_FILE;
static bool sort_invert;

/* The share of the interval between prev and cur that file's counter
 * (at offset off in its record) grew by, in %; -1 if not measured. */
static double rate_pct(const struct gt_sample *prev, const struct gt_sample *cur,
		       const struct gdfs_client *cl, size_t off)
{
	uint64_t a, b;
	size_t i;

	if (!prev || !(prev->have & GT_NEED_CLIENTS) || !prev->clients.has_usage ||
	    !cur->clients.has_usage || cur->mono_ns <= prev->mono_ns)
		return -1;
	for (i = 0; i < prev->clients.n; i++) {
		if (prev->clients.v[i].file != cl->file)
			continue;
		memcpy(&a, (const char *)&prev->clients.v[i] + off, sizeof(a));
		memcpy(&b, (const char *)cl + off, sizeof(b));
		return b < a ? -1 : 100.0 * (double)(b - a) /
				    (double)(cur->mono_ns - prev->mono_ns);
	}
	return -1;		/* new since the last sample */
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	int r;

	switch (sort_col) {
	case COL_PID: r = cmp_u64((uint64_t)a->cl->pid, (uint64_t)b->cl->pid); break;
	case COL_COMM: r = strcmp(a->cl->comm, b->cl->comm); break;
	case COL_OBJECTS: r = cmp_u64(a->cl->handles, b->cl->handles); break;
	case COL_BYTES: r = cmp_u64(a->cl->handle_bytes, b->cl->handle_bytes); break;
	case COL_BOUND: r = cmp_u64(a->cl->bound_bytes, b->cl->bound_bytes); break;
	case COL_REQUESTS: r = cmp_u64(a->cl->requests, b->cl->requests); break;
	case COL_EVICTED: r = cmp_u64(a->evicted, b->evicted); break;
	/* The busiest first: what a top is read for. */
	case COL_GPU: r = (a->gpu_pct < b->gpu_pct) - (a->gpu_pct > b->gpu_pct); break;
	case COL_CPU: r = (a->cpu_pct < b->cpu_pct) - (a->cpu_pct > b->cpu_pct); break;
	case COL_WAITS: r = -cmp_u64(a->cl->waits, b->cl->waits); break;
	default: r = 0; break;
	}
	if (!r)
		r = cmp_u64(a->cl->file, b->cl->file);
	return sort_invert ? -r : r;
}

static void pct(char *buf, size_t len, double v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", v);
}

static void clients_draw(struct gt_ui *ui, int y0, int h)
{
	const struct gt_sample *c = ui->shown;
	/* Rates need the sample before this one: not while paused. */
	const struct gt_sample *prev = c == ui->s.cur ? ui->s.prev : NULL;
	char line[256], b[16], bb[16], g[16], u[16], w[24];
	struct row *rows;
	size_t i;
	int y;

	if (!(c->have & GT_NEED_CLIENTS)) {
		gt_put(ui, y0, 0, "(clients not sampled in this frame)");
		return;
	}
	gt_putf(ui, y0, 0, "%zu clients  sort %s%s%s", c->clients.n,
		col_names[sort_col], sort_invert ? " inverted" : "",
		c->clients.has_usage ? "" :
		"  (-: this gemd does not report per-client usage)");
	snprintf(line, sizeof(line), "%6s %7s %-16s %8s %8s %8s %8s %8s %6s %6s %8s",
		 "FILE", "PID", "COMM", "OBJECTS", "BYTES", "BOUND", "REQUESTS",
		 "EVICTED", "GPU%", "CPU%", "WAITS");
	gt_put_line(ui, y0 + 1, GT_C_HEADER, line);
	if (ui->scroll >= c->clients.n)
		ui->scroll = c->clients.n ? c->clients.n - 1 : 0;
	rows = calloc(c->clients.n ? c->clients.n : 1, sizeof(*rows));
	if (!rows) {
		gt_put(ui, y0 + 2, 0, "(out of memory)");
		return;
	}
	for (i = 0; i < c->clients.n; i++) {
		const struct gdfs_client *cl = &c->clients.v[i];

		rows[i] = (struct row){
			.cl = cl,
			.evicted = client_evictions(c, cl->file),
			.gpu_pct = rate_pct(prev, c, cl,
					    offsetof(struct gdfs_client, engine_render_ns)),
			.cpu_pct = rate_pct(prev, c, cl, offsetof(struct gdfs_client, cpu_ns)),
		};
	}
	qsort(rows, c->clients.n, sizeof(*rows), cmp_rows);
	for (i = ui->scroll, y = y0 + 2; i < c->clients.n && y < y0 + h; i++, y++) {
		const struct row *r = &rows[i];

		gt_fmt_size(r->cl->handle_bytes, b, sizeof(b));
		gt_fmt_size(r->cl->bound_bytes, bb, sizeof(bb));
		pct(g, sizeof(g), r->gpu_pct);
		pct(u, sizeof(u), r->cpu_pct);
		if (c->clients.has_usage)
			snprintf(w, sizeof(w), "%" PRIu64, r->cl->waits);
		else
			snprintf(w, sizeof(w), "-");
		gt_putf(ui, y, 0, "%6u %7d %-16s %8u %8s %8s %8u %8" PRIu64 " %6s %6s %8s",
			r->cl->file, (int)r->cl->pid, r->cl->comm, r->cl->handles, b, bb,
			r->cl->requests, r->evicted, g, u, w);
	}
	free(rows);
}

/* > < I sort the clients while they are shown. */
static bool clients_key(struct gt_ui *ui, enum gt_action a, long page)
{
	(void)page;
	switch (a) {
	case GT_ACT_SORT_NEXT:
		sort_col = (enum col)((sort_col + 1) % NCOLS);
		break;
	case GT_ACT_SORT_PREV:
		sort_col = (enum col)((sort_col + NCOLS - 1) % NCOLS);
		break;
	case GT_ACT_INVERT:
		sort_invert = !sort_invert;
		break;
	default:
		return false;
	}
	gt_ui_banner(ui, "clients sorted by %s%s", col_names[sort_col],
		     sort_invert ? " inverted" : "");
	return true;
}

const struct gt_view_class gt_clients_view = {
	.name = "Clients",
	.key = '3',
	.help = "clients",
	/* The objects give each client's evictions. */
	.needs = GT_NEED_CLIENTS | GT_NEED_OBJECTS,
	.draw = clients_draw,
	.handle_key = clients_key,
};
