/*
 * gemtop's terminal front end: the state the views share, the colour
 * roles, and the view classes.
 *
 * A view is a class (htop's Panel/Meter idea): one view-<name>.c file
 * exports a const struct gt_view_class saying what the view is called,
 * which key shows it, what it needs sampled, how it draws and which keys
 * it takes, and views.def lists the classes in tab order.  view.c walks
 * that list: the tabs, the number keys, the help screen and what each
 * refresh samples all come from it.  See "Adding a gemtop view" in
 * DEVELOPERS.md.
 *
 * Only the front end includes this header (and so curses); the views draw
 * what sample.c and model.c computed.
 */
#ifndef GEMKIT_GEMTOP_VIEW_H
#define GEMKIT_GEMTOP_VIEW_H

#include "provide-curses.h"
#include "gemtop.h"

/*
 * Colour roles (htop's CRT_colors idea): views name what a thing is, and
 * ui.c's role table says how it looks with colours and without.  Never a
 * raw pair number or attribute in a view.
 */
enum gt_color {
	GT_C_NONE, GT_C_TITLE, GT_C_BAR, GT_C_BAR_PINNED, GT_C_FREE, GT_C_INACTIVE,
	GT_C_ACTIVE, GT_C_PINNED, GT_C_FENCED, GT_C_BANNER, GT_C_ERROR, GT_C_TAB,
	GT_C_TAB_CURRENT,	/* the tab of the view shown */
	GT_C_HEADER,		/* a table's column header */
	GT_C_SELECTED,		/* the selected row */
	GT_C_CURSOR,		/* the GTT map's cursor cell */
	GT_C_PROMPT,		/* "Search: " */
	GT_C_KEYS,		/* the status line's key list */
	GT_C_HANG,		/* the hang banner and the hang rows of Events */
	GT_C_COUNT,
};

enum gt_action {
	GT_ACT_NONE, GT_ACT_QUIT, GT_ACT_HELP, GT_ACT_SEARCH, GT_ACT_SEARCH_NEXT,
	GT_ACT_FILTER, GT_ACT_SORT_NEXT, GT_ACT_SORT_PREV, GT_ACT_INVERT,
	GT_ACT_SORT_SIZE, GT_ACT_SORT_AGE, GT_ACT_SORT_OFFSET, GT_ACT_PAUSE,
	GT_ACT_DELAY, GT_ACT_EXPORT, GT_ACT_REDRAW, GT_ACT_VIEW_NEXT,
	GT_ACT_VIEW_PREV,
	GT_ACT_VIEW_KEYS,	/* the views' own keys (their classes hold them) */
	GT_ACT_UP, GT_ACT_DOWN, GT_ACT_LEFT, GT_ACT_RIGHT,
	GT_ACT_PGUP, GT_ACT_PGDN, GT_ACT_HOME, GT_ACT_END, GT_ACT_ENTER,
	GT_ACT_BACK,
	GT_ACT_ACK,		/* acknowledge the hang banner */
	GT_ACT_SETUP,		/* the setup screen (F2) */
	GT_ACT_SORT_MENU,	/* the sort menu (F6) */
};

struct gt_key {
	int keys[3];		/* curses key codes; 0 ends the list */
	const char *label;	/* "q F10" as the help screen shows it */
	enum gt_action action;
	const char *help;
};
extern const struct gt_key gt_keys[];
enum gt_action gt_key_action(int ch);

enum gt_input { GT_IN_NONE, GT_IN_SEARCH, GT_IN_FILTER, GT_IN_DELAY };

struct gt_ui {
	struct gt_opts opts;
	struct gt_sampler s;
	struct gt_model model;
	uint64_t model_stamp;		/* objs_real_ns the model was built on */
	unsigned int view;		/* index in gt_views[] */
	bool help, detail, paused, color, ascii, quit;
	struct gt_sample frozen;	/* the paused frame */
	const struct gt_sample *shown;	/* frozen or s.cur */
	uint64_t delay_ns;
	/* objects view */
	size_t sel, top;
	uint32_t sel_id;
	char search[64];
	/* GTT map cursor: a cell index; the grid as last drawn */
	size_t gtt_cell, gtt_ncells;
	int gtt_w;
	/* scroll of the clients, rings and events bodies */
	size_t scroll;
	bool events_follow;
	/* detail of one object */
	uint32_t detail_id;
	struct strbuf detail_bytes;
	/* a one-line >>> banner, shown until banner_until */
	char banner[160];
	uint64_t banner_until;
	enum gt_input input;
	char inbuf[128];
	/* Each view's filter (the objects view's is model.filter). */
	struct gt_filter filters[8];
	/* The newest hang gemtop saw, on a banner until acknowledged (a). */
	struct gt_hang hang;
	bool hang_banner;
	/* The setup screen: shown, and its selected row. */
	bool setup;
	unsigned int setup_row;
	/* The sort menu (F6): shown, and its selected column. */
	bool sort_menu;
	unsigned int sort_menu_row;
	int rows, cols;
};

