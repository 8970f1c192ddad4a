/* Gen3 3D commands: lengths parsed and validated, then run by the 3D pipeline. */
#include <stdlib.h>

#include "3d-priv.h"

/* Client 3 opcodes (bits 28:24). */
#define OP3D_1C			0x1c	/* one dword, sub-opcode in bits 23:19 */
#define OP3D_1D			0x1d	/* sub-opcode in bits 23:16 */
#define OP3D_PRIMITIVE		0x1f

/* 3DSTATE_* of the 0x1d class (bits 23:16). */
#define S1D_MAP_STATE		0x00
#define S1D_SAMPLER_STATE	0x01
#define S1D_LOAD_STATE_IMM_2	0x03
#define S1D_LOAD_STATE_IMM_1	0x04
#define S1D_PS_PROGRAM		0x05
#define S1D_PS_CONSTANTS	0x06
#define S1D_LOAD_INDIRECT	0x07
#define S1D_DRAWING_RECTANGLE	0x80
#define S1D_SCISSOR_RECTANGLE	0x81
#define S1D_DEST_BUFFER_VARS	0x85
#define S1D_BUFFER_INFO		0x8e
#define S1D_CLEAR_PARAMETERS	0x9c

#define PRIM_INDIRECT		(1u << 23)
#define PRIM_INDIRECT_ELTS	(1u << 17)
#define PRIM_INLINE_LEN_MASK	0x3ffffu
#define PRIM_INDEX_TERMINATOR	0xffffu
/* A terminated index list longer than this is garbage, not a draw. */
#define PRIM_MAX_SCAN		(1u << 18)

/* One-dword state packets of gen3 (bits 28:24). */
static bool single_dword_op(uint32_t op)
{
	switch (op) {
	case 0x06:	/* 3DSTATE_ANTI_ALIASING */
	case 0x07:	/* 3DSTATE_RASTERIZATION_RULES */
	case 0x08:	/* 3DSTATE_BACKFACE_STENCIL_OPS */
	case 0x09:	/* 3DSTATE_BACKFACE_STENCIL_MASKS */
	case 0x0b:	/* 3DSTATE_INDEPENDENT_ALPHA_BLEND */
	case 0x0c:	/* 3DSTATE_MODES_5 */
	case 0x0d:	/* 3DSTATE_MODES_4 */
	case 0x15:	/* 3DSTATE_FOG_COLOR */
	case 0x16:	/* 3DSTATE_COORD_SET_BINDINGS */
		return true;
	}
	return false;
}

/* 0x1d packets whose length field is bits 15:0, with the allowed range. */
static const struct {
	uint8_t sub;
	uint8_t min_len, max_len;
} fixed_1d[] = {
	{ 0x83, 2, 2 },		/* 3DSTATE_SPAN_STIPPLE */
	{ 0x86, 4, 4 },		/* 3DSTATE_CHROMA_KEY */
	{ 0x88, 2, 2 },		/* 3DSTATE_CONSTANT_BLEND_COLOR */
	{ 0x89, 4, 4 },		/* 3DSTATE_FOG_MODE */
	{ 0x8f, 2, 16 },	/* 3DSTATE_MAP_PALETTE_LOAD_32 */
	{ 0x97, 2, 2 },		/* 3DSTATE_DEPTH_OFFSET_SCALE */
	{ 0x98, 2, 2 },		/* 3DSTATE_DEFAULT_Z */
	{ 0x99, 2, 2 },		/* 3DSTATE_DEFAULT_DIFFUSE */
	{ 0x9a, 2, 2 },		/* 3DSTATE_DEFAULT_SPECULAR */
	{ 0x9d, 65, 65 },	/* 3DSTATE_FILTER_COEFFICIENTS_4X4 */
	{ 0x9e, 4, 4 },		/* 3DSTATE_MONO_FILTER */
};

/* Dwords that the flag bits of a 3DSTATE_LOAD_INDIRECT announce. */
static uint32_t load_indirect_len(uint32_t hdr)
{
	uint32_t len = 1;

	len += hdr & (1u << 8) ? 2 : 0;		/* SIS */
	len += hdr & (1u << 9) ? 1 : 0;		/* DIS */
	len += hdr & (1u << 10) ? 2 : 0;	/* SSB */
	len += hdr & (1u << 11) ? 2 : 0;	/* MSB */
	len += hdr & (1u << 12) ? 2 : 0;	/* PSP */
	len += hdr & (1u << 13) ? 2 : 0;	/* PSC */
	return len;
}

/* Dwords announced by 3DSTATE_LOAD_STATE_IMMEDIATE_2's flag bits 14:6. */
static uint32_t lis2_len(uint32_t hdr)
{
	uint32_t len = 1, bit;

	for (bit = 6; bit <= 14; bit++) {
		if (!(hdr & (1u << bit)))
			continue;
		len += bit == 6 ? 1 : bit <= 10 ? 2 : 5;
	}
	return len;
}

static enum cs_status state_1d_length(uint32_t hdr, uint32_t *len)
{
	uint32_t sub = (hdr >> 16) & 0xff;
	uint32_t want = 0;
	size_t i;

