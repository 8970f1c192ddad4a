/*
 * Texture sampling: map state (where and what the texels are) and sampler
 * state (how they are filtered) decoded once per draw, then per lane the
 * level of detail from the quad's derivatives, the address modes, and
 * nearest or bilinear filtering between mip levels.
 *
 * Mip levels and cube faces sit where the 945 puts them, which is where
 * Mesa's i915 driver lays them out (i945_texture_layout_2d/_3d and the
 * shared cube layout): level 1 below level 0, the rest stacked to the
 * right of level 1; cube faces in a two-column arrangement at double
 * pitch; volume slices packed per level.  Sizes of the layout are the
 * next powers of two of the map's.
 *
 * Not modelled: compressed (DXT, FXT1) and palettised maps sample as
 * transparent black, anisotropic and 4x4 filters filter bilinearly.
 */
#include <math.h>
#include <string.h>

#include "3d-priv.h"

static uint32_t next_pot(uint32_t v)
{
	uint32_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) / a * a;
}

static uint32_t texel_size(uint32_t surf)
{
	switch (surf) {
	case MAPSURF_8BIT:
		return 1;
	case MAPSURF_16BIT:
	case MAPSURF_422:
		return 2;
	case MAPSURF_32BIT:
		return 4;
	}
	return 0;
}

static float lod_s4_4(uint32_t v, uint32_t bits)
{
	int32_t s = (int32_t)(v << (32 - bits)) >> (32 - bits);

	return (float)s / 16.0f;
}

static void levels_prepare(struct r3d_tex *t);

void r3d_tex_prepare(struct r3d *r, unsigned int unit, unsigned int kind)
{
	struct r3d_tex *t = &r->draw.tex[unit];
	const uint32_t *ss = r->st.sampler[unit];
	uint32_t map = (ss[1] >> SS3_TEXTUREMAP_INDEX_SHIFT) & SS3_TEXTUREMAP_INDEX_MASK;
	const uint32_t *ms = r->st.map[map];
	enum gpu_tiling tiling = GPU_TILING_NONE;
	uint32_t stride, levels, sz;

	memset(t, 0, sizeof(*t));
	t->kind = (uint8_t)kind;
	t->surf = (ms[1] >> MS3_MAPSURF_FORMAT_SHIFT) & MS3_MAPSURF_FORMAT_MASK;
	t->mt = (ms[1] >> MS3_MT_FORMAT_SHIFT) & MS3_MT_FORMAT_MASK;
	t->cpp = texel_size(t->surf);
	t->width = ((ms[1] >> MS3_WIDTH_SHIFT) & MS3_SIZE_MASK) + 1;
	t->height = ((ms[1] >> MS3_HEIGHT_SHIFT) & MS3_SIZE_MASK) + 1;
	t->depth = kind == D0_SAMPLE_TYPE_VOLUME ?
		   ((ms[2] >> MS4_VOLUME_DEPTH_SHIFT) & MS4_VOLUME_DEPTH_MASK) + 1 : 1;
	t->pot_w = next_pot(t->width);
	t->pot_h = next_pot(t->height);
	t->pot_d = next_pot(t->depth);
	if (ms[1] & MS3_USE_FENCE_REGS) {
		if (gpu_fence_lookup(r->gpu, ms[0] & MS2_ADDRESS_MASK, &tiling, &stride) < 0)
			tiling = GPU_TILING_NONE;
	} else if (ms[1] & MS3_TILED_SURFACE) {
		tiling = ms[1] & MS3_TILE_WALK_Y ? GPU_TILING_Y : GPU_TILING_X;
	}
	r3d_map_init(&t->mem, ms[0] & MS2_ADDRESS_MASK,
		     4 * (((ms[2] >> MS4_PITCH_SHIFT) & MS4_PITCH_MASK) + 1), tiling);

	/* Levels: as many as MS4's maximum LOD allows, and no smaller than
	 * one texel. */
	sz = t->width > t->height ? t->width : t->height;
	sz = sz > t->depth ? sz : t->depth;
	for (levels = 0; (sz >> levels) > 1; levels++)
		;
	t->max_level = ((ms[2] >> MS4_MAX_LOD_SHIFT) & MS4_MAX_LOD_MASK) >> 2;
	if (t->max_level > levels)
		t->max_level = levels;
	t->max_lod = (float)((ms[2] >> MS4_MAX_LOD_SHIFT) & MS4_MAX_LOD_MASK) / 4.0f;

	t->mag = (ss[0] >> SS2_MAG_FILTER_SHIFT) & SS2_FILTER_MASK;
	t->min = (ss[0] >> SS2_MIN_FILTER_SHIFT) & SS2_FILTER_MASK;
	t->mip = (ss[0] >> SS2_MIP_FILTER_SHIFT) & SS2_MIP_FILTER_MASK;
	t->lod_bias = lod_s4_4((ss[0] >> SS2_LOD_BIAS_SHIFT) & SS2_LOD_BIAS_MASK, 9);
	t->shadow = ss[0] & SS2_SHADOW_ENABLE;
	t->shadow_func = (ss[0] >> SS2_SHADOW_FUNC_SHIFT) & 7;
	t->srgb = ss[0] & SS2_REVERSE_GAMMA_ENABLE;
	t->yuv_to_rgb = ss[0] & SS2_COLORSPACE_CONVERSION;
	t->min_lod = (float)((ss[1] >> SS3_MIN_LOD_SHIFT) & SS3_MIN_LOD_MASK) / 16.0f;
	t->kill_pixel = ss[1] & SS3_KILL_PIXEL_ENABLE;
	t->wrap[0] = (ss[1] >> SS3_TCX_ADDR_MODE_SHIFT) & SS3_ADDR_MODE_MASK;
	t->wrap[1] = (ss[1] >> SS3_TCY_ADDR_MODE_SHIFT) & SS3_ADDR_MODE_MASK;
	t->wrap[2] = (ss[1] >> SS3_TCZ_ADDR_MODE_SHIFT) & SS3_ADDR_MODE_MASK;
	t->normalized = ss[1] & SS3_NORMALIZED_COORDS;
	r3d_argb_to_rgba(ss[2], t->border);
	t->valid = t->cpp != 0;
	levels_prepare(t);
}

