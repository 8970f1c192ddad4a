/*
 * preload_drm: libdrm's own paths to the device under the interposer:
 * drmOpen("i915", NULL) (which rejects a device whose GET_UNIQUE is not
 * empty), drmGetVersion, drmGetBusid, and drmGetDevice2 / drmGetDevices2,
 * which walk /dev/dri and the sysfs of the PCI device.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <xf86drm.h>

#include "gemtest.h"
#include "preload-test.h"

int main(int argc, char **argv)
{
	preload_test_init(argc, argv);

	gemtest_subtest("drmOpen-i915") {
		int fd = drmOpen("i915", NULL);

		gt_assert_f(fd >= 0, "drmOpen: %d", fd);
		gt_assert_eq(drmAvailable(), 1);
		drmClose(fd);
	}

	gemtest_subtest("drmGetVersion") {
		int fd = drmOpen("i915", NULL);
		drmVersionPtr v;

		gt_assert(fd >= 0);
		v = drmGetVersion(fd);
		gt_assert(v != NULL);
		gt_assert(!strcmp(v->name, "i915"));
		gt_assert_eq(v->name_len, 4);
		gt_assert_eq(v->version_major, 1);
		gt_assert_eq(v->version_minor, 6);
		gt_assert_eq(v->version_patchlevel, 0);
		gt_assert(v->date_len > 0 && v->desc_len > 0);
		drmFreeVersion(v);
		drmClose(fd);
	}

	gemtest_subtest("drmGetBusid-is-empty") {
		int fd = drmOpen("i915", NULL);
		char *busid;

		gt_assert(fd >= 0);
		busid = drmGetBusid(fd);
		gt_assert(busid != NULL);
		gt_assert(!strcmp(busid, ""));
		drmFreeBusid(busid);
		drmClose(fd);
	}

	gemtest_subtest("drmGetDevice2-sees-a-945g-at-00:02.0") {
		int fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
		drmDevicePtr dev = NULL;

		gt_assert(fd >= 0);
		gt_assert_eq(drmGetDevice2(fd, 0, &dev), 0);
		gt_assert_eq(dev->bustype, DRM_BUS_PCI);
		gt_assert_eq(dev->businfo.pci->domain, 0);
		gt_assert_eq(dev->businfo.pci->bus, 0);
		gt_assert_eq(dev->businfo.pci->dev, 2);
		gt_assert_eq(dev->businfo.pci->func, 0);
		gt_assert_eq(dev->deviceinfo.pci->vendor_id, 0x8086);
		gt_assert_eq(dev->deviceinfo.pci->device_id, 0x2772);
		gt_assert(dev->available_nodes & (1 << DRM_NODE_PRIMARY));
		gt_assert(!strcmp(dev->nodes[DRM_NODE_PRIMARY], "/dev/dri/card0"));
		drmFreeDevice(&dev);
		close(fd);
	}

	gemtest_subtest("drmGetDevices2-finds-one") {
		drmDevicePtr devs[4];
		int n = drmGetDevices2(0, devs, 4);

		gt_assert_eq(n, 1);
		gt_assert_eq(devs[0]->deviceinfo.pci->device_id, 0x2772);
		drmFreeDevices(devs, n);
	}

	gemtest_subtest("drmGetNodeTypeFromFd-and-name") {
		int fd = open("/dev/dri/card0", O_RDWR);
		char *name;

		gt_assert(fd >= 0);
		gt_assert_eq(drmGetNodeTypeFromFd(fd), DRM_NODE_PRIMARY);
		name = drmGetDeviceNameFromFd2(fd);
		gt_assert(name != NULL);
		gt_assert(!strcmp(name, "/dev/dri/card0"));
		free(name);
		close(fd);
	}

	return gemtest_exit();
}
