/*
 * gemtop's key table: htop-compatible, and every F-key has a letter (F-keys
 * do nothing in some terminals).  The help screen is drawn from this table,
 * so it cannot drift from what the keys do; the keys that show a view are
 * the views' own (view.h).
 */
#include "view.h"

#define CTRL(c) ((c) & 0x1f)

const struct gt_key gt_keys[] = {
	{ { 'q', KEY_F(10), 0 }, "q F10", GT_ACT_QUIT, "quit (always works)" },
	{ { 'h', '?', KEY_F(1) }, "h ? F1", GT_ACT_HELP, "this help" },
	{ { '/', KEY_F(3), 0 }, "/ F3", GT_ACT_SEARCH, "search objects (id, list, pid, comm)" },
	{ { 'n', 0, 0 }, "n", GT_ACT_SEARCH_NEXT, "next search match" },
	{ { '\\', KEY_F(4), 0 }, "\\ F4", GT_ACT_FILTER,
	  "filter this view (objects: client:X list:L dom:D size>N size<N "
	  "pinned fenced id:N; events: bind submit retire hang ... id:N)" },
	{ { KEY_F(6), 0, 0 }, "F6", GT_ACT_SORT_MENU,
	  "sort by: choose the column from a list (Enter sorts, Esc cancels)" },
	{ { '>', '.', 0 }, "> .", GT_ACT_SORT_NEXT, "sort by the next column" },
	{ { '<', ',', 0 }, "< ,", GT_ACT_SORT_PREV, "sort by the previous column" },
	{ { 'I', 0, 0 }, "I", GT_ACT_INVERT, "invert the sort order" },
	{ { 'S', 0, 0 }, "S", GT_ACT_SORT_SIZE, "sort by size" },
	{ { 'A', 0, 0 }, "A", GT_ACT_SORT_AGE, "sort by age" },
	{ { 'O', 0, 0 }, "O", GT_ACT_SORT_OFFSET, "sort by GTT offset" },
	{ { 'Z', 'z', 0 }, "Z", GT_ACT_PAUSE, "pause drawing (sampling goes on)" },
	{ { 'd', 0, 0 }, "d", GT_ACT_DELAY, "set the refresh delay" },
	{ { 'x', 0, 0 }, "x", GT_ACT_EXPORT, "export the current frame as JSON" },
	{ { CTRL('L'), 0, 0 }, "^L", GT_ACT_REDRAW, "redraw the screen" },
	{ { '\t', 0, 0 }, "Tab", GT_ACT_VIEW_NEXT, "next view" },
	{ { KEY_BTAB, 0, 0 }, "S-Tab", GT_ACT_VIEW_PREV, "previous view" },
	/* Here the help lists each view's key (struct gt_view_class.key). */
	{ { 0, 0, 0 }, "", GT_ACT_VIEW_KEYS, "" },
	{ { KEY_UP, 'k', 0 }, "Up k", GT_ACT_UP, "move up" },
	{ { KEY_DOWN, 'j', 0 }, "Down j", GT_ACT_DOWN, "move down" },
	{ { KEY_LEFT, 0, 0 }, "Left", GT_ACT_LEFT, "move left (GTT map)" },
	{ { KEY_RIGHT, 'l', 0 }, "Right l", GT_ACT_RIGHT, "move right (GTT map)" },
	{ { KEY_PPAGE, 0, 0 }, "PgUp", GT_ACT_PGUP, "page up" },
	{ { KEY_NPAGE, ' ', 0 }, "PgDn Space", GT_ACT_PGDN, "page down" },
	{ { KEY_HOME, 'g', 0 }, "Home g", GT_ACT_HOME, "first row" },
	{ { KEY_END, 'G', 0 }, "End G", GT_ACT_END, "last row" },
	{ { '\n', '\r', KEY_ENTER }, "Enter", GT_ACT_ENTER, "object detail" },
	{ { 27, KEY_BACKSPACE, 127 }, "Esc", GT_ACT_BACK, "close help or detail" },
	{ { 'a', 0, 0 }, "a", GT_ACT_ACK, "acknowledge the GPU hang banner" },
	{ { KEY_F(2), 'C', 0 }, "F2 C", GT_ACT_SETUP,
	  "setup: delay, colour, view, sort, filter (saved to gemtoprc)" },
	{ { 0, 0, 0 }, NULL, GT_ACT_NONE, NULL },
};

enum gt_action gt_key_action(int ch)
{
	const struct gt_key *k;
	int i;

	for (k = gt_keys; k->label; k++)
		for (i = 0; i < 3 && k->keys[i]; i++)
			if (k->keys[i] == ch)
				return k->action;
	return GT_ACT_NONE;
}