	switch (sub) {
	case S1D_LOAD_INDIRECT:
		/* A zero length field means the header alone. */
		*len = (hdr & 0xff) + 1;
		return *len == load_indirect_len(hdr) ? CS_OK : CS_INVALID;
	case S1D_LOAD_STATE_IMM_1:
		/* One dword per S0..S8 flag (bits 12:4) must follow. */
		*len = (hdr & 0xf) + 2;
		want = 1 + (uint32_t)__builtin_popcount((hdr >> 4) & 0x1ff);
		return *len == want ? CS_OK : CS_INVALID;
	case S1D_LOAD_STATE_IMM_2:
		*len = (hdr & 0xf) + 2;
		return *len == lis2_len(hdr) ? CS_OK : CS_INVALID;
	case S1D_MAP_STATE:
	case S1D_SAMPLER_STATE:
		*len = (hdr & 0x3f) + 2;
		return CS_OK;
	case S1D_PS_CONSTANTS:
		*len = (hdr & 0xff) + 2;
		return CS_OK;
	case S1D_PS_PROGRAM:
		/* Three dwords per instruction, at most 123 instructions. */
		*len = (hdr & 0xff) + 2;
		return (*len - 1) % 3 == 0 && *len <= 370 ? CS_OK : CS_INVALID;
	case S1D_DEST_BUFFER_VARS:
		want = 2;
		break;
	case S1D_BUFFER_INFO:
	case S1D_SCISSOR_RECTANGLE:
		want = 3;
		break;
	case S1D_DRAWING_RECTANGLE:
		want = 5;
		break;
	case S1D_CLEAR_PARAMETERS:
		want = 7;
		break;
	}
	if (want) {
		*len = (hdr & 0xf) + 2;
		return *len == want ? CS_OK : CS_INVALID;
	}
	for (i = 0; i < sizeof(fixed_1d) / sizeof(fixed_1d[0]); i++) {
		if (fixed_1d[i].sub != sub)
			continue;
		*len = (hdr & 0xffff) + 2;
		return *len >= fixed_1d[i].min_len && *len <= fixed_1d[i].max_len ?
		       CS_OK : CS_INVALID;
	}
	return CS_INVALID;
}

/* A random-access index list with no count runs to a 0xffff index. */
static enum cs_status prim_scan_terminator(struct gpu *gpu, uint32_t *len)
{
	uint32_t limit = cs_fetch_limit(gpu);
	uint32_t i, dw;

	for (i = 1; i < PRIM_MAX_SCAN; i++) {
		if (i >= limit)
			return CS_PARTIAL;
		if (!cs_fetch(gpu, i, &dw))
			return CS_FAULT;
		if ((dw & 0xffff) == PRIM_INDEX_TERMINATOR ||
		    (dw >> 16) == PRIM_INDEX_TERMINATOR) {
			*len = i + 1;
			return CS_OK;
		}
	}
	return CS_INVALID;
}

static enum cs_status primitive_length(struct gpu *gpu, uint32_t hdr, uint32_t *len)
{
	uint32_t count;

	if (!(hdr & PRIM_INDIRECT)) {
		*len = (hdr & PRIM_INLINE_LEN_MASK) + 2;	/* inline vertices */
		return CS_OK;
	}
	count = hdr & 0xffff;
	if (!(hdr & PRIM_INDIRECT_ELTS)) {
		*len = 2;		/* sequential: the start index */
		return CS_OK;
	}
	if (!count)
		return prim_scan_terminator(gpu, len);
	*len = (count + 1) / 2 + 1;	/* 16-bit indices, two per dword */
	return CS_OK;
}

enum cs_status cmd3d_length(struct gpu *gpu, uint32_t hdr, uint32_t *len)
{
	uint32_t op = (hdr >> 24) & 0x1f;
	uint32_t sub;

	switch (op) {
	case OP3D_PRIMITIVE:
		return primitive_length(gpu, hdr, len);
	case OP3D_1D:
		return state_1d_length(hdr, len);
	case OP3D_1C:
		/* Only the depth-subrectangle and scissor enables exist on
		 * gen3; the rest of the class is i830 state. */
		sub = (hdr >> 19) & 0x1f;
		*len = 1;
		return sub == 0x10 || sub == 0x11 ? CS_OK : CS_INVALID;
	}
	*len = 1;
	return single_dword_op(op) ? CS_OK : CS_INVALID;
}

/* The command's dwords, copied out of the ring or batch, go to the 3D
 * pipeline (3d-state.c) once cmd3d_length has accepted its length. */
enum cs_status cmd3d_exec(struct gpu *gpu, uint32_t len)
{
	struct r3d *r = gpu->r3d;
	enum cs_status st;
	uint32_t i, *cmd;

	st = cs_check_span(gpu, len);
	if (st != CS_OK)
		return st;
	if (len > r->cmd_cap) {
		cmd = realloc(r->cmd, (size_t)len * sizeof(*cmd));
		if (!cmd)
			return CS_OK;	/* no memory to draw with: skipped */
		r->cmd = cmd;
		r->cmd_cap = len;
	}
	for (i = 0; i < len; i++)
		if (!cs_fetch(gpu, i, &r->cmd[i]))
			return CS_FAULT;
	return r3d_exec(r, r->cmd, len);
}
