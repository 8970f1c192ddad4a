/*
 * Unit tests of the 945G's 3D pipeline through gpu.h: batches built here,
 * run by the model's command streamer, and every pixel of the result
 * compared with what the test computes itself (a reference rasteriser,
 * exact colour arithmetic, texel decoders written from the formats'
 * definitions).
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "3d.h"
#include "gemtest.h"
#include "gpu.h"

#define RING_GTT	0x00020000u
#define RING_SIZE	(16u << 10)
#define BATCH_GTT	0x00100000u
#define BATCH_SIZE	(256u << 10)
#define VB_GTT		0x00200000u
#define CBUF_GTT	0x00400000u
#define ZBUF_GTT	0x00800000u
#define TEX_GTT		0x00c00000u
#define TEX2_GTT	0x01000000u
#define SURF_SIZE	(2u << 20)
#define APERTURE	(32u << 20)

#define MI_BATCH_BUFFER_END	(0x0au << 23)
#define MI_BATCH_BUFFER_START	((0x31u << 23) | 2u << 6)
#define MI_STORE_DWORD_INDEX	((0x21u << 23) | 1)
#define MI_NOOP			0u
#define SEQNO_INDEX		I915_GEM_HWS_INDEX

#define CMD_1D(sub, len)	(CMD_3D | OP3D_1D << 24 | (uint32_t)(sub) << 16 | (len))
#define CMD_1(op)		(CMD_3D | (uint32_t)(op) << 24)

struct t3d {
	struct gpu *gpu;
	uint32_t *ring, tail, seqno;
	uint32_t *batch;
	uint32_t n;			/* dwords in the batch */
	uint8_t *cbuf, *zbuf, *tex, *tex2, *vb;
};

static atomic_int error_irqs;

static void on_error(void *data)
{
	atomic_fetch_add(&error_irqs, 1);
}

static const struct gpu_ops ops = { .error_interrupt = on_error };

static void *bind(struct t3d *t, uint32_t gtt, uint32_t size)
{
	void *p = aligned_alloc(GTT_PAGE_SIZE, size);

	gt_assert(p);
	memset(p, 0, size);
	gpu_gtt_bind(t->gpu, gtt, p, size);
	return p;
}

static void t3d_init(struct t3d *t)
{
	struct gpu_config cfg = { .aperture_size = APERTURE };

	memset(t, 0, sizeof(*t));
	atomic_store(&error_irqs, 0);
	t->gpu = gpu_create(&cfg, &ops, NULL);
	gt_assert(t->gpu);
	t->ring = bind(t, RING_GTT, RING_SIZE);
	t->batch = bind(t, BATCH_GTT, BATCH_SIZE);
	t->vb = bind(t, VB_GTT, SURF_SIZE);
	t->cbuf = bind(t, CBUF_GTT, SURF_SIZE);
	t->zbuf = bind(t, ZBUF_GTT, SURF_SIZE);
	t->tex = bind(t, TEX_GTT, SURF_SIZE);
	t->tex2 = bind(t, TEX2_GTT, SURF_SIZE);
	gpu_write(t->gpu, PRB0_START, RING_GTT);
	gpu_write(t->gpu, PRB0_CTL, ((RING_SIZE - 4096) & RING_NR_PAGES) | RING_VALID);
}

static void t3d_fini(struct t3d *t)
{
	gpu_destroy(t->gpu);
	free(t->ring);
	free(t->batch);
	free(t->vb);
	free(t->cbuf);
	free(t->zbuf);
	free(t->tex);
	free(t->tex2);
}

static void out(struct t3d *t, uint32_t dw)
{
	gt_assert(t->n < BATCH_SIZE / 4 - 2);
	t->batch[t->n++] = dw;
}

static void outf(struct t3d *t, float f)
{
	uint32_t v;

	memcpy(&v, &f, 4);
	out(t, v);
}

static void ring_out(struct t3d *t, uint32_t dw)
{
	t->ring[t->tail / 4] = dw;
	t->tail = (t->tail + 4) % RING_SIZE;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Run the batch built so far and wait until the CS is idle or stopped. */
static void submit(struct t3d *t)
{
	uint64_t end = now_ns() + 20ull * 1000000000ull;
	struct timespec ts = { 0, 20000 };

	t->batch[t->n] = MI_BATCH_BUFFER_END;
	ring_out(t, MI_BATCH_BUFFER_START);
	ring_out(t, BATCH_GTT | 1);
	ring_out(t, MI_STORE_DWORD_INDEX);
	ring_out(t, SEQNO_INDEX << 2);
	ring_out(t, ++t->seqno);
	ring_out(t, MI_NOOP);
	gpu_write(t->gpu, PRB0_TAIL, t->tail);
	while (!gpu_idle(t->gpu) && !gpu_stopped(t->gpu)) {
		gt_assert(now_ns() < end);
		nanosleep(&ts, NULL);
	}
	t->n = 0;
}

static void run(struct t3d *t)
{
	submit(t);
	gt_assert_f(!gpu_stopped(t->gpu), "stopped: IPEHR 0x%08x ACTHD 0x%08x EIR 0x%x",
		    gpu_read(t->gpu, IPEHR), gpu_read(t->gpu, ACTHD),
		    gpu_read(t->gpu, EIR));
	gt_assert_eq(gpu_hws(t->gpu)[SEQNO_INDEX], t->seqno);
}

/* ---- state ----------------------------------------------------------- */

static uint32_t tiling_bits_buf(enum gpu_tiling tiling)
{
	return tiling == GPU_TILING_NONE ? 0 : BUF_3D_TILED_SURFACE |
	       (tiling == GPU_TILING_Y ? BUF_3D_TILE_WALK_Y : 0);
}

static uint32_t tiling_bits_map(enum gpu_tiling tiling)
{
	return tiling == GPU_TILING_NONE ? 0 : MS3_TILED_SURFACE |
	       (tiling == GPU_TILING_Y ? MS3_TILE_WALK_Y : 0);
}

struct target {
	uint32_t w, h, pitch;
	enum gpu_tiling tiling;
	uint32_t format;		/* COLOR_BUF_* */
	uint32_t cpp;
	bool depth;
	uint32_t zformat;		/* DEPTH_FRMT_* */
	uint32_t zpitch;
};

static const struct target argb_256 = {
	.w = 256, .h = 64, .pitch = 1024, .format = COLOR_BUF_ARGB8888, .cpp = 4,
};

/* The state every test starts from: buffers, drawing rectangle, pixel
 * centres at +0.5, no culling, blending off, colour writes on. */
static void emit_setup(struct t3d *t, const struct target *tg, uint32_t s2,
		       uint32_t s4_vfmt, uint32_t s5, uint32_t s6)
{
	out(t, CMD_1(OP3D_COORD_SET_BINDINGS) | 0xfac688);	/* identity */
	out(t, CMD_1(OP3D_RASTER_RULES) | ENABLE_TRI_FAN_PROVOKE_VRTX |
	    2u << TRI_FAN_PROVOKE_VRTX_SHIFT | ENABLE_LINE_STRIP_PROVOKE_VRTX |
	    1u << LINE_STRIP_PROVOKE_VRTX_SHIFT | ENABLE_TEXKILL_3D_4D | TEXKILL_4D);
	out(t, CMD_1(OP3D_MODES_4) | ENABLE_LOGIC_OP_FUNC |
	    LOGICOP_COPY << LOGIC_OP_FUNC_SHIFT | ENABLE_STENCIL_TEST_MASK |
	    0xffu << STENCIL_TEST_MASK_SHIFT | ENABLE_STENCIL_WRITE_MASK | 0xff);
	out(t, CMD_1(OP3D_INDEPENDENT_ALPHA_BLEND) | IAB_MODIFY_ENABLE);
	out(t, CMD_1D(OP1D_BUF_INFO, 1));
	out(t, BUF_3D_ID_COLOR_BACK << BUF_3D_ID_SHIFT | tiling_bits_buf(tg->tiling) |
	    tg->pitch);
	out(t, CBUF_GTT);
	if (tg->depth) {
		out(t, CMD_1D(OP1D_BUF_INFO, 1));
		out(t, BUF_3D_ID_DEPTH << BUF_3D_ID_SHIFT | tg->zpitch);
		out(t, ZBUF_GTT);
	}
	out(t, CMD_1D(OP1D_DST_BUF_VARS, 0));
	out(t, 8u << DSTORG_HORT_BIAS_SHIFT | 8u << DSTORG_VERT_BIAS_SHIFT |
	    tg->format << COLOR_BUF_FORMAT_SHIFT | tg->zformat << DEPTH_FRMT_SHIFT);
	out(t, CMD_1D(OP1D_DRAW_RECT, 3));
	out(t, DRAW_RECT_DIS_DEPTH_OFS);
	out(t, 0);
	out(t, (tg->h - 1) << 16 | (tg->w - 1));
	out(t, 0);
	out(t, CMD_1D(OP1D_LOAD_STATE_IMMEDIATE_1, 3) | I1_LOAD_S(2) | I1_LOAD_S(4) |
	    I1_LOAD_S(5) | I1_LOAD_S(6));
	out(t, s2);
	out(t, s4_vfmt | S4_CULLMODE_NONE << S4_CULLMODE_SHIFT |
	    2u << S4_LINE_WIDTH_SHIFT | 1u << S4_POINT_WIDTH_SHIFT);
	out(t, s5);
	out(t, s6 | S6_COLOR_WRITE_ENABLE | 2u << S6_TRISTRIP_PV_SHIFT);
}

/* Pixel shader operands: file, number, and four channel selects. */
struct src {
	uint8_t type, nr;
	uint8_t sel[4];
};

#define SRC(t, n)	((struct src){ (t), (n), { SRC_X, SRC_Y, SRC_Z, SRC_W } })
#define SRC_SW(t, n, a, b, c, d) ((struct src){ (t), (n), { (a), (b), (c), (d) } })
#define NEG		SRC_CHANNEL_NEGATE

struct prog {
	uint32_t dw[3 * PS_MAX_INSN];
	uint32_t n;
};

static void p_dcl_t(struct prog *p, unsigned int nr, unsigned int mask)
{
	p->dw[p->n++] = (uint32_t)D0_DCL << 24 | (uint32_t)REG_TYPE_T << D0_TYPE_SHIFT |
			nr << D0_NR_SHIFT | mask << D0_CHANNEL_SHIFT;
	p->dw[p->n++] = 0;
	p->dw[p->n++] = 0;
}

static void p_dcl_s(struct prog *p, unsigned int nr, unsigned int kind)
{
	p->dw[p->n++] = (uint32_t)D0_DCL << 24 | (uint32_t)REG_TYPE_S << D0_TYPE_SHIFT |
			nr << D0_NR_SHIFT | kind << D0_SAMPLE_TYPE_SHIFT;
	p->dw[p->n++] = 0;
	p->dw[p->n++] = 0;
}

static void p_tex(struct prog *p, unsigned int op, unsigned int dtype,
		  unsigned int dnr, unsigned int sampler, unsigned int atype,
		  unsigned int anr)
{
	p->dw[p->n++] = op << 24 | dtype << T0_DEST_TYPE_SHIFT |
			dnr << T0_DEST_NR_SHIFT | sampler;
	p->dw[p->n++] = atype << T1_ADDRESS_REG_TYPE_SHIFT |
			anr << T1_ADDRESS_REG_NR_SHIFT;
	p->dw[p->n++] = 0;
}

static void p_alu(struct prog *p, unsigned int op, bool sat, unsigned int dtype,
		  unsigned int dnr, unsigned int mask, struct src a, struct src b,
		  struct src c)
{
	p->dw[p->n++] = op << 24 | (sat ? A0_DEST_SATURATE : 0) |
			dtype << A0_DEST_TYPE_SHIFT | dnr << A0_DEST_NR_SHIFT |
			mask << A0_DEST_CHANNEL_SHIFT |
			(uint32_t)a.type << A0_SRC0_TYPE_SHIFT |
			(uint32_t)a.nr << A0_SRC0_NR_SHIFT;
	p->dw[p->n++] = (uint32_t)a.sel[0] << A1_SRC0_CHANNEL_X_SHIFT |
			(uint32_t)a.sel[1] << A1_SRC0_CHANNEL_Y_SHIFT |
			(uint32_t)a.sel[2] << A1_SRC0_CHANNEL_Z_SHIFT |
			(uint32_t)a.sel[3] << A1_SRC0_CHANNEL_W_SHIFT |
			(uint32_t)b.type << A1_SRC1_TYPE_SHIFT |
			(uint32_t)b.nr << A1_SRC1_NR_SHIFT |
			(uint32_t)b.sel[0] << A1_SRC1_CHANNEL_X_SHIFT |
			(uint32_t)b.sel[1] << A1_SRC1_CHANNEL_Y_SHIFT;
	p->dw[p->n++] = (uint32_t)b.sel[2] << A2_SRC1_CHANNEL_Z_SHIFT |
			(uint32_t)b.sel[3] << A2_SRC1_CHANNEL_W_SHIFT |
			(uint32_t)c.type << A2_SRC2_TYPE_SHIFT |
			(uint32_t)c.nr << A2_SRC2_NR_SHIFT |
			(uint32_t)c.sel[0] << A2_SRC2_CHANNEL_X_SHIFT |
			(uint32_t)c.sel[1] << A2_SRC2_CHANNEL_Y_SHIFT |
			(uint32_t)c.sel[2] << A2_SRC2_CHANNEL_Z_SHIFT |
			(uint32_t)c.sel[3] << A2_SRC2_CHANNEL_W_SHIFT;
}

static void p_mov(struct prog *p, unsigned int dtype, unsigned int dnr, struct src a)
{
	p_alu(p, A0_MOV, false, dtype, dnr, 0xf, a, SRC(0, 0), SRC(0, 0));
}

static void emit_program(struct t3d *t, const struct prog *p)
{
	uint32_t i;

	out(t, CMD_1D(OP1D_PIXEL_SHADER_PROGRAM, p->n - 1));
	for (i = 0; i < p->n; i++)
		out(t, p->dw[i]);
}

static void emit_constants(struct t3d *t, unsigned int first, unsigned int n,
			   const float (*c)[4])
{
	unsigned int i, k;

	out(t, CMD_1D(OP1D_PIXEL_SHADER_CONSTANTS, 4 * n));
	out(t, ((1u << n) - 1) << first);
	for (i = 0; i < n; i++)
		for (k = 0; k < 4; k++)
			outf(t, c[i][k]);
}

/* oC = diffuse. */
static void program_diffuse(struct t3d *t)
{
	struct prog p = { .n = 0 };

	p_dcl_t(&p, T_DIFFUSE, 0xf);
	p_mov(&p, REG_TYPE_OC, 0, SRC(REG_TYPE_T, T_DIFFUSE));
	emit_program(t, &p);
}

/* oC = texture 0 at T0. */
static void program_texture(struct t3d *t, unsigned int kind)
{
	struct prog p = { .n = 0 };

	p_dcl_t(&p, 0, 0xf);
	p_dcl_s(&p, 0, kind);
	p_tex(&p, T0_TEXLD, REG_TYPE_OC, 0, 0, REG_TYPE_T, 0);
	emit_program(t, &p);
}

static void emit_map(struct t3d *t, uint32_t addr, uint32_t w, uint32_t h,
		     uint32_t pitch, enum gpu_tiling tiling, uint32_t surf,
		     uint32_t mt, uint32_t max_lod_q)
{
	out(t, CMD_1D(OP1D_MAP_STATE, 3));
	out(t, 1);
	out(t, addr);
	out(t, (h - 1) << MS3_HEIGHT_SHIFT | (w - 1) << MS3_WIDTH_SHIFT |
	    surf << MS3_MAPSURF_FORMAT_SHIFT | mt << MS3_MT_FORMAT_SHIFT |
	    tiling_bits_map(tiling));
	out(t, (pitch / 4 - 1) << MS4_PITCH_SHIFT | max_lod_q << MS4_MAX_LOD_SHIFT);
}

static void emit_sampler(struct t3d *t, uint32_t ss2, uint32_t ss3, uint32_t border)
{
	out(t, CMD_1D(OP1D_SAMPLER_STATE, 3));
	out(t, 1);
	out(t, ss2);
	out(t, ss3);
	out(t, border);
}

static uint32_t cbuf_px(const struct t3d *t, const struct target *tg,
			uint32_t x, uint32_t y)
{
	uint32_t off = tg->tiling == GPU_TILING_NONE ? y * tg->pitch + x * tg->cpp :
		       gpu_tiled_offset(tg->tiling, tg->pitch, x * tg->cpp, y);
	uint32_t v = 0;

	memcpy(&v, t->cbuf + off, tg->cpp);
	return v;
}

static uint32_t lcg;

static uint32_t rnd(void)
{
	lcg = lcg * 1664525u + 1013904223u;
	return lcg >> 8;
}

/* ---- rectangles and textures ------------------------------------------ */

/* The IGT-style copy: a textured RECTLIST with texel coordinates and a
 * nearest sampler copies every texel, whatever the two layouts. */
static void rect_copy(enum gpu_tiling src_tiling, enum gpu_tiling dst_tiling)
{
	struct target tg = argb_256;
	struct t3d t;
	uint32_t x, y, off, want;

	t3d_init(&t);
	tg.tiling = dst_tiling;
	lcg = 42;
	for (y = 0; y < 64; y++) {
		for (x = 0; x < 256; x++) {
			want = rnd() ^ rnd() << 8;
			off = src_tiling == GPU_TILING_NONE ? y * 1024 + 4 * x :
			      gpu_tiled_offset(src_tiling, 1024, 4 * x, y);
			memcpy(t.tex + off, &want, 4);
		}
	}
	emit_setup(&t, &tg, ~0u << 4 | TEXCOORDFMT_2D, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT,
		   0, 0);
	emit_map(&t, TEX_GTT, 256, 64, 1024, src_tiling, MAPSURF_32BIT,
		 MT_32BIT_ARGB8888, 0);
	emit_sampler(&t, 0, TEXCOORDMODE_WRAP << SS3_TCX_ADDR_MODE_SHIFT |
		     TEXCOORDMODE_WRAP << SS3_TCY_ADDR_MODE_SHIFT, 0);
	program_texture(&t, D0_SAMPLE_TYPE_2D);
	out(&t, CMD_3D | OP3D_PRIMITIVE << 24 | PRIM3D_RECTLIST << PRIM3D_SHIFT |
	    (3 * 4 - 1));
	outf(&t, 256); outf(&t, 64); outf(&t, 256); outf(&t, 64);
	outf(&t, 0); outf(&t, 64); outf(&t, 0); outf(&t, 64);
	outf(&t, 0); outf(&t, 0); outf(&t, 0); outf(&t, 0);
	run(&t);
	lcg = 42;
	for (y = 0; y < 64; y++) {
		for (x = 0; x < 256; x++) {
			want = rnd() ^ rnd() << 8;
			gt_assert_f(cbuf_px(&t, &tg, x, y) == want,
				    "(%u,%u): got 0x%08x want 0x%08x", x, y,
				    cbuf_px(&t, &tg, x, y), want);
		}
	}
	t3d_fini(&t);
}

static void test_rect_copy(void)
{
	static const enum gpu_tiling tilings[] = {
		GPU_TILING_NONE, GPU_TILING_X, GPU_TILING_Y,
	};
	unsigned int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			rect_copy(tilings[i], tilings[j]);
}

/* ---- rasterisation ----------------------------------------------------- */

/* Inline _3DPRIMITIVE of ndw vertex dwords. */
#define PRIM(type, ndw)	(CMD_3D | OP3D_PRIMITIVE << 24 | \
			 (uint32_t)(type) << PRIM3D_SHIFT | ((ndw) - 1))

