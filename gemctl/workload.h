/*
 * Workloads: synthetic clients that stress the driver the way real ones
 * do, for `gemctl workload`, ./run-demo and the benchmark.  Each runs
 * params.clients threads, each with its own drm_file (gem_open), until
 * params.duration_ns passes, and reports what it did; printing is the
 * caller's business.
 *
 *   gears    many small batches and small per-frame uploads (glxgears)
 *   texdown  large uploads then a blit out of each (Mesa's texdown)
 *   ipers    many small allocations, each drawn into and dropped (ipers)
 *   thrash   a working set twice the aperture, so binds evict
 */
#ifndef GEMKIT_GEMCTL_WORKLOAD_H
#define GEMKIT_GEMCTL_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

struct workload_params {
	const char *device;		/* NULL: the device path rule */
	uint64_t duration_ns;
	unsigned int clients;		/* >= 1 */
	volatile int *stop;		/* may be NULL: set non-zero to stop early */
};

struct workload_result {
	uint64_t ops;			/* frames, uploads, draws, executions */
	uint64_t bytes;			/* bytes uploaded or blitted */
	uint64_t elapsed_ns;
	int error;			/* 0, or the first client's -errno */
	const char *failed_op;		/* what failed ("DRM_IOCTL_..."), or NULL */
};

/* One client's loop: fd is its own device fd. */
struct workload_client {
	const struct workload *workload;
	int fd;
	const struct workload_params *params;
	uint64_t deadline;
	unsigned int index;
	struct workload_result res;
};

struct workload {
	const char *name;
	const char *summary;
	void (*client)(struct workload_client *c);
};

extern const struct workload workloads[];
extern const unsigned int nworkloads;
const struct workload *workload_find(const char *name);

/* Run w with params; the result sums every client's.  Returns 0 or the
 * first -errno (also in res->error). */
int workload_run(const struct workload *w, const struct workload_params *params,
		 struct workload_result *res);

/* For the client loops: should c stop now? */
bool workload_done(const struct workload_client *c);
/* Record a failure (keeps the first). */
void workload_fail(struct workload_client *c, const char *op, int err);

/* The clients' building blocks (workload.c). */
int wl_create(struct workload_client *c, uint64_t size, uint32_t *handle);
void wl_close(struct workload_client *c, uint32_t handle);
int wl_pwrite(struct workload_client *c, uint32_t handle, uint64_t off,
	      const void *data, uint64_t len);
int wl_wait(struct workload_client *c, uint32_t handle);

/* Submit b (lib/gen3/batchbuffer.h) in batch object 'batch' with handles[0..n);
 * counts one op.  Returns 0 or -1 (failure recorded). */
struct gen3_batch;
int wl_submit(struct workload_client *c, struct gen3_batch *b, uint32_t batch,
	      const uint32_t *handles, unsigned int n);

void workload_gears(struct workload_client *c);
void workload_texdown(struct workload_client *c);
void workload_ipers(struct workload_client *c);
void workload_thrash(struct workload_client *c);

#endif
