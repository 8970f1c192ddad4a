/*
 * Per-fragment operations and the surfaces they touch: stipple, fog,
 * alpha test, stencil and depth tests and updates, blending or the logic
 * op, write masks, and the colour and depth formats of
 * DEST_BUFFER_VARIABLES.  Colours are blended in float and rounded to the
 * buffer's precision once, when written.  Dithering is accepted and not
 * applied (the chip's matrix is not public); YUV colour buffers are not
 * drawn to.
 */
#include <math.h>
#include <string.h>

#include "3d-priv.h"

#define CLEARPARAM_CLEAR_RECT		(1u << 16)
#define CLEARPARAM_WRITE_COLOR		(1u << 2)
#define CLEARPARAM_WRITE_DEPTH		(1u << 1)
#define CLEARPARAM_WRITE_STENCIL	(1u << 0)

void r3d_map_init(struct r3d_map *m, uint64_t base, uint32_t pitch,
		  enum gpu_tiling tiling)
{
	m->base = base;
	m->pitch = pitch;
	m->tiling = tiling;
	m->tiles_per_row = tiling == GPU_TILING_NONE ? 0 : pitch / gpu_tile_width(tiling);
	m->page = UINT64_MAX;
	m->ptr = NULL;
}

/* r3d_map_px's slow path: a page not cached yet. */
uint8_t *r3d_map_page(struct r3d *r, struct r3d_map *m, uint64_t addr)
{
	uint64_t page = addr >> GTT_PAGE_SHIFT;

	m->ptr = gtt_ptr(r->gpu, page << GTT_PAGE_SHIFT);
	if (!m->ptr) {
		r->gpu->cs.fault_addr = addr;
		r3d_fail(r, CS_FAULT);
		m->page = UINT64_MAX;
		return NULL;
	}
	m->page = page;
	return m->ptr + (addr & (GTT_PAGE_SIZE - 1));
}

static uint32_t channel_bits(uint32_t format, uint8_t mask);

static uint32_t color_cpp(uint32_t format)
{
	switch (format) {
	case COLOR_BUF_8BIT:
		return 1;
	case COLOR_BUF_ARGB8888:
	case COLOR_BUF_ARGB2101010:
		return 4;
	}
	return 2;
}

static bool surf_ok(const struct r3d_surf *s, uint32_t cpp)
{
	uint32_t tw = gpu_tile_width(s->tiling);

	return !(s->addr % cpp) && !(s->pitch % cpp) && (!tw || !(s->pitch % tw));
}

/* Stencil state of one face: 0 the front (S5), 1 the back (BFO/BFM). */
static void stencil_prepare(struct r3d *r)
{
	const struct r3d_state *st = &r->st;
	struct r3d_draw *d = &r->draw;
	uint32_t s5 = st->s[5];

	d->stencil_test = s5 & S5_STENCIL_TEST_ENABLE;
	d->stencil_write = s5 & S5_STENCIL_WRITE_ENABLE;
	d->st_ref[0] = (uint8_t)(s5 >> S5_STENCIL_REF_SHIFT);
	d->st_func[0] = (s5 >> S5_STENCIL_TEST_FUNC_SHIFT) & 7;
	d->st_fail[0] = (s5 >> S5_STENCIL_FAIL_SHIFT) & 7;
	d->st_zfail[0] = (s5 >> S5_STENCIL_PASS_Z_FAIL_SHIFT) & 7;
	d->st_zpass[0] = (s5 >> S5_STENCIL_PASS_Z_PASS_SHIFT) & 7;
	d->st_test_mask[0] = st->stencil_test_mask;
	d->st_write_mask[0] = st->stencil_write_mask;
	if (st->bf_two_side) {
		d->st_ref[1] = st->bf_ref;
		d->st_func[1] = st->bf_func;
		d->st_fail[1] = st->bf_fail;
		d->st_zfail[1] = st->bf_zfail;
		d->st_zpass[1] = st->bf_zpass;
		d->st_test_mask[1] = st->bf_test_mask;
		d->st_write_mask[1] = st->bf_write_mask;
	} else {
		d->st_ref[1] = d->st_ref[0];
		d->st_func[1] = d->st_func[0];
		d->st_fail[1] = d->st_fail[0];
		d->st_zfail[1] = d->st_zfail[0];
		d->st_zpass[1] = d->st_zpass[0];
		d->st_test_mask[1] = d->st_test_mask[0];
		d->st_write_mask[1] = d->st_write_mask[0];
	}
}

