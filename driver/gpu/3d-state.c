/*
 * 3D state commands: each latches its fields into struct r3d_state the way
 * the chip does.  Fields behind a "modify enable" bit change only when the
 * bit is set; state the model does not draw with (anti-aliasing, chroma
 * key, filter coefficients, palettes) is still parsed, length-checked and
 * kept, so a batch that sets it runs as on hardware.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "3d-priv.h"

struct r3d *r3d_create(struct gpu *gpu)
{
	struct r3d *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->gpu = gpu;
	r3d_reset(r);
	return r;
}

void r3d_destroy(struct r3d *r)
{
	if (!r)
		return;
	free(r->cmd);
	free(r);
}

/* After a reset the state is zero, as the chip's is after power-up,
 * except the stencil masks, which pass everything. */
void r3d_reset(struct r3d *r)
{
	memset(&r->st, 0, sizeof(r->st));
	r->st.stencil_test_mask = 0xff;
	r->st.stencil_write_mask = 0xff;
	r->st.bf_test_mask = 0xff;
	r->st.bf_write_mask = 0xff;
	r->st.sc_x2 = r->st.sc_y2 = 0xffff;
	r->depth = 0;
}

static float f32(uint32_t v)
{
	float f;

	memcpy(&f, &v, sizeof(f));
	return f;
}

static void set_field(uint32_t *state, uint32_t v, uint32_t shift, uint32_t mask)
{
	*state = (*state & ~(mask << shift)) | (v & (mask << shift));
}

static void raster_rules(struct r3d_state *st, uint32_t v)
{
	if (v & ENABLE_POINT_RASTER_RULE)
		set_field(&st->raster_rules, v, 13, 0x3);
	if (v & ENABLE_TEXKILL_3D_4D)
		set_field(&st->raster_rules, v, 9, 0x1);
	if (v & ENABLE_LINE_STRIP_PROVOKE_VRTX)
		set_field(&st->raster_rules, v, LINE_STRIP_PROVOKE_VRTX_SHIFT, 0x3);
	if (v & ENABLE_TRI_FAN_PROVOKE_VRTX)
		set_field(&st->raster_rules, v, TRI_FAN_PROVOKE_VRTX_SHIFT, 0x3);
}

static void backface_stencil_ops(struct r3d_state *st, uint32_t v)
{
	if (v & BFO_ENABLE_STENCIL_REF)
		st->bf_ref = (uint8_t)(v >> BFO_STENCIL_REF_SHIFT);
	if (v & BFO_ENABLE_STENCIL_FUNCS) {
		st->bf_func = (v >> BFO_STENCIL_TEST_SHIFT) & 7;
		st->bf_fail = (v >> BFO_STENCIL_FAIL_SHIFT) & 7;
		st->bf_zfail = (v >> BFO_STENCIL_PASS_Z_FAIL_SHIFT) & 7;
		st->bf_zpass = (v >> BFO_STENCIL_PASS_Z_PASS_SHIFT) & 7;
	}
	if (v & BFO_ENABLE_STENCIL_TWO_SIDE)
		st->bf_two_side = v & BFO_STENCIL_TWO_SIDE;
}

static void backface_stencil_masks(struct r3d_state *st, uint32_t v)
{
	if (v & BFM_ENABLE_STENCIL_TEST_MASK)
		st->bf_test_mask = (uint8_t)(v >> BFM_STENCIL_TEST_MASK_SHIFT);
	if (v & BFM_ENABLE_STENCIL_WRITE_MASK)
		st->bf_write_mask = (uint8_t)(v >> BFM_STENCIL_WRITE_MASK_SHIFT);
}

static void independent_alpha_blend(struct r3d_state *st, uint32_t v)
{
	if (v & IAB_MODIFY_ENABLE)
		st->iab_enable = v & IAB_ENABLE;
	if (v & IAB_MODIFY_FUNC)
		st->iab_func = (v >> IAB_FUNC_SHIFT) & 7;
	if (v & IAB_MODIFY_SRC_FACTOR)
		st->iab_src = (v >> IAB_SRC_FACTOR_SHIFT) & BLENDFACT_MASK;
	if (v & IAB_MODIFY_DST_FACTOR)
		st->iab_dst = (v >> IAB_DST_FACTOR_SHIFT) & BLENDFACT_MASK;
}