/* oC = C0, blended ONE + ONE: each fragment adds C0 to the pixel. */
static void setup_count(struct t3d *t, const struct target *tg, uint32_t vfmt)
{
	static const float c0[1][4] = { { 0.0f, 0.0f, 1.0f / 255.0f, 0.0f } };
	struct prog p = { .n = 0 };

	emit_setup(t, tg, ~0u, vfmt << S4_VFMT_XYZW_SHIFT, 0,
		   S6_CBUF_BLEND_ENABLE | BLENDFUNC_ADD << S6_CBUF_BLEND_FUNC_SHIFT |
		   BLENDFACT_ONE << S6_CBUF_SRC_BLEND_FACT_SHIFT |
		   BLENDFACT_ONE << S6_CBUF_DST_BLEND_FACT_SHIFT);
	emit_constants(t, 0, 1, c0);
	p_mov(&p, REG_TYPE_OC, 0, SRC(REG_TYPE_CONST, 0));
	emit_program(t, &p);
}

/*
 * The reference rasteriser: each pixel's centre tested against the edges
 * of the triangle snapped to 1/256, a centre on an edge counting only for
 * a top or left edge.
 */
static bool ref_covers(const float (*v)[2], int px, int py)
{
	long long X[3], Y[3], area, sx = px * 256LL + 128, sy = py * 256LL + 128;
	int i, a, b;

	for (i = 0; i < 3; i++) {
		X[i] = llrint((double)v[i][0] * 256.0);
		Y[i] = llrint((double)v[i][1] * 256.0);
	}
	area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
	if (area == 0)
		return false;
	for (i = 0; i < 3; i++) {
		long long dx, dy, e;
		bool top_left;

		a = area > 0 ? i : (3 - i) % 3;
		b = area > 0 ? (i + 1) % 3 : (5 - i) % 3;
		dx = X[b] - X[a];
		dy = Y[b] - Y[a];
		e = dx * (sy - Y[a]) - dy * (sx - X[a]);
		top_left = dy < 0 || (dy == 0 && dx > 0);
		if (e < 0 || (e == 0 && !top_left))
			return false;
	}
	return true;
}

static float rnd_coord(float lo, float hi)
{
	/* Quarter pixels: plenty of samples land exactly on edges. */
	return lo + (float)(rnd() % (uint32_t)((hi - lo) * 4)) / 4.0f;
}

static void test_triangle_coverage(void)
{
	struct target tg = argb_256;
	float tri[64][3][2];
	struct t3d t;
	int i, k, x, y, want, got;

	t3d_init(&t);
	lcg = 7;
	setup_count(&t, &tg, S4_VFMT_XY);
	out(&t, PRIM(PRIM3D_TRILIST, 64 * 3 * 2));
	for (i = 0; i < 64; i++) {
		for (k = 0; k < 3; k++) {
			tri[i][k][0] = rnd_coord(-20, 276);
			tri[i][k][1] = rnd_coord(-20, 84);
			outf(&t, tri[i][k][0]);
			outf(&t, tri[i][k][1]);
		}
	}
	run(&t);
	for (y = 0; y < 64; y++) {
		for (x = 0; x < 256; x++) {
			want = 0;
			for (i = 0; i < 64; i++)
				want += ref_covers((const float (*)[2])tri[i], x, y);
			got = (int)(cbuf_px(&t, &tg, (uint32_t)x, (uint32_t)y) & 0xff);
			gt_assert_f(got == want, "(%d,%d): %d fragments, want %d",
				    x, y, got, want);
		}
	}
	t3d_fini(&t);
}

/* A fan of triangles around an inner point tiles a convex polygon: every
 * pixel inside is drawn exactly once, however the edges fall. */
static void test_shared_edges(void)
{
	static const float ring[][2] = {
		{ 10.25f, 3.5f }, { 100.5f, 2.0f }, { 200.0f, 10.75f },
		{ 250.5f, 40.0f }, { 180.0f, 62.5f }, { 60.0f, 60.0f },
		{ 4.5f, 33.25f },
	};
	struct target tg = argb_256;
	unsigned int n = sizeof(ring) / sizeof(ring[0]), i, total = 0, x, y, v;
	struct t3d t;

	t3d_init(&t);
	setup_count(&t, &tg, S4_VFMT_XY);
	out(&t, PRIM(PRIM3D_TRIFAN, 2 * (n + 2)));
	outf(&t, 128.5f);
	outf(&t, 32.5f);
	for (i = 0; i <= n; i++) {
		outf(&t, ring[i % n][0]);
		outf(&t, ring[i % n][1]);
	}
	run(&t);
	for (y = 0; y < 64; y++) {
		for (x = 0; x < 256; x++) {
			v = cbuf_px(&t, &tg, x, y) & 0xff;
			gt_assert_f(v <= 1, "(%u,%u) drawn %u times", x, y, v);
			total += v;
		}
	}
	/* The polygon's area is about 11,300 pixels. */
	gt_assert(total > 11000 && total < 11600);
	t3d_fini(&t);
}

/* Strips, fans, polygons and vertex buffers draw what the same triangles
 * drawn as a list draw. */
static void draw_tris_as(struct t3d *t, const struct target *tg, uint32_t type,
			 const float (*v)[2], unsigned int n)
{
	unsigned int i;

	setup_count(t, tg, S4_VFMT_XY);
	out(t, PRIM(type, 2 * n));
	for (i = 0; i < n; i++) {
		outf(t, v[i][0]);
		outf(t, v[i][1]);
	}
}

static void expect_same_image(struct t3d *a, struct t3d *b, const struct target *tg)
{
	uint32_t x, y;

	for (y = 0; y < tg->h; y++)
		for (x = 0; x < tg->w; x++)
			gt_assert_f(cbuf_px(a, tg, x, y) == cbuf_px(b, tg, x, y),
				    "(%u,%u): 0x%08x vs 0x%08x", x, y,
				    cbuf_px(a, tg, x, y), cbuf_px(b, tg, x, y));
}

static void test_strips_fans(void)
{
	static const float strip[8][2] = {
		{ 3, 5 }, { 10, 60 }, { 40, 2.5f }, { 70, 55 }, { 110, 9 },
		{ 130.5f, 63 }, { 170, 1 }, { 250, 50 },
	};
	float list[18][2];
	struct target tg = argb_256;
	struct t3d a, b;
	unsigned int i, k;

	/* Strip: triangle i is (i, i+1, i+2), odd ones wound back. */
	for (i = 0; i < 6; i++)
		for (k = 0; k < 3; k++)
			memcpy(list[3 * i + k], strip[i + k], sizeof(list[0]));
	t3d_init(&a);
	t3d_init(&b);
	draw_tris_as(&a, &tg, PRIM3D_TRISTRIP, strip, 8);
	draw_tris_as(&b, &tg, PRIM3D_TRILIST, (const float (*)[2])list, 18);
	run(&a);
	run(&b);
	expect_same_image(&a, &b, &tg);
	/* Fan and polygon: (0, i+1, i+2). */
	memset(a.cbuf, 0, SURF_SIZE);
	memset(b.cbuf, 0, SURF_SIZE);
	for (i = 0; i < 6; i++) {
		memcpy(list[3 * i], strip[0], sizeof(list[0]));
		memcpy(list[3 * i + 1], strip[i + 1], sizeof(list[0]));
		memcpy(list[3 * i + 2], strip[i + 2], sizeof(list[0]));
	}
	draw_tris_as(&a, &tg, PRIM3D_TRIFAN, strip, 8);
	draw_tris_as(&b, &tg, PRIM3D_TRILIST, (const float (*)[2])list, 18);
	run(&a);
	run(&b);
	expect_same_image(&a, &b, &tg);
	memset(a.cbuf, 0, SURF_SIZE);
	draw_tris_as(&a, &tg, PRIM3D_POLY, strip, 8);
	run(&a);
	expect_same_image(&a, &b, &tg);
	t3d_fini(&a);
	t3d_fini(&b);
}

static void test_vertex_buffer(void)
{
	static const float v[6][2] = {
		{ 3, 5 }, { 100, 60 }, { 40, 2.5f }, { 70, 55 }, { 250, 9 },
		{ 130.5f, 63 },
	};
	static const uint16_t idx[9] = { 0, 1, 2, 2, 1, 3, 3, 4, 5 };
	struct target tg = argb_256;
	struct t3d a, b;
	float *vb;
	unsigned int i;

	t3d_init(&a);
	t3d_init(&b);
	/* Inline, vertex by vertex: the first triangle twice, then the
	 * indexed list. */
	draw_tris_as(&a, &tg, PRIM3D_TRILIST, v, 3);
	draw_tris_as(&a, &tg, PRIM3D_TRILIST, v, 3);
	setup_count(&a, &tg, S4_VFMT_XY);
	out(&a, PRIM(PRIM3D_TRILIST, 18));
	for (i = 0; i < 9; i++) {
		outf(&a, v[idx[i]][0]);
		outf(&a, v[idx[i]][1]);
	}
	run(&a);
	/* The same from a vertex buffer with a pitch of 3 dwords: in order,
	 * then by index. */
	vb = (float *)(b.vb + 256);
	for (i = 0; i < 6; i++) {
		vb[3 * i] = v[i][0];
		vb[3 * i + 1] = v[i][1];
		vb[3 * i + 2] = 1234.0f;	/* padding the pitch skips */
	}
	setup_count(&b, &tg, S4_VFMT_XY);
	out(&b, CMD_1D(OP1D_LOAD_STATE_IMMEDIATE_1, 1) | I1_LOAD_S(0) | I1_LOAD_S(1));
	out(&b, VB_GTT + 256);
	out(&b, 2u << S1_VERTEX_WIDTH_SHIFT | 3u << S1_VERTEX_PITCH_SHIFT);
	out(&b, CMD_3D | OP3D_PRIMITIVE << 24 | PRIM_INDIRECT |
	    PRIM3D_TRILIST << PRIM3D_SHIFT | 3);
	out(&b, 0);
	out(&b, CMD_3D | OP3D_PRIMITIVE << 24 | PRIM_INDIRECT | PRIM_INDIRECT_ELTS |
	    PRIM3D_TRILIST << PRIM3D_SHIFT | 9);
	for (i = 0; i < 9; i += 2)
		out(&b, (uint32_t)idx[i] | (i + 1 < 9 ? (uint32_t)idx[i + 1] << 16 : 0));
	/* And a list that ends at the 0xffff terminator. */
	out(&b, CMD_3D | OP3D_PRIMITIVE << 24 | PRIM_INDIRECT | PRIM_INDIRECT_ELTS |
	    PRIM3D_TRILIST << PRIM3D_SHIFT | 0);
	out(&b, 0x00000000u | 0x0001u << 16);
	out(&b, 0x0002u | 0xffffu << 16);
	run(&b);
	/* b drew the first triangle in order and through the terminated
	 * list, and all three through the index list. */
	expect_same_image(&a, &b, &tg);
	t3d_fini(&a);
	t3d_fini(&b);
}

