/*
 * The interposer's path hooks: every libc entry point through which Debian
 * 12 clients (libdrm, IGT, Mesa) reach /dev/dri, sysfs, debugfs and
 * /proc/self/fd, including the fortified (__open_2, __readlink_chk) and
 * pre-2.33 (__xstat) names programs built against older glibc import.
 * Each classifies the path (preload-sysfs.c) and either serves the device,
 * redirects into the shadow tree, or calls libc unchanged.
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "preload.h"
#include "util.h"

#define EXPORT __attribute__((visibility("default")))

/* Declared by glibc only for fortified or old builds; ours to define. */
EXPORT int __open_2(const char *path, int flags);
EXPORT int __open64_2(const char *path, int flags);
EXPORT int __openat_2(int dirfd, const char *path, int flags);
EXPORT int __openat64_2(int dirfd, const char *path, int flags);
EXPORT int __xstat(int ver, const char *path, struct stat *st);
EXPORT int __xstat64(int ver, const char *path, struct stat64 *st);
EXPORT int __lxstat(int ver, const char *path, struct stat *st);
EXPORT int __lxstat64(int ver, const char *path, struct stat64 *st);
EXPORT int __fxstat(int ver, int fd, struct stat *st);
EXPORT int __fxstat64(int ver, int fd, struct stat64 *st);
EXPORT int __fxstatat(int ver, int dirfd, const char *path, struct stat *st,
		      int flags);
EXPORT int __fxstatat64(int ver, int dirfd, const char *path,
			struct stat64 *st, int flags);
EXPORT ssize_t __readlink_chk(const char *path, char *buf, size_t len,
			      size_t buflen);
EXPORT ssize_t __readlinkat_chk(int dirfd, const char *path, char *buf,
				size_t len, size_t buflen);
EXPORT char *__realpath_chk(const char *path, char *resolved, size_t reslen);

/* A helper, as glibc declares most path arguments nonnull. */
static bool empty_path(const char *path)
{
	return path && !path[0];
}

static enum preload_path_kind classify(int dirfd, const char *path, char *buf,
				       int *out)
{
	if (!preload_real.openat)
		preload_init();
	if (preload_busy)
		return PRELOAD_PATH_REAL;
	return preload_classify(dirfd, path, buf, PATH_MAX, out);
}

/* The node exists while a gemd listens at the device path. */
static bool device_present(void)
{
	const char *path = gem_device_path(NULL);
	struct stat st;

	return path && preload_real.fstatat(AT_FDCWD, path, &st, 0) == 0 &&
	       S_ISSOCK(st.st_mode);
}

/* --- open ------------------------------------------------------------------ */

static int do_open(int dirfd, const char *path, int flags, mode_t mode)
{
	enum preload_path_kind kind;
	char buf[PATH_MAX];
	bool attr;
	int n, fd;

	kind = classify(dirfd, path, buf, &n);
	switch (kind) {
	case PRELOAD_PATH_DEVICE:
		return preload_open_device(n, flags);
	case PRELOAD_PATH_FDLINK:
		return preload_reopen_device(n, flags);
	case PRELOAD_PATH_FDINFO:
		return preload_open_fdinfo(n, flags);
	case PRELOAD_PATH_MODULES:
		return preload_open_modules(flags);
	default:
		break;
	}
	/* A sysfs attribute with behaviour is known once it is open. */
	attr = !preload_busy && preload_attr_candidate(path);
	fd = preload_real.openat(dirfd, kind == PRELOAD_PATH_SHADOW ? buf : path,
				 attr ? preload_attr_open_flags(flags) : flags, mode);
	if (attr)
		return preload_attr_opened(fd, flags);
	if (kind == PRELOAD_PATH_SHADOW)
		return fd;
	if (fd >= 0 && !preload_busy && preload_is_self_mem_path(path))
		preload_fd_kind_set(fd, PRELOAD_FD_SELF_MEM);
	return fd;
}

static bool needs_mode(int flags)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

#define OPEN_MODE(flags, last) ({ \
	mode_t m_ = 0; \
	if (needs_mode(flags)) { \
		va_list ap_; \
		va_start(ap_, last); \
		m_ = (mode_t)va_arg(ap_, int); \
		va_end(ap_); \
	} \
	m_; })

EXPORT int open(const char *path, int flags, ...)
{
	return do_open(AT_FDCWD, path, flags, OPEN_MODE(flags, flags));
}

EXPORT int open64(const char *path, int flags, ...)
{
	return do_open(AT_FDCWD, path, flags, OPEN_MODE(flags, flags));
}

EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	return do_open(dirfd, path, flags, OPEN_MODE(flags, flags));
}

EXPORT int openat64(int dirfd, const char *path, int flags, ...)
{
	return do_open(dirfd, path, flags, OPEN_MODE(flags, flags));
}

EXPORT int __open_2(const char *path, int flags)
{
	return do_open(AT_FDCWD, path, flags, 0);
}

EXPORT int __open64_2(const char *path, int flags)
{
	return do_open(AT_FDCWD, path, flags, 0);
}

EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
	return do_open(dirfd, path, flags, 0);
}

EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
	return do_open(dirfd, path, flags, 0);
}

/* glibc's fopen opens inside libc, where our open() is not seen. */
static int fopen_flags(const char *mode)
{
	int flags;

	switch (mode[0]) {
	case 'r':
		flags = 0;
		break;
	case 'w':
		flags = O_CREAT | O_TRUNC;
		break;
	case 'a':
		flags = O_CREAT | O_APPEND;
		break;
	default:
		return -1;
	}
	flags |= strchr(mode, '+') ? O_RDWR : mode[0] == 'r' ? O_RDONLY : O_WRONLY;
	if (strchr(mode, 'e'))
		flags |= O_CLOEXEC;
	return flags;
}

/* fd as a FILE, or NULL with fd closed. */
static FILE *fdopen_or_close(int fd, const char *mode)
{
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, mode);
	if (!f)
		close(fd);
	return f;
}

static FILE *fdopen_device(int n, enum preload_path_kind kind, const char *mode)
{
	int flags = fopen_flags(mode);

	if (flags < 0) {
		errno = EINVAL;
		return NULL;
	}
	return fdopen_or_close(kind == PRELOAD_PATH_FDLINK ? preload_reopen_device(n, flags) :
			       kind == PRELOAD_PATH_FDINFO ? preload_open_fdinfo(n, flags) :
			       kind == PRELOAD_PATH_MODULES ? preload_open_modules(flags) :
			       preload_open_device(n, flags), mode);
}

/* An attribute through do_open (stdio's own writes are not checked). */
static FILE *fdopen_attr(const char *path, const char *mode)
{
	int flags = fopen_flags(mode);

	if (flags < 0) {
		errno = EINVAL;
		return NULL;
	}
	return fdopen_or_close(do_open(AT_FDCWD, path, flags, 0666), mode);
}

static FILE *do_fopen(const char *path, const char *mode)
{
	char buf[PATH_MAX];
	int n;

	enum preload_path_kind kind = classify(AT_FDCWD, path, buf, &n);

	switch (kind) {
	case PRELOAD_PATH_DEVICE:
	case PRELOAD_PATH_FDLINK:
	case PRELOAD_PATH_FDINFO:
	case PRELOAD_PATH_MODULES:
		return fdopen_device(n, kind, mode);
	case PRELOAD_PATH_SHADOW:
		if (preload_attr_candidate(path))
			return fdopen_attr(path, mode);
		return preload_real.fopen(buf, mode);
	default:
		if (!preload_busy && preload_attr_candidate(path))
			return fdopen_attr(path, mode);
		return preload_real.fopen(path, mode);
	}
}

EXPORT FILE *fopen(const char *path, const char *mode)
{
	return do_fopen(path, mode);
}

EXPORT FILE *fopen64(const char *path, const char *mode)
{
	return do_fopen(path, mode);
}

static FILE *do_freopen(const char *path, const char *mode, FILE *f)
{
	char buf[PATH_MAX];
	int n;

	/* Its descriptor is closed (or replaced) by libc itself. */
	if (f)
		preload_fd_closing(fileno(f));
	if (classify(AT_FDCWD, path, buf, &n) == PRELOAD_PATH_SHADOW)
		return preload_real.freopen(buf, mode, f);
	return preload_real.freopen(path, mode, f);
}

EXPORT FILE *freopen(const char *path, const char *mode, FILE *f)
{
	return do_freopen(path, mode, f);
}

EXPORT FILE *freopen64(const char *path, const char *mode, FILE *f)
{
	return do_freopen(path, mode, f);
}

/* --- stat -------------------------------------------------------------------- */

static int do_fstat(int fd, struct stat *st)
{
	int minor;

	if (!preload_real.fstat)
		preload_init();
	if (preload_real.fstat(fd, st) < 0)
		return -1;
	if (preload_busy || !S_ISSOCK(st->st_mode))
		return 0;
	minor = preload_fd_minor_checked(fd);
	if (minor >= 0)
		preload_fill_chr_stat(st, minor);
	return 0;
}

