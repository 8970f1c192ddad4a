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

#define EVENT_FIELDS "seq,ts_ns,type;bind|unbind|evict:obj,offset,size;" \
	"domain:obj,old_read,old_write,read,write;submit:seqno,file;" \
	"wait:seqno,wait_ns,result;retire:seqno;purge:obj,size"

static char *fmt_event(char *p, const struct gem_event *ev)
{
	p = fmt_lit(p, "seq=");
	p = fmt_u64(p, ev->seq);
	p = fmt_lit(p, " ts_ns=");
	p = fmt_u64(p, ev->ts_ns);
	p = fmt_lit(p, " type=");
	p = fmt_str(p, gem_event_type_name(ev->type));
	switch (ev->type) {
	case GEM_EV_BIND:
	case GEM_EV_UNBIND:
	case GEM_EV_EVICT:
		p = fmt_lit(p, " obj=");
		p = fmt_u64(p, ev->obj);
		p = fmt_lit(p, " offset=0x");
		p = fmt_hex(p, ev->a, 8);
		p = fmt_lit(p, " size=");
		p = fmt_u64(p, ev->b);
		break;
	case GEM_EV_DOMAIN:
		p = fmt_lit(p, " obj=");
		p = fmt_u64(p, ev->obj);
		p = fmt_lit(p, " old_read=0x");
		p = fmt_hex(p, ev->a >> 32, 2);
		p = fmt_lit(p, " old_write=0x");
		p = fmt_hex(p, ev->a & 0xffffffffu, 2);
		p = fmt_lit(p, " read=0x");
		p = fmt_hex(p, ev->b >> 32, 2);
		p = fmt_lit(p, " write=0x");
		p = fmt_hex(p, ev->b & 0xffffffffu, 2);
		break;
	case GEM_EV_SUBMIT:
		p = fmt_lit(p, " seqno=");
		p = fmt_u64(p, ev->a);
		p = fmt_lit(p, " file=");
		p = fmt_u64(p, ev->b);
		break;
	case GEM_EV_WAIT:
		p = fmt_lit(p, " seqno=");
		p = fmt_u64(p, ev->a);
		p = fmt_lit(p, " wait_ns=");
		p = fmt_u64(p, ev->b);
		p = fmt_lit(p, " result=");
		p = fmt_i64(p, ev->c);
		break;
	case GEM_EV_RETIRE:
		p = fmt_lit(p, " seqno=");
		p = fmt_u64(p, ev->a);
		break;
	case GEM_EV_PURGE:
		p = fmt_lit(p, " obj=");
		p = fmt_u64(p, ev->obj);
		p = fmt_lit(p, " size=");
		p = fmt_u64(p, ev->a);
		break;
	default:
		break;
	}
	*p++ = '\n';
	return p;
}

int debugfs_events_since(struct gem_device *dev, struct strbuf *sb, uint64_t after)
{
	struct gem_event *evs = NULL;
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

	ret = strbuf_addf(sb, "schema=gemkit_events version=%d first_seq=%llu next_seq=%llu "
			  "since=%llu dropped=%llu count=%llu fields=" EVENT_FIELDS "\n",
			  GEMKIT_SCHEMA_VERSION, (unsigned long long)first,
			  (unsigned long long)next, (unsigned long long)after,
			  (unsigned long long)dropped, (unsigned long long)n);
	for (i = 0; !ret && i < n; i++) {
		char *p = sb_reserve(sb, 256);

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		sb_commit(sb, fmt_event(p, &evs[i]));
	}
	free(evs);
	return ret;
}

DEBUGFS_SHOW(debugfs_show_gemkit_events)
{
	return debugfs_events_since(dev, sb, 0);
}
