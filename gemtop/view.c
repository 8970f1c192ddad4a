/*
 * gemtop's interactive loop: it walks the view table (views.def) for the
 * tabs, the view keys, the help screen and what to sample, keeps sampling
 * apart from drawing, and handles the keys every view shares (a view's
 * own movement and Enter go to its class first).
 *
 * The loop waits for a key until the next sample is due, so keys are
 * answered at once and sampling keeps its interval.  Pausing (Z) moves the
 * current sample aside as the frozen frame: the sampler goes on (history,
 * rates) while the views keep drawing the frozen one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "strbuf.h"
#include "view.h"
#include "util.h"

const struct gt_view_class *const gt_views[] = {
#define GT_VIEW(class) &class,
#include "views.def"
#undef GT_VIEW
};
const unsigned int gt_nviews = ARRAY_SIZE(gt_views);

const struct gt_filter *gt_ui_filter(const struct gt_ui *ui)
{
	if (gt_views[ui->view] == &gt_objects_view)
		return &ui->model.filter;
	return &ui->filters[ui->view];
}

unsigned int gt_view_count(void)
{
	return gt_nviews;
}

const char *gt_view_help(unsigned int i)
{
	return i < gt_nviews ? gt_views[i]->help : "";
}

long gt_action_delta(enum gt_action a, long step, long page)
{
	switch (a) {
	case GT_ACT_UP:
		return -step;
	case GT_ACT_DOWN:
		return step;
	case GT_ACT_PGUP:
		return -page;
	case GT_ACT_PGDN:
		return page;
	case GT_ACT_HOME:
		return -(1L << 40);
	case GT_ACT_END:
		return 1L << 40;
	default:
		return 0;
	}
}

/*
 * An error is never cut at the screen's width: it wraps, upwards over
 * the bottom rows of the view, so that its reason (at the end, after a
 * path of any length) is always on the screen.
 */
static void draw_error(struct gt_ui *ui)
{
	struct strbuf msg = STRBUF_INIT;
	size_t w = ui->cols > 0 ? (size_t)ui->cols : 1, off;
	int n, y;

	strbuf_addf(&msg, "gemtop: %s%s", ui->s.src ? "" : "reconnecting: ",
		    ui->s.error);
	n = (int)((msg.len + w - 1) / w);
	if (n > ui->rows)
		n = ui->rows;
	gt_attr_on(ui, GT_C_ERROR);
	for (y = ui->rows - n, off = 0; y < ui->rows; y++, off += w) {
		move(y, 0);
		clrtoeol();
		if (off < msg.len)
			gt_put(ui, y, 0, msg.buf + off);
	}
	gt_attr_off(ui, GT_C_ERROR);
	strbuf_release(&msg);
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
		const struct gt_filter *f = gt_ui_filter(ui);
		char p[200];

		/* The filter in force, so an empty line is not a mystery. */
		if (ui->input == GT_IN_FILTER && f->text[0])
			snprintf(p, sizeof(p), "Filter %s (now '%s'; Enter alone "
				 "clears, Esc keeps): ", gt_views[ui->view]->name, f->text);
		else if (ui->input == GT_IN_FILTER)
			snprintf(p, sizeof(p), "Filter %s: ", gt_views[ui->view]->name);
		else
			snprintf(p, sizeof(p), "%s", prompt[ui->input]);
		gt_attr_on(ui, GT_C_PROMPT);
		gt_put(ui, y, 0, p);
		gt_attr_off(ui, GT_C_PROMPT);
		gt_put(ui, y, (int)strlen(p), ui->inbuf);
		return;
	}
	if (ui->s.error[0]) {
		draw_error(ui);
		return;
	}
	if (ui->banner[0] && now_ns() < ui->banner_until) {
		gt_attr_on(ui, GT_C_BANNER);
		gt_putf(ui, y, 0, ">>> %s", ui->banner);
		gt_attr_off(ui, GT_C_BANNER);
		return;
	}
	gt_attr_on(ui, GT_C_KEYS);
	gt_put(ui, y, 0, "F1/h Help  F3// Search  F4/\\ Filter  F6/> Sort  "
	       "Z Pause  x Export  Tab View  F10/q Quit");
	gt_attr_off(ui, GT_C_KEYS);
}