/* ---- interpolation ------------------------------------------------------ */

/* Diffuse red from 0 at x = 0 to 255 at x = 256 across a rectangle: each
 * pixel centre gets (x + 0.5) / 256 of full red, rounded. */
static void test_smooth_shading(void)
{
	struct target tg = argb_256;
	struct t3d t;
	uint32_t x, y, want;

	t3d_init(&t);
	emit_setup(&t, &tg, ~0u, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT | S4_VFMT_COLOR, 0, 0);
	program_diffuse(&t);
	out(&t, PRIM(PRIM3D_RECTLIST, 9));
	outf(&t, 256); outf(&t, 64); out(&t, 0xffff0000);
	outf(&t, 0); outf(&t, 64); out(&t, 0xff000000);
	outf(&t, 0); outf(&t, 0); out(&t, 0xff000000);
	run(&t);
	for (y = 0; y < 64; y++) {
		for (x = 0; x < 256; x++) {
			want = 0xff000000u |
			       (uint32_t)lrint((x + 0.5) * 255.0 / 256.0) << 16;
			gt_assert_f(cbuf_px(&t, &tg, x, y) == want,
				    "(%u,%u): 0x%08x want 0x%08x", x, y,
				    cbuf_px(&t, &tg, x, y), want);
		}
	}
	t3d_fini(&t);
}

/* With XYZW the fourth coordinate is 1/w: inputs are interpolated as
 * a/w and 1/w and divided, as perspective requires. */
static void test_perspective(void)
{
	struct target tg = argb_256;
	struct prog p = { .n = 0 };
	struct t3d t;
	uint32_t x, y;
	int got, want;

	t3d_init(&t);
	emit_setup(&t, &tg, ~0u << 4 | TEXCOORDFMT_2D, S4_VFMT_XYZW << S4_VFMT_XYZW_SHIFT,
		   0, 0);
	p_dcl_t(&p, 0, 0xf);
	p_alu(&p, A0_MOV, true, REG_TYPE_OC, 0, 0xf,
	      SRC_SW(REG_TYPE_T, 0, SRC_X, SRC_Y, SRC_ZERO, SRC_ONE),
	      SRC(0, 0), SRC(0, 0));
	emit_program(&t, &p);
	/* Left edge at w = 1 (1/w = 1), right edge at w = 4 (1/w = 0.25);
	 * s goes from 0 to 1 across. */
	out(&t, PRIM(PRIM3D_RECTLIST, 18));
	outf(&t, 256); outf(&t, 64); outf(&t, 0); outf(&t, 0.25f);
	outf(&t, 1); outf(&t, 0);
	outf(&t, 0); outf(&t, 64); outf(&t, 0); outf(&t, 1.0f);
	outf(&t, 0); outf(&t, 0);
	outf(&t, 0); outf(&t, 0); outf(&t, 0); outf(&t, 1.0f);
	outf(&t, 0); outf(&t, 0);
	run(&t);
	for (y = 0; y < 64; y += 7) {
		for (x = 0; x < 256; x++) {
			double f = (x + 0.5) / 256.0;	/* screen fraction */
			double s = f * 0.25 / ((1 - f) * 1.0 + f * 0.25);

			want = (int)lrint(s * 255.0);
			got = (int)((cbuf_px(&t, &tg, x, y) >> 16) & 0xff);
			/* float against double: one unit either way */
			gt_assert_f(abs(got - want) <= 1, "(%u,%u): %d want %d",
				    x, y, got, want);
		}
	}
	t3d_fini(&t);
}

/* ---- the pixel shader ----------------------------------------------------- */

static uint32_t pack_argb(const float c[4])
{
	uint32_t v = 0;
	int i;
	static const int shift[4] = { 16, 8, 0, 24 };

	for (i = 0; i < 4; i++) {
		float f = c[i] < 0.0f ? 0.0f : c[i] > 1.0f ? 1.0f : c[i];

		v |= (uint32_t)lrintf(f * 255.0f) << shift[i];
	}
	return v;
}

/* Inputs of the ALU test, loaded into R0-R5 from constants. */
static const float alu_in[6][4] = {
	{ 0.25f, 0.5f, 0.75f, 1.0f },
	{ 0.5f, 0.25f, 0.125f, 0.75f },
	{ 0.1f, 0.2f, 0.3f, 0.4f },
	{ 4.0f, 2.0f, 8.0f, 1.25f },
	{ -1.0f, -2.0f, 0.5f, -0.5f },
	{ 0.5f, 1.5f, -0.5f, 0.9f },
};

struct alu_case {
	uint8_t op;
	uint8_t a, b, c;		/* R registers */
	uint8_t mask;
	bool swz;			/* a read through sa's selects */
	struct src sa;
};

static float sel_val(const float *r, uint8_t sel)
{
	float v = (sel & 7) == SRC_ZERO ? 0.0f : (sel & 7) == SRC_ONE ? 1.0f :
		  r[sel & 7];

	return sel & NEG ? -v : v;
}

/* What each operation computes, as the 915's ISA defines it. */
static void alu_ref(const struct alu_case *k, const uint8_t sel[4], float res[4])
{
	float a[4], b[4], c[4], v;
	int i;

	for (i = 0; i < 4; i++) {
		a[i] = sel_val(alu_in[k->a], sel[i]);
		b[i] = alu_in[k->b][i];
		c[i] = alu_in[k->c][i];
	}
	for (i = 0; i < 4; i++) {
		switch (k->op) {
		case A0_ADD: v = a[i] + b[i]; break;
		case A0_MOV: v = a[i]; break;
		case A0_MUL: v = a[i] * b[i]; break;
		case A0_MAD: v = a[i] * b[i] + c[i]; break;
		case A0_DP2ADD: v = a[0] * b[0] + a[1] * b[1] + c[0]; break;
		case A0_DP3: v = a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; break;
		case A0_DP4:
			v = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
			break;
		case A0_FRC: v = a[i] - floorf(a[i]); break;
		case A0_RCP: v = 1.0f / a[0]; break;
		case A0_RSQ: v = 1.0f / sqrtf(fabsf(a[0])); break;
		case A0_EXP: v = exp2f(a[0]); break;
		case A0_LOG: v = log2f(fabsf(a[0])); break;
		case A0_CMP: v = a[i] >= 0.0f ? b[i] : c[i]; break;
		case A0_MIN: v = a[i] < b[i] ? a[i] : b[i]; break;
		case A0_MAX: v = a[i] >= b[i] ? a[i] : b[i]; break;
		case A0_FLR: v = floorf(a[i]); break;
		case A0_MOD: v = fmodf(a[i], 1.0f); break;
		case A0_TRC: v = truncf(a[i]); break;
		case A0_SGE: v = a[i] >= b[i] ? 1.0f : 0.0f; break;
		default: v = a[i] < b[i] ? 1.0f : 0.0f; break;	/* SLT */
		}
		res[i] = k->mask & (1u << i) ? v : 0.0f;
	}
}

static void test_shader_alu(void)
{
	static const struct alu_case cases[] = {
		{ A0_ADD, 0, 1, 0, 0xf }, { A0_MOV, 1, 0, 0, 0xf },
		{ A0_MUL, 0, 1, 0, 0xf }, { A0_MAD, 0, 1, 2, 0xf },
		{ A0_DP2ADD, 1, 0, 2, 0xf }, { A0_DP3, 1, 2, 0, 0xf },
		{ A0_DP4, 1, 2, 0, 0xf }, { A0_FRC, 3, 0, 0, 0xf },
		{ A0_RCP, 3, 0, 0, 0xf }, { A0_RSQ, 3, 0, 0, 0xf },
		{ A0_EXP, 4, 0, 0, 0xf }, { A0_LOG, 3, 0, 0, 0xf },
		{ A0_CMP, 4, 0, 1, 0xf }, { A0_MIN, 0, 1, 0, 0xf },
		{ A0_MAX, 0, 1, 0, 0xf }, { A0_FLR, 5, 0, 0, 0xf },
		{ A0_MOD, 3, 0, 0, 0xf }, { A0_TRC, 5, 0, 0, 0xf },
		{ A0_SGE, 0, 1, 0, 0xf }, { A0_SLT, 0, 1, 0, 0xf },
		/* write masks, swizzles, negation, ZERO and ONE */
		{ A0_DP3, 1, 2, 0, 0x5 }, { A0_ADD, 1, 0, 0, 0xa },
		{ A0_MOV, 4, 0, 0, 0xf, true,
		  SRC_SW(REG_TYPE_R, 4, SRC_W | NEG, SRC_Z, SRC_ONE, SRC_X | NEG) },
		{ A0_MOV, 0, 0, 0, 0xf, true,
		  SRC_SW(REG_TYPE_R, 0, SRC_ZERO, SRC_W, SRC_Y, SRC_ONE | NEG) },
		{ A0_DP3, 4, 1, 0, 0xf, true,
		  SRC_SW(REG_TYPE_R, 4, SRC_X | NEG, SRC_Z, SRC_ZERO, SRC_Y) },
	};
	unsigned int n = sizeof(cases) / sizeof(cases[0]), i, x, y, r;
	struct target tg = argb_256;
	struct t3d t;
	float res[4];

	t3d_init(&t);
	emit_setup(&t, &tg, ~0u, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT, 0, 0);
	emit_constants(&t, 0, 6, alu_in);
	for (i = 0; i < n; i++) {
		const struct alu_case *k = &cases[i];
		struct prog p = { .n = 0 };
		struct src a = k->swz ? k->sa : SRC(REG_TYPE_R, k->a);

		for (r = 0; r < 6; r++)
			p_mov(&p, REG_TYPE_R, r, SRC(REG_TYPE_CONST, r));
		p_alu(&p, k->op, true, REG_TYPE_OC, 0, k->mask, a,
		      SRC(REG_TYPE_R, k->b), SRC(REG_TYPE_R, k->c));
		emit_program(&t, &p);
		out(&t, PRIM(PRIM3D_RECTLIST, 6));
		outf(&t, (float)(8 * i + 8)); outf(&t, 8);
		outf(&t, (float)(8 * i)); outf(&t, 8);
		outf(&t, (float)(8 * i)); outf(&t, 0);
	}
	run(&t);
	for (i = 0; i < n; i++) {
		const struct alu_case *k = &cases[i];
		uint8_t sel[4] = { SRC_X, SRC_Y, SRC_Z, SRC_W };

		if (k->swz)
			memcpy(sel, k->sa.sel, 4);
		alu_ref(k, sel, res);
		for (y = 0; y < 8; y++)
			for (x = 8 * i; x < 8 * i + 8; x++)
				gt_assert_f(cbuf_px(&t, &tg, x, y) == pack_argb(res),
					    "case %u (op 0x%x): 0x%08x want 0x%08x",
					    i, k->op, cbuf_px(&t, &tg, x, y),
					    pack_argb(res));
	}
	t3d_fini(&t);
}

/* TEXKILL discards a pixel whose address has a negative channel; oD.w
 * replaces the interpolated depth. */
static void test_shader_kill_depth(void)
{
	struct target tg = argb_256;
	struct prog p = { .n = 0 };
	struct t3d t;
	uint32_t x, y, *z;

	tg.depth = true;
	tg.zformat = DEPTH_FRMT_24_FIXED_8_OTHER;
	tg.zpitch = 1024;
	t3d_init(&t);
	emit_setup(&t, &tg, ~0u << 4 | TEXCOORDFMT_2D, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT,
		   0, S6_DEPTH_WRITE_ENABLE | S6_DEPTH_TEST_ENABLE |
		   COMPAREFUNC_ALWAYS << S6_DEPTH_TEST_FUNC_SHIFT);
	/* t0 = (x - 128, 0.25): killed left of x = 128; depth 0.25. */
	p_dcl_t(&p, 0, 0xf);
	p_tex(&p, T0_TEXKILL, 0, 0, 0, REG_TYPE_T, 0);
	p_mov(&p, REG_TYPE_OC, 0, SRC_SW(REG_TYPE_T, 0, SRC_ONE, SRC_ZERO, SRC_ZERO,
					  SRC_ONE));
	p_alu(&p, A0_MOV, false, REG_TYPE_OD, 0, 0x8,
	      SRC_SW(REG_TYPE_T, 0, SRC_Y, SRC_Y, SRC_Y, SRC_Y), SRC(0, 0), SRC(0, 0));
	emit_program(&t, &p);
	out(&t, PRIM(PRIM3D_RECTLIST, 12));
	outf(&t, 256); outf(&t, 64); outf(&t, 128); outf(&t, 0.25f);
	outf(&t, 0); outf(&t, 64); outf(&t, -128); outf(&t, 0.25f);
	outf(&t, 0); outf(&t, 0); outf(&t, -128); outf(&t, 0.25f);
	run(&t);
	z = (uint32_t *)t.zbuf;
	for (y = 0; y < 64; y++) {
		for (x = 0; x < 256; x++) {
			bool kept = x >= 128;

			gt_assert_eq(cbuf_px(&t, &tg, x, y), kept ? 0xffff0000u : 0);
			gt_assert_eq(z[y * 256 + x], kept ? 0x400000u : 0);
		}
	}
	t3d_fini(&t);
}

/* A malformed program stops the parser on its command: IPEHR has the
 * header, ACTHD its address, EIR the instruction error. */