static void clip_prepare(struct r3d *r)
{
	const struct r3d_state *st = &r->st;
	struct r3d_draw *d = &r->draw;

	d->clip_x1 = (int32_t)st->draw_x1;
	d->clip_y1 = (int32_t)st->draw_y1;
	d->clip_x2 = (int32_t)st->draw_x2;
	d->clip_y2 = (int32_t)st->draw_y2;
	if (!st->scissor_enable)
		return;
	/* The scissor rectangle is relative to the drawing origin. */
	if ((int32_t)st->sc_x1 + st->origin_x > d->clip_x1)
		d->clip_x1 = (int32_t)st->sc_x1 + st->origin_x;
	if ((int32_t)st->sc_y1 + st->origin_y > d->clip_y1)
		d->clip_y1 = (int32_t)st->sc_y1 + st->origin_y;
	if ((int32_t)st->sc_x2 + st->origin_x < d->clip_x2)
		d->clip_x2 = (int32_t)st->sc_x2 + st->origin_x;
	if ((int32_t)st->sc_y2 + st->origin_y < d->clip_y2)
		d->clip_y2 = (int32_t)st->sc_y2 + st->origin_y;
}

void r3d_fragment_prepare(struct r3d *r)
{
	const struct r3d_state *st = &r->st;
	struct r3d_draw *d = &r->draw;
	uint32_t s5 = st->s[5], s6 = st->s[6], v = st->dst_buf_vars, i;

	d->bias_x = (float)((v >> DSTORG_HORT_BIAS_SHIFT) & DSTORG_BIAS_MASK) / 16.0f;
	d->bias_y = (float)((v >> DSTORG_VERT_BIAS_SHIFT) & DSTORG_BIAS_MASK) / 16.0f;
	d->cformat = (v >> COLOR_BUF_FORMAT_SHIFT) & COLOR_BUF_FORMAT_MASK;
	d->zformat = (v >> DEPTH_FRMT_SHIFT) & DEPTH_FRMT_MASK;
	d->ccpp = color_cpp(d->cformat);
	d->zcpp = d->zformat == DEPTH_FRMT_24_FIXED_8_OTHER ? 4 : 2;
	clip_prepare(r);

	d->color_write = (s6 & S6_COLOR_WRITE_ENABLE) && st->cbuf.valid &&
			 d->cformat <= COLOR_BUF_ARGB2101010 &&
			 (d->cformat < COLOR_BUF_YCRCB_SWAP ||
			  d->cformat > COLOR_BUF_YCRCB_SWAPUVY);
	d->write_mask = (uint8_t)((s5 & S5_WRITEDISABLE_RED ? 0 : 1) |
				  (s5 & S5_WRITEDISABLE_GREEN ? 0 : 2) |
				  (s5 & S5_WRITEDISABLE_BLUE ? 0 : 4) |
				  (s5 & S5_WRITEDISABLE_ALPHA ? 0 : 8));
	d->blend = s6 & S6_CBUF_BLEND_ENABLE;
	d->blend_func = (s6 >> S6_CBUF_BLEND_FUNC_SHIFT) & 7;
	d->src_factor = (s6 >> S6_CBUF_SRC_BLEND_FACT_SHIFT) & BLENDFACT_MASK;
	d->dst_factor = (s6 >> S6_CBUF_DST_BLEND_FACT_SHIFT) & BLENDFACT_MASK;
	d->a_func = st->iab_enable ? st->iab_func : d->blend_func;
	d->a_src = st->iab_enable ? st->iab_src : d->src_factor;
	d->a_dst = st->iab_enable ? st->iab_dst : d->dst_factor;
	d->logic_op = s5 & S5_LOGICOP_ENABLE;
	d->alpha_test = s6 & S6_ALPHA_TEST_ENABLE;
	d->alpha_func = (s6 >> S6_ALPHA_TEST_FUNC_SHIFT) & 7;
	d->alpha_ref = r3d_unorm8(s6 >> S6_ALPHA_REF_SHIFT);
	d->depth_test = (s6 & S6_DEPTH_TEST_ENABLE) && st->zbuf.valid;
	d->depth_write = (s6 & S6_DEPTH_WRITE_ENABLE) && st->zbuf.valid;
	d->depth_func = (s6 >> S6_DEPTH_TEST_FUNC_SHIFT) & 7;
	stencil_prepare(r);
	if (!st->zbuf.valid || d->zformat != DEPTH_FRMT_24_FIXED_8_OTHER)
		d->stencil_test = d->stencil_write = false;
	d->stipple = st->stipple & ST1_ENABLE;
	d->fog = s5 & S5_FOG_ENABLE;
	d->keep = ~channel_bits(d->cformat, d->write_mask);
	if (d->ccpp < 4)
		d->keep &= (1u << (8 * d->ccpp)) - 1;
	d->attr_mask = st->prog.t_decl | (d->fog ? 1u << R3D_ATTR_FOG : 0);
	r3d_argb_to_rgba(st->blend_color, d->const_color);
	for (i = 0; i < 4; i++)
		d->const8[i] = r3d_round(d->const_color[i] * 255.0f);
	/* Nothing but a colour write to an ARGB8888 buffer, maybe blended. */
	d->plain = d->color_write && d->cformat == COLOR_BUF_ARGB8888 && !d->keep &&
		   !d->logic_op && !d->stipple && !d->fog && !d->alpha_test &&
		   !d->depth_test && !d->depth_write && !d->stencil_test;

	if ((d->color_write && !surf_ok(&st->cbuf, d->ccpp)) ||
	    ((d->depth_test || d->depth_write || d->stencil_test) &&
	     !surf_ok(&st->zbuf, d->zcpp))) {
		r3d_fail(r, CS_INVALID);
		return;
	}
	r3d_map_init(&d->cmap, st->cbuf.addr, st->cbuf.pitch, st->cbuf.tiling);
	r3d_map_init(&d->zmap, st->zbuf.addr, st->zbuf.pitch, st->zbuf.tiling);
	for (i = 0; i < R3D_MAX_MAPS; i++) {
		d->tex[i].valid = false;
		if (st->prog_valid && (st->prog.s_decl & (1u << i)))
			r3d_tex_prepare(r, i, st->prog.s_type[i]);
	}
}

