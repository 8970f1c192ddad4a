/*
 * libgemkit-preload: make /dev/dri/card0 exist for an unmodified program
 * and forward its DRM ioctls to gemd through libgem.  This file holds the
 * real libc functions, the device fds, and the ioctl, mmap and close
 * hooks; path hooks live in preload-fs.c.
 *
 * A device fd is a libgem file connection (a socket to gemd), so dup,
 * fork and exec share it exactly as they share a real drm fd, and libgem
 * recognises it from the socket itself wherever it turns up.  The table
 * here only makes the recognition free for fds this process opened.
 *
 * Cost: an ioctl whose type is not DRM's ('d') is passed to libc after a
 * single compare; mmap only looks further for file mappings.
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/close_range.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <drm.h>
#include <linux/dma-buf.h>
#include <linux/sync_file.h>

#include "channel.h"
#include "libgem.h"
#include "maps.h"
#include "preload.h"
#include "sockpath.h"
#include "strbuf.h"
#include "util.h"
#include "vouch.h"

#define EXPORT __attribute__((visibility("default")))

struct preload_real preload_real;
__thread int preload_busy __attribute__((tls_model("initial-exec")));

/* fds below this are remembered by number: 0 unknown, else minor + 1. */
#define FD_TABLE_SIZE	4096
static uint8_t fd_table[FD_TABLE_SIZE];

