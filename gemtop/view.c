/*
 * gemtop's terminal: the curses lifecycle, the loop that keeps sampling
 * apart from drawing, the header, the status line and the keys.
 *
 * The loop waits for a key until the next sample is due, so keys are
 * answered at once and sampling keeps its interval.  Pausing (Z) moves the
 * current sample aside as the frozen frame: the sampler goes on (history,
 * rates) while the views keep drawing the frozen one.
 */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "view.h"
#include "util.h"

#define MIN_HEADER_ROWS	24	/* below this, the header drops rows */

static const char *const view_names[GT_VIEW_COUNT] = {
	"Objects", "GTT map", "Clients", "Rings", "Events",
};

void gt_ui_banner(struct gt_ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->banner, sizeof(ui->banner), fmt, ap);
	va_end(ap);
	ui->banner_until = now_ns() + 3000000000ull;
}

int gt_ui_attr(const struct gt_ui *ui, enum gt_color c)
{
	if (!ui->color) {
		switch (c) {
		case GT_C_TITLE:
		case GT_C_TAB:
		case GT_C_ERROR:
			return A_BOLD;
		case GT_C_PINNED:
		case GT_C_BAR_PINNED:
			return A_REVERSE;
		default:
			return A_NORMAL;
		}
	}
	if (c == GT_C_TITLE || c == GT_C_TAB)
		return COLOR_PAIR(c) | A_BOLD;
	return COLOR_PAIR(c);
}

static void colors_init(struct gt_ui *ui)
{
	static const short fg[GT_C_COUNT] = {
		[GT_C_TITLE] = COLOR_CYAN, [GT_C_BAR] = COLOR_GREEN,
		[GT_C_BAR_PINNED] = COLOR_RED, [GT_C_FREE] = -1,
		[GT_C_INACTIVE] = COLOR_BLUE, [GT_C_ACTIVE] = COLOR_GREEN,
		[GT_C_PINNED] = COLOR_RED, [GT_C_FENCED] = COLOR_MAGENTA,
		[GT_C_BANNER] = COLOR_YELLOW, [GT_C_ERROR] = COLOR_RED,
		[GT_C_TAB] = COLOR_CYAN,
	};
	short i;

	if (!ui->color || !has_colors()) {
		ui->color = false;
		return;
	}
	start_color();
	/* The terminal's own colours: readable on light and dark themes. */
	use_default_colors();
	for (i = 1; i < GT_C_COUNT; i++)
		init_pair(i, fg[i], -1);
}

void gt_put(struct gt_ui *ui, int y, int x, const char *s)
{
	if (y < 0 || y >= ui->rows || x >= ui->cols)
		return;
	mvaddnstr(y, x, s, ui->cols - x);
}

void gt_putf(struct gt_ui *ui, int y, int x, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	gt_put(ui, y, x, line);
}

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
		int a = i < np ? gt_ui_attr(ui, GT_C_BAR_PINNED) :
			i < nu ? gt_ui_attr(ui, GT_C_BAR) : (int)A_NORMAL;

		attron(a);
		mvaddch(y, x + 1 + i, i < np ? '#' : i < nu ? '|' : ' ');
		attroff(a);
	}
	mvaddch(y, x + w - 1, ']');
}

