/*
 * An error-state text as a capture: libgemdebugfs parses the text
 * (gdfs_parse_error_state, the later kernels' ascii85 buffer lines too);
 * we turn the buffer lists into objects and the dumped buffers into their
 * contents.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "gemdebugfs.h"
#include "regs.h"
#include "util.h"

int gd_capture_add_error_regs(struct gd_capture *c, const struct gdfs_error_state *es)
{
	static const char *const names[] = {
		"EIR", "PGTBL_ER", "IPEIR", "IPEHR", "INSTDONE", "INSTPM",
	};
	uint32_t vals[] = { es->eir, es->pgtbl_er, es->ipeir, es->ipehr, es->instdone,
			    es->instpm };
	struct gd_rec_ring *r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!gd_capture_add_register(c, names[i], vals[i]))
			return -ENOMEM;
	if (es->has_faddr && !gd_capture_add_register(c, "FADDR", es->faddr))
		return -ENOMEM;
	snprintf(c->header.error_time, sizeof(c->header.error_time), "%s", es->time);
	c->header.guilty_seqno = es->guilty_seqno;
	c->header.guilty_file = es->guilty_file;
	c->header.guilty_pid = es->guilty_pid;
	memcpy(c->header.guilty_comm, es->guilty_comm, sizeof(c->header.guilty_comm) - 1);
	memcpy(c->header.hang_kind, es->hang_kind, sizeof(c->header.hang_kind) - 1);
	c->header.detect_ns = es->detect_ns;
	if (!c->nrings && !gd_capture_add_ring(c))
		return -ENOMEM;
	r = &c->rings[0];
	if (!r->name[0])
		snprintf(r->name, sizeof(r->name), "render");
	r->flags |= GD_RING_HAS_ERROR_REGS;
	r->ipeir = es->ipeir;
	r->ipehr = es->ipehr;
	r->instdone = es->instdone;
	r->instpm = es->instpm;
	r->eir = es->eir;
	r->pgtbl_er = es->pgtbl_er;
	r->err_head = es->head;
	r->err_tail = es->tail;
	r->err_acthd = es->acthd;
	r->err_seqno = es->seqno;
	if (es->has_faddr) {
		r->flags |= GD_RING_HAS_FADDR;
		r->err_faddr = es->faddr;
	}
	if (!c->nfences) {
		for (i = 0; i < es->nfences && i < ARRAY_SIZE(es->fences); i++) {
			struct gd_rec_fence *f = gd_capture_add_fence(c);

			if (!f)
				return -ENOMEM;
			f->index = (uint32_t)i;
			f->value = es->fences[i];
		}
	}
	return 0;
}

static struct gd_rec_object *add_era_obj(struct gd_capture *c, const struct gdfs_era_obj *e,
					 uint32_t list, uint32_t id)
{
	struct gd_rec_object *o = gd_capture_add_object(c);

	if (!o)
		return NULL;
	o->id = id;
	o->size = e->size;
	o->gtt_offset = e->gtt_offset;
	o->gtt_size = e->gtt_size ? e->gtt_size : e->size;
	o->flags = GD_OBJ_BOUND | (e->dirty ? GD_OBJ_DIRTY : 0) |
		   (list == 2 ? GD_OBJ_ACTIVE : 0);
	o->read = e->read;
	o->write = e->write;
	o->pin = e->pin != ' ';
	o->user_pin = e->pin == 'P';
	o->fence = e->fence;
	o->tiling = gdfs_tiling_of_letter(e->tiling);
	o->madv = e->purgeable ? 1 : 0;
	o->list = list;
	o->last_read_seqno = e->last_rendering_seqno;
	o->name = e->name;
	return o;
}

static int convert(const struct gdfs_error_state *es, struct gd_capture *c)
{
	struct gd_rec_ring *r;
	uint32_t next_id = 1;
	size_t i;
	int ret;

	c->header.reason = GD_REASON_ERROR_STATE;
	c->device.pci_id = es->pci_id;
	c->device.gen = 3;
	c->device.nfences = es->nfences;
	r = gd_capture_add_ring(c);
	if (!r)
		return -ENOMEM;
	snprintf(r->name, sizeof(r->name), "render");
	r->head = es->head;
	r->tail = es->tail;
	r->acthd = es->acthd;
	r->completed_seqno = es->seqno;
	ret = gd_capture_add_error_regs(c, es);
	if (ret)
		return ret;
	if (!gd_capture_add_register(c, "HEAD", es->head) ||
	    !gd_capture_add_register(c, "TAIL", es->tail) ||
	    !gd_capture_add_register(c, "ACTHD", es->acthd))
		return -ENOMEM;
	for (i = 0; i < es->nrequests; i++) {
		struct gd_rec_request *q = gd_capture_add_request(c);

		if (!q)
			return -ENOMEM;
		q->seqno = es->requests[i].seqno;
		q->tail = es->requests[i].tail;
		snprintf(q->ring, sizeof(q->ring), "render");
		if (q->seqno > r->emitted_seqno)
			r->emitted_seqno = q->seqno;
	}
	r = NULL;
	for (i = 0; i < es->nactive; i++)
		if (!add_era_obj(c, &es->active[i], 2, next_id++))
			return -ENOMEM;
	for (i = 0; i < es->npinned; i++)
		if (!add_era_obj(c, &es->pinned[i], 4, next_id++))
			return -ENOMEM;
	/* Without a request list, the newest seqno an object waits for. */
	for (i = 0; i < c->nobjects; i++)
		if (c->objects[i].last_read_seqno > c->rings[0].emitted_seqno)
			c->rings[0].emitted_seqno = c->objects[i].last_read_seqno;
	return gd_capture_add_error_buffers(c, es, false, next_id);
}