/* One row of the help screen, in column col; false when it is full. */
static bool help_row(struct gt_ui *ui, int *y, int *col, int colw, const char *label,
		     const char *help)
{
	if (*y >= ui->rows - 1) {
		if (*col + colw >= ui->cols)
			return false;
		*col += colw;
		*y = 2;
	}
	gt_putf(ui, (*y)++, *col, "%-11s %.*s", label, colw - 13 > 0 ? colw - 13 : 0, help);
	return true;
}

/* The keys from the key table; in its place, each view's key. */
static void draw_help(struct gt_ui *ui)
{
	const struct gt_key *k;
	int y = 0, col = 0, colw = ui->cols >= 100 ? ui->cols / 2 : ui->cols;
	bool room = true;
	unsigned int i;

	erase();
	gt_attr_on(ui, GT_C_TITLE);
	gt_put(ui, y++, 0, "gemtop help - keys (htop-compatible). Any key returns; q quits.");
	gt_attr_off(ui, GT_C_TITLE);
	y++;
	for (k = gt_keys; k->label && room; k++) {
		if (k->action != GT_ACT_VIEW_KEYS) {
			room = help_row(ui, &y, &col, colw, k->label, k->help);
			continue;
		}
		for (i = 0; i < gt_nviews && room; i++) {
			char label[2] = { (char)gt_views[i]->key, '\0' };

			room = help_row(ui, &y, &col, colw, label, gt_views[i]->help);
		}
	}
	if (y < ui->rows - 2)
		gt_put(ui, ui->rows - 2, 0, "Domains: c r s m i v g = cpu render sampler "
		       "command instruction vertex gtt; the write domain in capitals.");
}

/* What a refresh samples: the header's figures, the events every view
 * keeps, and what the view shown needs. */
static unsigned int view_needs(const struct gt_ui *ui)
{
	return GT_NEED_HEADER | GT_NEED_EVENTS | gt_views[ui->view]->needs;
}

