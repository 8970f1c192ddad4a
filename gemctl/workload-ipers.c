/*
 * ipers: many small allocations and draws, as Mesa's ipers (and a buffer
 * cache under it) cause.  Each frame gets 32 objects of 4-64 KiB from the
 * strategy, fills each with the blitter, and gives the last frame's back.
 */
#include <errno.h>
#include <stdlib.h>

#include "workload.h"

#define IPERS_DRAWS	32

struct ipers {
	struct bm_buf obj[IPERS_DRAWS];
};

static int ipers_setup(struct workload_ctx *x)
{
	x->priv = calloc(1, sizeof(struct ipers));
	return x->priv ? 0 : -ENOMEM;
}

static int ipers_op(struct workload_ctx *x)
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
		workload_emit_color(&b, &p->obj[k], 256,
			   (struct gen3_rect){ 0, 0, 64, (int)(size / 256) },
			   (uint32_t)(x->ops + k));
		targets[0] = &p->obj[k];
		if (workload_submit(x, &b, targets, 1))
			return -1;
		x->bytes += size;
	}
	bm_frame_end(&x->bm);
	x->ops++;
	return 0;
}

static int ipers_finish(struct workload_ctx *x)
{
	struct ipers *p = x->priv;

	return bm_wait(&x->bm, &p->obj[IPERS_DRAWS - 1]);
}

static void ipers_teardown(struct workload_ctx *x)
{
	struct ipers *p = x->priv;
	unsigned int k;

	for (k = 0; p && k < IPERS_DRAWS; k++)
		bm_put(&x->bm, &p->obj[k]);
}

const struct workload workload_ipers = {
	.name = "ipers",
	.summary = "frames of 32 small objects (4-64 KiB), each drawn into",
	.op = "frame",
	.uploads = false,
	.bytes = false,
	.verb = true,
	.arena_size = 2u << 20,
	.setup = ipers_setup,
	.op_fn = ipers_op,
	.finish = ipers_finish,
	.teardown = ipers_teardown,
};
