/*
 * Workloads: synthetic clients that stress the driver the way real ones
 * do, each a model of one of the seed benchmarks, written on the buffer
 * manager (bufmgr.h) so that one loop runs under every strategy.  Both
 * `gemctl bench` (bench.c: one client, measured, strategy by strategy)
 * and `gemctl workload` (workload_run: N clients, each with its own
 * drm_file, one strategy) run them through workload_begin, _loop and
 * _end, so the two verbs run the same code.
 *
 *   texdown           4 MiB texture uploads, each blitted (Mesa's texdown)
 *   texdown-subimage  64x64 updates through a staging buffer
 *   gears             frames of small batches with small uploads (glxgears)
 *   ipers             frames of small objects, each drawn into (ipers)
 *   exec-nop, reloc   execbuffer overhead, empty and with relocations
 *   thrash            a working set twice the aperture, so binds evict
 *
 * Objects that live as long as the workload (render targets, the textures
 * texdown-subimage updates, thrash's working set) are created in setup,
 * outside a measured window; everything a GL driver would allocate per
 * use goes through bm_get/bm_put inside it.
 */
#ifndef GEMKIT_GEMCTL_WORKLOAD_H
#define GEMKIT_GEMCTL_WORKLOAD_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "batchbuffer.h"
#include "bufmgr.h"

/* Source data a client uploads from (ops scribble on it). */
#define WORKLOAD_SRC_BYTES	(4u << 20)

/* One client running one workload. */
struct workload_ctx {
	struct bufmgr bm;
	uint64_t ops, bytes;		/* counted by the workload */
	uint64_t aperture;		/* GET_APERTURE */
	unsigned int clients;		/* clients sharing the device (>= 1) */
	uint8_t *src;			/* WORKLOAD_SRC_BYTES of source data */
	void *priv;			/* the workload's state */
	/* NULL, or where ops and bytes are published after every op for
	 * another thread to read (`gemctl workload`'s progress). */
	struct workload_live *live;
};

struct workload_live {
	_Atomic uint64_t ops, bytes;
};

struct workload {
	const char *name;
	const char *summary;
	const char *op;			/* what one op is: "upload", "frame", ... */
	bool uploads;			/* uploads from src: the upload paths apply */
	bool bytes;			/* report MB/s of uploaded bytes */
	bool verb;			/* `gemctl workload` offers it too */
	uint64_t arena_size;		/* suballoc: the frame's data object */
	int (*setup)(struct workload_ctx *x);
	int (*op_fn)(struct workload_ctx *x);
	/* Wait for the GPU to finish what the ops queued. */
	int (*finish)(struct workload_ctx *x);
	void (*teardown)(struct workload_ctx *x);
};

/* Every workload, in the order bench runs them. */
extern const struct workload *const workloads[];
extern const unsigned int nworkloads;
const struct workload *workload_find(const char *name);

/* The buffer manager a client runs under. */
struct workload_strategy {
	enum bm_strategy alloc;
	enum bm_upload upload;
};

/*
 * One client's run on fd, in three steps so that bench can measure the
 * window between them: begin (the bufmgr, GET_APERTURE, setup), loop
 * (ops until deadline or *stop, then finish), end (teardown, the
 * bufmgr's objects closed).  begin and end return 0 or the first -errno,
 * with *failed_op naming the request; end must follow begin either way.
 */
int workload_begin(struct workload_ctx *x, const struct workload *w, int fd,
		   const struct workload_strategy *s, uint8_t *src,
		   unsigned int clients);
void workload_loop(struct workload_ctx *x, const struct workload *w,
		   uint64_t deadline, volatile sig_atomic_t *stop);
int workload_end(struct workload_ctx *x, const struct workload *w,
		 const char **failed_op);

/* `gemctl workload`: clients threads, each with its own drm_file. */
struct workload_result;
struct workload_params {
	const char *device;		/* NULL: the device path rule */
	uint64_t duration_ns;
	unsigned int clients;		/* >= 1 */
	struct workload_strategy strategy;
	volatile sig_atomic_t *stop;	/* may be NULL: non-zero stops early */
	/* Called by workload_run's thread every interval_ns while the
	 * clients run (0 or NULL: never), with what they did so far. */
	uint64_t interval_ns;
	void (*progress)(void *arg, const struct workload_result *sofar);
	void *progress_arg;
};

struct workload_result {
	uint64_t ops;			/* frames, uploads, draws, executions */
	uint64_t bytes;			/* bytes uploaded or blitted */
	uint64_t elapsed_ns;
	int error;			/* 0, or the first client's -errno */
	const char *failed_op;		/* what failed ("DRM_IOCTL_..."), or NULL */
	bool stopped;			/* *stop ended it before the duration */
};

/* Run w with params; the result sums every client's.  Returns 0 or the
 * first -errno (also in res->error). */
int workload_run(const struct workload *w, const struct workload_params *params,
		 struct workload_result *res);

/* --- the workloads' building blocks (workload.c) -------------------------- */

/* An object outside any strategy, as a bm_buf. */
struct bm_buf workload_fixed(uint32_t handle, uint64_t size);
/* XY_COLOR_BLT of r into dst (32 bpp, pitch bytes), and XY_SRC_COPY_BLT
 * of w x h from src's origin to (dx, dy) in dst; relocations carry the
 * buffers' offsets within their objects (sub-allocation). */
void workload_emit_color(struct gen3_batch *b, const struct bm_buf *dst,
			 uint32_t pitch, struct gen3_rect r, uint32_t color);
void workload_emit_copy(struct gen3_batch *b, const struct bm_buf *dst,
			uint32_t dpitch, int dx, int dy, const struct bm_buf *src,
			uint32_t spitch, int w, int h);
/* End b, put it in a batch buffer from the strategy, submit it with the
 * targets and give the batch buffer back.  0 or -1 (bm->error). */
int workload_submit(struct workload_ctx *x, struct gen3_batch *b,
		    const struct bm_buf *const *targets, unsigned int n);

/* The workloads, one file each (workload-NAME.c). */
extern const struct workload workload_texdown, workload_texdown_subimage,
	workload_gears, workload_ipers, workload_exec_nop, workload_reloc,
	workload_thrash;

#endif
