/*
 * thrash: a working set twice the aperture (GET_APERTURE), split between
 * the clients in 1 MiB objects and touched round-robin with a blit each,
 * so nearly every bind must evict.  An op is one execution; bytes counts
 * the bytes bound.
 */
#include <errno.h>
#include <stdlib.h>

#include <drm.h>
#include <i915_drm.h>

#include "batchbuffer.h"
#include "libgem.h"
#include "workload.h"

#define THRASH_OBJ	(1ull << 20)

void workload_thrash(struct workload_client *c)
{
	struct drm_i915_gem_get_aperture ap = { 0 };
	struct gen3_surf s = { .cpp = 4, .pitch = 4096, .size = THRASH_OBJ };
	uint32_t *objs = NULL, batch = 0;
	uint64_t count, n = 0, i;
	struct gen3_batch b;

	if (gem_ioctl(c->fd, DRM_IOCTL_I915_GEM_GET_APERTURE, &ap)) {
		workload_fail(c, "DRM_IOCTL_I915_GEM_GET_APERTURE", -errno);
		return;
	}
	count = 2 * ap.aper_size / THRASH_OBJ / c->params->clients;
	if (count < 2)
		count = 2;
	objs = calloc(count, sizeof(*objs));
	if (!objs) {
		workload_fail(c, "calloc", -ENOMEM);
		return;
	}
	for (i = 0; i < count; i++)
		if (wl_create(c, THRASH_OBJ, &objs[i]))
			goto out;
	if (wl_create(c, 4096, &batch))
		goto out;
	while (!workload_done(c)) {
		s.handle = objs[n % count];
		gen3_batch_reset(&b);
		gen3_emit_color_blt(&b, &s, &(struct gen3_rect){ 0, 0, 16, 16 }, (uint32_t)n);
		gen3_batch_end(&b);
		if (wl_submit(c, &b, batch, &s.handle, 1))
			break;
		c->res.bytes += THRASH_OBJ;
		n++;
	}
out:
	if (batch)
		wl_close(c, batch);
	for (i = 0; i < count; i++)
		if (objs[i])
			wl_close(c, objs[i]);
	free(objs);
}
