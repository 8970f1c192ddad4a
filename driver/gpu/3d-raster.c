/*
 * Setup and rasterisation.
 *
 * Every primitive arrives as a convex polygon (a triangle, or the four
 * corners of a rectangle, line or point) plus the planes of its inputs.
 * Corners are snapped to 1/256 pixel and each edge is an exact integer
 * edge function evaluated at the pixel's sample position (the pixel plus
 * DSTORG's bias, normally its centre).  A sample exactly on an edge
 * belongs to the primitive only if the edge is a top or a left one, so
 * primitives sharing an edge never both cover a pixel nor leave a gap.
 * Rows are walked in pairs and each row's span is solved from the edge
 * functions directly (no per-pixel tests), giving the 2x2 quads the shader
 * runs on.
 */
#include <math.h>
#include <string.h>

#include "3d-priv.h"

#define FIX_ONE		(1 << R3D_SUBPIXEL_BITS)

static double plane_geom(const struct r3d_vtx *v0, const struct r3d_vtx *v1,
			 const struct r3d_vtx *v2, double g[4])
{
	g[0] = (double)v1->x - v0->x;
	g[1] = (double)v1->y - v0->y;
	g[2] = (double)v2->x - v0->x;
	g[3] = (double)v2->y - v0->y;
	return g[0] * g[3] - g[2] * g[1];
}

/* The plane through (v_i.x, v_i.y, a_i), as a function of the pixel. */
static void make_plane(struct r3d_plane *p, const struct r3d *r,
		       const struct r3d_vtx *v0, const double g[4], double inv,
		       double a0, double a1, double a2)
{
	double dx = ((a1 - a0) * g[3] - (a2 - a0) * g[1]) * inv;
	double dy = ((a2 - a0) * g[0] - (a1 - a0) * g[2]) * inv;

	p->dx = (float)dx;
	p->dy = (float)dy;
	p->c = (float)(a0 + dx * (r->draw.bias_x - v0->x) +
		       dy * (r->draw.bias_y - v0->y));
}

static void const_plane(struct r3d_plane *p, float v)
{
	p->c = v;
	p->dx = p->dy = 0.0f;
}

/* Polygon offset: the slope term and the constant in units of the depth
 * buffer's resolution. */
static void depth_offset(struct r3d *r, struct r3d_setup *su)
{
	float slope, units;

	if (!(r->st.s[4] & S4_LOCAL_DEPTH_OFFSET_ENABLE) &&
	    !(r->st.s[5] & S5_GLOBAL_DEPTH_OFFSET_ENABLE))
		return;
	memcpy(&units, &r->st.s[7], sizeof(units));
	slope = fmaxf(fabsf(su->z.dx), fabsf(su->z.dy));
	su->z.c += r->st.depth_offset_scale * slope +
		   units * (r->draw.zcpp == 2 ? 1.0f / 65536.0f : 1.0f / 16777216.0f);
}

void r3d_setup_triangle(struct r3d *r, struct r3d_setup *su,
			const struct r3d_vtx *v0, const struct r3d_vtx *v1,
			const struct r3d_vtx *v2, const struct r3d_vtx *pv,
			uint32_t flat)
{
	double g[4], inv = 1.0 / plane_geom(v0, v1, v2, g);
	double w0 = 1.0, w1 = 1.0, w2 = 1.0;
	unsigned int a, c;

	su->perspective = r->draw.pos_w >= 0;
	su->attr_mask = r->draw.attr_mask;
	make_plane(&su->z, r, v0, g, inv, v0->z, v1->z, v2->z);
	if (su->perspective) {
		w0 = v0->w;
		w1 = v1->w;
		w2 = v2->w;
		make_plane(&su->w, r, v0, g, inv, w0, w1, w2);
	}
	for (a = 0; a < R3D_NATTR; a++) {
		su->flat[a] = 0;
		if (!(su->attr_mask & (1u << a)))
			continue;
		for (c = 0; c < 4; c++) {
			if (a >= T_DIFFUSE &&
			    (flat & (1u << (4 * (a - T_DIFFUSE) + c)))) {
				const_plane(&su->a[a][c], pv->a[a][c]);
				su->flat[a] |= (uint16_t)(1u << c);
				continue;
			}
			make_plane(&su->a[a][c], r, v0, g, inv, v0->a[a][c] * w0,
				   v1->a[a][c] * w1, v2->a[a][c] * w2);
		}
	}
	depth_offset(r, su);
}

