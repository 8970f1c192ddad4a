/* GEM objects: creation, reference counting, lists, flink names, madvise. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gem_priv.h"
#include "log.h"
#include "util.h"

/* A new object's fields; the caller gives it pages. */
static struct gem_object *object_alloc(struct gem_device *dev, uint64_t size)
{
	struct gem_object *obj = gem_calloc(1, sizeof(*obj));

	if (!obj)
		return NULL;
	obj->dev = dev;
	obj->size = size;
	obj->refcount = 1;
	obj->fence_reg = -1;
	obj->madv = I915_MADV_WILLNEED;
	obj->cache_level = I915_CACHING_NONE;	/* gen3 has no LLC */
	/* Fresh pages are in the CPU domain (i915_gem_alloc_object). */
	obj->read_domains = I915_GEM_DOMAIN_CPU;
	obj->write_domain = I915_GEM_DOMAIN_CPU;
	obj->created_ns = now_realtime_ns();
	return obj;
}

/* An object with pages joins the device: its id, the unbound list. */
static int object_publish(struct gem_device *dev, struct gem_object *obj)
{
	int ret;

	if (dev->next_object_id > GEM_FAKE_MAX_ID)
		return -ENOSPC;		/* its mmap offset would not fit */
	obj->id = dev->next_object_id++;
	ret = idmap_insert(&dev->objects, obj->id, obj);
	if (ret)
		return ret;
	obj->list = GEM_LIST_UNBOUND;
	list_add_tail(&obj->list_link, &dev->lists[GEM_LIST_UNBOUND]);
	dev->list_count[GEM_LIST_UNBOUND]++;
	dev->list_bytes[GEM_LIST_UNBOUND] += obj->size;
	dev->object_count++;
	dev->object_bytes += obj->size;
	return 0;
}

/* obj got its pages (ret 0) or did not: publish it, or undo. */
static int object_install(struct gem_device *dev, struct gem_object *obj,
			  int ret, struct gem_object **out)
{
	if (ret)
		goto out_free;
	ret = object_publish(dev, obj);
	if (ret)
		goto out_backing;
	*out = obj;
	return 0;

out_backing:
	gem_backing_free(dev, obj);
out_free:
	free(obj);
	return ret;
}

/* A new object with pages of its own; a userptr object is snooped, as the
 * kernel's I915_CACHE_LLC, in an arena of its own that the client maps
 * over its range and keeps after the object dies (userptr.c). */
static int object_create(struct gem_device *dev, struct gem_file *owner,
			 uint64_t size, bool userptr, struct gem_object **out)
{
	struct gem_object *obj;

	if (size > GEM_MAX_OBJECT_SIZE)
		return -ENOMEM;
	obj = object_alloc(dev, size);
	if (!obj)
		return -ENOMEM;
	if (userptr) {
		obj->userptr = true;
		obj->cache_level = I915_CACHING_CACHED;
	}
	return object_install(dev, obj, gem_backing_alloc(dev, owner, obj), out);
}

int gem_object_create(struct gem_device *dev, struct gem_file *owner,
		      uint64_t size, struct gem_object **out)
{
	return object_create(dev, owner, size, false, out);
}

int gem_object_create_userptr(struct gem_device *dev, struct gem_file *owner,
			      uint64_t size, struct gem_object **out)
{
	return object_create(dev, owner, size, true, out);
}

/* An object on the pages of a client's memfd (PRIME import). */
int gem_object_adopt(struct gem_device *dev, int fd, struct gem_object **out)
{
	struct gem_object *obj = object_alloc(dev, 0);

	if (!obj)
		return -ENOMEM;
	return object_install(dev, obj, gem_backing_adopt(dev, fd, obj), out);
}

void gem_object_get(struct gem_object *obj)
{
	gem_assert_held(obj->dev);
	obj->refcount++;
}

static void gem_object_free(struct gem_object *obj)
{
	struct gem_device *dev = obj->dev;

	/* Nothing references it, so the GPU is done with it: unbinding
	 * cannot need to wait. */
	if (obj->pin_count) {
		log_warn("object %u freed while pinned", obj->id);
		dev->pinned_bytes -= obj->gtt_node.size;
		obj->pin_count = 0;
	}
	if (gem_object_bound(obj))
		gem_object_unbind(obj);
	list_del_init(&obj->list_link);
	dev->list_count[obj->list]--;
	dev->list_bytes[obj->list] -= obj->size;
	idmap_remove(&dev->objects, obj->id);
	gem_backing_free(dev, obj);
	dev->object_count--;
	dev->object_bytes -= obj->size;
	free(obj->more);
	free(obj);
}

void gem_object_put(struct gem_object *obj)
{
	gem_assert_held(obj->dev);
	if (--obj->refcount == 0)
		gem_object_free(obj);
}