int gd_capture_add_error_buffers(struct gd_capture *c, const struct gdfs_error_state *es,
				 bool batches_only, uint32_t next_id)
{
	size_t i;

	for (i = 0; i < es->nbuffers; i++) {
		const struct gdfs_err_buffer *b = &es->buffers[i];
		bool is_ring = !strcmp(b->name, "ring");
		struct gd_rec_object *o = NULL;
		uint64_t bytes = 4ull * b->ndwords, size;
		size_t k, idx;
		uint8_t *data;

		if (batches_only && strcmp(b->name, "batch"))
			continue;
		/* A live object at the same place may hold other bytes now:
		 * then the error state's copy is an object of its own. */
		for (k = 0; !batches_only && k < c->nobjects; k++)
			if (c->objects[k].gtt_offset == b->gtt_offset)
				o = &c->objects[k];
		if (!o) {
			o = gd_capture_add_object(c);
			if (!o)
				return -ENOMEM;
			o->id = next_id++;
			o->gtt_offset = b->gtt_offset;
			o->flags = GD_OBJ_BOUND;
			o->fence = -1;
			o->size = o->gtt_size = ALIGN_UP(bytes ? bytes : 4096, 4096);
		}
		idx = (size_t)(o - c->objects);
		if (c->data[idx])
			continue;	/* dumped twice: keep the first */
		o->flags |= is_ring ? GD_OBJ_RING : GD_OBJ_BATCH;
		if (is_ring)
			c->rings[0].ring_obj = o->id, c->rings[0].start = b->gtt_offset;
		size = MAX(o->size, bytes);
		/* Sizes come from the text: none is past what a GTT maps (a
		 * fuzzed "1.3 GB" object ran the reader out of memory). */
		if (size > GEN3_GTT_MAX_SIZE)
			return -EFBIG;
		o->size = size;
		data = calloc(1, size ? size : 1);
		if (!data || gd_capture_own(c, data)) {
			free(data);
			return -ENOMEM;
		}
		for (k = 0; k < b->ndwords; k++) {
			uint32_t v = b->dwords[k];

			data[4 * k] = (uint8_t)v;
			data[4 * k + 1] = (uint8_t)(v >> 8);
			data[4 * k + 2] = (uint8_t)(v >> 16);
			data[4 * k + 3] = (uint8_t)(v >> 24);
		}
		c->data[idx] = data;
	}
	return 0;
}

int gd_capture_from_error_state(const char *buf, size_t len, const char *source,
				struct gd_capture *c, struct strbuf *err)
{
	struct gdfs_error_state es;
	int ret;

	gd_capture_init(c);
	c->header.time_ns = now_realtime_ns();
	snprintf(c->header.tool_version, sizeof(c->header.tool_version), "gemdump %s",
		 PACKAGE_VERSION);
	gd_capture_set_source(c, source);
	ret = gdfs_parse_error_state(buf, len, &es, err);
	if (ret)
		goto out;
	if (!es.present) {
		if (err)
			strbuf_addstr(err, "no error state collected");
		ret = -ENOENT;
	} else {
		ret = convert(&es, c);
	}
	gdfs_error_state_release(&es);
out:
	if (ret)
		gd_capture_release(c);
	return ret;
}
