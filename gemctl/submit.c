/* Batch submission and surfaces for the verbs that assemble batches. */
#include <string.h>

#include <drm.h>
#include <i915_drm.h>

#include "bufmgr.h"
#include "session.h"
#include "submit.h"
#include "util.h"

uint64_t gemctl_surface_flags(const struct gen3_surf *s)
{
	return s->tiling != I915_TILING_NONE ? EXEC_OBJECT_NEEDS_FENCE : 0;
}

/* Through the bufmgr's submission (bm_exec), as the workloads submit. */
static int submit(struct gemctl *ctl, struct gen3_batch *b, uint32_t batch,
		  const uint32_t *handles, const uint64_t *obj_flags,
		  unsigned int n)
{
	struct bm_buf bufs[BM_MAX_OBJECTS], bb = { .handle = batch };
	const struct bm_buf *targets[BM_MAX_OBJECTS];
	struct bufmgr bm;
	unsigned int i;
	int ret;

	if (n > BM_MAX_OBJECTS)
		return gemctl_error(ctl, GEMCTL_FAILED, "batch too large");
	ret = bm_init(&bm, ctl->fd, BM_ALLOC, BM_PWRITE, 0);
	if (ret)
		return gemctl_error(ctl, GEMCTL_FAILED, "out of memory");
	for (i = 0; i < n; i++) {
		bufs[i] = (struct bm_buf){ .handle = handles[i],
					   .flags = obj_flags ? obj_flags[i] : 0 };
		targets[i] = &bufs[i];
	}
	if (bm_exec(&bm, b, &bb, targets, n)) {
		ret = strcmp(bm.failed_op, "DRM_IOCTL_I915_GEM_EXECBUFFER2") ?
		      gemctl_ioctl_error(ctl, bm.failed_op, -bm.error, "batch") :
		      gemctl_ioctl_error(ctl, bm.failed_op, -bm.error,
					 "%u object(s)", n + 1);
	}
	bm_fini(&bm);
	return ret;
}

int gemctl_submit(struct gemctl *ctl, struct gen3_batch *b, const uint32_t *handles,
		  const uint64_t *obj_flags, unsigned int n, uint32_t *batch_out)
{
	struct drm_i915_gem_create create = { .size = 4096 };
	struct drm_gem_close cl = { 0 };
	unsigned int i;
	int ret;

	if (b->overflow)
		return gemctl_error(ctl, GEMCTL_FAILED, "batch too large");
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_CREATE, &create);
	if (ret)
		return gemctl_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_CREATE", -ret,
					  "batch");
	for (i = 0; i < b->nreloc; i++)
		if (!b->reloc[i].target_handle)
			b->reloc[i].target_handle = create.handle;
	ret = submit(ctl, b, create.handle, handles, obj_flags, n);
	if (ret || !batch_out) {
		cl.handle = create.handle;
		gemctl_ioctl(ctl, DRM_IOCTL_GEM_CLOSE, &cl);
	}
	if (ret)
		return ret;
	if (batch_out) {
		gemctl_handle_add(ctl, create.handle, create.size);
		*batch_out = create.handle;
	}
	return GEMCTL_OK;
}

int gemctl_surface(struct gemctl *ctl, uint32_t handle, uint32_t pitch,
		   uint32_t bpp, uint32_t width, struct gen3_surf *out)
{
	struct drm_i915_gem_get_tiling gt = { .handle = handle };
	int ret;

	if (bpp != 8 && bpp != 16 && bpp != 32)
		return gemctl_error(ctl, GEMCTL_USAGE, "bpp %u is not 8, 16 or 32", bpp);
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_GET_TILING, &gt);
	if (ret)
		return gemctl_handle_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_GET_TILING", -ret, handle,
					  "handle %u", handle);
	out->handle = handle;
	out->cpp = bpp / 8;
	out->tiling = gt.tiling_mode;
	out->size = gemctl_handle_size(ctl, handle);
	if (!pitch && out->tiling != I915_TILING_NONE)
		return gemctl_error(ctl, GEMCTL_USAGE,
				    "handle %u is tiled: give --pitch (its stride)",
				    handle);
	if (!pitch)
		pitch = ALIGN_UP(width * out->cpp, 64u);
	if (pitch > 0x7fff * 4 || pitch % 4)
		return gemctl_error(ctl, GEMCTL_USAGE,
				    "pitch %u is not a multiple of 4 below 128 KiB", pitch);
	out->pitch = pitch;
	return GEMCTL_OK;
}
