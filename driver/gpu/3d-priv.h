/*
 * The 945G's 3D pipeline, run on the command-streamer thread.
 *
 * State commands (3d-state.c) fill struct r3d_state, as the chip latches
 * them.  _3DPRIMITIVE (3d-prim.c) fetches vertices, assembles primitives
 * and hands each to the rasteriser (3d-raster.c), which walks it in rows
 * of 2x2 quads and collects up to R3D_QUADS quads in a batch.  A full
 * batch is shaded as one: the inputs are interpolated and the pixel
 * shader runs over all its lanes instruction by instruction
 * (3d-shader.c, sampling through 3d-sampler.c), then the per-fragment
 * operations write the surviving lanes (3d-fragment.c).  Quads give the
 * shader its derivatives, as on the chip: a lane outside the primitive
 * still runs and only its writes are masked.
 *
 * Memory is reached through the GTT only; a page-table error anywhere
 * stops the command with CS_FAULT, a malformed program or state with
 * CS_INVALID, exactly as the blitter does.
 */
#ifndef GEMKIT_GPU_3D_PRIV_H
#define GEMKIT_GPU_3D_PRIV_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "3d.h"
#include "gpu_priv.h"
#include "ps.h"

#define R3D_QUADS		16
#define R3D_LANES		(4 * R3D_QUADS)
#define R3D_NATTR		I915_MAX_T_REG	/* T0-T7, diffuse, specular, fog */
#define R3D_ATTR_DIFFUSE	T_DIFFUSE
#define R3D_ATTR_SPECULAR	T_SPECULAR
#define R3D_ATTR_FOG		T_FOG_W
#define R3D_MAX_MAPS		16
#define R3D_MAX_LEVELS		12	/* 2048 texels down to 1 */
/* Rasteriser precision: window coordinates are snapped to 1/256 pixel. */
#define R3D_SUBPIXEL_BITS	8
/* Coordinates beyond this many pixels from the origin are not drawn
 * (the chip has a finite guard band; this keeps the edge maths exact). */
#define R3D_MAX_COORD		32768.0f

struct r3d_surf {
	uint32_t addr;
	uint32_t pitch;			/* bytes */
	enum gpu_tiling tiling;
	bool valid;
};

/* Everything the state commands latch. */
struct r3d_state {
	uint32_t s[8];			/* LOAD_STATE_IMMEDIATE_1 S0..S7 */
	struct r3d_surf cbuf, zbuf;
	uint32_t dst_buf_vars;
	uint32_t draw_flags;
	uint32_t draw_x1, draw_y1, draw_x2, draw_y2;	/* inclusive */
	int32_t origin_x, origin_y;
	bool scissor_enable;
	uint32_t sc_x1, sc_y1, sc_x2, sc_y2;		/* inclusive */
	uint32_t map[R3D_MAX_MAPS][3];			/* MS2, MS3, MS4 */
	uint32_t sampler[R3D_MAX_MAPS][3];		/* SS2, SS3, SS4 */
	float constants[I915_MAX_CONSTANT][4];
	uint32_t dflt_diffuse, dflt_specular;
	float dflt_z;
	uint32_t coord_bindings;
	uint32_t raster_rules;
	uint32_t aa;
	uint32_t logic_op;
	uint8_t stencil_test_mask, stencil_write_mask;
	uint32_t modes5;
	bool iab_enable;
	uint8_t iab_func, iab_src, iab_dst;
	uint32_t blend_color;			/* ARGB8888 */
	/* Back-face stencil (3DSTATE_BACKFACE_STENCIL_OPS / _MASKS). */
	bool bf_two_side;
	uint8_t bf_ref, bf_func, bf_fail, bf_zfail, bf_zpass;
	uint8_t bf_test_mask, bf_write_mask;
	float depth_offset_scale;
	uint32_t stipple;
	uint32_t fog_color, fog_mode[3];
	uint32_t chroma_key[3];
	uint32_t clear[6];			/* CLEAR_PARAMETERS dwords 1-6 */
	bool prog_valid;
	struct gen3_ps_program prog;
};