static void bad_program(const uint32_t insn[3], const char *what)
{
	struct target tg = argb_256;
	struct prog p = { .n = 0 };
	struct t3d t;
	uint32_t at;

	t3d_init(&t);
	emit_setup(&t, &tg, ~0u, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT, 0, 0);
	p_dcl_t(&p, 0, 0xf);
	p_dcl_s(&p, 0, D0_SAMPLE_TYPE_2D);
	memcpy(p.dw + p.n, insn, 12);
	p.n += 3;
	at = BATCH_GTT + 4 * t.n;
	emit_program(&t, &p);
	submit(&t);
	gt_assert_f(gpu_stopped(t.gpu), "%s: not refused", what);
	gt_assert_eq(gpu_read(t.gpu, IPEHR), CMD_1D(OP1D_PIXEL_SHADER_PROGRAM, p.n - 1));
	gt_assert_eq(gpu_read(t.gpu, ACTHD), at);
	gt_assert_eq(gpu_read(t.gpu, EIR), I915_ERROR_INSTRUCTION);
	gt_assert_eq(atomic_load(&error_irqs), 1);
	gpu_reset(t.gpu);
	gt_assert(!gpu_stopped(t.gpu));
	t3d_fini(&t);
}

static void test_shader_invalid(void)
{
	struct prog p;
	unsigned int i;
	const struct {
		const char *what;
		unsigned int op, dtype, dnr;
		struct src a, b;
	} bad[] = {
		{ "destination T", A0_MOV, REG_TYPE_T, 0, SRC(REG_TYPE_R, 0) },
		{ "destination C", A0_MOV, REG_TYPE_CONST, 0, SRC(REG_TYPE_R, 0) },
		{ "source S", A0_MOV, REG_TYPE_R, 0, SRC(REG_TYPE_S, 0) },
		{ "source file 7", A0_MOV, REG_TYPE_R, 0, SRC(7, 0) },
		{ "R16", A0_MOV, REG_TYPE_R, 0, SRC(REG_TYPE_R, 16) },
		{ "T11", A0_MOV, REG_TYPE_R, 0, SRC(REG_TYPE_T, 11) },
		{ "undeclared T1", A0_MOV, REG_TYPE_R, 0, SRC(REG_TYPE_T, 1) },
		{ "U4", A0_MOV, REG_TYPE_R, 0, SRC(REG_TYPE_U, 4) },
		{ "two constants", A0_ADD, REG_TYPE_R, 0, SRC(REG_TYPE_CONST, 0),
		  SRC(REG_TYPE_CONST, 1) },
		{ "channel select 6", A0_MOV, REG_TYPE_R, 0,
		  SRC_SW(REG_TYPE_R, 0, 6, SRC_Y, SRC_Z, SRC_W) },
	};
	uint32_t raw[][3] = {
		{ 0x1au << 24, 0, 0 },				/* opcode 0x1a */
		{ 0x1fu << 24, 0, 0 },				/* opcode 0x1f */
		{ (uint32_t)D0_DCL << 24, 0, 0 },		/* DCL of R0 */
		{ (uint32_t)T0_TEXLD << 24 | 5u,		/* undeclared S5 */
		  (uint32_t)REG_TYPE_T << T1_ADDRESS_REG_TYPE_SHIFT, 0 },
	};

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p.n = 0;
		p_alu(&p, bad[i].op, false, bad[i].dtype, bad[i].dnr, 0xf, bad[i].a,
		      bad[i].b, SRC(REG_TYPE_R, 0));
		bad_program(p.dw, bad[i].what);
	}
	for (i = 0; i < sizeof(raw) / sizeof(raw[0]); i++)
		bad_program(raw[i], "raw");
}

/* The unit's limits: 64 arithmetic instructions and no more. */
static void test_shader_limits(void)
{
	struct target tg = argb_256;
	struct prog p = { .n = 0 };
	struct t3d t;
	unsigned int i;

	t3d_init(&t);
	emit_setup(&t, &tg, ~0u, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT, 0, 0);
	for (i = 0; i < 64; i++)
		p_mov(&p, REG_TYPE_R, i % 16, SRC(REG_TYPE_R, (i + 1) % 16));
	emit_program(&t, &p);
	run(&t);
	p_mov(&p, REG_TYPE_R, 0, SRC(REG_TYPE_R, 1));
	emit_program(&t, &p);
	submit(&t);
	gt_assert(gpu_stopped(t.gpu));
	t3d_fini(&t);
}

/* ---- per-fragment operations ----------------------------------------------- */

/* oC = C0. */
static void program_const(struct t3d *t, const float c[4])
{
	const float (*cc)[4] = (const float (*)[4])c;
	struct prog p = { .n = 0 };

	emit_constants(t, 0, 1, cc);
	p_mov(&p, REG_TYPE_OC, 0, SRC(REG_TYPE_CONST, 0));
	emit_program(t, &p);
}

/* An axis-aligned rectangle [x1, x2) x [y1, y2) at depth z, XYZ format. */
static void rect_z(struct t3d *t, float x1, float y1, float x2, float y2, float z)
{
	out(t, PRIM(PRIM3D_RECTLIST, 9));
	outf(t, x2); outf(t, y2); outf(t, z);
	outf(t, x1); outf(t, y2); outf(t, z);
	outf(t, x1); outf(t, y1); outf(t, z);
}

/* Blending as the colour calculator does it: 8-bit operands, each
 * product rounded to 8 bits, the result saturated. */
static int f8(float v)
{
	return (int)lrintf((v < 0 ? 0 : v > 1 ? 1 : v) * 255.0f);
}

static int factor_ref(unsigned int f, unsigned int c, const int *s, const int *d,
		      const int *k)
{
	switch (f) {
	case BLENDFACT_ZERO: return 0;
	case BLENDFACT_ONE: return 255;
	case BLENDFACT_SRC_COLR: return s[c];
	case BLENDFACT_INV_SRC_COLR: return 255 - s[c];
	case BLENDFACT_SRC_ALPHA: return s[3];
	case BLENDFACT_INV_SRC_ALPHA: return 255 - s[3];
	case BLENDFACT_DST_ALPHA: return d[3];
	case BLENDFACT_INV_DST_ALPHA: return 255 - d[3];
	case BLENDFACT_DST_COLR: return d[c];
	case BLENDFACT_INV_DST_COLR: return 255 - d[c];
	case BLENDFACT_SRC_ALPHA_SATURATE:
		return c == 3 ? 255 : (s[3] < 255 - d[3] ? s[3] : 255 - d[3]);
	case BLENDFACT_CONST_COLOR: return k[c];
	case BLENDFACT_INV_CONST_COLOR: return 255 - k[c];
	case BLENDFACT_CONST_ALPHA: return k[3];
	default: return 255 - k[3];	/* INV_CONST_ALPHA */
	}
}

static int prod8(int a, int b)
{
	return (int)floor(a * b / 255.0 + 0.5);
}

static float blend_ref(unsigned int func, int s, int fs, int d, int fd)
{
	int v;

	switch (func) {
	case BLENDFUNC_SUBTRACT: v = prod8(s, fs) - prod8(d, fd); break;
	case BLENDFUNC_REVERSE_SUBTRACT: v = prod8(d, fd) - prod8(s, fs); break;
	case BLENDFUNC_MIN: v = s < d ? s : d; break;
	case BLENDFUNC_MAX: v = s > d ? s : d; break;
	default: v = prod8(s, fs) + prod8(d, fd); break;
	}
	return (float)(v < 0 ? 0 : v > 255 ? 255 : v) / 255.0f;
}

static void unpack_argb(uint32_t v, float c[4])
{
	c[0] = (float)((v >> 16) & 0xff) / 255.0f;
	c[1] = (float)((v >> 8) & 0xff) / 255.0f;
	c[2] = (float)(v & 0xff) / 255.0f;
	c[3] = (float)(v >> 24) / 255.0f;
}

/* Every factor pair under every equation, on 2x2 cells; the alpha channel
 * uses its own factors through INDEPENDENT_ALPHA_BLEND in half of them. */
static void test_blend(void)
{
	static const float src[4] = { 0.8f, 0.4f, 0.2f, 0.6f };
	static const float dst_in[4] = { 0.3f, 0.5f, 0.7f, 0.25f };
	const uint32_t kc = 0x80402010;
	struct target tg = argb_256;
	unsigned int func, fs, fd, cell = 0, x, y, c, pass;
	int s8[4], d8[4], k8[4];
	float dst[4], k[4], want[4];
	struct t3d t;

	unpack_argb(pack_argb(dst_in), dst);
	unpack_argb(kc, k);
	for (c = 0; c < 4; c++) {
		s8[c] = f8(src[c]);
		d8[c] = f8(dst[c]);
		k8[c] = f8(k[c]);
	}
	for (pass = 0; pass < 2; pass++) {
		t3d_init(&t);
		cell = 0;
		emit_setup(&t, &tg, ~0u, S4_VFMT_XYZ << S4_VFMT_XYZW_SHIFT, 0, 0);
		program_const(&t, dst_in);
		rect_z(&t, 0, 0, 256, 64, 0);
		out(&t, CMD_1D(OP1D_CONST_BLEND_COLOR, 0));
		out(&t, kc);
		program_const(&t, src);
		for (func = 0; func <= BLENDFUNC_MAX; func++) {
			for (fs = 1; fs <= 15; fs++) {
				for (fd = 1; fd <= 15; fd++, cell++) {
					if (cell % 2 != pass)
						continue;
					/* IAB on even cells: alpha uses (fd, fs) swapped. */
					out(&t, CMD_1(OP3D_INDEPENDENT_ALPHA_BLEND) |
					    IAB_MODIFY_ENABLE | (cell % 4 == 0 ? IAB_ENABLE : 0) |
					    IAB_MODIFY_FUNC | func << IAB_FUNC_SHIFT |
					    IAB_MODIFY_SRC_FACTOR | fd << IAB_SRC_FACTOR_SHIFT |
					    IAB_MODIFY_DST_FACTOR | fs << IAB_DST_FACTOR_SHIFT);
					out(&t, CMD_1D(OP1D_LOAD_STATE_IMMEDIATE_1, 0) |
					    I1_LOAD_S(6));
					out(&t, S6_COLOR_WRITE_ENABLE | S6_CBUF_BLEND_ENABLE |
					    func << S6_CBUF_BLEND_FUNC_SHIFT |
					    fs << S6_CBUF_SRC_BLEND_FACT_SHIFT |
					    fd << S6_CBUF_DST_BLEND_FACT_SHIFT);
					x = 2 * (cell / 2 % 128);
					y = 2 * (cell / 2 / 128);
					rect_z(&t, (float)x, (float)y, (float)x + 2,
					       (float)y + 2, 0);
				}
			}
		}
		run(&t);
		cell = 0;
		for (func = 0; func <= BLENDFUNC_MAX; func++) {
			for (fs = 1; fs <= 15; fs++) {
				for (fd = 1; fd <= 15; fd++, cell++) {
					bool iab = cell % 4 == 0;

					if (cell % 2 != pass)
						continue;
					for (c = 0; c < 4; c++) {
						unsigned int a = c == 3 && iab ? fd : fs;
						unsigned int b = c == 3 && iab ? fs : fd;

						want[c] = blend_ref(func, s8[c],
								    factor_ref(a, c, s8, d8, k8),
								    d8[c],
								    factor_ref(b, c, s8, d8, k8));
					}
					x = 2 * (cell / 2 % 128);
					y = 2 * (cell / 2 / 128);
					gt_assert_f(cbuf_px(&t, &tg, x + 1, y + 1) ==
						    pack_argb(want),
						    "func %u src %u dst %u iab %d: 0x%08x want 0x%08x",
						    func, fs, fd, iab,
						    cbuf_px(&t, &tg, x + 1, y + 1),
						    pack_argb(want));
				}
			}
		}
		t3d_fini(&t);
	}
}

/* Write masks, the logic op and every colour buffer format. */
static void test_color_formats(void)
{
	static const struct {
		uint32_t format, cpp, want;
	} fmts[] = {
		{ COLOR_BUF_ARGB8888, 4, 0x99cc6633 },
		{ COLOR_BUF_8BIT, 1, 0x66 },		/* the green channel */
		{ COLOR_BUF_RGB565, 2, 0xcb26 },	/* 25, 25, 6 */
		{ COLOR_BUF_RGB555, 2, 0x6586 },	/* 25, 12, 6 */
		{ COLOR_BUF_ARGB1555, 2, 0xe586 },
		{ COLOR_BUF_ARGB4444, 2, 0x9c63 },
		{ COLOR_BUF_ARGB2101010, 4, 0xb32664cd },	/* 2, 818, 409, 205 */
	};
	static const float c[4] = { 0.8f, 0.4f, 0.2f, 0.6f };
	struct target tg = argb_256;
	struct t3d t;
	unsigned int i;

	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		t3d_init(&t);
		tg.format = fmts[i].format;
		tg.cpp = fmts[i].cpp;
		tg.pitch = 256 * fmts[i].cpp;
		emit_setup(&t, &tg, ~0u, S4_VFMT_XYZ << S4_VFMT_XYZW_SHIFT, 0, 0);
		program_const(&t, c);
		rect_z(&t, 0, 0, 256, 64, 0);
		run(&t);
		gt_assert_f(cbuf_px(&t, &tg, 17, 33) == fmts[i].want,
			    "format %u: 0x%x want 0x%x", fmts[i].format,
			    cbuf_px(&t, &tg, 17, 33), fmts[i].want);
		t3d_fini(&t);
	}
	/* Red and alpha masked off; then XOR with the logic op. */
	t3d_init(&t);
	tg = argb_256;
	memset(t.cbuf, 0x11, SURF_SIZE);
	emit_setup(&t, &tg, ~0u, S4_VFMT_XYZ << S4_VFMT_XYZW_SHIFT,
		   S5_WRITEDISABLE_RED | S5_WRITEDISABLE_ALPHA, 0);
	program_const(&t, c);
	rect_z(&t, 0, 0, 128, 64, 0);
	out(&t, CMD_1(OP3D_MODES_4) | ENABLE_LOGIC_OP_FUNC | 0x6u << LOGIC_OP_FUNC_SHIFT);
	out(&t, CMD_1D(OP1D_LOAD_STATE_IMMEDIATE_1, 0) | I1_LOAD_S(5));
	out(&t, S5_LOGICOP_ENABLE);
	rect_z(&t, 128, 0, 256, 64, 0);
	run(&t);
	gt_assert_eq(cbuf_px(&t, &tg, 5, 5), 0x11116633u);
	gt_assert_eq(cbuf_px(&t, &tg, 200, 5), 0x11111111u ^ 0x99cc6633u);
	t3d_fini(&t);
}

static uint32_t s6_depth(uint32_t func, bool write)
{
	return S6_DEPTH_TEST_ENABLE | func << S6_DEPTH_TEST_FUNC_SHIFT |
	       (write ? S6_DEPTH_WRITE_ENABLE : 0);
}

