/*
 * gem_flink: global names (GEM_FLINK) and opening them from another
 * drm_file (GEM_OPEN): same object, same contents, and the name lives as
 * long as some handle to the object does.
 */
#include <sys/mman.h>
#include <time.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

static int flink(int fd, uint32_t handle, uint32_t *name)
{
	struct drm_gem_flink arg = { .handle = handle };
	int ret = gem_ioctl(fd, DRM_IOCTL_GEM_FLINK, &arg);

	*name = arg.name;
	return ret;
}

static int gem_open_name(int fd, uint32_t name, uint32_t *handle, uint64_t *size)
{
	struct drm_gem_open arg = { .name = name };
	int ret = gem_ioctl(fd, DRM_IOCTL_GEM_OPEN, &arg);

	*handle = arg.handle;
	if (size)
		*size = arg.size;
	return ret;
}

static void test_name(int fd)
{
	uint32_t a = gt_create(fd, 4096), b = gt_create(fd, 4096);
	uint32_t na = 0, na2 = 0, nb = 0;

	gt_assert_eq(flink(fd, a, &na), 0);
	gt_assert(na != 0);
	gt_assert_eq(flink(fd, a, &na2), 0);
	gt_assert_eq(na2, na);
	gt_assert_eq(flink(fd, b, &nb), 0);
	gt_assert(nb != 0 && nb != na);
	gt_close(fd, a);
	gt_close(fd, b);
}

static void test_errors(int fd)
{
	uint32_t h = gt_create(fd, 4096), name, oh = 0;

	gt_assert_errno(flink(fd, h + 10, &name), ENOENT);
	gt_assert_errno(flink(fd, 0, &name), ENOENT);
	gt_assert_errno(gem_open_name(fd, 0x7ffffff0, &oh, NULL), ENOENT);
	gt_assert_errno(gem_open_name(fd, 0, &oh, NULL), ENOENT);
	gt_close(fd, h);
}

/* Another file opens the name: a new handle on the same pages. */
static void test_open_shared(int fd)
{
	int other = gt_open();
	uint32_t h = gt_create(fd, 3 * 4096 + 1), name, oh = 0, buf[256], i;
	uint64_t size = 0;

	gt_assert_eq(flink(fd, h, &name), 0);
	gt_assert_eq(gem_open_name(other, name, &oh, &size), 0);
	gt_assert(oh != 0);
	gt_assert_eq_u64(size, 4 * 4096);

	for (i = 0; i < 256; i++)
		buf[i] = 0xa0000000u | i;
	gt_write(fd, h, 4096, buf, sizeof(buf));
	memset(buf, 0, sizeof(buf));
	gt_read(other, oh, 4096, buf, sizeof(buf));
	for (i = 0; i < 256; i++)
		gt_assert_eq(buf[i], 0xa0000000u | i);

	buf[0] = 0x0b0b0b0b;
	gt_write(other, oh, 16380, buf, 4);
	gt_read(fd, h, 16380, buf, 4);
	gt_assert_eq(buf[0], 0x0b0b0b0b);

	/* A GTT map in one file sees what the other wrote. */
	{
		uint32_t *map = gt_mmap_gtt(other, oh, 16384);

		gt_set_domain(other, oh, I915_GEM_DOMAIN_GTT, 0);
		gt_assert_eq(map[4095], 0x0b0b0b0b);
		gt_assert_eq(map[1024], 0xa0000000u);
		gt_assert_eq(munmap(map, 16384), 0);
	}
	gt_close(other, oh);
	gt_close(fd, h);
	gem_close(other);
}

/* The GPU writes through one file's handle, the other file reads it. */
static void test_gpu_shared(int fd)
{
	int other = gt_open();
	uint32_t h = gt_create(fd, 4096), batch = gt_create(other, 4096);
	uint32_t name, oh, v = 0;
	struct gen3_batch b;

	gt_assert_eq(flink(fd, h, &name), 0);
	gt_assert_eq(gem_open_name(other, name, &oh, NULL), 0);
	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, oh, 64, 0x5ca1ab1e);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(other, &b, batch, &oh, NULL, 1, 0, NULL), 0);
	gt_read(fd, h, 64, &v, 4);
	gt_assert_eq(v, 0x5ca1ab1e);
	gt_close(other, oh);
	gt_close(other, batch);
	gt_close(fd, h);
	gem_close(other);
}

/*
 * gemd releases a closed file when it reads EOF on the socket, a moment
 * after close(2) returns (the kernel does it before close returns): give
 * it up to two seconds.
 */
static int open_name_eventually_enoent(int fd, uint32_t name)
{
	struct timespec ts = { 0, 10 * 1000000L };
	uint32_t h;
	int i;

	for (i = 0; i < 200; i++) {
		if (gem_open_name(fd, name, &h, NULL) < 0)
			return errno;
		gt_close(fd, h);
		nanosleep(&ts, NULL);
	}
	return 0;
}

/*
 * The name goes with the last handle: closing the creator's handle keeps
 * it while the other file still holds one; closing that one too, or the
 * whole other file, removes it.
 */
static void test_name_lifetime(int fd)
{
	int other = gt_open();
	uint32_t h = gt_create(fd, 8192), name, oh, again, v = 0x77;
	uint64_t size;

	gt_assert_eq(flink(fd, h, &name), 0);
	gt_assert_eq(gem_open_name(other, name, &oh, NULL), 0);
	gt_write(fd, h, 0, &v, 4);
	gt_close(fd, h);

	/* Still reachable by name, contents intact. */
	gt_assert_eq(gem_open_name(fd, name, &again, &size), 0);
	gt_assert_eq_u64(size, 8192);
	v = 0;
	gt_read(fd, again, 0, &v, 4);
	gt_assert_eq(v, 0x77);
	gt_close(fd, again);

	gt_close(other, oh);
	gt_assert_errno(gem_open_name(fd, name, &again, NULL), ENOENT);
	gt_assert_errno(gem_open_name(other, name, &again, NULL), ENOENT);

	/* Same again, but the other file goes away as a whole. */
	h = gt_create(fd, 4096);
	gt_assert_eq(flink(fd, h, &name), 0);
	gt_assert_eq(gem_open_name(other, name, &oh, NULL), 0);
	gt_close(fd, h);
	gt_assert_eq(gem_open_name(fd, name, &again, NULL), 0);
	gt_close(fd, again);
	gem_close(other);
	gt_assert_eq(open_name_eventually_enoent(fd, name), ENOENT);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 120);

	gemtest_subtest("flink-name")
		test_name(fd);
	gemtest_subtest("flink-open-errors")
		test_errors(fd);
	gemtest_subtest("open-from-second-file")
		test_open_shared(fd);
	gemtest_subtest("gpu-write-shared")
		test_gpu_shared(fd);
	gemtest_subtest("name-lifetime")
		test_name_lifetime(fd);

	gem_close(fd);
	return gemtest_exit();
}
