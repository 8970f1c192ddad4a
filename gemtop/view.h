/*
 * gemtop's curses front end: the state the views share.  Only view*.c and
 * keys.c include curses; they draw what sample.c and model.c computed.
 */
#ifndef GEMKIT_GEMTOP_VIEW_H
#define GEMKIT_GEMTOP_VIEW_H

#include <curses.h>

#include "gemtop.h"

enum gt_view { GT_VIEW_OBJECTS, GT_VIEW_GTT, GT_VIEW_CLIENTS, GT_VIEW_RINGS,
	       GT_VIEW_EVENTS, GT_VIEW_COUNT };

/* Colour roles (htop's CRT_colors idea): never raw pair numbers. */
enum gt_color {
	GT_C_NONE, GT_C_TITLE, GT_C_BAR, GT_C_BAR_PINNED, GT_C_FREE, GT_C_INACTIVE,
	GT_C_ACTIVE, GT_C_PINNED, GT_C_FENCED, GT_C_BANNER, GT_C_ERROR, GT_C_TAB,
	GT_C_COUNT,
};

enum gt_action {
	GT_ACT_NONE, GT_ACT_QUIT, GT_ACT_HELP, GT_ACT_SEARCH, GT_ACT_SEARCH_NEXT,
	GT_ACT_FILTER, GT_ACT_SORT_NEXT, GT_ACT_SORT_PREV, GT_ACT_INVERT,
	GT_ACT_SORT_SIZE, GT_ACT_SORT_AGE, GT_ACT_SORT_OFFSET, GT_ACT_PAUSE,
	GT_ACT_DELAY, GT_ACT_EXPORT, GT_ACT_REDRAW, GT_ACT_VIEW_NEXT,
	GT_ACT_VIEW_PREV, GT_ACT_VIEW1, GT_ACT_VIEW2, GT_ACT_VIEW3, GT_ACT_VIEW4,
	GT_ACT_VIEW5, GT_ACT_UP, GT_ACT_DOWN, GT_ACT_LEFT, GT_ACT_RIGHT,
	GT_ACT_PGUP, GT_ACT_PGDN, GT_ACT_HOME, GT_ACT_END, GT_ACT_ENTER,
	GT_ACT_BACK,
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
	enum gt_view view;
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
	int rows, cols;
};

void gt_ui_banner(struct gt_ui *ui, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int gt_ui_attr(const struct gt_ui *ui, enum gt_color c);
/* Draw text clipped to the screen width at (y, x). */
void gt_put(struct gt_ui *ui, int y, int x, const char *s);
void gt_putf(struct gt_ui *ui, int y, int x, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The header: returns the number of rows it used. */
int gt_draw_header(struct gt_ui *ui);
void gt_draw_objects(struct gt_ui *ui, int y0, int h);
void gt_draw_detail(struct gt_ui *ui, int y0, int h);
void gt_draw_gtt(struct gt_ui *ui, int y0, int h);
void gt_draw_clients(struct gt_ui *ui, int y0, int h);
void gt_draw_rings(struct gt_ui *ui, int y0, int h);
void gt_draw_events(struct gt_ui *ui, int y0, int h);
void gt_draw_help(struct gt_ui *ui);
/* What each view must sample. */
unsigned int gt_view_needs(const struct gt_ui *ui);
/* Objects view: keep the selection on the same object across refreshes. */
void gt_objects_reselect(struct gt_ui *ui);
void gt_event_format(const struct gdfs_event *e, char *line, size_t size);
void gt_detail_load(struct gt_ui *ui);

#endif
