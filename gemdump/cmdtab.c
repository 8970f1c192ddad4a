/*
 * gen3 command names and lengths, for --summary, --json and the hang
 * report's instruction boundaries.  The opcode set and the length rules
 * are gemd's (driver/gpu/cs.c, blit.c, cmd3d.c); unlike gemd, a bad
 * length is reported rather than refused, so a corrupt batch still walks.
 */
#include <string.h>

#include "batch.h"
#include "util.h"

struct op {
	uint32_t op;
	const char *name;
	uint8_t min, max;	/* allowed total lengths; 0: any */
};

/* MI (client 0): opcode bits 28:23. */
static const struct op mi_ops[] = {
	{ 0x00, "MI_NOOP", 1, 1 },
	{ 0x02, "MI_USER_INTERRUPT", 1, 1 },
	{ 0x03, "MI_WAIT_FOR_EVENT", 1, 1 },
	{ 0x04, "MI_FLUSH", 1, 1 },
	{ 0x07, "MI_REPORT_HEAD", 1, 1 },
	{ 0x08, "MI_ARB_ON_OFF", 1, 1 },
	{ 0x0a, "MI_BATCH_BUFFER_END", 1, 1 },
	{ 0x20, "MI_STORE_DATA_IMM", 4, 5 },
	{ 0x21, "MI_STORE_DATA_INDEX", 3, 4 },
	{ 0x22, "MI_LOAD_REGISTER_IMM", 3, 255 },
	{ 0x31, "MI_BATCH_BUFFER_START", 2, 2 },
};

/* 2D (client 2): opcode bits 28:22; length bits 7:0 + 2. */
static const struct op blt_ops[] = {
	{ 0x01, "XY_SETUP_BLT", 8, 8 },
	{ 0x03, "XY_SETUP_CLIP_BLT", 3, 3 },
	{ 0x25, "XY_SCANLINES_BLT", 3, 3 },
	{ 0x40, "COLOR_BLT", 5, 5 },
	{ 0x43, "SRC_COPY_BLT", 6, 6 },
	{ 0x50, "XY_COLOR_BLT", 6, 6 },
	{ 0x53, "XY_SRC_COPY_BLT", 8, 8 },
};

/* 3D one-dword state (client 3): opcode bits 28:24. */
static const struct op one_ops[] = {
	{ 0x06, "3DSTATE_ANTI_ALIASING", 1, 1 },
	{ 0x07, "3DSTATE_RASTERIZATION_RULES", 1, 1 },
	{ 0x08, "3DSTATE_BACKFACE_STENCIL_OPS", 1, 1 },
	{ 0x09, "3DSTATE_BACKFACE_STENCIL_MASKS", 1, 1 },
	{ 0x0b, "3DSTATE_INDEPENDENT_ALPHA_BLEND", 1, 1 },
	{ 0x0c, "3DSTATE_MODES_5", 1, 1 },
	{ 0x0d, "3DSTATE_MODES_4", 1, 1 },
	{ 0x15, "3DSTATE_FOG_COLOR", 1, 1 },
	{ 0x16, "3DSTATE_COORD_SET_BINDINGS", 1, 1 },
};