/* A vertex as the rasteriser sees it: window position (drawing-rectangle
 * origin added), w = 1/w of the clip position, and the eleven inputs. */
struct r3d_vtx {
	float x, y, z, w;
	float psize;
	float a[R3D_NATTR][4];
};

/* An attribute's plane: value at pixel centre (px, py) is
 * c + dx * px + dy * py (the sample-position bias is folded into c). */
struct r3d_plane {
	float c, dx, dy;
};

/* A primitive set up for shading: planes of z, 1/w and the inputs. */
struct r3d_setup {
	struct r3d_plane z;
	struct r3d_plane w;		/* 1/w, when perspective */
	bool perspective;
	bool backface;			/* for two-sided stencil */
	bool stipple;			/* polygon stipple applies */
	uint16_t attr_mask;		/* planes of these attributes are valid */
	uint16_t flat[R3D_NATTR];	/* channels not divided by 1/w */
	struct r3d_plane a[R3D_NATTR][4];
};

/* Surfaces as the per-pixel code reaches them: one GTT page cached. */
struct r3d_map {
	uint64_t base;
	uint32_t pitch;
	enum gpu_tiling tiling;
	uint32_t tiles_per_row;		/* pitch / tile width */
	uint64_t page;			/* GTT page of ptr, or UINT64_MAX */
	uint8_t *ptr;
};

/* A texture as one draw samples it (map and sampler state decoded). */
struct r3d_tex {
	struct r3d_map mem;
	uint32_t surf, mt;		/* MAPSURF_*, MT_* */
	uint32_t cpp;
	uint32_t width, height, depth;	/* level 0 */
	uint32_t pot_w, pot_h, pot_d;	/* the layout's power-of-two sizes */
	uint32_t max_level;
	/* Each level's size, and where it starts (per cube face), in texels. */
	uint32_t lw[R3D_MAX_LEVELS], lh[R3D_MAX_LEVELS], ld[R3D_MAX_LEVELS];
	uint32_t lox[R3D_MAX_LEVELS][6], loy[R3D_MAX_LEVELS][6];
	uint8_t kind;			/* D0_SAMPLE_TYPE_* from the DCL */
	uint8_t mag, min, mip;		/* FILTER_*, MIPFILTER_* */
	uint8_t wrap[3];		/* TEXCOORDMODE_* for s, t, r */
	bool normalized;
	bool shadow;
	uint8_t shadow_func;
	bool srgb;
	bool yuv_to_rgb;
	bool kill_pixel;		/* SS3_KILL_PIXEL_ENABLE */
	float min_lod, max_lod, lod_bias;
	float border[4];		/* RGBA */
	bool valid;
};

/* The fragment pipeline's configuration for one draw. */
struct r3d_draw {
	int32_t clip_x1, clip_y1, clip_x2, clip_y2;	/* inclusive */
	float bias_x, bias_y;		/* sample position within the pixel */
	uint32_t cformat, zformat;
	uint32_t ccpp, zcpp;
	bool color_write;		/* S6 and a colour buffer */
	uint8_t write_mask;		/* bit c: channel c (RGBA) written */
	bool blend;
	uint8_t blend_func, src_factor, dst_factor;
	uint8_t a_func, a_src, a_dst;	/* alpha: IAB or the colour ones */
	bool logic_op;
	bool alpha_test;
	uint8_t alpha_func;
	float alpha_ref;
	bool depth_test, depth_write;
	uint8_t depth_func;
	bool stencil_test, stencil_write;
	uint8_t st_ref[2], st_func[2], st_fail[2], st_zfail[2], st_zpass[2];
	uint8_t st_test_mask[2], st_write_mask[2];
	bool stipple;
	bool fog;
	uint16_t attr_mask;		/* inputs interpolated: declared, fog */
	uint32_t keep;			/* packed bits the write mask keeps */
	bool plain;			/* ARGB8888, no tests, no masks */
	float const_color[4];
	uint32_t const8[4];
	struct r3d_map cmap, zmap;
	struct r3d_tex tex[R3D_MAX_MAPS];
	/* The vertex layout of S2/S4 (dword offsets, -1: absent). */
	uint32_t vsize;
	int pos_w, psize_off, diffuse_off, spec_off, fog_off;
	uint8_t pos_fmt;
	int tc_off[8];
	uint8_t tc_fmt[8];
};

