/*
 * DRM_IOCTL_I915_QUERY (i915_query.c of Linux 6.1) as a 945G answers it:
 * one engine (rcs0), one memory region (system memory), and -ENODEV for
 * what gen3 has no hardware for (slice topology, OA perf configurations,
 * the GuC's hwconfig blob, geometry subslices).
 *
 * Errors of one item go into that item's length and the ioctl succeeds;
 * only a bad query id of 0, non-zero flags or an unreadable item array
 * fail the whole call.  Each item's data_ptr points at memory the wire
 * lent for it (lib/proto/wire.c), NULL where the caller's was unreadable.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "gem_priv.h"
#include "util.h"

/* The answer: the header, then one entry, at the item's buffer. */
static int query_answer(struct drm_i915_query_item *item, const void *head,
			size_t head_size, const void *entry, size_t entry_size)
{
	uint8_t *out = (void *)(uintptr_t)item->data_ptr;

	memcpy(out, head, head_size);
	memcpy(out + head_size, entry, entry_size);
	return (int)(head_size + entry_size);
}

/* copy_query_item: length 0 asks for the size; a short buffer is -EINVAL. */
static int query_head(struct drm_i915_query_item *item, void *head,
		      size_t head_size, int32_t total)
{
	if (item->length == 0)
		return total;
	if (item->length < total)
		return -EINVAL;
	if (!item->data_ptr)
		return -EFAULT;
	memcpy(head, (void *)(uintptr_t)item->data_ptr, head_size);
	return 0;
}

static int query_engine_info(struct gem_device *dev,
			     struct drm_i915_query_item *item)
{
	struct drm_i915_query_engine_info head;
	struct drm_i915_engine_info info = {
		.engine = { .engine_class = I915_ENGINE_CLASS_RENDER,
			    .engine_instance = 0 },
		.flags = I915_ENGINE_INFO_HAS_LOGICAL_INSTANCE,
		.logical_instance = 0,
	};
	int ret;

	if (item->flags)
		return -EINVAL;
	ret = query_head(item, &head, sizeof(head), sizeof(head) + sizeof(info));
	if (ret)
		return ret;
	if (head.num_engines || head.rsvd[0] || head.rsvd[1] || head.rsvd[2])
		return -EINVAL;
	head.num_engines = 1;
	return query_answer(item, &head, sizeof(head), &info, sizeof(info));
}

/*
 * System memory as the kernel probes it (totalram), and all of it shown
 * as unallocated (i915 does not track shmem use): the machine's RAM, but
 * a 945G machine holds at most 4 GiB, which is also the largest object
 * gemd can make (GEM_MAX_OBJECT_SIZE).  Clients size their objects by
 * it (IGT gem_create create-clear makes objects of up to half of it).
 */
#define GEN3_MAX_RAM	(4ull << 30)

static uint64_t system_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t ram = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;

	_Static_assert(GEN3_MAX_RAM <= GEM_MAX_OBJECT_SIZE,
		       "any object the region could hold can be made");
	return MIN(ram, GEN3_MAX_RAM);
}

static int query_memregion_info(struct gem_device *dev,
				struct drm_i915_query_item *item)
{
	struct drm_i915_query_memory_regions head;
	struct drm_i915_memory_region_info info;
	size_t i;
	int ret;

	if (item->flags)
		return -EINVAL;
	ret = query_head(item, &head, sizeof(head), sizeof(head) + sizeof(info));
	if (ret)
		return ret;
	if (head.num_regions)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(head.rsvd); i++)
		if (head.rsvd[i])
			return -EINVAL;
	memset(&info, 0, sizeof(info));
	info.region.memory_class = I915_MEMORY_CLASS_SYSTEM;
	info.region.memory_instance = 0;
	info.probed_size = system_memory();
	info.unallocated_size = info.probed_size;
	info.probed_cpu_visible_size = info.probed_size;
	info.unallocated_cpu_visible_size = info.probed_size;
	head.num_regions = 1;
	return query_answer(item, &head, sizeof(head), &info, sizeof(info));
}

/* No OA unit on gen3 (perf->i915 is never set): -ENODEV for a valid
 * request, -EINVAL for an unknown one. */
static int query_perf_config(struct gem_device *dev,
			     struct drm_i915_query_item *item)
{
	switch (item->flags) {
	case DRM_I915_QUERY_PERF_CONFIG_LIST:
	case DRM_I915_QUERY_PERF_CONFIG_DATA_FOR_UUID:
	case DRM_I915_QUERY_PERF_CONFIG_DATA_FOR_ID:
		return -ENODEV;
	default:
		return -EINVAL;
	}
}

/* Topology (no slices before gen8) and the hwconfig blob (GuC only). */
static int query_flags_then_nodev(struct gem_device *dev,
				  struct drm_i915_query_item *item)
{
	return item->flags ? -EINVAL : -ENODEV;
}

/* Geometry subslices: graphics IP 12.50 and later only. */
static int query_nodev(struct gem_device *dev, struct drm_i915_query_item *item)
{
	return -ENODEV;
}

/* i915_query_funcs[], indexed by query_id - 1. */
static int (*const query_funcs[])(struct gem_device *dev,
				  struct drm_i915_query_item *item) = {
	[DRM_I915_QUERY_TOPOLOGY_INFO - 1] = query_flags_then_nodev,
	[DRM_I915_QUERY_ENGINE_INFO - 1] = query_engine_info,
	[DRM_I915_QUERY_PERF_CONFIG - 1] = query_perf_config,
	[DRM_I915_QUERY_MEMORY_REGIONS - 1] = query_memregion_info,
	[DRM_I915_QUERY_HWCONFIG_BLOB - 1] = query_flags_then_nodev,
	[DRM_I915_QUERY_GEOMETRY_SUBSLICES - 1] = query_nodev,
};

int gem_query_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_i915_query *args = data;
	struct drm_i915_query_item *items = (void *)(uintptr_t)args->items_ptr;
	uint32_t i;

	if (args->flags)
		return -EINVAL;
	/* The items come copied in (wire.c); none for a bad pointer. */
	if (args->num_items && !items)
		return -EFAULT;
	for (i = 0; i < args->num_items; i++) {
		struct drm_i915_query_item *item = &items[i];
		int ret = -EINVAL;

		if (item->query_id == 0)
			return -EINVAL;
		if (item->query_id - 1 < ARRAY_SIZE(query_funcs))
			ret = query_funcs[item->query_id - 1](file->dev, item);
		item->length = ret;
	}
	return 0;
}
