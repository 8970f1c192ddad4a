/*
 * gears: what glxgears does to a driver on gen3.  Every frame is 8 small
 * batches, each with a 4 KiB "vertex" upload the GPU copies into a 256x256
 * render target (the first clears it).  An op is a frame.
 */
#include <errno.h>
#include <stdlib.h>

#include "workload.h"

#define GEARS_W		256
#define GEARS_DRAWS	8
#define GEARS_VB	4096u		/* a 32x32 32 bpp block, pitch 128 */

struct gears {
	uint32_t rt;
};

static int gears_setup(struct workload_ctx *x)
{
	struct gears *g = calloc(1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	x->priv = g;
	return bm_create(&x->bm, GEARS_W * GEARS_W * 4, &g->rt);
}

static int gears_op(struct workload_ctx *x)
{
	struct gears *g = x->priv;
	struct bm_buf rt = workload_fixed(g->rt, GEARS_W * GEARS_W * 4), vb;
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
				workload_emit_color(&b, &rt, GEARS_W * 4,
					   (struct gen3_rect){ 0, 0, GEARS_W, GEARS_W },
					   0xff000000);
			/* The "vertices" are what the GPU reads: copy them in. */
			workload_emit_copy(&b, &rt, GEARS_W * 4,
				  (int)((x->ops * 7 + d * 28) % (GEARS_W - 32)),
				  (int)(d * 28), &vb, 128, 32, 32);
			ret = workload_submit(x, &b, targets, 2);
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

static int gears_finish(struct workload_ctx *x)
{
	struct gears *g = x->priv;

	return bm_wait_handle(&x->bm, g->rt);
}

static void gears_teardown(struct workload_ctx *x)
{
	struct gears *g = x->priv;

	if (g && g->rt)
		bm_close(&x->bm, g->rt);
}

const struct workload workload_gears = {
	.name = "gears",
	.summary = "frames of 8 small batches, each with a 4 KiB vertex upload",
	.op = "frame",
	.uploads = true,
	.bytes = false,
	.verb = true,
	.arena_size = 64u << 10,
	.setup = gears_setup,
	.op_fn = gears_op,
	.finish = gears_finish,
	.teardown = gears_teardown,
};