static void draw(struct gt_ui *ui)
{
	int y0, h;

	getmaxyx(stdscr, ui->rows, ui->cols);
	if (ui->help || ui->setup) {
		if (ui->help)
			draw_help(ui);
		else
			gt_setup_draw(ui);
		draw_status(ui);
		refresh();
		return;
	}
	erase();
	y0 = gt_draw_header(ui);
	h = ui->rows - 1 - y0;
	if (h > 0 && ui->shown)
		gt_views[ui->view]->draw(ui, y0, h);
	if (h > 0 && ui->sort_menu)
		gt_sortmenu_draw(ui, y0, h);
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
	unsigned int need = view_needs(ui);
	int ret;

	if (need & GT_NEED_OBJECTS && !gt_objects_due(&ui->s, now_ns(), ui->delay_ns))
		need = (need & ~(unsigned int)GT_NEED_OBJECTS) | GT_KEEP_OBJECTS;
	/* While paused only the header's figures are needed (history). */
	if (ui->paused)
		need = GT_NEED_COUNTERS | GT_NEED_RING | GT_NEED_GTT;
	ret = gt_sample(&ui->s, need);
	if (ret == 0 && ui->s.hangs_new) {
		/* The newest hang goes on the banner until acknowledged. */
		ui->hang = ui->s.hangs[ui->s.nhangs - 1];
		ui->hang_banner = true;
		ui->s.hangs_new = 0;
	}
	if (ret == 0 && !ui->paused) {
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
	char path[64], tmp[72];
	bool ok;
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
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	/* Whole or not at all: a script waiting for the file reads it
	 * only once it is complete. */
	f = fopen(tmp, "w");
	ok = f && fwrite(sb.buf, 1, sb.len, f) == sb.len;
	if (f && fclose(f))
		ok = false;
	if (ok && rename(tmp, path))
		ok = false;
	if (ok) {
		gt_ui_banner(ui, "exported the frame to %s", path);
	} else {
		gt_ui_banner(ui, "export to '%s' failed: %s", path, strerror(errno));
		unlink(tmp);
	}
	strbuf_release(&sb);
}

void gt_ui_set_view(struct gt_ui *ui, unsigned int view)
{
	ui->view = view % gt_nviews;
	ui->scroll = 0;
	ui->detail = false;
	ui->events_follow = true;
	/* The new view may need files the last sample did not read. */
	if (!ui->paused)
		take_sample(ui);
}

/* The view whose class is v (the search goes to the objects). */
static unsigned int view_index(const struct gt_view_class *v)
{
	unsigned int i;

	for (i = 0; i < gt_nviews; i++)
		if (gt_views[i] == v)
			return i;
	return 0;
}

/* The view a key shows, or -1. */
static int view_of_key(int ch)
{
	unsigned int i;

	for (i = 0; i < gt_nviews; i++)
		if (gt_views[i]->key == ch)
			return (int)i;
	return -1;
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

	switch (ui->input) {
	case GT_IN_SEARCH:
		memcpy(ui->search, ui->inbuf, sizeof(ui->search) - 1);
		ui->search[sizeof(ui->search) - 1] = '\0';
		break;
	case GT_IN_FILTER: {
		const struct gt_view_class *v = gt_views[ui->view];
		struct gt_filter nf;

		if (v->filter_parse(ui->inbuf, &nf, &err)) {
			gt_ui_banner(ui, "filter not changed: %s", err.buf);
			break;
		}
		/* The objects view's filter is the model's. */
		if (v == &gt_objects_view) {
			ui->model.filter = nf;
			refresh_model(ui);
		} else {
			ui->filters[ui->view] = nf;
		}
		gt_ui_banner(ui, ui->inbuf[0] ? "%s filter: %s" : "%s filter cleared",
			     v->name, ui->inbuf);
		break;
	}
	case GT_IN_DELAY:
		if (gt_parse_delay(ui->inbuf, &ns)) {
			gt_ui_banner(ui, "delay not changed: '%s' is not a duration "
				     "from 50ms to 1 day", ui->inbuf);
		} else {
			ui->delay_ns = ns;
			gt_ui_banner(ui, "delay %.1f s", (double)ns / 1e9);
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
	} else if (ch == 0x15) {	/* Ctrl-U: the whole line, as readline */
		ui->inbuf[0] = '\0';
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

/* A movement the view left to the default: scroll its body. */
static void scroll_body(struct gt_ui *ui, enum gt_action a, long page)
{
	long delta = gt_action_delta(a, 1, page), v;

	if (!delta)
		return;
	v = (long)ui->scroll + delta;
	ui->scroll = (size_t)(v < 0 ? 0 : v);
	ui->events_follow = false;
}

static void toggle_invert(struct gt_ui *ui)
{
	ui->model.invert = !ui->model.invert;
	refresh_model(ui);
	gt_ui_banner(ui, "sort by %s %s", gt_col_name(ui->model.sort),
		     ui->model.invert ? "inverted" : "normal");
}

static bool sorts_objects(enum gt_action a)
{
	return a == GT_ACT_SORT_NEXT || a == GT_ACT_SORT_PREV || a == GT_ACT_INVERT ||
	       a == GT_ACT_SORT_MENU || a == GT_ACT_SORT_SIZE || a == GT_ACT_SORT_AGE || a == GT_ACT_SORT_OFFSET;
}

static void handle_key(struct gt_ui *ui, int ch)
{
	const struct gt_view_class *view = gt_views[ui->view];
	long page = ui->rows > 12 ? ui->rows - 10 : 1;
	enum gt_action a;
	int v;

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
	if (ui->setup) {
		gt_setup_key(ui, ch);
		return;
	}
	if (ui->sort_menu) {
		enum gt_col c;

		if (gt_sortmenu_key(ui, ch, &c) == GT_SORTMENU_CHOSEN)
			set_sort(ui, c);
		return;
	}
	a = gt_key_action(ch);
	v = view_of_key(ch);
	/* The sort keys order the objects: elsewhere they would change an
	 * order nobody sees and say so as if they had done something. */
	if (sorts_objects(a) && view != &gt_objects_view && !ui->help) {
		/* A view with a sort of its own (clients) takes these; its
		 * columns have no menu: F6 steps to the next. */
		if (view->handle_key &&
		    view->handle_key(ui, a == GT_ACT_SORT_MENU ? GT_ACT_SORT_NEXT : a, page))
			return;
		gt_ui_banner(ui, "the %s view has no sort; the Objects view (1) has",
			     view->name);
		return;
	}
	if (ui->help && a != GT_ACT_QUIT) {
		ui->help = false;
		return;
	}
	if (v >= 0) {
		gt_ui_set_view(ui, (unsigned int)v);
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
		gt_ui_set_view(ui, view_index(&gt_objects_view));
		start_input(ui, GT_IN_SEARCH, "");
		break;
	case GT_ACT_SEARCH_NEXT:
		if (ui->search[0])
			search_step(ui, ui->sel + 1);
		break;
	case GT_ACT_FILTER:
		/* An empty line: type the new filter (Enter alone clears it,
		 * Esc keeps it); the current one shows in the prompt. */
		if (!view->filter_parse)
			gt_ui_banner(ui, "the %s view has no filter", view->name);
		else
			start_input(ui, GT_IN_FILTER, "");
		break;
	case GT_ACT_ACK:
		ui->hang_banner = false;
		break;
	case GT_ACT_SETUP:
		ui->setup = true;
		ui->setup_row = 0;
		break;
	case GT_ACT_SORT_NEXT:
	case GT_ACT_SORT_PREV:
	case GT_ACT_INVERT:
		if (a == GT_ACT_SORT_PREV)
			set_sort(ui, (enum gt_col)((ui->model.sort + GT_COL_COUNT - 1) %
						   GT_COL_COUNT));
		else if (a == GT_ACT_INVERT)
			toggle_invert(ui);
		else
			set_sort(ui, (enum gt_col)((ui->model.sort + 1) % GT_COL_COUNT));
		break;
	case GT_ACT_SORT_MENU:
		gt_sortmenu_open(ui);
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
		gt_ui_set_view(ui, ui->view + 1);
		break;
	case GT_ACT_VIEW_PREV:
		gt_ui_set_view(ui, ui->view + gt_nviews - 1);
		break;
	case GT_ACT_UP: case GT_ACT_DOWN: case GT_ACT_LEFT: case GT_ACT_RIGHT:
	case GT_ACT_PGUP: case GT_ACT_PGDN: case GT_ACT_HOME: case GT_ACT_END:
	case GT_ACT_ENTER:
		/* The view's, else the default. */
		if (!view->handle_key || !view->handle_key(ui, a, page))
			scroll_body(ui, a, page);
		break;
	case GT_ACT_BACK:
		ui->help = false;
		ui->detail = false;
		break;
	case GT_ACT_VIEW_KEYS:
	case GT_ACT_NONE:
		break;
	}
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
	ui.view = opts->view >= 1 && (unsigned int)opts->view <= gt_nviews ?
		  (unsigned int)opts->view - 1 : 0;
	ui.events_follow = true;
	strbuf_init(&ui.detail_bytes, 0);
	gt_model_init(&ui.model);
	ui.model.sort = (enum gt_col)opts->sort;
	ui.model.invert = opts->invert;
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
	screen = gt_term_start(&ui);
	if (!screen) {
		const char *term = getenv("TERM");

		fprintf(stderr, "gemtop: cannot drive terminal '%s'; use -b for batch "
			"output\n", term ? term : "");
		gt_sampler_release(&ui.s);
		return GT_EXIT_FAIL;
	}

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
	gt_term_stop(screen);
	gt_sample_release(&ui.frozen);
	gt_model_release(&ui.model);
	strbuf_release(&ui.detail_bytes);
	gt_sampler_release(&ui.s);
	return ret;
}