/* ---- colour formats -------------------------------------------------- */

static uint32_t to_unorm(float v, unsigned int bits)
{
	return r3d_round(r3d_clamp01(v) * (float)((1u << bits) - 1));
}

static uint32_t pack_color(uint32_t format, const float c[4])
{
	switch (format) {
	case COLOR_BUF_8BIT:
		return to_unorm(c[1], 8);
	case COLOR_BUF_RGB555:
		return to_unorm(c[0], 5) << 10 | to_unorm(c[1], 5) << 5 |
		       to_unorm(c[2], 5);
	case COLOR_BUF_RGB565:
		return to_unorm(c[0], 5) << 11 | to_unorm(c[1], 6) << 5 |
		       to_unorm(c[2], 5);
	case COLOR_BUF_ARGB4444:
		return to_unorm(c[3], 4) << 12 | to_unorm(c[0], 4) << 8 |
		       to_unorm(c[1], 4) << 4 | to_unorm(c[2], 4);
	case COLOR_BUF_ARGB1555:
		return to_unorm(c[3], 1) << 15 | to_unorm(c[0], 5) << 10 |
		       to_unorm(c[1], 5) << 5 | to_unorm(c[2], 5);
	case COLOR_BUF_ARGB2101010:
		return to_unorm(c[3], 2) << 30 | to_unorm(c[0], 10) << 20 |
		       to_unorm(c[1], 10) << 10 | to_unorm(c[2], 10);
	}
	return to_unorm(c[3], 8) << 24 | to_unorm(c[0], 8) << 16 |
	       to_unorm(c[1], 8) << 8 | to_unorm(c[2], 8);
}

static float from_unorm(uint32_t v, unsigned int bits)
{
	return (float)(v & ((1u << bits) - 1)) / (float)((1u << bits) - 1);
}

