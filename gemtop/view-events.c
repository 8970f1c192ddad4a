/*
 * The events view: the driver's events as they come (following the
 * newest), filtered by type or object.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "view.h"

static void event_line(const struct gdfs_event *e, char *line, size_t size)
{
	char d1[24], d2[24];

	switch (e->type) {
	case GDFS_EV_BIND:
	case GDFS_EV_UNBIND:
	case GDFS_EV_EVICT:
		snprintf(line, size, "%-7s obj %u at 0x%08" PRIx64 " size %" PRIu64,
			 gdfs_event_type_name(e->type), e->obj, e->offset, e->size);
		break;
	case GDFS_EV_DOMAIN:
		gt_fmt_domains(e->old_read, e->old_write, d1, sizeof(d1));
		gt_fmt_domains(e->read, e->write, d2, sizeof(d2));
		snprintf(line, size, "domain  obj %u %s -> %s", e->obj, d1, d2);
		break;
	case GDFS_EV_SUBMIT:
		snprintf(line, size, "submit  seqno %u file %u", e->seqno, e->file);
		break;
	case GDFS_EV_WAIT:
		snprintf(line, size, "wait    seqno %u %" PRIu64 " us result %d", e->seqno,
			 e->wait_ns / 1000, (int)e->result);
		break;
	case GDFS_EV_RETIRE:
		snprintf(line, size, "retire  seqno %u", e->seqno);
		break;
	case GDFS_EV_PURGE:
		snprintf(line, size, "purge   obj %u size %" PRIu64, e->obj, e->size);
		break;
	case GDFS_EV_OTHER:
		snprintf(line, size, "%s", e->type_name);
		break;
	}
}

/*
 * An event's time as the local wall clock, "14:15:49.123": events carry
 * CLOCK_MONOTONIC (gemd runs on this machine), and the sample taken with
 * both clocks gives the offset between them.
 */
static void event_time(const struct gt_ui *ui, uint64_t ts_ns, char *out, size_t size)
{
	const struct gt_sample *c = ui->shown ? ui->shown : ui->s.cur;
	uint64_t real;
	time_t t;
	struct tm tm;
	char hms[16];

	if (!c || !c->real_ns || !c->mono_ns) {
		snprintf(out, size, "%" PRIu64 ".%03" PRIu64, (uint64_t)(ts_ns / 1000000000ull),
			 (uint64_t)(ts_ns / 1000000ull % 1000));
		return;
	}
	real = c->real_ns - c->mono_ns + ts_ns;
	t = (time_t)(real / 1000000000ull);
	if (!localtime_r(&t, &tm) || !strftime(hms, sizeof(hms), "%H:%M:%S", &tm))
		snprintf(hms, sizeof(hms), "?");
	snprintf(out, size, "%s.%03" PRIu64, hms, (uint64_t)(real / 1000000ull % 1000));
}

/* Also the lines of the object detail's recent events. */
void gt_event_format(const struct gt_ui *ui, const struct gdfs_event *e, char *line,
		     size_t size)
{
	char body[160], when[32];

	event_line(e, body, sizeof(body));
	event_time(ui, e->ts_ns, when, sizeof(when));
	snprintf(line, size, "%8" PRIu64 " %12s %s", e->seq, when, body);
}

/* A hang row (gemtop's, from the error state): who, what, which request. */
static void hang_line(const struct gt_ui *ui, const struct gdfs_event *e, char *line,
		      size_t size)
{
	const struct gt_hang *h = gt_hang_find(&ui->s, e->obj);
	char when[32];

	event_time(ui, e->ts_ns, when, sizeof(when));
	snprintf(line, size, "%8s %12s HANG    %u%s%s%s seqno %u", "-", when, e->obj,
		 h && h->kind[0] ? " (" : "", h ? h->kind : "", h && h->kind[0] ? ")" : "",
		 e->seqno);
	if (h && h->pid) {
		size_t l = strlen(line);

		snprintf(line + l, size - l, " pid %d (%s)", (int)h->pid, h->comm);
	}
}

/* The retire of a request a hang was blamed on: it was reset, not done. */
static bool hung_retire(const struct gt_ui *ui, const struct gdfs_event *e)
{
	size_t i;

	if (e->type != GDFS_EV_RETIRE)
		return false;
	for (i = 0; i < ui->s.nhangs; i++)
		if (ui->s.hangs[i].seqno && ui->s.hangs[i].seqno == e->seqno)
			return true;
	return false;
}

static void events_draw(struct gt_ui *ui, int y0, int h)
{
	const struct gt_events *ev = &ui->s.events;
	size_t *idx, n = 0, i, first;
	char line[256];
	int y, body = h - 2;

	gt_putf(ui, y0, 0, "%zu events held, %" PRIu64 " dropped%s", ev->n, ev->dropped,
		ui->events_follow ? "  (following; Up/PgUp to scroll, End to follow)" : "");
	gt_put_line(ui, y0 + 1, GT_C_HEADER, "     SEQ TIME (local) EVENT");
	if (body < 1 || !ev->n)
		return;
	idx = malloc(ev->n * sizeof(*idx));
	if (!idx)
		return;
	for (i = 0; i < ev->n; i++)
		if (gt_event_filter_match(gt_ui_filter(ui), gt_event_at(ev, i)))
			idx[n++] = i;
	/* Following: the newest at the bottom. */
	if (ui->events_follow || ui->scroll + (size_t)body > n)
		ui->scroll = n > (size_t)body ? n - (size_t)body : 0;
	first = ui->scroll;
	for (i = first, y = y0 + 2; i < n && y < y0 + h; i++, y++) {
		const struct gdfs_event *e = gt_event_at(ev, idx[i]);

		if (gt_event_is_hang(e)) {
			hang_line(ui, e, line, sizeof(line));
			gt_put_line(ui, y, GT_C_HANG, line);
			continue;
		}
		gt_event_format(ui, e, line, sizeof(line));
		if (hung_retire(ui, e)) {
			size_t l = strlen(line);

			snprintf(line + l, sizeof(line) - l, "  (hung: reset, not completed)");
		}
		gt_put(ui, y, 0, line);
	}
	free(idx);
}

/* End follows the newest events again. */
static bool events_key(struct gt_ui *ui, enum gt_action a, long page)
{
	if (a != GT_ACT_END)
		return false;
	ui->scroll += (size_t)gt_action_delta(a, 1, page);
	ui->events_follow = true;
	return true;
}

const struct gt_view_class gt_events_view = {
	.name = "Events",
	.key = '5',
	.help = "events",
	.needs = 0,		/* every view keeps the events */
	.draw = events_draw,
	.handle_key = events_key,
	.filter_parse = gt_event_filter_parse,
};
