/* The memory manager's event log (see event.h). */
#include <errno.h>
#include <stdlib.h>

#include "gem_priv.h"
#include "util.h"

int gem_event_log_init(struct gem_event_log *log, uint32_t size)
{
	log->next_seq = 1;
	log->mask = 0;
	log->ring = NULL;
	if (!size || (size & (size - 1)))
		return -EINVAL;
	log->ring = gem_calloc(size, sizeof(*log->ring));
	if (!log->ring)
		return -ENOMEM;
	log->mask = size - 1;
	return 0;
}

void gem_event_log_release(struct gem_event_log *log)
{
	free(log->ring);
	log->ring = NULL;
	log->mask = 0;
}

uint64_t gem_event_log_first(const struct gem_event_log *log)
{
	uint64_t held = log->ring ? (uint64_t)log->mask + 1 : 0;

	return log->next_seq - 1 < held ? 1 : log->next_seq - held;
}

void gem_event(struct gem_device *dev, enum gem_event_type type, uint32_t obj,
	       uint64_t a, uint64_t b, int c)
{
	struct gem_event_log *log = &dev->events;
	struct gem_event *ev;

	gem_assert_held(dev);

	if (!log->ring)
		return;
	ev = &log->ring[log->next_seq & log->mask];
	ev->seq = log->next_seq++;
	ev->ts_ns = now_ns();
	ev->a = a;
	ev->b = b;
	ev->obj = obj;
	ev->type = (uint16_t)type;
	ev->c = (int16_t)c;
}

void gem_event_domain(struct gem_object *obj, uint32_t old_read, uint32_t old_write)
{
	if (old_read == obj->read_domains && old_write == obj->write_domain)
		return;
	gem_event(obj->dev, GEM_EV_DOMAIN, obj->id,
		  (uint64_t)old_read << 32 | old_write,
		  (uint64_t)obj->read_domains << 32 | obj->write_domain, 0);
}