static void test_depth(void)
{
	static const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 },
			   blue[4] = { 0, 0, 1, 1 };
	struct target tg = argb_256;
	uint32_t *z32;
	uint16_t *z16;
	struct t3d t;
	int zbits;

	for (zbits = 16; zbits <= 24; zbits += 8) {
		t3d_init(&t);
		tg.depth = true;
		tg.zformat = zbits == 16 ? DEPTH_FRMT_16_FIXED : DEPTH_FRMT_24_FIXED_8_OTHER;
		tg.zpitch = zbits == 16 ? 512 : 1024;
		memset(t.zbuf, 0xff, SURF_SIZE);	/* far */
		emit_setup(&t, &tg, ~0u, S4_VFMT_XYZ << S4_VFMT_XYZW_SHIFT, 0,
			   s6_depth(COMPAREFUNC_LESS, true));
		program_const(&t, red);
		rect_z(&t, 0, 0, 128, 64, 0.5f);
		program_const(&t, green);
		rect_z(&t, 64, 0, 192, 64, 0.25f);	/* in front: drawn */
		program_const(&t, blue);
		rect_z(&t, 32, 0, 224, 32, 0.75f);	/* behind: only where far */
		run(&t);
		gt_assert_eq(cbuf_px(&t, &tg, 10, 10), 0xffff0000u);
		gt_assert_eq(cbuf_px(&t, &tg, 100, 10), 0xff00ff00u);
		gt_assert_eq(cbuf_px(&t, &tg, 200, 10), 0xff0000ffu);
		gt_assert_eq(cbuf_px(&t, &tg, 200, 40), 0);
		gt_assert_eq(cbuf_px(&t, &tg, 240, 10), 0);
		z32 = (uint32_t *)t.zbuf;
		z16 = (uint16_t *)t.zbuf;
		if (zbits == 24) {
			gt_assert_eq(z32[10 * 256 + 10], 0xff800000u);	/* stencil kept */
			gt_assert_eq(z32[10 * 256 + 100], 0xff400000u);
			gt_assert_eq(z32[10 * 256 + 200], 0xffbfffffu);
		} else {
			gt_assert_eq(z16[10 * 256 + 10], 0x8000);
			gt_assert_eq(z16[10 * 256 + 100], 0x4000);
			gt_assert_eq(z16[10 * 256 + 200], 0xbfff);
		}
		t3d_fini(&t);
	}
}

static uint32_t s5_stencil(uint32_t ref, uint32_t func, uint32_t fail, uint32_t zfail,
			   uint32_t zpass)
{
	return S5_STENCIL_TEST_ENABLE | S5_STENCIL_WRITE_ENABLE |
	       ref << S5_STENCIL_REF_SHIFT | func << S5_STENCIL_TEST_FUNC_SHIFT |
	       fail << S5_STENCIL_FAIL_SHIFT | zfail << S5_STENCIL_PASS_Z_FAIL_SHIFT |
	       zpass << S5_STENCIL_PASS_Z_PASS_SHIFT;
}

/* Stencil: replace, then test equal and increment; the back face of a
 * two-sided setup uses BACKFACE_STENCIL_OPS. */
static void test_stencil(void)
{
	static const float white[4] = { 1, 1, 1, 1 };
	struct target tg = argb_256;
	uint32_t *z;
	struct t3d t;

	t3d_init(&t);
	tg.depth = true;
	tg.zformat = DEPTH_FRMT_24_FIXED_8_OTHER;
	tg.zpitch = 1024;
	emit_setup(&t, &tg, ~0u, S4_VFMT_XYZ << S4_VFMT_XYZW_SHIFT,
		   s5_stencil(5, COMPAREFUNC_ALWAYS, 0, 0, STENCILOP_REPLACE), 0);
	program_const(&t, white);
	rect_z(&t, 0, 0, 128, 64, 0);
	out(&t, CMD_1D(OP1D_LOAD_STATE_IMMEDIATE_1, 0) | I1_LOAD_S(5));
	out(&t, s5_stencil(5, COMPAREFUNC_EQUAL, STENCILOP_INVERT, 0, STENCILOP_INCR));
	out(&t, CMD_1(OP3D_MODES_4) | ENABLE_STENCIL_WRITE_MASK | 0x0f);
	memset(t.cbuf, 0, SURF_SIZE);
	rect_z(&t, 64, 0, 256, 32, 0);
	/* Two-sided: a clockwise and a counter-clockwise triangle. */
	out(&t, CMD_1(OP3D_BACKFACE_STENCIL_OPS) | BFO_ENABLE_STENCIL_REF |
	    0x40u << BFO_STENCIL_REF_SHIFT | BFO_ENABLE_STENCIL_FUNCS |
	    COMPAREFUNC_ALWAYS << BFO_STENCIL_TEST_SHIFT |
	    STENCILOP_REPLACE << BFO_STENCIL_PASS_Z_PASS_SHIFT |
	    BFO_ENABLE_STENCIL_TWO_SIDE | BFO_STENCIL_TWO_SIDE);
	out(&t, CMD_1(OP3D_MODES_4) | ENABLE_STENCIL_WRITE_MASK | 0xff);
	out(&t, CMD_1D(OP1D_LOAD_STATE_IMMEDIATE_1, 0) | I1_LOAD_S(5));
	out(&t, s5_stencil(0x20, COMPAREFUNC_ALWAYS, 0, 0, STENCILOP_REPLACE));
	out(&t, PRIM(PRIM3D_TRILIST, 18));
	outf(&t, 10); outf(&t, 40); outf(&t, 0);	/* clockwise (y down) */
	outf(&t, 30); outf(&t, 40); outf(&t, 0);
	outf(&t, 10); outf(&t, 60); outf(&t, 0);
	outf(&t, 210); outf(&t, 40); outf(&t, 0);	/* counter-clockwise */
	outf(&t, 210); outf(&t, 60); outf(&t, 0);
	outf(&t, 230); outf(&t, 40); outf(&t, 0);
	run(&t);
	z = (uint32_t *)t.zbuf;
	gt_assert_eq(z[10 * 256 + 10] >> 24, 5);	/* left only */
	gt_assert_eq(z[10 * 256 + 100] >> 24, 6);	/* equal: incremented */
	gt_assert_eq(z[10 * 256 + 200] >> 24, 0x0f);	/* failed: inverted, masked */
	gt_assert_eq(z[50 * 256 + 100] >> 24, 5);	/* untouched */
	gt_assert_eq(cbuf_px(&t, &tg, 100, 10), 0xffffffffu);
	gt_assert_eq(cbuf_px(&t, &tg, 200, 10), 0);
	gt_assert_eq(z[42 * 256 + 12] >> 24, 0x20);	/* front face: S5 */
	gt_assert_eq(z[42 * 256 + 212] >> 24, 0x40);	/* back face: BFO */
	t3d_fini(&t);
}

/* Alpha test against S6's reference, with diffuse alpha 0..255 across. */
static void test_alpha_test(void)
{
	struct target tg = argb_256;
	struct t3d t;
	uint32_t x, a;

	t3d_init(&t);
	emit_setup(&t, &tg, ~0u, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT | S4_VFMT_COLOR, 0,
		   S6_ALPHA_TEST_ENABLE | COMPAREFUNC_GREATER << S6_ALPHA_TEST_FUNC_SHIFT |
		   0x80u << S6_ALPHA_REF_SHIFT);
	program_diffuse(&t);
	out(&t, PRIM(PRIM3D_RECTLIST, 9));
	outf(&t, 256); outf(&t, 64); out(&t, 0xff00ff00);
	outf(&t, 0); outf(&t, 64); out(&t, 0x0000ff00);
	outf(&t, 0); outf(&t, 0); out(&t, 0x0000ff00);
	run(&t);
	for (x = 0; x < 256; x++) {
		a = (uint32_t)lrint((x + 0.5) * 255.0 / 256.0);
		gt_assert_eq(cbuf_px(&t, &tg, x, 7), a > 0x80 ? (a << 24 | 0xff00) : 0);
	}
	t3d_fini(&t);
}

/* CLEAR_RECT writes the clear colour and depth/stencil of
 * CLEAR_PARAMETERS, converted to the buffers' formats; ZONE_INIT writes
 * its raw values. */
static void test_clear_rect(void)
{
	struct target tg = argb_256;
	float zf = 0.5f;
	uint32_t *z, zbits;
	struct t3d t;

	t3d_init(&t);
	tg.depth = true;
	tg.zformat = DEPTH_FRMT_24_FIXED_8_OTHER;
	tg.zpitch = 1024;
	emit_setup(&t, &tg, ~0u, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT, 0, 0);
	memcpy(&zbits, &zf, 4);
	out(&t, CMD_1D(OP1D_CLEAR_PARAMETERS, 5));
	out(&t, 1u << 16 | 7);
	out(&t, 0x11223344);
	out(&t, 0x00555555);
	out(&t, 0x80ff4000);
	out(&t, zbits);
	out(&t, 0x3c);
	out(&t, CMD_3D | OP3D_PRIMITIVE << 24 | PRIM3D_CLEAR_RECT << PRIM3D_SHIFT | 5);
	outf(&t, 100); outf(&t, 50);
	outf(&t, 10); outf(&t, 50);
	outf(&t, 10); outf(&t, 5);
	out(&t, CMD_3D | OP3D_PRIMITIVE << 24 | PRIM3D_ZONE_INIT << PRIM3D_SHIFT | 5);
	outf(&t, 250); outf(&t, 60);
	outf(&t, 200); outf(&t, 60);
	outf(&t, 200); outf(&t, 55);
	run(&t);
	z = (uint32_t *)t.zbuf;
	gt_assert_eq(cbuf_px(&t, &tg, 10, 5), 0x80ff4000u);
	gt_assert_eq(cbuf_px(&t, &tg, 99, 49), 0x80ff4000u);
	gt_assert_eq(cbuf_px(&t, &tg, 100, 49), 0);
	gt_assert_eq(cbuf_px(&t, &tg, 9, 5), 0);
	gt_assert_eq(z[5 * 256 + 10], 0x3c800000u);
	gt_assert_eq(cbuf_px(&t, &tg, 200, 55), 0x11223344u);
	gt_assert_eq(z[59 * 256 + 249], 0x00555555u);
	t3d_fini(&t);
}

/* The drawing rectangle clips and offsets; the scissor is relative to its
 * origin. */
static void test_clipping(void)
{
	static const float white[4] = { 1, 1, 1, 1 };
	struct target tg = argb_256;
	struct t3d t;
	uint32_t x, y;
	bool in;

	t3d_init(&t);
	emit_setup(&t, &tg, ~0u, S4_VFMT_XYZ << S4_VFMT_XYZW_SHIFT, 0, 0);
	out(&t, CMD_1D(OP1D_DRAW_RECT, 3));
	out(&t, 0);
	out(&t, 4u << 16 | 8);
	out(&t, 60u << 16 | 200);
	out(&t, 2u << 16 | 3);			/* origin (3, 2) */
	out(&t, CMD_1D(OP1D_SCISSOR_RECT, 1));
	out(&t, 5u << 16 | 10);
	out(&t, 70u << 16 | 300);
	out(&t, CMD_3D | OP3D_1C << 24 | OP1C_SCISSOR_ENABLE << 19 | ENABLE_SCISSOR_RECT);
	program_const(&t, white);
	rect_z(&t, -10, -10, 150, 30, 0);
	run(&t);
	for (y = 0; y < 64; y++) {
		for (x = 0; x < 256; x++) {
			/* rect + origin: [-7, 153) x [-8, 32); scissor + origin:
			 * [13, 303] x [7, 72]; drawing rect [8, 200] x [4, 60] */
			in = x >= 13 && x < 153 && y >= 7 && y < 32;
			gt_assert_f(cbuf_px(&t, &tg, x, y) == (in ? 0xffffffffu : 0),
				    "(%u,%u)", x, y);
		}
	}
	t3d_fini(&t);
}

static void test_cull(void)
{
	static const float white[4] = { 1, 1, 1, 1 };
	struct target tg = argb_256;
	struct t3d t;
	uint32_t cull;

	for (cull = 0; cull < 4; cull++) {
		t3d_init(&t);
		emit_setup(&t, &tg, ~0u, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT, 0, 0);
		out(&t, CMD_1D(OP1D_LOAD_STATE_IMMEDIATE_1, 0) | I1_LOAD_S(4));
		out(&t, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT | cull << S4_CULLMODE_SHIFT);
		program_const(&t, white);
		out(&t, PRIM(PRIM3D_TRILIST, 12));
		outf(&t, 10); outf(&t, 10); outf(&t, 30); outf(&t, 10);
		outf(&t, 10); outf(&t, 30);		/* clockwise on screen */
		outf(&t, 110); outf(&t, 10); outf(&t, 110); outf(&t, 30);
		outf(&t, 130); outf(&t, 10);		/* counter-clockwise */
		run(&t);
		gt_assert_eq(cbuf_px(&t, &tg, 12, 12),
			     cull == S4_CULLMODE_NONE || cull == S4_CULLMODE_CCW ?
			     0xffffffffu : 0);
		gt_assert_eq(cbuf_px(&t, &tg, 112, 12),
			     cull == S4_CULLMODE_NONE || cull == S4_CULLMODE_CW ?
			     0xffffffffu : 0);
		t3d_fini(&t);
	}
}

/* Lines take the pixels of each column of the major axis whose centre is
 * within half the width, from the first endpoint up to the second; points
 * are squares of their size. */
