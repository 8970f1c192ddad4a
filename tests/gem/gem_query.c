/*
 * gem_query: DRM_IOCTL_I915_QUERY as Linux 6.1 answers on a 945G: one
 * engine (rcs0), one memory region (all of system memory), -ENODEV for
 * what gen3 lacks; errors per item in the item's length.  IGT's allocator
 * and memory region helpers start with these two queries.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "libgem.h"

#define ENGINES_LEN	(int)(sizeof(struct drm_i915_query_engine_info) + \
			      sizeof(struct drm_i915_engine_info))
#define REGIONS_LEN	(int)(sizeof(struct drm_i915_query_memory_regions) + \
			      sizeof(struct drm_i915_memory_region_info))

static int query(int fd, struct drm_i915_query_item *items, uint32_t n)
{
	struct drm_i915_query q = {
		.num_items = n, .items_ptr = (uintptr_t)items,
	};

	return gem_ioctl(fd, DRM_IOCTL_I915_QUERY, &q) ? -errno : 0;
}

/* One item: its resulting length. */
static int32_t query_one(int fd, uint64_t id, uint32_t flags, void *data, int32_t len)
{
	struct drm_i915_query_item item = {
		.query_id = id, .flags = flags, .length = len,
		.data_ptr = (uintptr_t)data,
	};

	gt_assert_eq(query(fd, &item, 1), 0);
	return item.length;
}

static void test_sizes(int fd)
{
	struct drm_i915_query_item items[2] = {
		{ .query_id = DRM_I915_QUERY_ENGINE_INFO },
		{ .query_id = DRM_I915_QUERY_MEMORY_REGIONS },
	};

	gt_assert_eq(query(fd, items, 2), 0);
	gt_assert_eq(items[0].length, ENGINES_LEN);
	gt_assert_eq(items[1].length, REGIONS_LEN);
	gt_assert_eq(ENGINES_LEN, 72);
	gt_assert_eq(REGIONS_LEN, 104);
}

static void test_engine_info(int fd)
{
	union {
		struct drm_i915_query_engine_info q;
		uint8_t bytes[256];
	} u;

	memset(&u, 0xa5, sizeof(u));
	memset(&u.q, 0, sizeof(u.q));
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_ENGINE_INFO, 0, &u, sizeof(u)),
		     ENGINES_LEN);
	gt_assert_eq(u.q.num_engines, 1);
	gt_assert_eq(u.q.engines[0].engine.engine_class, I915_ENGINE_CLASS_RENDER);
	gt_assert_eq(u.q.engines[0].engine.engine_instance, 0);
	gt_assert_eq_u64(u.q.engines[0].flags, I915_ENGINE_INFO_HAS_LOGICAL_INSTANCE);
	gt_assert_eq_u64(u.q.engines[0].capabilities, 0);
	gt_assert_eq(u.q.engines[0].logical_instance, 0);
	/* Nothing past the answer is written. */
	gt_assert_eq(u.bytes[ENGINES_LEN], 0xa5);
}

static void test_memory_regions(int fd)
{
	union {
		struct drm_i915_query_memory_regions q;
		uint8_t room[sizeof(struct drm_i915_query_memory_regions) +
			     sizeof(struct drm_i915_memory_region_info)];
	} u;
	uint64_t ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t size;
	uint32_t big;

	/* A 945G machine has at most 4 GiB, and an object as big as the
	 * region can be made (IGT gem_create create-clear sizes its
	 * objects by it). */
	if (ram > (4ull << 30))
		ram = 4ull << 30;

	memset(&u, 0, sizeof(u));
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_MEMORY_REGIONS, 0, &u, sizeof(u)),
		     REGIONS_LEN);
	gt_assert_eq(u.q.num_regions, 1);
	gt_assert_eq(u.q.regions[0].region.memory_class, I915_MEMORY_CLASS_SYSTEM);
	gt_assert_eq(u.q.regions[0].region.memory_instance, 0);
	gt_assert_eq_u64(u.q.regions[0].probed_size, ram);
	gt_assert_eq_u64(u.q.regions[0].unallocated_size, ram);
	gt_assert_eq_u64(u.q.regions[0].probed_cpu_visible_size, ram);
	size = u.q.regions[0].probed_size;
	gt_assert_eq(__gt_create(fd, &size, &big), 0);
	gt_close(fd, big);
}

