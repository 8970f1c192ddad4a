/*
 * _3DPRIMITIVE: the vertex layout of S2/S4, vertex fetch (inline, from the
 * vertex buffer of S0/S1 in order, or through an inline index list), and
 * primitive assembly into what the rasteriser fills.
 *
 * The layout is, in order: position (XY, XYZ, XYZW or XYW), depth offset,
 * point width, diffuse, specular/fog, fog parameter, then the texture
 * coordinate sets 0-7 in the formats S2 gives.  This is the order Mesa's
 * i915 driver emits; the position of the depth offset, which no client
 * uses, is the model's guess.
 */
#include <math.h>
#include <string.h>

#include "3d-priv.h"
#include "util.h"

/* Texture coordinate dwords per S2 format (-1: reserved). */
static int tc_dwords(uint32_t fmt)
{
	switch (fmt) {
	case TEXCOORDFMT_2D:	return 2;
	case TEXCOORDFMT_3D:	return 3;
	case TEXCOORDFMT_4D:	return 4;
	case TEXCOORDFMT_1D:	return 1;
	case TEXCOORDFMT_2D_16:	return 1;
	case TEXCOORDFMT_4D_16:	return 2;
	case TEXCOORDFMT_NOT_PRESENT: return 0;
	}
	return -1;
}

static int take(uint32_t *size, bool present, uint32_t n)
{
	int off = (int)*size;

	if (!present)
		return -1;
	*size += n;
	return off;
}

static enum cs_status vertex_layout(struct r3d *r)
{
	struct r3d_draw *d = &r->draw;
	uint32_t s2 = r->st.s[2], s4 = r->st.s[4];
	uint32_t size = 0, i;
	int n;

	d->pos_fmt = (s4 >> S4_VFMT_XYZW_SHIFT) & S4_VFMT_XYZW_MASK;
	switch (d->pos_fmt) {
	case S4_VFMT_XYZ:
	case S4_VFMT_XYW:
		size = 3;
		break;
	case S4_VFMT_XYZW:
		size = 4;
		break;
	case S4_VFMT_XY:
		size = 2;
		break;
	default:
		return CS_INVALID;
	}
	d->pos_w = d->pos_fmt == S4_VFMT_XYZW ? 3 : d->pos_fmt == S4_VFMT_XYW ? 2 : -1;
	take(&size, s4 & S4_VFMT_DEPTH_OFFSET, 1);
	d->psize_off = take(&size, s4 & S4_VFMT_POINT_WIDTH, 1);
	d->diffuse_off = take(&size, s4 & S4_VFMT_COLOR, 1);
	d->spec_off = take(&size, s4 & S4_VFMT_SPEC_FOG, 1);
	d->fog_off = take(&size, s4 & S4_VFMT_FOG_PARAM, 1);
	for (i = 0; i < 8; i++) {
		d->tc_fmt[i] = (uint8_t)S2_TEXCOORD_FMT(s2, i);
		n = tc_dwords(d->tc_fmt[i]);
		if (n < 0)
			return CS_INVALID;
		d->tc_off[i] = take(&size, n > 0, (uint32_t)n);
	}
	d->vsize = size;
	return CS_OK;
}

static float f32(uint32_t v)
{
	float f;

	memcpy(&f, &v, sizeof(f));
	return f;
}

