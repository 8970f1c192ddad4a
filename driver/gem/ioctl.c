/*
 * The ioctl table (i915_dma.c's i915_ioctls[] and the core DRM ones a
 * render client uses) and the small device-wide ioctls: VERSION,
 * GETPARAM, capabilities, contexts and reset statistics.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "gem_priv.h"
#include "log.h"
#include "util.h"

#define DRIVER_NAME	"i915"
#define DRIVER_DESC	"Intel Graphics"
#define DRIVER_DATE	"20201103"

/* drm_copy_field: copy what fits, report the full length. */
static void copy_field(char *buf, __kernel_size_t *len, const char *value)
{
	size_t n = strlen(value);

	if (buf && *len)
		memcpy(buf, value, MIN(n, (size_t)*len));
	*len = n;
}

GEM_IOCTL(version)
{
	struct drm_version *v = data;

	v->version_major = 1;
	v->version_minor = 6;
	v->version_patchlevel = 0;
	copy_field((char *)v->name, &v->name_len, DRIVER_NAME);
	copy_field((char *)v->date, &v->date_len, DRIVER_DATE);
	copy_field((char *)v->desc, &v->desc_len, DRIVER_DESC);
	return 0;
}

/* An empty unique: drmOpen("i915") treats a non-empty one as "in use". */
GEM_IOCTL(get_unique)
{
	struct drm_unique *u = data;

	u->unique_len = 0;
	return 0;
}

GEM_IOCTL(get_cap)
{
	struct drm_get_cap *cap = data;

	switch (cap->capability) {
	case DRM_CAP_TIMESTAMP_MONOTONIC:
		cap->value = 1;
		return 0;
	case DRM_CAP_PRIME:		/* no dma-buf export on gemd */
	case DRM_CAP_SYNCOBJ:
	case DRM_CAP_SYNCOBJ_TIMELINE:
		cap->value = 0;
		return 0;
	case DRM_CAP_DUMB_BUFFER:
	case DRM_CAP_VBLANK_HIGH_CRTC:
	case DRM_CAP_DUMB_PREFERRED_DEPTH:
	case DRM_CAP_DUMB_PREFER_SHADOW:
	case DRM_CAP_ASYNC_PAGE_FLIP:
	case DRM_CAP_CURSOR_WIDTH:
	case DRM_CAP_CURSOR_HEIGHT:
	case DRM_CAP_ADDFB2_MODIFIERS:
	case DRM_CAP_PAGE_FLIP_TARGET:
	case DRM_CAP_CRTC_IN_VBLANK_EVENT:
		return -EOPNOTSUPP;	/* no KMS: as a render-only driver */
	default:
		return -EINVAL;
	}
}

GEM_IOCTL(set_client_cap)
{
	struct drm_set_client_cap *cap = data;

	if (cap->capability >= 1 && cap->capability <= 6)
		return -EOPNOTSUPP;	/* all need modesetting */
	return -EINVAL;
}

/* GETPARAM answers of a 945G on a modern kernel (i915_getparam.c),
 * advertising only what gemd implements. */
