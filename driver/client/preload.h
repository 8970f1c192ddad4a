/*
 * libgemkit-preload internals.  The interposer is these files:
 * preload.c (the real libc functions, the device fds, ioctl, mmap and
 * munmap), preload-fs.c (path hooks: open, stat, access, readlink,
 * opendir, fopen), preload-sysfs.c (the fake sysfs and /dev/dri tree),
 * preload-prime.c (dma-buf fds: llseek, mmap bounds, their ioctls),
 * preload-procmem.c (read and write: /proc/self/mem stops at a GEM
 * mapping's end, sysfs attributes check what is written),
 * preload-attr.c (card0's error and engine attributes),
 * preload-kmod.c (i915 in /proc/modules), preload-udev.c (a hang as
 * the uevent libudev's "kernel" monitors hear) and preload-signal.c
 * (sigaction and signal: libgem's fault handler stays installed).
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
#define PCI_DIR		"/sys/devices/pci0000:00/0000:00:02.0"	/* the 945G */
/* A DRM minor's uevent file: what the kernel adds to each uevent of the
 * minor too (dev_uevent), so the udev monitor's events carry it. */
#define DRM_MINOR_UEVENT(node, minor) \
	"MAJOR=226\nMINOR=" #minor "\nDEVNAME=dri/" node "\nDEVTYPE=drm_minor\n"

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
/* The errno an open of the device's files gives for libgem's err: no
 * gemd, or its driver unbound, is ENOENT (the node is not there). */
int preload_open_errno(int err);
/* Open a second drm_file on the gemd behind device fd (a /proc/self/fd reopen). */
int preload_reopen_device(int fd, int flags);
/* The device fd's fake char-device identity. */
void preload_fill_chr_stat(struct stat *st, int minor);

/*
 * What read and write must know about a fd (preload-procmem.c): nothing
 * (the real call), the process's own /proc/self/mem, or a writable sysfs
 * attribute (PRELOAD_FD_ATTR + its index in preload-attr.c's table).
 */
#define PRELOAD_FD_PLAIN	0
#define PRELOAD_FD_SELF_MEM	1
#define PRELOAD_FD_ATTR		2
bool preload_is_self_mem_path(const char *path);
void preload_fd_kind_set(int fd, unsigned int kind);
unsigned int preload_fd_kind(int fd);

/*
 * The engine's writable properties as Linux 6.1 shows them for a 945G's
 * rcs0 (gt/sysfs_engines.c; the defaults are the Kconfig ones Debian
 * builds with): name, default, and the largest value the kernel takes,
 * with HZ=250, and the errno a 0 gets.  A gen3 ring has neither
 * timeslices nor preempt-reset, so timeslice_duration_ms and
 * preempt_timeout_ms do not exist, and turning the heartbeat off is
 * refused (intel_engine_set_heartbeat).  gemd does not act on them.
 */
#define ENGINE_PROPS(X) \
	X(max_busywait_duration_ns, "8000", 8000000ULL /* 2 jiffies */, 0) \
	X(stop_timeout_ms, "100", 4294967292ULL /* MAX_SCHEDULE_TIMEOUT */, 0) \
	X(heartbeat_interval_ms, "2500", 4294967291ULL /* below it */, ENODEV)
#define ENGINE_DIR	"/drm/card0/engine/rcs0"	/* under the PCI device */

/* i915 as a loaded module (/proc/modules, /sys/module/i915). */
#define I915_MODULE_SIZE	"3088384"
#define I915_MODULE_REFCNT	"0"

/* A read-only memfd holding len bytes of text (O_CLOEXEC from flags). */
int preload_text_fd(const char *name, const char *text, size_t len, int flags);
/* /proc/modules: the real one with i915 in it (preload-kmod.c). */
int preload_open_modules(int flags);

/*
 * After an open of a path whose last component is an attribute's name
 * (preload_attr_candidate): fd itself, another fd that serves it (card0's
 * error is gemd's gemkit_sysfs_error), or -1 and errno (a read-only
 * attribute opened for writing).  The open itself was made without
 * O_TRUNC (preload_attr_open_flags): it is applied here, where allowed.
 */
bool preload_attr_candidate(const char *path);
int preload_attr_open_flags(int flags);
int preload_attr_opened(int fd, int flags);
/* write or pwrite of n bytes to attribute fd: as the kernel's store. */
ssize_t preload_attr_write(int fd, unsigned int index, const void *buf,
			   size_t n);
/* mmap of attribute fd: resource0's rules (the BAR), else the real one. */
void *preload_attr_mmap(int fd, unsigned int index, void *addr, size_t len,
			int prot, int flags, off_t off);

/* Paths (preload-sysfs.c). */
enum preload_path_kind {
	PRELOAD_PATH_REAL,	/* not ours: the real call */
	PRELOAD_PATH_DEVICE,	/* /dev/dri/card0 or renderD128 (minor out) */
	PRELOAD_PATH_FDLINK,	/* /proc/self/fd/N of a device fd (fd out) */
	PRELOAD_PATH_SHADOW,	/* redirected to a real file (path out) */
	PRELOAD_PATH_FDINFO,	/* /proc/self/fdinfo/N of a device fd (fd out) */
	PRELOAD_PATH_MODULES,	/* /proc/modules */
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
/* Where gemd's debugfs file sub ("/dri/0/...") is: 0, or -ENAMETOOLONG. */
int preload_debugfs_path(const char *sub, char *buf, size_t len);
/* The shadow tree's root ("" if it could not be made). */
const char *preload_shadow_root(void);
/* Whether the device is on the PCI bus and i915 bound to it, as the
 * shadow's links show: set them (0 or -errno), or ask about one path
 * (absolute, as the program names it). */
enum preload_dev_state {
	PRELOAD_DEV_BOUND,
	PRELOAD_DEV_UNBOUND,
	PRELOAD_DEV_REMOVED,
};
int preload_shadow_set_state(enum preload_dev_state state);
bool preload_shadow_has(const char *path);

#endif