static float half(uint32_t h)
{
	uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
	float v;

	if (e == 0)
		v = ldexpf((float)m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexpf((float)(m | 0x400), (int)e - 25);
	return sign ? -v : v;
}

static void texcoord(const struct r3d_draw *d, const uint32_t *p, unsigned int set,
		     float out[4])
{
	const uint32_t *q = p + d->tc_off[set];

	out[0] = out[1] = out[2] = 0.0f;
	out[3] = 1.0f;
	switch (d->tc_fmt[set]) {
	case TEXCOORDFMT_4D:
		out[3] = f32(q[3]);
		fallthrough;
	case TEXCOORDFMT_3D:
		out[2] = f32(q[2]);
		fallthrough;
	case TEXCOORDFMT_2D:
		out[1] = f32(q[1]);
		fallthrough;
	case TEXCOORDFMT_1D:
		out[0] = f32(q[0]);
		break;
	case TEXCOORDFMT_4D_16:
		out[2] = half(q[1] & 0xffff);
		out[3] = half(q[1] >> 16);
		fallthrough;
	case TEXCOORDFMT_2D_16:
		out[0] = half(q[0] & 0xffff);
		out[1] = half(q[0] >> 16);
		break;
	}
}

/* Decode one vertex of vsize dwords into window coordinates and inputs. */
static void decode_vertex(struct r3d *r, const uint32_t *p, struct r3d_vtx *v)
{
	const struct r3d_draw *d = &r->draw;
	const struct r3d_state *st = &r->st;
	uint32_t s4 = st->s[4];
	float sets[8][4];
	unsigned int i, set;

	v->x = f32(p[0]) + (float)st->origin_x;
	v->y = f32(p[1]) + (float)st->origin_y;
	v->z = d->pos_fmt == S4_VFMT_XYZ || d->pos_fmt == S4_VFMT_XYZW ?
	       f32(p[2]) : st->dflt_z;
	v->w = d->pos_w >= 0 ? f32(p[d->pos_w]) : 1.0f;
	v->psize = d->psize_off >= 0 ? f32(p[d->psize_off]) :
		   (float)((s4 >> S4_POINT_WIDTH_SHIFT) & S4_POINT_WIDTH_MASK);
	if (st->s[5] & S5_FORCE_DEFAULT_POINT_SIZE)
		v->psize = (float)((s4 >> S4_POINT_WIDTH_SHIFT) & S4_POINT_WIDTH_MASK);

	if (d->diffuse_off >= 0 && !(s4 & S4_FORCE_DEFAULT_DIFFUSE))
		r3d_argb_to_rgba(p[d->diffuse_off], v->a[R3D_ATTR_DIFFUSE]);
	else
		r3d_argb_to_rgba(st->dflt_diffuse, v->a[R3D_ATTR_DIFFUSE]);
	if (d->spec_off >= 0 && !(s4 & S4_FORCE_DEFAULT_SPECULAR))
		r3d_argb_to_rgba(p[d->spec_off], v->a[R3D_ATTR_SPECULAR]);
	else
		r3d_argb_to_rgba(st->dflt_specular, v->a[R3D_ATTR_SPECULAR]);
	/* Fog: the parameter if given, else the specular dword's alpha. */
	memset(v->a[R3D_ATTR_FOG], 0, sizeof(v->a[R3D_ATTR_FOG]));
	v->a[R3D_ATTR_FOG][3] = d->fog_off >= 0 ? f32(p[d->fog_off]) :
				v->a[R3D_ATTR_SPECULAR][3];

	for (i = 0; i < 8; i++) {
		if (d->tc_off[i] >= 0) {
			texcoord(d, p, i, sets[i]);
		} else {
			sets[i][0] = sets[i][1] = sets[i][2] = 0.0f;
			sets[i][3] = 1.0f;
		}
	}
	/* Input Ti reads the coordinate set COORD_SET_BINDINGS names. */
	for (i = 0; i < 8; i++) {
		set = (st->coord_bindings >> CSB_TCB_SHIFT(i)) & 7;
		memcpy(v->a[i], sets[set], sizeof(sets[set]));
	}
}

/* Where the vertices come from: the command itself, or the vertex buffer
 * in order or by index. */
struct vsource {
	const uint32_t *dw;
	uint32_t len;
	bool indirect, indexed;
	uint32_t count;			/* vertices (or indices) in all */
	uint32_t start;			/* sequential: first index */
	uint64_t vb;			/* vertex buffer GTT address */
	uint32_t pitch;			/* bytes between vertices */
	uint32_t next;
	uint32_t buf[64];		/* one vertex from the vertex buffer */
};

static void vsource_init(struct r3d *r, struct vsource *vs, const uint32_t *dw,
			 uint32_t len)
{
	uint32_t s1 = r->st.s[1], hdr = dw[0], i;

	memset(vs, 0, sizeof(*vs));
	vs->dw = dw;
	vs->len = len;
	vs->indirect = hdr & PRIM_INDIRECT;
	if (!vs->indirect) {
		vs->count = r->draw.vsize ? (len - 1) / r->draw.vsize : 0;
		return;
	}
	vs->vb = r->st.s[0] & S0_VB_OFFSET_MASK;
	vs->pitch = 4 * ((s1 >> S1_VERTEX_PITCH_SHIFT) & S1_VERTEX_FIELD_MASK);
	vs->indexed = hdr & PRIM_INDIRECT_ELTS;
	vs->count = hdr & PRIM_INDIRECT_COUNT_MASK;
	if (!vs->indexed) {
		vs->start = dw[1] & 0xffff;
		return;
	}
	if (vs->count)
		return;
	/* A count of zero: the indices run to the 0xffff terminator. */
	for (i = 0; i < 2 * (len - 1); i++) {
		if (((dw[1 + i / 2] >> (16 * (i & 1))) & 0xffff) ==
		    PRIM_INDEX_TERMINATOR)
			break;
		vs->count++;
	}
}

/* The next vertex; false at the end or on an error (r->status). */
static bool vsource_next(struct r3d *r, struct vsource *vs, struct r3d_vtx *v)
{
	uint32_t vsize = r->draw.vsize, idx, i;
	uint64_t addr;

	if (vs->next >= vs->count || r->status != CS_OK)
		return false;
	if (!vs->indirect) {
		decode_vertex(r, vs->dw + 1 + vs->next * vsize, v);
		vs->next++;
		return true;
	}
	if (vs->indexed)
		idx = (vs->dw[1 + vs->next / 2] >> (16 * (vs->next & 1))) & 0xffff;
	else
		idx = vs->start + vs->next;
	vs->next++;
	addr = vs->vb + (uint64_t)idx * vs->pitch;
	for (i = 0; i < vsize; i++) {
		if (!gtt_read32(r->gpu, addr + 4ull * i, &vs->buf[i])) {
			r->gpu->cs.fault_addr = addr + 4ull * i;
			r3d_fail(r, CS_FAULT);
			return false;
		}
	}
	decode_vertex(r, vs->buf, v);
	return true;
}

/* Culling in the chip's sense: "clockwise" is clockwise as the buffer is
 * laid out (y grows downwards), which is what Mesa's i915 driver assumes
 * when it maps GL's front face onto S4's cull mode. */
static bool culled(uint32_t cull, float area)
{
	switch (cull) {
	case S4_CULLMODE_BOTH:
		return true;
	case S4_CULLMODE_CW:
		return area > 0.0f;
	case S4_CULLMODE_CCW:
		return area < 0.0f;
	}
	return false;
}

/* Channels taken from the provoking vertex: bit 4 * (input - T_DIFFUSE)
 * + channel, for diffuse, specular and fog. */
#define FLAT_BIT(attr, ch)	(1u << (4 * ((attr) - T_DIFFUSE) + (ch)))

static uint32_t flat_mask(uint32_t s4)
{
	uint32_t m = 0;

	if (s4 & S4_FLATSHADE_COLOR)
		m |= FLAT_BIT(T_DIFFUSE, 0) | FLAT_BIT(T_DIFFUSE, 1) |
		     FLAT_BIT(T_DIFFUSE, 2);
	if (s4 & S4_FLATSHADE_ALPHA)
		m |= FLAT_BIT(T_DIFFUSE, 3);
	if (s4 & S4_FLATSHADE_SPECULAR)
		m |= FLAT_BIT(T_SPECULAR, 0) | FLAT_BIT(T_SPECULAR, 1) |
		     FLAT_BIT(T_SPECULAR, 2);
	if (s4 & S4_FLATSHADE_FOG)
		m |= FLAT_BIT(T_SPECULAR, 3) | FLAT_BIT(T_FOG_W, 3);
	return m;
}

static void draw_triangle(struct r3d *r, const struct r3d_vtx *v0,
			  const struct r3d_vtx *v1, const struct r3d_vtx *v2,
			  const struct r3d_vtx *pv)
{
	float area = (v1->x - v0->x) * (v2->y - v0->y) -
		     (v2->x - v0->x) * (v1->y - v0->y);
	uint32_t cull = (r->st.s[4] >> S4_CULLMODE_SHIFT) & 3;
	struct r3d_setup su;
	float xy[3][2] = {
		{ v0->x, v0->y }, { v1->x, v1->y }, { v2->x, v2->y },
	};

	if (area == 0.0f || culled(cull, area))
		return;
	r3d_setup_triangle(r, &su, v0, v1, v2, pv, flat_mask(r->st.s[4]));
	/* Two-sided stencil: S5 holds the clockwise face, BFO the other. */
	su.backface = area < 0.0f;
	su.stipple = true;
	r3d_raster_polygon(r, &su, xy, 3);
}

/* RECTLIST: v0 is one corner, v2 the opposite one; the attributes are
 * extended linearly from the three vertices to the fourth corner. */
static void draw_rect(struct r3d *r, const struct r3d_vtx *v0,
		      const struct r3d_vtx *v1, const struct r3d_vtx *v2)
{
	struct r3d_setup su;
	float xy[4][2] = {
		{ v0->x, v0->y }, { v1->x, v1->y }, { v2->x, v2->y },
		{ v0->x + v2->x - v1->x, v0->y + v2->y - v1->y },
	};

	if ((v1->x - v0->x) * (v2->y - v0->y) == (v2->x - v0->x) * (v1->y - v0->y))
		return;
	r3d_setup_triangle(r, &su, v0, v1, v2, v2, 0);
	su.backface = false;
	su.stipple = false;
	r3d_raster_polygon(r, &su, xy, 4);
}

/*
 * A line covers, in each column of its major axis from the first endpoint
 * up to (not including) the second, the w pixels whose centres lie within
 * w/2 of it: GL's rule for aliased lines.  It is filled as the
 * parallelogram those columns span, with its ends on pixel boundaries so
 * that the direction of the line, not the fill convention, decides which
 * end is drawn.  The inputs vary along the major axis only.
 */
static bool line_columns(float a, float b, float bias, bool last, float *lo,
			 float *hi)
{
	int32_t c0, c1;

	if (!(fabsf(a) < R3D_MAX_COORD && fabsf(b) < R3D_MAX_COORD))
		return false;
	if (a < b) {
		c0 = -r3d_ifloor(bias - a);
		c1 = -r3d_ifloor(bias - b) - (last ? 0 : 1);
	} else {
		c0 = r3d_ifloor(b - bias) + (last ? 0 : 1);
		c1 = r3d_ifloor(a - bias);
	}
	*lo = (float)c0 + bias - 0.5f;
	*hi = (float)c1 + bias + 0.5f;
	return c1 >= c0;
}

static void draw_line(struct r3d *r, const struct r3d_vtx *v0,
		      const struct r3d_vtx *v1, const struct r3d_vtx *pv)
{
	float width = (float)((r->st.s[4] >> S4_LINE_WIDTH_SHIFT) &
			      S4_LINE_WIDTH_MASK) * 0.5f;
	bool last = r->st.s[5] & S5_LAST_PIXEL_ENABLE;
	float dx = v1->x - v0->x, dy = v1->y - v0->y, h, lo, hi, m0, m1;
	struct r3d_vtx e2 = *v1;
	struct r3d_setup su;
	float xy[4][2];

	if (dx == 0.0f && dy == 0.0f)
		return;
	if (width < 1.0f)
		width = 1.0f;
	h = width * 0.5f;
	if (fabsf(dx) >= fabsf(dy)) {
		if (!line_columns(v0->x, v1->x, r->draw.bias_x, last, &lo, &hi))
			return;
		m0 = v0->y + (lo - v0->x) * dy / dx;
		m1 = v0->y + (hi - v0->x) * dy / dx;
		xy[0][0] = lo; xy[0][1] = m0 - h;
		xy[1][0] = hi; xy[1][1] = m1 - h;
		xy[2][0] = hi; xy[2][1] = m1 + h;
		xy[3][0] = lo; xy[3][1] = m0 + h;
		e2.y += 1.0f;	/* a third point off the line, same values */
	} else {
		if (!line_columns(v0->y, v1->y, r->draw.bias_y, last, &lo, &hi))
			return;
		m0 = v0->x + (lo - v0->y) * dx / dy;
		m1 = v0->x + (hi - v0->y) * dx / dy;
		xy[0][0] = m0 - h; xy[0][1] = lo;
		xy[1][0] = m1 - h; xy[1][1] = hi;
		xy[2][0] = m1 + h; xy[2][1] = hi;
		xy[3][0] = m0 + h; xy[3][1] = lo;
		e2.x += 1.0f;
	}
	r3d_setup_triangle(r, &su, v0, v1, &e2, pv, flat_mask(r->st.s[4]));
	su.backface = false;
	su.stipple = false;
	r3d_raster_polygon(r, &su, xy, 4);
}

/* A point is a square of its size centred on it, every input constant. */
static void draw_point(struct r3d *r, const struct r3d_vtx *v)
{
	float h = (v->psize < 1.0f ? 1.0f : v->psize) * 0.5f;
	float xy[4][2] = {
		{ v->x - h, v->y - h }, { v->x + h, v->y - h },
		{ v->x + h, v->y + h }, { v->x - h, v->y + h },
	};
	struct r3d_setup su;

	r3d_setup_constant(r, &su, v);
	r3d_raster_polygon(r, &su, xy, 4);
}

/* Provoking vertex k (0-2) of a triangle from the two fields that set it. */
static const struct r3d_vtx *pick(const struct r3d_vtx *a, const struct r3d_vtx *b,
				  const struct r3d_vtx *c, uint32_t k)
{
	return k == 0 ? a : k == 1 ? b : c;
}

static void assemble(struct r3d *r, struct vsource *vs, uint32_t type)
{
	uint32_t tri_pv = (r->st.s[6] >> S6_TRISTRIP_PV_SHIFT) & S6_TRISTRIP_PV_MASK;
	uint32_t fan_pv = (r->st.raster_rules >> TRI_FAN_PROVOKE_VRTX_SHIFT) & 3;
	uint32_t line_pv = (r->st.raster_rules >> LINE_STRIP_PROVOKE_VRTX_SHIFT) & 3;
	struct r3d_vtx v[3], first;
	uint32_t n = 0;

	while (vsource_next(r, vs, &v[n % 3])) {
		const struct r3d_vtx *a = &v[(n + 1) % 3], *b = &v[(n + 2) % 3];
		const struct r3d_vtx *c = &v[n % 3];	/* newest */

		if (n == 0)
			first = *c;
		n++;
		switch (type) {
		case PRIM3D_TRILIST:
			if (n % 3 == 0)
				draw_triangle(r, a, b, c, pick(a, b, c, tri_pv));
			break;
		case PRIM3D_RECTLIST:
			if (n % 3 == 0)
				draw_rect(r, a, b, c);
			break;
		case PRIM3D_TRISTRIP:
		case PRIM3D_TRISTRIP_RVRSE:
			if (n < 3)
				break;
			/* Every other triangle is wound the other way. */
			if ((n % 2 == 0) == (type == PRIM3D_TRISTRIP))
				draw_triangle(r, b, a, c, pick(a, b, c, tri_pv));
			else
				draw_triangle(r, a, b, c, pick(a, b, c, tri_pv));
			break;
		case PRIM3D_TRIFAN:
			if (n >= 3)
				draw_triangle(r, &first, b, c,
					      pick(&first, b, c, fan_pv));
			break;
		case PRIM3D_POLY:
			if (n >= 3)
				draw_triangle(r, &first, b, c, &first);
			break;
		case PRIM3D_LINELIST:
			if (n % 2 == 0)
				draw_line(r, b, c, line_pv ? c : b);
			break;
		case PRIM3D_LINESTRIP:
			if (n >= 2)
				draw_line(r, b, c, line_pv ? c : b);
			break;
		case PRIM3D_POINTLIST:
			draw_point(r, c);
			break;
		}
		if (r->status != CS_OK)
			return;
	}
}

/* CLEAR_RECT and ZONE_INIT: three XY vertices whatever S4 says. */
static enum cs_status clear_prim(struct r3d *r, const uint32_t *dw, uint32_t len,
				 bool zone_init)
{
	float x[3], y[3], x1, y1, x2, y2;
	uint32_t i;

	if (len < 7)
		return CS_OK;
	for (i = 0; i < 3; i++) {
		x[i] = f32(dw[1 + 2 * i]) + (float)r->st.origin_x;
		y[i] = f32(dw[2 + 2 * i]) + (float)r->st.origin_y;
	}
	x1 = fminf(x[0], fminf(x[1], x[2]));
	x2 = fmaxf(x[0], fmaxf(x[1], x[2]));
	y1 = fminf(y[0], fminf(y[1], y[2]));
	y2 = fmaxf(y[0], fmaxf(y[1], y[2]));
	if (!(x2 > x1 && y2 > y1) || x1 < -R3D_MAX_COORD || y1 < -R3D_MAX_COORD ||
	    x2 > R3D_MAX_COORD || y2 > R3D_MAX_COORD)
		return CS_OK;
	/* Pixel centres inside [x1, x2) x [y1, y2). */
	r3d_clear_rect(r, -r3d_ifloor(r->draw.bias_x - x1),
		       -r3d_ifloor(r->draw.bias_y - y1),
		       -r3d_ifloor(r->draw.bias_x - x2) - 1,
		       -r3d_ifloor(r->draw.bias_y - y2) - 1, zone_init);
	return r->status;
}

enum cs_status r3d_primitive(struct r3d *r, const uint32_t *dw, uint32_t len)
{
	uint32_t type = PRIM3D_TYPE(dw[0]);
	struct vsource vs;
	enum cs_status st;

	r->status = CS_OK;
	r3d_fragment_prepare(r);
	if (r->status != CS_OK)
		return r->status;
	if (type == PRIM3D_CLEAR_RECT || type == PRIM3D_ZONE_INIT)
		return clear_prim(r, dw, len, type == PRIM3D_ZONE_INIT);
	if (type > PRIM3D_DIB)
		return CS_INVALID;
	st = vertex_layout(r);
	if (st != CS_OK)
		return st;
	if (type == PRIM3D_DIB || !r->st.prog_valid || !r->draw.vsize)
		return CS_OK;		/* nothing the model draws */
	if (r->draw.vsize > sizeof(vs.buf) / sizeof(vs.buf[0]))
		return CS_INVALID;
	vsource_init(r, &vs, dw, len);
	assemble(r, &vs, type);
	r3d_flush_batch(r);
	return r->status;
}
