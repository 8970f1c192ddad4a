/*
 * What gemtop can show from a tree without the structured gemkit_* files
 * (a real Linux 3.x kernel's /sys/kernel/debug, or an old saved copy): the
 * bound objects from the describe_obj lines of the i915_gem_<list> files
 * and the ring from i915_gem_seqno, i915_ringbuffer_info and
 * i915_gem_request.  What those files do not carry (owners, ages,
 * evictions, unbound objects, the emitted seqno when no request is
 * outstanding) stays empty, and the header says which files are missing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemtop.h"
#include "util.h"

/* Append the objects of one list file (its header and Total lines are
 * skipped).  Ids: gemd's, from the pointer; else a running number. */
int gt_era_objects(const char *buf, size_t len, enum gdfs_list list,
		   struct gdfs_objects *out)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = (size_t)((nl ? nl : end) - p);
		struct gdfs_era_obj e;
		struct gdfs_object *o;

		if (gdfs_parse_era_obj(p, l, &e) == 0) {
			o = realloc(out->v, (out->n + 1) * sizeof(*o));
			if (!o)
				return -ENOMEM;
			out->v = o;
			o = &out->v[out->n];
			memset(o, 0, sizeof(*o));
			o->id = gdfs_era_obj_id(e.ptr);
			if (!o->id)
				o->id = (uint32_t)out->n + 1;
			o->size = e.size;
			o->list = list;
			o->read = e.read;
			o->write = e.write;
			o->pin = e.pin != ' ';
			o->user_pin = e.pin == 'P';
			o->fence = e.fence;
			o->tiling = gdfs_tiling_of_letter(e.tiling);
			o->madv = e.purgeable ? GDFS_MADV_DONTNEED : GDFS_MADV_WILLNEED;
			o->dirty = e.dirty;
			o->active = list == GDFS_LIST_ACTIVE || list == GDFS_LIST_FLUSHING;
			o->last_read_seqno = e.last_rendering_seqno;
			o->name = e.name;
			if (e.bound) {
				o->gtt_offset = e.gtt_offset;
				o->gtt_size = e.gtt_size;
			}
			out->n++;
		}
		p = nl ? nl + 1 : end;
	}
	/* The index is rebuilt on the next lookup. */
	free(out->index);
	out->index = NULL;
	return 0;
}

/* The render ring from i915_gem_seqno (completed), i915_ringbuffer_info
 * (registers) and i915_gem_request ("    %d @ %d", age in jiffies of
 * 1 ms on gemd; emitted is the newest request's seqno). */
int gt_era_ring(const char *seqno, size_t seqno_len, const char *info, size_t info_len,
		const char *req, size_t req_len, struct gdfs_ring *out)
{
	struct gdfs_era_seqno sq;
	struct gdfs_era_ringinfo ri;
	const char *p = req, *end = req ? req + req_len : NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "render");
	ret = gdfs_parse_era_seqno(seqno, seqno_len, &sq, NULL);
	if (ret < 0)
		return ret;
	out->completed_seqno = sq.current;
	out->emitted_seqno = sq.current;
	out->irq_seqno = sq.irq;
	out->waiting_seqno = sq.has_waiter ? sq.waiter : 0;
	if (info && gdfs_parse_era_ringinfo(info, info_len, &ri, NULL) == 0) {
		out->head = ri.head;
		out->tail = ri.tail;
		out->size = ri.size;
		out->acthd = ri.active;
		out->ctl = ri.ctl;
		out->start = ri.start;
	}
	while (req && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = (size_t)((nl ? nl : end) - p);
		unsigned int s, age;
		char line[96];

		if (l >= sizeof(line))
			l = sizeof(line) - 1;
		memcpy(line, p, l);
		line[l] = '\0';
		p = nl ? nl + 1 : end;
		if (sscanf(line, " %u @ %u", &s, &age) != 2)
			continue;
		{
			struct gdfs_request *r = realloc(out->requests,
							 (out->nrequests + 1) * sizeof(*r));

			if (!r)
				return -ENOMEM;
			out->requests = r;
			memset(&r[out->nrequests], 0, sizeof(*r));
			r[out->nrequests].seqno = s;
			r[out->nrequests].age_ns = (uint64_t)age * 1000000ull;
			out->nrequests++;
			out->emitted_seqno = s;
		}
	}
	out->outstanding = (uint32_t)out->nrequests;
	out->idle = !out->nrequests;
	return 0;
}
