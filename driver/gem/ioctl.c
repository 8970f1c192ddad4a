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

int gem_version_ioctl(struct gem_file *file, void *data, struct gem_call *call)
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
int gem_get_unique_ioctl(struct gem_file *file, void *data,
			 struct gem_call *call)
{
	struct drm_unique *u = data;

	u->unique_len = 0;
	return 0;
}

int gem_get_cap_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_get_cap *cap = data;

	switch (cap->capability) {
	case DRM_CAP_TIMESTAMP_MONOTONIC:
		cap->value = 1;
		return 0;
	case DRM_CAP_PRIME:		/* prime.c */
		cap->value = DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT;
		return 0;
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

int gem_set_client_cap_ioctl(struct gem_file *file, void *data,
			     struct gem_call *call)
{
	struct drm_set_client_cap *cap = data;

	if (cap->capability >= 1 && cap->capability <= 6)
		return -EOPNOTSUPP;	/* all need modesetting */
	return -EINVAL;
}

/* GETPARAM answers of a 945G on a modern kernel (i915_getparam.c),
 * advertising only what gemd implements. */
static int getparam_value(struct gem_device *dev, const struct gem_call *call,
			  int param, int *value)
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
	case I915_PARAM_HAS_EXEC_SOFTPIN:
	case I915_PARAM_HAS_EXEC_FENCE:
	case I915_PARAM_HAS_USERPTR_PROBE:	/* userptr.c */
		*value = 1;
		return 0;
	case I915_PARAM_HAS_SECURE_BATCHES:
		/* HAS_SECURE_BATCHES (gen < 6) && capable(CAP_SYS_ADMIN) */
		*value = call->caller_admin;
		return 0;
	case I915_PARAM_HAS_GPU_RESET:
		/* i915.enable_hangcheck and i915.reset (params.def) */
		*value = gem_has_gpu_reset(dev);
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
	case I915_PARAM_HAS_SCHEDULER:
	case I915_PARAM_HAS_CONTEXT_ISOLATION:
	case I915_PARAM_CMD_PARSER_VERSION:
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

int gem_getparam_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_i915_getparam *gp = data;
	int value, ret;

	ret = getparam_value(file->dev, call, gp->param, &value);
	if (ret)
		return ret;
	if (!gp->value)
		return -EFAULT;
	*gp->value = value;
	return 0;
}

/* UMS-only parameters: a KMS-era kernel refuses them. */
int gem_setparam_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	return -ENODEV;
}

/* gen3 has no logical contexts. */
int gem_context_create_ioctl(struct gem_file *file, void *data,
			     struct gem_call *call)
{
	return -ENODEV;
}

int gem_context_destroy_ioctl(struct gem_file *file, void *data,
			      struct gem_call *call)
{
	struct drm_i915_gem_context_destroy *args = data;

	if (args->pad)
		return -EINVAL;
	return -ENOENT;		/* neither 0 (default) nor anything else exists */
}

/*
 * The parameters of the file's default context, as Linux 4.14 answers on
 * a 945G: the default context (0) is the only one, it is bannable, errors
 * are captured, and with no PPGTT its address space is the global GTT,
 * as large as the aperture on gen3.  size reads back 0 once the context
 * is found, even when the parameter is refused (drm_ioctl copies the
 * struct out either way).
 */
int gem_context_getparam_ioctl(struct gem_file *file, void *data,
			       struct gem_call *call)
{
	struct drm_i915_gem_context_param *args = data;

	if (args->ctx_id != 0)
		return -ENOENT;
	args->size = 0;
	switch (args->param) {
	case I915_CONTEXT_PARAM_NO_ZEROMAP:
		args->value = file->no_zeromap;
		return 0;
	case I915_CONTEXT_PARAM_NO_ERROR_CAPTURE:
		args->value = file->no_error_capture;
		return 0;
	case I915_CONTEXT_PARAM_BANNABLE:
		args->value = !file->unbannable;
		return 0;
	case I915_CONTEXT_PARAM_GTT_SIZE:
		args->value = file->dev->aperture_size;
		return 0;
	case I915_CONTEXT_PARAM_BAN_PERIOD:	/* no longer answered by 4.14 */
	default:
		return -EINVAL;
	}
}

/*
 * CONTEXT_SETPARAM on the default context, as ctx_setparam of Linux 6.1
 * answers without logical contexts: the flags a context keeps (no
 * zeromap, no error capture, bannable, recoverable) are stored; clearing
 * BANNABLE needs CAP_SYS_ADMIN (IGT's igt_allow_hang does it as root);
 * priorities, non-persistence and ring sizes need a scheduler or logical
 * contexts gen3 lacks (-ENODEV); the rest are -EINVAL.
 */
int gem_context_setparam_ioctl(struct gem_file *file, void *data,
			       struct gem_call *call)
{
	struct drm_i915_gem_context_param *args = data;

