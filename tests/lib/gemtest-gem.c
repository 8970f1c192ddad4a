/* gemtest's i915 uAPI wrappers over libgem, for the tests that run a gemd. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "libgem.h"

/* gem_ioctl's -1/errno folded into the -errno of the __ tier. */
static int gt_ioctl(int fd, unsigned long request, void *arg)
{
	return gem_ioctl(fd, request, arg) ? -errno : 0;
}

static inline uint64_t to_user_pointer(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

int gt_open(void)
{
	/* gemtest_start_gemd exported GEM_DEVICE, which the NULL path follows. */
	int fd = gem_open(NULL, O_RDWR | O_CLOEXEC);

	gt_assert_f(fd >= 0, "gem_open: %s", strerror(errno));
	return fd;
}

int __gt_create(int fd, uint64_t *size, uint32_t *handle)
{
	struct drm_i915_gem_create arg = { .size = *size };
	int ret = gt_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &arg);

	if (ret)
		return ret;
	*size = arg.size;
	*handle = arg.handle;
	return 0;
}

uint32_t gt_create(int fd, uint64_t size)
{
	uint32_t handle = 0;

	gt_assert_eq(__gt_create(fd, &size, &handle), 0);
	return handle;
}

int __gt_close(int fd, uint32_t handle)
{
	struct drm_gem_close arg = { .handle = handle };

	return gt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &arg);
}

void gt_close(int fd, uint32_t handle)
{
	gt_assert_eq(__gt_close(fd, handle), 0);
}

int __gt_write(int fd, uint32_t handle, uint64_t offset, const void *buf,
	       uint64_t len)
{
	struct drm_i915_gem_pwrite arg = {
		.handle = handle,
		.offset = offset,
		.size = len,
		.data_ptr = to_user_pointer(buf),
	};

	return gt_ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &arg);
}

void gt_write(int fd, uint32_t handle, uint64_t offset, const void *buf,
	      uint64_t len)
{
	gt_assert_eq(__gt_write(fd, handle, offset, buf, len), 0);
}

int __gt_read(int fd, uint32_t handle, uint64_t offset, void *buf,
	      uint64_t len)
{
	struct drm_i915_gem_pread arg = {
		.handle = handle,
		.offset = offset,
		.size = len,
		.data_ptr = to_user_pointer(buf),
	};

	return gt_ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &arg);
}

void gt_read(int fd, uint32_t handle, uint64_t offset, void *buf,
	     uint64_t len)
{
	gt_assert_eq(__gt_read(fd, handle, offset, buf, len), 0);
}

int __gt_set_domain(int fd, uint32_t handle, uint32_t read, uint32_t write)
{
	struct drm_i915_gem_set_domain arg = {
		.handle = handle,
		.read_domains = read,
		.write_domain = write,
	};

	return gt_ioctl(fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &arg);
}

void gt_set_domain(int fd, uint32_t handle, uint32_t read, uint32_t write)
{
	gt_assert_eq(__gt_set_domain(fd, handle, read, write), 0);
}

void *gt_mmap_cpu(int fd, uint32_t handle, uint64_t offset, uint64_t size)
{
	struct drm_i915_gem_mmap arg = {
		.handle = handle,
		.offset = offset,
		.size = size,
	};

	gt_assert_eq(gt_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &arg), 0);
	gt_assert(arg.addr_ptr);
	return (void *)(uintptr_t)arg.addr_ptr;
}

void *gt_mmap_gtt(int fd, uint32_t handle, uint64_t size)
{
	struct drm_i915_gem_mmap_gtt arg = { .handle = handle };
	void *ptr;

	gt_assert_eq(gt_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_GTT, &arg), 0);
	ptr = gem_mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       (off_t)arg.offset);
	gt_assert_f(ptr != MAP_FAILED, "gem_mmap: %s", strerror(errno));
	return ptr;
}

bool gt_busy(int fd, uint32_t handle)
{
	struct drm_i915_gem_busy arg = { .handle = handle };

	gt_assert_eq(gt_ioctl(fd, DRM_IOCTL_I915_GEM_BUSY, &arg), 0);
	return arg.busy != 0;
}

int __gt_wait(int fd, uint32_t handle, int64_t *timeout_ns)
{
	struct drm_i915_gem_wait arg = {
		.bo_handle = handle,
		.timeout_ns = *timeout_ns,
	};
	int ret = gt_ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &arg);

	*timeout_ns = arg.timeout_ns;	/* the time left, as the kernel reports */
	return ret;
}

void gt_sync(int fd, uint32_t handle)
{
	gt_set_domain(fd, handle, I915_GEM_DOMAIN_GTT, 0);
}

int gt_getparam(int fd, int param)
{
	int value = 0;
	struct drm_i915_getparam arg = { .param = param, .value = &value };

	gt_assert_eq(gt_ioctl(fd, DRM_IOCTL_I915_GETPARAM, &arg), 0);
	return value;
}

void gt_exec_batch(int fd, uint32_t batch, const uint32_t *extra_handles, int n)
{
	struct drm_i915_gem_exec_object2 *objs;
	struct drm_i915_gem_execbuffer2 eb = { 0 };
	int i, ret;

	gt_assert(n >= 0);
	objs = calloc((size_t)n + 1, sizeof(*objs));
	gt_assert(objs);
	/* The batch goes last: execbuffer2 takes the last object as the batch. */
	for (i = 0; i < n; i++)
		objs[i].handle = extra_handles[i];
	objs[n].handle = batch;

	eb.buffers_ptr = to_user_pointer(objs);
	eb.buffer_count = (uint32_t)n + 1;
	eb.batch_start_offset = 0;
	eb.batch_len = 0;	/* the whole object */
	eb.flags = I915_EXEC_RENDER;
	ret = gt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
	free(objs);
	gt_assert_eq(ret, 0);
}

uint8_t *gt_upload_pattern(int fd, uint32_t handle, uint64_t size, uint32_t seed)
{
	uint8_t *mem = malloc(size);

	gt_assert(mem);
	gt_fill_pattern(mem, size, seed);
	gt_write(fd, handle, 0, mem, size);
	return mem;
}
