/* The 2D blitter: solid fills and copies through the GTT, with ternary ROPs. */
#include <string.h>

#include "gpu_priv.h"

struct blit_op {
	uint8_t rop;
	uint32_t cpp;
	uint64_t pat;			/* pattern colour, replicated over 8 bytes */
	uint64_t mask;			/* bytes the blit may write, likewise */
};

struct surf {
	uint64_t base;
	int32_t pitch;
	enum gpu_tiling tiling;
};

struct rect {
	int32_t x1, y1, x2, y2;		/* x2, y2 exclusive */
};

static int32_t lo16(uint32_t v)
{
	return (int16_t)(v & 0xffff);
}

static int32_t hi16(uint32_t v)
{
	return (int16_t)(v >> 16);
}

static struct rect rect_from(uint32_t tl, uint32_t br)
{
	struct rect r = { lo16(tl), hi16(tl), lo16(br), hi16(br) };

	return r;
}

static uint64_t replicate(uint32_t v, uint32_t cpp)
{
	switch (cpp) {
	case 1:
		return (v & 0xffu) * 0x0101010101010101ull;
	case 2:
		return (v & 0xffffu) * 0x0001000100010001ull;
	default:
		return (uint64_t)v * 0x0000000100000001ull;
	}
}

/* BR13 bits 25:24: 8 bpp, 16 bpp 565, 16 bpp 1555, 32 bpp. */
static void op_init(struct blit_op *op, uint32_t hdr, uint32_t br13, uint32_t color)
{
	static const uint8_t cpp[4] = { 1, 2, 2, 4 };
	uint32_t mask = 0;

	op->cpp = cpp[BR13_DEPTH(br13)];
	op->rop = (br13 >> 16) & 0xff;
	op->pat = replicate(color, op->cpp);
	if (op->cpp == 4) {
		if (hdr & XY_BLT_WRITE_ALPHA)
			mask |= 0xff000000u;
		if (hdr & XY_BLT_WRITE_RGB)
			mask |= 0x00ffffffu;
	}
	/* Without either bit we write whole pixels, the lenient reading. */
	op->mask = replicate(mask ? mask : 0xffffffffu, op->cpp);
}

/* The ternary ROP: bit (p << 2 | s << 1 | d) of rop is the result. */
static uint64_t rop3(uint8_t rop, uint64_t p, uint64_t s, uint64_t d)
{
	uint64_t r = 0;
	unsigned int i;

	for (i = 0; i < 8; i++) {
		if (!(rop & (1u << i)))
			continue;
		r |= (i & 4 ? p : ~p) & (i & 2 ? s : ~s) & (i & 1 ? d : ~d);
	}
	return r;
}

static uint64_t rotr_bytes(uint64_t v, unsigned int r)
{
	return r ? v >> (8 * r) | v << (64 - 8 * r) : v;
}

static void fill_pattern(uint8_t *d, uint32_t n, uint64_t p)
{
	uint32_t i = 0;

	for (; i + 8 <= n; i += 8)
		memcpy(d + i, &p, 8);
	for (; i < n; i++)
		d[i] = (uint8_t)(p >> (8 * (i & 7)));
}

/*
 * Apply the operation to n bytes at d.  k is the byte index of d[0] in
 * the row, which fixes where the pattern and the write mask start; s is
 * the source (NULL: zero).
 */
static void span_apply(uint8_t *d, const uint8_t *s, uint32_t n, uint64_t k,
		       const struct blit_op *op)
{
	uint64_t p = rotr_bytes(op->pat, k & 7);
	uint64_t m = rotr_bytes(op->mask, k & 7);
	uint32_t i;

	if (m == ~0ull) {
		switch (op->rop) {
		case ROP_SRCCOPY:
			if (s)
				memcpy(d, s, n);
			else
				memset(d, 0, n);
			return;
		case ROP_PATCOPY:
			fill_pattern(d, n, p);
			return;
		case ROP_BLACKNESS:
			memset(d, 0, n);
			return;
		case ROP_WHITENESS:
			memset(d, 0xff, n);
			return;
		case ROP_NOOP:
			return;
		}
	}
	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t dv, sv = 0, r;

		memcpy(&dv, d + i, 8);
		if (s)
			memcpy(&sv, s + i, 8);
		r = rop3(op->rop, p, sv, dv);
		dv = (r & m) | (dv & ~m);
		memcpy(d + i, &dv, 8);
	}
	for (; i < n; i++) {
		unsigned int sh = 8 * (i & 7);
		uint64_t r = rop3(op->rop, p >> sh, s ? s[i] : 0, d[i]);
		uint64_t mb = m >> sh;

		d[i] = (uint8_t)((r & mb) | (d[i] & ~mb));
	}
}