static void level_origin(const struct r3d_tex *t, unsigned int level,
			 unsigned int layer, uint32_t *ox, uint32_t *oy);

/* The sizes and origins of every level (and cube face), once per draw. */
static void levels_prepare(struct r3d_tex *t)
{
	unsigned int l, f, faces = t->kind == D0_SAMPLE_TYPE_CUBE ? 6 : 1;

	if (t->max_level >= R3D_MAX_LEVELS)
		t->max_level = R3D_MAX_LEVELS - 1;
	for (l = 0; l <= t->max_level; l++) {
		t->lw[l] = t->width >> l ? t->width >> l : 1;
		t->lh[l] = t->height >> l ? t->height >> l : 1;
		t->ld[l] = t->depth >> l ? t->depth >> l : 1;
		for (f = 0; f < faces; f++)
			level_origin(t, l, f, &t->lox[l][f], &t->loy[l][f]);
	}
}

/* Where level 'level' (face or slice 'layer') starts, in texels. */
static void level_origin(const struct r3d_tex *t, unsigned int level,
			 unsigned int layer, uint32_t *ox, uint32_t *oy)
{
	static const int8_t cube_start[6][2] = {
		{ 0, 0 }, { 0, 2 }, { 1, 0 }, { 1, 2 }, { 1, 1 }, { 1, 3 },
	};
	static const int8_t cube_step[6][2] = {
		{ 0, 2 }, { 0, 2 }, { -1, 2 }, { -1, 2 }, { -1, 1 }, { -1, 1 },
	};
	uint32_t l, x = 0, y = 0, d, w, h, nr, xpitch, ypitch, rows, q;

	if (t->kind == D0_SAMPLE_TYPE_CUBE) {
		d = t->pot_w;
		x = (uint32_t)cube_start[layer][0] * d;
		y = (uint32_t)cube_start[layer][1] * d;
		for (l = 0; l < level; l++) {
			d >>= 1;
			x = (uint32_t)((int32_t)x + cube_step[layer][0] * (int32_t)d);
			y = (uint32_t)((int32_t)y + cube_step[layer][1] * (int32_t)d);
		}
	} else if (t->kind == D0_SAMPLE_TYPE_VOLUME) {
		xpitch = t->mem.pitch / t->cpp;
		ypitch = t->pot_h > 2 ? t->pot_h : 2;
		nr = 1;
		d = t->pot_d;
		for (l = 0; l < level; l++) {
			rows = (d + nr - 1) / nr;
			y += rows * ypitch;
			if (xpitch > 4) {
				xpitch >>= 1;
				nr <<= 1;
			}
			if (ypitch > 2)
				ypitch >>= 1;
			d = d > 1 ? d >> 1 : 1;
		}
		q = layer;
		x = (q % nr) * xpitch;
		y += (q / nr) * ypitch;
	} else if (level > 0) {
		w = t->pot_w;
		h = t->pot_h;
		y = h;
		if (level >= 2)
			x = align_up(w >> 1 ? w >> 1 : 1, 4);
		for (l = 2; l < level; l++)
			y += align_up(h >> l ? h >> l : 1, 2);
	}
	*ox = x;
	*oy = y;
}