static int getparam_value(int param, int *value)
{
	switch (param) {
	case I915_PARAM_CHIPSET_ID:
		*value = GEN3_DEVID;
		return 0;
	case I915_PARAM_REVISION:
		*value = GEN3_REVISION;
		return 0;
	case I915_PARAM_NUM_FENCES_AVAIL:
		*value = GEN3_NUM_FENCES;
		return 0;
	case I915_PARAM_MMAP_GTT_VERSION:
		*value = 4;
		return 0;
	case I915_PARAM_MMAP_VERSION:
	case I915_PARAM_HAS_GEM:
	case I915_PARAM_HAS_EXECBUF2:
	case I915_PARAM_HAS_RELAXED_FENCING:
	case I915_PARAM_HAS_COHERENT_RINGS:
	case I915_PARAM_HAS_RELAXED_DELTA:
	case I915_PARAM_HAS_WAIT_TIMEOUT:
	case I915_PARAM_HAS_PINNED_BATCHES:
	case I915_PARAM_HAS_EXEC_NO_RELOC:
	case I915_PARAM_HAS_EXEC_HANDLE_LUT:
	case I915_PARAM_HAS_COHERENT_PHYS_GTT:
	case I915_PARAM_HAS_EXEC_ASYNC:
	case I915_PARAM_HAS_EXEC_CAPTURE:
	case I915_PARAM_HAS_EXEC_BATCH_FIRST:
	case I915_PARAM_HAS_GPU_RESET:
		*value = 1;
		return 0;
	case I915_PARAM_HAS_PAGEFLIPPING:
	case I915_PARAM_HAS_OVERLAY:
	case I915_PARAM_HAS_BSD:
	case I915_PARAM_HAS_BLT:
	case I915_PARAM_HAS_VEBOX:
	case I915_PARAM_HAS_BSD2:
	case I915_PARAM_HAS_LLC:
	case I915_PARAM_HAS_WT:
	case I915_PARAM_HAS_ALIASING_PPGTT:
	case I915_PARAM_HAS_SEMAPHORES:
	case I915_PARAM_HAS_SECURE_BATCHES:
	case I915_PARAM_HAS_SCHEDULER:
	case I915_PARAM_HAS_CONTEXT_ISOLATION:
	case I915_PARAM_CMD_PARSER_VERSION:
	case I915_PARAM_HAS_EXEC_SOFTPIN:
	case I915_PARAM_HAS_EXEC_FENCE:
	case I915_PARAM_HAS_EXEC_FENCE_ARRAY:
	case I915_PARAM_HAS_EXEC_SUBMIT_FENCE:
	case I915_PARAM_HAS_EXEC_TIMELINE_FENCES:
	case I915_PARAM_HAS_RESOURCE_STREAMER:
	case I915_PARAM_HAS_GEN7_SOL_RESET:
	case I915_PARAM_HAS_PRIME_VMAP_FLUSH:
	case I915_PARAM_HAS_POOLED_EU:
	case I915_PARAM_MIN_EU_IN_POOL:
	case I915_PARAM_HUC_STATUS:
		*value = 0;
		return 0;
	case I915_PARAM_IRQ_ACTIVE:
	case I915_PARAM_ALLOW_BATCHBUFFER:
	case I915_PARAM_LAST_DISPATCH:
	case I915_PARAM_HAS_EXEC_CONSTANTS:
	case I915_PARAM_SUBSLICE_TOTAL:
	case I915_PARAM_EU_TOTAL:
	case I915_PARAM_SLICE_MASK:
	case I915_PARAM_SUBSLICE_MASK:
		return -ENODEV;
	default:
		return -EINVAL;
	}
}

GEM_IOCTL(getparam)
{
	struct drm_i915_getparam *gp = data;
	int value, ret;

	ret = getparam_value(gp->param, &value);
	if (ret)
		return ret;
	if (!gp->value)
		return -EFAULT;
	*gp->value = value;
	return 0;
}

/* UMS-only parameters: a KMS-era kernel refuses them. */
GEM_IOCTL(setparam)
{
	return -ENODEV;
}

/* gen3 has no logical contexts. */
GEM_IOCTL(context_create)
{
	return -ENODEV;
}

GEM_IOCTL(context_destroy)
{
	struct drm_i915_gem_context_destroy *args = data;

	if (args->pad)
		return -EINVAL;
	return -ENOENT;		/* neither 0 (default) nor anything else exists */
}

GEM_IOCTL(get_reset_stats)
{
	struct drm_i915_reset_stats *args = data;

	if (args->flags || args->pad)
		return -EINVAL;
	if (args->ctx_id != 0)
		return -ENOENT;
	/* gen3 has no contexts: the file's default one stands for it
	 * (driver/gem/hangcheck.c).  gemd has no privileged clients, so
	 * everyone sees the reset count, as CAP_SYS_ADMIN did. */
	args->reset_count = (uint32_t)file->dev->stats.resets;
	args->batch_active = file->batch_active;
	args->batch_pending = file->batch_pending;
	return 0;
}

/* No register is whitelisted for REG_READ on gen3. */
GEM_IOCTL(reg_read)
{
	return -EINVAL;
}

struct gem_ioctl_desc {
	unsigned int nr;
	const char *name;
	int (*handler)(struct gem_file *file, void *data, struct gem_call *call);
	unsigned int size;	/* the kernel's struct size */
	bool unlocked;		/* does not need struct_mutex */
};

