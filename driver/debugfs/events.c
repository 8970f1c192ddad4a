/*
 * gemkit_events: the memory manager's event log (driver/gem/event.h).
 * The whole buffered log, oldest first, or only the events after a
 * sequence number N: by name (gemkit_events.since.N, which works over the
 * socket too) or by writing "since N" to an open gemkit_events and
 * reading it again from offset 0 (FUSE; see fuse.c).  The events are
 * copied under dev->lock and formatted after.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs_priv.h"

/* The event types in schema order (gdfs_event_type_names). */
_Static_assert((int)GEM_EV_BIND - (int)GEM_EV_BIND == GDFS_EV_BIND &&
	       (int)GEM_EV_UNBIND - (int)GEM_EV_BIND == GDFS_EV_UNBIND &&
	       (int)GEM_EV_EVICT - (int)GEM_EV_BIND == GDFS_EV_EVICT &&
	       (int)GEM_EV_DOMAIN - (int)GEM_EV_BIND == GDFS_EV_DOMAIN &&
	       (int)GEM_EV_SUBMIT - (int)GEM_EV_BIND == GDFS_EV_SUBMIT &&
	       (int)GEM_EV_WAIT - (int)GEM_EV_BIND == GDFS_EV_WAIT &&
	       (int)GEM_EV_RETIRE - (int)GEM_EV_BIND == GDFS_EV_RETIRE &&
	       (int)GEM_EV_PURGE - (int)GEM_EV_BIND == GDFS_EV_PURGE &&
	       (int)GEM_EV_TYPE_COUNT - (int)GEM_EV_BIND == GDFS_EV_OTHER,
	       "enum gem_event_type is gdfs_event_type_names' order, from 1");

/* The record of ev: its a, b and c as event.h says for its type. */
static void event_record(struct gdfs_event *r, const struct gem_event *ev)
{
	*r = (struct gdfs_event){
		.seq = ev->seq,
		.ts_ns = ev->ts_ns,
		.type = ev->type >= GEM_EV_BIND && ev->type < GEM_EV_TYPE_COUNT ?
			(enum gdfs_event_type)(ev->type - GEM_EV_BIND) : GDFS_EV_OTHER,
		.type_name = "unknown",
		.obj = ev->obj,
	};
	switch (ev->type) {
	case GEM_EV_BIND:
	case GEM_EV_UNBIND:
	case GEM_EV_EVICT:
		r->offset = ev->a;
		r->size = ev->b;
		break;
	case GEM_EV_DOMAIN:
		r->old_read = (uint32_t)(ev->a >> 32);
		r->old_write = (uint32_t)ev->a;
		r->read = (uint32_t)(ev->b >> 32);
		r->write = (uint32_t)ev->b;
		break;
	case GEM_EV_SUBMIT:
		r->seqno = (uint32_t)ev->a;
		r->file = (uint32_t)ev->b;
		break;
	case GEM_EV_WAIT:
		r->seqno = (uint32_t)ev->a;
		r->wait_ns = ev->b;
		r->result = ev->c;
		break;
	case GEM_EV_RETIRE:
		r->seqno = (uint32_t)ev->a;
		break;
	case GEM_EV_PURGE:
		r->size = ev->a;
		break;
	default:
		break;
	}
}

int debugfs_events_since(struct gem_device *dev, struct strbuf *sb, uint64_t after)
{
	struct gem_event *evs = NULL;
	struct gdfs_events window = { .v = NULL };
	uint64_t first, next, from, dropped, n, i;
	int ret = 0;

	gem_lock(dev);
	first = gem_event_log_first(&dev->events);
	next = dev->events.next_seq;
	from = after + 1 > first ? after + 1 : first;
	if (from > next)
		from = next;
	dropped = after + 1 < first ? first - (after + 1) : 0;
	n = next - from;
	if (n) {
		evs = malloc(n * sizeof(*evs));
		if (!evs) {
			ret = -ENOMEM;
		} else {
			for (i = 0; i < n; i++)
				evs[i] = *gem_event_log_at(&dev->events, from + i);
		}
	}
	gem_unlock(dev);
	if (ret)
		return ret;

	window.first_seq = first;
	window.next_seq = next;
	window.since = after;
	window.dropped = dropped;
	ret = debugfs_schema_events(sb, &window, n);
	for (i = 0; !ret && i < n; i++) {
		char *p = sb_reserve(sb, debugfs_event_max);
		struct gdfs_event r;

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		event_record(&r, &evs[i]);
		sb_commit(sb, debugfs_fmt_event(p, &r));
	}
	free(evs);
	return ret;
}

DEBUGFS_SHOW(debugfs_show_gemkit_events)
{
	return debugfs_events_since(dev, sb, 0);
}