static void test_lines_points(void)
{
	static const float lines[][4] = {
		{ 10.5f, 5.5f, 20.5f, 5.5f },		/* x 10..19, y 5 */
		{ 40.5f, 5.5f, 30.5f, 5.5f },		/* x 31..40 */
		{ 50.5f, 2.5f, 50.5f, 12.5f },		/* x 50, y 2..11 */
		{ 60.5f, 10.5f, 70.5f, 20.5f },		/* the diagonal */
	};
	struct target tg = argb_256;
	unsigned int i, x, y, n = 0;
	struct t3d t;

	t3d_init(&t);
	setup_count(&t, &tg, S4_VFMT_XY);
	out(&t, PRIM(PRIM3D_LINELIST, 16));
	for (i = 0; i < 4; i++)
		for (x = 0; x < 4; x++)
			outf(&t, lines[i][x]);
	/* A line strip: three segments, no pixel drawn twice at the joins. */
	out(&t, PRIM(PRIM3D_LINESTRIP, 8));
	outf(&t, 100.5f); outf(&t, 30.5f); outf(&t, 110.5f); outf(&t, 30.5f);
	outf(&t, 110.5f); outf(&t, 40.5f); outf(&t, 100.5f); outf(&t, 40.5f);
	/* Points of size 1 and 3. */
	out(&t, PRIM(PRIM3D_POINTLIST, 4));
	outf(&t, 150.5f); outf(&t, 5.5f); outf(&t, 151.0f); outf(&t, 9.0f);
	out(&t, CMD_1D(OP1D_LOAD_STATE_IMMEDIATE_1, 0) | I1_LOAD_S(4));
	out(&t, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT | S4_CULLMODE_NONE << S4_CULLMODE_SHIFT |
	    3u << S4_POINT_WIDTH_SHIFT | 4u << S4_LINE_WIDTH_SHIFT);
	out(&t, PRIM(PRIM3D_POINTLIST, 2));
	outf(&t, 160.5f); outf(&t, 20.5f);
	/* A line two pixels wide. */
	out(&t, PRIM(PRIM3D_LINELIST, 4));
	outf(&t, 200.5f); outf(&t, 50.5f); outf(&t, 210.5f); outf(&t, 50.5f);
	run(&t);
	for (x = 10; x < 20; x++)
		gt_assert_eq(cbuf_px(&t, &tg, x, 5), 1);
	for (x = 31; x <= 40; x++)
		gt_assert_eq(cbuf_px(&t, &tg, x, 5), 1);
	for (y = 2; y < 12; y++)
		gt_assert_eq(cbuf_px(&t, &tg, 50, y), 1);
	for (i = 0; i < 10; i++)
		gt_assert_eq(cbuf_px(&t, &tg, 60 + i, 10 + i), 1);
	gt_assert_eq(cbuf_px(&t, &tg, 150, 5), 1);
	gt_assert_eq(cbuf_px(&t, &tg, 150, 8), 1);
	for (y = 19; y <= 21; y++)
		for (x = 159; x <= 161; x++)
			gt_assert_eq(cbuf_px(&t, &tg, x, y), 1);
	for (x = 200; x < 210; x++) {
		gt_assert_eq(cbuf_px(&t, &tg, x, 49), 1);
		gt_assert_eq(cbuf_px(&t, &tg, x, 50), 1);
	}
	/* The strip: 10 + 10 + 10 pixels, each once. */
	for (y = 25; y < 45; y++)
		for (x = 95; x < 115; x++) {
			gt_assert(cbuf_px(&t, &tg, x, y) <= 1);
			n += cbuf_px(&t, &tg, x, y);
		}
	gt_assert_eq(n, 30);
	/* Nothing else: 10 + 10 + 10 + 10 + 30 + 2 + 9 + 20 pixels. */
	n = 0;
	for (y = 0; y < 64; y++)
		for (x = 0; x < 256; x++)
			n += cbuf_px(&t, &tg, x, y);
	gt_assert_eq(n, 101);
	t3d_fini(&t);
}

/* ---- textures ---------------------------------------------------------------- */

struct texfmt {
	uint32_t surf, mt, cpp;
	const char *name;
};

static const struct texfmt texfmts[] = {
	{ MAPSURF_8BIT, MT_8BIT_I8, 1, "I8" },
	{ MAPSURF_8BIT, MT_8BIT_L8, 1, "L8" },
	{ MAPSURF_8BIT, MT_8BIT_A8, 1, "A8" },
	{ MAPSURF_16BIT, MT_16BIT_RGB565, 2, "RGB565" },
	{ MAPSURF_16BIT, MT_16BIT_ARGB1555, 2, "ARGB1555" },
	{ MAPSURF_16BIT, MT_16BIT_ARGB4444, 2, "ARGB4444" },
	{ MAPSURF_16BIT, MT_16BIT_AY88, 2, "L8A8" },
	{ MAPSURF_32BIT, MT_32BIT_ARGB8888, 4, "ARGB8888" },
	{ MAPSURF_32BIT, MT_32BIT_XRGB8888, 4, "XRGB8888" },
	{ MAPSURF_32BIT, MT_32BIT_ABGR8888, 4, "ABGR8888" },
	{ MAPSURF_32BIT, MT_32BIT_XBGR8888, 4, "XBGR8888" },
	{ MAPSURF_32BIT, MT_32BIT_ARGB2101010, 4, "ARGB2101010" },
	{ MAPSURF_16BIT, MT_16BIT_L16, 2, "L16" },
	{ MAPSURF_32BIT, MT_32BIT_xL824, 4, "xL824" },
	{ MAPSURF_422, MT_422_YCRCB_NORMAL, 2, "YUYV" },
};

static double un(uint32_t v, int bits)
{
	return (double)(v & ((1u << bits) - 1)) / (double)((1u << bits) - 1);
}

/* The texel at x of a row of a format, as RGBA, from the formats'
 * definitions (YUV unconverted: R = V, G = Y, B = U). */
static void texel_ref(const struct texfmt *f, const uint8_t *row, uint32_t x,
		      double c[4])
{
	uint32_t v = 0;

	memcpy(&v, row + x * f->cpp, f->cpp);
	c[0] = c[1] = c[2] = 0.0;
	c[3] = 1.0;
	switch (f->surf << 4 | f->mt) {
	case MAPSURF_8BIT << 4 | MT_8BIT_I8: c[0] = c[1] = c[2] = c[3] = un(v, 8); break;
	case MAPSURF_8BIT << 4 | MT_8BIT_L8: c[0] = c[1] = c[2] = un(v, 8); break;
	case MAPSURF_8BIT << 4 | MT_8BIT_A8: c[3] = un(v, 8); break;
	case MAPSURF_16BIT << 4 | MT_16BIT_RGB565:
		c[0] = un(v >> 11, 5); c[1] = un(v >> 5, 6); c[2] = un(v, 5); break;
	case MAPSURF_16BIT << 4 | MT_16BIT_ARGB1555:
		c[0] = un(v >> 10, 5); c[1] = un(v >> 5, 5); c[2] = un(v, 5);
		c[3] = un(v >> 15, 1); break;
	case MAPSURF_16BIT << 4 | MT_16BIT_ARGB4444:
		c[0] = un(v >> 8, 4); c[1] = un(v >> 4, 4); c[2] = un(v, 4);
		c[3] = un(v >> 12, 4); break;
	case MAPSURF_16BIT << 4 | MT_16BIT_AY88:
		c[0] = c[1] = c[2] = un(v, 8); c[3] = un(v >> 8, 8); break;
	case MAPSURF_16BIT << 4 | MT_16BIT_L16: c[0] = c[1] = c[2] = un(v, 16); break;
	case MAPSURF_32BIT << 4 | MT_32BIT_ARGB8888:
	case MAPSURF_32BIT << 4 | MT_32BIT_XRGB8888:
		c[0] = un(v >> 16, 8); c[1] = un(v >> 8, 8); c[2] = un(v, 8);
		c[3] = f->mt == MT_32BIT_XRGB8888 ? 1.0 : un(v >> 24, 8); break;
	case MAPSURF_32BIT << 4 | MT_32BIT_ABGR8888:
	case MAPSURF_32BIT << 4 | MT_32BIT_XBGR8888:
		c[0] = un(v, 8); c[1] = un(v >> 8, 8); c[2] = un(v >> 16, 8);
		c[3] = f->mt == MT_32BIT_XBGR8888 ? 1.0 : un(v >> 24, 8); break;
	case MAPSURF_32BIT << 4 | MT_32BIT_ARGB2101010:
		c[0] = un(v >> 20, 10); c[1] = un(v >> 10, 10); c[2] = un(v, 10);
		c[3] = un(v >> 30, 2); break;
	case MAPSURF_32BIT << 4 | MT_32BIT_xL824:
		c[0] = c[1] = c[2] = un(v, 24); break;
	case MAPSURF_422 << 4 | MT_422_YCRCB_NORMAL:
		c[1] = un(row[x * 2], 8);
		c[2] = un(row[(x & ~1u) * 2 + 1], 8);
		c[0] = un(row[(x & ~1u) * 2 + 3], 8);
		break;
	}
}

static uint32_t pack_ref(const double c[4])
{
	static const int shift[4] = { 16, 8, 0, 24 };
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v |= (uint32_t)lrint(c[i] * 255.0) << shift[i];
	return v;
}

static void textured_rect(struct t3d *t, float x1, float y1, float x2, float y2,
			  float s1, float t1, float s2, float t2)
{
	out(t, PRIM(PRIM3D_RECTLIST, 12));
	outf(t, x2); outf(t, y2); outf(t, s2); outf(t, t2);
	outf(t, x1); outf(t, y2); outf(t, s1); outf(t, t2);
	outf(t, x1); outf(t, y1); outf(t, s1); outf(t, t1);
}

static const uint32_t clamp_ss3 = TEXCOORDMODE_CLAMP_EDGE << SS3_TCX_ADDR_MODE_SHIFT |
				  TEXCOORDMODE_CLAMP_EDGE << SS3_TCY_ADDR_MODE_SHIFT;

/* Every texel of a 64x16 map in each format and tiling, nearest, is
 * what the format's definition says. */
static void test_texture_formats(void)
{
	static const enum gpu_tiling tilings[] = {
		GPU_TILING_NONE, GPU_TILING_X, GPU_TILING_Y,
	};
	struct target tg = argb_256;
	unsigned int i, k, x, y, b;
	uint8_t rows[16][64 * 4];
	double c[4];
	struct t3d t;

	for (i = 0; i < sizeof(texfmts) / sizeof(texfmts[0]); i++) {
		const struct texfmt *f = &texfmts[i];

		for (k = 0; k < 3; k++) {
			t3d_init(&t);
			lcg = i * 3 + k;
			for (y = 0; y < 16; y++) {
				for (b = 0; b < 64 * f->cpp; b++)
					rows[y][b] = (uint8_t)rnd();
				for (x = 0; x < 64 * f->cpp; x++) {
					uint32_t off = tilings[k] == GPU_TILING_NONE ?
						       y * 512 + x :
						       gpu_tiled_offset(tilings[k], 512, x, y);

					t.tex[off] = rows[y][x];
				}
			}
			emit_setup(&t, &tg, ~0u << 4 | TEXCOORDFMT_2D,
				   S4_VFMT_XY << S4_VFMT_XYZW_SHIFT, 0, 0);
			emit_map(&t, TEX_GTT, 64, 16, 512, tilings[k], f->surf, f->mt, 0);
			emit_sampler(&t, 0, clamp_ss3, 0);
			program_texture(&t, D0_SAMPLE_TYPE_2D);
			textured_rect(&t, 0, 0, 64, 16, 0, 0, 64, 16);
			run(&t);
			for (y = 0; y < 16; y++) {
				for (x = 0; x < 64; x++) {
					texel_ref(f, rows[y], x, c);
					gt_assert_f(cbuf_px(&t, &tg, x, y) == pack_ref(c),
						    "%s tiling %u (%u,%u): 0x%08x want 0x%08x",
						    f->name, k, x, y, cbuf_px(&t, &tg, x, y),
						    pack_ref(c));
				}
			}
			t3d_fini(&t);
		}
	}
}

/* A 4x2 map sampled with normalized coordinates from -2 to 2 in s: each
 * address mode maps texel columns as its definition says. */
static int wrap_ref(int i, int n, unsigned int mode)
{
	switch (mode) {
	case TEXCOORDMODE_WRAP: return ((i % n) + n) % n;
	case TEXCOORDMODE_MIRROR: {
		int k = ((i % (2 * n)) + 2 * n) % (2 * n);

		return k < n ? k : 2 * n - 1 - k;
	}
	case TEXCOORDMODE_MIRROR_ONCE:
		i = i < 0 ? -1 - i : i;
		return i >= n ? n - 1 : i;
	case TEXCOORDMODE_CLAMP_BORDER: return i < 0 || i >= n ? -1 : i;
	default: return i < 0 ? 0 : i >= n ? n - 1 : i;
	}
}

static void test_address_modes(void)
{
	static const unsigned int modes[] = {
		TEXCOORDMODE_WRAP, TEXCOORDMODE_MIRROR, TEXCOORDMODE_CLAMP_EDGE,
		TEXCOORDMODE_CLAMP_BORDER, TEXCOORDMODE_MIRROR_ONCE,
	};
	static const uint32_t texels[4] = { 0xff000011, 0xff002200, 0xff330000, 0xff444444 };
	const uint32_t border = 0x80808080;
	struct target tg = argb_256;
	unsigned int m, x, y;
	struct t3d t;
	int col;

	for (m = 0; m < 5; m++) {
		t3d_init(&t);
		for (y = 0; y < 2; y++)
			memcpy(t.tex + 64 * y, texels, 16);
		emit_setup(&t, &tg, ~0u << 4 | TEXCOORDFMT_2D,
			   S4_VFMT_XY << S4_VFMT_XYZW_SHIFT, 0, 0);
		emit_map(&t, TEX_GTT, 4, 2, 64, GPU_TILING_NONE, MAPSURF_32BIT,
			 MT_32BIT_ARGB8888, 0);
		emit_sampler(&t, 0, modes[m] << SS3_TCX_ADDR_MODE_SHIFT |
			     TEXCOORDMODE_WRAP << SS3_TCY_ADDR_MODE_SHIFT |
			     SS3_NORMALIZED_COORDS, border);
		program_texture(&t, D0_SAMPLE_TYPE_2D);
		/* 256 pixels for s in [-2, 2): 16 pixels per texel. */
		textured_rect(&t, 0, 0, 256, 8, -2, 0, 2, 1);
		run(&t);
		for (x = 0; x < 256; x++) {
			col = wrap_ref((int)(x / 16) - 8, 4, modes[m]);
			gt_assert_f(cbuf_px(&t, &tg, x, 3) ==
				    (col < 0 ? border : texels[col]),
				    "mode %u x %u: 0x%08x", modes[m], x,
				    cbuf_px(&t, &tg, x, 3));
		}
		t3d_fini(&t);
	}
}