/* 3D 0x1d class: sub-opcode bits 23:16.  max 0: computed below. */
static const struct op s1d_ops[] = {
	{ 0x00, "3DSTATE_MAP_STATE", 0, 0 },
	{ 0x01, "3DSTATE_SAMPLER_STATE", 0, 0 },
	{ 0x03, "3DSTATE_LOAD_STATE_IMMEDIATE_2", 0, 0 },
	{ 0x04, "3DSTATE_LOAD_STATE_IMMEDIATE_1", 0, 0 },
	{ 0x05, "3DSTATE_PIXEL_SHADER_PROGRAM", 0, 0 },
	{ 0x06, "3DSTATE_PIXEL_SHADER_CONSTANTS", 0, 0 },
	{ 0x07, "3DSTATE_LOAD_INDIRECT", 0, 0 },
	{ 0x80, "3DSTATE_DRAWING_RECTANGLE", 5, 5 },
	{ 0x81, "3DSTATE_SCISSOR_RECTANGLE", 3, 3 },
	{ 0x83, "3DSTATE_SPAN_STIPPLE", 2, 2 },
	{ 0x85, "3DSTATE_DEST_BUFFER_VARIABLES", 2, 2 },
	{ 0x86, "3DSTATE_CHROMA_KEY", 4, 4 },
	{ 0x88, "3DSTATE_CONSTANT_BLEND_COLOR", 2, 2 },
	{ 0x89, "3DSTATE_FOG_MODE", 4, 4 },
	{ 0x8e, "3DSTATE_BUFFER_INFO", 3, 3 },
	{ 0x8f, "3DSTATE_MAP_PALETTE_LOAD_32", 2, 16 },
	{ 0x97, "3DSTATE_DEPTH_OFFSET_SCALE", 2, 2 },
	{ 0x98, "3DSTATE_DEFAULT_Z", 2, 2 },
	{ 0x99, "3DSTATE_DEFAULT_DIFFUSE", 2, 2 },
	{ 0x9a, "3DSTATE_DEFAULT_SPECULAR", 2, 2 },
	{ 0x9c, "3DSTATE_CLEAR_PARAMETERS", 7, 7 },
	{ 0x9d, "3DSTATE_FILTER_COEFFICIENTS_4X4", 65, 65 },
	{ 0x9e, "3DSTATE_MONO_FILTER", 4, 4 },
};

static const struct op *lookup(const struct op *t, size_t n, uint32_t op)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].op == op)
			return &t[i];
	return NULL;
}

static void set(struct gd_cmdinfo *ci, const struct op *o, uint32_t len)
{
	ci->name = o->name;
	ci->known = true;
	ci->len = len ? len : 1;
	ci->bad_len = o->min && (len < o->min || len > o->max);
}

static void mi_info(uint32_t hdr, struct gd_cmdinfo *ci)
{
	uint32_t op = (hdr >> 23) & 0x3f;
	const struct op *o = lookup(mi_ops, ARRAY_SIZE(mi_ops), op);
	uint32_t len = 1;

	if (!o)
		return;
	if (op == 0x22)
		len = (hdr & 0xff) + 2;
	else if (op >= 0x20)
		len = (hdr & 0x3f) + 2;
	set(ci, o, len);
	if (op == 0x22 && !(len & 1))
		ci->bad_len = true;
	ci->end = op == 0x0a;
}

static uint32_t load_indirect_len(uint32_t hdr)
{
	static const uint8_t per_bit[] = { 2, 1, 2, 2, 2, 2 };	/* bits 8..13 */
	uint32_t len = 1, b;

	for (b = 0; b < ARRAY_SIZE(per_bit); b++)
		if (hdr & (1u << (8 + b)))
			len += per_bit[b];
	return len;
}

static uint32_t lis2_len(uint32_t hdr)
{
	uint32_t len = 1, bit;

	for (bit = 6; bit <= 14; bit++)
		if (hdr & (1u << bit))
			len += bit == 6 ? 1 : bit <= 10 ? 2 : 5;
	return len;
}

static void s1d_info(uint32_t hdr, struct gd_cmdinfo *ci)
{
	uint32_t sub = (hdr >> 16) & 0xff;
	const struct op *o = lookup(s1d_ops, ARRAY_SIZE(s1d_ops), sub);
	uint32_t len;

	if (!o)
		return;
	switch (sub) {
	case 0x07:
		len = (hdr & 0xff) + 1;
		set(ci, o, len);
		ci->bad_len = len != load_indirect_len(hdr);
		return;
	case 0x04:
		len = (hdr & 0xf) + 2;
		set(ci, o, len);
		ci->bad_len = len != 1 + (uint32_t)__builtin_popcount((hdr >> 4) & 0x1ff);
		return;
	case 0x03:
		len = (hdr & 0xf) + 2;
		set(ci, o, len);
		ci->bad_len = len != lis2_len(hdr);
		return;
	case 0x00:
	case 0x01:
		set(ci, o, (hdr & 0x3f) + 2);
		return;
	case 0x06:
		set(ci, o, (hdr & 0xff) + 2);
		return;
	case 0x05:
		len = (hdr & 0xff) + 2;
		set(ci, o, len);
		ci->bad_len = (len - 1) % 3 || len > 370;
		return;
	case 0x80:
	case 0x81:
	case 0x85:
	case 0x8e:
	case 0x9c:
		set(ci, o, (hdr & 0xf) + 2);
		return;
	}
	set(ci, o, (hdr & 0xffff) + 2);
}

