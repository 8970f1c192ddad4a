/*
 * The paths the interposer owns, and the fake sysfs and /dev/dri behind
 * them.
 *
 * Rather than fake directory streams, links and file contents call by
 * call, the interposer writes the tree a 945G at 0000:00:02.0 has in sysfs
 * once, as real files and relative symlinks, into a "shadow" directory,
 * and redirects path prefixes there.  One tree per device, as sysfs is:
 * GEMKIT_SHADOW (gemctl run's private gemd: in its directory, gone with
 * it), else <runtime dir>/shadow-6-<hash of the device path>.  Then
 * readdir, readlink, openat on a directory fd, realpath and fopen all work
 * natively, whichever libc entry point the program uses.  Only the device
 * nodes themselves (a char device in stat, a new drm_file on open),
 * /proc/self/fd reopens, /proc/modules (preload-kmod.c) and the
 * attributes with behaviour (card0's error, the engine's properties:
 * preload-attr.c) are special.  /sys/module/i915 shows i915 loaded, as
 * libkmod reads it; its parameters/ are gemd's i915_params.
 *
 * Without root, `gemctl run` sets GEMKIT_DEBUGFS to gemd's debugfs tree,
 * and /sys/kernel/debug is redirected there too.
 *
 * libudev (systemd's sd-device) finds the device as on a real machine:
 * its enumeration lists /sys/class, which lists drm alone here; it
 * resolves a syspath by walking from "/" one openat() per component, and
 * "sys" from the root is the shadow's; and it believes a syspath only on
 * sysfs, which the shadow is to statfs (preload-fs.c).
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "preload.h"
#include "rundir.h"
#include "strbuf.h"
#include "util.h"

#define SHADOW_NAME	"shadow-6"	/* bump when the tree changes */

static char shadow[PATH_MAX];		/* "" when it could not be made */
static char debugfs[PATH_MAX];		/* GEMKIT_DEBUGFS, or "" */
static pthread_once_t shadow_once = PTHREAD_ONCE_INIT;

struct shadow_entry {
	const char *path;	/* relative to the shadow root */
	char type;		/* 'd' dir, 'f' file, 'l' symlink */
	const char *data;	/* contents or link target */
	size_t len;		/* bytes of a binary file; 0: a string */
	mode_t mode;		/* a file's; 0: 0444 */
};

/*
 * The 945G's PCI configuration header (00:02.0, as lspci -xxx shows one):
 * 8086:2772 rev 2, VGA class, multi-function (the second head is 02.1),
 * BARs MMADR (512 KiB MMIO), IOBAR (8 ports), GMADR (the 256 MiB
 * aperture, prefetchable) and GTTADR (256 KiB), subsystem 8086:2772,
 * INTA on IRQ 11, and the MSI (0x90) and power management (0xd0)
 * capabilities.  libpciaccess reads it, and the BARs from "resource".
 */
static const uint8_t pci_config[256] = {
	[0x00] = 0x86, 0x80, 0x72, 0x27, 0x07, 0x00, 0x90, 0x00,
	[0x08] = 0x02, 0x00, 0x00, 0x03, 0x00, 0x00, 0x80, 0x00,
	[0x10] = 0x00, 0x00, 0xa8, 0xfe, 0x01, 0xec, 0x00, 0x00,
	[0x18] = 0x08, 0x00, 0x00, 0xd0, 0x00, 0x00, 0xb0, 0xfe,
	[0x2c] = 0x86, 0x80, 0x72, 0x27,
	[0x34] = 0x90,
	[0x3c] = 0x0b, 0x01,
	[0x90] = 0x05, 0xd0, 0x00, 0x00,
	[0xd0] = 0x01, 0x00, 0x22, 0x00,
};

/* Each BAR as start, end, flags (the kernel's resource_show): memory
 * 0x40200, prefetchable memory 0x42208, I/O 0x40101; then the ROM and
 * the six SR-IOV slots, empty. */
#define PCI_RESOURCE_NONE "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
static const char pci_resource[] =
	"0x00000000fea80000 0x00000000feafffff 0x0000000000040200\n"
	"0x000000000000ec00 0x000000000000ec07 0x0000000000040101\n"
	"0x00000000d0000000 0x00000000dfffffff 0x0000000000042208\n"
	"0x00000000feb00000 0x00000000feb3ffff 0x0000000000040200\n"
	PCI_RESOURCE_NONE PCI_RESOURCE_NONE PCI_RESOURCE_NONE
	PCI_RESOURCE_NONE PCI_RESOURCE_NONE PCI_RESOURCE_NONE
	PCI_RESOURCE_NONE PCI_RESOURCE_NONE PCI_RESOURCE_NONE;