static void modes4(struct r3d_state *st, uint32_t v)
{
	if (v & ENABLE_LOGIC_OP_FUNC)
		st->logic_op = (v >> LOGIC_OP_FUNC_SHIFT) & 0xf;
	if (v & ENABLE_STENCIL_TEST_MASK)
		st->stencil_test_mask = (uint8_t)(v >> STENCIL_TEST_MASK_SHIFT);
	if (v & ENABLE_STENCIL_WRITE_MASK)
		st->stencil_write_mask = (uint8_t)(v >> STENCIL_WRITE_MASK_SHIFT);
}

/* One-dword state (opcode bits 28:24). */
static enum cs_status state_one(struct r3d *r, uint32_t v)
{
	struct r3d_state *st = &r->st;

	switch (OPC_3D(v)) {
	case OP3D_AA:
		st->aa = v;
		break;
	case OP3D_RASTER_RULES:
		raster_rules(st, v);
		break;
	case OP3D_BACKFACE_STENCIL_OPS:
		backface_stencil_ops(st, v);
		break;
	case OP3D_BACKFACE_STENCIL_MASKS:
		backface_stencil_masks(st, v);
		break;
	case OP3D_INDEPENDENT_ALPHA_BLEND:
		independent_alpha_blend(st, v);
		break;
	case OP3D_MODES_5:
		st->modes5 = v;		/* cache flushes: nothing is cached */
		break;
	case OP3D_MODES_4:
		modes4(st, v);
		break;
	case OP3D_FOG_COLOR:
		st->fog_color = v & 0xffffff;
		break;
	case OP3D_COORD_SET_BINDINGS:
		st->coord_bindings = v & 0xffffff;
		break;
	case OP3D_1C:
		if (OPC_3D_1C(v) == OP1C_SCISSOR_ENABLE && (v & (1u << 1)))
			st->scissor_enable = v & 1;
		break;
	default:
		return CS_INVALID;
	}
	return CS_OK;
}

static void buffer_info(struct r3d *r, const uint32_t *dw)
{
	uint32_t id = (dw[1] >> BUF_3D_ID_SHIFT) & BUF_3D_ID_MASK;
	struct r3d_surf *s;
	uint32_t stride;

	if (id == BUF_3D_ID_COLOR_BACK)
		s = &r->st.cbuf;
	else if (id == BUF_3D_ID_DEPTH)
		s = &r->st.zbuf;
	else
		return;		/* auxiliary buffers: nothing draws to them */
	s->addr = BUF_3D_ADDR(dw[2]);
	s->pitch = dw[1] & BUF_3D_PITCH_MASK;
	s->tiling = GPU_TILING_NONE;
	if (dw[1] & BUF_3D_USE_FENCE) {
		if (gpu_fence_lookup(r->gpu, s->addr, &s->tiling, &stride) < 0)
			s->tiling = GPU_TILING_NONE;
	} else if (dw[1] & BUF_3D_TILED_SURFACE) {
		s->tiling = dw[1] & BUF_3D_TILE_WALK_Y ? GPU_TILING_Y : GPU_TILING_X;
	}
	s->valid = true;
}

static void draw_rect(struct r3d_state *st, const uint32_t *dw)
{
	st->draw_flags = dw[1];
	st->draw_x1 = dw[2] & 0xffff;
	st->draw_y1 = dw[2] >> 16;
	st->draw_x2 = dw[3] & 0xffff;
	st->draw_y2 = dw[3] >> 16;
	st->origin_x = (int16_t)(dw[4] & 0xffff);
	st->origin_y = (int16_t)(dw[4] >> 16);
}

