/*
 * gem_rw: object contents through PWRITE/PREAD, GEM_MMAP (CPU) and
 * MMAP_GTT, and the bounds and handle checks of each.
 */
#include <dirent.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	gt_assert(p);
	return p;
}

static void check_bytes(const uint8_t *got, const uint8_t *expect, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		gt_assert_f(got[i] == expect[i],
			    "byte %zu: got 0x%02x, expected 0x%02x", i, got[i],
			    expect[i]);
}

/* Whole-object round trips at a few sizes, and a fresh object is zeroed. */
static void test_roundtrip(int fd)
{
	static const uint64_t sizes[] = { 4096, 8192, 65536, 1 << 20, 16 << 20 };
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t size = sizes[i];
		uint8_t *buf = xmalloc(size);
		uint32_t h = gt_create(fd, size);
		size_t bad = 0;

		gt_read(fd, h, 0, buf, size);
		for (bad = 0; bad < size; bad++)
			gt_assert_f(!buf[bad], "new object byte %zu is 0x%02x",
				    bad, buf[bad]);
		gt_fill_pattern(buf, size, (uint32_t)i + 1);
		gt_write(fd, h, 0, buf, size);
		memset(buf, 0, size);
		gt_read(fd, h, 0, buf, size);
		gt_assert_f(gt_check_pattern(buf, size, (uint32_t)i + 1, &bad),
			    "size %" PRIu64 ": first bad byte %zu", size, bad);
		gt_close(fd, h);
		free(buf);
	}
}

/* Partial writes at odd offsets land exactly where asked. */
static void test_partial(int fd)
{
	const size_t size = 3 * 4096;
	uint8_t *ref = xmalloc(size), *got = xmalloc(size), chunk[5000];
	static const struct { uint64_t off, len; } w[] = {
		{ 0, 1 }, { 1, 3 }, { 4093, 7 }, { 4096, 4096 },
		{ 8191, 2 }, { 100, 5000 }, { size - 1, 1 }, { 2047, 2049 },
	};
	uint32_t h = gt_create(fd, size), seed = 7;
	size_t i, j;

	memset(ref, 0, size);
	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		for (j = 0; j < w[i].len; j++)
			chunk[j] = (uint8_t)gt_rand(&seed);
		gt_write(fd, h, w[i].off, chunk, w[i].len);
		memcpy(ref + w[i].off, chunk, w[i].len);
		/* Read back the piece alone, then the whole object. */
		memset(chunk, 0, w[i].len);
		gt_read(fd, h, w[i].off, chunk, w[i].len);
		check_bytes(chunk, ref + w[i].off, w[i].len);
		gt_read(fd, h, 0, got, size);
		check_bytes(got, ref, size);
	}
	gt_close(fd, h);
	free(ref);
	free(got);
}

static void test_bounds(int fd)
{
	uint32_t h = gt_create(fd, 8192);
	uint8_t buf[16] = { 1, 2, 3, 4 };

	gt_assert_errno(__gt_write(fd, h, 8192 - 3, buf, 4), EINVAL);
	gt_assert_errno(__gt_read(fd, h, 8192 - 3, buf, 4), EINVAL);
	gt_assert_errno(__gt_write(fd, h, 8192, buf, 1), EINVAL);
	gt_assert_errno(__gt_read(fd, h, 8192, buf, 1), EINVAL);
	gt_assert_errno(__gt_write(fd, h, 0, buf, 8193), EINVAL);
	gt_assert_errno(__gt_read(fd, h, 0, buf, 8193), EINVAL);
	gt_assert_errno(__gt_write(fd, h, 1ull << 40, buf, 4), EINVAL);
	/* offset + size wraps around 2^64: still out of bounds. */
	gt_assert_errno(__gt_write(fd, h, ~0ull - 1, buf, 4), EINVAL);
	gt_assert_errno(__gt_read(fd, h, 4, buf, ~0ull - 1), EINVAL);

	/* The last bytes are fine, and so is nothing at all. */
	gt_write(fd, h, 8192 - 4, buf, 4);
	memset(buf, 0, sizeof(buf));
	gt_read(fd, h, 8192 - 4, buf, 4);
	gt_assert(buf[0] == 1 && buf[3] == 4);
	gt_assert_eq(__gt_write(fd, h, 0, buf, 0), 0);
	gt_assert_eq(__gt_read(fd, h, 0, buf, 0), 0);
	gt_assert_eq(__gt_write(fd, h, 8192, buf, 0), 0);
	gt_assert_eq(__gt_read(fd, h, 8192, buf, 0), 0);
	gt_close(fd, h);
}