static int do_stat(int dirfd, const char *path, struct stat *st, int flags)
{
	char buf[PATH_MAX];
	int n;

	if ((flags & AT_EMPTY_PATH) && empty_path(path))
		return do_fstat(dirfd, st);
	switch (classify(dirfd, path, buf, &n)) {
	case PRELOAD_PATH_DEVICE:
		if (!device_present()) {
			errno = ENOENT;
			return -1;
		}
		preload_fill_chr_stat(st, n);
		return 0;
	case PRELOAD_PATH_FDLINK:
		if (flags & AT_SYMLINK_NOFOLLOW)
			return preload_real.fstatat(dirfd, path, st, flags);
		preload_fill_chr_stat(st, preload_fd_minor(n));
		return 0;
	case PRELOAD_PATH_SHADOW:
		return preload_real.fstatat(dirfd, buf, st, flags);
	default:
		return preload_real.fstatat(dirfd, path, st, flags);
	}
}

/* x86-64 and the other LP64 ABIs: struct stat64 is struct stat. */
_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "LP64 stat");

EXPORT int stat(const char *path, struct stat *st)
{
	return do_stat(AT_FDCWD, path, st, 0);
}

EXPORT int stat64(const char *path, struct stat64 *st)
{
	return do_stat(AT_FDCWD, path, (struct stat *)st, 0);
}

EXPORT int lstat(const char *path, struct stat *st)
{
	return do_stat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

EXPORT int lstat64(const char *path, struct stat64 *st)
{
	return do_stat(AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW);
}

EXPORT int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	return do_stat(dirfd, path, st, flags);
}

EXPORT int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	return do_stat(dirfd, path, (struct stat *)st, flags);
}

EXPORT int fstat(int fd, struct stat *st)
{
	return do_fstat(fd, st);
}

EXPORT int fstat64(int fd, struct stat64 *st)
{
	return do_fstat(fd, (struct stat *)st);
}

EXPORT int __xstat(int ver, const char *path, struct stat *st)
{
	return do_stat(AT_FDCWD, path, st, 0);
}

EXPORT int __xstat64(int ver, const char *path, struct stat64 *st)
{
	return do_stat(AT_FDCWD, path, (struct stat *)st, 0);
}