/* Bilinear filtering of a 2x2 map at known fractions. */
static void test_bilinear(void)
{
	static const uint32_t texels[4] = { 0xff000000, 0xffff0000, 0xff00ff00, 0xff0000ff };
	struct target tg = argb_256;
	unsigned int x, y, c;
	struct t3d t;
	double u, v, w[4], want[4], got[4];

	t3d_init(&t);
	memcpy(t.tex, texels, 8);
	memcpy(t.tex + 64, texels + 2, 8);
	emit_setup(&t, &tg, ~0u << 4 | TEXCOORDFMT_2D, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT,
		   0, 0);
	emit_map(&t, TEX_GTT, 2, 2, 64, GPU_TILING_NONE, MAPSURF_32BIT,
		 MT_32BIT_ARGB8888, 0);
	emit_sampler(&t, FILTER_LINEAR << SS2_MAG_FILTER_SHIFT |
		     FILTER_LINEAR << SS2_MIN_FILTER_SHIFT, clamp_ss3 |
		     SS3_NORMALIZED_COORDS, 0);
	program_texture(&t, D0_SAMPLE_TYPE_2D);
	textured_rect(&t, 0, 0, 32, 32, 0, 0, 1, 1);
	run(&t);
	for (y = 0; y < 32; y++) {
		for (x = 0; x < 32; x++) {
			u = (x + 0.5) / 16.0 - 0.5;
			v = (y + 0.5) / 16.0 - 0.5;
			u = u < 0 ? 0 : u > 1 ? 1 : u;
			v = v < 0 ? 0 : v > 1 ? 1 : v;
			w[0] = (1 - u) * (1 - v);
			w[1] = u * (1 - v);
			w[2] = (1 - u) * v;
			w[3] = u * v;
			for (c = 0; c < 4; c++)
				want[c] = 0;
			for (c = 0; c < 4; c++) {
				double tc[4];

				tc[0] = ((texels[c] >> 16) & 0xff) / 255.0;
				tc[1] = ((texels[c] >> 8) & 0xff) / 255.0;
				tc[2] = (texels[c] & 0xff) / 255.0;
				tc[3] = 1.0;
				want[0] += w[c] * tc[0];
				want[1] += w[c] * tc[1];
				want[2] += w[c] * tc[2];
				want[3] += w[c] * tc[3];
			}
			got[0] = (cbuf_px(&t, &tg, x, y) >> 16) & 0xff;
			got[1] = (cbuf_px(&t, &tg, x, y) >> 8) & 0xff;
			got[2] = cbuf_px(&t, &tg, x, y) & 0xff;
			for (c = 0; c < 3; c++)
				gt_assert_f(fabs(got[c] - want[c] * 255.0) <= 0.5001,
					    "(%u,%u) channel %u: %g want %g", x, y, c,
					    got[c], want[c] * 255.0);
		}
	}
	t3d_fini(&t);
}

/* Where the 945 puts level l of a 2D map of power-of-two w x h, in texels:
 * level 1 below level 0, then each level under the previous one to the
 * right of level 1. */
static void mip_origin(uint32_t w, uint32_t h, unsigned int l, uint32_t *x,
		       uint32_t *y)
{
	unsigned int k;

	*x = 0;
	*y = 0;
	if (l == 0)
		return;
	*y = h;
	if (l == 1)
		return;
	*x = ((w / 2 ? w / 2 : 1) + 3) & ~3u;
	for (k = 2; k < l; k++)
		*y += ((h >> k ? h >> k : 1) + 1) & ~1u;
}

/* Minification picks the level from the pixel's footprint: a 32x32 map
 * drawn at 32, 16, ... 1 pixels shows levels 0, 1, ... 5, each filled
 * with its own colour, in both tilings. */
static void test_mipmaps(void)
{
	static const uint32_t colors[6] = {
		0xff800000, 0xff008000, 0xff000080, 0xff808000, 0xff008080, 0xff800080,
	};
	static const enum gpu_tiling tilings[] = { GPU_TILING_NONE, GPU_TILING_X };
	struct target tg = argb_256;
	unsigned int l, k, x, y, size, x0 = 0;
	uint32_t ox, oy, off;
	struct t3d t;

	for (k = 0; k < 2; k++) {
		t3d_init(&t);
		for (l = 0; l < 6; l++) {
			mip_origin(32, 32, l, &ox, &oy);
			for (y = 0; y < (32u >> l); y++) {
				for (x = 0; x < (32u >> l); x++) {
					off = tilings[k] == GPU_TILING_NONE ?
					      (oy + y) * 512 + (ox + x) * 4 :
					      gpu_tiled_offset(tilings[k], 512,
							       (ox + x) * 4, oy + y);
					memcpy(t.tex + off, &colors[l], 4);
				}
			}
		}
		emit_setup(&t, &tg, ~0u << 4 | TEXCOORDFMT_2D,
			   S4_VFMT_XY << S4_VFMT_XYZW_SHIFT, 0, 0);
		emit_map(&t, TEX_GTT, 32, 32, 512, tilings[k], MAPSURF_32BIT,
			 MT_32BIT_ARGB8888, 5 * 4);
		emit_sampler(&t, MIPFILTER_NEAREST << SS2_MIP_FILTER_SHIFT |
			     FILTER_NEAREST << SS2_MAG_FILTER_SHIFT |
			     FILTER_NEAREST << SS2_MIN_FILTER_SHIFT,
			     clamp_ss3 | SS3_NORMALIZED_COORDS, 0);
		program_texture(&t, D0_SAMPLE_TYPE_2D);
		x0 = 0;
		for (l = 0; l < 6; l++) {
			size = 32u >> l;
			textured_rect(&t, (float)x0, 0, (float)(x0 + size), (float)size,
				      0, 0, 1, 1);
			x0 += size + 2;
		}
		run(&t);
		x0 = 0;
		for (l = 0; l < 6; l++) {
			size = 32u >> l;
			/* the quads of a 1-pixel rectangle see a 2-pixel
			 * footprint only inside it: check its pixel */
			for (y = 0; y < size; y++)
				for (x = x0; x < x0 + size; x++)
					gt_assert_f(cbuf_px(&t, &tg, x, y) == colors[l],
						    "tiling %u level %u (%u,%u): 0x%08x",
						    k, l, x, y, cbuf_px(&t, &tg, x, y));
			x0 += size + 2;
		}
		t3d_fini(&t);
	}
}

/* A cube map: each face a colour, looked up by direction. */
static void test_cube(void)
{
	static const uint32_t colors[6] = {
		0xffff0000, 0xff00ffff, 0xff00ff00, 0xffff00ff, 0xff0000ff, 0xffffff00,
	};
	static const float dirs[6][3] = {
		{ 1, 0.2f, -0.1f }, { -1, 0.1f, 0.3f }, { 0.2f, 1, 0.1f },
		{ -0.1f, -1, 0.2f }, { 0.3f, 0.1f, 1 }, { 0.2f, -0.3f, -1 },
	};
	/* Faces start at these 4x4-block offsets, at twice the pitch. */
	static const uint32_t start[6][2] = {
		{ 0, 0 }, { 0, 2 }, { 1, 0 }, { 1, 2 }, { 1, 1 }, { 1, 3 },
	};
	struct target tg = argb_256;
	struct prog p = { .n = 0 };
	unsigned int f, x, y;
	struct t3d t;

	t3d_init(&t);
	for (f = 0; f < 6; f++)
		for (y = 0; y < 4; y++)
			for (x = 0; x < 4; x++)
				memcpy(t.tex + (start[f][1] * 4 + y) * 32 +
				       (start[f][0] * 4 + x) * 4, &colors[f], 4);
	emit_setup(&t, &tg, ~0u << 4 | TEXCOORDFMT_3D, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT,
		   0, 0);
	emit_map(&t, TEX_GTT, 4, 4, 32, GPU_TILING_NONE, MAPSURF_32BIT,
		 MT_32BIT_ARGB8888, 0);
	emit_sampler(&t, 0, clamp_ss3 | TEXCOORDMODE_CLAMP_EDGE << SS3_TCZ_ADDR_MODE_SHIFT |
		     SS3_NORMALIZED_COORDS, 0);
	p_dcl_t(&p, 0, 0xf);
	p_dcl_s(&p, 0, D0_SAMPLE_TYPE_CUBE);
	p_tex(&p, T0_TEXLD, REG_TYPE_OC, 0, 0, REG_TYPE_T, 0);
	emit_program(&t, &p);
	for (f = 0; f < 6; f++) {
		out(&t, PRIM(PRIM3D_RECTLIST, 15));
		outf(&t, (float)(10 * f + 8)); outf(&t, 8);
		outf(&t, dirs[f][0]); outf(&t, dirs[f][1]); outf(&t, dirs[f][2]);
		outf(&t, (float)(10 * f)); outf(&t, 8);
		outf(&t, dirs[f][0]); outf(&t, dirs[f][1]); outf(&t, dirs[f][2]);
		outf(&t, (float)(10 * f)); outf(&t, 0);
		outf(&t, dirs[f][0]); outf(&t, dirs[f][1]); outf(&t, dirs[f][2]);
	}
	run(&t);
	for (f = 0; f < 6; f++)
		gt_assert_f(cbuf_px(&t, &tg, 10 * f + 3, 3) == colors[f],
			    "face %u: 0x%08x", f, cbuf_px(&t, &tg, 10 * f + 3, 3));
	t3d_fini(&t);
}

/* ---- more of the vertex formats, texture instructions and state --------- */

/* Flat shading takes every shaded input from the provoking vertex: S6
 * picks it for lists and strips, RASTERIZATION_RULES for fans. */
static void test_flat_shading(void)
{
	static const uint32_t cols[4] = { 0xff100000, 0xff002000, 0xff000030, 0xff404040 };
	struct target tg = argb_256;
	unsigned int pv;
	struct t3d t;

	for (pv = 0; pv < 3; pv++) {
		t3d_init(&t);
		emit_setup(&t, &tg, ~0u, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT | S4_VFMT_COLOR,
			   0, 0);
		out(&t, CMD_1D(OP1D_LOAD_STATE_IMMEDIATE_1, 1) | I1_LOAD_S(4) |
		    I1_LOAD_S(6));
		out(&t, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT | S4_VFMT_COLOR |
		    S4_CULLMODE_NONE << S4_CULLMODE_SHIFT | S4_FLATSHADE_COLOR |
		    S4_FLATSHADE_ALPHA);
		out(&t, S6_COLOR_WRITE_ENABLE | pv << S6_TRISTRIP_PV_SHIFT);
		out(&t, CMD_1(OP3D_RASTER_RULES) | ENABLE_TRI_FAN_PROVOKE_VRTX |
		    pv << TRI_FAN_PROVOKE_VRTX_SHIFT);
		program_diffuse(&t);
		/* a strip of two triangles at x < 100, a fan of two after */
		out(&t, PRIM(PRIM3D_TRISTRIP, 12));
		outf(&t, 0); outf(&t, 0); out(&t, cols[0]);
		outf(&t, 0); outf(&t, 60); out(&t, cols[1]);
		outf(&t, 90); outf(&t, 0); out(&t, cols[2]);
		outf(&t, 90); outf(&t, 60); out(&t, cols[3]);
		out(&t, PRIM(PRIM3D_TRIFAN, 12));
		outf(&t, 100); outf(&t, 0); out(&t, cols[0]);
		outf(&t, 100); outf(&t, 60); out(&t, cols[1]);
		outf(&t, 200); outf(&t, 60); out(&t, cols[2]);
		outf(&t, 200); outf(&t, 0); out(&t, cols[3]);
		run(&t);
		/* strip: triangle 0 is (v0, v1, v2), triangle 1 (v1, v2, v3) */
		gt_assert_eq(cbuf_px(&t, &tg, 10, 10), cols[pv]);
		gt_assert_eq(cbuf_px(&t, &tg, 80, 50), cols[pv + 1]);
		/* fan: triangle 0 is (v0, v1, v2), triangle 1 (v0, v2, v3) */
		gt_assert_eq(cbuf_px(&t, &tg, 110, 50), cols[pv]);
		gt_assert_eq(cbuf_px(&t, &tg, 190, 10), cols[pv == 0 ? 0 : pv + 1]);
		t3d_fini(&t);
	}
}

/* XYW positions, specular and fog dwords, 16-bit texture coordinates,
 * the default diffuse colour and a coordinate set binding. */
static void test_vertex_formats(void)
{
	struct target tg = argb_256;
	struct prog p = { .n = 0 };
	struct t3d t;
	uint32_t s2;

	t3d_init(&t);
	s2 = ~0u & ~(0xfu << 4) & ~0xfu;
	s2 |= TEXCOORDFMT_2D_16 << 4 | TEXCOORDFMT_1D;	/* set 1: halves; set 0: 1D */
	emit_setup(&t, &tg, s2, S4_VFMT_XYW << S4_VFMT_XYZW_SHIFT | S4_VFMT_SPEC_FOG |
		   S4_VFMT_FOG_PARAM, 0, 0);
	out(&t, CMD_1D(OP1D_DFLT_DIFFUSE, 0));
	out(&t, 0x80402010);
	/* T2 reads coordinate set 1 */
	out(&t, CMD_1(OP3D_COORD_SET_BINDINGS) | 1u << CSB_TCB_SHIFT(2));
	p_dcl_t(&p, T_DIFFUSE, 0xf);
	p_dcl_t(&p, T_SPECULAR, 0xf);
	p_dcl_t(&p, T_FOG_W, 0x8);
	p_dcl_t(&p, 0, 0xf);
	p_dcl_t(&p, 2, 0xf);
	/* oC = (diffuse.r + spec.g, t2.x, t2.y * t0.x, fog) */
	p_alu(&p, A0_ADD, true, REG_TYPE_R, 0, 0x1, SRC(REG_TYPE_T, T_DIFFUSE),
	      SRC_SW(REG_TYPE_T, T_SPECULAR, SRC_Y, SRC_Y, SRC_Y, SRC_Y), SRC(0, 0));
	p_alu(&p, A0_MOV, false, REG_TYPE_R, 0, 0x2,
	      SRC_SW(REG_TYPE_T, 2, SRC_X, SRC_X, SRC_X, SRC_X), SRC(0, 0), SRC(0, 0));
	p_alu(&p, A0_MUL, false, REG_TYPE_R, 0, 0x4,
	      SRC_SW(REG_TYPE_T, 2, SRC_Y, SRC_Y, SRC_Y, SRC_Y),
	      SRC_SW(REG_TYPE_T, 0, SRC_X, SRC_X, SRC_X, SRC_X), SRC(0, 0));
	p_alu(&p, A0_MOV, false, REG_TYPE_R, 0, 0x8,
	      SRC_SW(REG_TYPE_T, T_FOG_W, SRC_W, SRC_W, SRC_W, SRC_W), SRC(0, 0),
	      SRC(0, 0));
	p_mov(&p, REG_TYPE_OC, 0, SRC(REG_TYPE_R, 0));
	emit_program(&t, &p);
	/* x, y, w, specular, fog, t0 (1D), t1 (two halves: 0.25, 0.5) */
	out(&t, PRIM(PRIM3D_RECTLIST, 3 * 7));
	outf(&t, 256); outf(&t, 64); outf(&t, 1); out(&t, 0x00004000); outf(&t, 0.75f);
	outf(&t, 1.0f); out(&t, 0x38003400);
	outf(&t, 0); outf(&t, 64); outf(&t, 1); out(&t, 0x00004000); outf(&t, 0.75f);
	outf(&t, 1.0f); out(&t, 0x38003400);
	outf(&t, 0); outf(&t, 0); outf(&t, 1); out(&t, 0x00004000); outf(&t, 0.75f);
	outf(&t, 1.0f); out(&t, 0x38003400);
	run(&t);
	/* r = 0x40/255 + 0x40/255 = 0x80; g = 0.25; b = 0.5 * 1; a = 0.75 */
	gt_assert_eq(cbuf_px(&t, &tg, 100, 20), 0xbf804080u);
	t3d_fini(&t);
}

