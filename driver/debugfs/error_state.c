/*
 * i915_error_state: the text of the first capture since the last clear
 * (driver/gem/error.h keeps it as data), and the write that clears it;
 * gemkit_errors/<n>: the same text for each kept record of hang n.
 *
 * The text is the 3.4 layout of shared/reference/i915-debugfs-formats.md
 * §4.4, which intel_error_decode decodes cleanly, plus the ring's FADDR
 * line as 3.10+ print it for every gen (after INSTPM; intel_error_decode
 * passes it through), which the model makes the faulting address after a
 * page-table error, plus gemd's lines about the guilty client at the end.  None of those starts with "<hex> :", so
 * era parsers never take them for dwords, and none holds a keyword the
 * decoder acts on (HEAD:, ACTHD:, PCI ID: ...).
 */
#include <errno.h>

#include "debugfs_priv.h"
#include "error.h"
#include "log.h"

/* The Active and Pinned lists (print_error_buffers of 3.4). */
static int format_objs(struct strbuf *sb, const char *what,
		       const struct gem_error_obj *o, uint32_t n)
{
	uint32_t i;
	int ret = strbuf_addf(sb, "%s [%u]:\n", what, n);

	for (i = 0; !ret && i < n; i++, o++) {
		char tiling[3] = "";

		if (o->tiling == GDFS_TILING_X || o->tiling == GDFS_TILING_Y) {
			tiling[0] = ' ';
			tiling[1] = gdfs_tiling_letter((enum gdfs_tiling)o->tiling);
		}
		ret = strbuf_addf(sb, "  %08x %8u %04x %04x %08x%s%s%s%s%s%s%s",
				  o->gtt_offset, o->size, o->read_domains,
				  o->write_domain, o->seqno,
				  o->pinned > 0 ? " P" : o->pinned < 0 ? " p" : "",
				  tiling,
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

/* A buffer's header, then "%08x :  %08x" per dword, offsets from 0. */
static int format_dump(struct strbuf *sb, const char *header,
		       const struct gem_error_buffer *b)
{
	int ret = strbuf_addf(sb, "render ring --- %s = 0x%08x\n", header, b->gtt_offset);

	return ret ? ret : fmt_dword_dump(sb, b->dwords, b->ndwords, false);
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

/* The whole file for capture e (NULL: none kept); arg is the strbuf. */
static int format_error_state(const struct gem_error_state *e, void *arg)
{
	struct strbuf *sb = arg;
	unsigned int i;
	int ret;

	if (!e)
		return strbuf_addstr(sb, "no error state collected\n");
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
				  "  INSTPM: 0x%08x\n  FADDR: 0x%08x\n  seqno: 0x%08x\n"
				  "  ring->head: 0x%08x\n  ring->tail: 0x%08x\n",
				  e->head, e->tail, e->acthd, e->ipeir, e->ipehr,
				  e->instdone, e->instpm, e->faddr, e->seqno, e->ring_head,
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

/* The first capture since the last clear (driver/gem/error.c). */
DEBUGFS_SHOW(debugfs_show_error_state)
{
	return gem_error_state_with(dev, format_error_state, sb);
}

/* The record of one hang (a -ENOENT once it is no longer kept). */
DEBUGFS_SHOW(debugfs_show_error_record)
{
	return gem_error_record_with(dev, (uint64_t)(uintptr_t)data,
				     format_error_state, sb);
}

/* Any write clears the kept capture, as i915_error_state_write of 3.5+,
 * and the records with it. */
DEBUGFS_WRITE(debugfs_write_error_state)
{
	(void)buf;
	(void)len;
	log_info("debugfs: error state cleared");
	gem_error_state_clear(dev);
	return 0;
}