static void test_bad_handle(int fd)
{
	uint32_t h = gt_create(fd, 4096), v = 0;
	struct drm_i915_gem_mmap mm = { .handle = h + 100, .size = 4096 };
	struct drm_i915_gem_mmap_gtt mg = { .handle = h + 100 };

	gt_assert_errno(__gt_write(fd, h + 100, 0, &v, 4), ENOENT);
	gt_assert_errno(__gt_read(fd, h + 100, 0, &v, 4), ENOENT);
	gt_assert_errno(__gt_write(fd, 0, 0, &v, 4), ENOENT);
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &mm), ENOENT);
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_GTT, &mg), ENOENT);
	gt_close(fd, h);
	gt_assert_errno(__gt_read(fd, h, 0, &v, 4), ENOENT);
}

/* GEM_MMAP: the pointer is the object, both ways. */
static void test_mmap_cpu(int fd)
{
	const size_t size = 64 << 10;
	uint8_t *buf = xmalloc(size);
	uint32_t h = gt_create(fd, size);
	uint8_t *map;
	size_t bad = 0;

	map = gt_mmap_cpu(fd, h, 0, size);
	gt_set_domain(fd, h, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU);
	gt_fill_pattern(map, size, 11);
	gt_read(fd, h, 0, buf, size);
	gt_assert_f(gt_check_pattern(buf, size, 11, &bad), "pread sees map: byte %zu", bad);

	gt_fill_pattern(buf, size, 12);
	gt_write(fd, h, 0, buf, size);
	gt_set_domain(fd, h, I915_GEM_DOMAIN_CPU, 0);
	gt_assert_f(gt_check_pattern(map, size, 12, &bad), "map sees pwrite: byte %zu", bad);
	gt_assert_eq(munmap(map, size), 0);

	/* A map with an offset starts at that offset of the object. */
	map = gt_mmap_cpu(fd, h, 16384, 8192);
	gt_set_domain(fd, h, I915_GEM_DOMAIN_CPU, 0);
	check_bytes(map, buf + 16384, 8192);
	gt_set_domain(fd, h, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU);
	map[0] = 0xa5;
	gt_read(fd, h, 16384, buf, 1);
	gt_assert_eq(buf[0], 0xa5);
	gt_assert_eq(munmap(map, 8192), 0);

	/* Out of bounds maps. */
	{
		struct drm_i915_gem_mmap mm = { .handle = h, .offset = size, .size = 4096 };

		gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &mm), EINVAL);
		mm.offset = 0;
		mm.size = size + 4096;
		gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &mm), EINVAL);
	}
	gt_close(fd, h);
	free(buf);
}

/* MMAP_GTT: the fake offset maps the object through gem_mmap. */
static void test_mmap_gtt(int fd)
{
	const size_t size = 256 << 10;
	uint8_t *buf = xmalloc(size);
	uint32_t h = gt_create(fd, size);
	uint8_t *map;
	size_t bad = 0;

	map = gt_mmap_gtt(fd, h, size);
	gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT);
	gt_fill_pattern(map, size, 21);
	gt_read(fd, h, 0, buf, size);
	gt_assert_f(gt_check_pattern(buf, size, 21, &bad), "pread sees gtt map: byte %zu", bad);

	gt_fill_pattern(buf, size, 22);
	gt_write(fd, h, 0, buf, size);
	gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT, 0);
	gt_assert_f(gt_check_pattern(map, size, 22, &bad), "gtt map sees pwrite: byte %zu", bad);
	gt_assert_eq(munmap(map, size), 0);

	/* Two objects get two offsets, each mapping its own object. */
	{
		uint32_t h2 = gt_create(fd, 4096);
		struct drm_i915_gem_mmap_gtt a = { .handle = h }, b = { .handle = h2 };
		uint32_t *m2, v = 0x600d600d;

		gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_GTT, &a), 0);
		gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_GTT, &b), 0);
		gt_assert(a.offset != b.offset);
		gt_assert_eq(a.offset & 4095, 0);
		gt_assert_eq(b.offset & 4095, 0);
		m2 = gt_mmap_gtt(fd, h2, 4096);
		gt_set_domain(fd, h2, I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT);
		m2[1023] = v;
		gt_read(fd, h2, 4092, &v, 4);
		gt_assert_eq(v, 0x600d600d);
		gt_read(fd, h, 4092, &v, 4);
		gt_assert(v != 0x600d600d);
		munmap(m2, 4096);
		gt_close(fd, h2);
	}
	gt_close(fd, h);
	free(buf);
}