/* copy_query_item and the header checks: errors go in the length. */
static void test_item_errors(int fd)
{
	union {
		struct drm_i915_query_memory_regions q;
		uint8_t room[sizeof(struct drm_i915_query_memory_regions) +
			     sizeof(struct drm_i915_memory_region_info)];
	} u;

	memset(&u, 0, sizeof(u));
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_MEMORY_REGIONS, 0, &u, REGIONS_LEN - 1),
		     -EINVAL);
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_MEMORY_REGIONS, 0, &u, -1), -EINVAL);
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_MEMORY_REGIONS, 1, &u, 0), -EINVAL);
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_ENGINE_INFO, 1, &u, 0), -EINVAL);
	u.q.num_regions = 1;		/* MBZ on input */
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_MEMORY_REGIONS, 0, &u, sizeof(u)),
		     -EINVAL);
	u.q.num_regions = 0;
	u.q.rsvd[2] = 1;
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_MEMORY_REGIONS, 0, &u, sizeof(u)),
		     -EINVAL);
}

/* What gen3 has no hardware for, and ids past the last. */
static void test_unsupported(int fd)
{
	uint8_t buf[4096];

	gt_assert_eq(query_one(fd, DRM_I915_QUERY_TOPOLOGY_INFO, 0, NULL, 0), -ENODEV);
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_TOPOLOGY_INFO, 1, NULL, 0), -EINVAL);
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_PERF_CONFIG,
			       DRM_I915_QUERY_PERF_CONFIG_LIST, buf, sizeof(buf)), -ENODEV);
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_PERF_CONFIG, 0, NULL, 0), -EINVAL);
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_HWCONFIG_BLOB, 0, NULL, 0), -ENODEV);
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_GEOMETRY_SUBSLICES, 0, NULL, 0),
		     -ENODEV);
	gt_assert_eq(query_one(fd, 7, 0, NULL, 0), -EINVAL);
	gt_assert_eq(query_one(fd, ~0ull, 0, NULL, 0), -EINVAL);
}

/* Errors of the whole ioctl: flags, query id 0, an unreadable array. */
static void test_ioctl_errors(int fd)
{
	struct drm_i915_query_item item = { .query_id = 0 };
	struct drm_i915_query q = { .num_items = 1, .items_ptr = (uintptr_t)&item };

	gt_assert_eq(query(fd, &item, 1), -EINVAL);
	item.query_id = DRM_I915_QUERY_ENGINE_INFO;
	q.flags = 1;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_QUERY, &q), EINVAL);
	q.flags = 0;
	q.items_ptr = 0;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_QUERY, &q), EFAULT);
	/* No items: nothing to do. */
	q.num_items = 0;
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_QUERY, &q), 0);
}

/* A data buffer the kernel cannot read or write: -EFAULT in the length. */
static void test_bad_data(int fd)
{
	void *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	gt_assert(ro != MAP_FAILED && none != MAP_FAILED);
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_ENGINE_INFO, 0, none, 4096), -EFAULT);
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_ENGINE_INFO, 0, ro, 4096), -EFAULT);
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_ENGINE_INFO, 0, (void *)8, 4096),
		     -EFAULT);
	/* Only asking for the size reads nothing. */
	gt_assert_eq(query_one(fd, DRM_I915_QUERY_ENGINE_INFO, 0, none, 0), ENGINES_LEN);
	munmap(ro, 4096);
	munmap(none, 4096);
}

int main(int argc, char **argv)
{
	int fd;

	gemtest_init(argc, argv);
	gemtest_start_gemd(NULL);
	fd = gt_open();

	gemtest_subtest("query-sizes")
		test_sizes(fd);
	gemtest_subtest("query-engine-info")
		test_engine_info(fd);
	gemtest_subtest("query-memory-regions")
		test_memory_regions(fd);
	gemtest_subtest("query-item-errors")
		test_item_errors(fd);
	gemtest_subtest("query-unsupported")
		test_unsupported(fd);
	gemtest_subtest("query-ioctl-errors")
		test_ioctl_errors(fd);
	gemtest_subtest("query-bad-data")
		test_bad_data(fd);

	gem_close(fd);
	return gemtest_exit();
}