EXPORT int __lxstat(int ver, const char *path, struct stat *st)
{
	return do_stat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

EXPORT int __lxstat64(int ver, const char *path, struct stat64 *st)
{
	return do_stat(AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW);
}

EXPORT int __fxstat(int ver, int fd, struct stat *st)
{
	return do_fstat(fd, st);
}

EXPORT int __fxstat64(int ver, int fd, struct stat64 *st)
{
	return do_fstat(fd, (struct stat *)st);
}

EXPORT int __fxstatat(int ver, int dirfd, const char *path, struct stat *st,
		      int flags)
{
	return do_stat(dirfd, path, st, flags);
}

EXPORT int __fxstatat64(int ver, int dirfd, const char *path,
			struct stat64 *st, int flags)
{
	return do_stat(dirfd, path, (struct stat *)st, flags);
}

static void stat_to_statx(const struct stat *st, struct statx *stx)
{
	memset(stx, 0, sizeof(*stx));
	stx->stx_mask = STATX_BASIC_STATS;
	stx->stx_blksize = (uint32_t)st->st_blksize;
	stx->stx_nlink = (uint32_t)st->st_nlink;
	stx->stx_mode = (uint16_t)st->st_mode;
	stx->stx_ino = st->st_ino;
	stx->stx_rdev_major = major(st->st_rdev);
	stx->stx_rdev_minor = minor(st->st_rdev);
	stx->stx_dev_major = major(st->st_dev);
	stx->stx_dev_minor = minor(st->st_dev);
}

EXPORT int statx(int dirfd, const char *path, int flags, unsigned int mask,
		 struct statx *stx)
{
	static int (*real_statx)(int, const char *, int, unsigned int, struct statx *);
	char buf[PATH_MAX];
	struct stat st;
	int n;

	if (!real_statx)
		real_statx = dlsym(RTLD_NEXT, "statx");
	if (!real_statx) {
		errno = ENOSYS;
		return -1;
	}
	if ((flags & AT_EMPTY_PATH) && empty_path(path)) {
		if (!preload_busy && preload_fd_minor_checked(dirfd) >= 0 &&
		    do_fstat(dirfd, &st) == 0 && S_ISCHR(st.st_mode)) {
			stat_to_statx(&st, stx);
			return 0;
		}
		return real_statx(dirfd, path, flags, mask, stx);
	}
	switch (classify(dirfd, path, buf, &n)) {
	case PRELOAD_PATH_FDLINK:
		if (flags & AT_SYMLINK_NOFOLLOW)
			break;
		fallthrough;
	case PRELOAD_PATH_DEVICE:
		if (do_stat(dirfd, path, &st, flags) < 0)
			return -1;
		stat_to_statx(&st, stx);
		return 0;
	case PRELOAD_PATH_SHADOW:
		return real_statx(dirfd, buf, flags, mask, stx);
	default:
		break;
	}
	return real_statx(dirfd, path, flags, mask, stx);
}

/* --- statfs: the shadow tree is sysfs --------------------------------------- */

/*
 * systemd's sd-device (under libudev's udev_device_new_from_syspath, as
 * IGT's device scan calls it) believes a syspath only on a file system
 * with sysfs's magic.
 */
#define SYSFS_MAGIC	0x62656572

static bool in_shadow(const char *path)
{
	const char *root = preload_shadow_root();
	size_t n = strlen(root);

	return n && !strncmp(path, root, n) && (path[n] == '/' || !path[n]);
}

static bool fd_in_shadow(int fd)
{
	char link[32], target[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = preload_real.readlinkat(AT_FDCWD, link, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	return in_shadow(target);
}

typedef int statfs_fn(const char *, struct statfs *);
typedef int fstatfs_fn(int, struct statfs *);

static int do_statfs(statfs_fn *real, const char *path, struct statfs *st)
{
	char buf[PATH_MAX];
	int n, ret;

	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	if (classify(AT_FDCWD, path, buf, &n) != PRELOAD_PATH_SHADOW)
		return real(path, st);
	ret = real(buf, st);
	if (ret == 0 && in_shadow(buf))
		st->f_type = SYSFS_MAGIC;
	return ret;
}

static int do_fstatfs(fstatfs_fn *real, int fd, struct statfs *st)
{
	int ret;

	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	ret = real(fd, st);
	if (ret == 0 && !preload_busy && fd_in_shadow(fd))
		st->f_type = SYSFS_MAGIC;
	return ret;
}

EXPORT int statfs(const char *path, struct statfs *st)
{
	static statfs_fn *real;

	if (!real)
		real = (statfs_fn *)dlsym(RTLD_NEXT, "statfs");
	return do_statfs(real, path, st);
}

/* The same layout on 64-bit glibc, whose statfs64 is statfs. */
_Static_assert(sizeof(struct statfs64) == sizeof(struct statfs), "statfs64");

EXPORT int statfs64(const char *path, struct statfs64 *st)
{
	static statfs_fn *real;

	if (!real)
		real = (statfs_fn *)dlsym(RTLD_NEXT, "statfs64");
	return do_statfs(real, path, (struct statfs *)st);
}

EXPORT int fstatfs(int fd, struct statfs *st)
{
	static fstatfs_fn *real;

	if (!real)
		real = (fstatfs_fn *)dlsym(RTLD_NEXT, "fstatfs");
	return do_fstatfs(real, fd, st);
}

EXPORT int fstatfs64(int fd, struct statfs64 *st)
{
	static fstatfs_fn *real;

	if (!real)
		real = (fstatfs_fn *)dlsym(RTLD_NEXT, "fstatfs64");
	return do_fstatfs(real, fd, (struct statfs *)st);
}

/* --- access, readlink, realpath, opendir, mount ------------------------------ */

static int do_access(int dirfd, const char *path, int mode, int flags)
{
	char buf[PATH_MAX];
	int n;

	switch (classify(dirfd, path, buf, &n)) {
	case PRELOAD_PATH_DEVICE:
		if (device_present())	/* the socket's permissions are the node's */
			return preload_real.faccessat(AT_FDCWD, gem_device_path(NULL),
						      mode, flags);
		errno = ENOENT;
		return -1;
	case PRELOAD_PATH_FDLINK:
		return 0;
	case PRELOAD_PATH_SHADOW:
		return preload_real.faccessat(dirfd, buf, mode, flags);
	default:
		return preload_real.faccessat(dirfd, path, mode, flags);
	}
}

EXPORT int access(const char *path, int mode)
{
	return do_access(AT_FDCWD, path, mode, 0);
}

EXPORT int faccessat(int dirfd, const char *path, int mode, int flags)
{
	return do_access(dirfd, path, mode, flags);
}

EXPORT int euidaccess(const char *path, int mode)
{
	return do_access(AT_FDCWD, path, mode, AT_EACCESS);
}

EXPORT int eaccess(const char *path, int mode)
{
	return do_access(AT_FDCWD, path, mode, AT_EACCESS);
}

/* chmod of the node: the socket's mode, by the same rules (its owner or
 * root may). */
static int do_chmod(int dirfd, const char *path, mode_t mode, int flags)
{
	static int (*real_fchmodat)(int, const char *, mode_t, int);
	char buf[PATH_MAX];
	int n;

	if (!real_fchmodat)
		real_fchmodat = dlsym(RTLD_NEXT, "fchmodat");
	switch (classify(dirfd, path, buf, &n)) {
	case PRELOAD_PATH_DEVICE:
		if (!device_present()) {
			errno = ENOENT;
			return -1;
		}
		return real_fchmodat(AT_FDCWD, gem_device_path(NULL), mode & 07777, 0);
	case PRELOAD_PATH_SHADOW:
		return real_fchmodat(dirfd, buf, mode, flags);
	default:
		return real_fchmodat(dirfd, path, mode, flags);
	}
}

EXPORT int chmod(const char *path, mode_t mode)
{
	return do_chmod(AT_FDCWD, path, mode, 0);
}

EXPORT int fchmodat(int dirfd, const char *path, mode_t mode, int flags)
{
	return do_chmod(dirfd, path, mode, flags);
}

static ssize_t do_readlink(int dirfd, const char *path, char *out, size_t len)
{
	char buf[PATH_MAX];
	int n;

	switch (classify(dirfd, path, buf, &n)) {
	case PRELOAD_PATH_DEVICE:
		errno = EINVAL;		/* a node, not a link */
		return -1;
	case PRELOAD_PATH_SHADOW:
		return preload_real.readlinkat(dirfd, buf, out, len);
	default:
		return preload_real.readlinkat(dirfd, path, out, len);
	}
}

EXPORT ssize_t readlink(const char *path, char *buf, size_t len)
{
	return do_readlink(AT_FDCWD, path, buf, len);
}

EXPORT ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t len)
{
	return do_readlink(dirfd, path, buf, len);
}

EXPORT ssize_t __readlink_chk(const char *path, char *buf, size_t len,
			      size_t buflen)
{
	if (len > buflen)
		abort();	/* what the fortified libc does: overflow */
	return do_readlink(AT_FDCWD, path, buf, len);
}

EXPORT ssize_t __readlinkat_chk(int dirfd, const char *path, char *buf,
				size_t len, size_t buflen)
{
	if (len > buflen)
		abort();
	return do_readlink(dirfd, path, buf, len);
}

static char *do_realpath(const char *path, char *resolved)
{
	char buf[PATH_MAX];
	size_t len;
	char *r;
	int n;

	switch (classify(AT_FDCWD, path, buf, &n)) {
	case PRELOAD_PATH_DEVICE:
		len = strlen(path);
		if (!resolved)
			return strdup(path);
		memcpy(resolved, path, len + 1);	/* < PATH_MAX: classified */
		return resolved;
	case PRELOAD_PATH_SHADOW:
		r = preload_real.realpath(buf, resolved);
		if (r)
			preload_unshadow(r);
		return r;
	default:
		return preload_real.realpath(path, resolved);
	}
}

EXPORT char *realpath(const char *path, char *resolved)
{
	return do_realpath(path, resolved);
}

EXPORT char *__realpath_chk(const char *path, char *resolved, size_t reslen)
{
	if (reslen < PATH_MAX)
		abort();
	return do_realpath(path, resolved);
}

EXPORT char *canonicalize_file_name(const char *path)
{
	return do_realpath(path, NULL);
}

EXPORT DIR *opendir(const char *path)
{
	char buf[PATH_MAX];
	int n;

	switch (classify(AT_FDCWD, path, buf, &n)) {
	case PRELOAD_PATH_DEVICE:
	case PRELOAD_PATH_FDLINK:
		errno = ENOTDIR;
		return NULL;
	case PRELOAD_PATH_SHADOW:
		return preload_real.opendir(buf);
	default:
		return preload_real.opendir(path);
	}
}

/*
 * IGT mounts debugfs itself when /sys/kernel/debug is not a mount point;
 * with the redirect in place that mount is already "there".
 */
EXPORT int mount(const char *source, const char *target, const char *fstype,
		 unsigned long flags, const void *data)
{
	if (!preload_real.mount)
		preload_init();
	if (!preload_busy && fstype && !strcmp(fstype, "debugfs") && target &&
	    !strncmp(target, "/sys/kernel/debug", 17) &&
	    preload_debugfs_redirected())
		return 0;
	return preload_real.mount(source, target, fstype, flags, data);
}