static void sparkline(const struct gt_ui *ui, const double *v, size_t n, size_t width,
		      char *out, size_t size)
{
	static const char *const blocks[] = {
		"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
	};
	static const char ascii[] = "_.-:=+*#";
	double max = 0;
	size_t i, first = n > width ? n - width : 0, len = 0;

	out[0] = '\0';
	for (i = first; i < n; i++)
		if (v[i] > max)
			max = v[i];
	for (i = first; i < n; i++) {
		int level = max > 0 ? (int)(v[i] / max * 7 + 0.5) : 0;
		const char *b;

		if (level < 0)
			level = 0;
		if (level > 7)
			level = 7;
		if (ui->ascii) {
			if (len + 2 > size)
				break;
			out[len++] = ascii[level];
			out[len] = '\0';
			continue;
		}
		b = blocks[level];
		if (len + strlen(b) + 1 > size)
			break;
		memcpy(out + len, b, strlen(b) + 1);
		len += strlen(b);
	}
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

int gt_draw_header(struct gt_ui *ui)
{
	const struct gt_sample *c = ui->shown;
	const struct gt_sampler *s = &ui->s;
	char a[16], b[16], h[16], p[16], f[16], age[16], line[512];
	bool full = ui->rows >= MIN_HEADER_ROWS, present;
	uint64_t hangs;
	int y = 0, len = 0, i;

	/* The right end first: what it leaves is the title's width. */
	line[0] = '\0';
	if (s->cpu_pct >= 0 && ui->cols > 60)
		snprintf(line, sizeof(line), "%scpu %.1f%%", ui->paused ? "PAUSED  " : "",
			 s->cpu_pct);
	else if (ui->paused)
		snprintf(line, sizeof(line), "PAUSED");
	len = ui->cols - (int)strlen(line) - 2;
	attron(gt_ui_attr(ui, GT_C_TITLE));
	{
		char title[512];

		snprintf(title, sizeof(title), "gemtop - %s - %s",
			 s->driver[0] ? s->driver : "?",
			 s->src ? gdfs_describe(s->src) : "(no source)");
		gt_putf(ui, y, 0, "%.*s", len > 0 ? len : 0, title);
	}
	attroff(gt_ui_attr(ui, GT_C_TITLE));
	if (line[0])
		gt_put(ui, y, ui->cols - (int)strlen(line) - 1, line);
	y++;
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
		gt_putf(ui, y++, 0, "Seqno emitted %u completed %u  lag %u  oldest %s  "
			"outstanding %u  hangs %s%s", c->ring.emitted_seqno,
			c->ring.completed_seqno, gt_seqno_lag(&c->ring),
			c->ring.nrequests ? age : "-", c->ring.outstanding,
			present ? h : "n/a", c->ring.wedged ? "  WEDGED" : "");
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
		char s1[200], s2[200], s3[200];
		size_t w = (size_t)(ui->cols - 36) / 3;

		if (w > 40)
			w = 40;
		sparkline(ui, s->hist.aperture_pct, s->hist.n, w, s1, sizeof(s1));
		sparkline(ui, s->hist.lag, s->hist.n, w, s2, sizeof(s2));
		sparkline(ui, s->hist.evict_rate, s->hist.n, w, s3, sizeof(s3));
		gt_putf(ui, y++, 0, "History aperture %-*s lag %-*s evict %s", (int)w,
			s1, (int)w, s2, s3);
	}
	/* The view tabs. */
	move(y, 0);
	for (i = 0; i < GT_VIEW_COUNT; i++) {
		int attr = i == (int)ui->view ? A_REVERSE | gt_ui_attr(ui, GT_C_TAB) : 0;

		attron(attr);
		printw("%d %s", i + 1, view_names[i]);
		attroff(attr);
		printw(" ");
	}
	if (ui->model.filter.text[0])
		printw(" filter: %s", ui->model.filter.text);
	y++;
	return y;
}

/* The last line: an input prompt, an error, the banner, or the keys. */
static void draw_status(struct gt_ui *ui)
{
	int y = ui->rows - 1;

	move(y, 0);
	clrtoeol();
	if (ui->input != GT_IN_NONE) {
		static const char *const prompt[] = { "", "Search: ", "Filter: ",
						      "Delay (s): " };

		attron(A_BOLD);
		gt_put(ui, y, 0, prompt[ui->input]);
		attroff(A_BOLD);
		gt_put(ui, y, (int)strlen(prompt[ui->input]), ui->inbuf);
		return;
	}
	if (ui->s.error[0]) {
		attron(gt_ui_attr(ui, GT_C_ERROR));
		gt_putf(ui, y, 0, "gemtop: %s%s", ui->s.src ? "" : "reconnecting: ",
			ui->s.error);
		attroff(gt_ui_attr(ui, GT_C_ERROR));
		return;
	}
	if (ui->banner[0] && now_ns() < ui->banner_until) {
		attron(gt_ui_attr(ui, GT_C_BANNER));
		gt_putf(ui, y, 0, ">>> %s", ui->banner);
		attroff(gt_ui_attr(ui, GT_C_BANNER));
		return;
	}
	attron(A_REVERSE);
	gt_put(ui, y, 0, "F1/h Help  F3// Search  F4/\\ Filter  F6/> Sort  "
	       "Z Pause  x Export  Tab View  F10/q Quit");
	attroff(A_REVERSE);
}

