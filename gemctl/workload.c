/* Running workloads: one thread per client, results summed (workload.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <drm.h>
#include <i915_drm.h>

#include "batchbuffer.h"
#include "libgem.h"
#include "util.h"
#include "workload.h"

const struct workload workloads[] = {
	{ "gears", "many small batches and small per-frame uploads", workload_gears },
	{ "texdown", "large uploads, each blitted out (Mesa's texdown)", workload_texdown },
	{ "ipers", "many small allocations, each drawn into and freed", workload_ipers },
	{ "thrash", "a working set twice the aperture: binds evict", workload_thrash },
};
const unsigned int nworkloads = ARRAY_SIZE(workloads);

const struct workload *workload_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < nworkloads; i++)
		if (!strcmp(workloads[i].name, name))
			return &workloads[i];
	return NULL;
}

bool workload_done(const struct workload_client *c)
{
	if (c->res.error)
		return true;
	if (c->params->stop && *c->params->stop)
		return true;
	return now_ns() >= c->deadline;
}

void workload_fail(struct workload_client *c, const char *op, int err)
{
	if (!c->res.error) {
		c->res.error = err;
		c->res.failed_op = op;
	}
}

int wl_create(struct workload_client *c, uint64_t size, uint32_t *handle)
{
	struct drm_i915_gem_create arg = { .size = size };

	if (gem_ioctl(c->fd, DRM_IOCTL_I915_GEM_CREATE, &arg)) {
		workload_fail(c, "DRM_IOCTL_I915_GEM_CREATE", -errno);
		return -1;
	}
	*handle = arg.handle;
	return 0;
}

void wl_close(struct workload_client *c, uint32_t handle)
{
	struct drm_gem_close arg = { .handle = handle };

	gem_ioctl(c->fd, DRM_IOCTL_GEM_CLOSE, &arg);
}

int wl_pwrite(struct workload_client *c, uint32_t handle, uint64_t off,
	      const void *data, uint64_t len)
{
	struct drm_i915_gem_pwrite arg = {
		.handle = handle, .offset = off, .size = len,
		.data_ptr = (uintptr_t)data,
	};

	if (gem_ioctl(c->fd, DRM_IOCTL_I915_GEM_PWRITE, &arg)) {
		workload_fail(c, "DRM_IOCTL_I915_GEM_PWRITE", -errno);
		return -1;
	}
	c->res.bytes += len;
	return 0;
}

int wl_wait(struct workload_client *c, uint32_t handle)
{
	struct drm_i915_gem_wait arg = { .bo_handle = handle, .timeout_ns = -1 };

	if (gem_ioctl(c->fd, DRM_IOCTL_I915_GEM_WAIT, &arg)) {
		workload_fail(c, "DRM_IOCTL_I915_GEM_WAIT", -errno);
		return -1;
	}
	return 0;
}

int wl_submit(struct workload_client *c, struct gen3_batch *b, uint32_t batch,
	      const uint32_t *handles, unsigned int n)
{
	const struct gen3_exec x = { .batch = batch, .handles = handles, .n = n };
	int ret = gen3_batch_submit(gem_ioctl, c->fd, b, &x, NULL);

	if (ret) {
		workload_fail(c, "DRM_IOCTL_I915_GEM_EXECBUFFER2", ret);
		return -1;
	}
	c->res.ops++;
	return 0;
}

static void *client_main(void *arg)
{
	struct workload_client *c = arg;

	c->workload->client(c);
	return NULL;
}

int workload_run(const struct workload *w, const struct workload_params *params,
		 struct workload_result *res)
{
	struct workload_client *cl;
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
	start = now_ns();
	for (i = 0; i < params->clients; i++) {
		cl[i].params = params;
		cl[i].index = i;
		cl[i].deadline = start + params->duration_ns;
		cl[i].workload = w;
		if (pthread_create(&tids[i], NULL, client_main, &cl[i])) {
			res->error = -EAGAIN;
			res->failed_op = "pthread_create";
			break;
		}
		started++;
	}
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
	i = params->clients;
close_fds:
	while (i--)
		if (cl[i].fd >= 0)
			gem_close(cl[i].fd);
	free(cl);
	free(tids);
	return res->error;
}