void r3d_setup_constant(struct r3d *r, struct r3d_setup *su,
			const struct r3d_vtx *v)
{
	unsigned int a, c;

	su->perspective = false;
	su->backface = false;
	su->stipple = false;
	su->attr_mask = r->draw.attr_mask;
	const_plane(&su->z, v->z);
	for (a = 0; a < R3D_NATTR; a++) {
		su->flat[a] = 0xf;
		for (c = 0; c < 4; c++)
			const_plane(&su->a[a][c], v->a[a][c]);
	}
}

/*
 * One primitive can keep the command streamer for a long time.  Between
 * batches it lets go when reset or destroy ask it to, and it shows
 * progress as the chip does, in INSTDONE (two unit bits standing for the
 * 3D units, cleared by turns): hangcheck, which sees ACTHD stand still on
 * the command, must not mistake a long draw for a hang.
 */
#define R3D_INSTDONE_UNITS	(3u << 6)

void r3d_flush_batch(struct r3d *r)
{
	if (!r->batch.nquads)
		return;
	if (r->status == CS_OK && gpu_cs_aborted(r->gpu))
		r->status = CS_ABORT;
	if (r->status == CS_OK) {
		r3d_shade_batch(r);
		r3d_fragment_batch(r);
		r->batches++;
		reg_set(r->gpu, INSTDONE, (INSTDONE_IDLE & ~IP_DONE & ~R3D_INSTDONE_UNITS) |
			(r->batches & 1 ? 1u << 6 : 1u << 7));
	}
	r->batch.nquads = 0;
}

static void add_quad(struct r3d *r, int32_t qx, int32_t qy, uint8_t cover)
{
	struct r3d_batch *b = &r->batch;

	b->qx[b->nquads] = qx;
	b->qy[b->nquads] = qy;
	b->cover[b->nquads] = cover;
	if (++b->nquads == R3D_QUADS)
		r3d_flush_batch(r);
}

static int64_t floor_div(int64_t a, int64_t b)	/* b > 0 */
{
	int64_t q = a / b;

	return q * b > a ? q - 1 : q;
}

static int64_t ceil_div(int64_t a, int64_t b)	/* b > 0 */
{
	return -floor_div(-a, b);
}

struct edge {
	int64_t dx, dy, ax, ay;
	int64_t t;		/* 0: a sample on the edge is inside; 1: not */
};

/* Clip [*lo, *hi] to the pixels of row sy where edge e is satisfied. */
static void edge_span(const struct edge *e, int64_t sy, int64_t ox,
		      int64_t *lo, int64_t *hi)
{
	int64_t e0 = e->dx * (sy - e->ay) - e->dy * (ox - e->ax);
	int64_t step = -e->dy * FIX_ONE;	/* per pixel in x */
	int64_t b;

	if (step == 0) {
		if (e0 < e->t)
			*hi = *lo - 1;
		return;
	}
	if (step > 0) {
		b = ceil_div(e->t - e0, step);
		if (b > *lo)
			*lo = b;
	} else {
		b = floor_div(e0 - e->t, -step);
		if (b < *hi)
			*hi = b;
	}
}

static bool row_span(const struct edge *e, unsigned int n, int64_t py,
		     int64_t oy, int64_t ox, int64_t x1, int64_t x2,
		     int64_t *lo, int64_t *hi)
{
	int64_t sy = py * FIX_ONE + oy;
	unsigned int i;

	*lo = x1;
	*hi = x2;
	for (i = 0; i < n && *lo <= *hi; i++)
		edge_span(&e[i], sy, ox, lo, hi);
	return *lo <= *hi;
}

