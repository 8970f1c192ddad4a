/*
 * The clients view: the open drm files, what they hold and what they
 * lost to eviction.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

/* Evictions an object's owners suffered: the sum over the objects they hold. */
static uint64_t client_evictions(const struct gt_sample *c, uint32_t file)
{
	uint64_t sum = 0;
	size_t i;
	uint32_t k;

	if (!(c->have & GT_NEED_OBJECTS))
		return 0;
	for (i = 0; i < c->objs.n; i++)
		for (k = 0; k < c->objs.v[i].nowners; k++)
			if (c->objs.v[i].owners[k].file == file) {
				sum += c->objs.v[i].evicts;
				break;
			}
	return sum;
}

static void clients_draw(struct gt_ui *ui, int y0, int h)
{
	const struct gt_sample *c = ui->shown;
	char line[256], b[16], bb[16];
	size_t i;
	int y;

	if (!(c->have & GT_NEED_CLIENTS)) {
		gt_put(ui, y0, 0, "(clients not sampled in this frame)");
		return;
	}
	gt_putf(ui, y0, 0, "%zu clients", c->clients.n);
	snprintf(line, sizeof(line), "%6s %7s %-16s %8s %8s %8s %8s %8s", "FILE", "PID",
		 "COMM", "OBJECTS", "BYTES", "BOUND", "REQUESTS", "EVICTED");
	gt_put_line(ui, y0 + 1, GT_C_HEADER, line);
	if (ui->scroll >= c->clients.n)
		ui->scroll = c->clients.n ? c->clients.n - 1 : 0;
	for (i = ui->scroll, y = y0 + 2; i < c->clients.n && y < y0 + h; i++, y++) {
		const struct gdfs_client *cl = &c->clients.v[i];

		gt_fmt_size(cl->handle_bytes, b, sizeof(b));
		gt_fmt_size(cl->bound_bytes, bb, sizeof(bb));
		gt_putf(ui, y, 0, "%6u %7d %-16s %8u %8s %8s %8u %8" PRIu64, cl->file,
			(int)cl->pid, cl->comm, cl->handles, b, bb, cl->requests,
			client_evictions(c, cl->file));
	}
}

const struct gt_view_class gt_clients_view = {
	.name = "Clients",
	.key = '3',
	.help = "clients",
	/* The objects give each client's evictions. */
	.needs = GT_NEED_CLIENTS | GT_NEED_OBJECTS,
	.draw = clients_draw,
};
