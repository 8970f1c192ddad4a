/*
 * The ring files: requests, seqnos, interrupts, the hardware status page,
 * the ring's registers and contents, the batch buffers in flight (all in
 * the Linux 3.2 formats; the 945G has only the render ring), and gemkit's
 * structured gemkit_ring.  Dumps use "%08x :  %08x" so that
 * intel_dump_decode -d 0x2772 reads them directly.
 *
 * i915_gem_request prints the age of a request in jiffies; gemd's jiffy
 * is a millisecond (HZ=1000).
 */
#include <errno.h>

#include "debugfs_priv.h"
#include "util.h"

#define RING_NAME	"render ring"

int fmt_dword_dump(struct strbuf *sb, const uint32_t *dw, size_t n, bool per_page)
{
	size_t i, chunk = 4096;

	for (i = 0; i < n; i += chunk) {
		size_t j, end = MIN(n, i + chunk);
		/* "%08x :  %08x\n" is 21 bytes */
		char *p = sb_reserve(sb, (end - i) * 21 + 1);

		if (!p)
			return -ENOMEM;
		for (j = i; j < end; j++) {
			uint32_t off = (uint32_t)(j * 4);

			p = fmt_hex8(p, per_page ? off & 4095 : off);
			p = fmt_lit(p, " :  ");
			p = fmt_hex8(p, dw[j]);
			*p++ = '\n';
		}
		sb_commit(sb, p);
	}
	return 0;
}

DEBUGFS_SNAP_SHOW(debugfs_show_gem_request)
{
	size_t i;
	int ret;

	if (!snap->nreqs) {
		ret = strbuf_addstr(sb, "No requests\n");
	} else {
		ret = strbuf_addstr(sb, "Render requests:\n");
		for (i = 0; !ret && i < snap->nreqs; i++) {
			uint64_t age = snap->taken_ns > snap->reqs[i].emitted_ns ?
				       snap->taken_ns - snap->reqs[i].emitted_ns : 0;

			ret = strbuf_addf(sb, "    %d @ %d\n", (int32_t)snap->reqs[i].seqno,
					  (int)(age / 1000000));
		}
	}
	return ret;
}

static int emit_seqno_lines(struct strbuf *sb, const struct debugfs_snapshot *snap)
{
	return strbuf_addf(sb,
			   "Current sequence (%s): %d\n"
			   "Waiter sequence (%s):  %d\n"
			   "IRQ sequence (%s):     %d\n",
			   RING_NAME, (int32_t)snap->hw_seqno,
			   RING_NAME, (int32_t)snap->waiting_seqno,
			   RING_NAME, (int32_t)snap->irq_seqno);
}

DEBUGFS_SNAP_SHOW(debugfs_show_gem_seqno)
{
	return emit_seqno_lines(sb, snap);
}

DEBUGFS_SNAP_SHOW(debugfs_show_gem_interrupt)
{
	int ret;

	ret = strbuf_addf(sb,
			  "Interrupt enable:    %08x\n"
			  "Interrupt identity:  %08x\n"
			  "Interrupt mask:      %08x\n"
			  "Pipe %c stat:         %08x\n"
			  "Pipe %c stat:         %08x\n"
			  "Interrupts received: %d\n",
			  snap->ier, snap->iir, snap->imr, 'A', snap->pipea_stat,
			  'B', snap->pipeb_stat, (int)snap->irq_count);
	if (!ret)
		ret = emit_seqno_lines(sb, snap);
	return ret;
}

DEBUGFS_SNAP_SHOW(debugfs_show_gem_hws)
{
	unsigned int i;
	char *p;

	/* i < 4096 / sizeof(u32) / 4: only the first KiB, 64 lines of 58 bytes. */
	p = sb_reserve(sb, 64 * 58 + 1);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < 4096 / 4 / 4; i += 4) {
		p = fmt_lit(p, "0x");
		p = fmt_hex8(p, i * 4);
		p = fmt_lit(p, ": 0x");
		p = fmt_hex8(p, snap->hws[i]);
		p = fmt_lit(p, " 0x");
		p = fmt_hex8(p, snap->hws[i + 1]);
		p = fmt_lit(p, " 0x");
		p = fmt_hex8(p, snap->hws[i + 2]);
		p = fmt_lit(p, " 0x");
		p = fmt_hex8(p, snap->hws[i + 3]);
		*p++ = '\n';
	}
	sb_commit(sb, p);
	return 0;
}

DEBUGFS_SNAP_SHOW(debugfs_show_ringbuffer_info)
{
	return strbuf_addf(sb,
			   "Ring %s:\n"
			   "  Head :    %08x\n"
			   "  Tail :    %08x\n"
			   "  Size :    %08x\n"
			   "  Active :  %08x\n"
			   "  NOPID :   %08x\n"
			   "  Control : %08x\n"
			   "  Start :   %08x\n",
			   RING_NAME, snap->head & HEAD_ADDR, snap->tail & TAIL_ADDR,
			   GEM_RING_SIZE, snap->acthd, snap->nopid, snap->ctl, snap->start);
}

DEBUGFS_SNAP_SHOW(debugfs_show_ringbuffer_data)
{
	int ret;

	if (!snap->ring)
		ret = strbuf_addstr(sb, "No ringbuffer setup\n");
	else
		ret = fmt_dword_dump(sb, snap->ring, snap->ring_size / 4, false);
	return ret;
}

DEBUGFS_SNAP_SHOW(debugfs_show_batchbuffers)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < snap->nbatches; i++) {
		const struct snap_batch *b = &snap->batches[i];

		ret = strbuf_addf(sb, "--- gtt_offset = 0x%08x\n", b->gtt_offset);
		/* i915_dump_object restarts the offset on every page. */
		if (!ret)
			ret = fmt_dword_dump(sb, b->data, b->size / 4, true);
	}
	return ret;
}

DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_ring)
{
	struct gdfs_ring ring = {
		.name = "render",
		.head = snap->head,
		.tail = snap->tail,
		.acthd = snap->acthd,
		.start = snap->start,
		.ctl = snap->ctl,
		.size = GEM_RING_SIZE,
		.emitted_seqno = snap->next_seqno - 1,
		.completed_seqno = snap->hw_seqno,
		.waiting_seqno = snap->waiting_seqno,
		.irq_seqno = snap->irq_seqno,
		.outstanding = (uint32_t)snap->nreqs,
		.idle = snap->gpu_idle,
		.stopped = snap->gpu_stopped,
		.wedged = snap->wedged,
	};
	size_t i;
	char *p;
	int ret;

	ret = debugfs_schema_ring(sb);
	if (ret)
		return ret;
	/* The ring's record and its requests' in one go: a few dozen lines. */
	p = sb_reserve(sb, debugfs_ring_max + snap->nreqs * debugfs_request_max);
	if (!p)
		return -ENOMEM;
	p = debugfs_fmt_ring(p, &ring);
	for (i = 0; i < snap->nreqs; i++) {
		const struct snap_request *rq = &snap->reqs[i];
		struct gdfs_request r = {
			.seqno = rq->seqno,
			.tail = rq->tail,
			.age_ns = snap->taken_ns > rq->emitted_ns ? snap->taken_ns - rq->emitted_ns : 0,
			.file = rq->file_id,
			.pid = rq->pid,
		};

		p = debugfs_fmt_request(p, &r);
	}
	sb_commit(sb, p);
	return 0;
}