static void unpack_color(uint32_t format, uint32_t v, float c[4])
{
	switch (format) {
	case COLOR_BUF_8BIT:
		c[0] = c[1] = c[2] = c[3] = from_unorm(v, 8);
		return;
	case COLOR_BUF_RGB555:
	case COLOR_BUF_ARGB1555:
		c[0] = from_unorm(v >> 10, 5);
		c[1] = from_unorm(v >> 5, 5);
		c[2] = from_unorm(v, 5);
		c[3] = format == COLOR_BUF_RGB555 ? 1.0f : from_unorm(v >> 15, 1);
		return;
	case COLOR_BUF_RGB565:
		c[0] = from_unorm(v >> 11, 5);
		c[1] = from_unorm(v >> 5, 6);
		c[2] = from_unorm(v, 5);
		c[3] = 1.0f;
		return;
	case COLOR_BUF_ARGB4444:
		c[0] = from_unorm(v >> 8, 4);
		c[1] = from_unorm(v >> 4, 4);
		c[2] = from_unorm(v, 4);
		c[3] = from_unorm(v >> 12, 4);
		return;
	case COLOR_BUF_ARGB2101010:
		c[0] = from_unorm(v >> 20, 10);
		c[1] = from_unorm(v >> 10, 10);
		c[2] = from_unorm(v, 10);
		c[3] = from_unorm(v >> 30, 2);
		return;
	}
	r3d_argb_to_rgba(v, c);
}

/* The packed bits of each channel that the write mask protects. */
static uint32_t channel_bits(uint32_t format, uint8_t mask)
{
	static const uint32_t bits[][4] = {	/* R, G, B, A */
		[COLOR_BUF_8BIT] = { 0, 0xff, 0, 0 },
		[COLOR_BUF_RGB555] = { 0x7c00, 0x03e0, 0x001f, 0x8000 },
		[COLOR_BUF_RGB565] = { 0xf800, 0x07e0, 0x001f, 0 },
		[COLOR_BUF_ARGB8888] = { 0xff0000, 0xff00, 0xff, 0xff000000 },
		[COLOR_BUF_ARGB4444] = { 0x0f00, 0x00f0, 0x000f, 0xf000 },
		[COLOR_BUF_ARGB1555] = { 0x7c00, 0x03e0, 0x001f, 0x8000 },
		[COLOR_BUF_ARGB2101010] = { 0x3ff00000, 0xffc00, 0x3ff, 0xc0000000 },
	};
	uint32_t m = 0, c;

	for (c = 0; c < 4; c++)
		if (mask & (1u << c))
			m |= bits[format][c];
	return m;
}

static uint32_t load_px(const uint8_t *p, uint32_t cpp)
{
	uint16_t h;
	uint32_t w;

	switch (cpp) {
	case 4:
		memcpy(&w, p, 4);
		return w;
	case 2:
		memcpy(&h, p, 2);
		return h;
	}
	return *p;
}

static void store_px(uint8_t *p, uint32_t cpp, uint32_t v)
{
	uint16_t h = (uint16_t)v;

	switch (cpp) {
	case 4:
		memcpy(p, &v, 4);
		return;
	case 2:
		memcpy(p, &h, 2);
		return;
	}
	*p = (uint8_t)v;
}

/* ---- tests and blending ---------------------------------------------- */

static bool compare_u(unsigned int func, uint32_t a, uint32_t b)
{
	return r3d_compare(func, (float)a, (float)b);
}

static uint8_t stencil_op(unsigned int op, uint8_t s, uint8_t ref)
{
	switch (op) {
	case STENCILOP_ZERO:	return 0;
	case STENCILOP_REPLACE:	return ref;
	case STENCILOP_INCRSAT:	return s == 0xff ? s : (uint8_t)(s + 1);
	case STENCILOP_DECRSAT:	return s == 0 ? s : (uint8_t)(s - 1);
	case STENCILOP_INCR:	return (uint8_t)(s + 1);
	case STENCILOP_DECR:	return (uint8_t)(s - 1);
	case STENCILOP_INVERT:	return (uint8_t)~s;
	}
	return s;
}

