/*
 * The rings view: the ring's registers, its seqnos and rates, and the
 * outstanding requests.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

static void rings_draw(struct gt_ui *ui, int y0, int h)
{
	const struct gt_sample *c = ui->shown;
	const struct gdfs_ring *r = &c->ring;
	char age[16], line[256];
	size_t i;
	int y = y0;

	if (!(c->have & GT_NEED_RING)) {
		gt_put(ui, y0, 0, "this source has no gemkit_ring");
		return;
	}
	gt_putf(ui, y++, 0, "Ring %s  HEAD 0x%08x  TAIL 0x%08x  ACTHD 0x%08x  START 0x%08x"
		"  CTL 0x%08x", r->name, r->head, r->tail, r->acthd, r->start, r->ctl);
	{
		uint64_t used = r->size ? ((uint64_t)r->tail - r->head + r->size) % r->size : 0;

		gt_putf(ui, y++, 0, "size %" PRIu64 "  space %" PRIu64 "  %s%s%s", r->size,
			r->size ? r->size - used : 0, r->idle ? "idle" : "busy",
			r->stopped ? "  STOPPED" : "", r->wedged ? "  WEDGED" : "");
	}
	gt_putf(ui, y++, 0, "seqno emitted %u  completed %u  lag %u  waiting %u  irq %u",
		r->emitted_seqno, r->completed_seqno, gt_seqno_lag(r), r->waiting_seqno,
		r->irq_seqno);
	if (ui->s.rates.valid)
		gt_putf(ui, y++, 0, "seqno rate %.1f/s  execbuffers %.1f/s  retires %.1f/s",
			ui->s.rates.seqnos, ui->s.rates.execbuffers, ui->s.rates.retires);
	else
		gt_put(ui, y++, 0, "seqno rate: after the second sample");
	{
		unsigned int retiring = gt_ring_retiring(r);

		/* Completed but not retired is not outstanding: "idle" and
		 * "1 outstanding" would contradict each other. */
		unsigned int pending = r->outstanding > retiring ? r->outstanding - retiring : 0;

		if (retiring)
			gt_putf(ui, y++, 0, "%u outstanding requests (%u completed, not yet "
				"retired)", pending, retiring);
		else
			gt_putf(ui, y++, 0, "%u outstanding requests", pending);
	}
	snprintf(line, sizeof(line), "%10s %10s %10s %6s %7s", "SEQNO", "TAIL", "AGE",
		 "FILE", "PID");
	gt_put_line(ui, y++, GT_C_HEADER, line);
	if (ui->scroll >= r->nrequests)
		ui->scroll = r->nrequests ? r->nrequests - 1 : 0;
	for (i = ui->scroll; i < r->nrequests && y < y0 + h; i++, y++) {
		gt_fmt_age(r->requests[i].age_ns, age, sizeof(age));
		gt_putf(ui, y, 0, "%10u 0x%08x %10s %6u %7d", r->requests[i].seqno,
			r->requests[i].tail, age, r->requests[i].file, (int)r->requests[i].pid);
	}
}

const struct gt_view_class gt_rings_view = {
	.name = "Rings",
	.key = '4',
	.help = "rings",
	.needs = 0,		/* the header reads the ring */
	.draw = rings_draw,
};
