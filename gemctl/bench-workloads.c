/*
 * The benchmark's workloads, each a model of one of the seed benchmarks,
 * written on the bufmgr so that one loop runs under every strategy.
 * Objects that live as long as the workload (render targets, the
 * textures texdown-subimage updates, thrash's working set) are created
 * in setup, outside the measured window; everything a GL driver would
 * allocate per use goes through bm_get/bm_put inside it.
 *
 * The shapes follow gemctl's own workloads (workload-*.c), which run
 * without a strategy; see the report in issue 9 for folding the two.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <drm.h>
#include <i915_drm.h>

#include "bench.h"
#include "batchbuffer.h"
#include "libgem.h"
#include "util.h"

/* A relocation's target moved by a sub-allocated buffer's offset. */
static void reloc_add(struct gen3_batch *b, unsigned int idx, uint64_t off)
{
	if (idx >= b->nreloc || !off)
		return;
	b->reloc[idx].delta += (uint32_t)off;
	b->dw[b->reloc[idx].offset / 4] += (uint32_t)off;
}

static void emit_color(struct gen3_batch *b, const struct bm_buf *dst,
		       uint32_t pitch, struct gen3_rect r, uint32_t color)
{
	struct gen3_surf s = {
		.handle = dst->handle, .pitch = pitch, .cpp = 4, .size = dst->size,
	};

	gen3_emit_color_blt(b, &s, &r, color);
	reloc_add(b, b->nreloc - 1, dst->offset);
}

static void emit_copy(struct gen3_batch *b, const struct bm_buf *dst,
		      uint32_t dpitch, int dx, int dy, const struct bm_buf *src,
		      uint32_t spitch, int w, int h)
{
	struct gen3_surf d = { .handle = dst->handle, .pitch = dpitch, .cpp = 4 };
	struct gen3_surf s = { .handle = src->handle, .pitch = spitch, .cpp = 4 };

	gen3_emit_copy_blt(b, &d, dx, dy, &s, 0, 0, w, h);
	reloc_add(b, b->nreloc - 2, dst->offset);
	reloc_add(b, b->nreloc - 1, src->offset);
}

static struct bm_buf fixed(uint32_t handle, uint64_t size)
{
	return (struct bm_buf){ .handle = handle, .size = size };
}

/* Submit b in a batch buffer got from the strategy and put it back. */
static int submit(struct bench_ctx *x, struct gen3_batch *b,
		  const struct bm_buf *const *targets, unsigned int n)
{
	struct bm_buf batch;
	int ret;

	gen3_batch_end(b);
	if (bm_get(&x->bm, BM_BATCH, 4096, &batch))
		return -1;
	ret = bm_exec(&x->bm, b, &batch, targets, n);
	bm_put(&x->bm, &batch);
	return ret;
}

/* --- texdown: 4 MiB uploads cycling through 4 textures ------------------- */

#define TEX_W		1024
#define TEX_H		1024
#define TEX_BYTES	((uint64_t)TEX_W * TEX_H * 4)
#define TEXDOWN_N	4

struct texdown {
	uint32_t rt;
	struct bm_buf tex[TEXDOWN_N];
};

static int texdown_setup(struct bench_ctx *x)
{
	struct texdown *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	x->priv = t;
	return bm_create(&x->bm, TEX_BYTES, &t->rt);
}

/* glTexImage: new storage for the texture (the strategy decides what
 * that costs), the pixels uploaded, then drawn from (a blit). */
static int texdown_op(struct bench_ctx *x)
{
	struct texdown *t = x->priv;
	unsigned int i = x->ops % TEXDOWN_N;
	struct bm_buf rt = fixed(t->rt, TEX_BYTES);
	const struct bm_buf *targets[2] = { &t->tex[i], &rt };
	struct gen3_batch b;

	bm_put(&x->bm, &t->tex[i]);
	if (bm_get(&x->bm, BM_DATA, TEX_BYTES, &t->tex[i]))
		return -1;
	x->src[x->ops % BENCH_SRC_BYTES] = (uint8_t)x->ops;
	if (bm_upload(&x->bm, &t->tex[i], 0, x->src, TEX_BYTES))
		return -1;
	gen3_batch_reset(&b);
	emit_copy(&b, &rt, TEX_W * 4, 0, 0, &t->tex[i], TEX_W * 4, TEX_W, TEX_H);
	if (submit(x, &b, targets, 2))
		return -1;
	x->ops++;
	x->bytes += TEX_BYTES;
	if (x->ops % TEXDOWN_N == 0)
		bm_frame_end(&x->bm);
	return 0;
}