	if (args->ctx_id != 0)
		return -ENOENT;
	switch (args->param) {
	case I915_CONTEXT_PARAM_NO_ZEROMAP:
	case I915_CONTEXT_PARAM_NO_ERROR_CAPTURE:
	case I915_CONTEXT_PARAM_BANNABLE:
	case I915_CONTEXT_PARAM_RECOVERABLE:
	case I915_CONTEXT_PARAM_PERSISTENCE:
		if (args->size)
			return -EINVAL;
		break;
	case I915_CONTEXT_PARAM_PRIORITY:
	case I915_CONTEXT_PARAM_SSEU:
	case I915_CONTEXT_PARAM_RINGSIZE:
		return -ENODEV;
	default:
		return -EINVAL;
	}
	switch (args->param) {
	case I915_CONTEXT_PARAM_NO_ZEROMAP:
		file->no_zeromap = args->value != 0;
		return 0;
	case I915_CONTEXT_PARAM_NO_ERROR_CAPTURE:
		file->no_error_capture = args->value != 0;
		return 0;
	case I915_CONTEXT_PARAM_BANNABLE:
		if (!call->caller_admin && !args->value)
			return -EPERM;
		file->unbannable = !args->value;
		return 0;
	case I915_CONTEXT_PARAM_RECOVERABLE:
		file->unrecoverable = !args->value;
		return 0;
	default:	/* PERSISTENCE: cancelling needs preemption */
		return args->value ? 0 : -ENODEV;
	}
}

int gem_get_reset_stats_ioctl(struct gem_file *file, void *data,
			      struct gem_call *call)
{
	struct drm_i915_reset_stats *args = data;

	if (args->flags || args->pad)
		return -EINVAL;
	if (args->ctx_id != 0)
		return -ENOENT;
	/* gen3 has no contexts: the file's default one stands for it
	 * (driver/gem/hangcheck.c).  The reset count is for CAP_SYS_ADMIN
	 * alone; everyone else reads 0 (i915_gem_context_reset_stats_ioctl). */
	args->reset_count = call->caller_admin ? (uint32_t)file->dev->stats.resets : 0;
	args->batch_active = file->batch_active;
	args->batch_pending = file->batch_pending;
	return 0;
}

/* No register is whitelisted for REG_READ on gen3. */
int gem_reg_read_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	return -EINVAL;
}

/*
 * The dispatch table, indexed by _IOC_NR, expanded from lib/proto/ioctls.def
 * (the codec column is the wire's and is dropped here).
 */
struct gem_ioctl_desc {
	const char *name;
	int (*handler)(struct gem_file *file, void *data, struct gem_call *call);
	unsigned int size;	/* the kernel's struct size */
	unsigned int flags;	/* IOCTL_* */
};

#define IOCTL(name_, kcmd, handler_, flags_, codec) \
	[_IOC_NR(kcmd)] = { .name = #name_, .handler = handler_, \
			    .size = _IOC_SIZE(kcmd), .flags = flags_ },
static const struct gem_ioctl_desc gem_ioctls[256] = {
#include "../../lib/proto/ioctls.def"
};
#undef IOCTL

static const struct gem_ioctl_desc *gem_ioctl_find(unsigned int cmd)
{
	const struct gem_ioctl_desc *desc = &gem_ioctls[_IOC_NR(cmd)];

	return desc->handler ? desc : NULL;
}

int gem_ioctl_size(unsigned int cmd)
{
	const struct gem_ioctl_desc *desc = gem_ioctl_find(cmd);

	return desc ? (int)desc->size : -EINVAL;
}

const char *gem_ioctl_name(unsigned int cmd)
{
	const struct gem_ioctl_desc *desc = gem_ioctl_find(cmd);

	return desc ? desc->name : NULL;
}

const char *gem_ioctl_name_nr(unsigned int nr)
{
	return nr < ARRAY_SIZE(gem_ioctls) && gem_ioctls[nr].handler ?
	       gem_ioctls[nr].name : NULL;
}

int gem_ioctl_dispatch(struct gem_file *file, unsigned int cmd, void *arg,
		       struct gem_call *call)
{
	const struct gem_ioctl_desc *desc = gem_ioctl_find(cmd);
	int ret;

	if (!desc)
		return -EINVAL;
	/* drm_ioctl on an unplugged device, before anything else */
	if (gem_file_unplugged(file))
		return -ENODEV;
	if (desc->size && !arg)
		return -EFAULT;
	call->has_loc = false;
	call->fd_out = -1;
	gem_acct_begin(file, _IOC_NR(cmd));
	if (desc->flags & IOCTL_UNLOCKED) {
		ret = desc->handler(file, arg, call);
		gem_acct_end(file, _IOC_NR(cmd));
		return ret;
	}
	gem_ioctl_enter(file);
	ret = desc->handler(file, arg, call);
	gem_ioctl_exit(file, desc->name);
	/* Before the kick: what the GPU runs is its requests' files' (acct.h). */
	gem_acct_end(file, _IOC_NR(cmd));
	gem_gpu_kick(file->dev);
	if (ret && ret != -ETIME && ret != -ENOENT && ret != -EINVAL)
		log_debug("file %u (%s): %s: %s", file->id, file->comm, desc->name,
			  strerror(-ret));
	return ret;
}
