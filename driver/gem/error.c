/*
 * The error state (i915_capture_error_state and i915_error_state of Linux
 * 3.3/3.4): registers, the buffer lists, the batch the GPU was in, the
 * request list and the ring, copied under dev->lock and printed later.
 *
 * The text is the 3.4 layout of shared/reference/i915-debugfs-formats.md
 * §4.4, which intel_error_decode decodes cleanly, plus gemd's lines about
 * the guilty client at the end.  None of those starts with "<hex> :", so
 * era parsers never take them for dwords, and none holds a keyword the
 * decoder acts on (HEAD:, ACTHD:, PCI ID: ...).
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

/* --- formatting --------------------------------------------------------- */

static int format_objs(struct strbuf *sb, const char *what,
		       const struct gem_error_obj *o, uint32_t n)
{
	static const char *const tiling[] = { "", " X", " Y" };
	uint32_t i;
	int ret = strbuf_addf(sb, "%s [%u]:\n", what, n);

	for (i = 0; !ret && i < n; i++, o++) {
		ret = strbuf_addf(sb, "  %08x %8u %04x %04x %08x%s%s%s%s%s%s%s",
				  o->gtt_offset, o->size, o->read_domains,
				  o->write_domain, o->seqno,
				  o->pinned > 0 ? " P" : o->pinned < 0 ? " p" : "",
				  o->tiling < 3 ? tiling[o->tiling] : "",
				  o->dirty ? " dirty" : "",
				  o->purgeable ? " purgeable" : "",
				  o->on_ring ? " " : "", o->on_ring ? "render" : "",
				  " uncached");
		if (!ret && o->name)
			ret = strbuf_addf(sb, " (name: %u)", o->name);
		if (!ret && o->fence >= 0)
			ret = strbuf_addf(sb, " (fence: %d)", o->fence);
		if (!ret)
			ret = strbuf_addch(sb, '\n');
	}
	return ret;
}

static char *hex8(char *p, uint32_t v)
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 7; i >= 0; i--) {
		p[i] = digits[v & 15];
		v >>= 4;
	}
	return p + 8;
}

/* "%08x :  %08x" per dword, offsets continuous from 0. */
static int format_dump(struct strbuf *sb, const char *header,
		       const struct gem_error_buffer *b)
{
	uint32_t i;
	char *p;
	int ret = strbuf_addf(sb, "render ring --- %s = 0x%08x\n", header,
			      b->gtt_offset);

	if (ret || strbuf_grow(sb, (size_t)b->ndwords * 22))
		return ret ? ret : -ENOMEM;
	p = sb->buf + sb->len;
	for (i = 0; i < b->ndwords; i++) {
		p = hex8(p, i * 4);
		memcpy(p, " :  ", 4);
		p = hex8(p + 4, b->dwords[i]);
		*p++ = '\n';
	}
	strbuf_setlen(sb, (size_t)(p - sb->buf));
	return 0;
}

/* A comm is the client's to choose: keep the line one printable word. */
static void clean_comm(char *out, const char *comm, size_t size)
{
	size_t i;

	for (i = 0; i + 1 < size && comm[i]; i++)
		out[i] = comm[i] > ' ' && comm[i] < 0x7f ? comm[i] : '?';
	out[i] = '\0';
}

static int format_gemd(struct strbuf *sb, const struct gem_error_state *e)
{
	char comm[sizeof(e->guilty_comm)];

	clean_comm(comm, e->guilty_comm, sizeof(comm));
	return strbuf_addf(sb,
		"gemd hang kind: %s\n"
		"gemd hang number: %llu\n"
		"gemd guilty seqno: 0x%08x\n"
		"gemd guilty pid: %d\n"
		"gemd guilty comm: %s\n"
		"gemd guilty file: %u\n"
		"gemd submit to detect: %llu ns\n",
		e->kind, (unsigned long long)e->seq, e->guilty_seqno,
		(int)e->guilty_pid, comm[0] ? comm : "-", e->guilty_file,
		(unsigned long long)e->detect_ns);
}

int gem_error_format(const struct gem_error_state *e, struct strbuf *sb)
{
	unsigned int i;
	int ret;

	ret = strbuf_addf(sb, "Time: %lld s %lld us\nPCI ID: 0x%04x\n"
			  "EIR: 0x%08x\nPGTBL_ER: 0x%08x\n",
			  (long long)e->time_s, (long long)e->time_us, GEN3_DEVID,
			  e->eir, e->pgtbl_er);
	for (i = 0; !ret && i < GEN3_NUM_FENCES; i++)
		ret = strbuf_addf(sb, "  fence[%u] = %08x\n", i, e->fences[i]);
	if (!ret)
		ret = strbuf_addf(sb, "render command stream:\n"
				  "  HEAD: 0x%08x\n  TAIL: 0x%08x\n  ACTHD: 0x%08x\n"
				  "  IPEIR: 0x%08x\n  IPEHR: 0x%08x\n  INSTDONE: 0x%08x\n"
				  "  INSTPM: 0x%08x\n  seqno: 0x%08x\n"
				  "  ring->head: 0x%08x\n  ring->tail: 0x%08x\n",
				  e->head, e->tail, e->acthd, e->ipeir, e->ipehr,
				  e->instdone, e->instpm, e->seqno, e->ring_head,
				  e->ring_tail);
	if (!ret)
		ret = format_objs(sb, "Active", e->active, e->nactive);
	if (!ret)
		ret = format_objs(sb, "Pinned", e->pinned, e->npinned);
	for (i = 0; !ret && i < e->nbatch; i++)
		ret = format_dump(sb, "gtt_offset", &e->batch[i]);
	if (!ret && e->nrequests)
		ret = strbuf_addf(sb, "render ring --- %u requests\n", e->nrequests);
	for (i = 0; !ret && i < e->nrequests; i++)
		ret = strbuf_addf(sb, "  seqno 0x%08x, emitted %llu, tail 0x%08x\n",
				  e->requests[i].seqno,
				  (unsigned long long)e->requests[i].emitted,
				  e->requests[i].tail);
	if (!ret)
		ret = format_dump(sb, "ringbuffer", &e->ring);
	if (!ret)
		ret = format_gemd(sb, e);
	return ret;
}
