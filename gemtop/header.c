/*
 * gemtop's header (htop's meters): the title, the aperture bar, the list
 * shares, the seqnos, the rates, the history sparklines and the view
 * tabs.  A short terminal drops the rates and the history first.
 */
#include <string.h>

#include "util.h"
#include "view.h"

#define MIN_HEADER_ROWS	24	/* below this, the header drops rows */

static void draw_bar(struct gt_ui *ui, int y, int x, int w, uint64_t used,
		     uint64_t pinned, uint64_t total)
{
	int nu = 0, np = 0, i;

	if (w < 3)
		return;
	if (total) {
		nu = (int)((double)used * (w - 2) / (double)total + 0.5);
		np = (int)((double)pinned * (w - 2) / (double)total + 0.5);
	}
	if (np > nu)
		np = nu;
	mvaddch(y, x, '[');
	for (i = 0; i < w - 2; i++) {
		enum gt_color c = i < np ? GT_C_BAR_PINNED : i < nu ? GT_C_BAR : GT_C_NONE;

		gt_attr_on(ui, c);
		mvaddch(y, x + 1 + i, i < np ? '#' : i < nu ? '|' : ' ');
		gt_attr_off(ui, c);
	}
	mvaddch(y, x + w - 1, ']');
}

/*
 * "History aperture ▂▂▃ lag ▁▁▁ evict ▁▁▁": three sparklines on fixed
 * scales (aperture in percent, the lag and evictions per second on a log
 * scale), padded in terminal columns, so the line fits the screen at any
 * width (a UTF-8 block is three bytes and one column).
 */
