/*
 * card0's sysfs attributes that do more than show a fixed text: error
 * (gemd's error state, cleared by any write, as i915's error_state_write)
 * and the engine's properties (a number the kernel checks when written).
 * The shadow tree holds them as files (preload-sysfs.c); a program
 * reaches them by any path, often relative to a directory fd it opened
 * earlier (IGT's igt_sysfs_open, igt_sysfs_engines), so the open is
 * recognised by what it opened: the last component's name picks the
 * candidates cheaply, then the file's inode says whether it is ours.
 *
 * error: the fd the program gets is gemd's gemkit_sysfs_error (in
 * debugfs): i915_error_state in the engine naming of the kernels that
 * have this file ("rcs0"), so reads show the state and writes clear it,
 * whoever writes.
 *
 * resource0, the MMIO BAR: the fd the program gets is gemd's register file
 * (libgem's gem_mmio_fd), for root only as the 0600 sysfs file is, opened
 * read-only when asked so.  gemd seals it against shared writable maps,
 * so a shared writable mmap (libpciaccess's, IGT's intel_mmio) is made
 * private here: the pages show the live registers until the program
 * writes one, and its writes reach only its own copy, never the GPU or
 * another program.  write() gives EIO as a memory BAR's file does; read()
 * shows the registers where the kernel gives EIO.
 *
 * The driver core's files: /sys/bus/pci/drivers/i915/unbind and bind take
 * the device's name, the device's remove and the bus's rescan a number;
 * each asks gemd to unbind or bind (GEM_MSG_CONTROL, driver/gem/unbind.c)
 * and then adds or removes the shadow's links that show the device bound
 * (its driver link, the driver's link to it) and on the bus.  As the
 * kernel answers: another device's name is ENODEV, unbinding an unbound
 * device ENODEV, binding a bound one EBUSY, a bad number EINVAL.  The
 * removed device's directory stays, only the bus's link to it goes.
 *
 * Engine properties are kept in the shadow file, shared by every program
 * of the device (the shadow is per gemd); gemd does not act on them.  A write() or
 * pwrite() through the interposer is the kernel's store: parsed as
 * kstrtoull (base 0, one trailing newline), checked against the
 * kernel's limits, the errno it gives when refused, and on success the
 * value as the kernel shows it ("%llu\n").  A write the interposer does
 * not see (stdio inside libc, a program exec'd with the fd) stores its
 * text unchecked, as into a file; O_TRUNC is therefore kept, and undone
 * when a write we do see is refused.  Read-only attributes refuse a
 * write open with EACCES, even to root, as sysfs does.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "channel.h"
#include "libgem.h"
#include "preload.h"
#include "protocol.h"
#include "usercopy.h"
#include "util.h"

#define STORE_MAX	4096	/* kernfs hands a store at most a page */

enum attr_kind {
	ATTR_ERROR,		/* gemd's gemkit_sysfs_error */
	ATTR_BAR,		/* gemd's register file */
	ATTR_UNBIND,		/* the driver core's files */
	ATTR_BIND,
	ATTR_REMOVE,
	ATTR_RESCAN,
	ATTR_PROP,		/* a writable number */
	ATTR_RO,		/* shown, never written */
};

struct attr {
	const char *path;	/* under the shadow root */
	enum attr_kind kind;
	unsigned long long max;	/* ATTR_PROP: the largest the kernel takes */
	int zero_errno;		/* ATTR_PROP: what writing 0 gives, or 0 */
};

