/*
 * Batch buffers as gemdump sees them: the dwords of a batch or ring read
 * from a file, gen3's command lengths and names, and the decoder.
 */
#ifndef GEMKIT_GEMDUMP_BATCH_H
#define GEMKIT_GEMDUMP_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "strbuf.h"

struct gd_dwords {
	uint32_t *v;
	size_t n;
	bool text;		/* the input was text */
	bool has_base;		/* a "--- gtt_offset = 0x..." header gave one */
	uint32_t base;
};

/*
 * Parse batch input: raw little-endian dwords, or text lines
 * "%08x : %08x" (any spacing around the colon, as i915_batchbuffers,
 * i915_ringbuffer_data and error-state sections print), optionally after
 * a "... --- gtt_offset = 0x%08x" or "--- ringbuffer = 0x%08x" header,
 * which gives the base.  Text is input with no byte outside printable
 * ASCII, tab, CR and LF.  Returns 0, or -EINVAL with the line or byte
 * offset of the problem in err.  out->v is malloc'd (free it).
 */
int gd_parse_dwords(const char *buf, size_t len, struct gd_dwords *out,
		    struct strbuf *err);
void gd_dwords_release(struct gd_dwords *d);

struct gen3_cmd;

/* One gen3 command as the command table (lib/gen3/cmds.def) sees it. */
struct gd_cmdinfo {
	const struct gen3_cmd *cmd;	/* NULL: not a gen3 command */
	const char *name;	/* "XY_COLOR_BLT"; "UNKNOWN" */
	uint32_t len;		/* dwords, header included, >= 1 */
	bool known;		/* false: an opcode gen3 does not have */
	bool bad_len;		/* the header's length is wrong for it */
	bool end;		/* MI_BATCH_BUFFER_END */
};

/*
 * The command at dw[0] of avail dwords.  Lengths are the command table's,
 * which gemd's parser also applies; a 3D primitive whose length needs a
 * scan for its terminator is scanned within avail.
 */
void gd_command_info(const uint32_t *dw, size_t avail, struct gd_cmdinfo *out);

/*
 * The GTT addresses a command carries (relocation targets): up to max
 * (address, dword index) pairs; returns how many.
 */
size_t gd_cmd_addresses(const uint32_t *dw, const struct gd_cmdinfo *ci,
			uint32_t *addr, uint32_t *index, size_t max);

/*
 * Decode with libdrm_intel's decoder into out: the text intel_dump_decode
 * prints for the same dwords.  head is a GTT address (tagged HEAD), base
 * the address of v[0].  -ENODEV when libdrm_intel has no decoder for
 * devid, -ENOTSUP when gemdump was built without libdrm_intel.
 */
int gd_decode_text(FILE *out, const uint32_t *v, size_t n, uint32_t base,
		   uint32_t head, uint32_t devid, bool past_end);

#endif