void gt_draw_help(struct gt_ui *ui)
{
	const struct gt_key *k;
	int y = 0, col = 0, colw = ui->cols >= 100 ? ui->cols / 2 : ui->cols;

	erase();
	attron(gt_ui_attr(ui, GT_C_TITLE));
	gt_put(ui, y++, 0, "gemtop help - keys (htop-compatible). Any key returns; q quits.");
	attroff(gt_ui_attr(ui, GT_C_TITLE));
	y++;
	for (k = gt_keys; k->label; k++) {
		if (y >= ui->rows - 1) {
			if (col + colw >= ui->cols)
				break;
			col += colw;
			y = 2;
		}
		gt_putf(ui, y++, col, "%-11s %.*s", k->label, colw - 13 > 0 ? colw - 13 : 0,
			k->help);
	}
	if (y < ui->rows - 2)
		gt_put(ui, ui->rows - 2, 0, "Domains: c r s m i v g = cpu render sampler "
		       "command instruction vertex gtt; the write domain in capitals.");
}

unsigned int gt_view_needs(const struct gt_ui *ui)
{
	unsigned int need = GT_NEED_HEADER | GT_NEED_EVENTS;

	switch (ui->view) {
	case GT_VIEW_OBJECTS:
	case GT_VIEW_GTT:
		need |= GT_NEED_OBJECTS;
		break;
	case GT_VIEW_CLIENTS:
		need |= GT_NEED_CLIENTS | GT_NEED_OBJECTS;
		break;
	case GT_VIEW_RINGS:
	case GT_VIEW_EVENTS:
	case GT_VIEW_COUNT:
		break;
	}
	return need;
}

static void draw(struct gt_ui *ui)
{
	int y0, h;

	getmaxyx(stdscr, ui->rows, ui->cols);
	if (ui->help) {
		gt_draw_help(ui);
		draw_status(ui);
		refresh();
		return;
	}
	erase();
	y0 = gt_draw_header(ui);
	h = ui->rows - 1 - y0;
	if (h > 0 && ui->shown) {
		if (ui->detail)
			gt_draw_detail(ui, y0, h);
		else if (ui->view == GT_VIEW_OBJECTS)
			gt_draw_objects(ui, y0, h);
		else if (ui->view == GT_VIEW_GTT)
			gt_draw_gtt(ui, y0, h);
		else if (ui->view == GT_VIEW_CLIENTS)
			gt_draw_clients(ui, y0, h);
		else if (ui->view == GT_VIEW_RINGS)
			gt_draw_rings(ui, y0, h);
		else
			gt_draw_events(ui, y0, h);
	}
	draw_status(ui);
	refresh();
}

/* Sort and filter again; only when the objects or the model changed
 * unless forced (a sort of 100,000 rows is not free). */
static void update_model(struct gt_ui *ui, bool force)
{
	if (!ui->shown || !(ui->shown->have & GT_NEED_OBJECTS))
		return;
	if (!force && ui->model_stamp == ui->shown->objs_real_ns) {
		ui->model.now_real_ns = ui->shown->real_ns;
		return;
	}
	ui->model_stamp = ui->shown->objs_real_ns;
	gt_model_update(&ui->model, &ui->shown->objs, ui->shown->real_ns);
	gt_objects_reselect(ui);
}

static void refresh_model(struct gt_ui *ui)
{
	update_model(ui, true);
}

static void take_sample(struct gt_ui *ui)
{
	unsigned int need = gt_view_needs(ui);

	if (need & GT_NEED_OBJECTS && !gt_objects_due(&ui->s, now_ns(), ui->delay_ns))
		need = (need & ~(unsigned int)GT_NEED_OBJECTS) | GT_KEEP_OBJECTS;
	/* While paused only the header's figures are needed (history). */
	if (ui->paused)
		need = GT_NEED_COUNTERS | GT_NEED_RING | GT_NEED_GTT;
	if (gt_sample(&ui->s, need) == 0 && !ui->paused) {
		ui->shown = ui->s.cur;
		update_model(ui, false);
	} else if (!ui->paused) {
		/* The sampler keeps its last good sample as current. */
		ui->shown = ui->s.cur->have ? ui->s.cur : NULL;
	}
}

static void set_pause(struct gt_ui *ui, bool on)
{
	if (on == ui->paused)
		return;
	ui->paused = on;
	if (on) {
		/* Take the current sample out of the sampler's hands. */
		ui->frozen = *ui->s.cur;
		memset(ui->s.cur, 0, sizeof(*ui->s.cur));
		ui->shown = &ui->frozen;
		gt_ui_banner(ui, "paused: sampling goes on, the frame is frozen (Z resumes)");
	} else {
		gt_sample_release(&ui->frozen);
		ui->shown = ui->s.cur->have ? ui->s.cur : NULL;
		/* The paused samples lack what the view needs: take one now. */
		take_sample(ui);
		gt_ui_banner(ui, "resumed");
	}
}

