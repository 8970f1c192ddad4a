/*
 * libgem: talk to gemd exactly as a program talks to the i915 kernel
 * driver.  gem_open returns a file descriptor that stands for one
 * drm_file (dup and fork share it; a second gem_open is a second file);
 * gem_ioctl takes the same request codes and structs as ioctl(2) on
 * /dev/dri/card0 (see libdrm's i915_drm.h) and returns 0, or -1 with errno
 * set as the kernel would; gem_mmap maps a fake offset returned by
 * DRM_IOCTL_I915_GEM_MMAP_GTT / _MMAP_OFFSET.  Any thread may call these at
 * any time.  Object memory is shared with gemd, so pread/pwrite and maps
 * copy directly; only requests travel over the socket.
 */
#ifndef GEMKIT_LIBGEM_H
#define GEMKIT_LIBGEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* path NULL: the device path rule (-D, $GEM_DEVICE, runtime default).
 * Returns an fd (O_CLOEXEC if flags has O_CLOEXEC) or -1 with errno:
 * ENOENT/ECONNREFUSED when no gemd listens there, EPROTO on version skew. */
int gem_open(const char *path, int flags);
int gem_close(int fd);
int gem_ioctl(int fd, unsigned long request, void *arg);
void *gem_mmap(void *addr, size_t length, int prot, int flags, int fd,
	       off_t offset);
/*
 * Return once gemd has handled everything this thread sent it on fd's
 * device, including what libgem completed itself and told gemd without
 * waiting (a pread or pwrite of an idle object): what gemd shows others,
 * its debugfs files for one, then includes it.  0, or -1 with errno.
 */
int gem_sync(int fd);

/*
 * The sync_file ioctls (SYNC_IOC_FILE_INFO, SYNC_IOC_MERGE of
 * <linux/sync_file.h>) on an out-fence descriptor gemd handed out with
 * I915_EXEC_FENCE_OUT: 0, or -1 with errno as the kernel's sync_file;
 * ENOTTY when fd is not such a fence (the caller may try the real ioctl).
 */
int gem_syncfile_ioctl(int fd, unsigned long request, void *arg);

/*
 * The usage stats of device fd's drm_file in the kernel's fdinfo format
 * (drm-driver, drm-client-id, drm-engine-render ... debugfs/FORMAT.md
 * "gemkit_fdinfo"), at most len - 1 bytes into buf, NUL-terminated: the
 * text's length, or -1 with errno (ENOTTY: not a device fd, ENODEV).
 */
ssize_t gem_fdinfo(int fd, char *buf, size_t len);

/* munmap, telling libgem: it maps an object's mappings again when the
 * object moves or its tiling changes, and must not touch this range. */
int gem_munmap(void *addr, size_t length);
/*
 * A dma-buf from PRIME_HANDLE_TO_FD is the object's memory itself (read,
 * write, mmap, llseek work on it directly).  What only gemd knows:
 * gem_dmabuf_busy returns a mask of GEM_DMABUF_WRITE (a GPU write is
 * pending: not readable yet) and GEM_DMABUF_READ (any GPU use pending:
 * not writable yet), or -1 and errno; gem_dmabuf_wait waits up to
 * timeout_ms (< 0: forever) until the buffer may be written (write) or
 * read, -1 with errno ETIME if it may not yet.
 */
#define GEM_DMABUF_WRITE	(1u << 0)	/* as protocol.h's */
#define GEM_DMABUF_READ		(1u << 1)
int gem_dmabuf_busy(int fd);
int gem_dmabuf_wait(int fd, bool write, int timeout_ms);

/* True if fd is a gemd device fd (works for inherited and dup'ed fds). */
bool gem_is_device_fd(int fd);
/* The socket path the default rule resolves to (static storage). */
const char *gem_default_device(void);

/*
 * The GPU's registers as a 945G's MMIO BAR holds them (what sysfs's PCI
 * resource0 maps), from the gemd at path (NULL: the default device): a
 * descriptor of size bytes whose pages show the live registers, or -1
 * and errno (EACCES unless the caller is root, as the sysfs file is 0600
 * root; ENODEV without a gemd).  It cannot be mapped MAP_SHARED writable;
 * a MAP_PRIVATE mapping may be written, and the writes reach only the
 * caller's copy of the page.
 */
int gem_mmio_fd(const char *path, uint64_t *size);

#ifdef __cplusplus
}
#endif
#endif