#define ENGINE_PROP_ATTRS(name, value, limit, zero_err) \
	{ PCI_DIR ENGINE_DIR "/" #name, ATTR_PROP, limit, zero_err }, \
	{ PCI_DIR ENGINE_DIR "/.defaults/" #name, ATTR_RO, 0, 0 },

static const struct attr attrs[] = {
	{ PCI_DIR "/drm/card0/error", ATTR_ERROR, 0, 0 },
	{ PCI_DIR "/resource0", ATTR_BAR, 0, 0 },
	{ "/sys/bus/pci/drivers/i915/unbind", ATTR_UNBIND, 0, 0 },
	{ "/sys/bus/pci/drivers/i915/bind", ATTR_BIND, 0, 0 },
	{ PCI_DIR "/remove", ATTR_REMOVE, 0, 0 },
	{ "/sys/bus/pci/rescan", ATTR_RESCAN, 0, 0 },
	{ PCI_DIR ENGINE_DIR "/name", ATTR_RO, 0, 0 },
	{ PCI_DIR ENGINE_DIR "/class", ATTR_RO, 0, 0 },
	{ PCI_DIR ENGINE_DIR "/instance", ATTR_RO, 0, 0 },
	{ PCI_DIR ENGINE_DIR "/mmio_base", ATTR_RO, 0, 0 },
	{ PCI_DIR ENGINE_DIR "/capabilities", ATTR_RO, 0, 0 },
	{ PCI_DIR ENGINE_DIR "/known_capabilities", ATTR_RO, 0, 0 },
	ENGINE_PROPS(ENGINE_PROP_ATTRS)
};

/* Fits the kind table's byte beside PRELOAD_FD_ATTR. */
_Static_assert(ARRAY_SIZE(attrs) + PRELOAD_FD_ATTR <= 255, "attrs fit a byte");

static struct {
	dev_t dev;
	ino_t ino;
	bool known;
} inodes[ARRAY_SIZE(attrs)];
static pthread_once_t inodes_once = PTHREAD_ONCE_INIT;

/* The value each property had when this process last opened or stored
 * it: what a refused write after O_TRUNC puts back. */
static unsigned long long kept[ARRAY_SIZE(attrs)];

static void inodes_load(void)
{
	const char *root = preload_shadow_root();
	char path[PATH_MAX];
	struct stat st;
	size_t i;

	if (!root[0])
		return;
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		snprintf(path, sizeof(path), "%s%s", root, attrs[i].path);
		if (preload_real.fstatat(AT_FDCWD, path, &st, 0) < 0)
			continue;
		inodes[i].dev = st.st_dev;
		inodes[i].ino = st.st_ino;
		inodes[i].known = true;
	}
}

static const char *last_component(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

bool preload_attr_candidate(const char *path)
{
	const char *name;
	size_t i;

	if (!path)
		return false;
	name = last_component(path);
	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		if (!strcmp(name, last_component(attrs[i].path)))
			return true;
	return false;
}

int preload_attr_open_flags(int flags)
{
	return flags & ~O_TRUNC;
}

/* Which attribute fd is: its index, or -1. */
static int lookup(int fd)
{
	struct stat st;
	size_t i;

	pthread_once(&inodes_once, inodes_load);
	if (preload_real.fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		if (inodes[i].known && inodes[i].ino == st.st_ino &&
		    inodes[i].dev == st.st_dev)
			return (int)i;
	return -1;
}

static bool writes(int flags)
{
	return (flags & O_ACCMODE) != O_RDONLY;
}

/* fd replaced by one on gemd's error state, opened the same way. */
static int open_error_state(int fd, int flags)
{
	char path[PATH_MAX];
	int out, err;

	if (preload_debugfs_path("/dri/0/gemkit_sysfs_error", path, sizeof(path))) {
		err = ENAMETOOLONG;
		out = -1;
	} else {
		out = preload_real.openat(AT_FDCWD, path,
					  flags & ~(O_CREAT | O_EXCL | O_TRUNC | O_APPEND));
		err = errno;
	}
	preload_real.close(fd);
	errno = err;
	return out;
}

/* fd replaced by one on gemd's register file, with the access asked for. */
static int open_bar(int fd, int flags)
{
	char self[32];
	uint64_t size;
	int out, err, ro;

	preload_real.close(fd);
	preload_busy++;
	out = gem_mmio_fd(NULL, &size);
	err = errno;
	if (out >= 0 && !writes(flags)) {
		snprintf(self, sizeof(self), "/proc/self/fd/%d", out);
		ro = preload_real.openat(AT_FDCWD, self, O_RDONLY | O_CLOEXEC);
		err = errno;
		preload_real.close(out);
		out = ro;
	}
	if (out >= 0 && !(flags & O_CLOEXEC) && fcntl(out, F_SETFD, 0) < 0) {
		err = errno;
		preload_real.close(out);
		out = -1;
	}
	preload_busy--;
	if (out < 0) {
		errno = preload_open_errno(err);
		return -1;
	}
	return out;
}

/* kstrtoull(s, 0, out): a '+', then as _kstrtoull. */
static int parse_ull(const char *s, unsigned long long *out)
{
	return kstrtoull0(s[0] == '+' ? s + 1 : s, out);
}

/* The attribute's value now ("%llu\n"), or 0 if it holds none: read by
 * path, as the caller's fd may be write-only. */
static unsigned long long read_value(unsigned int index)
{
	unsigned long long v = 0;
	char path[PATH_MAX], text[32];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "%s%s", preload_shadow_root(), attrs[index].path);
	fd = preload_real.openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		preload_busy++;
		n = pread(fd, text, sizeof(text) - 1, 0);
		preload_busy--;
		preload_real.close(fd);
	}
	if (n > 0) {
		text[n] = '\0';
		if (parse_ull(text, &v))
			v = 0;
	}
	return v;
}

static int store(int fd, unsigned long long v)
{
	char text[32];
	int n = snprintf(text, sizeof(text), "%llu\n", v);
	int ret = 0;

	preload_busy++;
	if (ftruncate(fd, 0) < 0 || pwrite(fd, text, (size_t)n, 0) != n)
		ret = -errno;
	preload_busy--;
	return ret;
}

int preload_attr_opened(int fd, int flags)
{
	struct stat st;
	int i;

	if (fd < 0)
		return fd;
	i = lookup(fd);
	if (i < 0) {
		/* Not ours: the O_TRUNC the caller asked for. */
		if ((flags & O_TRUNC) && writes(flags))
			(void)!ftruncate(fd, 0);
		return fd;
	}
	switch (attrs[i].kind) {
	case ATTR_ERROR:
		return open_error_state(fd, flags);
	case ATTR_BAR:
		fd = open_bar(fd, flags);
		if (fd >= 0)
			preload_fd_kind_set(fd, PRELOAD_FD_ATTR + (unsigned int)i);
		return fd;
	case ATTR_RO:
		if (!writes(flags))
			return fd;
		preload_real.close(fd);
		errno = EACCES;
		return -1;
	case ATTR_UNBIND:
	case ATTR_BIND:
	case ATTR_REMOVE:
	case ATTR_RESCAN:
		if (writes(flags))
			preload_fd_kind_set(fd, PRELOAD_FD_ATTR + (unsigned int)i);
		return fd;
	case ATTR_PROP:
		if (!writes(flags))
			return fd;
		kept[i] = read_value((unsigned int)i);
		if ((flags & O_TRUNC) && preload_real.fstat(fd, &st) == 0 && st.st_size)
			(void)!ftruncate(fd, 0);
		preload_fd_kind_set(fd, PRELOAD_FD_ATTR + (unsigned int)i);
		return fd;
	}
	return fd;
}

/* The kernel's limits (preload.h's ENGINE_PROPS). */
static int check(const struct attr *a, unsigned long long v)
{
	if (v > a->max)
		return -EINVAL;
	return v ? 0 : -a->zero_errno;
}

/* The kinds a write() reaches as a store (the rest: EIO). */
static bool stores(enum attr_kind kind)
{
	switch (kind) {
	case ATTR_PROP:
	case ATTR_UNBIND:
	case ATTR_BIND:
	case ATTR_REMOVE:
	case ATTR_RESCAN:
		return true;
	default:
		return false;
	}
}

/* sysfs_streq(text, the device's name): a trailing newline may follow. */
static bool names_device(const char *text)
{
	static const char name[] = "0000:00:02.0";
	size_t n = strlen(name);

	return !strncmp(text, name, n) && (!text[n] || !strcmp(text + n, "\n"));
}

/* gemd's answer to op, an error it was expected to give being none. */
static int control(uint32_t op, int expected)
{
	int ret;

	preload_busy++;
	ret = libgem_control(NULL, op);
	preload_busy--;
	return ret == expected ? 0 : ret;
}

/* The driver core's store for kind: 0 or -errno. */
static int driver_core_store(enum attr_kind kind, const char *text)
{
	unsigned long long v;
	int ret;

	switch (kind) {
	case ATTR_UNBIND:
		/* gemd knows whether it is bound; the links follow it. */
		if (!names_device(text))
			return -ENODEV;
		ret = control(GEM_CONTROL_UNBIND, 0);
		return ret ? ret : preload_shadow_set_state(PRELOAD_DEV_UNBOUND);
	case ATTR_BIND:
		if (!names_device(text) ||
		    !preload_shadow_has("/sys/bus/pci/devices/0000:00:02.0"))
			return -ENODEV;
		ret = control(GEM_CONTROL_BIND, 0);
		return ret ? ret : preload_shadow_set_state(PRELOAD_DEV_BOUND);
	case ATTR_REMOVE:
		if (kstrtoull0(text, &v))
			return -EINVAL;
		if (!v)
			return 0;
		ret = control(GEM_CONTROL_UNBIND, -ENODEV);
		return ret ? ret : preload_shadow_set_state(PRELOAD_DEV_REMOVED);
	case ATTR_RESCAN:
		if (kstrtoull0(text, &v))
			return -EINVAL;
		if (!v || preload_shadow_has("/sys/bus/pci/devices/0000:00:02.0"))
			return 0;
		ret = control(GEM_CONTROL_BIND, -EBUSY);
		return ret ? ret : preload_shadow_set_state(PRELOAD_DEV_BOUND);
	default:
		return -EIO;
	}
}

ssize_t preload_attr_write(int fd, unsigned int index, const void *buf,
			   size_t n)
{
	const struct attr *a = &attrs[index];
	char text[STORE_MAX + 1];
	unsigned long long v;
	struct stat st;
	int ret;

	if (index >= ARRAY_SIZE(attrs) || !stores(a->kind)) {
		errno = EIO;
		return -1;
	}
	if (!n)
		return 0;
	if (n > STORE_MAX)
		n = STORE_MAX;
	/* A bad pointer is EFAULT, as the kernel's copy from user gives. */
	if (copy_from_user(text, buf, n)) {
		errno = EFAULT;
		return -1;
	}
	text[n] = '\0';
	if (a->kind != ATTR_PROP) {
		ret = driver_core_store(a->kind, text);
		if (ret) {
			errno = -ret;
			return -1;
		}
		return (ssize_t)n;
	}
	ret = parse_ull(text, &v);
	if (!ret)
		ret = check(a, v);
	if (!ret) {
		ret = store(fd, v);
		if (!ret)
			kept[index] = v;
	} else if (preload_real.fstat(fd, &st) == 0 && !st.st_size) {
		/* O_TRUNC emptied it at open: the kernel's value stands. */
		store(fd, kept[index]);
	}
	if (ret) {
		errno = -ret;
		return -1;
	}
	return (ssize_t)n;
}

void *preload_attr_mmap(int fd, unsigned int index, void *addr, size_t len,
			int prot, int flags, off_t off)
{
	struct stat st;

	if (index >= ARRAY_SIZE(attrs) || attrs[index].kind != ATTR_BAR)
		return preload_real.mmap(addr, len, prot, flags, fd, off);
	/* Whole pages inside the BAR, as pci_mmap_fits allows. */
	if (preload_real.fstat(fd, &st) < 0)
		return MAP_FAILED;
	if (off < 0 || (off & (getpagesize() - 1)) || !len ||
	    len > (size_t)st.st_size || off > st.st_size - (off_t)len) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	/* A read-only fd keeps MAP_SHARED, which then fails with EACCES. */
	if ((flags & MAP_TYPE) == MAP_SHARED && (prot & PROT_WRITE) &&
	    (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR)
		flags = (flags & ~MAP_TYPE) | MAP_PRIVATE;
	return preload_real.mmap(addr, len, prot, flags, fd, off);
}
