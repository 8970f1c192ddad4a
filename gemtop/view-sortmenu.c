/*
 * The sort menu (F6, as htop's "Sort by" panel): the Objects view's
 * columns in a list over the left of its table; Up/Down choose, Enter sorts
 * by the chosen column, Esc or F6 closes it unchanged.  It opens on the
 * column in force.  The keys are the key table's actions, so the menu
 * moves with the keys the rest of gemtop moves with.
 */
#include "view.h"

#define MENU_W 16

void gt_sortmenu_open(struct gt_ui *ui)
{
	ui->sort_menu = true;
	ui->sort_menu_row = ui->model.sort < GT_COL_COUNT ? ui->model.sort : 0;
}

/* Over the table's column header and first rows; the summary line above
 * stays. */
void gt_sortmenu_draw(struct gt_ui *ui, int y0, int h)
{
	unsigned int i;
	int y = y0 + 1;

	if (h < 4)
		return;
	gt_attr_on(ui, GT_C_HEADER);
	gt_putf(ui, y++, 0, "%-*s", MENU_W, "Sort by");
	gt_attr_off(ui, GT_C_HEADER);
	for (i = 0; i < GT_COL_COUNT && y < y0 + h - 1; i++, y++) {
		enum gt_color c = i == ui->sort_menu_row ? GT_C_SELECTED : GT_C_NONE;

		gt_attr_on(ui, c);
		gt_putf(ui, y, 0, "%c %-*s", i == ui->model.sort ? '*' : ' ',
			MENU_W - 2, gt_col_name((enum gt_col)i));
		gt_attr_off(ui, c);
	}
	gt_attr_on(ui, GT_C_KEYS);
	gt_putf(ui, y, 0, "%-*s", MENU_W, "Enter sort Esc");
	gt_attr_off(ui, GT_C_KEYS);
}

enum gt_sortmenu_result gt_sortmenu_key(struct gt_ui *ui, int ch, enum gt_col *chosen)
{
	enum gt_action a = gt_key_action(ch);
	long v, delta = gt_action_delta(a, 1, GT_COL_COUNT);

	if (delta) {
		v = (long)ui->sort_menu_row + delta;
		v = v < 0 ? 0 : v >= GT_COL_COUNT ? GT_COL_COUNT - 1 : v;
		ui->sort_menu_row = (unsigned int)v;
		return GT_SORTMENU_OPEN;
	}
	switch (a) {
	case GT_ACT_ENTER:
		ui->sort_menu = false;
		*chosen = (enum gt_col)ui->sort_menu_row;
		return GT_SORTMENU_CHOSEN;
	case GT_ACT_BACK:
	case GT_ACT_SORT_MENU:
		ui->sort_menu = false;
		return GT_SORTMENU_CANCELLED;
	case GT_ACT_QUIT:
		ui->quit = true;
		return GT_SORTMENU_CANCELLED;
	default:
		return GT_SORTMENU_OPEN;
	}
}
