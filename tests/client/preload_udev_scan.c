/*
 * preload_udev_scan: libudev finds the 945G under the interposer as IGT's
 * device scan (igt_devices_scan, lsgpu, the device filters of
 * core_hotunplug) asks for it: an enumeration of the drm subsystem lists
 * card0 and renderD128, a device made from its syspath has its devnode
 * and its PCI parent with the 945G's attributes.  What that takes: the
 * class listing has drm, systemd's path walk from "/" resolves in the
 * interposer's tree, and that tree reports sysfs's magic to statfs.
 * After an unbind the minors are gone from the scan, after a bind back.
 *
 * libudev is opened with dlopen: its headers need not be installed.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "gemtest.h"
#include "preload-test.h"
#include "strbuf.h"

#define SYSFS_MAGIC	0x62656572
#define CARD0		"/sys/devices/pci0000:00/0000:00:02.0/drm/card0"
#define RENDER		"/sys/devices/pci0000:00/0000:00:02.0/drm/renderD128"
#define PCI		"/sys/devices/pci0000:00/0000:00:02.0"

struct udev;
struct udev_device;
struct udev_enumerate;
struct udev_list_entry;

static struct {
	struct udev *(*new)(void);
	struct udev *(*unref)(struct udev *);
	struct udev_enumerate *(*enum_new)(struct udev *);
	int (*enum_match_subsystem)(struct udev_enumerate *, const char *);
	int (*enum_scan)(struct udev_enumerate *);
	struct udev_list_entry *(*enum_list)(struct udev_enumerate *);
	struct udev_enumerate *(*enum_unref)(struct udev_enumerate *);
	struct udev_list_entry *(*entry_next)(struct udev_list_entry *);
	const char *(*entry_name)(struct udev_list_entry *);
	struct udev_device *(*dev_from_syspath)(struct udev *, const char *);
	struct udev_device *(*dev_parent)(struct udev_device *);
	const char *(*dev_syspath)(struct udev_device *);
	const char *(*dev_devnode)(struct udev_device *);
	const char *(*dev_subsystem)(struct udev_device *);
	const char *(*dev_sysattr)(struct udev_device *, const char *);
	struct udev_device *(*dev_unref)(struct udev_device *);
} u;

static void *sym(void *lib, const char *name)
{
	void *p = dlsym(lib, name);

	gt_assert_f(p, "libudev has no %s", name);
	return p;
}

static void load_libudev(void)
{
	void *lib = dlopen("libudev.so.1", RTLD_NOW);

	if (!lib)
		gemtest_skip("no libudev.so.1");
	u.new = sym(lib, "udev_new");
	u.unref = sym(lib, "udev_unref");
	u.enum_new = sym(lib, "udev_enumerate_new");
	u.enum_match_subsystem = sym(lib, "udev_enumerate_add_match_subsystem");
	u.enum_scan = sym(lib, "udev_enumerate_scan_devices");
	u.enum_list = sym(lib, "udev_enumerate_get_list_entry");
	u.enum_unref = sym(lib, "udev_enumerate_unref");
	u.entry_next = sym(lib, "udev_list_entry_get_next");
	u.entry_name = sym(lib, "udev_list_entry_get_name");
	u.dev_from_syspath = sym(lib, "udev_device_new_from_syspath");
	u.dev_parent = sym(lib, "udev_device_get_parent");
	u.dev_syspath = sym(lib, "udev_device_get_syspath");
	u.dev_devnode = sym(lib, "udev_device_get_devnode");
	u.dev_subsystem = sym(lib, "udev_device_get_subsystem");
	u.dev_sysattr = sym(lib, "udev_device_get_sysattr_value");
	u.dev_unref = sym(lib, "udev_device_unref");
}

/* The drm subsystem's syspaths, one per line, sorted as libudev gives. */
static void scan_drm(struct strbuf *out)
{
	struct udev *udev = u.new();
	struct udev_enumerate *e = u.enum_new(udev);
	struct udev_list_entry *l;

	strbuf_reset(out);
	gt_assert_eq(u.enum_match_subsystem(e, "drm"), 0);
	gt_assert_eq(u.enum_scan(e), 0);
	for (l = u.enum_list(e); l; l = u.entry_next(l))
		strbuf_addf(out, "%s\n", u.entry_name(l));
	u.enum_unref(e);
	u.unref(udev);
}

static int sysfs_set(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -EIO;
}

static void test_scan(void)
{
	struct strbuf list = STRBUF_INIT;

	scan_drm(&list);
	gt_assert_f(!strcmp(list.buf, CARD0 "\n" RENDER "\n"), "drm scan: '%s'", list.buf);
	strbuf_release(&list);
}

static void test_device(void)
{
	struct udev *udev = u.new();
	struct udev_device *d = u.dev_from_syspath(udev, "/sys/class/drm/card0");
	struct udev_device *p;

	gt_assert_f(d, "udev_device_new_from_syspath: %s", strerror(errno));
	gt_assert(!strcmp(u.dev_syspath(d), CARD0));
	gt_assert(!strcmp(u.dev_devnode(d), "/dev/dri/card0"));
	gt_assert(!strcmp(u.dev_subsystem(d), "drm"));
	p = u.dev_parent(d);
	gt_assert(p);
	gt_assert(!strcmp(u.dev_syspath(p), PCI));
	gt_assert(!strcmp(u.dev_subsystem(p), "pci"));
	gt_assert(!strcmp(u.dev_sysattr(p, "vendor"), "0x8086"));
	gt_assert(!strcmp(u.dev_sysattr(p, "device"), "0x2772"));
	u.dev_unref(d);
	u.unref(udev);
}

static void test_statfs(void)
{
	struct statfs st;
	int fd;

	gt_assert_eq(statfs(CARD0, &st), 0);
	gt_assert_eq((long)st.f_type, SYSFS_MAGIC);
	fd = open(PCI, O_RDONLY | O_DIRECTORY);
	gt_assert(fd >= 0);
	gt_assert_eq(fstatfs(fd, &st), 0);
	gt_assert_eq((long)st.f_type, SYSFS_MAGIC);
	close(fd);
	/* Elsewhere the truth. */
	gt_assert_eq(statfs("/", &st), 0);
	gt_assert((long)st.f_type != SYSFS_MAGIC);
}

static void test_unbound(void)
{
	struct strbuf list = STRBUF_INIT;

	gt_assert_eq(sysfs_set("/sys/bus/pci/drivers/i915/unbind", "0000:00:02.0"), 0);
	scan_drm(&list);
	gt_assert_f(!strcmp(list.buf, ""), "drm scan while unbound: '%s'", list.buf);
	gt_assert(access("/sys/class/drm/card0", F_OK) < 0);
	gt_assert_eq(sysfs_set("/sys/bus/pci/drivers/i915/bind", "0000:00:02.0"), 0);
	scan_drm(&list);
	gt_assert_f(!strcmp(list.buf, CARD0 "\n" RENDER "\n"), "drm scan: '%s'", list.buf);
	strbuf_release(&list);
}

int main(int argc, char **argv)
{
	preload_test_init(argc, argv);
	load_libudev();

	gemtest_subtest("enumerate-drm-finds-the-945g")
		test_scan();
	gemtest_subtest("device-from-syspath-and-its-pci-parent")
		test_device();
	gemtest_subtest("the-tree-is-sysfs-to-statfs")
		test_statfs();
	gemtest_subtest("unbound-driver-no-minors")
		test_unbound();
	return gemtest_exit();
}
