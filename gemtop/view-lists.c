/*
 * Views 3-5: clients, rings and events.  Simple scrolling tables over
 * what the sample holds.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "util.h"

static void header_line(struct gt_ui *ui, int y, const char *text)
{
	attron(A_REVERSE);
	gt_putf(ui, y, 0, "%-*s", ui->cols, text);
	attroff(A_REVERSE);
}

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

void gt_draw_clients(struct gt_ui *ui, int y0, int h)
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
	header_line(ui, y0 + 1, line);
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

void gt_draw_rings(struct gt_ui *ui, int y0, int h)
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
	gt_putf(ui, y++, 0, "%u outstanding requests", r->outstanding);
	snprintf(line, sizeof(line), "%10s %10s %10s %6s %7s", "SEQNO", "TAIL", "AGE",
		 "FILE", "PID");
	header_line(ui, y++, line);
	if (ui->scroll >= r->nrequests)
		ui->scroll = r->nrequests ? r->nrequests - 1 : 0;
	for (i = ui->scroll; i < r->nrequests && y < y0 + h; i++, y++) {
		gt_fmt_age(r->requests[i].age_ns, age, sizeof(age));
		gt_putf(ui, y, 0, "%10u 0x%08x %10s %6u %7d", r->requests[i].seqno,
			r->requests[i].tail, age, r->requests[i].file, (int)r->requests[i].pid);
	}
}

/* The filter's words select event types; id:N selects an object. */
static bool event_match(const struct gt_filter *f, const struct gdfs_event *e)
{
	unsigned int i;

	for (i = 0; i < f->nterms; i++) {
		const struct gt_term *t = &f->or_terms[i];

		if (t->kind == GT_TERM_ID && e->obj != t->num)
			return false;
		if (t->kind == GT_TERM_TEXT &&
		    strcmp(gdfs_event_type_name(e->type), t->text) &&
		    strcmp(e->type_name, t->text))
			return false;
	}
	return true;
}

void gt_draw_events(struct gt_ui *ui, int y0, int h)
{
	const struct gt_events *ev = &ui->s.events;
	size_t *idx, n = 0, i, first;
	char line[256];
	int y, body = h - 2;

	gt_putf(ui, y0, 0, "%zu events held, %" PRIu64 " dropped%s", ev->n, ev->dropped,
		ui->events_follow ? "  (following; Up/PgUp to scroll, End to follow)" : "");
	header_line(ui, y0 + 1, "     SEQ   TIME(s) EVENT");
	if (body < 1 || !ev->n)
		return;
	idx = malloc(ev->n * sizeof(*idx));
	if (!idx)
		return;
	for (i = 0; i < ev->n; i++)
		if (event_match(&ui->model.filter, gt_event_at(ev, i)))
			idx[n++] = i;
	/* Following: the newest at the bottom. */
	if (ui->events_follow || ui->scroll + (size_t)body > n)
		ui->scroll = n > (size_t)body ? n - (size_t)body : 0;
	first = ui->scroll;
	for (i = first, y = y0 + 2; i < n && y < y0 + h; i++, y++) {
		gt_event_format(gt_event_at(ev, idx[i]), line, sizeof(line));
		gt_put(ui, y, 0, line);
	}
	free(idx);
}