void gem_object_move_to_list(struct gem_object *obj, enum gem_list list)
{
	struct gem_device *dev = obj->dev;

	gem_assert_held(dev);

	dev->list_count[obj->list]--;
	dev->list_bytes[obj->list] -= obj->size;
	dev->list_count[list]++;
	dev->list_bytes[list] += obj->size;
	obj->list = list;
	list_move_tail(&obj->list_link, &obj->dev->lists[list]);
}

/* The list the object's state says it belongs on. */
enum gem_list gem_object_state_list(const struct gem_object *obj)
{
	/* Every request ends with MI_FLUSH, so a GPU write domain is
	 * flushed by the time the object retires: the flushing list of the
	 * 2.6.3x driver stays empty here. */
	if (obj->active)
		return GEM_LIST_ACTIVE;
	if (!gem_object_bound(obj))
		return GEM_LIST_UNBOUND;
	if (obj->pin_count)
		return GEM_LIST_PINNED;
	return GEM_LIST_INACTIVE;
}

/* Put the object on the list its state says, at the LRU tail. */
void gem_object_update_list(struct gem_object *obj)
{
	gem_object_move_to_list(obj, gem_object_state_list(obj));
}

int gem_create_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_i915_gem_create *args = data;
	struct gem_device *dev = file->dev;
	struct gem_object *obj;
	uint64_t size;
	int ret;

	size = ALIGN_UP(args->size, (uint64_t)4096);
	if (size == 0 || size < args->size)
		return -EINVAL;
	/* i915_gem_object_size_2big: the page count must fit an int. */
	if ((size >> 12) > INT32_MAX)
		return -E2BIG;
	ret = gem_object_create(dev, file, size, &obj);
	if (ret)
		return ret;
	obj->creator_pid = file->pid;
	ret = gem_handle_create(file, obj, &args->handle);
	/* The handle holds the reference now (or nothing does). */
	gem_object_put(obj);
	if (ret)
		return ret;
	args->size = size;
	return 0;
}

/*
 * I915_GEM_CREATE_EXT_MEMORY_REGIONS (set_placements of Linux 6.1): only
 * system memory exists on a 945G.  A region the device lacks, a region
 * named twice, more regions than the kernel has ids for (7) or a second
 * list are -EINVAL.
 */
#define INTEL_REGION_UNKNOWN	7

static int create_ext_regions(struct gem_device *dev, uint64_t ptr,
			      unsigned int *n_placements)
{
	struct drm_i915_gem_create_ext_memory_regions *ext =
		(void *)(uintptr_t)ptr;
	struct drm_i915_gem_memory_class_instance *regions;
	bool system = false;
	uint32_t i;

	if (ext->pad || ext->num_regions == 0 ||
	    ext->num_regions > INTEL_REGION_UNKNOWN)
		return -EINVAL;
	regions = (void *)(uintptr_t)ext->regions;
	if (!regions)
		return -EFAULT;
	for (i = 0; i < ext->num_regions; i++) {
		if (regions[i].memory_class != I915_MEMORY_CLASS_SYSTEM ||
		    regions[i].memory_instance != 0 || system)
			return -EINVAL;
		system = true;
	}
	if ((*n_placements)++)
		return -EINVAL;
	return 0;
}

/*
 * I915_GEM_CREATE_EXT_PROTECTED_CONTENT (ext_set_protected of Linux 6.1):
 * a 945G has no PXP, so a well-formed request is -ENODEV.
 */
static int create_ext_protected(uint64_t ptr)
{
	const struct drm_i915_gem_create_ext_protected_content *ext =
		(const void *)(uintptr_t)ptr;

	return ext->flags ? -EINVAL : -ENODEV;
}

int gem_create_ext_ioctl(struct gem_file *file, void *data,
			 struct gem_call *call)
{
	struct drm_i915_gem_create_ext *args = data;
	struct drm_i915_gem_create create = { .size = args->size };
	uint64_t next = args->extensions;
	unsigned int depth = 0, n_placements = 0;
	int ret;

	if (args->flags)
		return -EINVAL;
	while (next) {
		struct i915_user_extension *ext = (void *)(uintptr_t)next;

		if (++depth > 16)
			return -E2BIG;
		if (ext->flags)
			return -EINVAL;
		switch (ext->name) {
		case I915_GEM_CREATE_EXT_MEMORY_REGIONS:
			ret = create_ext_regions(file->dev, next, &n_placements);
			if (ret)
				return ret;
			break;
		case I915_GEM_CREATE_EXT_PROTECTED_CONTENT:
			return create_ext_protected(next);
		default:
			return -EINVAL;
		}
		next = ext->next_extension;
	}
	ret = gem_create_ioctl(file, &create, call);
	if (ret)
		return ret;
	args->size = create.size;
	args->handle = create.handle;
	return 0;
}

int gem_close_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_gem_close *args = data;

	return gem_handle_delete(file, args->handle);
}

/*
 * An object leaves its file's arenas the first time it is exported
 * (backing.c): its pages move into memory of its own, and a client that
 * mapped them maps them again.
 */