/*
 * A mapping keeps working after the handle is closed: it holds a
 * reference, as a kernel VMA holds the shmem file.  Its pages are not
 * handed to new objects meanwhile, which start zeroed and stay apart.
 */
static void test_map_outlives_handle(int fd)
{
	uint32_t h = gt_create(fd, 8192), h2[4], buf[2048];
	uint32_t *map = gt_mmap_cpu(fd, h, 0, 8192);
	int i, j;

	gt_set_domain(fd, h, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU);
	map[0] = 0xabcdef01;
	gt_close(fd, h);
	for (i = 0; i < 4; i++)
		h2[i] = gt_create(fd, 8192);
	for (j = 0; j < 2048; j++)
		map[j] = 0x10fedcba ^ (uint32_t)j;
	for (j = 0; j < 2048; j++)
		gt_assert_eq(map[j], 0x10fedcba ^ (uint32_t)j);
	for (i = 0; i < 4; i++) {
		gt_read(fd, h2[i], 0, buf, sizeof(buf));
		for (j = 0; j < 2048; j++)
			gt_assert_f(buf[j] == 0, "new object %d dword %d is 0x%x",
				    i, j, buf[j]);
		gt_close(fd, h2[i]);
	}
	gt_assert_eq(munmap(map, 8192), 0);
}

/*
 * What the object held when its last handle went is still there through
 * a CPU or GTT mapping (the kernel keeps the pages while mapped), in a
 * file's shared memory and in an object's own (16 MiB and more), however
 * many objects come and go meanwhile.
 */
static void check_map_keeps_contents(int fd, uint64_t size, bool gtt)
{
	uint32_t h = gt_create(fd, size), more[8];
	uint8_t *map = gtt ? gt_mmap_gtt(fd, h, size) : gt_mmap_cpu(fd, h, 0, size);
	size_t bad = 0;
	int i;

	gt_set_domain(fd, h, gtt ? I915_GEM_DOMAIN_GTT : I915_GEM_DOMAIN_CPU,
		      gtt ? I915_GEM_DOMAIN_GTT : I915_GEM_DOMAIN_CPU);
	gt_fill_pattern(map, size, 31);
	gt_close(fd, h);
	for (i = 0; i < 8; i++) {
		more[i] = gt_create(fd, size);
		gt_write(fd, more[i], 0, "new", 3);
	}
	gt_assert_f(gt_check_pattern(map, size, 31, &bad), "byte %zu", bad);
	for (i = 0; i < 8; i++)
		gt_close(fd, more[i]);
	gt_assert_f(gt_check_pattern(map, size, 31, &bad), "byte %zu", bad);
	gt_assert_eq(gem_munmap(map, size), 0);
}

/* This process's descriptors and mappings of object memory. */
static void count_object_memory(int *fds, int *maps)
{
	DIR *d = opendir("/proc/self/fd");
	FILE *f = fopen("/proc/self/maps", "r");
	struct dirent *e;
	char line[512];

	gt_assert(d && f);
	*fds = *maps = 0;
	while ((e = readdir(d))) {
		char path[300], link[256];
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n > 0 && !strncmp(link, "/memfd:gem-arena", 16))
			(*fds)++;
	}
	while (fgets(line, sizeof(line), f))
		*maps += strstr(line, "/memfd:gem-arena") != NULL;
	closedir(d);
	fclose(f);
}

