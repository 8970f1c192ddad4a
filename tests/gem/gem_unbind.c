/*
 * gem_unbind: the driver's unbind and bind (GEM_MSG_CONTROL, what
 * /sys/bus/pci/drivers/i915/unbind and bind do under the interposer), as
 * IGT's core_hotunplug uses them: a file open across the unbind belongs
 * to the old device, where every ioctl (also those libgem answers itself)
 * and every map gives ENODEV and only close works; opens give ENODEV until
 * the bind; the new device's first file is DRM master and sees none of
 * the old flink names.  Unbinding twice is ENODEV, binding twice EBUSY.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemcontrol.h"
#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

static const char *device;

/* gemd's answer to an unbind (bind false: a bind). */
static int control(bool unbind)
{
	struct gdfs_control *ctl;
	int result;

	gt_assert_eq(gdfs_control_open(device, &ctl), 0);
	gt_assert_eq(unbind ? gdfs_unbind(ctl, NULL, &result) :
			      gdfs_bind(ctl, NULL, &result), 0);
	gdfs_control_close(ctl);
	return result;
}

/* IGT's is_master(): AUTH_MAGIC(0) is -EACCES unless master. */
static bool is_master(int fd)
{
	struct drm_auth auth = { .magic = 0 };

	return gt_ioctl_errno(fd, DRM_IOCTL_AUTH_MAGIC, &auth) != -EACCES;
}

static uint32_t flink(int fd, uint32_t handle)
{
	struct drm_gem_flink f = { .handle = handle };

	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_GEM_FLINK, &f), 0);
	return f.name;
}

static int store(int fd, uint32_t batch, uint32_t target, uint32_t value)
{
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, target, 0, value);
	gen3_batch_end(&b);
	return gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, NULL);
}

static void test_old_files(void)
{
	int a = gt_open(), b = gt_open(), c, fd;
	uint32_t obj = gt_create(a, 4096), batch = gt_create(a, 4096);
	uint32_t name = flink(a, obj), v = 0x5a5a5a5a, value = 0;
	struct drm_i915_gem_busy busy = { .handle = obj };
	struct drm_i915_gem_pread pr = {
		.handle = obj, .size = 4, .data_ptr = (uintptr_t)&value,
	};
	struct drm_i915_gem_mmap_gtt mg = { .handle = obj };
	struct drm_gem_open op = { .name = name };
	struct drm_i915_gem_create cr = { .size = 4096 };
	void *p;

	gt_assert(is_master(a));
	gt_write(a, obj, 0, &v, sizeof(v));
	gt_assert_eq(store(a, batch, obj, 7), 0);
	gt_assert_eq(gt_ioctl_errno(a, DRM_IOCTL_I915_GEM_MMAP_GTT, &mg), 0);
	/* The object idle, libgem answers BUSY and copies by itself. */
	gt_sync(a, obj);
	gt_assert_eq(gt_ioctl_errno(a, DRM_IOCTL_I915_GEM_BUSY, &busy), 0);
	gt_assert_eq(gt_ioctl_errno(a, DRM_IOCTL_I915_GEM_PREAD, &pr), 0);
	gt_assert_eq(value, 7);

	gt_assert_eq(control(true), 0);
	gt_assert_eq(control(true), -ENODEV);
	errno = 0;
	gt_assert_eq(gem_open(device, 0), -1);
	gt_assert_eq(errno, ENODEV);
	gt_assert_eq(gt_ioctl_errno(a, DRM_IOCTL_I915_GEM_BUSY, &busy), -ENODEV);
	gt_assert_eq(gt_ioctl_errno(a, DRM_IOCTL_I915_GEM_PREAD, &pr), -ENODEV);
	gt_assert_eq(gt_ioctl_errno(a, DRM_IOCTL_I915_GEM_CREATE, &cr), -ENODEV);
	gt_assert_eq(gt_ioctl_errno(b, DRM_IOCTL_GEM_OPEN, &op), -ENODEV);
	gt_assert_eq(store(a, batch, obj, 8), -ENODEV);
	p = gem_mmap(NULL, 4096, PROT_READ, MAP_SHARED, a, (off_t)mg.offset);
	gt_assert(p == MAP_FAILED);
	gt_assert_eq(errno, ENODEV);

	gt_assert_eq(control(false), 0);
	gt_assert_eq(control(false), -EBUSY);
	/* A new device: its first file is master, the old names are gone. */
	c = gt_open();
	gt_assert(is_master(c));
	gt_assert_eq(gt_ioctl_errno(c, DRM_IOCTL_GEM_OPEN, &op), -ENOENT);
	obj = gt_create(c, 4096);
	batch = gt_create(c, 4096);
	gt_assert_eq(store(c, batch, obj, 9), 0);
	gt_read(c, obj, 0, &value, sizeof(value));
	gt_assert_eq(value, 9);
	/* The old files stay the old device's, and close as usual. */
	gt_assert_eq(gt_ioctl_errno(a, DRM_IOCTL_I915_GEM_CREATE, &cr), -ENODEV);
	gt_assert_eq(gem_close(a), 0);
	gt_assert_eq(gem_close(b), 0);
	fd = gt_open();
	gt_assert(!is_master(fd));
	gem_close(fd);
	gem_close(c);
}

/*
 * Unbinding while the GPU works waits for the work to end: a spinner that
 * a watchdog ends after half a second has ended (its first dword is
 * MI_BATCH_BUFFER_END) by the time the unbind answers.
 */
static void test_unbind_busy(void)
{
	int fd = gt_open(), nfd;
	uint32_t batch = gt_create(fd, 4096), target = gt_create(fd, 4096);
	volatile uint32_t *map = gt_mmap_cpu(fd, batch, 0, 4096);
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_emit_spin(&b, batch);
	gen3_batch_pad_to(&b, GEN3_SPIN_TAIL / 4);
	gen3_emit_store_dword(&b, target, 0, 1);	/* never reached */
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, NULL), 0);
	gt_assert_eq(gt_spin_watchdog(fd, batch, 500), 0);
	gt_assert_eq(control(true), 0);
	gt_assert_eq(map[0], MI_BATCH_BUFFER_END);
	gt_assert_eq(control(false), 0);
	nfd = gt_open();
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_THROTTLE, NULL), -ENODEV);
	gt_assert_eq(gt_getparam(nfd, I915_PARAM_CHIPSET_ID), 0x2772);
	gem_close(fd);
	gem_close(nfd);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);
	device = gemtest_start_gemd(NULL);
	gt_program_timeout(120, gemtest_gemd_pid());

	gemtest_subtest("old-files-enodev-new-device-fresh")
		test_old_files();
	gemtest_subtest("unbind-waits-for-the-gpu")
		test_unbind_busy();
	return gemtest_exit();
}
