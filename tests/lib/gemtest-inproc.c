/* The in-process driver fixture shared by test-gem and test-debugfs. */
#include <string.h>
#include <sys/ioctl.h>

#include "cmd.h"
#include "gemtest-inproc.h"
#include "gemtest.h"

struct gem_device *gti_dev;
struct gem_file *gti_file;

void gti_setup_cfg(uint64_t aperture, uint64_t cmd_cost_ns)
{
	struct gem_device_config cfg = { .aperture_size = aperture,
					 .cmd_cost_ns = cmd_cost_ns };

	gt_assert_eq(gem_device_create(&cfg, &gti_dev), 0);
	gt_assert_eq(gem_file_open(gti_dev, GTI_PID, "test", &gti_file), 0);
}

void gti_setup(uint64_t aperture)
{
	gti_setup_cfg(aperture, 0);
}

void gti_teardown(void)
{
	gem_file_release(gti_file);
	gem_device_destroy(gti_dev);
	gti_file = NULL;
	gti_dev = NULL;
}

int gti_ioctl(unsigned long cmd, void *arg)
{
	/* The test process calls as root, as the kernel's tests run. */
	struct gem_call call = {
		.caller_pid = GTI_PID, .caller_admin = true, .fd_in = -1, .fd_out = -1,
	};

	return gem_ioctl_dispatch(gti_file, (unsigned int)cmd, arg, &call);
}

uint32_t gti_create(uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };

	gt_assert_eq(gti_ioctl(DRM_IOCTL_I915_GEM_CREATE, &c), 0);
	return c.handle;
}

void gti_close(uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	gt_assert_eq(gti_ioctl(DRM_IOCTL_GEM_CLOSE, &c), 0);
}

struct gem_object *gti_obj(uint32_t handle)
{
	struct gem_object *obj;

	gem_lock(gti_dev);
	obj = gem_handle_lookup(gti_file, handle);
	if (obj)
		gem_object_put(obj);	/* the handle keeps it alive */
	gem_unlock(gti_dev);
	gt_assert(obj);
	return obj;
}

int gti_exec_flags(uint32_t batch, const uint32_t *handles, unsigned int n,
		   uint32_t write_handle, uint64_t extra_flags)
{
	struct drm_i915_gem_exec_object2 objs[16];
	struct drm_i915_gem_execbuffer2 eb;
	unsigned int i;

	gt_assert(n < 16);
	memset(objs, 0, sizeof(objs));
	for (i = 0; i < n; i++) {
		objs[i].handle = handles[i];
		objs[i].flags = extra_flags;
		if (handles[i] == write_handle)
			objs[i].flags |= EXEC_OBJECT_WRITE;
	}
	objs[n].handle = batch;
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = (uintptr_t)objs;
	eb.buffer_count = n + 1;
	eb.flags = I915_EXEC_RENDER;
	return gti_ioctl(DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
}

int gti_exec(uint32_t batch, const uint32_t *handles, unsigned int n,
	     uint32_t write_handle)
{
	return gti_exec_flags(batch, handles, n, write_handle, 0);
}

uint32_t gti_make_batch_n(unsigned int noops)
{
	uint32_t h = gti_create(4096);
	uint32_t *p = (uint32_t *)gti_obj(h)->vaddr;
	unsigned int i;

	gt_assert(noops < 1023);
	for (i = 0; i < noops; i++)
		p[i] = MI_NOOP;
	p[noops] = MI_BATCH_BUFFER_END;
	return h;
}

uint32_t gti_make_batch(void)
{
	return gti_make_batch_n(0);
}

void gti_idle(void)
{
	gem_lock(gti_dev);
	gt_assert_eq(gem_gpu_idle(gti_dev), 0);
	gem_retire_requests(gti_dev);
	gem_unlock(gti_dev);
}