/*
 * On gen3 the fence covering a surface detiles it: the X.org driver sets
 * the tiled bits only on gen4+, so a fence alone makes a surface tiled
 * (the fence also tells X from Y).  A tiled bit with no fence is an error.
 */
static enum cs_status surf_init(struct gpu *gpu, struct surf *s, uint32_t base,
				int32_t pitch, bool tiled)
{
	uint32_t stride;

	s->base = base;
	s->pitch = pitch;
	s->tiling = GPU_TILING_NONE;
	if (gpu_fence_lookup(gpu, base, &s->tiling, &stride) < 0) {
		s->tiling = GPU_TILING_NONE;
		return tiled ? CS_INVALID : CS_OK;
	}
	if (pitch <= 0 || pitch % gpu_tile_width(s->tiling) ||
	    base & (GTT_PAGE_SIZE - 1))
		return CS_INVALID;
	return CS_OK;
}

/*
 * GTT address of byte xb of row y, and how many bytes from there are
 * contiguous in GTT space (to the end of the tile row or page).
 */
static bool surf_addr(const struct surf *s, int64_t y, int64_t xb,
		      uint64_t *addr, uint32_t *run)
{
	int64_t a;
	uint32_t r;

	if (s->tiling == GPU_TILING_NONE) {
		a = (int64_t)s->base + y * s->pitch + xb;
		r = GTT_PAGE_SIZE;
	} else {
		uint32_t tw = s->tiling == GPU_TILING_X ? 512 : 16;

		a = (int64_t)s->base + gpu_tiled_offset(s->tiling, (uint32_t)s->pitch,
							(uint32_t)xb, (uint32_t)y);
		r = tw - (uint32_t)(xb % tw);
	}
	if (a < 0) {
		*addr = 0;
		return false;
	}
	*addr = (uint64_t)a;
	if (r > GTT_PAGE_SIZE - (*addr & (GTT_PAGE_SIZE - 1)))
		r = GTT_PAGE_SIZE - (uint32_t)(*addr & (GTT_PAGE_SIZE - 1));
	*run = r;
	return true;
}

/* Write n bytes of row y from byte xb (src NULL for fills). */
static enum cs_status row_write(struct gpu *gpu, const struct surf *s, int64_t y,
				int64_t xb, uint32_t n, const uint8_t *src,
				const struct blit_op *op)
{
	uint32_t done = 0, run;
	uint64_t addr;
	uint8_t *p;

	while (done < n) {
		if (!surf_addr(s, y, xb + done, &addr, &run) ||
		    !(p = gtt_ptr(gpu, addr))) {
			gpu->cs.fault_addr = addr;
			return CS_FAULT;
		}
		if (run > n - done)
			run = n - done;
		span_apply(p, src ? src + done : NULL, run, (uint64_t)(xb + done), op);
		done += run;
	}
	return CS_OK;
}

static enum cs_status row_read(struct gpu *gpu, const struct surf *s, int64_t y,
			       int64_t xb, uint32_t n, uint8_t *out)
{
	uint32_t done = 0, run;
	uint64_t addr;
	uint8_t *p;

	while (done < n) {
		if (!surf_addr(s, y, xb + done, &addr, &run) ||
		    !(p = gtt_ptr(gpu, addr))) {
			gpu->cs.fault_addr = addr;
			return CS_FAULT;
		}
		if (run > n - done)
			run = n - done;
		memcpy(out + done, p, run);
		done += run;
	}
	return CS_OK;
}

static void blit_account(struct gpu *gpu, uint64_t bytes)
{
	stat_add(&gpu->st_blits, 1);
	stat_add(&gpu->st_blit_bytes, bytes);
}

/*
 * One row done: progress for hangcheck, and its time in the speed model,
 * paid row by row so that a long blit is seen to move (and a reset need
 * not wait for its end).
 */
static enum cs_status blit_row_done(struct gpu *gpu, uint32_t bytes)
{
	uint64_t rate = gpu->cfg.blit_bytes_per_sec, num;

	cs_progress(gpu, 1);
	if (rate) {
		num = (uint64_t)bytes * 1000000000ull + gpu->cs.blit_frac;
		gpu->cs.blit_frac = num % rate;
		gpu_charge(gpu, num / rate);
	}
	return gpu_cs_aborted(gpu) ? CS_ABORT : CS_OK;
}

