/*
 * The workload table, one client's run (begin, loop, end), `gemctl
 * workload`'s threads, and the building blocks the workloads share
 * (workload.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <drm.h>
#include <i915_drm.h>

#include "libgem.h"
#include "util.h"
#include "workload.h"

const struct workload *const workloads[] = {
	&workload_texdown,
	&workload_texdown_subimage,
	&workload_gears,
	&workload_ipers,
	&workload_exec_nop,
	&workload_reloc,
	&workload_thrash,
};
const unsigned int nworkloads = ARRAY_SIZE(workloads);

const struct workload *workload_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < nworkloads; i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}

/* --- one client's run -------------------------------------------------------- */

int workload_begin(struct workload_ctx *x, const struct workload *w, int fd,
		   const struct workload_strategy *s, uint8_t *src,
		   unsigned int clients)
{
	struct drm_i915_gem_get_aperture ap = { 0 };
	int ret;

	memset(x, 0, sizeof(*x));
	x->src = src;
	x->clients = clients ? clients : 1;
	ret = bm_init(&x->bm, fd, s->alloc, s->upload, w->arena_size);
	if (ret) {
		x->bm.error = ret;
		x->bm.failed_op = "malloc";
		return ret;
	}
	if (bm_ioctl(&x->bm, DRM_IOCTL_I915_GEM_GET_APERTURE, &ap,
		     "DRM_IOCTL_I915_GEM_GET_APERTURE"))
		return x->bm.error;
	x->aperture = ap.aper_size;
	ret = w->setup(x);
	if (ret && !x->bm.error) {
		x->bm.error = ret;
		x->bm.failed_op = "malloc";
	}
	return x->bm.error;
}

void workload_loop(struct workload_ctx *x, const struct workload *w,
		   uint64_t deadline, volatile sig_atomic_t *stop)
{
	do {
		if (w->op_fn(x))
			break;
		if (x->live) {
			atomic_store_explicit(&x->live->ops, x->ops, memory_order_relaxed);
			atomic_store_explicit(&x->live->bytes, x->bytes, memory_order_relaxed);
		}
	} while (now_ns() < deadline && !(stop && *stop));
	if (!x->bm.error)
		w->finish(x);
}

int workload_end(struct workload_ctx *x, const struct workload *w,
		 const char **failed_op)
{
	int ret = x->bm.error;

	*failed_op = x->bm.failed_op;
	if (x->priv)
		w->teardown(x);
	bm_fini(&x->bm);
	free(x->priv);
	x->priv = NULL;
	return ret;
}

/* --- `gemctl workload`: one thread per client ------------------------------- */

struct client {
	const struct workload *w;
	const struct workload_params *params;
	int fd;
	uint64_t deadline;
	struct workload_result res;
	struct workload_live live;
	struct run *run;
};

/* What workload_run's thread waits on: clients done, or the next tick. */
struct run {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int done;
};

static void client_done(struct run *run)
{
	pthread_mutex_lock(&run->lock);
	run->done++;
	pthread_cond_signal(&run->cond);
	pthread_mutex_unlock(&run->lock);
}

/* Wait for the clients, reporting progress every interval meanwhile. */
static void wait_clients(struct run *run, const struct workload_params *params,
			 struct client *cl, unsigned int started, uint64_t start)
{
	uint64_t next = start + params->interval_ns;
	struct workload_result sofar;
	struct timespec ts;
	unsigned int i;

	pthread_mutex_lock(&run->lock);
	while (run->done < started) {
		if (!params->progress || !params->interval_ns) {
			pthread_cond_wait(&run->cond, &run->lock);
			continue;
		}
		ts.tv_sec = (time_t)(next / 1000000000ull);
		ts.tv_nsec = (long)(next % 1000000000ull);
		if (pthread_cond_timedwait(&run->cond, &run->lock, &ts) != ETIMEDOUT)
			continue;
		pthread_mutex_unlock(&run->lock);
		memset(&sofar, 0, sizeof(sofar));
		for (i = 0; i < started; i++) {
			sofar.ops += atomic_load_explicit(&cl[i].live.ops, memory_order_relaxed);
			sofar.bytes += atomic_load_explicit(&cl[i].live.bytes, memory_order_relaxed);
		}
		sofar.elapsed_ns = now_ns() - start;
		params->progress(params->progress_arg, &sofar);
		next += params->interval_ns;
		pthread_mutex_lock(&run->lock);
	}
	pthread_mutex_unlock(&run->lock);
}