static void draw_history(struct gt_ui *ui, int y)
{
	static const char *const label[] = { "History aperture ", " lag ", " evict " };
	const struct gt_sampler *s = &ui->s;
	const double *v[] = { s->hist.aperture_pct, s->hist.lag, s->hist.evict_rate };
	const enum gt_scale sc[] = { GT_SCALE_PERCENT, GT_SCALE_LOG, GT_SCALE_LOG };
	struct strbuf line = STRBUF_INIT;
	size_t labels = 0, w, i;
	char spark[GEMTOP_HISTORY * 4 + 1];

	for (i = 0; i < ARRAY_SIZE(label); i++)
		labels += strlen(label[i]);
	w = ui->cols > (int)labels ? ((size_t)ui->cols - labels) / 3 : 0;
	if (w > 40)
		w = 40;
	for (i = 0; i < ARRAY_SIZE(label); i++) {
		int cols = gt_sparkline(v[i], s->hist.n, w, sc[i], ui->ascii, spark,
					sizeof(spark));

		strbuf_addstr(&line, label[i]);
		strbuf_addstr(&line, spark);
		/* Pad the first two in columns; the last ends the line. */
		for (; i + 1 < ARRAY_SIZE(label) && (size_t)cols < w; cols++)
			strbuf_addch(&line, ' ');
	}
	gt_put(ui, y, 0, line.buf);
	strbuf_release(&line);
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

/* The first row: the title, and at the right end PAUSED and our CPU. */
static void draw_title(struct gt_ui *ui, int y)
{
	const struct gt_sampler *s = &ui->s;
	char right[64], title[512];
	int len;

	/* The right end first: what it leaves is the title's width. */
	right[0] = '\0';
	if (s->cpu_pct >= 0 && ui->cols > 60)
		snprintf(right, sizeof(right), "%scpu %.1f%%", ui->paused ? "PAUSED  " : "",
			 s->cpu_pct);
	else if (ui->paused)
		snprintf(right, sizeof(right), "PAUSED");
	len = ui->cols - (int)strlen(right) - 2;
	snprintf(title, sizeof(title), "gemtop - %s - %s", s->driver[0] ? s->driver : "?",
		 s->src ? gdfs_origin(s->src) : "(no source)");
	gt_attr_on(ui, GT_C_TITLE);
	gt_putf(ui, y, 0, "%.*s", len > 0 ? len : 0, title);
	gt_attr_off(ui, GT_C_TITLE);
	if (right[0])
		gt_put(ui, y, ui->cols - (int)strlen(right) - 1, right);
}

/* A hang seen while running: reverse video across the screen, until the
 * a key acknowledges it. */
static void draw_hang(struct gt_ui *ui, int y)
{
	const struct gt_hang *h = &ui->hang;
	uint64_t now = now_realtime_ns();
	char who[64], line[256];

	if (h->pid)
		snprintf(who, sizeof(who), "pid %d (%s)", (int)h->pid, h->comm);
	else
		snprintf(who, sizeof(who), "client not known");
	snprintf(line, sizeof(line), " GPU HANG %llu%s%s%s: %s, seqno %u, %llus ago"
		 "  -  a: acknowledge", (unsigned long long)h->seq,
		 h->kind[0] ? " (" : "", h->kind, h->kind[0] ? ")" : "", who, h->seqno,
		 (unsigned long long)(now > h->real_ns ? (now - h->real_ns) / 1000000000ull : 0));
	gt_put_line(ui, y, GT_C_HANG, line);
}

/* The view tabs, from the view table, and the filter. */
static void draw_tabs(struct gt_ui *ui, int y)
{
	unsigned int i;

	move(y, 0);
	for (i = 0; i < gt_nviews; i++) {
		enum gt_color c = i == ui->view ? GT_C_TAB_CURRENT : GT_C_NONE;

		gt_attr_on(ui, c);
		printw("%c %s", gt_views[i]->key, gt_views[i]->name);
		gt_attr_off(ui, c);
		printw(" ");
	}
	if (gt_ui_filter(ui)->text[0])
		printw(" filter: %s", gt_ui_filter(ui)->text);
}

int gt_draw_header(struct gt_ui *ui)
{
	const struct gt_sample *c = ui->shown;
	const struct gt_sampler *s = &ui->s;
	char a[16], b[16], h[16], p[16], f[16], age[16], line[512];
	bool full = ui->rows >= MIN_HEADER_ROWS, present;
	unsigned int retiring;
	char r[32];
	uint64_t hangs;
	int y = 0, len, i;

	draw_title(ui, y++);
	if (ui->hang_banner)
		draw_hang(ui, y++);
	if (!c) {
		gt_put(ui, y++, 0, "no sample yet");
		return y;
	}
	/* A real kernel's or a partial tree: say what is not there. */
	if (s->missing[0])
		gt_putf(ui, y++, 0, "This source lacks: %s", s->missing);
	if (c->have & GT_NEED_GTT) {
		gt_fmt_size(c->gtt.used, a, sizeof(a));
		gt_fmt_size(c->gtt.total, b, sizeof(b));
		gt_fmt_size(c->gtt.largest_hole, h, sizeof(h));
		gt_fmt_size(c->gtt.pinned, p, sizeof(p));
		gt_fmt_size(c->fenced_bytes, f, sizeof(f));
		gt_put(ui, y, 0, "Aperture");
		draw_bar(ui, y, 9, ui->cols >= 100 ? 32 : 22, c->gtt.used, c->gtt.pinned,
			 c->gtt.total);
		gt_putf(ui, y, ui->cols >= 100 ? 42 : 32,
			"%s/%s %.1f%%  hole %s  pinned %s %.1f%%  fenced %s %.1f%%", a, b,
			pct(c->gtt.used, c->gtt.total), h, p,
			pct(c->gtt.pinned, c->gtt.total), f,
			pct(c->fenced_bytes, c->gtt.total));
		y++;
	}
	if (c->have & GT_NEED_LISTS) {
		len = snprintf(line, sizeof(line), "Lists");
		for (i = 0; i < GDFS_LIST_COUNT; i++) {
			gt_fmt_size(c->lists.bytes[i], a, sizeof(a));
			len += snprintf(line + len, sizeof(line) - (size_t)len,
					"  %s %llu/%s", gdfs_list_name(i),
					(unsigned long long)c->lists.objects[i], a);
		}
		gt_put(ui, y++, 0, line);
	}
	hangs = gt_counter(c, "hangs", &present);
	if (c->have & GT_NEED_RING) {
		gt_fmt_age(gt_oldest_age_ns(&c->ring), age, sizeof(age));
		snprintf(h, sizeof(h), "%llu", (unsigned long long)hangs);
		if (s->rates.valid && s->rates.gpu_busy_valid)
			snprintf(p, sizeof(p), "%.1f%%", s->rates.gpu_busy_pct);
		else
			snprintf(p, sizeof(p), "-");
		retiring = gt_ring_retiring(&c->ring);
		if (retiring)
			snprintf(r, sizeof(r), " (+%u retiring)", retiring);
		else
			r[0] = '\0';
		gt_putf(ui, y++, 0, "Seqno emitted %u completed %u  lag %u  oldest %s  "
			"outstanding %u%s  hangs %s%s  GPU busy %s", c->ring.emitted_seqno,
			c->ring.completed_seqno, gt_seqno_lag(&c->ring),
			c->ring.nrequests ? age : "-",
			c->ring.outstanding > retiring ? c->ring.outstanding - retiring : 0, r,
			present ? h : "n/a", c->ring.wedged ? "  WEDGED" : "", p);
	}
	if (s->rates.valid && full) {
		gt_fmt_size((uint64_t)s->rates.clflush_bytes, a, sizeof(a));
		gt_fmt_size((uint64_t)s->rates.pwrite_bytes, b, sizeof(b));
		gt_fmt_size((uint64_t)s->rates.pread_bytes, h, sizeof(h));
		gt_putf(ui, y++, 0, "Rates/s exec %.1f  binds %.1f  evict %.1f  waits %.1f"
			"  clflush %s  pwrite %s  pread %s", s->rates.execbuffers,
			s->rates.binds, s->rates.evictions, s->rates.waits, a, b, h);
	} else if (full) {
		gt_put(ui, y++, 0, "Rates/s (after the second sample)");
	}
	if (full && ui->cols >= 80) {
		draw_history(ui, y++);
	}
	draw_tabs(ui, y++);
	return y;
}