/* MAP_STATE and SAMPLER_STATE: a mask, then three dwords per set bit. */
static enum cs_status load_triples(uint32_t (*dst)[3], const uint32_t *dw,
				   uint32_t len)
{
	uint32_t mask = dw[1] & 0xffff, i, n = 2;

	if (len != 2 + 3 * (uint32_t)__builtin_popcount(mask))
		return CS_INVALID;
	for (i = 0; i < R3D_MAX_MAPS; i++) {
		if (!(mask & (1u << i)))
			continue;
		memcpy(dst[i], dw + n, 3 * sizeof(uint32_t));
		n += 3;
	}
	return CS_OK;
}

static enum cs_status ps_constants(struct r3d_state *st, const uint32_t *dw,
				   uint32_t len)
{
	uint32_t mask = dw[1], i, c, n = 2;

	if (len != 2 + 4 * (uint32_t)__builtin_popcount(mask))
		return CS_INVALID;
	for (i = 0; i < I915_MAX_CONSTANT; i++) {
		if (!(mask & (1u << i)))
			continue;
		for (c = 0; c < 4; c++)
			st->constants[i][c] = f32(dw[n++]);
	}
	return CS_OK;
}

/* A program that fails validation stops the parser on its command, so
 * ACTHD and IPEHR name it, as for any invalid instruction. */
static enum cs_status ps_program(struct r3d_state *st, const uint32_t *dw,
				 uint32_t len)
{
	struct gen3_ps_error err;

	if (gen3_ps_decode(dw + 1, (len - 1) / 3, &st->prog, &err)) {
		st->prog_valid = false;
		return CS_INVALID;
	}
	st->prog_valid = true;
	return CS_OK;
}

static enum cs_status load_state_immediate_1(struct r3d_state *st,
					     const uint32_t *dw)
{
	uint32_t n = 1, i;

	for (i = 0; i < 8; i++)
		if (dw[0] & I1_LOAD_S(i))
			st->s[i] = dw[n++];
	/* S8 (bit 12) does not exist on the 945G. */
	return dw[0] & I1_LOAD_S(8) ? CS_INVALID : CS_OK;
}

static enum cs_status load_indirect(struct r3d *r, const uint32_t *dw);

static enum cs_status state_1d(struct r3d *r, const uint32_t *dw, uint32_t len)
{
	struct r3d_state *st = &r->st;

	switch (OPC_3D_1D(dw[0])) {
	case OP1D_MAP_STATE:
		return load_triples(st->map, dw, len);
	case OP1D_SAMPLER_STATE:
		return load_triples(st->sampler, dw, len);
	case OP1D_LOAD_STATE_IMMEDIATE_1:
		return load_state_immediate_1(st, dw);
	case OP1D_LOAD_STATE_IMMEDIATE_2:
		break;		/* the 830's texture blend state: no effect */
	case OP1D_PIXEL_SHADER_PROGRAM:
		return ps_program(st, dw, len);
	case OP1D_PIXEL_SHADER_CONSTANTS:
		return ps_constants(st, dw, len);
	case OP1D_LOAD_INDIRECT:
		return load_indirect(r, dw);
	case OP1D_DRAW_RECT:
		draw_rect(st, dw);
		break;
	case OP1D_SCISSOR_RECT:
		st->sc_x1 = dw[1] & 0xffff;
		st->sc_y1 = dw[1] >> 16;
		st->sc_x2 = dw[2] & 0xffff;
		st->sc_y2 = dw[2] >> 16;
		break;
	case OP1D_STIPPLE:
		st->stipple = dw[1];
		break;
	case OP1D_DST_BUF_VARS:
		st->dst_buf_vars = dw[1];
		break;
	case OP1D_CHROMA_KEY:
		memcpy(st->chroma_key, dw + 1, sizeof(st->chroma_key));
		break;
	case OP1D_CONST_BLEND_COLOR:
		st->blend_color = dw[1];
		break;
	case OP1D_FOG_MODE:
		memcpy(st->fog_mode, dw + 1, sizeof(st->fog_mode));
		break;
	case OP1D_BUF_INFO:
		buffer_info(r, dw);
		break;
	case OP1D_DEPTH_OFFSET_SCALE:
		st->depth_offset_scale = f32(dw[1]);
		break;
	case OP1D_DFLT_Z:
		st->dflt_z = f32(dw[1]);
		break;
	case OP1D_DFLT_DIFFUSE:
		st->dflt_diffuse = dw[1];
		break;
	case OP1D_DFLT_SPEC:
		st->dflt_specular = dw[1];
		break;
	case OP1D_CLEAR_PARAMETERS:
		memcpy(st->clear, dw + 1, sizeof(st->clear));
		break;
	case OP1D_MAP_PALETTE_LOAD_32:
	case OP1D_FILTER_COEFFICIENTS_4X4:
	case OP1D_MONO_FILTER:
		break;		/* palettes and video filters: not drawn with */
	default:
		return CS_INVALID;
	}
	return CS_OK;
}