/*
 * Blending is done as the colour calculator does it for 8-bit channels:
 * source, destination and constant quantised to 8 bits, every factor and
 * product an 8-bit value rounded to nearest, the sum saturated.  (The
 * 10-bit format blends in float.)
 */
static uint32_t mul8(uint32_t a, uint32_t b)
{
	uint32_t t = a * b + 128;

	return (t + (t >> 8)) >> 8;
}

static uint32_t factor8(unsigned int f, unsigned int c, const uint32_t s[4],
			const uint32_t d[4], const uint32_t k[4])
{
	switch (f) {
	case BLENDFACT_ZERO:		return 0;
	case BLENDFACT_SRC_COLR:	return s[c];
	case BLENDFACT_INV_SRC_COLR:	return 255 - s[c];
	case BLENDFACT_SRC_ALPHA:	return s[3];
	case BLENDFACT_INV_SRC_ALPHA:	return 255 - s[3];
	case BLENDFACT_DST_ALPHA:	return d[3];
	case BLENDFACT_INV_DST_ALPHA:	return 255 - d[3];
	case BLENDFACT_DST_COLR:	return d[c];
	case BLENDFACT_INV_DST_COLR:	return 255 - d[c];
	case BLENDFACT_SRC_ALPHA_SATURATE:
		return c == 3 ? 255 : s[3] < 255 - d[3] ? s[3] : 255 - d[3];
	case BLENDFACT_CONST_COLOR:	return k[c];
	case BLENDFACT_INV_CONST_COLOR:	return 255 - k[c];
	case BLENDFACT_CONST_ALPHA:	return k[3];
	case BLENDFACT_INV_CONST_ALPHA:	return 255 - k[3];
	}
	return 255;	/* BLENDFACT_ONE and the reserved codes */
}