/* A batch of quads waiting to be shaded: lane 4q+i is pixel
 * (qx[q] + (i & 1), qy[q] + (i >> 1)). */
struct r3d_batch {
	unsigned int nquads;
	int32_t qx[R3D_QUADS], qy[R3D_QUADS];
	uint8_t cover[R3D_QUADS];
};

/* The pixel shader's register files, channel-major over the lanes. */
struct r3d_regs {
	float r[I915_MAX_TEMPORARY][4][R3D_LANES];
	float u[I915_MAX_UTEMP + 1][4][R3D_LANES];
	float t[R3D_NATTR][4][R3D_LANES];
	float oc[4][R3D_LANES];
	float od[4][R3D_LANES];
	float z[R3D_LANES];		/* interpolated depth */
	uint8_t live[R3D_LANES];	/* covered and not killed */
	float src[3][4][R3D_LANES];	/* scratch: operands, */
	float res[4][R3D_LANES];	/* and a result */
};

struct r3d {
	struct gpu *gpu;
	struct r3d_state st;
	struct r3d_draw draw;
	struct r3d_batch batch;
	const struct r3d_setup *setup;	/* of the primitive being rasterised */
	struct r3d_regs regs;
	uint32_t *cmd;			/* the current command's dwords */
	uint32_t cmd_cap;
	uint32_t depth;			/* LOAD_INDIRECT nesting */
	enum cs_status status;		/* first error while drawing */
	uint64_t pixels;		/* fragments written (statistics) */
	uint64_t batches;		/* batches of quads shaded */
};

/* 3d-state.c */
struct r3d *r3d_create(struct gpu *gpu);
void r3d_destroy(struct r3d *r);
void r3d_reset(struct r3d *r);
enum cs_status r3d_exec(struct r3d *r, const uint32_t *dw, uint32_t len);

/* 3d-prim.c */
enum cs_status r3d_primitive(struct r3d *r, const uint32_t *dw, uint32_t len);

/* 3d-raster.c: set up and walk one primitive, shading full batches. */
void r3d_setup_triangle(struct r3d *r, struct r3d_setup *su,
			const struct r3d_vtx *v0, const struct r3d_vtx *v1,
			const struct r3d_vtx *v2, const struct r3d_vtx *pv,
			uint32_t flat);
void r3d_setup_constant(struct r3d *r, struct r3d_setup *su,
			const struct r3d_vtx *v);
/* Fill a convex polygon of n (3 or 4) window-space vertices. */
void r3d_raster_polygon(struct r3d *r, const struct r3d_setup *su,
			const float (*xy)[2], unsigned int n);
void r3d_flush_batch(struct r3d *r);

/* 3d-shader.c: interpolate, run the program over the batch. */
void r3d_shade_batch(struct r3d *r);

/* 3d-sampler.c */
void r3d_tex_prepare(struct r3d *r, unsigned int unit, unsigned int kind);
void r3d_sample(struct r3d *r, unsigned int unit, unsigned int op,
		const float (*coord)[R3D_LANES], float (*out)[R3D_LANES],
		unsigned int nlanes);

/* 3d-fragment.c */
void r3d_fragment_prepare(struct r3d *r);
void r3d_fragment_batch(struct r3d *r);
uint8_t *r3d_map_page(struct r3d *r, struct r3d_map *m, uint64_t addr);
void r3d_map_init(struct r3d_map *m, uint64_t base, uint32_t pitch,
		  enum gpu_tiling tiling);