static int texdown_finish(struct bench_ctx *x)
{
	struct texdown *t = x->priv;

	return bm_wait_handle(&x->bm, t->rt);
}

static void texdown_teardown(struct bench_ctx *x)
{
	struct texdown *t = x->priv;
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < TEXDOWN_N; i++)
		bm_put(&x->bm, &t->tex[i]);
	if (t->rt)
		bm_close(&x->bm, t->rt);
}

/* --- texdown-subimage: 64x64 updates of 4 textures through a staging
 * buffer blitted into place (glTexSubImage) --------------------------------- */

#define SUB_W		64
#define SUB_BYTES	((uint64_t)SUB_W * SUB_W * 4)
#define SUB_FRAME	16

struct subimage {
	uint32_t tex[TEXDOWN_N];
};

static int subimage_setup(struct bench_ctx *x)
{
	struct subimage *s = calloc(1, sizeof(*s));
	unsigned int i;

	if (!s)
		return -ENOMEM;
	x->priv = s;
	for (i = 0; i < TEXDOWN_N; i++)
		if (bm_create(&x->bm, TEX_BYTES, &s->tex[i]))
			return -1;
	return 0;
}

static int subimage_op(struct bench_ctx *x)
{
	struct subimage *s = x->priv;
	struct bm_buf tex = fixed(s->tex[x->ops % TEXDOWN_N], TEX_BYTES), stage;
	const struct bm_buf *targets[2] = { &stage, &tex };
	int dx = (int)(x->ops * SUB_W % TEX_W);
	int dy = (int)(x->ops / (TEX_W / SUB_W) * SUB_W % TEX_H);
	struct gen3_batch b;
	int ret;

	if (bm_get(&x->bm, BM_DATA, SUB_BYTES, &stage))
		return -1;
	x->src[x->ops % SUB_BYTES] = (uint8_t)x->ops;
	ret = bm_upload(&x->bm, &stage, 0, x->src, SUB_BYTES);
	if (!ret) {
		gen3_batch_reset(&b);
		emit_copy(&b, &tex, TEX_W * 4, dx, dy, &stage, SUB_W * 4, SUB_W, SUB_W);
		ret = submit(x, &b, targets, 2);
	}
	bm_put(&x->bm, &stage);
	if (ret)
		return -1;
	x->ops++;
	x->bytes += SUB_BYTES;
	if (x->ops % SUB_FRAME == 0)
		bm_frame_end(&x->bm);
	return 0;
}

static int subimage_finish(struct bench_ctx *x)
{
	struct subimage *s = x->priv;

	/* One ring, completed in order: the last texture drawn is enough. */
	return bm_wait_handle(&x->bm, s->tex[(x->ops + TEXDOWN_N - 1) % TEXDOWN_N]);
}

static void subimage_teardown(struct bench_ctx *x)
{
	struct subimage *s = x->priv;
	unsigned int i;

	for (i = 0; s && i < TEXDOWN_N; i++)
		if (s->tex[i])
			bm_close(&x->bm, s->tex[i]);
}

/* --- gears: a frame of small batches, each with a small vertex upload -- */

#define GEARS_W		256
#define GEARS_DRAWS	8
#define GEARS_VB	4096u		/* a 32x32 32 bpp block, pitch 128 */

struct gears {
	uint32_t rt;
};

