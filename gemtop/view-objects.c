/*
 * The objects view: a describe_obj-style table over the model's rows,
 * and the detail of one object (Enter): every field, its recent events
 * and its first bytes.
 */
#include <inttypes.h>
#include <string.h>

#include "view.h"
#include "util.h"

#define DETAIL_BYTES 256
#define DETAIL_EVENTS 6

static bool names_obj(const struct gdfs_event *e, uint32_t id)
{
	return e->obj == id && (e->type == GDFS_EV_BIND || e->type == GDFS_EV_UNBIND ||
				 e->type == GDFS_EV_EVICT || e->type == GDFS_EV_DOMAIN ||
				 e->type == GDFS_EV_PURGE);
}

void gt_objects_reselect(struct gt_ui *ui)
{
	const struct gdfs_objects *o = &ui->shown->objs;
	size_t i;

	for (i = 0; i < ui->model.nrows; i++)
		if (o->v[ui->model.rows[i]].id == ui->sel_id) {
			ui->sel = i;
			return;
		}
	/* The selected object went: stay at the same row. */
	if (ui->sel >= ui->model.nrows)
		ui->sel = ui->model.nrows ? ui->model.nrows - 1 : 0;
	if (ui->model.nrows)
		ui->sel_id = o->v[ui->model.rows[ui->sel]].id;
}

static void object_row(struct gt_ui *ui, const struct gdfs_object *o, char *line,
		       size_t size, bool wide)
{
	char sz[16], dom[24], fl[8], own[48], age[16], off[16];

	gt_fmt_size(o->size, sz, sizeof(sz));
	gt_fmt_domains(o->read, o->write, dom, sizeof(dom));
	gt_fmt_flags(o, fl, sizeof(fl));
	gt_fmt_owner(o, own, sizeof(own));
	gt_fmt_age(gt_obj_age_ns(o, ui->model.now_real_ns), age, sizeof(age));
	if (o->gtt_size)
		snprintf(off, sizeof(off), "%08x", o->gtt_offset);
	else
		snprintf(off, sizeof(off), "-");
	if (wide)
		snprintf(line, size, "%7u %6s %-8s %-9s %-8s %-6s %7u %7u %-22s %5u %6s %5" PRIu64,
			 o->id, sz, gdfs_list_name(o->list), dom, off, fl,
			 o->last_read_seqno, o->last_write_seqno, own, o->name, age,
			 o->evicts);
	else
		snprintf(line, size, "%7u %6s %-8s %-9s %-8s %-6s %-22s", o->id, sz,
			 gdfs_list_name(o->list), dom, off, fl, own);
}

static void draw_objects(struct gt_ui *ui, int y0, int h)
{
	const struct gt_sample *c = ui->shown;
	bool wide = ui->cols >= 110;
	char line[256];
	size_t i;
	int y;

	if (!(c->have & GT_NEED_OBJECTS)) {
		gt_put(ui, y0, 0, ui->s.missing[0] ? "this source has no gemkit_objects" :
		       "(objects not sampled in this frame)");
		return;
	}
	gt_putf(ui, y0, 0, "%zu objects, %zu shown  sort %s %s%s%s", c->objs.n,
		ui->model.nrows, gt_col_name(ui->model.sort),
		ui->model.invert ? "(inverted)" : "", ui->search[0] ? "  search: " : "",
		ui->search);
	/* Say so when the objects are read less often than the header. */
	if (gt_objects_period(&ui->s) > ui->delay_ns && ui->cols >= 100)
		gt_putf(ui, y0, ui->cols - 40, "objects every %.1f s (%.0f ms each)",
			(double)gt_objects_period(&ui->s) / 1e9,
			(double)ui->s.objs_cost_ns / 1e6);
	if (h < 3)
		return;
	if (wide)
		snprintf(line, sizeof(line), "%7s %6s %-8s %-9s %-8s %-6s %7s %7s %-22s %5s %6s %5s",
			 "ID", "SIZE", "LIST", "DOMAINS", "OFFSET", "FLAGS", "RSEQ", "WSEQ",
			 "CLIENT", "NAME", "AGE", "EVICT");
	else
		snprintf(line, sizeof(line), "%7s %6s %-8s %-9s %-8s %-6s %-22s", "ID", "SIZE",
			 "LIST", "DOMAINS", "OFFSET", "FLAGS", "CLIENT");
	gt_put_line(ui, y0 + 1, GT_C_HEADER, line);
	h -= 2;
	/* Keep the selection on screen. */
	if (ui->sel < ui->top)
		ui->top = ui->sel;
	if (ui->sel >= ui->top + (size_t)h)
		ui->top = ui->sel - (size_t)h + 1;
	for (i = ui->top, y = y0 + 2; i < ui->model.nrows && y < y0 + 2 + h; i++, y++) {
		const struct gdfs_object *o = &c->objs.v[ui->model.rows[i]];
		enum gt_color role = o->pin ? GT_C_PINNED :
				     o->list == GDFS_LIST_ACTIVE ? GT_C_ACTIVE : GT_C_NONE;

		if (i == ui->sel)
			role = GT_C_SELECTED;
		object_row(ui, o, line, sizeof(line), wide);
		gt_attr_on(ui, role);
		gt_putf(ui, y, 0, i == ui->sel ? "%-*s" : "%.*s", ui->cols, line);
		gt_attr_off(ui, role);
	}
}

static void detail_load(struct gt_ui *ui)
{
	char name[48];

	strbuf_reset(&ui->detail_bytes);
	if (!ui->s.src)
		return;
	snprintf(name, sizeof(name), "gemkit_object_data/%u", ui->detail_id);
	if (gdfs_read_range(ui->s.src, name, 0, DETAIL_BYTES, &ui->detail_bytes) < 0)
		strbuf_reset(&ui->detail_bytes);
}