static void prim_info(const uint32_t *dw, size_t avail, struct gd_cmdinfo *ci)
{
	static const struct op prim = { 0x1f, "3DPRIMITIVE", 0, 0 };
	uint32_t hdr = dw[0], count = hdr & 0xffff;
	size_t i;

	if (!(hdr & (1u << 23))) {
		set(ci, &prim, (hdr & 0x3ffff) + 2);
		return;
	}
	if (!(hdr & (1u << 17))) {
		set(ci, &prim, 2);
		return;
	}
	if (count) {
		set(ci, &prim, (count + 1) / 2 + 1);
		return;
	}
	/* Indices up to a 0xffff terminator, within what we have. */
	for (i = 1; i < avail; i++) {
		if ((dw[i] & 0xffff) == 0xffff || (dw[i] >> 16) == 0xffff) {
			set(ci, &prim, (uint32_t)(i + 1));
			return;
		}
	}
	set(ci, &prim, (uint32_t)avail);
	ci->bad_len = true;
}

void gd_command_info(const uint32_t *dw, size_t avail, struct gd_cmdinfo *ci)
{
	static const struct op c1c[] = {
		{ 0x10, "3DSTATE_SCISSOR_ENABLE", 1, 1 },
		{ 0x11, "3DSTATE_DEPTH_SUBRECTANGLE_DISABLE", 1, 1 },
	};
	uint32_t hdr = dw[0], op;
	const struct op *o;

	ci->name = "UNKNOWN";
	ci->len = 1;
	ci->known = ci->bad_len = ci->end = false;
	switch (hdr >> 29) {
	case 0:
		mi_info(hdr, ci);
		break;
	case 2:
		o = lookup(blt_ops, ARRAY_SIZE(blt_ops), (hdr >> 22) & 0x7f);
		if (o)
			set(ci, o, (hdr & 0xff) + 2);
		break;
	case 3:
		op = (hdr >> 24) & 0x1f;
		if (op == 0x1f) {
			prim_info(dw, avail, ci);
		} else if (op == 0x1d) {
			s1d_info(hdr, ci);
		} else if (op == 0x1c) {
			o = lookup(c1c, ARRAY_SIZE(c1c), (hdr >> 19) & 0x1f);
			if (o)
				set(ci, o, 1);
		} else {
			o = lookup(one_ops, ARRAY_SIZE(one_ops), op);
			if (o)
				set(ci, o, 1);
		}
		break;
	}
}

size_t gd_cmd_addresses(const uint32_t *dw, const struct gd_cmdinfo *ci,
			uint32_t *addr, uint32_t *index, size_t max)
{
	static const struct {
		const char *name;
		uint8_t idx[2];		/* dword indices; 0 ends */
		uint32_t mask;
	} refs[] = {
		{ "MI_BATCH_BUFFER_START", { 1, 0 }, ~3u },
		{ "MI_STORE_DATA_IMM", { 2, 0 }, ~3u },
		{ "XY_SETUP_BLT", { 4, 0 }, ~0u },
		{ "COLOR_BLT", { 3, 0 }, ~0u },
		{ "SRC_COPY_BLT", { 3, 5 }, ~0u },
		{ "XY_COLOR_BLT", { 4, 0 }, ~0u },
		{ "XY_SRC_COPY_BLT", { 4, 7 }, ~0u },
		{ "3DSTATE_BUFFER_INFO", { 2, 0 }, ~3u },
	};
	size_t i, j, n = 0;

	for (i = 0; i < ARRAY_SIZE(refs); i++) {
		if (strcmp(refs[i].name, ci->name))
			continue;
		for (j = 0; j < 2 && refs[i].idx[j] && n < max; j++) {
			if (refs[i].idx[j] >= ci->len)
				continue;
			addr[n] = dw[refs[i].idx[j]] & refs[i].mask;
			index[n++] = refs[i].idx[j];
		}
		break;
	}
	return n;
}
