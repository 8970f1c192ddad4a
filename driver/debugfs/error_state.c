/*
 * i915_error_state: the text of the first capture since the last clear
 * (driver/gem/error.h keeps it as data), and the write that clears it;
 * gemkit_errors/<n>: the same text for each kept record of hang n;
 * gemkit_sysfs_error: i915_error_state as Linux 6.1 prints it (below).
 *
 * The text is the 3.4 layout of shared/reference/i915-debugfs-formats.md
 * §4.4, which intel_error_decode decodes cleanly, plus the ring's FADDR
 * line as 3.10+ print it for every gen (after INSTPM; intel_error_decode
 * passes it through), which the model makes the faulting address after a
 * page-table error, plus gemd's lines about the guilty client at the end.  None of those starts with "<hex> :", so
 * era parsers never take them for dwords, and none holds a keyword the
 * decoder acts on (HEAD:, ACTHD:, PCI ID: ...).
 *
 * gemkit_sysfs_error is the same capture as Linux 6.1 prints it in sysfs
 * card0/error, which the interposer serves beside its engine/rcs0: the
 * engine's name for the ring ("rcs0 command stream:"), each buffer as
 * "rcs0 --- batch = 0x%08x %08x" (high, low) then one line of "~" and
 * its dwords in ascii85 (print_error_vma without zlib).  IGT looks the
 * engine's name up in the buffer line and compares "%08x :  %08x" dump
 * lines only until a line starting ':' or '~', so on 6.1 it compares
 * none: the batch it reads back after ending its spinner is not the one
 * captured.  intel_error_decode and libgemdebugfs (gemdump) decode both.
 */
#include <errno.h>

#include "debugfs_priv.h"
#include "error.h"
#include "log.h"

/* How an error state names the ring and prints its buffers. */
struct error_naming {
	const char *ring;	/* before " --- " */
	const char *stream;	/* before " command stream:" */
	const char *batch;	/* the batch's and the ring's buffer names */
	const char *ringbuf;
	bool ascii85;		/* 6.1: offsets high and low, dumps in ascii85 */
};

static const struct error_naming naming_3x = {
	"render ring", "render", "gtt_offset", "ringbuffer", false,
};

const struct error_naming debugfs_error_naming_engines = {
	"rcs0", "rcs0", "batch", "ring", true,
};

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

/* One u32 in ascii85 as the kernel's ascii85_encode: 'z' for 0, else
 * five digits '!'..'u', most significant first. */
static char *ascii85_word(char *p, uint32_t v)
{
	int i;

	if (!v) {
		*p++ = 'z';
		return p;
	}
	for (i = 4; i >= 0; i--) {
		p[i] = (char)('!' + v % 85);
		v /= 85;
	}
	return p + 5;
}

/* "~" and the dwords in ascii85, one line. */
static int format_ascii85(struct strbuf *sb, const uint32_t *dw, size_t n)
{
	char *p = sb_reserve(sb, n * 5 + 3);
	size_t i;

	if (!p)
		return -ENOMEM;
	*p++ = '~';
	for (i = 0; i < n; i++)
		p = ascii85_word(p, dw[i]);
	*p++ = '\n';
	sb_commit(sb, p);
	return 0;
}

/* A buffer's header, then its dwords: "%08x :  %08x" per dword, offsets
 * from 0, or the ascii85 line. */
static int format_dump(struct strbuf *sb, const struct error_naming *nm,
		       const char *name, const struct gem_error_buffer *b)
{
	int ret;

	if (!nm->ascii85) {
		ret = strbuf_addf(sb, "%s --- %s = 0x%08x\n", nm->ring, name,
				  b->gtt_offset);
		return ret ? ret : fmt_dword_dump(sb, b->dwords, b->ndwords, false);
	}
	ret = strbuf_addf(sb, "%s --- %s = 0x%08x %08x\n", nm->ring, name, 0u,
			  b->gtt_offset);
	return ret ? ret : format_ascii85(sb, b->dwords, b->ndwords);
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

struct format_arg {
	struct strbuf *sb;
	const struct error_naming *nm;
};

/* The whole file for capture e (NULL: none kept); arg a format_arg. */
static int format_error_state(const struct gem_error_state *e, void *arg)
{
	const struct format_arg *fa = arg;
	const struct error_naming *nm = fa->nm;
	struct strbuf *sb = fa->sb;
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
		ret = strbuf_addf(sb, "%s command stream:\n"
				  "  HEAD: 0x%08x\n  TAIL: 0x%08x\n  ACTHD: 0x%08x\n"
				  "  IPEIR: 0x%08x\n  IPEHR: 0x%08x\n  INSTDONE: 0x%08x\n"
				  "  INSTPM: 0x%08x\n  FADDR: 0x%08x\n  seqno: 0x%08x\n"
				  "  ring->head: 0x%08x\n  ring->tail: 0x%08x\n",
				  nm->stream, e->head, e->tail, e->acthd, e->ipeir, e->ipehr,
				  e->instdone, e->instpm, e->faddr, e->seqno, e->ring_head,
				  e->ring_tail);
	if (!ret)
		ret = format_objs(sb, "Active", e->active, e->nactive);
	if (!ret)
		ret = format_objs(sb, "Pinned", e->pinned, e->npinned);
	for (i = 0; !ret && i < e->nbatch; i++)
		ret = format_dump(sb, nm, nm->batch, &e->batch[i]);
	if (!ret && e->nrequests)
		ret = strbuf_addf(sb, "%s --- %u requests\n", nm->ring, e->nrequests);
	for (i = 0; !ret && i < e->nrequests; i++)
		ret = strbuf_addf(sb, "  seqno 0x%08x, emitted %llu, tail 0x%08x\n",
				  e->requests[i].seqno,
				  (unsigned long long)e->requests[i].emitted,
				  e->requests[i].tail);
	if (!ret)
		ret = format_dump(sb, nm, nm->ringbuf, &e->ring);
	if (!ret)
		ret = format_gemd(sb, e);
	return ret;
}

/* The first capture since the last clear (driver/gem/error.c), named as
 * data says (NULL: the 3.x words). */
DEBUGFS_SHOW(debugfs_show_error_state)
{
	struct format_arg fa = { sb, data ? data : &naming_3x };

	return gem_error_state_with(dev, format_error_state, &fa);
}

/* The record of one hang (a -ENOENT once it is no longer kept). */
DEBUGFS_SHOW(debugfs_show_error_record)
{
	struct format_arg fa = { sb, &naming_3x };

	return gem_error_record_with(dev, (uint64_t)(uintptr_t)data,
				     format_error_state, &fa);
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