/* CLEAR_RECT and ZONE_INIT: fill the rectangle, bypassing the pipeline. */
void r3d_clear_rect(struct r3d *r, int32_t x1, int32_t y1, int32_t x2, int32_t y2,
		    bool zone_init);

/*
 * Byte xbytes of row y of a surface, through a one-page cache; NULL after
 * a fault.  The tile arithmetic is tile.c's (gpu_tiled_offset) with the
 * tile sizes, powers of two, as shifts: this runs for every pixel.
 */
static inline uint8_t *r3d_map_px(struct r3d *r, struct r3d_map *m,
				  uint32_t xbytes, uint32_t y)
{
	uint64_t addr;

	switch (m->tiling) {
	case GPU_TILING_X:	/* 512 bytes x 8 rows */
		addr = (uint64_t)((y >> 3) * m->tiles_per_row + (xbytes >> 9)) << 12 |
		       (y & 7) << 9 | (xbytes & 511);
		break;
	case GPU_TILING_Y:	/* 128 bytes x 32 rows, in 16-byte columns */
		addr = (uint64_t)((y >> 5) * m->tiles_per_row + (xbytes >> 7)) << 12 |
		       ((xbytes & 127) >> 4) << 9 | (y & 31) << 4 | (xbytes & 15);
		break;
	default:
		addr = (uint64_t)y * m->pitch + xbytes;
		break;
	}
	addr += m->base;
	if (addr >> GTT_PAGE_SHIFT == m->page)
		return m->ptr + (addr & (GTT_PAGE_SIZE - 1));
	return r3d_map_page(r, m, addr);
}

/* Helpers shared by the stages. */
static inline float r3d_unorm8(uint32_t v)
{
	return (float)(v & 0xff) * (1.0f / 255.0f);
}

static inline void r3d_argb_to_rgba(uint32_t argb, float rgba[4])
{
	rgba[0] = r3d_unorm8(argb >> 16);
	rgba[1] = r3d_unorm8(argb >> 8);
	rgba[2] = r3d_unorm8(argb);
	rgba[3] = r3d_unorm8(argb >> 24);
}

/* Round to the nearest integer, ties to even, as lrintf does in the
 * default rounding mode, for 0 <= v < 2^22: the per-pixel conversions
 * cannot afford a libm call. */
static inline uint32_t r3d_round(float v)
{
	return (uint32_t)((v + 12582912.0f) - 12582912.0f);
}

static inline uint32_t r3d_round_d(double v)	/* 0 <= v < 2^31 */
{
	return (uint32_t)((v + 6755399441055744.0) - 6755399441055744.0);
}

/* Clamp to [0, 1]; NaN becomes 0 (what the conversions after it need). */
static inline float r3d_clamp01(float v)
{
	return v >= 0.0f ? (v <= 1.0f ? v : 1.0f) : 0.0f;
}

/* floor() as an int, for coordinates: NaN is 0 and the range is clamped
 * to +-2^24, far outside any surface (a float-to-int conversion out of
 * range is undefined). */
static inline int r3d_ifloor(float v)
{
	if (!(v > -16777216.0f))
		return v != v ? 0 : -16777216;
	if (v > 16777216.0f)
		return 16777216;
	return (int)floorf(v);
}

/* COMPAREFUNC_*: does a pass against b (depth, stencil, alpha, shadow)? */
static inline bool r3d_compare(unsigned int func, float a, float b)
{
	switch (func) {
	case COMPAREFUNC_ALWAYS:	return true;
	case COMPAREFUNC_NEVER:		return false;
	case COMPAREFUNC_LESS:		return a < b;
	case COMPAREFUNC_EQUAL:		return a == b;
	case COMPAREFUNC_LEQUAL:	return a <= b;
	case COMPAREFUNC_GREATER:	return a > b;
	case COMPAREFUNC_NOTEQUAL:	return a != b;
	}
	return a >= b;		/* COMPAREFUNC_GEQUAL */
}

static inline void r3d_fail(struct r3d *r, enum cs_status st)
{
	if (r->status == CS_OK)
		r->status = st;
}

#endif