static int gears_setup(struct bench_ctx *x)
{
	struct gears *g = calloc(1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	x->priv = g;
	return bm_create(&x->bm, GEARS_W * GEARS_W * 4, &g->rt);
}

static int gears_op(struct bench_ctx *x)
{
	struct gears *g = x->priv;
	struct bm_buf rt = fixed(g->rt, GEARS_W * GEARS_W * 4), vb;
	const struct bm_buf *targets[2] = { &vb, &rt };
	struct gen3_batch b;
	unsigned int d;
	int ret;

	for (d = 0; d < GEARS_DRAWS; d++) {
		if (bm_get(&x->bm, BM_DATA, GEARS_VB, &vb))
			return -1;
		x->src[d] = (uint8_t)x->ops;
		ret = bm_upload(&x->bm, &vb, 0, x->src + d * GEARS_VB, GEARS_VB);
		if (!ret) {
			gen3_batch_reset(&b);
			if (d == 0)
				emit_color(&b, &rt, GEARS_W * 4,
					   (struct gen3_rect){ 0, 0, GEARS_W, GEARS_W },
					   0xff000000);
			/* The "vertices" are what the GPU reads: copy them in. */
			emit_copy(&b, &rt, GEARS_W * 4,
				  (int)((x->ops * 7 + d * 28) % (GEARS_W - 32)),
				  (int)(d * 28), &vb, 128, 32, 32);
			ret = submit(x, &b, targets, 2);
		}
		bm_put(&x->bm, &vb);
		if (ret)
			return -1;
		x->bytes += GEARS_VB;
	}
	bm_frame_end(&x->bm);
	x->ops++;
	return 0;
}

static int gears_finish(struct bench_ctx *x)
{
	struct gears *g = x->priv;

	return bm_wait_handle(&x->bm, g->rt);
}

static void gears_teardown(struct bench_ctx *x)
{
	struct gears *g = x->priv;

	if (g && g->rt)
		bm_close(&x->bm, g->rt);
}

/* --- ipers: a frame of many small allocations, each drawn into --------- */

#define IPERS_DRAWS	32

struct ipers {
	struct bm_buf obj[IPERS_DRAWS];
};

static int ipers_setup(struct bench_ctx *x)
{
	x->priv = calloc(1, sizeof(struct ipers));
	return x->priv ? 0 : -ENOMEM;
}

static int ipers_op(struct bench_ctx *x)
{
	struct ipers *p = x->priv;
	const struct bm_buf *targets[1];
	struct gen3_batch b;
	uint64_t size;
	unsigned int k;

	/* Last frame's objects go now, so finish can wait on them. */
	for (k = 0; k < IPERS_DRAWS; k++)
		bm_put(&x->bm, &p->obj[k]);
	for (k = 0; k < IPERS_DRAWS; k++) {
		size = 4096ull << (k % 5);		/* 4 KiB .. 64 KiB */
		if (bm_get(&x->bm, BM_DATA, size, &p->obj[k]))
			return -1;
		gen3_batch_reset(&b);
		emit_color(&b, &p->obj[k], 256,
			   (struct gen3_rect){ 0, 0, 64, (int)(size / 256) },
			   (uint32_t)(x->ops + k));
		targets[0] = &p->obj[k];
		if (submit(x, &b, targets, 1))
			return -1;
		x->bytes += size;
	}
	bm_frame_end(&x->bm);
	x->ops++;
	return 0;
}

static int ipers_finish(struct bench_ctx *x)
{
	struct ipers *p = x->priv;

	return bm_wait(&x->bm, &p->obj[IPERS_DRAWS - 1]);
}

static void ipers_teardown(struct bench_ctx *x)
{
	struct ipers *p = x->priv;
	unsigned int k;

	for (k = 0; p && k < IPERS_DRAWS; k++)
		bm_put(&x->bm, &p->obj[k]);
}

/* --- exec-nop: an empty batch per execbuffer ------------------------------ */

#define NOP_FRAME	64

struct nop {
	struct bm_buf last;
};

static int nop_setup(struct bench_ctx *x)
{
	x->priv = calloc(1, sizeof(struct nop));
	return x->priv ? 0 : -ENOMEM;
}

static int nop_op(struct bench_ctx *x)
{
	struct nop *n = x->priv;
	struct gen3_batch b;

	/* The previous batch is kept until now, so finish can wait on it. */
	bm_put(&x->bm, &n->last);
	if (bm_get(&x->bm, BM_BATCH, 4096, &n->last))
		return -1;
	gen3_batch_reset(&b);
	gen3_batch_end(&b);
	if (bm_exec(&x->bm, &b, &n->last, NULL, 0))
		return -1;
	x->ops++;
	if (x->ops % NOP_FRAME == 0)
		bm_frame_end(&x->bm);
	return 0;
}

static int nop_finish(struct bench_ctx *x)
{
	struct nop *n = x->priv;

	return bm_wait(&x->bm, &n->last);
}

static void nop_teardown(struct bench_ctx *x)
{
	struct nop *n = x->priv;

	if (n)
		bm_put(&x->bm, &n->last);
}

/* --- reloc: execbuffers of RELOC_N relocations each ---------------------- */

#define RELOC_N		64
#define RELOC_TARGETS	8
#define RELOC_FRAME	16

struct reloc {
	uint32_t tgt[RELOC_TARGETS];
};

static int reloc_setup(struct bench_ctx *x)
{
	struct reloc *r = calloc(1, sizeof(*r));
	unsigned int i;

	if (!r)
		return -ENOMEM;
	x->priv = r;
	for (i = 0; i < RELOC_TARGETS; i++)
		if (bm_create(&x->bm, 4096, &r->tgt[i]))
			return -1;
	return 0;
}

static int reloc_op(struct bench_ctx *x)
{
	struct reloc *r = x->priv;
	struct bm_buf bufs[RELOC_TARGETS];
	const struct bm_buf *targets[RELOC_TARGETS];
	struct gen3_batch b;
	unsigned int k;

	gen3_batch_reset(&b);
	for (k = 0; k < RELOC_N; k++)
		gen3_emit_store_dword(&b, r->tgt[k % RELOC_TARGETS],
				    4 * (k / RELOC_TARGETS), (uint32_t)x->ops);
	for (k = 0; k < RELOC_TARGETS; k++) {
		bufs[k] = fixed(r->tgt[k], 4096);
		targets[k] = &bufs[k];
	}
	if (submit(x, &b, targets, RELOC_TARGETS))
		return -1;
	x->ops++;
	if (x->ops % RELOC_FRAME == 0)
		bm_frame_end(&x->bm);
	return 0;
}

static int reloc_finish(struct bench_ctx *x)
{
	struct reloc *r = x->priv;

	return bm_wait_handle(&x->bm, r->tgt[RELOC_TARGETS - 1]);
}

static void reloc_teardown(struct bench_ctx *x)
{
	struct reloc *r = x->priv;
	unsigned int i;

	for (i = 0; r && i < RELOC_TARGETS; i++)
		if (r->tgt[i])
			bm_close(&x->bm, r->tgt[i]);
}

/* --- thrash: a working set twice the aperture ----------------------------- */

#define THRASH_OBJ	(1ull << 20)
#define THRASH_FRAME	16

struct thrash {
	uint32_t *objs;
	uint64_t count;
};

static int thrash_setup(struct bench_ctx *x)
{
	struct thrash *t = calloc(1, sizeof(*t));
	uint64_t i;

	if (!t)
		return -ENOMEM;
	x->priv = t;
	t->count = 2 * x->aperture / THRASH_OBJ;
	if (t->count < 2)
		t->count = 2;
	t->objs = calloc(t->count, sizeof(*t->objs));
	if (!t->objs)
		return -ENOMEM;
	for (i = 0; i < t->count; i++)
		if (bm_create(&x->bm, THRASH_OBJ, &t->objs[i]))
			return -1;
	return 0;
}

static int thrash_op(struct bench_ctx *x)
{
	struct thrash *t = x->priv;
	struct bm_buf obj = fixed(t->objs[x->ops % t->count], THRASH_OBJ);
	const struct bm_buf *targets[1] = { &obj };
	struct gen3_batch b;

	gen3_batch_reset(&b);
	emit_color(&b, &obj, 4096, (struct gen3_rect){ 0, 0, 16, 16 }, (uint32_t)x->ops);
	if (submit(x, &b, targets, 1))
		return -1;
	x->ops++;
	x->bytes += THRASH_OBJ;
	if (x->ops % THRASH_FRAME == 0)
		bm_frame_end(&x->bm);
	return 0;
}

static int thrash_finish(struct bench_ctx *x)
{
	struct thrash *t = x->priv;

	if (!x->ops)
		return 0;
	return bm_wait_handle(&x->bm, t->objs[(x->ops - 1) % t->count]);
}

static void thrash_teardown(struct bench_ctx *x)
{
	struct thrash *t = x->priv;
	uint64_t i;

	if (!t)
		return;
	for (i = 0; t->objs && i < t->count; i++)
		if (t->objs[i])
			bm_close(&x->bm, t->objs[i]);
	free(t->objs);
}

const struct bench_workload bench_workloads[] = {
	{ "texdown", "4 MiB texture uploads cycling through 4 textures, each blitted",
	  "upload", true, true, 2 * TEX_BYTES,	/* fits a 16 MiB aperture */
	  texdown_setup, texdown_op, texdown_finish, texdown_teardown },
	{ "texdown-subimage", "64x64 sub-rectangle updates through a staging buffer",
	  "update", true, true, SUB_FRAME * SUB_BYTES,
	  subimage_setup, subimage_op, subimage_finish, subimage_teardown },
	{ "gears", "frames of 8 small batches, each with a 4 KiB vertex upload",
	  "frame", true, false, 64u << 10,
	  gears_setup, gears_op, gears_finish, gears_teardown },
	{ "ipers", "frames of 32 small objects (4-64 KiB), each drawn into",
	  "frame", false, false, 2u << 20,
	  ipers_setup, ipers_op, ipers_finish, ipers_teardown },
	{ "exec-nop", "an empty batch per execbuffer",
	  "exec", false, false, 4096,
	  nop_setup, nop_op, nop_finish, nop_teardown },
	{ "reloc", "execbuffers of 64 relocations into 8 objects",
	  "exec", false, false, 4096,
	  reloc_setup, reloc_op, reloc_finish, reloc_teardown },
	{ "thrash", "blits into a working set twice the aperture (1 MiB objects)",
	  "exec", false, false, 4096,
	  thrash_setup, thrash_op, thrash_finish, thrash_teardown },
};
const unsigned int bench_nworkloads = ARRAY_SIZE(bench_workloads);

const struct bench_workload *bench_workload_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < bench_nworkloads; i++)
		if (!strcmp(bench_workloads[i].name, name))
			return &bench_workloads[i];
	return NULL;
}