/*
 * A view.  Every slot but handle_key is set.
 */
struct gt_view_class {
	const char *name;	/* its tab: "Objects" */
	int key;		/* the key that shows it: '1' */
	const char *help;	/* its line in the help screen: "objects" */
	/* What a refresh must read for it, beyond the header's
	 * (GT_NEED_HEADER) and the events every view keeps. */
	unsigned int needs;
	/* Draw the body: rows y0 to y0 + h - 1 (h > 0; ui->shown is set). */
	void (*draw)(struct gt_ui *ui, int y0, int h);
	/* A movement or Enter while the view is shown; page is a page's
	 * rows.  Returns false to leave the key to the default (scroll the
	 * body by ui->scroll).  NULL: always the default. */
	bool (*handle_key)(struct gt_ui *ui, enum gt_action a, long page);
	/* Parse a filter for this view (its own terms; an unknown term is an
	 * error, with a did-you-mean).  NULL: the view has no filter. */
	int (*filter_parse)(const char *text, struct gt_filter *f, struct strbuf *err);
};

/* views.def: the classes, in tab order. */
#define GT_VIEW(class) extern const struct gt_view_class class;
#include "views.def"
#undef GT_VIEW
extern const struct gt_view_class *const gt_views[];
extern const unsigned int gt_nviews;

/* How far a movement action moves, in steps of step (page for PgUp/PgDn,
 * everything for Home/End); 0 for any other action. */
long gt_action_delta(enum gt_action a, long step, long page);
/* The filter of the view shown. */
const struct gt_filter *gt_ui_filter(const struct gt_ui *ui);
/* Show the view (resets scroll and detail; samples what it needs). */
void gt_ui_set_view(struct gt_ui *ui, unsigned int view);

/* ui.c: the terminal, the colour roles and drawing helpers. */
void gt_ui_banner(struct gt_ui *ui, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int gt_ui_attr(const struct gt_ui *ui, enum gt_color c);
void gt_attr_on(const struct gt_ui *ui, enum gt_color c);
void gt_attr_off(const struct gt_ui *ui, enum gt_color c);
void gt_colors_init(struct gt_ui *ui);
/* Start curses on the terminal (NULL: it cannot be driven); stop it. */
SCREEN *gt_term_start(struct gt_ui *ui);
void gt_term_stop(SCREEN *screen);
/* Draw text clipped to the screen width at (y, x). */
void gt_put(struct gt_ui *ui, int y, int x, const char *s);
void gt_putf(struct gt_ui *ui, int y, int x, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A line the width of the screen in role c (a column header). */
void gt_put_line(struct gt_ui *ui, int y, enum gt_color c, const char *text);

/* view-setup.c: the setup screen (F2) and its keys; leaving it saves
 * gemtoprc. */
void gt_setup_draw(struct gt_ui *ui);
void gt_setup_key(struct gt_ui *ui, int ch);
/* view-sortmenu.c: the Objects view's sort menu (F6).  The key handler
 * says whether a column was chosen (*chosen) or the menu closed. */
enum gt_sortmenu_result {
	GT_SORTMENU_OPEN, GT_SORTMENU_CHOSEN, GT_SORTMENU_CANCELLED,
};
void gt_sortmenu_open(struct gt_ui *ui);
void gt_sortmenu_draw(struct gt_ui *ui, int y0, int h);
enum gt_sortmenu_result gt_sortmenu_key(struct gt_ui *ui, int ch, enum gt_col *chosen);
/* header.c: the header; returns the number of rows it used. */
int gt_draw_header(struct gt_ui *ui);

/* view-objects.c: keep the selection on the same object across refreshes. */
void gt_objects_reselect(struct gt_ui *ui);
/* view-events.c: one event as the events view and the detail show it. */
void gt_event_format(const struct gt_ui *ui, const struct gdfs_event *e, char *line,
		     size_t size);

#endif
