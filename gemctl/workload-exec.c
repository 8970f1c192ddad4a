/*
 * exec-nop and reloc: execbuffer overhead alone, an empty batch per
 * execbuffer and execbuffers of 64 relocations into 8 objects.
 */
#include <errno.h>
#include <stdlib.h>

#include "workload.h"

#define NOP_FRAME	64

struct nop {
	struct bm_buf last;
};

static int nop_setup(struct workload_ctx *x)
{
	x->priv = calloc(1, sizeof(struct nop));
	return x->priv ? 0 : -ENOMEM;
}

static int nop_op(struct workload_ctx *x)
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

static int nop_finish(struct workload_ctx *x)
{
	struct nop *n = x->priv;

	return bm_wait(&x->bm, &n->last);
}

static void nop_teardown(struct workload_ctx *x)
{
	struct nop *n = x->priv;

	if (n)
		bm_put(&x->bm, &n->last);
}


#define RELOC_N		64
#define RELOC_TARGETS	8
#define RELOC_FRAME	16

struct reloc {
	uint32_t tgt[RELOC_TARGETS];
};

static int reloc_setup(struct workload_ctx *x)
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

static int reloc_op(struct workload_ctx *x)
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
		bufs[k] = workload_fixed(r->tgt[k], 4096);
		targets[k] = &bufs[k];
	}
	if (workload_submit(x, &b, targets, RELOC_TARGETS))
		return -1;
	x->ops++;
	if (x->ops % RELOC_FRAME == 0)
		bm_frame_end(&x->bm);
	return 0;
}

static int reloc_finish(struct workload_ctx *x)
{
	struct reloc *r = x->priv;

	return bm_wait_handle(&x->bm, r->tgt[RELOC_TARGETS - 1]);
}

static void reloc_teardown(struct workload_ctx *x)
{
	struct reloc *r = x->priv;
	unsigned int i;

	for (i = 0; r && i < RELOC_TARGETS; i++)
		if (r->tgt[i])
			bm_close(&x->bm, r->tgt[i]);
}

const struct workload workload_exec_nop = {
	.name = "exec-nop",
	.summary = "an empty batch per execbuffer",
	.op = "exec",
	.uploads = false,
	.bytes = false,
	.verb = false,
	.arena_size = 4096,
	.setup = nop_setup,
	.op_fn = nop_op,
	.finish = nop_finish,
	.teardown = nop_teardown,
};

const struct workload workload_reloc = {
	.name = "reloc",
	.summary = "execbuffers of 64 relocations into 8 objects",
	.op = "exec",
	.uploads = false,
	.bytes = false,
	.verb = false,
	.arena_size = 4096,
	.setup = reloc_setup,
	.op_fn = reloc_op,
	.finish = reloc_finish,
	.teardown = reloc_teardown,
};
