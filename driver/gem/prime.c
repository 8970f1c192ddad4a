/*
 * PRIME: objects shared as file descriptors (drm_prime.c).
 *
 * An exported object lives in an arena of its own (backing.c), and that
 * memfd is the dma-buf: it reads, writes and maps as the object, llseek
 * to SEEK_END gives its size, and it can go to any process or user over a
 * Unix socket — holding it is the permission, as with any fd.  Every
 * export of an object hands out the same file (a dup: one file position,
 * as the kernel's one dma_buf file), read-only unless DRM_RDWR is asked.
 *
 * The object lives while a handle or gemd's work holds it; its pages live
 * while the memfd does, in gemd or in any client.  So an import finds the
 * object by the memfd's identity while gemd has it, and otherwise adopts
 * the memfd as a new object with the same pages (the dma-buf kept the
 * contents alive, as the kernel's keeps the object).  Each file remembers
 * the handle PRIME gave it (struct gem_holder), so importing again gives
 * the same handle, until that handle is closed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "gem_priv.h"
#include "log.h"

/* A read-only open of the same memfd: its own file, its own position. */
static int reopen_readonly(int fd)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, O_RDONLY | O_CLOEXEC);
}

int gem_prime_handle_to_fd_ioctl(struct gem_file *file, void *data,
				 struct gem_call *call)
{
	struct drm_prime_handle *args = data;
	struct gem_object *obj;
	struct gem_holder *h;
	int fd, ret;

	if (args->flags & ~(uint32_t)(DRM_CLOEXEC | DRM_RDWR))
		return -EINVAL;
	obj = gem_handle_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	/* i915_gem_userptr_dmabuf_export: "no longer allowed" since 5.13 */
	if (obj->userptr) {
		ret = -EINVAL;
		goto out_put;
	}
	ret = gem_object_export(obj, call);
	if (ret)
		goto out_put;
	fd = (args->flags & DRM_RDWR) ? fcntl(obj->arena->fd, F_DUPFD_CLOEXEC, 0) :
	     reopen_readonly(obj->arena->fd);
	if (fd < 0) {
		ret = errno == EMFILE || errno == ENFILE ? -EMFILE : -ENOMEM;
		goto out_put;
	}
	h = gem_holder_find(obj, file);
	if (!h->prime_handle)
		h->prime_handle = args->handle;
	call->fd_out = fd;
	args->fd = -1;		/* the client puts its own number here */
out_put:
	gem_object_put(obj);
	return ret;
}

int gem_prime_fd_to_handle_ioctl(struct gem_file *file, void *data,
				 struct gem_call *call)
{
	struct drm_prime_handle *args = data;
	struct gem_device *dev = file->dev;
	struct gem_object *obj;
	struct gem_holder *h;
	int ret;

	if (call->fd_in < 0)
		return -EBADF;
	obj = gem_backing_find(dev, call->fd_in);
	if (obj) {
		h = gem_holder_find(obj, file);
		if (h && h->prime_handle) {
			args->handle = h->prime_handle;
			return 0;
		}
		gem_object_get(obj);
	} else {
		ret = gem_object_adopt(dev, call->fd_in, &obj);
		if (ret)
			return ret;
		obj->creator_pid = file->pid;
	}
	ret = gem_handle_create(file, obj, &args->handle);
	if (!ret)
		gem_holder_find(obj, file)->prime_handle = args->handle;
	gem_object_put(obj);
	return ret;
}

/* What of obj the GPU still has: GEM_DMABUF_* (dev->lock held). */
static unsigned int object_pending(struct gem_object *obj)
{
	uint32_t hw = gem_hw_seqno(obj->dev);
	unsigned int mask = 0;

	if (!obj->active)
		return 0;
	if (!seqno_passed(hw, obj->last_read_seqno))
		mask |= GEM_DMABUF_READ;
	if (obj->last_write_seqno && !seqno_passed(hw, obj->last_write_seqno))
		mask |= GEM_DMABUF_WRITE;
	return mask;
}

unsigned int gem_dmabuf_busy(struct gem_device *dev, int fd)
{
	struct gem_object *obj;
	unsigned int mask = 0;

	gem_lock(dev);
	gem_retire_requests(dev);
	obj = gem_backing_find(dev, fd);
	if (obj)
		mask = object_pending(obj);
	gem_unlock(dev);
	return mask;
}

int gem_dmabuf_wait(struct gem_device *dev, int fd, bool write,
		    int64_t timeout_ns)
{
	struct gem_object *obj;
	int ret = 0;

	gem_lock(dev);
	obj = gem_backing_find(dev, fd);
	if (!obj)
		goto out_unlock;
	gem_object_get(obj);
	while (object_pending(obj) & (write ? GEM_DMABUF_READ : GEM_DMABUF_WRITE)) {
		uint32_t seqno = write ? obj->last_read_seqno : obj->last_write_seqno;

		ret = gem_wait_seqno(dev, seqno, timeout_ns < 0 ? NULL : &timeout_ns);
		if (ret)
			break;
	}
	/* The CPU reads or writes the pages next: the GTT view's writes
	 * must be in them. */
	if (!ret)
		gem_view_sync(obj);
	gem_object_put(obj);
out_unlock:
	gem_unlock(dev);
	return ret;
}