static float srgb_to_linear(float c)
{
	return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static float unorm(uint32_t v, unsigned int bits)
{
	return (float)v / (float)((1u << bits) - 1);
}

static void yuv(const struct r3d_tex *t, float yy, float u, float v, float rgba[4])
{
	if (!t->yuv_to_rgb) {
		rgba[0] = v;
		rgba[1] = yy;
		rgba[2] = u;
		rgba[3] = 1.0f;
		return;
	}
	yy = 1.164f * (yy - 16.0f / 255.0f);
	u -= 0.5f;
	v -= 0.5f;
	rgba[0] = r3d_clamp01(yy + 1.596f * v);
	rgba[1] = r3d_clamp01(yy - 0.813f * v - 0.391f * u);
	rgba[2] = r3d_clamp01(yy + 2.018f * u);
	rgba[3] = 1.0f;
}

/* Decode the texel at p (the map's format) into RGBA. */
static void decode_texel(const struct r3d_tex *t, const uint8_t *p, uint32_t x,
			 float rgba[4])
{
	uint32_t v = 0;
	float a;

	memcpy(&v, p, t->cpp);
	rgba[0] = rgba[1] = rgba[2] = 0.0f;
	rgba[3] = 1.0f;
	switch (t->surf << 4 | t->mt) {
	case MAPSURF_8BIT << 4 | MT_8BIT_I8:
		rgba[0] = rgba[1] = rgba[2] = rgba[3] = r3d_unorm8(v);
		break;
	case MAPSURF_8BIT << 4 | MT_8BIT_L8:
		rgba[0] = rgba[1] = rgba[2] = r3d_unorm8(v);
		break;
	case MAPSURF_8BIT << 4 | MT_8BIT_A8:
		rgba[3] = r3d_unorm8(v);
		break;
	case MAPSURF_16BIT << 4 | MT_16BIT_RGB565:
		rgba[0] = unorm(v >> 11, 5);
		rgba[1] = unorm((v >> 5) & 0x3f, 6);
		rgba[2] = unorm(v & 0x1f, 5);
		break;
	case MAPSURF_16BIT << 4 | MT_16BIT_ARGB1555:
		rgba[0] = unorm((v >> 10) & 0x1f, 5);
		rgba[1] = unorm((v >> 5) & 0x1f, 5);
		rgba[2] = unorm(v & 0x1f, 5);
		rgba[3] = (float)(v >> 15);
		break;
	case MAPSURF_16BIT << 4 | MT_16BIT_ARGB4444:
		rgba[0] = unorm((v >> 8) & 0xf, 4);
		rgba[1] = unorm((v >> 4) & 0xf, 4);
		rgba[2] = unorm(v & 0xf, 4);
		rgba[3] = unorm(v >> 12, 4);
		break;
	case MAPSURF_16BIT << 4 | MT_16BIT_AY88:
		rgba[0] = rgba[1] = rgba[2] = r3d_unorm8(v);
		rgba[3] = r3d_unorm8(v >> 8);
		break;
	case MAPSURF_16BIT << 4 | MT_16BIT_I16:
		rgba[0] = rgba[1] = rgba[2] = rgba[3] = unorm(v, 16);
		break;
	case MAPSURF_16BIT << 4 | MT_16BIT_L16:
		rgba[0] = rgba[1] = rgba[2] = unorm(v, 16);
		break;
	case MAPSURF_16BIT << 4 | MT_16BIT_A16:
		rgba[3] = unorm(v, 16);
		break;
	case MAPSURF_32BIT << 4 | MT_32BIT_ARGB8888:
	case MAPSURF_32BIT << 4 | MT_32BIT_XRGB8888:
		r3d_argb_to_rgba(v, rgba);
		if (t->mt == MT_32BIT_XRGB8888)
			rgba[3] = 1.0f;
		break;
	case MAPSURF_32BIT << 4 | MT_32BIT_ABGR8888:
	case MAPSURF_32BIT << 4 | MT_32BIT_XBGR8888:
		rgba[0] = r3d_unorm8(v);
		rgba[1] = r3d_unorm8(v >> 8);
		rgba[2] = r3d_unorm8(v >> 16);
		rgba[3] = t->mt == MT_32BIT_XBGR8888 ? 1.0f : r3d_unorm8(v >> 24);
		break;
	case MAPSURF_32BIT << 4 | MT_32BIT_ARGB2101010:
		rgba[0] = unorm((v >> 20) & 0x3ff, 10);
		rgba[1] = unorm((v >> 10) & 0x3ff, 10);
		rgba[2] = unorm(v & 0x3ff, 10);
		rgba[3] = unorm(v >> 30, 2);
		break;
	case MAPSURF_32BIT << 4 | MT_32BIT_ABGR2101010:
		rgba[0] = unorm(v & 0x3ff, 10);
		rgba[1] = unorm((v >> 10) & 0x3ff, 10);
		rgba[2] = unorm((v >> 20) & 0x3ff, 10);
		rgba[3] = unorm(v >> 30, 2);
		break;
	case MAPSURF_32BIT << 4 | MT_32BIT_xI824:
	case MAPSURF_32BIT << 4 | MT_32BIT_xL824:
	case MAPSURF_32BIT << 4 | MT_32BIT_xA824:
		a = unorm(v & 0xffffff, 24);
		if (t->mt != MT_32BIT_xA824)
			rgba[0] = rgba[1] = rgba[2] = a;
		if (t->mt != MT_32BIT_xL824)
			rgba[3] = a;
		break;
	case MAPSURF_422 << 4 | MT_422_YCRCB_NORMAL:
	case MAPSURF_422 << 4 | MT_422_YCRCB_SWAPY: {
		/* A pair of texels shares U and V: YUYV, or UYVY swapped. */
		const uint8_t *pair = p - (x & 1) * 2;
		bool swapy = t->mt == MT_422_YCRCB_SWAPY;
		float yy = r3d_unorm8(pair[(x & 1) * 2 + (swapy ? 1 : 0)]);

		yuv(t, yy, r3d_unorm8(pair[swapy ? 0 : 1]),
		    r3d_unorm8(pair[swapy ? 2 : 3]), rgba);
		break;
	}
	default:
		rgba[3] = 0.0f;		/* not modelled: transparent black */
		break;
	}
	if (t->srgb) {
		rgba[0] = srgb_to_linear(rgba[0]);
		rgba[1] = srgb_to_linear(rgba[1]);
		rgba[2] = srgb_to_linear(rgba[2]);
	}
}

/* Texel (x, y, z), already wrapped, of a level and face, as RGBA. */
static void fetch_texel(struct r3d *r, const struct r3d_tex *t, unsigned int level,
			unsigned int face, uint32_t x, uint32_t y, uint32_t z,
			float rgba[4])
{
	struct r3d_map *m = (struct r3d_map *)&t->mem;
	uint32_t ox, oy, v;
	const uint8_t *p;

	if (t->kind == D0_SAMPLE_TYPE_VOLUME) {
		level_origin(t, level, z, &ox, &oy);
	} else {
		ox = t->lox[level][face];
		oy = t->loy[level][face];
	}
	p = r3d_map_px(r, m, (ox + x) * t->cpp, oy + y);
	if (!p) {
		rgba[0] = rgba[1] = rgba[2] = rgba[3] = 0.0f;
		return;
	}
	if (t->surf == MAPSURF_32BIT && t->mt == MT_32BIT_ARGB8888 && !t->srgb) {
		memcpy(&v, p, 4);
		r3d_argb_to_rgba(v, rgba);
		return;
	}
	decode_texel(t, p, ox + x, rgba);
}

/* Apply an address mode to integer texel i of a level n texels wide;
 * -1 means the border colour. */
static int wrap_texel(int i, int n, unsigned int mode)
{
	switch (mode) {
	case TEXCOORDMODE_WRAP:
		i %= n;
		return i < 0 ? i + n : i;
	case TEXCOORDMODE_MIRROR:
		i %= 2 * n;
		if (i < 0)
			i += 2 * n;
		return i < n ? i : 2 * n - 1 - i;
	case TEXCOORDMODE_MIRROR_ONCE:
		if (i < 0)
			i = -1 - i;
		return i >= n ? n - 1 : i;
	case TEXCOORDMODE_CLAMP_BORDER:
		return i < 0 || i >= n ? -1 : i;
	default:		/* CLAMP_EDGE, CUBE */
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	}
}

struct sample_pos {
	unsigned int level, face;
	float u, v, w;		/* in texels of the level */
};

static void texel(struct r3d *r, const struct r3d_tex *t, const struct sample_pos *sp,
		  int x, int y, int z, float rgba[4])
{
	unsigned int l = sp->level, cube = t->kind == D0_SAMPLE_TYPE_CUBE;

	x = wrap_texel(x, (int)t->lw[l], cube ? TEXCOORDMODE_CLAMP_EDGE : t->wrap[0]);
	y = wrap_texel(y, (int)t->lh[l], cube ? TEXCOORDMODE_CLAMP_EDGE : t->wrap[1]);
	if (t->kind == D0_SAMPLE_TYPE_VOLUME)
		z = wrap_texel(z, (int)t->ld[l], t->wrap[2]);
	else
		z = 0;
	if (x < 0 || y < 0 || z < 0) {
		memcpy(rgba, t->border, 4 * sizeof(float));
		return;
	}
	fetch_texel(r, t, l, sp->face, (uint32_t)x, (uint32_t)y, (uint32_t)z, rgba);
}

/* Bilinear filtering of a 2D map without the border colour in reach: the
 * two columns and rows wrapped once, four texels fetched.  False when the
 * general path must do it. */
static bool bilinear_2d(struct r3d *r, const struct r3d_tex *t,
			const struct sample_pos *sp, int x0, int y0, float fu,
			float fv, float rgba[4])
{
	unsigned int l = sp->level, ch;
	int xs[2], ys[2], k;
	float c[4][4], wt[4];

	xs[0] = wrap_texel(x0, (int)t->lw[l], t->wrap[0]);
	xs[1] = wrap_texel(x0 + 1, (int)t->lw[l], t->wrap[0]);
	ys[0] = wrap_texel(y0, (int)t->lh[l], t->wrap[1]);
	ys[1] = wrap_texel(y0 + 1, (int)t->lh[l], t->wrap[1]);
	if ((xs[0] | xs[1] | ys[0] | ys[1]) < 0)
		return false;
	for (k = 0; k < 4; k++)
		fetch_texel(r, t, l, 0, (uint32_t)xs[k & 1], (uint32_t)ys[k >> 1], 0,
			    c[k]);
	wt[0] = (1.0f - fu) * (1.0f - fv);
	wt[1] = fu * (1.0f - fv);
	wt[2] = (1.0f - fu) * fv;
	wt[3] = fu * fv;
	for (ch = 0; ch < 4; ch++)
		rgba[ch] = wt[0] * c[0][ch] + wt[1] * c[1][ch] + wt[2] * c[2][ch] +
			   wt[3] * c[3][ch];
	return true;
}

static void filter_level(struct r3d *r, const struct r3d_tex *t,
			 const struct sample_pos *sp, unsigned int filter,
			 float rgba[4])
{
	float u, v, w, fu, fv, fw, c[8][4], wt[8];
	int x0, y0, z0, k, ch, n;
	bool vol = t->kind == D0_SAMPLE_TYPE_VOLUME;

	if (filter == FILTER_NEAREST) {
		texel(r, t, sp, r3d_ifloor(sp->u), r3d_ifloor(sp->v),
		      r3d_ifloor(sp->w), rgba);
		return;
	}
	u = sp->u - 0.5f;
	v = sp->v - 0.5f;
	w = vol ? sp->w - 0.5f : 0.0f;
	x0 = r3d_ifloor(u);
	y0 = r3d_ifloor(v);
	z0 = r3d_ifloor(w);
	fu = u - (float)x0;
	fv = v - (float)y0;
	fw = vol ? w - (float)z0 : 0.0f;
	if (t->kind == D0_SAMPLE_TYPE_2D && bilinear_2d(r, t, sp, x0, y0, fu, fv, rgba))
		return;
	n = vol ? 8 : 4;
	for (k = 0; k < n; k++) {
		texel(r, t, sp, x0 + (k & 1), y0 + ((k >> 1) & 1),
		      vol ? z0 + (k >> 2) : 0, c[k]);
		wt[k] = (k & 1 ? fu : 1.0f - fu) * (k & 2 ? fv : 1.0f - fv) *
			(k & 4 ? fw : 1.0f - fw);
	}
	for (ch = 0; ch < 4; ch++) {
		rgba[ch] = 0.0f;
		for (k = 0; k < n; k++)
			rgba[ch] += wt[k] * c[k][ch];
	}
}

/* Cube maps: the face of the major axis and the coordinates on it.  An
 * exact tie goes to z, then y (llvmpipe's order; GL leaves it open). */
static unsigned int cube_face(float x, float y, float z, float *s, float *t)
{
	float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), sc, tc, ma;
	unsigned int face;

	if (az >= ax && az >= ay) {
		face = z >= 0.0f ? 4 : 5;
		sc = z >= 0.0f ? x : -x;
		tc = -y;
		ma = az;
	} else if (ay >= ax) {
		face = y >= 0.0f ? 2 : 3;
		sc = x;
		tc = y >= 0.0f ? z : -z;
		ma = ay;
	} else {
		face = x >= 0.0f ? 0 : 1;
		sc = x >= 0.0f ? -z : z;
		tc = -y;
		ma = ax;
	}
	if (ma == 0.0f)
		ma = 1.0f;
	*s = (sc / ma + 1.0f) * 0.5f;
	*t = (tc / ma + 1.0f) * 0.5f;
	return face;
}