static void export_frame(struct gt_ui *ui)
{
	struct strbuf sb = STRBUF_INIT;
	struct gt_sampler copy = ui->s;
	char path[64];
	FILE *f;

	if (!ui->shown) {
		gt_ui_banner(ui, "nothing to export yet");
		return;
	}
	/* The frame as drawn: the shown sample, with the model's rows. */
	copy.cur = (struct gt_sample *)ui->shown;
	gt_json_frame(&sb, &copy, ui->delay_ns, &ui->model);
	strbuf_addch(&sb, '\n');
	snprintf(path, sizeof(path), "gemtop-%llu.json",
		 (unsigned long long)(ui->shown->real_ns / 1000000ull));
	f = fopen(path, "w");
	if (!f || fwrite(sb.buf, 1, sb.len, f) != sb.len) {
		gt_ui_banner(ui, "export to '%s' failed: %s", path, strerror(errno));
	} else {
		gt_ui_banner(ui, "exported the frame to %s", path);
	}
	if (f)
		fclose(f);
	strbuf_release(&sb);
}

static void set_view(struct gt_ui *ui, int v)
{
	ui->view = (enum gt_view)((v + GT_VIEW_COUNT) % GT_VIEW_COUNT);
	ui->scroll = 0;
	ui->detail = false;
	ui->events_follow = true;
	/* The new view may need files the last sample did not read. */
	if (!ui->paused)
		take_sample(ui);
}

static void set_sort(struct gt_ui *ui, enum gt_col c)
{
	ui->model.sort = c;
	ui->model.invert = false;
	refresh_model(ui);
	gt_ui_banner(ui, "sort by %s", gt_col_name(c));
}

/* A finished line of input (Enter). */
static void input_done(struct gt_ui *ui)
{
	struct strbuf err = STRBUF_INIT;
	uint64_t ns;
	double v;
	char *end;

	switch (ui->input) {
	case GT_IN_SEARCH:
		memcpy(ui->search, ui->inbuf, sizeof(ui->search) - 1);
		ui->search[sizeof(ui->search) - 1] = '\0';
		break;
	case GT_IN_FILTER:
		if (gt_filter_parse(ui->inbuf, &ui->model.filter, &err)) {
			gt_ui_banner(ui, "filter not changed: %s", err.buf);
		} else {
			refresh_model(ui);
			gt_ui_banner(ui, ui->inbuf[0] ? "filter: %s" : "filter cleared%s",
				     ui->inbuf);
		}
		break;
	case GT_IN_DELAY:
		v = strtod(ui->inbuf, &end);
		if (end == ui->inbuf || *end || !(v >= 0.05) || v > 86400) {
			gt_ui_banner(ui, "delay not changed: '%s' is not SECS[.TENTHS]",
				     ui->inbuf);
		} else {
			ns = (uint64_t)(v * 1e9 + 0.5);
			ui->delay_ns = ns;
			gt_ui_banner(ui, "delay %.1f s", v);
		}
		break;
	case GT_IN_NONE:
		break;
	}
	strbuf_release(&err);
	ui->input = GT_IN_NONE;
}

static void search_step(struct gt_ui *ui, size_t from)
{
	long r;

	if (!ui->shown || !(ui->shown->have & GT_NEED_OBJECTS))
		return;
	r = gt_model_search(&ui->model, &ui->shown->objs, ui->search, from);
	if (r < 0) {
		gt_ui_banner(ui, "no object matches '%s'", ui->search);
		return;
	}
	ui->sel = (size_t)r;
	ui->sel_id = ui->shown->objs.v[ui->model.rows[ui->sel]].id;
}

static void input_key(struct gt_ui *ui, int ch)
{
	size_t l = strlen(ui->inbuf);

	if (ch == 27) {
		ui->input = GT_IN_NONE;
		return;
	}
	if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		input_done(ui);
		return;
	}
	if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (l)
			ui->inbuf[l - 1] = '\0';
	} else if (ch >= 0x20 && ch < 0x7f && l + 1 < sizeof(ui->inbuf)) {
		ui->inbuf[l] = (char)ch;
		ui->inbuf[l + 1] = '\0';
	} else {
		return;
	}
	/* Incremental search, as htop's F3. */
	if (ui->input == GT_IN_SEARCH) {
		memcpy(ui->search, ui->inbuf, sizeof(ui->search) - 1);
		ui->search[sizeof(ui->search) - 1] = '\0';
		if (ui->search[0])
			search_step(ui, 0);
	}
}

