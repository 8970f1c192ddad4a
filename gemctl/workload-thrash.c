/*
 * thrash: a working set twice the aperture, split between the clients in
 * 1 MiB objects and touched round-robin with a blit each, so nearly every
 * bind must evict.  An op is one execution; bytes counts the bytes bound.
 */
#include <errno.h>
#include <stdlib.h>

#include "workload.h"

#define THRASH_OBJ	(1ull << 20)
#define THRASH_FRAME	16

struct thrash {
	uint32_t *objs;
	uint64_t count;
};

static int thrash_setup(struct workload_ctx *x)
{
	struct thrash *t = calloc(1, sizeof(*t));
	uint64_t i;

	if (!t)
		return -ENOMEM;
	x->priv = t;
	t->count = 2 * x->aperture / THRASH_OBJ / x->clients;
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

static int thrash_op(struct workload_ctx *x)
{
	struct thrash *t = x->priv;
	struct bm_buf obj = workload_fixed(t->objs[x->ops % t->count], THRASH_OBJ);
	const struct bm_buf *targets[1] = { &obj };
	struct gen3_batch b;

	gen3_batch_reset(&b);
	workload_emit_color(&b, &obj, 4096, (struct gen3_rect){ 0, 0, 16, 16 }, (uint32_t)x->ops);
	if (workload_submit(x, &b, targets, 1))
		return -1;
	x->ops++;
	x->bytes += THRASH_OBJ;
	if (x->ops % THRASH_FRAME == 0)
		bm_frame_end(&x->bm);
	return 0;
}

static int thrash_finish(struct workload_ctx *x)
{
	struct thrash *t = x->priv;

	if (!x->ops)
		return 0;
	return bm_wait_handle(&x->bm, t->objs[(x->ops - 1) % t->count]);
}

static void thrash_teardown(struct workload_ctx *x)
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

const struct workload workload_thrash = {
	.name = "thrash",
	.summary = "blits into a working set twice the aperture (1 MiB objects)",
	.op = "exec",
	.uploads = false,
	.bytes = false,
	.verb = true,
	.arena_size = 4096,
	.setup = thrash_setup,
	.op_fn = thrash_op,
	.finish = thrash_finish,
	.teardown = thrash_teardown,
};