static bool tiled_ok(const struct surf *s, int64_t x, int64_t y)
{
	return s->tiling == GPU_TILING_NONE || (x >= 0 && y >= 0);
}

/* Rows [y, y + h), bytes [xb, xb + n) of each. */
static enum cs_status fill_area(struct gpu *gpu, const struct surf *dst, int64_t y,
				uint32_t h, int64_t xb, uint32_t n,
				const struct blit_op *op)
{
	enum cs_status st;
	uint32_t i;

	if (!h || !n) {
		blit_account(gpu, 0);
		return CS_OK;
	}
	if (!tiled_ok(dst, xb, y))
		return CS_INVALID;
	for (i = 0; i < h; i++) {
		st = row_write(gpu, dst, y + i, xb, n, NULL, op);
		if (st == CS_OK)
			st = blit_row_done(gpu, n);
		if (st != CS_OK)
			return st;
	}
	blit_account(gpu, (uint64_t)h * n);
	return CS_OK;
}

/*
 * Each source row goes through the scratch buffer before the destination
 * row is written, and rows run bottom-up when copying down within one
 * surface, so overlapping copies behave like memmove.
 */
static enum cs_status copy_area(struct gpu *gpu, const struct surf *dst, int64_t dy,
				uint32_t h, int64_t dxb, uint32_t n,
				const struct surf *src, int64_t sy, int64_t sxb,
				const struct blit_op *op)
{
	bool up = src->base == dst->base && src->pitch == dst->pitch && dy > sy;
	enum cs_status st;
	uint32_t i, row;

	if (!h || !n) {
		blit_account(gpu, 0);
		return CS_OK;
	}
	if (n > BLIT_SCRATCH_SIZE || !tiled_ok(dst, dxb, dy) || !tiled_ok(src, sxb, sy))
		return CS_INVALID;
	for (i = 0; i < h; i++) {
		row = up ? h - 1 - i : i;
		st = row_read(gpu, src, sy + row, sxb, n, gpu->scratch);
		if (st == CS_OK)
			st = row_write(gpu, dst, dy + row, dxb, n, gpu->scratch, op);
		if (st == CS_OK)
			st = blit_row_done(gpu, n);
		if (st != CS_OK)
			return st;
	}
	blit_account(gpu, (uint64_t)h * n);
	return CS_OK;
}

static void clip_rect(struct rect *r, const struct blit_setup *su)
{
	if (r->x1 < su->clip_x1)
		r->x1 = su->clip_x1;
	if (r->y1 < su->clip_y1)
		r->y1 = su->clip_y1;
	if (r->x2 > su->clip_x2)
		r->x2 = su->clip_x2;
	if (r->y2 > su->clip_y2)
		r->y2 = su->clip_y2;
}

static enum cs_status fill_rect(struct gpu *gpu, const struct surf *dst,
				struct rect r, const struct blit_op *op)
{
	if (r.x2 <= r.x1 || r.y2 <= r.y1)
		r.x2 = r.x1 = r.y2 = r.y1 = 0;
	return fill_area(gpu, dst, r.y1, (uint32_t)(r.y2 - r.y1),
			 (int64_t)r.x1 * op->cpp, (uint32_t)(r.x2 - r.x1) * op->cpp, op);
}

static enum cs_status xy_color_blt(struct gpu *gpu, const uint32_t *dw)
{
	struct rect r = rect_from(dw[2], dw[3]);
	struct blit_op op;
	struct surf dst;
	enum cs_status st;

	op_init(&op, dw[0], dw[1], dw[5]);
	st = surf_init(gpu, &dst, dw[4], lo16(dw[1]), dw[0] & XY_BLT_DST_TILED);
	if (st != CS_OK)
		return st;
	if (dw[1] & BR13_CLIP_ENABLE)
		clip_rect(&r, &gpu->cs.setup);
	return fill_rect(gpu, &dst, r, &op);
}

static enum cs_status xy_src_copy_blt(struct gpu *gpu, const uint32_t *dw)
{
	struct rect r = rect_from(dw[2], dw[3]), c;
	int32_t sx = lo16(dw[5]), sy = hi16(dw[5]);
	struct surf dst, src;
	struct blit_op op;
	enum cs_status st;