#define DRM_MINOR_FILES(node, minor) \
	{ PCI_DIR "/drm/" node, 'd', NULL }, \
	{ PCI_DIR "/drm/" node "/dev", 'f', "226:" #minor "\n" }, \
	{ PCI_DIR "/drm/" node "/uevent", 'f', DRM_MINOR_UEVENT(node, minor) }, \
	{ PCI_DIR "/drm/" node "/device", 'l', "../../../0000:00:02.0" }, \
	{ PCI_DIR "/drm/" node "/subsystem", 'l', "../../../../../class/drm" }, \
	{ "/dev/dri/" node, 'f', "" }
/* A minor's links from the class and the char devices: a bound driver's. */
#define DRM_MINOR_LINKS(node, minor) \
	{ "/sys/dev/char/226:" #minor, 'l', \
	  "../../devices/pci0000:00/0000:00:02.0/drm/" node }, \
	{ "/sys/class/drm/" node, 'l', \
	  "../../devices/pci0000:00/0000:00:02.0/drm/" node },

/* An engine property and its .defaults twin (preload-attr.c writes it). */
#define ENGINE_PROP_FILES(name, value, max, zero_errno) \
	{ PCI_DIR ENGINE_DIR "/" #name, 'f', value "\n", 0, 0644 }, \
	{ PCI_DIR ENGINE_DIR "/.defaults/" #name, 'f', value "\n", 0, 0 },

/* The links there are while the device is on the bus, and while i915 is
 * bound to it (preload_shadow_set_state). */
#define PRESENT_LINKS \
	{ "/sys/bus/pci/devices/0000:00:02.0", 'l', \
	  "../../../devices/pci0000:00/0000:00:02.0" },
#define BOUND_LINKS \
	{ PCI_DIR "/driver", 'l', "../../../bus/pci/drivers/i915" }, \
	{ "/sys/bus/pci/drivers/i915/0000:00:02.0", 'l', \
	  "../../../../devices/pci0000:00/0000:00:02.0" }, \
	DRM_MINOR_LINKS("card0", 0) \
	DRM_MINOR_LINKS("renderD128", 128)
static const struct shadow_entry present_links[] = { PRESENT_LINKS };
static const struct shadow_entry bound_links[] = { BOUND_LINKS };

/* A 945G as the kernel shows it (PCI 8086:2772 rev 2, VGA class). */
static const struct shadow_entry shadow_tree[] = {
	{ "/dev", 'd', NULL },
	{ "/dev/dri", 'd', NULL },
	{ "/sys", 'd', NULL },
	{ "/sys/bus", 'd', NULL },
	{ "/sys/bus/pci", 'd', NULL },
	{ "/sys/bus/pci/devices", 'd', NULL },
	{ "/sys/class", 'd', NULL },
	{ "/sys/class/drm", 'd', NULL },
	{ "/sys/dev", 'd', NULL },
	{ "/sys/dev/char", 'd', NULL },
	{ "/sys/devices", 'd', NULL },
	{ "/sys/devices/pci0000:00", 'd', NULL },
	{ PCI_DIR, 'd', NULL },
	{ PCI_DIR "/vendor", 'f', "0x8086\n" },
	{ PCI_DIR "/device", 'f', "0x2772\n" },
	{ PCI_DIR "/revision", 'f', "0x02\n" },
	{ PCI_DIR "/subsystem_vendor", 'f', "0x8086\n" },
	{ PCI_DIR "/subsystem_device", 'f', "0x2772\n" },
	{ PCI_DIR "/class", 'f', "0x030000\n" },
	{ PCI_DIR "/boot_vga", 'f', "1\n" },
	{ PCI_DIR "/uevent", 'f', "DRIVER=i915\nPCI_CLASS=30000\n"
	  "PCI_ID=8086:2772\nPCI_SUBSYS_ID=8086:2772\n"
	  "PCI_SLOT_NAME=0000:00:02.0\n"
	  "MODALIAS=pci:v00008086d00002772sv00008086sd00002772bc03sc00i00\n" },
	{ PCI_DIR "/config", 'f', (const char *)pci_config, sizeof(pci_config) },
	{ PCI_DIR "/resource", 'f', pci_resource },
	/* MMADR: opened as gemd's register file (preload-attr.c). */
	{ PCI_DIR "/resource0", 'f', "", 0, 0600 },
	{ PCI_DIR "/subsystem", 'l', "../../../bus/pci" },
	/* Written as the driver core's bind, unbind, remove and rescan
	 * (preload-attr.c), which add and remove the links below. */
	{ PCI_DIR "/remove", 'f', "", 0, 0200 },
	{ "/sys/bus/pci/rescan", 'f', "", 0, 0200 },
	{ "/sys/bus/pci/drivers", 'd', NULL },
	{ "/sys/bus/pci/drivers/i915", 'd', NULL },
	{ "/sys/bus/pci/drivers/i915/bind", 'f', "", 0, 0200 },
	{ "/sys/bus/pci/drivers/i915/unbind", 'f', "", 0, 0200 },
	{ "/sys/bus/pci/drivers/i915/module", 'l', "../../../../module/i915" },
	{ PCI_DIR "/drm", 'd', NULL },
	DRM_MINOR_FILES("card0", 0),
	DRM_MINOR_FILES("renderD128", 128),
	BOUND_LINKS
	PRESENT_LINKS
	/* Read and written as gemd's gemkit_sysfs_error (preload-attr.c). */
	{ PCI_DIR "/drm/card0/error", 'f', "", 0, 0600 },
	{ PCI_DIR "/drm/card0/engine", 'd', NULL },
	{ PCI_DIR ENGINE_DIR, 'd', NULL },
	{ PCI_DIR ENGINE_DIR "/.defaults", 'd', NULL },
	{ PCI_DIR ENGINE_DIR "/name", 'f', "rcs0\n" },
	{ PCI_DIR ENGINE_DIR "/class", 'f', "0\n" },		/* RENDER */
	{ PCI_DIR ENGINE_DIR "/instance", 'f', "0\n" },
	{ PCI_DIR ENGINE_DIR "/mmio_base", 'f', "0x2000\n" },
	/* No capabilities on a render engine: both print nothing. */
	{ PCI_DIR ENGINE_DIR "/capabilities", 'f', "" },
	{ PCI_DIR ENGINE_DIR "/known_capabilities", 'f', "" },
	ENGINE_PROPS(ENGINE_PROP_FILES)
	/* i915 loaded, as libkmod reads /sys/module (parameters/ is
	 * redirected to gemd's i915_params; the directory is for listings). */
	{ "/sys/module", 'd', NULL },
	{ "/sys/module/i915", 'd', NULL },
	{ "/sys/module/i915/initstate", 'f', "live\n" },
	{ "/sys/module/i915/refcnt", 'f', I915_MODULE_REFCNT "\n" },
	{ "/sys/module/i915/coresize", 'f', I915_MODULE_SIZE "\n" },
	{ "/sys/module/i915/initsize", 'f', "0\n" },
	{ "/sys/module/i915/taint", 'f', "\n" },
	{ "/sys/module/i915/holders", 'd', NULL },
	{ "/sys/module/i915/parameters", 'd', NULL },
};

static int write_entry(const char *root, const struct shadow_entry *e)
{
	struct strbuf p = STRBUF_INIT;
	int ret = 0, fd;

	strbuf_addf(&p, "%s%s", root, e->path);
	switch (e->type) {
	case 'd':
		if (mkdir(p.buf, 0755) < 0)
			ret = -errno;
		break;
	case 'l':
		if (symlink(e->data, p.buf) < 0)
			ret = -errno;
		break;
	default:
		fd = preload_real.open(p.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
				       e->mode ? e->mode : 0444);
		if (fd < 0) {
			ret = -errno;
			break;
		}
		if (write_full(fd, e->data, e->len ? e->len : strlen(e->data)) < 0)
			ret = -EIO;
		else if (e->mode && fchmod(fd, e->mode) < 0)	/* past the umask */
			ret = -errno;
		preload_real.close(fd);
		break;
	}
	strbuf_release(&p);
	return ret;
}

/* Remove a half-made or losing tree, deepest entries first. */
static void remove_tree(const char *root)
{
	struct strbuf p = STRBUF_INIT;
	size_t i = ARRAY_SIZE(shadow_tree);

	while (i-- > 0) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s%s", root, shadow_tree[i].path);
		if (shadow_tree[i].type == 'd')
			rmdir(p.buf);
		else
			unlink(p.buf);
	}
	rmdir(root);
	strbuf_release(&p);
}

/* mkdir -p: errors show up when the tree is written. */
static void mkdir_parents(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

/* FNV-1a: the device path's tree name; not a secret, only distinct. */
static uint64_t path_hash(const char *path)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *path; path++)
		h = (h ^ (uint8_t)*path) * 0x100000001b3ull;
	return h;
}

/* Where this process's tree is: 0, or -ENAMETOOLONG. */
static int shadow_path(char *buf, size_t len)
{
	const char *env = getenv("GEMKIT_SHADOW");
	const char *device = gem_device_path(NULL);
	char rt[PATH_MAX];
	int n;

	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (!device || gem_runtime_dir(rt, sizeof(rt)))
		return -ENAMETOOLONG;
	else
		n = snprintf(buf, len, "%s/" SHADOW_NAME "-%016llx", rt,
			     (unsigned long long)path_hash(device));
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/*
 * Build the tree in a temporary directory beside it and rename it into
 * place, so that concurrent first users never see half of it.
 */
static void shadow_create(void)
{
	char parent[PATH_MAX - 64], tmp[PATH_MAX];
	const char *env = getenv("GEMKIT_DEBUGFS");
	struct stat st;
	char *slash;
	size_t i;
	int n;

	if (env && *env && strlen(env) < sizeof(debugfs))
		memcpy(debugfs, env, strlen(env) + 1);
	if (shadow_path(shadow, sizeof(parent)))
		goto out_none;
	memcpy(parent, shadow, strlen(shadow) + 1);
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		goto out_none;
	*slash = '\0';
	mkdir_parents(parent);	/* as gemd makes it; fine if it exists */
	/* Files we write to and links we replace: never in a directory
	 * another user made or may write (rundir.h says why, once). */
	if (!rundir_trusted(parent))
		goto out_none;
	if (preload_real.fstatat(AT_FDCWD, shadow, &st, 0) == 0 && S_ISDIR(st.st_mode))
		return;
	n = snprintf(tmp, sizeof(tmp), "%s/.shadow.XXXXXX", parent);
	if (n < 0 || (size_t)n >= sizeof(tmp) || !mkdtemp(tmp))
		goto out_none;
	chmod(tmp, 0755);
	for (i = 0; i < ARRAY_SIZE(shadow_tree); i++)
		if (write_entry(tmp, &shadow_tree[i]))
			goto out_remove;
	if (rename(tmp, shadow) == 0)
		return;
	/* Another process won the race: use its tree. */
	remove_tree(tmp);
	if (preload_real.fstatat(AT_FDCWD, shadow, &st, 0) == 0 && S_ISDIR(st.st_mode))
		return;
	goto out_none;

out_remove:
	remove_tree(tmp);
out_none:
	shadow[0] = '\0';
}

/* Add (on) or remove the links of entries[0..n): 0 or -errno. */
static int links_set(const struct shadow_entry *entries, size_t n, bool on)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int ret = 0;
	size_t i;

	for (i = 0; i < n && !ret; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s%s", shadow, entries[i].path);
		if (preload_real.fstatat(AT_FDCWD, p.buf, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			if (!on && unlink(p.buf) < 0 && errno != ENOENT)
				ret = -errno;
		} else if (on) {
			ret = write_entry(shadow, &entries[i]);
			if (ret == -EEXIST)	/* a concurrent process's */
				ret = 0;
		}
	}
	strbuf_release(&p);
	return ret;
}

int preload_shadow_set_state(enum preload_dev_state state)
{
	int ret;

	pthread_once(&shadow_once, shadow_create);
	if (!shadow[0])
		return -ENOENT;
	ret = links_set(present_links, ARRAY_SIZE(present_links),
			state != PRELOAD_DEV_REMOVED);
	if (!ret)
		ret = links_set(bound_links, ARRAY_SIZE(bound_links),
				state == PRELOAD_DEV_BOUND);
	return ret;
}

bool preload_shadow_has(const char *path)
{
	char p[PATH_MAX];
	struct stat st;
	int n;

	pthread_once(&shadow_once, shadow_create);
	n = snprintf(p, sizeof(p), "%s%s", shadow, path);
	return shadow[0] && n > 0 && (size_t)n < sizeof(p) &&
	       preload_real.fstatat(AT_FDCWD, p, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static bool has_prefix(const char *path, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if (strncmp(path, prefix, n) || (path[n] != '\0' && path[n] != '/'))
		return false;
	*rest = path + n;
	return true;
}

static enum preload_path_kind redirect(const char *root, const char *path,
				       char *buf, size_t len)
{
	int n;

	if (!root[0])
		return PRELOAD_PATH_REAL;
	n = snprintf(buf, len, "%s%s", root, path);
	if (n < 0 || (size_t)n >= len)
		return PRELOAD_PATH_REAL;
	return PRELOAD_PATH_SHADOW;
}

/* "/proc/self/<dir>/N", "/proc/<our pid>/<dir>/N" (dir "fd" or
 * "fdinfo"), "/dev/fd/N" (dir "fd"): N, else -1. */
static int fd_link(const char *path, const char *dir)
{
	size_t dlen = strlen(dir);
	const char *p;
	char *end;
	long v;

	if (!strcmp(dir, "fd") && !strncmp(path, "/dev/fd/", 8)) {
		p = path + 8;
	} else if (!strncmp(path, "/proc/self/", 11)) {
		p = path + 11;
	} else if (!strncmp(path, "/proc/thread-self/", 18)) {
		p = path + 18;
	} else if (!strncmp(path, "/proc/", 6)) {
		v = strtol(path + 6, &end, 10);
		if (end == path + 6 || v != getpid() || *end != '/')
			return -1;
		p = end + 1;
	} else {
		return -1;
	}
	if (p[-1] != '/' || strncmp(p, dir, dlen) || p[dlen] != '/')
		return -1;
	p += dlen + 1;
	if (*p < '0' || *p > '9')
		return -1;
	v = strtol(p, &end, 10);
	if (*end || v > INT_MAX)
		return -1;
	return (int)v;
}

/*
 * /sys/module/i915/parameters is gemd's dri/0/i915_params: one device, one
 * set of parameters, read and written where the kernel's debugfs copy is
 * (in gemctl run's private mount, or under GEMKIT_DEBUGFS).
 */
static enum preload_path_kind module_params(const char *rest, char *buf,
					    size_t len)
{
	char sub[PATH_MAX];
	int n;

	n = snprintf(sub, sizeof(sub), "/dri/0/i915_params%s", rest);
	if (n < 0 || (size_t)n >= sizeof(sub) || preload_debugfs_path(sub, buf, len))
		return PRELOAD_PATH_REAL;
	return PRELOAD_PATH_SHADOW;
}

int preload_debugfs_path(const char *sub, char *buf, size_t len)
{
	int n;

	pthread_once(&shadow_once, shadow_create);
	n = snprintf(buf, len, "%s%s", debugfs[0] ? debugfs : "/sys/kernel/debug", sub);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

const char *preload_shadow_root(void)
{
	pthread_once(&shadow_once, shadow_create);
	return shadow;
}

/*
 * Whether dirfd is the root directory.  systemd's path resolution
 * (chase_symlinks, under libudev's udev_device_new_from_syspath) opens
 * "/" and walks down one openat() per component: its "sys" is the
 * shadow's, so that a device's syspath resolves in the tree the
 * interposer shows, links and all.
 */
static bool is_root_dir(int dirfd)
{
	static struct stat root;
	static bool have_root;
	struct stat st;

	if (dirfd < 0)
		return false;
	if (!have_root) {
		if (preload_real.fstatat(AT_FDCWD, "/", &root, 0) < 0)
			return false;
		have_root = true;
	}
	return preload_real.fstatat(dirfd, "", &st, AT_EMPTY_PATH) == 0 &&
	       st.st_dev == root.st_dev && st.st_ino == root.st_ino;
}

/*
 * openat(dir, "N") with dir an open /proc/self/fdinfo: how IGT's
 * igt_parse_drm_fdinfo and gputop read a DRM fd's usage stats.  Only a
 * name of digits costs a look at what dir is.
 */
static int fdinfo_at(int dirfd, const char *path)
{
	char link[64], target[64], want[64];
	const char *p;
	ssize_t n;
	long v;

	if (dirfd < 0 || !*path)
		return -1;
	for (p = path; *p; p++)
		if (*p < '0' || *p > '9' || p - path > 9)
			return -1;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
	n = preload_real.readlinkat(AT_FDCWD, link, target, sizeof(target) - 1);
	if (n <= 0)
		return -1;
	target[n] = '\0';
	snprintf(want, sizeof(want), "/proc/%d/fdinfo", (int)getpid());
	if (strcmp(target, want))
		return -1;
	v = strtol(path, NULL, 10);
	return v <= INT_MAX ? (int)v : -1;
}

enum preload_path_kind preload_classify(int dirfd, const char *path,
					char *buf, size_t len, int *out)
{
	const char *rest;
	int fd;

	/* Only absolute paths are ours, a fd's name in /proc's fdinfo, and
	 * "sys" from the root directory. */
	if (path && path[0] != '/') {
		if (!strcmp(path, "sys") && is_root_dir(dirfd)) {
			pthread_once(&shadow_once, shadow_create);
			return redirect(shadow, "/sys", buf, len);
		}
		fd = fdinfo_at(dirfd, path);
		if (fd >= 0 && preload_is_device_fd(fd)) {
			*out = fd;
			return PRELOAD_PATH_FDINFO;
		}
		return PRELOAD_PATH_REAL;
	}
	if (!path)
		return PRELOAD_PATH_REAL;
	switch (path[1]) {
	case 'd':
		if (!strcmp(path, "/dev/dri/card0")) {
			*out = 0;
			return PRELOAD_PATH_DEVICE;
		}
		if (!strcmp(path, "/dev/dri/renderD128")) {
			*out = 128;
			return PRELOAD_PATH_DEVICE;
		}
		if (has_prefix(path, "/dev/dri", &rest))
			break;
		/* /dev/fd/N */
		fallthrough;
	case 'p':
		if (!strcmp(path, "/proc/modules"))
			return PRELOAD_PATH_MODULES;
		fd = fd_link(path, "fd");
		if (fd >= 0 && preload_is_device_fd(fd)) {
			*out = fd;
			return PRELOAD_PATH_FDLINK;
		}
		fd = fd_link(path, "fdinfo");
		if (fd >= 0 && preload_is_device_fd(fd)) {
			*out = fd;
			return PRELOAD_PATH_FDINFO;
		}
		return PRELOAD_PATH_REAL;
	case 's':
		if (has_prefix(path, "/sys/kernel/debug", &rest)) {
			pthread_once(&shadow_once, shadow_create);
			/* "..": the real parent, whose st_dev says "a mount". */
			if (!strcmp(rest, "/..") || !strcmp(rest, "/../"))
				return PRELOAD_PATH_REAL;
			return redirect(debugfs, rest, buf, len);
		}
		if (has_prefix(path, "/sys/module/i915/parameters", &rest))
			return module_params(rest, buf, len);
		if (has_prefix(path, "/sys/module/i915", &rest))
			break;
		/* The PCI bus lists the 945G alone, as the DRM nodes hide
		 * every other GPU: libpciaccess finds it by listing. */
		if (!strcmp(path, "/sys/bus/pci/devices") ||
		    !strcmp(path, "/sys/bus/pci/devices/"))
			break;
		/* The classes list drm alone: libudev's enumeration finds
		 * subsystems by listing here (the real classes stay where
		 * they are, only the listing is ours). */
		if (!strcmp(path, "/sys/class") || !strcmp(path, "/sys/class/"))
			break;
		if (has_prefix(path, "/sys/dev/char/226:0", &rest) ||
		    has_prefix(path, "/sys/dev/char/226:128", &rest) ||
		    has_prefix(path, "/sys/class/drm", &rest) ||
		    has_prefix(path, PCI_DIR, &rest) ||
		    has_prefix(path, "/sys/bus/pci/devices/0000:00:02.0", &rest) ||
		    has_prefix(path, "/sys/bus/pci/drivers/i915", &rest) ||
		    !strcmp(path, "/sys/bus/pci/rescan"))
			break;
		return PRELOAD_PATH_REAL;
	default:
		return PRELOAD_PATH_REAL;
	}
	pthread_once(&shadow_once, shadow_create);
	return redirect(shadow, path, buf, len);
}

/* A path inside the shadow tree back to the one the program asked for. */
void preload_unshadow(char *path)
{
	size_t n = strlen(shadow);

	if (n && !strncmp(path, shadow, n) && (path[n] == '/' || !path[n]))
		memmove(path, path + n, strlen(path + n) + 1);
}

bool preload_debugfs_redirected(void)
{
	pthread_once(&shadow_once, shadow_create);
	return debugfs[0] != '\0';
}