static uint8_t quad_cover(int64_t qx, bool in0, int64_t l0, int64_t h0,
			  bool in1, int64_t l1, int64_t h1)
{
	uint8_t m = 0;

	if (in0 && qx >= l0 && qx <= h0)
		m |= 1;
	if (in0 && qx + 1 >= l0 && qx + 1 <= h0)
		m |= 2;
	if (in1 && qx >= l1 && qx <= h1)
		m |= 4;
	if (in1 && qx + 1 >= l1 && qx + 1 <= h1)
		m |= 8;
	return m;
}

void r3d_raster_polygon(struct r3d *r, const struct r3d_setup *su,
			const float (*xy)[2], unsigned int n)
{
	const struct r3d_draw *d = &r->draw;
	int64_t X[4], Y[4], area = 0, minx, maxx, miny, maxy, ox, oy;
	int64_t x1, x2, y1, y2, py, qx, l0, h0, l1, h1;
	struct edge e[4];
	unsigned int i, j;
	bool in0, in1;

	for (i = 0; i < n; i++) {
		if (!(fabsf(xy[i][0]) < R3D_MAX_COORD && fabsf(xy[i][1]) < R3D_MAX_COORD))
			return;
		X[i] = llrintf(xy[i][0] * FIX_ONE);
		Y[i] = llrintf(xy[i][1] * FIX_ONE);
	}
	for (i = 0; i < n; i++) {
		j = (i + 1) % n;
		area += X[i] * Y[j] - X[j] * Y[i];
	}
	if (area == 0)
		return;
	minx = maxx = X[0];
	miny = maxy = Y[0];
	for (i = 0; i < n; i++) {
		/* Walk the corners so that the inside is on the positive side. */
		unsigned int a = area > 0 ? i : n - 1 - i;
		unsigned int b = area > 0 ? (i + 1) % n : (2 * n - 2 - i) % n;

		e[i].ax = X[a];
		e[i].ay = Y[a];
		e[i].dx = X[b] - X[a];
		e[i].dy = Y[b] - Y[a];
		e[i].t = e[i].dy < 0 || (e[i].dy == 0 && e[i].dx > 0) ? 0 : 1;
		minx = X[i] < minx ? X[i] : minx;
		maxx = X[i] > maxx ? X[i] : maxx;
		miny = Y[i] < miny ? Y[i] : miny;
		maxy = Y[i] > maxy ? Y[i] : maxy;
	}
	ox = llrintf(d->bias_x * FIX_ONE);
	oy = llrintf(d->bias_y * FIX_ONE);
	x1 = ceil_div(minx - ox, FIX_ONE);
	x2 = floor_div(maxx - ox, FIX_ONE);
	y1 = ceil_div(miny - oy, FIX_ONE);
	y2 = floor_div(maxy - oy, FIX_ONE);
	x1 = x1 < d->clip_x1 ? d->clip_x1 : x1;
	x2 = x2 > d->clip_x2 ? d->clip_x2 : x2;
	y1 = y1 < d->clip_y1 ? d->clip_y1 : y1;
	y2 = y2 > d->clip_y2 ? d->clip_y2 : y2;
	if (x1 > x2 || y1 > y2)
		return;

	r->setup = su;
	for (py = y1 & ~(int64_t)1; py <= y2 && r->status == CS_OK; py += 2) {
		in0 = py >= y1 && row_span(e, n, py, oy, ox, x1, x2, &l0, &h0);
		in1 = py + 1 <= y2 && row_span(e, n, py + 1, oy, ox, x1, x2, &l1, &h1);
		if (!in0 && !in1)
			continue;
		qx = !in0 ? l1 : !in1 ? l0 : l0 < l1 ? l0 : l1;
		for (qx &= ~(int64_t)1; qx <= (!in0 ? h1 : !in1 ? h0 : h0 > h1 ? h0 : h1);
		     qx += 2) {
			uint8_t m = quad_cover(qx, in0, l0, h0, in1, l1, h1);

			if (m)
				add_quad(r, (int32_t)qx, (int32_t)py, m);
		}
	}
	r3d_flush_batch(r);
	r->setup = NULL;
}