	op_init(&op, dw[0], dw[1], 0);
	st = surf_init(gpu, &dst, dw[4], lo16(dw[1]), dw[0] & XY_BLT_DST_TILED);
	if (st == CS_OK)
		st = surf_init(gpu, &src, dw[7], lo16(dw[6]), dw[0] & XY_BLT_SRC_TILED);
	if (st != CS_OK)
		return st;
	if (dw[1] & BR13_CLIP_ENABLE) {
		c = r;
		clip_rect(&c, &gpu->cs.setup);
		sx += c.x1 - r.x1;
		sy += c.y1 - r.y1;
		r = c;
	}
	if (r.x2 <= r.x1 || r.y2 <= r.y1)
		r.x2 = r.x1 = r.y2 = r.y1 = 0;
	return copy_area(gpu, &dst, r.y1, (uint32_t)(r.y2 - r.y1),
			 (int64_t)r.x1 * op.cpp, (uint32_t)(r.x2 - r.x1) * op.cpp,
			 &src, sy, (int64_t)sx * op.cpp, &op);
}

static enum cs_status xy_setup_blt(struct gpu *gpu, const uint32_t *dw)
{
	struct blit_setup *su = &gpu->cs.setup;

	su->valid = true;
	su->tiled = dw[0] & XY_BLT_DST_TILED;
	su->hdr = dw[0];
	su->br13 = dw[1];
	su->clip_x1 = lo16(dw[2]);
	su->clip_y1 = hi16(dw[2]);
	su->clip_x2 = lo16(dw[3]);
	su->clip_y2 = hi16(dw[3]);
	su->dst = dw[4];
	su->bg = dw[5];
	su->fg = dw[6];
	return CS_OK;
}

static enum cs_status xy_setup_clip_blt(struct gpu *gpu, const uint32_t *dw)
{
	struct blit_setup *su = &gpu->cs.setup;

	su->clip_x1 = lo16(dw[1]);
	su->clip_y1 = hi16(dw[1]);
	su->clip_x2 = lo16(dw[2]);
	su->clip_y2 = hi16(dw[2]);
	return CS_OK;
}

/* The setup's solid colour (its foreground) is the pattern. */
static enum cs_status xy_scanlines_blt(struct gpu *gpu, const uint32_t *dw)
{
	struct blit_setup *su = &gpu->cs.setup;
	struct rect r = rect_from(dw[1], dw[2]);
	struct blit_op op;
	struct surf dst;
	enum cs_status st;

	if (!su->valid)
		return CS_INVALID;
	op_init(&op, su->hdr, su->br13, su->fg);
	st = surf_init(gpu, &dst, su->dst, lo16(su->br13),
		       su->tiled || (dw[0] & XY_BLT_DST_TILED));
	if (st != CS_OK)
		return st;
	if (su->br13 & BR13_CLIP_ENABLE)
		clip_rect(&r, su);
	return fill_rect(gpu, &dst, r, &op);
}

/* The pre-XY forms: linear, the width in bytes, no coordinates. */
static enum cs_status color_blt(struct gpu *gpu, const uint32_t *dw)
{
	struct blit_op op;
	struct surf dst;

	op_init(&op, dw[0], dw[1], dw[4]);
	surf_init(gpu, &dst, dw[3], lo16(dw[1]), false);
	return fill_area(gpu, &dst, 0, dw[2] >> 16, 0, dw[2] & 0xffff, &op);
}

static enum cs_status src_copy_blt(struct gpu *gpu, const uint32_t *dw)
{
	struct surf dst, src;
	struct blit_op op;

	op_init(&op, dw[0], dw[1], 0);
	surf_init(gpu, &dst, dw[3], lo16(dw[1]), false);
	surf_init(gpu, &src, dw[5], lo16(dw[4]), false);
	return copy_area(gpu, &dst, 0, dw[2] >> 16, 0, dw[2] & 0xffff,
			 &src, 0, 0, &op);
}

enum cs_status blit_exec(struct gpu *gpu, const struct gen3_cmd *cmd,
			 const uint32_t *dw, uint32_t len)
{
	switch (cmd->id) {
	case GEN3_XY_SETUP_BLT:
		return xy_setup_blt(gpu, dw);
	case GEN3_XY_SETUP_CLIP_BLT:
		return xy_setup_clip_blt(gpu, dw);
	case GEN3_XY_SCANLINES_BLT:
		return xy_scanlines_blt(gpu, dw);
	case GEN3_COLOR_BLT:
		return color_blt(gpu, dw);
	case GEN3_SRC_COPY_BLT:
		return src_copy_blt(gpu, dw);
	case GEN3_XY_COLOR_BLT:
		return xy_color_blt(gpu, dw);
	case GEN3_XY_SRC_COPY_BLT:
		return xy_src_copy_blt(gpu, dw);
	default:
		return CS_INVALID;
	}
}