static void draw_detail(struct gt_ui *ui, int y0, int h)
{
	const struct gt_sample *c = ui->shown;
	const struct gdfs_object *o = NULL;
	char dom[24], fl[8], age[16], line[256];
	int y = y0, end = y0 + h;
	size_t i, n, shown;
	uint32_t k;

	if (c->have & GT_NEED_OBJECTS)
		o = gdfs_objects_find((struct gdfs_objects *)&c->objs, ui->detail_id);
	gt_attr_on(ui, GT_C_TITLE);
	gt_putf(ui, y++, 0, "Object %u%s   (Enter or Esc: back)", ui->detail_id,
		o ? "" : " (gone)");
	gt_attr_off(ui, GT_C_TITLE);
	if (o) {
		gt_fmt_domains(o->read, o->write, dom, sizeof(dom));
		gt_fmt_flags(o, fl, sizeof(fl));
		gt_fmt_age(gt_obj_age_ns(o, c->real_ns), age, sizeof(age));
		gt_putf(ui, y++, 0, "size %" PRIu64 "  list %s  domains %s (read 0x%02x "
			"write 0x%02x)  flags %s  age %s", o->size, gdfs_list_name(o->list),
			dom, o->read, o->write, fl, age);
		gt_putf(ui, y++, 0, "gtt offset 0x%08x size %" PRIu64 "  pin %u user_pin %u"
			"  fence %d  tiling %s stride %u", o->gtt_offset, o->gtt_size,
			o->pin, o->user_pin, (int)o->fence,
			gdfs_tiling_name(o->tiling),
			o->stride);
		gt_putf(ui, y++, 0, "madv %s  cache %s  dirty %d  active %d  seqno read %u "
			"write %u  flink %u  handles %u", gdfs_madv_name(o->madv),
			gdfs_cache_name(o->cache), o->dirty, o->active, o->last_read_seqno,
			o->last_write_seqno, o->name, o->handles);
		gt_putf(ui, y++, 0, "creator pid %d  binds %" PRIu64 "  evicts %" PRIu64,
			(int)o->creator_pid, o->binds, o->evicts);
		for (k = 0; k < o->nowners && y < end; k++)
			gt_putf(ui, y++, 2, "client file %u pid %d comm %s handle %u",
				o->owners[k].file, (int)o->owners[k].pid, o->owners[k].comm,
				o->owners[k].handle);
	}
	/* Its recent events: the newest few that name it, oldest first. */
	if (y < end)
		gt_put(ui, y++, 0, "Recent events:");
	for (i = 0, n = 0; i < ui->s.events.n; i++)
		if (names_obj(gt_event_at(&ui->s.events, i), ui->detail_id))
			n++;
	shown = 0;
	for (i = 0, k = 0; i < ui->s.events.n && y < end; i++) {
		const struct gdfs_event *e = gt_event_at(&ui->s.events, i);

		if (!names_obj(e, ui->detail_id) || k++ + DETAIL_EVENTS < n)
			continue;
		gt_event_format(ui, e, line, sizeof(line));
		gt_put(ui, y++, 2, line);
		shown++;
	}
	if (!shown && y < end)
		gt_put(ui, y++, 2, "(none held)");
	if (y < end)
		gt_putf(ui, y++, 0, "First %zu bytes:", ui->detail_bytes.len);
	for (i = 0; i < ui->detail_bytes.len && y < end; i += 16, y++) {
		size_t j, len = 0;

		len += (size_t)snprintf(line, sizeof(line), "%08zx ", i);
		for (j = i; j < i + 16 && j < ui->detail_bytes.len; j++)
			len += (size_t)snprintf(line + len, sizeof(line) - len, " %02x",
						(unsigned char)ui->detail_bytes.buf[j]);
		gt_put(ui, y, 0, line);
	}
}

static void objects_draw(struct gt_ui *ui, int y0, int h)
{
	if (ui->detail)
		draw_detail(ui, y0, h);
	else
		draw_objects(ui, y0, h);
}

/* Movement moves the selection; Enter opens and closes the detail, which
 * scrolls by default. */
static bool objects_key(struct gt_ui *ui, enum gt_action a, long page)
{
	long n = (long)ui->model.nrows, v, delta;

	if (a == GT_ACT_ENTER) {
		if (ui->detail) {
			ui->detail = false;
		} else if (n) {
			ui->detail = true;
			ui->detail_id = ui->sel_id;
			ui->scroll = 0;
			detail_load(ui);
		}
		return true;
	}
	delta = gt_action_delta(a, 1, page);
	if (ui->detail || !delta)
		return false;
	if (!n)
		return true;
	v = (long)ui->sel + delta;
	ui->sel = (size_t)(v < 0 ? 0 : v >= n ? n - 1 : v);
	/* Name the selection by its object only while the frame shown holds
	 * the objects the rows index: after a failed sample it may not. */
	if (ui->shown && ui->shown->have & GT_NEED_OBJECTS &&
	    ui->model.rows[ui->sel] < ui->shown->objs.n)
		ui->sel_id = ui->shown->objs.v[ui->model.rows[ui->sel]].id;
	return true;
}

const struct gt_view_class gt_objects_view = {
	.filter_parse = gt_filter_parse,
	.name = "Objects",
	.key = '1',
	.help = "objects",
	.needs = GT_NEED_OBJECTS,
	.draw = objects_draw,
	.handle_key = objects_key,
};