static void *must_resolve(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (!p) {
		static const char msg[] = "libgemkit-preload: libc lacks a function it needs\n";

		/* Not stdio: we may be inside its initialisation. */
		(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
		_exit(127);
	}
	return p;
}

static void resolve_all(void)
{
	struct preload_real r;

	r.open = must_resolve("open");
	r.openat = must_resolve("openat");
	r.close = must_resolve("close");
	r.ioctl = must_resolve("ioctl");
	r.mmap = must_resolve("mmap");
	r.fstat = must_resolve("fstat");
	r.fstatat = must_resolve("fstatat");
	r.faccessat = must_resolve("faccessat");
	r.readlinkat = must_resolve("readlinkat");
	r.realpath = must_resolve("realpath");
	r.opendir = must_resolve("opendir");
	r.fopen = must_resolve("fopen");
	r.freopen = must_resolve("freopen");
	r.fclose = must_resolve("fclose");
	r.dup = must_resolve("dup");
	r.dup2 = must_resolve("dup2");
	r.dup3 = must_resolve("dup3");
	r.fcntl = must_resolve("fcntl");
	r.mount = must_resolve("mount");
	r.longjmp = must_resolve("longjmp");
	r._longjmp = must_resolve("_longjmp");
	r.siglongjmp = must_resolve("siglongjmp");
	r.longjmp_chk = must_resolve("__longjmp_chk");
	r.munmap = must_resolve("munmap");
	r.mremap = must_resolve("mremap");
	r.lseek = must_resolve("lseek");
	r.poll = must_resolve("poll");
	preload_real = r;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

void preload_init(void)
{
	pthread_once(&init_once, resolve_all);
}

__attribute__((constructor)) static void preload_ctor(void)
{
	preload_init();
}

/* --- device fds ----------------------------------------------------------- */

void preload_fd_set(int fd, int minor)
{
	if (fd >= 0 && fd < FD_TABLE_SIZE)
		__atomic_store_n(&fd_table[fd], (uint8_t)(minor < 0 ? 0 : minor + 1),
				 __ATOMIC_RELAXED);
}

/* libgem recognises the socket: ours if gemd's autobound file token. */
static bool recognise(int fd)
{
	struct stat st;
	bool yes;

	if (preload_real.fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode))
		return false;
	preload_busy++;
	yes = gem_is_device_fd(fd);
	preload_busy--;
	return yes;
}

int preload_fd_minor_raw(int fd)
{
	if (fd < 0 || fd >= FD_TABLE_SIZE)
		return -1;
	return (int)__atomic_load_n(&fd_table[fd], __ATOMIC_RELAXED) - 1;
}

int preload_fd_minor(int fd)
{
	int v = preload_fd_minor_raw(fd);

	if (v == PRELOAD_FD_DMABUF)
		return -1;
	if (v >= 0)
		return v;
	if (fd < 0)
		return -1;
	if (!recognise(fd))
		return -1;
	/* Inherited across exec: the socket does not say which node it was. */
	preload_fd_set(fd, 0);
	return 0;
}

bool preload_is_device_fd(int fd)
{
	return preload_fd_minor(fd) >= 0;
}

/*
 * The minor of a device fd, checked against the socket itself: the table
 * cannot see an fd closed inside libc (fclose) and its number reused.
 */
int preload_fd_minor_checked(int fd)
{
	int minor = preload_fd_minor(fd);

	if (minor < 0 || recognise(fd))
		return minor;
	preload_fd_set(fd, -1);
	return -1;
}

/*
 * The node's owner and permissions are the socket's: who may open the
 * device is who may connect to gemd, and chmod of the node changes the
 * socket (preload-fs.c), as chmod of /dev/dri/card0 does the node.
 */
void preload_fill_chr_stat(struct stat *st, int minor)
{
	const char *path = gem_device_path(NULL);
	struct stat sock;

	memset(st, 0, sizeof(*st));
	/* The rest constant, so that stat(path) and fstat(fd) agree (IGT
	 * compares). */
	st->st_dev = makedev(0, 5);
	st->st_ino = 0x67656d00u + (unsigned int)minor;
	st->st_mode = S_IFCHR | 0666;
	if (path && preload_real.fstatat(AT_FDCWD, path, &sock, 0) == 0 &&
	    S_ISSOCK(sock.st_mode)) {
		st->st_mode = S_IFCHR | (sock.st_mode & 07777);
		st->st_uid = sock.st_uid;
		st->st_gid = sock.st_gid;
	}
	st->st_nlink = 1;
	st->st_rdev = makedev(DRM_MAJOR, minor);
	st->st_blksize = 4096;
}

int preload_open_errno(int err)
{
	/* No gemd behind the path, or its driver unbound: as if the node
	 * were not there. */
	return err == ECONNREFUSED || err == ENODEV ? ENOENT : err;
}

/*
 * The shadow's links follow what an open found: gemd may have been
 * unbound or bound by a program that does not share this shadow (gemctl),
 * or restarted bound.
 */
static void sync_bound(bool bound)
{
	if (preload_shadow_has(PCI_DIR "/driver") != bound)
		(void)preload_shadow_set_state(bound ? PRELOAD_DEV_BOUND :
					       PRELOAD_DEV_UNBOUND);
}

int preload_open_device(int minor, int flags)
{
	int fd, err;

	preload_busy++;
	fd = gem_open(NULL, flags & O_CLOEXEC);
	err = errno;
	if (fd >= 0 || err == ENODEV)
		sync_bound(fd >= 0);
	preload_busy--;
	if (fd < 0) {
		errno = preload_open_errno(err);
		return -1;
	}
	preload_fd_set(fd, minor);
	return fd;
}

int preload_reopen_device(int oldfd, int flags)
{
	struct strbuf peer = STRBUF_INIT;
	int minor = preload_fd_minor(oldfd), fd, err;

	if (minor < 0 || sockpath_peer(oldfd, &peer)) {
		strbuf_release(&peer);
		errno = ENXIO;		/* what reopening a socket says */
		return -1;
	}
	preload_busy++;
	fd = gem_open(peer.buf, flags & O_CLOEXEC);
	err = errno;
	preload_busy--;
	strbuf_release(&peer);
	if (fd < 0) {
		errno = preload_open_errno(err);
		return -1;
	}
	preload_fd_set(fd, minor);
	return fd;
}

/* --- ioctl, mmap, close ----------------------------------------------------- */

EXPORT int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;
	int ret, err;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (__builtin_expect(_IOC_TYPE(request) == SYNC_IOC_MAGIC, 0) && !preload_busy) {
		/* An out-fence of gemd's answers the sync_file ioctls. */
		preload_busy++;
		ret = gem_syncfile_ioctl(fd, request, arg);
		err = errno;
		preload_busy--;
		if (ret == 0 || err != ENOTTY) {
			errno = err;
			return ret;
		}
	}
	if (__builtin_expect(_IOC_TYPE(request) == DMA_BUF_BASE, 0) &&
	    !preload_busy && preload_is_dmabuf(fd))
		return preload_dmabuf_ioctl(fd, request, arg);
	if (__builtin_expect(_IOC_TYPE(request) != DRM_IOCTL_BASE, 1) ||
	    preload_busy || !preload_is_device_fd(fd)) {
		if (__builtin_expect(!preload_real.ioctl, 0))
			preload_init();
		return preload_real.ioctl(fd, request, arg);
	}
	preload_busy++;
	/* Known by number: the table sees every close (close hooks below). */
	ret = preload_fd_minor_raw(fd) >= 0 ? libgem_ioctl_vouched(fd, request, arg) :
					       gem_ioctl(fd, request, arg);
	err = errno;
	preload_busy--;
	if (ret < 0)
		errno = err;
	else
		preload_prime_done(request, arg);
	return ret;
}