/*
 * Run a block of state commands from memory (3DSTATE_LOAD_INDIRECT): the
 * block holds whole commands, as the batch would.  Primitives and nested
 * indirect loads are not state and are refused.
 */
static enum cs_status run_state_block(struct r3d *r, uint32_t addr, uint32_t n)
{
	uint32_t *buf, i, len;
	enum cs_status st = CS_OK;

	buf = malloc((size_t)n * 4);
	if (!buf)
		return CS_INVALID;
	for (i = 0; i < n; i++) {
		if (!gtt_read32(r->gpu, (uint64_t)addr + 4ull * i, &buf[i])) {
			r->gpu->cs.fault_addr = (uint64_t)addr + 4ull * i;
			st = CS_FAULT;
			goto out_free;
		}
	}
	for (i = 0; i < n && st == CS_OK; i += len) {
		struct gen3_dwords rest = { buf + i, n - i };

		if (buf[i] >> 29 != 3 || OPC_3D(buf[i]) == OP3D_PRIMITIVE) {
			st = CS_INVALID;
			break;
		}
		st = cs_decode_length(gen3_cmd_lookup(buf[i]), buf[i],
				      gen3_fetch_dwords, &rest, &len);
		/* A block is whole commands: one running past its end is bad. */
		if (st == CS_PARTIAL || (st == CS_OK && len > n - i))
			st = CS_INVALID;
		if (st == CS_OK)
			st = r3d_exec(r, buf + i, len);
	}
out_free:
	free(buf);
	return st;
}

static enum cs_status load_indirect(struct r3d *r, const uint32_t *dw)
{
	static const uint32_t blocks[] = {
		LI0_STATE_STATIC_INDIRECT, LI0_STATE_DYNAMIC_INDIRECT,
		LI0_STATE_SAMPLER, LI0_STATE_MAP, LI0_STATE_PROGRAM,
		LI0_STATE_CONSTANTS,
	};
	enum cs_status st = CS_OK;
	uint32_t n = 1, i;

	/* The command table's rule checked that the flags and the length agree. */
	if (r->depth)
		return CS_INVALID;
	r->depth++;
	for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]) && st == CS_OK; i++) {
		if (!(dw[0] & blocks[i]))
			continue;
		if (blocks[i] == LI0_STATE_DYNAMIC_INDIRECT) {
			/* Dynamic state has no length, only a ring of
			 * packets the chip tracks itself; nobody uses it. */
			n++;
			continue;
		}
		if (dw[n] & LI_BUFFER_VALID)
			st = run_state_block(r, LI_BUFFER_ADDRESS(dw[n]),
					     LI_BUFFER_LENGTH(dw[n + 1]) + 1);
		n += 2;
	}
	r->depth--;
	return st;
}

enum cs_status r3d_exec(struct r3d *r, const uint32_t *dw, uint32_t len)
{
	switch (OPC_3D(dw[0])) {
	case OP3D_PRIMITIVE:
		return r3d_primitive(r, dw, len);
	case OP3D_1D:
		return state_1d(r, dw, len);
	}
	return state_one(r, dw[0]);
}