static int find_name(const char *const *names, unsigned int n, const char *s,
		     size_t len)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], s, len))
			return (int)i;
	return -1;
}

int bench_strategy_parse(const char *s, struct bench_strategy *out)
{
	const char *plus = strchr(s, '+');
	size_t len = plus ? (size_t)(plus - s) : strlen(s);
	int a = find_name(bm_strategy_names, BM_NSTRATEGIES, s, len);
	int u = -1;

	if (plus) {
		u = find_name(bm_upload_names, BM_NUPLOADS, plus + 1, strlen(plus + 1));
		if (a < 0 || u < 0)
			return -EINVAL;
	} else if (a < 0) {
		/* An upload path alone: over libdrm's cache. */
		u = find_name(bm_upload_names, BM_NUPLOADS, s, len);
		if (u < 0)
			return -EINVAL;
		a = BM_REUSE;
	} else {
		/* suballoc writes its frame objects unsynchronised (bufmgr.h) */
		u = a == BM_SUBALLOC ? BM_UNSYNC : BM_PWRITE;
	}
	if (strlen(s) >= sizeof(out->name))
		return -EINVAL;
	out->alloc = (enum bm_strategy)a;
	out->upload = (enum bm_upload)u;
	out->upload_named = plus || find_name(bm_strategy_names, BM_NSTRATEGIES,
					      s, len) < 0;
	memcpy(out->name, s, strlen(s) + 1);
	return 0;
}

bool bench_strategy_applies(const struct bench_strategy *s,
			    const struct bench_workload *w)
{
	return w->uploads || !s->upload_named;
}