/* The program unmaps or reuses addresses: libgem must not map there. */
static void forget_maps(void *addr, size_t len)
{
	preload_busy++;
	libgem_maps_forget(addr, len);
	preload_busy--;
}

static void *hook_mmap(void *addr, size_t len, int prot, int flags, int fd,
		       off_t off)
{
	void *p;
	int err;

	if (!preload_real.mmap)
		preload_init();
	if (preload_busy)
		return preload_real.mmap(addr, len, prot, flags, fd, off);
	/* A mapping over one libgem made: libgem must forget it. */
	if (flags & MAP_FIXED)
		forget_maps(addr, len);
	if (preload_is_dmabuf(fd) && !preload_dmabuf_mmap_ok(fd, len, off)) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	if (fd >= 0 && !(flags & MAP_ANONYMOUS) &&
	    preload_fd_kind(fd) >= PRELOAD_FD_ATTR)
		return preload_attr_mmap(fd, preload_fd_kind(fd) - PRELOAD_FD_ATTR,
					 addr, len, prot, flags, off);
	if (fd < 0 || (flags & MAP_ANONYMOUS) || !preload_is_device_fd(fd))
		return preload_real.mmap(addr, len, prot, flags, fd, off);
	/* A stale table entry must not steal a mapping of some other file. */
	if (!recognise(fd)) {
		preload_fd_set(fd, -1);
		return preload_real.mmap(addr, len, prot, flags, fd, off);
	}
	preload_busy++;
	p = gem_mmap(addr, len, prot, flags, fd, off);
	err = errno;
	preload_busy--;
	if (p == MAP_FAILED)
		errno = err;
	return p;
}

EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return hook_mmap(addr, len, prot, flags, fd, off);
}

EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd,
		    off64_t off)
{
	return hook_mmap(addr, len, prot, flags, fd, (off_t)off);
}

EXPORT int munmap(void *addr, size_t len)
{
	if (!preload_real.munmap)
		preload_init();
	if (!preload_busy)
		forget_maps(addr, len);
	return preload_real.munmap(addr, len);
}

EXPORT void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	void *new_addr = NULL;
	va_list ap;

	if (!preload_real.mremap)
		preload_init();
	if (flags & MREMAP_FIXED) {
		va_start(ap, flags);
		new_addr = va_arg(ap, void *);
		va_end(ap);
	}
	if (!preload_busy) {
		forget_maps(old, old_len);
		if (flags & MREMAP_FIXED)
			forget_maps(new_addr, new_len);
	}
	return preload_real.mremap(old, old_len, new_len, flags, new_addr);
}

/* A device fd goes through libgem, whose close waits for drm_release. */
EXPORT int close(int fd)
{
	int ret, err;

	if (!preload_real.close)
		preload_init();
	preload_fd_kind_set(fd, PRELOAD_FD_PLAIN);
	if (preload_busy || fd < 0 || fd >= FD_TABLE_SIZE ||
	    !__atomic_load_n(&fd_table[fd], __ATOMIC_RELAXED))
		return preload_real.close(fd);
	preload_fd_set(fd, -1);
	preload_busy++;
	ret = gem_close(fd);
	err = errno;
	preload_busy--;
	errno = err;
	return ret;
}

EXPORT int close_range(unsigned int first, unsigned int last, int flags)
{
	static int (*real_close_range)(unsigned int, unsigned int, int);
	unsigned int fd;

	if (!real_close_range)
		real_close_range = dlsym(RTLD_NEXT, "close_range");
	if (!real_close_range) {
		errno = ENOSYS;
		return -1;
	}
	/* CLOSE_RANGE_CLOEXEC closes nothing now; exec starts a new table. */
	if (!(flags & CLOSE_RANGE_CLOEXEC))
		for (fd = first; fd <= last && fd < FD_TABLE_SIZE; fd++)
			preload_fd_closing((int)fd);
	return real_close_range(first, last, flags);
}

