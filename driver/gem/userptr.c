/*
 * GEM_USERPTR (i915_gem_userptr_ioctl of Linux 6.1): an object whose pages
 * are a range of the client's own memory.
 *
 * A 945G snoops, so the kernel offers userptr there: it pins the user's
 * pages at first use and the GPU reads and writes them coherently.  gemd
 * is another process and cannot reach a client's memory, and must not:
 * so it turns the ioctl around.  gemd makes an ordinary object in an arena
 * of its own (a dedicated, sealed memfd, backing.c) and tells the client
 * where; the client (libgem's userptr.c) copies the range's contents in
 * and maps that memfd over the range, MAP_FIXED | MAP_SHARED.  From then
 * on the program's pointer and the GPU see the same pages, as with the
 * kernel.  Everything about the range (access_ok, PROBE, the pages being
 * there at first use, munmap) is the client's business, because only the
 * client can see its address space; gemd never trusts it and never needs
 * to: whatever a client claims, the object is memory gemd made for that
 * file alone, and the range is the client's own to map over.
 *
 * What gemd does check is everything it can without the address space, in
 * the kernel's order: flags, size, alignment, and the features a gen3
 * GGTT lacks (read-only PTEs) or that 6.1 removed (unsynchronized).
 *
 * The arena must be the object's alone (the client keeps it mapped after
 * the object dies), so each userptr object costs gemd a descriptor and a
 * mapping, as an exported object does: a file that makes tens of
 * thousands of them runs gemd out of descriptors, and GEM_USERPTR then
 * fails with -ENOMEM (backing.c), as exports and big objects do.
 */
#include <errno.h>
#include <stdint.h>

#include "gem_priv.h"

/* i915_gem_object_size_2big: the page count must fit an int. */
#define USERPTR_MAX_PAGES	INT32_MAX

int gem_userptr_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_i915_gem_userptr *args = data;
	struct gem_object *obj;
	int ret;

	if (args->flags & ~(uint32_t)(I915_USERPTR_READ_ONLY |
				      I915_USERPTR_PROBE |
				      I915_USERPTR_UNSYNCHRONIZED))
		return -EINVAL;
	if ((args->user_size >> 12) > USERPTR_MAX_PAGES)
		return -E2BIG;
	if (!args->user_size)
		return -EINVAL;
	if ((args->user_ptr | args->user_size) & 4095)
		return -EINVAL;
	/* (access_ok and PROBE come here in the kernel: the client's.) */
	if (args->flags & I915_USERPTR_UNSYNCHRONIZED)
		return -ENODEV;		/* removed in 5.13 */
	if (args->flags & I915_USERPTR_READ_ONLY)
		return -ENODEV;		/* the GGTT has no read-only PTEs */
	ret = gem_object_create_userptr(file->dev, file, args->user_size, &obj);
	if (ret)
		return ret;
	obj->creator_pid = file->pid;
	ret = gem_handle_create(file, obj, &args->handle);
	if (!ret) {
		/* Where the client maps it: over its own range. */
		gem_object_location(obj, &call->loc);
		call->has_loc = true;
		obj->client_mapped = true;
	}
	gem_object_put(obj);
	return ret;
}