/* Texel-space coordinates of one lane at level 0, and its cube face. */
static void lane_coords(const struct r3d_tex *t, const float (*coord)[R3D_LANES],
			unsigned int l, float uvw[3], unsigned int *face)
{
	float s = coord[0][l], tt = coord[1][l], rr = coord[2][l];

	*face = 0;
	if (t->kind == D0_SAMPLE_TYPE_CUBE)
		*face = cube_face(s, tt, rr, &s, &tt);
	if (t->normalized || t->kind == D0_SAMPLE_TYPE_CUBE) {
		s *= (float)t->width;
		tt *= (float)t->height;
		rr *= (float)t->depth;
	}
	uvw[0] = s;
	uvw[1] = tt;
	uvw[2] = rr;
}

static float quad_lod(const float uvw[4][3])
{
	float dx2 = 0.0f, dy2 = 0.0f, d;
	int c;

	for (c = 0; c < 3; c++) {
		d = uvw[1][c] - uvw[0][c];
		dx2 += d * d;
		d = uvw[2][c] - uvw[0][c];
		dy2 += d * d;
	}
	d = dx2 > dy2 ? dx2 : dy2;
	return d > 0.0f ? 0.5f * log2f(d) : -INFINITY;
}

static void sample_lane(struct r3d *r, const struct r3d_tex *t, const float uvw[3],
			unsigned int face, float lod, float out[4])
{
	struct sample_pos sp = { 0, face, 0, 0, 0 };
	unsigned int filter, lvl;
	float other[4], f;
	int c;

	lod = lod >= t->min_lod ? lod : t->min_lod;	/* NaN too */
	lod = lod > t->max_lod ? t->max_lod : lod;
	filter = lod > 0.0f ? t->min : t->mag;
	filter = filter == FILTER_NEAREST ? FILTER_NEAREST : FILTER_LINEAR;
	if (t->mip == MIPFILTER_NONE || lod <= 0.0f) {
		lvl = 0;
	} else if (t->mip == MIPFILTER_NEAREST) {
		lvl = (unsigned int)r3d_ifloor(lod + 0.5f);	/* ties down */
		if (lod + 0.5f == floorf(lod + 0.5f))
			lvl--;
	} else {
		lvl = (unsigned int)r3d_ifloor(lod);
	}
	if (lvl > t->max_level)
		lvl = t->max_level;
	sp.level = lvl;
	sp.u = uvw[0] / (float)(1u << lvl);
	sp.v = uvw[1] / (float)(1u << lvl);
	sp.w = uvw[2] / (float)(1u << lvl);
	filter_level(r, t, &sp, filter, out);
	if (t->mip != MIPFILTER_LINEAR || lod <= 0.0f || lvl >= t->max_level)
		return;
	f = lod - floorf(lod);
	sp.level = lvl + 1;
	sp.u *= 0.5f;
	sp.v *= 0.5f;
	sp.w *= 0.5f;
	filter_level(r, t, &sp, filter, other);
	for (c = 0; c < 4; c++)
		out[c] += f * (other[c] - out[c]);
}