static void start_input(struct gt_ui *ui, enum gt_input in, const char *init)
{
	ui->input = in;
	snprintf(ui->inbuf, sizeof(ui->inbuf), "%s", init);
}

static void move_sel(struct gt_ui *ui, long delta, int page)
{
	long n, v;

	if (ui->view == GT_VIEW_GTT && !ui->detail) {
		n = (long)ui->gtt_ncells;
		if (!n)
			return;
		v = (long)ui->gtt_cell + delta;
		ui->gtt_cell = (size_t)(v < 0 ? 0 : v >= n ? n - 1 : v);
		return;
	}
	if (ui->view != GT_VIEW_OBJECTS || ui->detail) {
		v = (long)ui->scroll + delta;
		ui->scroll = (size_t)(v < 0 ? 0 : v);
		ui->events_follow = false;
		return;
	}
	n = (long)ui->model.nrows;
	if (!n)
		return;
	v = (long)ui->sel + delta;
	ui->sel = (size_t)(v < 0 ? 0 : v >= n ? n - 1 : v);
	ui->sel_id = ui->shown->objs.v[ui->model.rows[ui->sel]].id;
}

static void handle_key(struct gt_ui *ui, int ch)
{
	int page = ui->rows > 12 ? ui->rows - 10 : 1;
	int gtt_w = ui->gtt_w > 0 ? ui->gtt_w : 1;
	enum gt_action a;

	if (ch == KEY_RESIZE) {
		getmaxyx(stdscr, ui->rows, ui->cols);
		clear();
		return;
	}
	/* F10 quits from anywhere, even while typing a filter. */
	if (ch == KEY_F(10)) {
		ui->quit = true;
		return;
	}
	if (ui->input != GT_IN_NONE) {
		input_key(ui, ch);
		return;
	}
	a = gt_key_action(ch);
	if (ui->help && a != GT_ACT_QUIT) {
		ui->help = false;
		return;
	}
	switch (a) {
	case GT_ACT_QUIT:
		ui->quit = true;
		break;
	case GT_ACT_HELP:
		ui->help = true;
		break;
	case GT_ACT_SEARCH:
		set_view(ui, GT_VIEW_OBJECTS);
		start_input(ui, GT_IN_SEARCH, "");
		break;
	case GT_ACT_SEARCH_NEXT:
		if (ui->search[0])
			search_step(ui, ui->sel + 1);
		break;
	case GT_ACT_FILTER:
		start_input(ui, GT_IN_FILTER, ui->model.filter.text);
		break;
	case GT_ACT_SORT_NEXT:
		set_sort(ui, (enum gt_col)((ui->model.sort + 1) % GT_COL_COUNT));
		break;
	case GT_ACT_SORT_PREV:
		set_sort(ui, (enum gt_col)((ui->model.sort + GT_COL_COUNT - 1) % GT_COL_COUNT));
		break;
	case GT_ACT_INVERT:
		ui->model.invert = !ui->model.invert;
		refresh_model(ui);
		gt_ui_banner(ui, "sort by %s %s", gt_col_name(ui->model.sort),
			     ui->model.invert ? "inverted" : "normal");
		break;
	case GT_ACT_SORT_SIZE:
		set_sort(ui, GT_COL_SIZE);
		break;
	case GT_ACT_SORT_AGE:
		set_sort(ui, GT_COL_AGE);
		break;
	case GT_ACT_SORT_OFFSET:
		set_sort(ui, GT_COL_OFFSET);
		break;
	case GT_ACT_PAUSE:
		set_pause(ui, !ui->paused);
		break;
	case GT_ACT_DELAY:
		start_input(ui, GT_IN_DELAY, "");
		break;
	case GT_ACT_EXPORT:
		export_frame(ui);
		break;
	case GT_ACT_REDRAW:
		clear();
		break;
	case GT_ACT_VIEW_NEXT:
		set_view(ui, (int)ui->view + 1);
		break;
	case GT_ACT_VIEW_PREV:
		set_view(ui, (int)ui->view - 1);
		break;
	case GT_ACT_VIEW1: case GT_ACT_VIEW2: case GT_ACT_VIEW3:
	case GT_ACT_VIEW4: case GT_ACT_VIEW5:
		set_view(ui, (int)(a - GT_ACT_VIEW1));
		break;
	case GT_ACT_UP:
		move_sel(ui, ui->view == GT_VIEW_GTT ? -gtt_w : -1, page);
		break;
	case GT_ACT_DOWN:
		move_sel(ui, ui->view == GT_VIEW_GTT ? gtt_w : 1, page);
		break;
	case GT_ACT_LEFT:
		if (ui->view == GT_VIEW_GTT)
			move_sel(ui, -1, page);
		break;
	case GT_ACT_RIGHT:
		if (ui->view == GT_VIEW_GTT)
			move_sel(ui, 1, page);
		break;
	case GT_ACT_PGUP:
		move_sel(ui, -page, page);
		break;
	case GT_ACT_PGDN:
		move_sel(ui, page, page);
		break;
	case GT_ACT_HOME:
		move_sel(ui, -(1L << 40), page);
		break;
	case GT_ACT_END:
		move_sel(ui, 1L << 40, page);
		if (ui->view == GT_VIEW_EVENTS)
			ui->events_follow = true;
		break;
	case GT_ACT_ENTER:
		if (ui->view == GT_VIEW_OBJECTS && !ui->detail && ui->model.nrows) {
			ui->detail = true;
			ui->detail_id = ui->sel_id;
			ui->scroll = 0;
			gt_detail_load(ui);
		} else if (ui->detail) {
			ui->detail = false;
		}
		break;
	case GT_ACT_BACK:
		ui->help = false;
		ui->detail = false;
		break;
	case GT_ACT_NONE:
		break;
	}
}