/* TEXLDP divides by w, TEXLDB biases the level of detail by w. */
static void test_texture_instructions(void)
{
	static const uint32_t colors[3] = { 0xff800000, 0xff008000, 0xff000080 };
	struct target tg = argb_256;
	struct prog p = { .n = 0 };
	uint32_t l, x, y, ox, oy;
	struct t3d t;

	t3d_init(&t);
	for (l = 0; l < 3; l++) {
		mip_origin(4, 4, l, &ox, &oy);
		for (y = 0; y < (4u >> l); y++)
			for (x = 0; x < (4u >> l); x++)
				memcpy(t.tex + (oy + y) * 64 + (ox + x) * 4, &colors[l], 4);
	}
	emit_setup(&t, &tg, ~0u << 4 | TEXCOORDFMT_4D, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT,
		   0, 0);
	emit_map(&t, TEX_GTT, 4, 4, 64, GPU_TILING_NONE, MAPSURF_32BIT,
		 MT_32BIT_ARGB8888, 2 * 4);
	emit_sampler(&t, MIPFILTER_NEAREST << SS2_MIP_FILTER_SHIFT, clamp_ss3 |
		     SS3_NORMALIZED_COORDS, 0);
	p_dcl_t(&p, 0, 0xf);
	p_dcl_s(&p, 0, D0_SAMPLE_TYPE_2D);
	p_tex(&p, T0_TEXLDP, REG_TYPE_OC, 0, 0, REG_TYPE_T, 0);
	emit_program(&t, &p);
	/* 4 texels over 4 pixels: level 0, coordinates doubled, w = 2 */
	out(&t, PRIM(PRIM3D_RECTLIST, 18));
	outf(&t, 4); outf(&t, 4); outf(&t, 2); outf(&t, 2); outf(&t, 0); outf(&t, 2);
	outf(&t, 0); outf(&t, 4); outf(&t, 0); outf(&t, 2); outf(&t, 0); outf(&t, 2);
	outf(&t, 0); outf(&t, 0); outf(&t, 0); outf(&t, 0); outf(&t, 0); outf(&t, 2);
	p.n = 0;
	p_dcl_t(&p, 0, 0xf);
	p_dcl_s(&p, 0, D0_SAMPLE_TYPE_2D);
	p_tex(&p, T0_TEXLDB, REG_TYPE_OC, 0, 0, REG_TYPE_T, 0);
	emit_program(&t, &p);
	/* the same footprint at x 10, biased by 1 and by 2 levels */
	out(&t, PRIM(PRIM3D_RECTLIST, 18));
	outf(&t, 14); outf(&t, 4); outf(&t, 1); outf(&t, 1); outf(&t, 0); outf(&t, 1);
	outf(&t, 10); outf(&t, 4); outf(&t, 0); outf(&t, 1); outf(&t, 0); outf(&t, 1);
	outf(&t, 10); outf(&t, 0); outf(&t, 0); outf(&t, 0); outf(&t, 0); outf(&t, 1);
	out(&t, PRIM(PRIM3D_RECTLIST, 18));
	outf(&t, 24); outf(&t, 4); outf(&t, 1); outf(&t, 1); outf(&t, 0); outf(&t, 2);
	outf(&t, 20); outf(&t, 4); outf(&t, 0); outf(&t, 1); outf(&t, 0); outf(&t, 2);
	outf(&t, 20); outf(&t, 0); outf(&t, 0); outf(&t, 0); outf(&t, 0); outf(&t, 2);
	run(&t);
	gt_assert_eq(cbuf_px(&t, &tg, 1, 1), colors[0]);
	gt_assert_eq(cbuf_px(&t, &tg, 11, 1), colors[1]);
	gt_assert_eq(cbuf_px(&t, &tg, 21, 1), colors[2]);
	t3d_fini(&t);
}

/* Polygon stipple: a 4x4 pattern, bit 15 for pixel (0, 0). */
static void test_stipple(void)
{
	static const float white[4] = { 1, 1, 1, 1 };
	const uint32_t pattern = 0x8421;	/* a diagonal */
	struct target tg = argb_256;
	struct t3d t;
	uint32_t x, y;

	t3d_init(&t);
	emit_setup(&t, &tg, ~0u, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT, 0, 0);
	out(&t, CMD_1D(OP1D_STIPPLE, 0));
	out(&t, ST1_ENABLE | pattern);
	program_const(&t, white);
	out(&t, PRIM(PRIM3D_TRILIST, 12));
	outf(&t, 0); outf(&t, 0); outf(&t, 64); outf(&t, 0); outf(&t, 0); outf(&t, 64);
	outf(&t, 64); outf(&t, 0); outf(&t, 64); outf(&t, 64); outf(&t, 0); outf(&t, 64);
	run(&t);
	for (y = 0; y < 64; y++)
		for (x = 0; x < 64; x++)
			gt_assert_eq(cbuf_px(&t, &tg, x, y),
				     (x & 3) == (y & 3) ? 0xffffffffu : 0);
	t3d_fini(&t);
}

/* LOAD_INDIRECT runs state blocks from memory as if they were in the
 * batch. */
static void test_load_indirect(void)
{
	struct target tg = argb_256;
	uint32_t *blk;
	struct t3d t;

	t3d_init(&t);
	blk = (uint32_t *)(t.vb + 4096);
	/* a static block that sets the constant blend colour's users: S6
	 * with blending ONE/ONE, and a constants block with C0 */
	blk[0] = CMD_1D(OP1D_LOAD_STATE_IMMEDIATE_1, 0) | I1_LOAD_S(6);
	blk[1] = S6_COLOR_WRITE_ENABLE | S6_CBUF_BLEND_ENABLE |
		 BLENDFACT_ONE << S6_CBUF_SRC_BLEND_FACT_SHIFT |
		 BLENDFACT_ONE << S6_CBUF_DST_BLEND_FACT_SHIFT;
	blk[16] = CMD_1D(OP1D_PIXEL_SHADER_CONSTANTS, 4);
	blk[17] = 1;
	memcpy(&blk[18], (const float[4]){ 0.25f, 0.5f, 0.0f, 1.0f }, 16);
	emit_setup(&t, &tg, ~0u, S4_VFMT_XYZ << S4_VFMT_XYZW_SHIFT, 0, 0);
	out(&t, CMD_1D(OP1D_LOAD_INDIRECT, 4) | LI0_STATE_STATIC_INDIRECT |
	    LI0_STATE_CONSTANTS);
	out(&t, (VB_GTT + 4096) | LI_BUFFER_VALID);
	out(&t, 1);
	out(&t, (VB_GTT + 4096 + 64) | LI_BUFFER_VALID);
	out(&t, 5);
	{
		struct prog p = { .n = 0 };

		p_mov(&p, REG_TYPE_OC, 0, SRC(REG_TYPE_CONST, 0));
		emit_program(&t, &p);
	}
	rect_z(&t, 0, 0, 32, 32, 0);
	rect_z(&t, 0, 0, 16, 16, 0);
	run(&t);
	gt_assert_eq(cbuf_px(&t, &tg, 20, 20), 0xff408000u);
	gt_assert_eq(cbuf_px(&t, &tg, 5, 5), 0xff80ff00u);
	/* a primitive inside a state block stops the parser */
	blk[32] = CMD_3D | OP3D_PRIMITIVE << 24 | PRIM3D_RECTLIST << PRIM3D_SHIFT;
	blk[33] = 0;
	out(&t, CMD_1D(OP1D_LOAD_INDIRECT, 2) | LI0_STATE_STATIC_INDIRECT);
	out(&t, (VB_GTT + 4096 + 128) | LI_BUFFER_VALID);
	out(&t, 1);
	submit(&t);
	gt_assert(gpu_stopped(t.gpu));
	gt_assert_eq(gpu_read(t.gpu, EIR), I915_ERROR_INSTRUCTION);
	t3d_fini(&t);
}

/* A volume map: four 4x4 slices, looked up by r. */
static void test_volume(void)
{
	static const uint32_t colors[4] = { 0xff110000, 0xff002200, 0xff000033, 0xff444444 };
	struct target tg = argb_256;
	struct prog p = { .n = 0 };
	unsigned int z, x, y;
	struct t3d t;

	t3d_init(&t);
	/* level 0 slices stacked: one per 4 rows, pitch 16 bytes */
	for (z = 0; z < 4; z++)
		for (y = 0; y < 4; y++)
			for (x = 0; x < 4; x++)
				memcpy(t.tex + (z * 4 + y) * 16 + x * 4, &colors[z], 4);
	emit_setup(&t, &tg, ~0u << 4 | TEXCOORDFMT_3D, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT,
		   0, 0);
	out(&t, CMD_1D(OP1D_MAP_STATE, 3));
	out(&t, 1);
	out(&t, TEX_GTT);
	out(&t, 3u << MS3_HEIGHT_SHIFT | 3u << MS3_WIDTH_SHIFT |
	    MAPSURF_32BIT << MS3_MAPSURF_FORMAT_SHIFT);
	out(&t, 3u << MS4_PITCH_SHIFT | 3u << MS4_VOLUME_DEPTH_SHIFT);
	emit_sampler(&t, 0, clamp_ss3 | TEXCOORDMODE_CLAMP_EDGE << SS3_TCZ_ADDR_MODE_SHIFT |
		     SS3_NORMALIZED_COORDS, 0);
	p_dcl_t(&p, 0, 0xf);
	p_dcl_s(&p, 0, D0_SAMPLE_TYPE_VOLUME);
	p_tex(&p, T0_TEXLD, REG_TYPE_OC, 0, 0, REG_TYPE_T, 0);
	emit_program(&t, &p);
	for (z = 0; z < 4; z++) {
		float r = (z + 0.5f) / 4.0f, x0 = 4.0f * z;

		out(&t, PRIM(PRIM3D_RECTLIST, 15));
		outf(&t, x0 + 4); outf(&t, 4); outf(&t, 1); outf(&t, 1); outf(&t, r);
		outf(&t, x0); outf(&t, 4); outf(&t, 0); outf(&t, 1); outf(&t, r);
		outf(&t, x0); outf(&t, 0); outf(&t, 0); outf(&t, 0); outf(&t, r);
	}
	run(&t);
	for (z = 0; z < 4; z++)
		gt_assert_eq(cbuf_px(&t, &tg, 4 * z + 1, 1), colors[z]);
	t3d_fini(&t);
}

/* YUV 4:2:2 maps: UYVY byte order, converted to RGB by the sampler. */
static void test_yuv(void)
{
	/* two pixels: Y 0x80 and 0xeb, U 0x60, V 0xa0 */
	static const uint8_t uyvy[4] = { 0x60, 0x80, 0xa0, 0xeb };
	struct target tg = argb_256;
	unsigned int x, c;
	struct t3d t;

	t3d_init(&t);
	memcpy(t.tex, uyvy, 4);
	emit_setup(&t, &tg, ~0u << 4 | TEXCOORDFMT_2D, S4_VFMT_XY << S4_VFMT_XYZW_SHIFT,
		   0, 0);
	emit_map(&t, TEX_GTT, 2, 1, 64, GPU_TILING_NONE, MAPSURF_422,
		 MT_422_YCRCB_SWAPY, 0);
	emit_sampler(&t, SS2_COLORSPACE_CONVERSION, clamp_ss3, 0);
	program_texture(&t, D0_SAMPLE_TYPE_2D);
	textured_rect(&t, 0, 0, 2, 1, 0, 0, 2, 1);
	run(&t);
	for (x = 0; x < 2; x++) {
		double y = 1.164 * ((x ? 0xeb : 0x80) - 16) / 255.0;
		double u = 0x60 / 255.0 - 0.5, v = 0xa0 / 255.0 - 0.5;
		double rgb[3] = { y + 1.596 * v, y - 0.813 * v - 0.391 * u, y + 2.018 * u };
		uint32_t px = cbuf_px(&t, &tg, x, 0);

		gt_assert_eq(px >> 24, 0xff);
		for (c = 0; c < 3; c++) {
			double want = rgb[c] < 0 ? 0 : rgb[c] > 1 ? 255 : rgb[c] * 255;
			int got = (int)((px >> (16 - 8 * c)) & 0xff);

			gt_assert_f(fabs(got - want) <= 0.5001, "x %u channel %u: %d want %.2f",
				    x, c, got, want);
		}
	}
	t3d_fini(&t);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);
	gemtest_subtest("rect-copy-tilings") test_rect_copy();
	gemtest_subtest("triangle-coverage") test_triangle_coverage();
	gemtest_subtest("shared-edges") test_shared_edges();
	gemtest_subtest("strips-fans-polygons") test_strips_fans();
	gemtest_subtest("vertex-buffer") test_vertex_buffer();
	gemtest_subtest("smooth-shading") test_smooth_shading();
	gemtest_subtest("perspective") test_perspective();
	gemtest_subtest("shader-alu") test_shader_alu();
	gemtest_subtest("shader-texkill-depth") test_shader_kill_depth();
	gemtest_subtest("shader-invalid") test_shader_invalid();
	gemtest_subtest("shader-limits") test_shader_limits();
	gemtest_subtest("blend") test_blend();
	gemtest_subtest("color-formats-masks-logic-op") test_color_formats();
	gemtest_subtest("depth") test_depth();
	gemtest_subtest("stencil") test_stencil();
	gemtest_subtest("alpha-test") test_alpha_test();
	gemtest_subtest("clear-rect") test_clear_rect();
	gemtest_subtest("clipping") test_clipping();
	gemtest_subtest("cull") test_cull();
	gemtest_subtest("lines-points") test_lines_points();
	gemtest_subtest("texture-formats") test_texture_formats();
	gemtest_subtest("texture-address-modes") test_address_modes();
	gemtest_subtest("texture-bilinear") test_bilinear();
	gemtest_subtest("texture-mipmaps") test_mipmaps();
	gemtest_subtest("texture-cube") test_cube();
	gemtest_subtest("flat-shading") test_flat_shading();
	gemtest_subtest("vertex-formats") test_vertex_formats();
	gemtest_subtest("texture-instructions") test_texture_instructions();
	gemtest_subtest("stipple") test_stipple();
	gemtest_subtest("load-indirect") test_load_indirect();
	gemtest_subtest("texture-volume") test_volume();
	gemtest_subtest("texture-yuv") test_yuv();
	return gemtest_exit();
}
