/*
 * gemtop's terminal (htop's CRT.c): starting and ending curses, the
 * colour roles, and the drawing helpers every view uses.
 */
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "util.h"

/*
 * How each role looks.  With colours: the role's pair (its foreground on
 * the terminal's background) plus color_attr; pair names the role whose
 * pair it borrows, 0 for none.  Without colours (-C, NO_COLOR, a
 * monochrome terminal): mono_attr alone.
 */
static const struct gt_role {
	short fg;
	enum gt_color pair;
	int color_attr, mono_attr;
} roles[GT_C_COUNT] = {
	[GT_C_NONE] = { 0, GT_C_NONE, A_NORMAL, A_NORMAL },
	[GT_C_TITLE] = { COLOR_CYAN, GT_C_TITLE, A_BOLD, A_BOLD },
	[GT_C_BAR] = { COLOR_GREEN, GT_C_BAR, A_NORMAL, A_NORMAL },
	[GT_C_BAR_PINNED] = { COLOR_RED, GT_C_BAR_PINNED, A_NORMAL, A_REVERSE },
	[GT_C_FREE] = { -1, GT_C_FREE, A_NORMAL, A_NORMAL },
	[GT_C_INACTIVE] = { COLOR_BLUE, GT_C_INACTIVE, A_NORMAL, A_NORMAL },
	[GT_C_ACTIVE] = { COLOR_GREEN, GT_C_ACTIVE, A_NORMAL, A_NORMAL },
	[GT_C_PINNED] = { COLOR_RED, GT_C_PINNED, A_NORMAL, A_REVERSE },
	[GT_C_FENCED] = { COLOR_MAGENTA, GT_C_FENCED, A_NORMAL, A_NORMAL },
	[GT_C_BANNER] = { COLOR_YELLOW, GT_C_BANNER, A_NORMAL, A_NORMAL },
	[GT_C_ERROR] = { COLOR_RED, GT_C_ERROR, A_NORMAL, A_BOLD },
	[GT_C_TAB] = { COLOR_CYAN, GT_C_TAB, A_BOLD, A_BOLD },
	[GT_C_TAB_CURRENT] = { 0, GT_C_TAB, A_REVERSE | A_BOLD, A_REVERSE | A_BOLD },
	[GT_C_HEADER] = { 0, GT_C_NONE, A_REVERSE, A_REVERSE },
	[GT_C_SELECTED] = { 0, GT_C_NONE, A_REVERSE, A_REVERSE },
	[GT_C_CURSOR] = { 0, GT_C_NONE, A_REVERSE | A_BOLD, A_REVERSE | A_BOLD },
	[GT_C_PROMPT] = { 0, GT_C_NONE, A_BOLD, A_BOLD },
	[GT_C_KEYS] = { 0, GT_C_NONE, A_REVERSE, A_REVERSE },
	[GT_C_HANG] = { COLOR_RED, GT_C_HANG, A_REVERSE | A_BOLD, A_REVERSE | A_BOLD },
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
	const struct gt_role *r = &roles[c];

	if (!ui->color)
		return r->mono_attr;
	return (r->pair ? (int)COLOR_PAIR(r->pair) : 0) | r->color_attr;
}

void gt_attr_on(const struct gt_ui *ui, enum gt_color c)
{
	attron(gt_ui_attr(ui, c));
}

void gt_attr_off(const struct gt_ui *ui, enum gt_color c)
{
	attroff(gt_ui_attr(ui, c));
}

void gt_colors_init(struct gt_ui *ui)
{
	short i;

	if (!ui->color || !has_colors()) {
		ui->color = false;
		return;
	}
	start_color();
	/* The terminal's own colours: readable on light and dark themes. */
	use_default_colors();
	for (i = 1; i < GT_C_COUNT; i++)
		if (roles[i].pair == (enum gt_color)i)
			init_pair(i, roles[i].fg, -1);
}

void gt_put(struct gt_ui *ui, int y, int x, const char *s)
{
	if (y < 0 || y >= ui->rows || x >= ui->cols)
		return;
	/* Clipped in columns: a byte count would cut a line of UTF-8
	 * blocks at a third of the screen. */
	mvaddnstr(y, x, s, (int)gt_fit_columns(s, ui->cols - x));
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

void gt_put_line(struct gt_ui *ui, int y, enum gt_color c, const char *text)
{
	gt_attr_on(ui, c);
	gt_putf(ui, y, 0, "%-*s", ui->cols, text);
	gt_attr_off(ui, c);
}

static bool utf8_locale(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

SCREEN *gt_term_start(struct gt_ui *ui)
{
	SCREEN *screen;

	setlocale(LC_ALL, "");
	ui->ascii = ui->opts.ascii || !utf8_locale();
	/* newterm, not initscr: initscr exits on an unknown terminal. */
	screen = newterm(NULL, stdout, stdin);
	if (!screen)
		return NULL;
	set_term(screen);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	gt_colors_init(ui);
	getmaxyx(stdscr, ui->rows, ui->cols);
	return screen;
}

void gt_term_stop(SCREEN *screen)
{
	endwin();
	delscreen(screen);
}