int gem_object_export(struct gem_object *obj, struct gem_call *call)
{
	bool mapped = obj->client_mapped || obj->view;
	int ret;

	if (obj->arena->dedicated)
		return 0;
	gem_view_drop(obj);
	ret = gem_backing_export(obj);
	if (ret)
		return ret;
	if (mapped) {
		memset(&call->loc, 0, sizeof(call->loc));
		call->loc.flags = GEM_LOC_REMAP;
		call->loc.object = (uint64_t)obj->id << GEM_FAKE_OFFSET_SHIFT;
		call->has_loc = true;
	}
	return 0;
}

int gem_flink_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_gem_flink *args = data;
	struct gem_device *dev = file->dev;
	struct gem_object *obj;
	int ret = 0;

	obj = gem_handle_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	if (!obj->flink_name) {
		ret = idmap_insert(&dev->names, dev->next_name, obj);
		if (ret)
			goto out_put;
		ret = gem_object_export(obj, call);
		if (ret) {
			idmap_remove(&dev->names, dev->next_name);
			goto out_put;
		}
		obj->flink_name = dev->next_name++;
		obj->flink_uid = call->caller_uid;
	}
	args->name = obj->flink_name;
out_put:
	gem_object_put(obj);
	return ret;
}

int gem_open_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_gem_open *args = data;
	struct gem_object *obj;
	int ret;

	obj = idmap_lookup(&file->dev->names, args->name);
	if (!obj)
		return -ENOENT;
	/* Names are small integers anyone can count through: another
	 * user's are not there, unless gemd was told to share them. */
	if (!file->dev->share_names && !call->caller_admin &&
	    call->caller_uid != obj->flink_uid)
		return -ENOENT;
	ret = gem_handle_create(file, obj, &args->handle);
	if (ret)
		return ret;
	args->size = obj->size;
	return 0;
}

void gem_object_purge(struct gem_object *obj)
{
	gem_backing_discard(obj);
	obj->madv = GEM_MADV_PURGED;
	obj->dev->stats.purges++;
	gem_event(obj->dev, GEM_EV_PURGE, obj->id, obj->size, 0, 0);
}

/*
 * As i915_gem_madvise_ioctl: an object marked DONTNEED that has no pages
 * is truncated at once (retained 0).  Its mappings must fault from now
 * on, as the kernel's fault handler refuses to get a purged object's
 * pages (SIGBUS): the client maps again what it mapped of it
 * (GEM_LOC_REMAP), and gem_mmap_lookup answers GEM_LOC_PURGED.
 */
int gem_madvise_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_i915_gem_madvise *args = data;
	struct gem_object *obj;
	int ret = 0;

	switch (args->madv) {
	case I915_MADV_DONTNEED:
	case I915_MADV_WILLNEED:
		break;
	default:
		return -EINVAL;
	}
	obj = gem_handle_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	if (obj->pin_count) {
		ret = -EINVAL;
		goto out_put;
	}
	if (obj->madv != GEM_MADV_PURGED)
		obj->madv = args->madv;
	if (obj->madv == I915_MADV_DONTNEED && !gem_object_bound(obj) &&
	    !obj->active && !obj->userptr && !gem_backing_has_pages(obj)) {
		gem_object_purge(obj);
		if (obj->client_mapped) {
			call->loc = (struct gem_backing_loc){
				.flags = GEM_LOC_REMAP,
				.object = (uint64_t)obj->id << GEM_FAKE_OFFSET_SHIFT,
			};
			call->has_loc = true;
		}
	}
	args->retained = obj->madv != GEM_MADV_PURGED;
	gem_status_object_changed(obj);
out_put:
	gem_object_put(obj);
	return ret;
}

int gem_set_caching_ioctl(struct gem_file *file, void *data,
			  struct gem_call *call)
{
	struct drm_i915_gem_caching *args = data;
	struct gem_object *obj;

	switch (args->caching) {
	case I915_CACHING_NONE:
	case I915_CACHING_CACHED:
	case I915_CACHING_DISPLAY:
		break;
	default:
		return -EINVAL;
	}
	obj = gem_handle_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	/* A proxy object's caching is its generator's; 6.1 lets userptr
	 * objects be asked for CACHED, which they are, for Vulkan. */
	if (obj->userptr) {
		gem_object_put(obj);
		return args->caching == I915_CACHING_CACHED ? 0 : -ENXIO;
	}
	/* gen3 has no LLC and no separate display caching: store as asked. */
	obj->cache_level = args->caching;
	gem_object_put(obj);
	return 0;
}

int gem_get_caching_ioctl(struct gem_file *file, void *data,
			  struct gem_call *call)
{
	struct drm_i915_gem_caching *args = data;
	struct gem_object *obj;

	obj = gem_handle_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	args->caching = obj->cache_level;
	gem_object_put(obj);
	return 0;
}