#define CORE(ioctl, fn, type) \
	{ _IOC_NR(DRM_IOCTL_##ioctl), #ioctl, gem_##fn##_ioctl, sizeof(type), true }
#define I915(ioctl, fn, type) \
	{ DRM_COMMAND_BASE + DRM_I915_##ioctl, "I915_" #ioctl, gem_##fn##_ioctl, sizeof(type), false }
#define I915_NOARG(ioctl, fn) \
	{ DRM_COMMAND_BASE + DRM_I915_##ioctl, "I915_" #ioctl, gem_##fn##_ioctl, 0, false }

static const struct gem_ioctl_desc gem_ioctls[] = {
	CORE(VERSION, version, struct drm_version),
	CORE(GET_UNIQUE, get_unique, struct drm_unique),
	CORE(GET_CAP, get_cap, struct drm_get_cap),
	CORE(SET_CLIENT_CAP, set_client_cap, struct drm_set_client_cap),
	{ _IOC_NR(DRM_IOCTL_GEM_CLOSE), "GEM_CLOSE", gem_close_ioctl,
	  sizeof(struct drm_gem_close), false },
	{ _IOC_NR(DRM_IOCTL_GEM_FLINK), "GEM_FLINK", gem_flink_ioctl,
	  sizeof(struct drm_gem_flink), false },
	{ _IOC_NR(DRM_IOCTL_GEM_OPEN), "GEM_OPEN", gem_open_ioctl,
	  sizeof(struct drm_gem_open), false },
	I915(GETPARAM, getparam, struct drm_i915_getparam),
	I915(SETPARAM, setparam, struct drm_i915_setparam),
	I915(GEM_EXECBUFFER, execbuffer, struct drm_i915_gem_execbuffer),
	I915(GEM_PIN, pin, struct drm_i915_gem_pin),
	I915(GEM_UNPIN, unpin, struct drm_i915_gem_unpin),
	I915(GEM_BUSY, busy, struct drm_i915_gem_busy),
	I915_NOARG(GEM_THROTTLE, throttle),
	I915(GEM_CREATE, create, struct drm_i915_gem_create),
	I915(GEM_PREAD, pread, struct drm_i915_gem_pread),
	I915(GEM_PWRITE, pwrite, struct drm_i915_gem_pwrite),
	I915(GEM_MMAP, mmap, struct drm_i915_gem_mmap),
	I915(GEM_SET_DOMAIN, set_domain, struct drm_i915_gem_set_domain),
	I915(GEM_SW_FINISH, sw_finish, struct drm_i915_gem_sw_finish),
	I915(GEM_SET_TILING, set_tiling, struct drm_i915_gem_set_tiling),
	I915(GEM_GET_TILING, get_tiling, struct drm_i915_gem_get_tiling),
	I915(GEM_GET_APERTURE, get_aperture, struct drm_i915_gem_get_aperture),
	I915(GEM_MMAP_GTT, mmap_gtt, struct drm_i915_gem_mmap_offset),
	I915(GEM_MADVISE, madvise, struct drm_i915_gem_madvise),
	I915(GEM_EXECBUFFER2, execbuffer2, struct drm_i915_gem_execbuffer2),
	I915(GEM_WAIT, wait, struct drm_i915_gem_wait),
	I915(GEM_CONTEXT_CREATE, context_create, struct drm_i915_gem_context_create_ext),
	I915(GEM_CONTEXT_DESTROY, context_destroy, struct drm_i915_gem_context_destroy),
	I915(GEM_SET_CACHING, set_caching, struct drm_i915_gem_caching),
	I915(GEM_GET_CACHING, get_caching, struct drm_i915_gem_caching),
	I915(REG_READ, reg_read, struct drm_i915_reg_read),
	I915(GET_RESET_STATS, get_reset_stats, struct drm_i915_reset_stats),
	I915(GEM_CREATE_EXT, create_ext, struct drm_i915_gem_create_ext),
};

static const struct gem_ioctl_desc *gem_ioctl_find(unsigned int cmd)
{
	unsigned int nr = _IOC_NR(cmd), i;

	for (i = 0; i < ARRAY_SIZE(gem_ioctls); i++)
		if (gem_ioctls[i].nr == nr)
			return &gem_ioctls[i];
	return NULL;
}

int gem_ioctl_size(unsigned int cmd)
{
	const struct gem_ioctl_desc *desc = gem_ioctl_find(cmd);

	return desc ? (int)desc->size : -EINVAL;
}

int gem_ioctl(struct gem_file *file, unsigned int cmd, void *arg,
	      struct gem_call *call)
{
	const struct gem_ioctl_desc *desc = gem_ioctl_find(cmd);
	int ret;

	if (!desc)
		return -EINVAL;
	if (desc->size && !arg)
		return -EFAULT;
	call->has_loc = false;
	if (desc->unlocked)
		return desc->handler(file, arg, call);
	gem_ioctl_enter(file);
	ret = desc->handler(file, arg, call);
	gem_ioctl_exit(file, desc->name);
	if (ret && ret != -ETIME && ret != -ENOENT && ret != -EINVAL)
		log_debug("file %u (%s): %s: %s", file->id, file->comm, desc->name,
			  strerror(-ret));
	return ret;
}
