/*
 * The GTT map view: the aperture as a grid of cells, each showing the
 * most constrained state of what it covers (pinned > fenced > active >
 * inactive > free), the fragmentation figures, and a cursor that names the
 * object owning the offset under it.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "util.h"

enum cell { CELL_FREE, CELL_INACTIVE, CELL_ACTIVE, CELL_FENCED, CELL_PINNED };
#define CELL_STATE	0x7f	/* a cell byte: its enum cell ... */
#define CELL_ODD	0x80	/* ... and the parity of its object */

static const char cell_char[] = ".iAFP";
static const enum gt_color cell_color[] = {
	GT_C_FREE, GT_C_INACTIVE, GT_C_ACTIVE, GT_C_FENCED, GT_C_PINNED,
};

static enum cell range_cell(const struct gdfs_gtt_range *r)
{
	if (r->hole)
		return CELL_FREE;
	if (r->pin)
		return CELL_PINNED;
	if (r->fence >= 0)
		return CELL_FENCED;
	if (r->list == GDFS_LIST_ACTIVE || r->list == GDFS_LIST_FLUSHING)
		return CELL_ACTIVE;
	return CELL_INACTIVE;
}

static void cursor_line(struct gt_ui *ui, int y, uint64_t per)
{
	const struct gt_sample *c = ui->shown;
	uint64_t addr = (uint64_t)ui->gtt_cell * per;
	const struct gdfs_gtt_range *r = gdfs_gtt_lookup(&c->gtt, addr);
	const struct gdfs_object *o = NULL;
	char sz[16], own[48] = "-";

	if (!r) {
		gt_putf(ui, y, 0, "0x%08" PRIx64 ": outside the aperture", addr);
		return;
	}
	gt_fmt_size(r->size, sz, sizeof(sz));
	if (r->hole) {
		gt_putf(ui, y, 0, "0x%08" PRIx64 ": hole 0x%08" PRIx64 " size %s", addr,
			r->start, sz);
		return;
	}
	if (c->have & GT_NEED_OBJECTS)
		o = gdfs_objects_find((struct gdfs_objects *)&c->objs, r->obj);
	if (o)
		gt_fmt_owner(o, own, sizeof(own));
	gt_putf(ui, y, 0, "0x%08" PRIx64 ": obj %u at 0x%08" PRIx64 " size %s %s%s%s "
		"owner %s", addr, r->obj, r->start, sz, gdfs_list_name(r->list),
		r->pin ? " pinned" : "", r->fence >= 0 ? " fenced" : "", own);
}

static void gtt_draw(struct gt_ui *ui, int y0, int h)
{
	const struct gt_sample *c = ui->shown;
	const struct gdfs_gtt *g = &c->gtt;
	unsigned char *cells;
	uint64_t per, free_b;
	size_t ncells, grid, i, k;
	unsigned char odd;
	int w = ui->cols, rows = h - 3, y;
	char hole[16], fr[16], per_s[16];

	if (!(c->have & GT_NEED_GTT) || !g->total) {
		gt_put(ui, y0, 0, "this source has no gemkit_gtt");
		return;
	}
	free_b = g->free;
	gt_fmt_size(g->largest_hole, hole, sizeof(hole));
	gt_fmt_size(free_b, fr, sizeof(fr));
	if (rows < 1 || w < 10) {
		gt_putf(ui, y0, 0, "holes %" PRIu64 " free %s largest %s", g->holes, fr, hole);
		return;
	}
	grid = (size_t)rows * (size_t)w;
	/* Whole pages per cell, so a cell never splits a page. */
	per = (g->total + grid - 1) / grid;
	per = (per + 4095) & ~4095ull;
	ncells = (size_t)((g->total + per - 1) / per);
	gt_fmt_size(per, per_s, sizeof(per_s));
	gt_putf(ui, y0, 0, "ranges %" PRIu64 "  holes %" PRIu64 "  free %s  largest hole %s"
		"  fragmentation %.0f%%  cell %s",
		g->ranges, g->holes, fr, hole,
		free_b ? 100.0 * (1.0 - (double)g->largest_hole / (double)free_b) : 0.0,
		per_s);
	/* The legend has a line of its own, so no width cuts it. */
	gt_put(ui, y0 + h - 2, 0, ". free  i inactive  A active  F fenced  P pinned  "
	       "_ every other object underlined");
	cells = calloc(ncells, 1);
	if (!cells)
		return;
	/*
	 * Neighbouring objects in one state would merge into one run of
	 * letters: every other object is underlined (CELL_ODD), so where one
	 * ends and the next begins shows.  A cell takes the state and the
	 * parity of the most constrained object it covers.
	 */
	for (i = 0, odd = 0; i < g->n; i++) {
		const struct gdfs_gtt_range *r = &g->v[i];
		enum cell st = range_cell(r);
		size_t first, last;

		if (st == CELL_FREE || !r->size)
			continue;
		first = (size_t)(r->start / per);
		last = (size_t)((r->start + r->size - 1) / per);
		for (k = first; k <= last && k < ncells; k++)
			if ((cells[k] & CELL_STATE) < st)
				cells[k] = (unsigned char)(st | odd);
		odd ^= CELL_ODD;
	}
	ui->gtt_ncells = ncells;
	ui->gtt_w = w;
	if (ui->gtt_cell >= ncells)
		ui->gtt_cell = ncells - 1;
	for (k = 0, y = y0 + 1; k < ncells; k++) {
		enum cell st = (enum cell)(cells[k] & CELL_STATE);
		enum gt_color role = k == ui->gtt_cell ? GT_C_CURSOR : cell_color[st];
		chtype under = (cells[k] & CELL_ODD) ? A_UNDERLINE : A_NORMAL;

		gt_attr_on(ui, role);
		mvaddch(y + (int)(k / (size_t)w), (int)(k % (size_t)w),
			(chtype)cell_char[st] | under);
		gt_attr_off(ui, role);
	}
	free(cells);
	cursor_line(ui, y0 + h - 1, per);
}

/* The cursor moves over the cells: a row is the grid's width. */
static bool gtt_key(struct gt_ui *ui, enum gt_action a, long page)
{
	long n = (long)ui->gtt_ncells, v, delta;

	switch (a) {
	case GT_ACT_UP:
	case GT_ACT_DOWN:
		delta = gt_action_delta(a, ui->gtt_w > 0 ? ui->gtt_w : 1, page);
		break;
	case GT_ACT_LEFT:
		delta = -1;
		break;
	case GT_ACT_RIGHT:
		delta = 1;
		break;
	default:
		delta = gt_action_delta(a, 1, page);
		break;
	}
	if (!delta)
		return false;
	if (!n)
		return true;
	v = (long)ui->gtt_cell + delta;
	ui->gtt_cell = (size_t)(v < 0 ? 0 : v >= n ? n - 1 : v);
	return true;
}

const struct gt_view_class gt_gtt_view = {
	.name = "GTT map",
	.key = '2',
	.help = "GTT map",
	/* The owner of the range under the cursor. */
	.needs = GT_NEED_OBJECTS,
	.draw = gtt_draw,
	.handle_key = gtt_key,
};