static void *client_main(void *arg)
{
	struct client *c = arg;
	struct workload_ctx x;
	uint8_t *src = NULL;

	/* Only the workloads that upload read (and scribble on) src. */
	if (c->w->uploads) {
		src = malloc(WORKLOAD_SRC_BYTES);
		if (!src) {
			c->res.error = -ENOMEM;
			c->res.failed_op = "malloc";
			client_done(c->run);
			return NULL;
		}
		memset(src, 0x5a, WORKLOAD_SRC_BYTES);
	}
	if (!workload_begin(&x, c->w, c->fd, &c->params->strategy, src,
			    c->params->clients)) {
		x.live = &c->live;
		workload_loop(&x, c->w, c->deadline, c->params->stop);
	}
	c->res.ops = x.ops;
	c->res.bytes = x.bytes;
	c->res.error = workload_end(&x, c->w, &c->res.failed_op);
	free(src);
	client_done(c->run);
	return NULL;
}

int workload_run(const struct workload *w, const struct workload_params *params,
		 struct workload_result *res)
{
	struct run run = { .done = 0 };
	pthread_condattr_t ca;
	struct client *cl;
	pthread_t *tids;
	uint64_t start;
	unsigned int i, started = 0;

	memset(res, 0, sizeof(*res));
	cl = calloc(params->clients, sizeof(*cl));
	tids = calloc(params->clients, sizeof(*tids));
	if (!cl || !tids) {
		free(cl);
		free(tids);
		return res->error = -ENOMEM;
	}
	for (i = 0; i < params->clients; i++) {
		cl[i].fd = gem_open(params->device, O_RDWR | O_CLOEXEC);
		if (cl[i].fd < 0) {
			res->error = -errno;
			res->failed_op = "gem_open";
			goto close_fds;
		}
	}
	/* now_ns()'s clock, so a tick is a deadline in its time. */
	pthread_mutex_init(&run.lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&run.cond, &ca);
	pthread_condattr_destroy(&ca);
	start = now_ns();
	for (i = 0; i < params->clients; i++) {
		cl[i].w = w;
		cl[i].params = params;
		cl[i].run = &run;
		cl[i].deadline = start + params->duration_ns;
		if (pthread_create(&tids[i], NULL, client_main, &cl[i])) {
			res->error = -EAGAIN;
			res->failed_op = "pthread_create";
			break;
		}
		started++;
	}
	wait_clients(&run, params, cl, started, start);
	for (i = 0; i < started; i++) {
		pthread_join(tids[i], NULL);
		res->ops += cl[i].res.ops;
		res->bytes += cl[i].res.bytes;
		if (!res->error && cl[i].res.error) {
			res->error = cl[i].res.error;
			res->failed_op = cl[i].res.failed_op;
		}
	}
	res->elapsed_ns = now_ns() - start;
	res->stopped = params->stop && *params->stop;
	pthread_cond_destroy(&run.cond);
	pthread_mutex_destroy(&run.lock);
	i = params->clients;
close_fds:
	while (i--)
		if (cl[i].fd >= 0)
			gem_close(cl[i].fd);
	free(cl);
	free(tids);
	return res->error;
}

/* --- building blocks ------------------------------------------------------------ */

struct bm_buf workload_fixed(uint32_t handle, uint64_t size)
{
	return (struct bm_buf){ .handle = handle, .size = size };
}

/* A relocation's target moved by a sub-allocated buffer's offset. */
static void reloc_add(struct gen3_batch *b, unsigned int idx, uint64_t off)
{
	if (idx >= b->nreloc || !off)
		return;
	b->reloc[idx].delta += (uint32_t)off;
	b->dw[b->reloc[idx].offset / 4] += (uint32_t)off;
}

void workload_emit_color(struct gen3_batch *b, const struct bm_buf *dst,
			 uint32_t pitch, struct gen3_rect r, uint32_t color)
{
	struct gen3_surf s = {
		.handle = dst->handle, .pitch = pitch, .cpp = 4, .size = dst->size,
	};

	gen3_emit_color_blt(b, &s, &r, color);
	reloc_add(b, b->nreloc - 1, dst->offset);
}

void workload_emit_copy(struct gen3_batch *b, const struct bm_buf *dst,
			uint32_t dpitch, int dx, int dy, const struct bm_buf *src,
			uint32_t spitch, int w, int h)
{
	struct gen3_surf d = { .handle = dst->handle, .pitch = dpitch, .cpp = 4 };
	struct gen3_surf s = { .handle = src->handle, .pitch = spitch, .cpp = 4 };

	gen3_emit_copy_blt(b, &d, dx, dy, &s, 0, 0, w, h);
	reloc_add(b, b->nreloc - 2, dst->offset);
	reloc_add(b, b->nreloc - 1, src->offset);
}

int workload_submit(struct workload_ctx *x, struct gen3_batch *b,
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