static uint32_t blend_eq8(unsigned int func, uint32_t s, uint32_t fs, uint32_t d,
			  uint32_t fd)
{
	int32_t a = (int32_t)mul8(s, fs), b = (int32_t)mul8(d, fd), v;

	switch (func) {
	case BLENDFUNC_SUBTRACT:	v = a - b; break;
	case BLENDFUNC_REVERSE_SUBTRACT: v = b - a; break;
	case BLENDFUNC_MIN:		v = (int32_t)(s < d ? s : d); break;
	case BLENDFUNC_MAX:		v = (int32_t)(s > d ? s : d); break;
	default:			v = a + b; break;
	}
	return (uint32_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

static float factorf(unsigned int f, unsigned int c, const float s[4],
		     const float d[4], const float k[4])
{
	switch (f) {
	case BLENDFACT_ZERO:		return 0.0f;
	case BLENDFACT_SRC_COLR:	return s[c];
	case BLENDFACT_INV_SRC_COLR:	return 1.0f - s[c];
	case BLENDFACT_SRC_ALPHA:	return s[3];
	case BLENDFACT_INV_SRC_ALPHA:	return 1.0f - s[3];
	case BLENDFACT_DST_ALPHA:	return d[3];
	case BLENDFACT_INV_DST_ALPHA:	return 1.0f - d[3];
	case BLENDFACT_DST_COLR:	return d[c];
	case BLENDFACT_INV_DST_COLR:	return 1.0f - d[c];
	case BLENDFACT_SRC_ALPHA_SATURATE:
		return c == 3 ? 1.0f : fminf(s[3], 1.0f - d[3]);
	case BLENDFACT_CONST_COLOR:	return k[c];
	case BLENDFACT_INV_CONST_COLOR:	return 1.0f - k[c];
	case BLENDFACT_CONST_ALPHA:	return k[3];
	case BLENDFACT_INV_CONST_ALPHA:	return 1.0f - k[3];
	}
	return 1.0f;
}

static float blend_eqf(unsigned int func, float s, float fs, float d, float fd)
{
	switch (func) {
	case BLENDFUNC_SUBTRACT:	return s * fs - d * fd;
	case BLENDFUNC_REVERSE_SUBTRACT: return d * fd - s * fs;
	case BLENDFUNC_MIN:		return fminf(s, d);
	case BLENDFUNC_MAX:		return fmaxf(s, d);
	}
	return s * fs + d * fd;
}

/* The 8-bit blend of a source colour onto an ARGB8888 pixel. */
static uint32_t blend8888(const struct r3d_draw *d, const float s[4], uint32_t old)
{
	uint32_t s8[4], d8[4], v = 0;
	static const unsigned int shift[4] = { 16, 8, 0, 24 };
	unsigned int c;

	for (c = 0; c < 4; c++) {
		s8[c] = r3d_round(s[c] * 255.0f);
		d8[c] = (old >> shift[c]) & 0xff;
	}
	for (c = 0; c < 4; c++) {
		unsigned int func = c < 3 ? d->blend_func : d->a_func;
		unsigned int fs = c < 3 ? d->src_factor : d->a_src;
		unsigned int fd = c < 3 ? d->dst_factor : d->a_dst;

		v |= blend_eq8(func, s8[c], factor8(fs, c, s8, d8, d->const8), d8[c],
			       factor8(fd, c, s8, d8, d->const8)) << shift[c];
	}
	return v;
}

static void blend(const struct r3d_draw *d, const float s[4], const float dst[4],
		  float out[4])
{
	uint32_t s8[4], d8[4], k8[4];
	unsigned int c, func, fs, fd;

	for (c = 0; c < 4; c++) {
		func = c < 3 ? d->blend_func : d->a_func;
		fs = c < 3 ? d->src_factor : d->a_src;
		fd = c < 3 ? d->dst_factor : d->a_dst;
		if (d->cformat == COLOR_BUF_ARGB2101010) {
			out[c] = r3d_clamp01(blend_eqf(func, s[c],
						       factorf(fs, c, s, dst, d->const_color),
						       dst[c],
						       factorf(fd, c, s, dst, d->const_color)));
			continue;
		}
		if (c == 0) {
			unsigned int i;

			for (i = 0; i < 4; i++) {
				s8[i] = r3d_round(r3d_clamp01(s[i]) * 255.0f);
				d8[i] = r3d_round(r3d_clamp01(dst[i]) * 255.0f);
				k8[i] = r3d_round(d->const_color[i] * 255.0f);
			}
		}
		out[c] = (float)blend_eq8(func, s8[c], factor8(fs, c, s8, d8, k8),
					  d8[c], factor8(fd, c, s8, d8, k8)) / 255.0f;
	}
}

static uint32_t logic_op(unsigned int op, uint32_t s, uint32_t d)
{
	uint32_t v = 0;

	if (op & 1)
		v |= ~s & ~d;
	if (op & 2)
		v |= ~s & d;
	if (op & 4)
		v |= s & ~d;
	if (op & 8)
		v |= s & d;
	return v;
}

/* ---- the pipeline ---------------------------------------------------- */

static bool stipple_pass(const struct r3d *r, int32_t x, int32_t y)
{
	uint32_t bit = 15 - (uint32_t)((y & 3) * 4 + (x & 3));

	return (r->st.stipple >> bit) & 1;
}

/* Depth and stencil of one fragment; false if it is discarded. */
static bool depth_stencil(struct r3d *r, int32_t x, int32_t y, float z,
			  unsigned int face)
{
	struct r3d_draw *d = &r->draw;
	uint32_t zmax = d->zcpp == 2 ? 0xffff : 0xffffff, zv, old, stored, nv;
	uint8_t s = 0, ns, ref, tm;
	bool spass = true, zpass = true;
	uint8_t *p;

	if (r->st.draw_flags & DRAW_RECT_DIS_DEPTH_OFS) {
		x -= r->st.origin_x;
		y -= r->st.origin_y;
	}
	if (x < 0 || y < 0)
		return false;
	p = r3d_map_px(r, &d->zmap, (uint32_t)x * d->zcpp, (uint32_t)y);
	if (!p)
		return false;
	old = load_px(p, d->zcpp);
	stored = old & zmax;
	zv = r3d_round_d((double)r3d_clamp01(z) * zmax);
	if (d->stencil_test) {
		s = (uint8_t)(old >> 24);
		ref = d->st_ref[face];
		tm = d->st_test_mask[face];
		spass = compare_u(d->st_func[face], ref & tm, s & tm);
	}
	if (spass && d->depth_test)
		zpass = compare_u(d->depth_func, zv, stored);
	nv = old;
	if (d->stencil_test && d->stencil_write) {
		unsigned int op = !spass ? d->st_fail[face] :
				  !zpass ? d->st_zfail[face] : d->st_zpass[face];

		ns = stencil_op(op, s, d->st_ref[face]);
		ns = (uint8_t)((ns & d->st_write_mask[face]) |
			       (s & ~d->st_write_mask[face]));
		nv = (nv & 0x00ffffffu) | (uint32_t)ns << 24;
	}
	if (spass && zpass && d->depth_write)
		nv = (nv & ~zmax) | zv;
	if (nv != old)
		store_px(p, d->zcpp, nv);
	return spass && zpass;
}

static void color_out(struct r3d *r, int32_t x, int32_t y, float c[4])
{
	struct r3d_draw *d = &r->draw;
	uint32_t keep = d->keep, v, old = 0;
	float dst[4], out[4];
	uint8_t *p;

	p = r3d_map_px(r, &d->cmap, (uint32_t)x * d->ccpp, (uint32_t)y);
	if (!p)
		return;
	if (d->blend || d->logic_op || keep)
		old = load_px(p, d->ccpp);
	if (d->blend && !d->logic_op) {
		if (d->cformat == COLOR_BUF_ARGB8888) {
			v = blend8888(d, c, old);
		} else {
			unpack_color(d->cformat, old, dst);
			blend(d, c, dst, out);
			v = pack_color(d->cformat, out);
		}
	} else {
		v = pack_color(d->cformat, c);
		if (d->logic_op)
			v = logic_op(r->st.logic_op, v, old);
	}
	store_px(p, d->ccpp, (v & ~keep) | (old & keep));
}

static uint32_t pack8888(float r, float g, float b, float a)
{
	return r3d_round(a * 255.0f) << 24 | r3d_round(r * 255.0f) << 16 |
	       r3d_round(g * 255.0f) << 8 | r3d_round(b * 255.0f);
}

/* The common case in loops of its own: ARGB8888, no tests, no masks.
 * The colours are packed for all lanes first (a loop the compiler
 * vectorises), then stored lane by lane. */
static void fragment_plain(struct r3d *r, unsigned int nlanes)
{
	const struct r3d_batch *b = &r->batch;
	struct r3d_draw *d = &r->draw;
	struct r3d_regs *g = &r->regs;
	uint32_t packed[R3D_LANES], v;
	unsigned int l, n = 0;
	float c[4];
	uint8_t *p;

	if (!d->blend) {
		for (l = 0; l < nlanes; l++)
			packed[l] = pack8888(r3d_clamp01(g->oc[0][l]),
					     r3d_clamp01(g->oc[1][l]),
					     r3d_clamp01(g->oc[2][l]),
					     r3d_clamp01(g->oc[3][l]));
	}
	for (l = 0; l < nlanes; l++) {
		int32_t x = b->qx[l >> 2] + (int32_t)(l & 1);
		int32_t y = b->qy[l >> 2] + (int32_t)((l >> 1) & 1);

		if (!g->live[l])
			continue;
		p = r3d_map_px(r, &d->cmap, (uint32_t)x * 4, (uint32_t)y);
		if (!p)
			return;
		if (d->blend) {
			c[0] = r3d_clamp01(g->oc[0][l]);
			c[1] = r3d_clamp01(g->oc[1][l]);
			c[2] = r3d_clamp01(g->oc[2][l]);
			c[3] = r3d_clamp01(g->oc[3][l]);
			memcpy(&v, p, 4);
			v = blend8888(d, c, v);
		} else {
			v = packed[l];
		}
		memcpy(p, &v, 4);
		n++;
	}
	r->pixels += n;
}

void r3d_fragment_batch(struct r3d *r)
{
	const struct r3d_batch *b = &r->batch;
	const struct r3d_setup *su = r->setup;
	struct r3d_draw *d = &r->draw;
	struct r3d_regs *g = &r->regs;
	unsigned int nlanes = 4 * b->nquads, l, c;
	bool writes_depth = r->st.prog.writes_depth;
	float fogc[4], col[4], z, f;

	if (d->plain) {
		fragment_plain(r, nlanes);
		return;
	}
	r3d_argb_to_rgba(r->st.fog_color, fogc);
	for (l = 0; l < nlanes && r->status == CS_OK; l++) {
		int32_t x = b->qx[l >> 2] + (int32_t)(l & 1);
		int32_t y = b->qy[l >> 2] + (int32_t)((l >> 1) & 1);

		if (!g->live[l])
			continue;
		if (d->stipple && su->stipple && !stipple_pass(r, x, y))
			continue;
		for (c = 0; c < 4; c++)
			col[c] = r3d_clamp01(g->oc[c][l]);
		if (d->fog) {
			f = r3d_clamp01(g->t[R3D_ATTR_FOG][3][l]);
			for (c = 0; c < 3; c++)
				col[c] = f * col[c] + (1.0f - f) * fogc[c];
		}
		if (d->alpha_test && !r3d_compare(d->alpha_func,
					      (float)to_unorm(col[3], 8),
					      (float)to_unorm(d->alpha_ref, 8)))
			continue;
		z = writes_depth ? g->od[3][l] : g->z[l];
		if ((d->depth_test || d->depth_write || d->stencil_test) &&
		    !depth_stencil(r, x, y, z, su->backface ? 1 : 0))
			continue;
		if (d->color_write)
			color_out(r, x, y, col);
		r->pixels++;
	}
}

/* ---- clears -------------------------------------------------------- */

void r3d_clear_rect(struct r3d *r, int32_t x1, int32_t y1, int32_t x2, int32_t y2,
		    bool zone_init)
{
	struct r3d_draw *d = &r->draw;
	const uint32_t *cp = r->st.clear;
	uint32_t params = cp[0], zmax = d->zcpp == 2 ? 0xffff : 0xffffff;
	uint32_t color, depth, zbits = 0, cbits = 0, v;
	float rgba[4], zf;
	int32_t x, y, zx, zy;
	uint8_t *p;

	if (params & CLEARPARAM_WRITE_COLOR && r->st.cbuf.valid)
		cbits = d->ccpp == 4 ? 0xffffffffu : (1u << (8 * d->ccpp)) - 1;
	if (params & CLEARPARAM_WRITE_DEPTH && r->st.zbuf.valid)
		zbits |= zmax;
	if (params & CLEARPARAM_WRITE_STENCIL && r->st.zbuf.valid && d->zcpp == 4)
		zbits |= 0xff000000u;
	if (zone_init) {
		color = cp[1];
		depth = cp[2];
	} else {
		r3d_argb_to_rgba(cp[3], rgba);
		color = pack_color(d->cformat, rgba);
		memcpy(&zf, &cp[4], sizeof(zf));
		depth = r3d_round_d((double)r3d_clamp01(zf) * zmax) |
			(cp[5] & 0xff) << 24;
	}
	x1 = x1 < d->clip_x1 ? d->clip_x1 : x1;
	y1 = y1 < d->clip_y1 ? d->clip_y1 : y1;
	x2 = x2 > d->clip_x2 ? d->clip_x2 : x2;
	y2 = y2 > d->clip_y2 ? d->clip_y2 : y2;
	for (y = y1; y <= y2 && r->status == CS_OK; y++) {
		for (x = x1; x <= x2 && r->status == CS_OK; x++) {
			if (cbits && (p = r3d_map_px(r, &d->cmap, (uint32_t)x * d->ccpp,
						     (uint32_t)y))) {
				v = load_px(p, d->ccpp);
				store_px(p, d->ccpp, (color & cbits) | (v & ~cbits));
			}
			zx = x;
			zy = y;
			if (r->st.draw_flags & DRAW_RECT_DIS_DEPTH_OFS) {
				zx -= r->st.origin_x;
				zy -= r->st.origin_y;
			}
			if (!zbits || zx < 0 || zy < 0)
				continue;
			p = r3d_map_px(r, &d->zmap, (uint32_t)zx * d->zcpp, (uint32_t)zy);
			if (p) {
				v = load_px(p, d->zcpp);
				store_px(p, d->zcpp, (depth & zbits) | (v & ~zbits));
			}
		}
	}
}
