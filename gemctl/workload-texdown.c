/*
 * texdown: Mesa's texture-download benchmark as a driver sees it, 1024x1024
 * 32 bpp textures cycling through 4; and texdown-subimage, 64x64 updates
 * of 4 textures through a staging buffer blitted into place.  bytes counts
 * uploaded bytes.
 */
#include <errno.h>
#include <stdlib.h>

#include "workload.h"

#define TEX_W		1024
#define TEX_H		1024
#define TEX_BYTES	((uint64_t)TEX_W * TEX_H * 4)
#define TEXDOWN_N	4

struct texdown {
	uint32_t rt;
	struct bm_buf tex[TEXDOWN_N];
};

static int texdown_setup(struct workload_ctx *x)
{
	struct texdown *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	x->priv = t;
	return bm_create(&x->bm, TEX_BYTES, &t->rt);
}

/* glTexImage: new storage for the texture (the strategy decides what
 * that costs), the pixels uploaded, then drawn from (a blit). */
static int texdown_op(struct workload_ctx *x)
{
	struct texdown *t = x->priv;
	unsigned int i = x->ops % TEXDOWN_N;
	struct bm_buf rt = workload_fixed(t->rt, TEX_BYTES);
	const struct bm_buf *targets[2] = { &t->tex[i], &rt };
	struct gen3_batch b;

	bm_put(&x->bm, &t->tex[i]);
	if (bm_get(&x->bm, BM_DATA, TEX_BYTES, &t->tex[i]))
		return -1;
	x->src[x->ops % WORKLOAD_SRC_BYTES] = (uint8_t)x->ops;
	if (bm_upload(&x->bm, &t->tex[i], 0, x->src, TEX_BYTES))
		return -1;
	gen3_batch_reset(&b);
	workload_emit_copy(&b, &rt, TEX_W * 4, 0, 0, &t->tex[i], TEX_W * 4, TEX_W, TEX_H);
	if (workload_submit(x, &b, targets, 2))
		return -1;
	x->ops++;
	x->bytes += TEX_BYTES;
	if (x->ops % TEXDOWN_N == 0)
		bm_frame_end(&x->bm);
	return 0;
}

static int texdown_finish(struct workload_ctx *x)
{
	struct texdown *t = x->priv;

	return bm_wait_handle(&x->bm, t->rt);
}

static void texdown_teardown(struct workload_ctx *x)
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

/* texdown-subimage: glTexSubImage through a staging buffer. */

#define SUB_W		64
#define SUB_BYTES	((uint64_t)SUB_W * SUB_W * 4)
#define SUB_FRAME	16

struct subimage {
	uint32_t tex[TEXDOWN_N];
};

static int subimage_setup(struct workload_ctx *x)
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

static int subimage_op(struct workload_ctx *x)
{
	struct subimage *s = x->priv;
	struct bm_buf tex = workload_fixed(s->tex[x->ops % TEXDOWN_N], TEX_BYTES), stage;
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
		workload_emit_copy(&b, &tex, TEX_W * 4, dx, dy, &stage, SUB_W * 4, SUB_W, SUB_W);
		ret = workload_submit(x, &b, targets, 2);
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

static int subimage_finish(struct workload_ctx *x)
{
	struct subimage *s = x->priv;

	/* One ring, completed in order: the last texture drawn is enough. */
	return bm_wait_handle(&x->bm, s->tex[(x->ops + TEXDOWN_N - 1) % TEXDOWN_N]);
}

static void subimage_teardown(struct workload_ctx *x)
{
	struct subimage *s = x->priv;
	unsigned int i;

	for (i = 0; s && i < TEXDOWN_N; i++)
		if (s->tex[i])
			bm_close(&x->bm, s->tex[i]);
}

const struct workload workload_texdown = {
	.name = "texdown",
	.summary = "4 MiB texture uploads cycling through 4 textures, each blitted",
	.op = "upload",
	.uploads = true,
	.bytes = true,
	.verb = true,
	.arena_size = 2 * TEX_BYTES,	/* fits a 16 MiB aperture */
	.setup = texdown_setup,
	.op_fn = texdown_op,
	.finish = texdown_finish,
	.teardown = texdown_teardown,
};

const struct workload workload_texdown_subimage = {
	.name = "texdown-subimage",
	.summary = "64x64 sub-rectangle updates through a staging buffer",
	.op = "update",
	.uploads = true,
	.bytes = true,
	.verb = false,
	.arena_size = SUB_FRAME * SUB_BYTES,
	.setup = subimage_setup,
	.op_fn = subimage_op,
	.finish = subimage_finish,
	.teardown = subimage_teardown,
};