/*
 * Objects of 1 GiB have memory of their own; reading them must not leave
 * a descriptor or a mapping behind for each (gem_create create-clear ran
 * out of descriptors after 2,500 of them: cause 14).
 */
static void test_arena_descriptors_bounded(int fd)
{
	int i, fds, maps, maps0;
	uint32_t v;

	/* What earlier subtests left (libgem's cache of small objects'
	 * arenas, which outlive their objects' handles) is not counted. */
	count_object_memory(&fds, &maps0);
	for (i = 0; i < 64; i++) {
		uint32_t h = gt_create(fd, 1ull << 30);

		v = 1;
		gt_read(fd, h, (1ull << 30) - 4, &v, 4);
		gt_assert_eq(v, 0);
		gt_close(fd, h);
	}
	count_object_memory(&fds, &maps);
	gt_assert_f(fds <= 16, "%d descriptors of object memory", fds);
	gt_assert_f(maps <= maps0, "%d mappings of object memory, %d before", maps, maps0);
}

/*
 * An object of 16 MiB or more has memory of its own, which the kernel
 * gives back when its last handle closes (and its last mapping goes):
 * libgem must not keep it in its cache of descriptors after that.
 * IGT's gem_exec_reloc cpu-32/wc-32 ran out of memory with 4 GiB objects
 * the cache kept after their close.
 */
static void test_big_object_freed_at_close(int fd)
{
	const uint64_t size = 32ull << 20;
	int fds0, maps0, fds, maps;
	uint32_t h, v = 0x5a5a5a5a;
	void *map;

	count_object_memory(&fds0, &maps0);
	h = gt_create(fd, size);
	gt_write(fd, h, size - 4, &v, 4);
	gt_read(fd, h, size - 4, &v, 4);
	gt_assert_eq(v, 0x5a5a5a5a);
	count_object_memory(&fds, &maps);
	gt_assert_f(fds > fds0, "no descriptor of the object: the test tests nothing");
	gt_close(fd, h);
	count_object_memory(&fds, &maps);
	gt_assert_eq(fds, fds0);
	gt_assert_eq(maps, maps0);

	/* The same after a CPU map that is gone before the close. */
	h = gt_create(fd, size);
	map = gt_mmap_cpu(fd, h, 0, size);
	memset(map, 1, 4096);
	gt_assert_eq(gem_munmap(map, size), 0);
	gt_close(fd, h);
	count_object_memory(&fds, &maps);
	gt_assert_eq(fds, fds0);
	gt_assert_eq(maps, maps0);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 120);

	gemtest_subtest("pwrite-pread-roundtrip")
		test_roundtrip(fd);
	gemtest_subtest("pwrite-pread-partial")
		test_partial(fd);
	gemtest_subtest("pwrite-pread-bounds")
		test_bounds(fd);
	gemtest_subtest("unknown-handle-enoent")
		test_bad_handle(fd);
	gemtest_subtest("mmap-cpu")
		test_mmap_cpu(fd);
	gemtest_subtest("mmap-gtt")
		test_mmap_gtt(fd);
	gemtest_subtest("cpu-map-keeps-contents")
		check_map_keeps_contents(fd, 64 << 10, false);
	gemtest_subtest("gtt-map-keeps-contents")
		check_map_keeps_contents(fd, 64 << 10, true);
	gemtest_subtest("big-cpu-map-keeps-contents")
		check_map_keeps_contents(fd, 16 << 20, false);
	gemtest_subtest("big-gtt-map-keeps-contents")
		check_map_keeps_contents(fd, 24 << 20, true);
	gemtest_subtest("big-object-freed-at-close")
		test_big_object_freed_at_close(fd);
	gemtest_subtest("arena-descriptors-bounded")
		test_arena_descriptors_bounded(fd);
	gemtest_subtest("mmap-outlives-handle")
		test_map_outlives_handle(fd);

	gem_close(fd);
	return gemtest_exit();
}
