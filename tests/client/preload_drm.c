/*
 * preload_drm: libdrm's own paths to the device under the interposer:
 * drmOpen("i915", NULL) (which rejects a device whose GET_UNIQUE is not
 * empty), drmGetVersion, drmGetBusid, and drmGetDevice2 / drmGetDevices2,
 * which walk /dev/dri and the sysfs of the PCI device.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
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

	/* What libpciaccess reads (IGT's gem_mappable_aperture_size): the
	 * config header, the BARs in "resource", and a bus listing the
	 * 945G alone. */
	gemtest_subtest("pci-config-resource-listing") {
		uint8_t cfg[300];
		char res[1024], a[32], b[32], c[32];
		unsigned long long start, end;
		struct dirent *de;
		int fd, n, line;
		DIR *d;
		FILE *f;

		fd = open("/sys/bus/pci/devices/0000:00:02.0/config", O_RDONLY);
		gt_assert(fd >= 0);
		gt_assert_eq(read(fd, cfg, sizeof(cfg)), 256);
		close(fd);
		gt_assert_eq(cfg[0] | cfg[1] << 8, 0x8086);
		gt_assert_eq(cfg[2] | cfg[3] << 8, 0x2772);
		gt_assert_eq(cfg[0x0b], 0x03);			/* display */
		gt_assert_eq(cfg[0x18] & 0x0f, 0x08);		/* GMADR prefetchable */

		f = fopen("/sys/bus/pci/devices/0000:00:02.0/resource", "r");
		gt_assert(f != NULL);
		for (line = 0; fgets(res, sizeof(res), f); line++) {
			gt_assert_eq(sscanf(res, "%31s %31s %31s", a, b, c), 3);
			if (line != 2)
				continue;
			start = strtoull(a, NULL, 16);
			end = strtoull(b, NULL, 16);
			gt_assert_eq_u64(end - start + 1, 256ull << 20);	/* the aperture */
			gt_assert_eq_u64(strtoull(c, NULL, 16), 0x42208);
		}
		fclose(f);
		gt_assert_eq(line, 13);

		d = opendir("/sys/bus/pci/devices");
		gt_assert(d != NULL);
		for (n = 0; (de = readdir(d)); ) {
			if (de->d_name[0] == '.')
				continue;
			gt_assert(!strcmp(de->d_name, "0000:00:02.0"));
			n++;
		}
		closedir(d);
		gt_assert_eq(n, 1);
	}

	return gemtest_exit();
}
