/*
 * The error state (i915_capture_error_state of Linux 3.3/3.4): registers,
 * the buffer lists, the batch the GPU was in, the request list and the
 * ring, copied under dev->lock.  The capture is data only; its text,
 * i915_error_state, is written by driver/debugfs/error_state.c like every
 * other debugfs file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "error.h"
#include "gem_priv.h"
#include "util.h"

static int copy_buffer(struct gem_error_buffer *b, uint32_t gtt_offset,
		       const void *src, uint64_t size)
{
	b->gtt_offset = gtt_offset;
	b->ndwords = (uint32_t)(size / 4);
	b->dwords = gem_malloc(size ? size : 1);
	if (!b->dwords)
		return -ENOMEM;
	memcpy(b->dwords, src, size);
	return 0;
}

static void capture_obj(struct gem_error_obj *o, const struct gem_object *obj)
{
	memset(o, 0, sizeof(*o));
	o->gtt_offset = gem_object_gtt_offset(obj);
	o->size = (uint32_t)obj->size;
	o->read_domains = obj->read_domains;
	o->write_domain = obj->write_domain;
	o->seqno = obj->last_read_seqno;
	o->name = obj->flink_name;
	o->fence = obj->fence_reg;
	o->pinned = obj->user_pin_count ? -1 : obj->pin_count ? 1 : 0;
	o->tiling = (uint8_t)obj->tiling_mode;
	o->dirty = obj->dirty;
	o->purgeable = obj->madv == I915_MADV_DONTNEED;
	o->on_ring = obj->active;
}

static int capture_list(struct gem_device *dev, enum gem_list l,
			struct gem_error_obj **out, uint32_t *n)
{
	struct gem_object *obj;
	uint32_t count = 0, i = 0;

	list_for_each_entry(obj, &dev->lists[l], list_link)
		count++;
	*out = gem_calloc(count ? count : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	list_for_each_entry(obj, &dev->lists[l], list_link)
		capture_obj(&(*out)[i++], obj);
	*n = count;
	return 0;
}

/* The bound object (not the ring) holding GTT address addr, or NULL. */
static struct gem_object *object_at(struct gem_device *dev, uint32_t addr)
{
	static const enum gem_list lists[] = {
		GEM_LIST_ACTIVE, GEM_LIST_FLUSHING, GEM_LIST_INACTIVE, GEM_LIST_PINNED,
	};
	struct gem_object *obj;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lists); i++)
		list_for_each_entry(obj, &dev->lists[lists[i]], list_link) {
			uint32_t start = gem_object_gtt_offset(obj);

			if (obj == dev->ring || !gem_object_bound(obj))
				continue;
			if (addr >= start && addr - start < obj->size)
				return obj;
		}
	return NULL;
}

static int capture_batches(struct gem_device *dev, struct gem_error_state *e,
			   const struct gem_request *guilty)
{
	struct gem_object *at = object_at(dev, e->acthd);
	struct gem_object *objs[2] = { at, NULL };
	unsigned int i;
	int ret;

	if (guilty && guilty->batch && guilty->batch != at &&
	    gem_object_bound(guilty->batch))
		objs[at ? 1 : 0] = guilty->batch;
	for (i = 0; i < 2 && objs[i]; i++) {
		ret = copy_buffer(&e->batch[i], gem_object_gtt_offset(objs[i]),
				  objs[i]->vaddr, objs[i]->size);
		if (ret)
			return ret;
		e->nbatch++;
	}
	return 0;
}

static int capture_requests(struct gem_device *dev, struct gem_error_state *e)
{
	struct gem_request *rq;
	uint32_t n = 0, i = 0;

	list_for_each_entry(rq, &dev->requests, link)
		n++;
	e->requests = gem_calloc(n ? n : 1, sizeof(*e->requests));
	if (!e->requests)
		return -ENOMEM;
	list_for_each_entry(rq, &dev->requests, link) {
		e->requests[i].seqno = rq->seqno;
		e->requests[i].tail = rq->tail;
		e->requests[i].emitted = rq->emitted_ns / 1000000;
		i++;
	}
	e->nrequests = n;
	return 0;
}

static void capture_regs(struct gem_device *dev, struct gem_error_state *e)
{
	struct gpu *gpu = dev->gpu;
	int i;

	e->eir = gpu_read(gpu, EIR);
	e->pgtbl_er = gpu_read(gpu, PGTBL_ER);
	for (i = 0; i < GEN3_NUM_FENCES; i++)
		e->fences[i] = gpu_read(gpu, fence_reg_offset(i));
	e->head = gpu_read(gpu, PRB0_HEAD);
	e->tail = gpu_read(gpu, PRB0_TAIL);
	e->acthd = gpu_read(gpu, ACTHD);
	e->ipeir = gpu_read(gpu, IPEIR);
	e->ipehr = gpu_read(gpu, IPEHR);
	e->instdone = gpu_read(gpu, INSTDONE);
	e->instpm = gpu_read(gpu, INSTPM);
	e->faddr = gpu_read(gpu, DMA_FADD_I8XX);
	e->seqno = gem_hw_seqno(dev);
	e->ring_head = e->head & HEAD_ADDR;
	e->ring_tail = dev->ring_tail;
}

struct gem_error_state *gem_error_capture(struct gem_device *dev,
					  const struct gem_request *guilty,
					  const char *kind, uint64_t now)
{
	struct gem_error_state *e = gem_calloc(1, sizeof(*e));
	struct timespec ts;

	if (!e)
		return NULL;
	clock_gettime(CLOCK_REALTIME, &ts);
	e->time_s = ts.tv_sec;
	e->time_us = ts.tv_nsec / 1000;
	capture_regs(dev, e);
	snprintf(e->kind, sizeof(e->kind), "%s", kind);
	if (guilty) {
		e->guilty_seqno = guilty->seqno;
		e->guilty_file = guilty->file_id;
		e->guilty_pid = guilty->pid;
		memcpy(e->guilty_comm, guilty->comm, sizeof(e->guilty_comm));
		e->guilty_comm[sizeof(e->guilty_comm) - 1] = '\0';
		e->detect_ns = now - guilty->emitted_ns;
	}
	if (capture_list(dev, GEM_LIST_ACTIVE, &e->active, &e->nactive) ||
	    capture_list(dev, GEM_LIST_PINNED, &e->pinned, &e->npinned) ||
	    capture_batches(dev, e, guilty) || capture_requests(dev, e) ||
	    copy_buffer(&e->ring, gem_object_gtt_offset(dev->ring),
			dev->ring->vaddr, GEM_RING_SIZE)) {
		gem_error_free(e);
		return NULL;
	}
	return e;
}

void gem_error_free(struct gem_error_state *e)
{
	unsigned int i;

	if (!e)
		return;
	free(e->active);
	free(e->pinned);
	for (i = 0; i < e->nbatch; i++)
		free(e->batch[i].dwords);
	free(e->requests);
	free(e->ring.dwords);
	free(e);
}
