/*
 * The setup screen (F2, as htop's): the settings gemtoprc keeps, one a
 * row; Up/Down choose, Left/Right or Space change, and leaving (Esc, F2,
 * q) saves them to gemtoprc for the next gemtop.  The table below is the
 * one list of the rows: drawing, keys and saving read it.
 */
#include <string.h>

#include "util.h"
#include "view.h"

static const uint64_t delays[] = {
	250000000ull, 500000000ull, 1000000000ull, 2000000000ull, 5000000000ull,
	10000000000ull,
};

struct setup_row {
	const char *label;
	/* Show the value; change it by step (+1 or -1). */
	void (*show)(const struct gt_ui *ui, char *out, size_t size);
	void (*change)(struct gt_ui *ui, int step);
};

static void show_delay(const struct gt_ui *ui, char *out, size_t size)
{
	snprintf(out, size, "%.2f s", (double)ui->delay_ns / 1e9);
}

static void change_delay(struct gt_ui *ui, int step)
{
	size_t i, n = ARRAY_SIZE(delays);

	/* The next step up or down from where it is, whatever that is. */
	if (step > 0) {
		for (i = 0; i < n && delays[i] <= ui->delay_ns; i++)
			;
		ui->delay_ns = delays[i < n ? i : n - 1];
	} else {
		for (i = n; i > 0 && delays[i - 1] >= ui->delay_ns; i--)
			;
		ui->delay_ns = delays[i > 0 ? i - 1 : 0];
	}
}

static void show_color(const struct gt_ui *ui, char *out, size_t size)
{
	snprintf(out, size, "%s", ui->color ? "on" : "off");
}

static void change_color(struct gt_ui *ui, int step)
{
	(void)step;
	ui->color = !ui->color;
	gt_colors_init(ui);
}

static void show_ascii(const struct gt_ui *ui, char *out, size_t size)
{
	snprintf(out, size, "%s", ui->ascii ? "yes" : "no");
}

static void change_ascii(struct gt_ui *ui, int step)
{
	(void)step;
	ui->ascii = !ui->ascii;
}

static void show_view(const struct gt_ui *ui, char *out, size_t size)
{
	unsigned int v = ui->opts.view >= 1 ? (unsigned int)ui->opts.view : 1;

	snprintf(out, size, "%u %s", v, gt_views[v - 1]->name);
}

static void change_view(struct gt_ui *ui, int step)
{
	int n = (int)gt_nviews, v = ui->opts.view - 1 + step;

	ui->opts.view = (v % n + n) % n + 1;
}

static void show_sort(const struct gt_ui *ui, char *out, size_t size)
{
	snprintf(out, size, "%s", gt_col_name(ui->model.sort));
}

static void change_sort(struct gt_ui *ui, int step)
{
	ui->model.sort = (enum gt_col)(((int)ui->model.sort + step + GT_COL_COUNT) %
				       GT_COL_COUNT);
	ui->model_stamp = 0;	/* sort again at the next sample */
}

static void show_invert(const struct gt_ui *ui, char *out, size_t size)
{
	snprintf(out, size, "%s", ui->model.invert ? "yes" : "no");
}

static void change_invert(struct gt_ui *ui, int step)
{
	(void)step;
	ui->model.invert = !ui->model.invert;
	ui->model_stamp = 0;
}

static void show_filter(const struct gt_ui *ui, char *out, size_t size)
{
	snprintf(out, size, "%s", ui->model.filter.text[0] ? ui->model.filter.text :
				  "(none; \\ in the Objects view sets it)");
}

static const struct setup_row rows[] = {
	{ "Refresh delay", show_delay, change_delay },
	{ "Colour", show_color, change_color },
	{ "ASCII only", show_ascii, change_ascii },
	{ "Start in view", show_view, change_view },
	{ "Sort objects by", show_sort, change_sort },
	{ "Sort inverted", show_invert, change_invert },
	{ "Objects filter", show_filter, NULL },
};

void gt_setup_draw(struct gt_ui *ui)
{
	char path[4096], val[160];
	unsigned int i;
	int y = 0;

	erase();
	gt_attr_on(ui, GT_C_TITLE);
	gt_put(ui, y++, 0, "gemtop setup - Up/Down choose, Left/Right/Space change, "
	       "Esc saves and returns");
	gt_attr_off(ui, GT_C_TITLE);
	y++;
	for (i = 0; i < ARRAY_SIZE(rows); i++, y++) {
		enum gt_color c = i == ui->setup_row ? GT_C_SELECTED : GT_C_NONE;
		char line[256];

		rows[i].show(ui, val, sizeof(val));
		snprintf(line, sizeof(line), "%-18s %s", rows[i].label, val);
		gt_attr_on(ui, c);
		gt_put(ui, y, 0, line);
		gt_attr_off(ui, c);
	}
	y++;
	if (gt_rc_path(path, sizeof(path)) == 0)
		gt_putf(ui, y, 0, "Saved to %s", path);
}

static void save(struct gt_ui *ui)
{
	struct gt_rc rc;
	char path[4096];
	int ret;

	gt_rc_defaults(&rc);
	rc.delay_ns = ui->delay_ns;
	rc.color = ui->color;
	rc.ascii = ui->ascii;
	rc.view = ui->opts.view >= 1 ? ui->opts.view : 1;
	rc.sort = ui->model.sort;
	rc.invert = ui->model.invert;
	snprintf(rc.filter, sizeof(rc.filter), "%s", ui->model.filter.text);
	ret = gt_rc_path(path, sizeof(path));
	if (!ret)
		ret = gt_rc_save(path, &rc);
	if (ret)
		gt_ui_banner(ui, "settings not saved: %s", strerror(-ret));
	else
		gt_ui_banner(ui, "settings saved to %s", path);
}

void gt_setup_key(struct gt_ui *ui, int ch)
{
	const struct setup_row *r = &rows[ui->setup_row];

	switch (ch) {
	case KEY_UP: case 'k':
		if (ui->setup_row)
			ui->setup_row--;
		break;
	case KEY_DOWN: case 'j':
		if (ui->setup_row + 1 < ARRAY_SIZE(rows))
			ui->setup_row++;
		break;
	case KEY_RIGHT: case 'l': case ' ': case '\n': case '\r': case KEY_ENTER:
		if (r->change)
			r->change(ui, 1);
		break;
	case KEY_LEFT: case 'h':
		if (r->change)
			r->change(ui, -1);
		break;
	case 27: case KEY_F(2): case 'C': case 'q':
		ui->setup = false;
		save(ui);
		break;
	default:
		break;
	}
}
