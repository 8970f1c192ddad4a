/*
 * preload_unbind: the driver core's files under the interposer, used as
 * IGT's core_hotunplug uses them (igt_sysfs_set on a directory fd, then
 * faccessat): writing the device's name to the i915 driver's unbind takes
 * the driver's link to the device and the device's driver link away, and
 * the device node with them (open: ENOENT), while an fd open across it
 * gets ENODEV; bind brings them back for a new device.  The device's
 * remove takes it off the bus (the bus's link goes), the bus's rescan
 * brings it back bound.  Errors as the driver core gives them.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "preload-test.h"

#define PCI_DEV		"/sys/bus/pci/devices/0000:00:02.0"
#define NAME		"0000:00:02.0"

/* igt_sysfs_set: open relative to dir, write the text: 0 or -errno. */
static int sysfs_set(int dir, const char *attr, const char *text)
{
	int fd = openat(dir, attr, O_WRONLY);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	err = errno;
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : n < 0 ? -err : -EIO;
}

static bool present(int dir, const char *name)
{
	return faccessat(dir, name, F_OK, 0) == 0;
}

static int open_card(void)
{
	return open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
}

static int getparam(int fd)
{
	int value = 0;
	struct drm_i915_getparam gp = {
		.param = I915_PARAM_CHIPSET_ID, .value = &value,
	};

	return ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp) ? -errno : value;
}

struct dirs {
	int dev, drv, bus;
};

static struct dirs open_dirs(void)
{
	struct dirs d;

	d.dev = open(PCI_DEV, O_DIRECTORY | O_RDONLY);
	gt_assert_f(d.dev >= 0, "open %s: %s", PCI_DEV, strerror(errno));
	d.drv = openat(d.dev, "driver", O_DIRECTORY | O_RDONLY);
	gt_assert_f(d.drv >= 0, "openat driver: %s", strerror(errno));
	d.bus = openat(d.dev, "subsystem/devices", O_DIRECTORY | O_RDONLY);
	gt_assert_f(d.bus >= 0, "openat subsystem/devices: %s", strerror(errno));
	return d;
}

static void close_dirs(struct dirs *d)
{
	close(d->dev);
	close(d->drv);
	close(d->bus);
}

static void test_unbind_bind(void)
{
	struct dirs d = open_dirs();
	int old = open_card(), fd;

	gt_assert(old >= 0);
	gt_assert_eq(getparam(old), 0x2772);
	gt_assert(present(d.drv, NAME));
	gt_assert_eq(sysfs_set(d.drv, "unbind", "0000:00:02.1"), -ENODEV);
	gt_assert_eq(sysfs_set(d.drv, "unbind", NAME), 0);
	gt_assert(!present(d.drv, NAME));
	gt_assert(!present(d.dev, "driver"));
	gt_assert(present(d.bus, NAME));
	gt_assert_eq(sysfs_set(d.drv, "unbind", NAME), -ENODEV);
	errno = 0;
	gt_assert_eq(open_card(), -1);
	gt_assert_eq(errno, ENOENT);
	gt_assert_eq(getparam(old), -ENODEV);

	gt_assert_eq(sysfs_set(d.drv, "bind", NAME "\n"), 0);
	gt_assert(present(d.drv, NAME));
	gt_assert(present(d.dev, "driver"));
	gt_assert_eq(sysfs_set(d.drv, "bind", NAME), -EBUSY);
	fd = open_card();
	gt_assert(fd >= 0);
	gt_assert_eq(getparam(fd), 0x2772);
	gt_assert_eq(getparam(old), -ENODEV);
	gt_assert_eq(close(old), 0);
	close(fd);
	close_dirs(&d);
}

static void test_remove_rescan(void)
{
	struct dirs d = open_dirs();
	int fd;

	gt_assert_eq(sysfs_set(d.dev, "remove", "x"), -EINVAL);
	gt_assert_eq(sysfs_set(d.dev, "remove", "1"), 0);
	gt_assert(!present(d.bus, NAME));
	gt_assert(!present(d.drv, NAME));
	errno = 0;
	gt_assert_eq(open_card(), -1);
	gt_assert_eq(errno, ENOENT);
	/* Not on the bus: nothing to bind. */
	gt_assert_eq(sysfs_set(d.drv, "bind", NAME), -ENODEV);

	gt_assert_eq(sysfs_set(d.bus, "../rescan", "1"), 0);
	gt_assert(present(d.bus, NAME));
	gt_assert(present(d.drv, NAME));
	fd = open_card();
	gt_assert(fd >= 0);
	gt_assert_eq(getparam(fd), 0x2772);
	/* A second rescan finds nothing new. */
	gt_assert_eq(sysfs_set(d.bus, "../rescan", "1"), 0);
	gt_assert_eq(getparam(fd), 0x2772);
	close(fd);
	close_dirs(&d);
}

int main(int argc, char **argv)
{
	preload_test_init(argc, argv);

	gemtest_subtest("unbind-bind-as-core-hotunplug")
		test_unbind_bind();
	gemtest_subtest("remove-rescan")
		test_remove_rescan();
	return gemtest_exit();
}