static bool utf8_locale(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

int gt_tui_run(const struct gt_opts *opts)
{
	struct gt_ui ui;
	struct strbuf err = STRBUF_INIT;
	SCREEN *screen;
	uint64_t next;
	int ret = GT_EXIT_OK;

	memset(&ui, 0, sizeof(ui));
	ui.opts = *opts;
	ui.color = opts->color;
	ui.delay_ns = opts->delay_ns;
	ui.view = (enum gt_view)(opts->view - 1);
	ui.events_follow = true;
	strbuf_init(&ui.detail_bytes, 0);
	gt_model_init(&ui.model);
	if (gt_filter_parse(opts->filter, &ui.model.filter, &err)) {
		fprintf(stderr, "gemtop: invalid filter '%s': %s\n", opts->filter, err.buf);
		strbuf_release(&err);
		return GT_EXIT_USAGE;
	}
	strbuf_release(&err);
	if (gt_sampler_init(&ui.s, opts->device, opts->debugfs_dir)) {
		fprintf(stderr, "gemtop: out of memory\n");
		return GT_EXIT_FAIL;
	}
	setlocale(LC_ALL, "");
	ui.ascii = opts->ascii || !utf8_locale();
	/* newterm, not initscr: initscr exits on an unknown terminal. */
	screen = newterm(NULL, stdout, stdin);
	if (!screen) {
		const char *term = getenv("TERM");

		fprintf(stderr, "gemtop: cannot drive terminal '%s'; use -b for batch "
			"output\n", term ? term : "");
		gt_sampler_release(&ui.s);
		return GT_EXIT_FAIL;
	}
	set_term(screen);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	colors_init(&ui);
	getmaxyx(stdscr, ui.rows, ui.cols);

	next = now_ns();
	while (!ui.quit && !gt_stop_requested()) {
		uint64_t now = now_ns();
		int ch, wait_ms;

		if (now >= next) {
			take_sample(&ui);
			/* Catch up without a burst after a long stall. */
			next += ui.delay_ns;
			if (next < now)
				next = now + ui.delay_ns;
		}
		draw(&ui);
		/* -n: leave after N frames, as htop -n and top -n do. */
		if (opts->iterations && ui.s.count >= (unsigned long)opts->iterations)
			break;
		now = now_ns();
		wait_ms = next > now ? (int)((next - now) / 1000000ull) + 1 : 0;
		timeout(wait_ms);
		ch = getch();
		if (ch != ERR)
			handle_key(&ui, ch);
	}
	endwin();
	delscreen(screen);
	gt_sample_release(&ui.frozen);
	gt_model_release(&ui.model);
	strbuf_release(&ui.detail_bytes);
	gt_sampler_release(&ui.s);
	return ret;
}
