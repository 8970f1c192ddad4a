/*
 * libgemkit-preload internals.  The interposer is four files:
 * preload.c (the real libc functions, the device fds, ioctl, mmap and
 * munmap), preload-fs.c (path hooks: open, stat, access, readlink,
 * opendir, fopen), preload-sysfs.c (the fake sysfs and /dev/dri tree),
 * preload-prime.c (dma-buf fds: llseek, mmap bounds, their ioctls) and
 * preload-procmem.c (/proc/self/mem stops at a GEM mapping's end).
 */
#ifndef GEMKIT_PRELOAD_H
#define GEMKIT_PRELOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <dirent.h>
#include <setjmp.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/types.h>

#define DRM_MAJOR	226

/* The libc functions we replace, resolved with dlsym(RTLD_NEXT). */
struct preload_real {
	int (*open)(const char *, int, ...);
	int (*openat)(int, const char *, int, ...);
	int (*close)(int);
	int (*ioctl)(int, unsigned long, ...);
	void *(*mmap)(void *, size_t, int, int, int, off_t);
	int (*fstat)(int, struct stat *);
	int (*fstatat)(int, const char *, struct stat *, int);
	int (*faccessat)(int, const char *, int, int);
	ssize_t (*readlinkat)(int, const char *, char *, size_t);
	char *(*realpath)(const char *, char *);
	DIR *(*opendir)(const char *);
	FILE *(*fopen)(const char *, const char *);
	FILE *(*freopen)(const char *, const char *, FILE *);
	int (*fclose)(FILE *);
	int (*dup)(int);
	int (*dup2)(int, int);
	int (*dup3)(int, int, int);
	int (*fcntl)(int, int, ...);
	int (*mount)(const char *, const char *, const char *, unsigned long,
		     const void *);
	/* the longjmp family: the guard is cleared on the way out */
	void (*longjmp)(struct __jmp_buf_tag *, int) __attribute__((noreturn));
	void (*_longjmp)(struct __jmp_buf_tag *, int) __attribute__((noreturn));
	void (*siglongjmp)(struct __jmp_buf_tag *, int) __attribute__((noreturn));
	void (*longjmp_chk)(struct __jmp_buf_tag *, int) __attribute__((noreturn));
	int (*munmap)(void *, size_t);
	void *(*mremap)(void *, size_t, size_t, int, ...);
	off_t (*lseek)(int, off_t, int);
	int (*poll)(struct pollfd *, nfds_t, int);
};

extern struct preload_real preload_real;
void preload_init(void);

/*
 * Set while libgem runs on behalf of a hook: libgem's own fstat() and
 * friends resolve to our hooks too (we are first in the lookup order), and
 * must see the truth.
 */
extern __thread int preload_busy;

/* Device fds: known by number (fast) or recognised off the socket. */
bool preload_is_device_fd(int fd);
void preload_fd_set(int fd, int minor);	/* minor -1: not a device */
/*
 * fd is being closed where no close hook sees it (fclose, freopen):
 * forget it.  The table must know every close of a device fd, for
 * ioctls on the fds it knows are vouched for (vouch.h); a close it
 * cannot see (a raw close system call, fcloseall) leaves it wrong.
 */
void preload_fd_closing(int fd);
/* dma-buf fds this process got from PRIME (preload-prime.c). */
#define PRELOAD_FD_DMABUF	254	/* preload_fd_set's "minor" for them */
bool preload_is_dmabuf(int fd);
/* After a PRIME ioctl through libgem: remember the dma-buf it named. */
void preload_prime_done(unsigned long request, void *arg);
/* DMA_BUF_IOCTL_* on a dma-buf fd: the result, errno set. */
int preload_dmabuf_ioctl(int fd, unsigned long request, void *arg);
/* mmap of a dma-buf: MAP_FAILED with EINVAL past its end, else 0. */
bool preload_dmabuf_mmap_ok(int fd, size_t len, off_t off);
int preload_fd_minor(int fd);		/* -1 if not a device */
int preload_fd_minor_raw(int fd);	/* the table only: -1 if unknown */
int preload_fd_minor_checked(int fd);	/* the same, the table double-checked */

/* Open the device node of minor (new drm_file): an fd or -1 and errno. */
int preload_open_device(int minor, int flags);
/* Open a second drm_file on the gemd behind device fd (a /proc/self/fd reopen). */
int preload_reopen_device(int fd, int flags);
/* The device fd's fake char-device identity. */
void preload_fill_chr_stat(struct stat *st, int minor);

/* The process's own /proc/self/mem fds (preload-procmem.c). */
bool preload_is_self_mem_path(const char *path);
void preload_procmem_set(int fd, bool self_mem);

/* Paths (preload-sysfs.c). */
enum preload_path_kind {
	PRELOAD_PATH_REAL,	/* not ours: the real call */
	PRELOAD_PATH_DEVICE,	/* /dev/dri/card0 or renderD128 (minor out) */
	PRELOAD_PATH_FDLINK,	/* /proc/self/fd/N of a device fd (fd out) */
	PRELOAD_PATH_SHADOW,	/* redirected to a real file (path out) */
	PRELOAD_PATH_FDINFO,	/* /proc/self/fdinfo/N of a device fd (fd out) */
};

/* A read-only fd holding device fd's fdinfo (preload-fdinfo.c), or -1. */
int preload_open_fdinfo(int fd, int flags);

/*
 * Classify an absolute or cwd-relative path; for SHADOW, buf (PATH_MAX)
 * receives the path to use instead.  *out is the minor or the fd.
 */
enum preload_path_kind preload_classify(int dirfd, const char *path,
					char *buf, size_t len, int *out);
/* Strip the shadow root off a path realpath() resolved inside it. */
void preload_unshadow(char *path);
/* True when /sys/kernel/debug is redirected (GEMKIT_DEBUGFS). */
bool preload_debugfs_redirected(void);

#endif