void r3d_sample(struct r3d *r, unsigned int unit, unsigned int op,
		const float (*coord)[R3D_LANES], float (*out)[R3D_LANES],
		unsigned int nlanes)
{
	const struct r3d_tex *t = &r->draw.tex[unit];
	float uvw[4][3], rgba[4], lod, texel_ref;
	unsigned int q, i, l, face[4], c;

	for (q = 0; q < nlanes / 4; q++) {
		for (i = 0; i < 4; i++)
			lane_coords(t, coord, 4 * q + i, uvw[i], &face[i]);
		lod = quad_lod((const float (*)[3])uvw) + t->lod_bias;
		for (i = 0; i < 4; i++) {
			l = 4 * q + i;
			if (!t->valid) {
				rgba[0] = rgba[1] = rgba[2] = rgba[3] = 0.0f;
			} else {
				sample_lane(r, t, uvw[i], face[i],
					    op == T0_TEXLDB ? lod + coord[3][l] : lod,
					    rgba);
			}
			if (t->valid && t->shadow) {
				texel_ref = r3d_compare(t->shadow_func, coord[2][l],
							rgba[0]) ? 1.0f : 0.0f;
				rgba[0] = rgba[1] = rgba[2] = rgba[3] = texel_ref;
			}
			for (c = 0; c < 4; c++)
				out[c][l] = rgba[c];
		}
	}
}
