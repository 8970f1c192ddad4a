/*
 * The process's own memory file (/proc/self/mem) over GEM mappings.
 *
 * A real i915 mapping has no struct pages (VM_PFNMAP), so the kernel's
 * mem_rw() reaches it through the driver's vm_access(), which refuses an
 * access that runs past the object with -EINVAL: the read or write stops
 * there, and fails with EIO if it moved no byte (IGT gem_mmap_offset
 * oob-read).  Our mappings are of gemd's memfd arenas, whose pages the
 * kernel reads straight through to whatever lies next.  So the
 * interposer remembers the fds opened on the process's own mem file and
 * cuts a read or write on them where the kernel would
 * (libgem_maps_access_limit()).  Another process reading ours (ptrace,
 * process_vm_readv, /proc/PID/mem of a child) is not seen: only the
 * mapping process knows its mappings.
 *
 * The same table marks the writable sysfs attributes, whose writes the
 * kernel checks (preload-attr.c); a fd of neither kind costs one load.
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "maps.h"
#include "preload.h"

#define EXPORT __attribute__((visibility("default")))

#define KIND_TABLE_SIZE	4096
static uint8_t kind_table[KIND_TABLE_SIZE];	/* PRELOAD_FD_* */

static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pread)(int, void *, size_t, off_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);

static void resolve(void)
{
	real_read = dlsym(RTLD_NEXT, "read");
	real_write = dlsym(RTLD_NEXT, "write");
	real_pread = dlsym(RTLD_NEXT, "pread64");
	real_pwrite = dlsym(RTLD_NEXT, "pwrite64");
}

static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;

static void ensure_resolved(void)
{
	if (__builtin_expect(!real_pwrite, 0))
		pthread_once(&resolve_once, resolve);
}

/* /proc/self/mem, /proc/thread-self/mem or /proc/OUR-PID/mem. */
bool preload_is_self_mem_path(const char *path)
{
	char own[64];

	if (!path)
		return false;
	if (!strcmp(path, "/proc/self/mem") ||
	    !strcmp(path, "/proc/thread-self/mem"))
		return true;
	snprintf(own, sizeof(own), "/proc/%d/mem", (int)getpid());
	return !strcmp(path, own);
}

void preload_fd_kind_set(int fd, unsigned int kind)
{
	if (fd >= 0 && fd < KIND_TABLE_SIZE)
		__atomic_store_n(&kind_table[fd], (uint8_t)kind, __ATOMIC_RELAXED);
}

unsigned int preload_fd_kind(int fd)
{
	return fd >= 0 && fd < KIND_TABLE_SIZE ?
	       __atomic_load_n(&kind_table[fd], __ATOMIC_RELAXED) : PRELOAD_FD_PLAIN;
}

static bool is_self_mem(int fd)
{
	return preload_fd_kind(fd) == PRELOAD_FD_SELF_MEM;
}

/*
 * How many of len bytes at file offset off (an address) the kernel
 * moves: len, or fewer; 0 means the access fails with EIO.
 */
static size_t allowed(off_t off, size_t len)
{
	size_t n;

	preload_busy++;
	n = libgem_maps_access_limit((uintptr_t)off, len);
	preload_busy--;
	return n;
}

static ssize_t cut_access(int fd, off_t off, size_t len, bool positioned,
			  void *rbuf, const void *wbuf)
{
	size_t n;

	if (!positioned) {
		off = preload_real.lseek(fd, 0, SEEK_CUR);
		if (off == (off_t)-1)
			goto real;
	}
	n = allowed(off, len);
	if (len && !n) {
		errno = EIO;
		return -1;
	}
	len = n;
real:
	if (positioned)
		return rbuf ? real_pread(fd, rbuf, len, off) :
			      real_pwrite(fd, wbuf, len, off);
	return rbuf ? real_read(fd, rbuf, len) : real_write(fd, wbuf, len);
}

EXPORT ssize_t read(int fd, void *buf, size_t len)
{
	ensure_resolved();
	if (__builtin_expect(!is_self_mem(fd), 1) || preload_busy)
		return real_read(fd, buf, len);
	return cut_access(fd, 0, len, false, buf, NULL);
}

EXPORT ssize_t write(int fd, const void *buf, size_t len)
{
	unsigned int kind = preload_fd_kind(fd);

	ensure_resolved();
	if (__builtin_expect(kind == PRELOAD_FD_PLAIN, 1) || preload_busy)
		return real_write(fd, buf, len);
	if (kind >= PRELOAD_FD_ATTR)
		return preload_attr_write(fd, kind - PRELOAD_FD_ATTR, buf, len);
	return cut_access(fd, 0, len, false, NULL, buf);
}

EXPORT ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	ensure_resolved();
	if (__builtin_expect(!is_self_mem(fd), 1) || preload_busy)
		return real_pread(fd, buf, len, off);
	return cut_access(fd, off, len, true, buf, NULL);
}

EXPORT ssize_t pread64(int fd, void *buf, size_t len, off_t off)
	__attribute__((alias("pread")));

EXPORT ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	unsigned int kind = preload_fd_kind(fd);

	ensure_resolved();
	if (__builtin_expect(kind == PRELOAD_FD_PLAIN, 1) || preload_busy)
		return real_pwrite(fd, buf, len, off);
	/* sysfs hands the store the buffer whatever the offset */
	if (kind >= PRELOAD_FD_ATTR)
		return preload_attr_write(fd, kind - PRELOAD_FD_ATTR, buf, len);
	return cut_access(fd, off, len, true, NULL, buf);
}

EXPORT ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
	__attribute__((alias("pwrite")));