EXPORT void closefrom(int first)
{
	static void (*real_closefrom)(int);
	int fd;

	if (!real_closefrom)
		real_closefrom = dlsym(RTLD_NEXT, "closefrom");
	for (fd = MAX(first, 0); fd < FD_TABLE_SIZE; fd++)
		preload_fd_closing(fd);
	if (real_closefrom)
		real_closefrom(first);
}

/* Closed behind close(): neither a device nor an attribute any more,
 * whatever file gets the number next. */
void preload_fd_closing(int fd)
{
	if (fd >= 0 && fd < FD_TABLE_SIZE)
		__atomic_store_n(&fd_table[fd], 0, __ATOMIC_RELAXED);
	preload_fd_kind_set(fd, PRELOAD_FD_PLAIN);
}

/* A stream's close is libc's own close(2), which no hook sees. */
EXPORT int fclose(FILE *f)
{
	if (!preload_real.fclose)
		preload_init();
	if (f)
		preload_fd_closing(fileno(f));
	return preload_real.fclose(f);
}

/* dup and friends: the copy is the same device, known without a lookup,
 * by libgem too (whatever it knew of newfd is of a file closed now). */
static int dup_result(int oldfd, int newfd)
{
	if (newfd >= 0 && newfd != oldfd && !preload_busy) {
		preload_fd_set(newfd, oldfd >= 0 && oldfd < FD_TABLE_SIZE ?
			       (int)fd_table[oldfd] - 1 : -1);
		preload_fd_kind_set(newfd, preload_fd_kind(oldfd));
		preload_busy++;
		libgem_fd_copy(oldfd, newfd);
		preload_busy--;
	}
	return newfd;
}

EXPORT int dup(int fd)
{
	if (!preload_real.dup)
		preload_init();
	return dup_result(fd, preload_real.dup(fd));
}

EXPORT int dup2(int fd, int fd2)
{
	if (!preload_real.dup2)
		preload_init();
	return dup_result(fd, preload_real.dup2(fd, fd2));
}

EXPORT int dup3(int fd, int fd2, int flags)
{
	if (!preload_real.dup3)
		preload_init();
	return dup_result(fd, preload_real.dup3(fd, fd2, flags));
}

static int hook_fcntl(int fd, int cmd, void *arg)
{
	int ret;

	if (!preload_real.fcntl)
		preload_init();
	ret = preload_real.fcntl(fd, cmd, arg);
	if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)
		dup_result(fd, ret);
	return ret;
}

EXPORT int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return hook_fcntl(fd, cmd, arg);
}

EXPORT int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return hook_fcntl(fd, cmd, arg);
}

/* --- longjmp: leaving a hook without returning ------------------------------ */

/*
 * A signal handler may longjmp out of a hook that is waiting for gemd
 * (IGT's subtest timeouts and crash handlers do), skipping the code that
 * clears the re-entrancy guard and reads gemd's reply.  Every longjmp of
 * the program passes here first: the guard is cleared (no hook is running
 * on this thread any more once the jump lands outside them all) and a
 * channel left waiting for a reply is dropped, so the next ioctl is
 * served by gemd, in step.  glibc's own jumps (cancellation) use internal
 * entry points and never come here.
 */
static void abandon_hooks(void)
{
	preload_busy = 0;
	libgem_thread_abandon();
}

EXPORT void longjmp(struct __jmp_buf_tag env[1], int val)
{
	abandon_hooks();
	preload_real.longjmp(env, val);
}

EXPORT void _longjmp(struct __jmp_buf_tag env[1], int val)
{
	abandon_hooks();
	preload_real._longjmp(env, val);
}

EXPORT void siglongjmp(sigjmp_buf env, int val)
{
	abandon_hooks();
	preload_real.siglongjmp(env, val);
}

/* What _FORTIFY_SOURCE builds call instead of longjmp and siglongjmp. */
void __longjmp_chk(struct __jmp_buf_tag env[1], int val) __attribute__((noreturn));
EXPORT void __longjmp_chk(struct __jmp_buf_tag env[1], int val)
{
	abandon_hooks();
	preload_real.longjmp_chk(env, val);
}
