/*
 * /proc/self/fdinfo/<fd> of a device fd, as Linux answers it for a DRM
 * file (drm_show_fdinfo): the VFS's own lines (pos, flags, mnt_id, ino:
 * the real ones of the socket behind the fd), then the drm_file's usage
 * stats, which only gemd knows (gem_fdinfo).  Like the kernel's seq_file,
 * the text is made when the file is opened; the caller gets a read-only
 * memfd holding it (preload_text_fd, which /proc/modules uses too), so
 * read, fopen, lseek and mmap work as on a file.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libgem.h"
#include "preload.h"
#include "util.h"

#define FDINFO_MAX	16384	/* a block with every ioctl's count fits */

/* The real fdinfo of fd's socket into buf: its length, or -1. */
static ssize_t real_fdinfo(int fd, char *buf, size_t len)
{
	char path[64];
	ssize_t n, got = 0;
	int in;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	in = preload_real.openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	while ((size_t)got < len && (n = read(in, buf + got, len - (size_t)got)) > 0)
		got += n;
	preload_real.close(in);
	return got;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int preload_text_fd(const char *name, const char *text, size_t len, int flags)
{
	int out, err;

	/* Files the kernel makes for reading only (0400 or 0444). */
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC))) {
		errno = EACCES;
		return -1;
	}
	out = memfd_create(name, (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);
	if (out < 0)
		return -1;
	if (write_all(out, text, len)) {
		err = errno;
		preload_real.close(out);
		errno = err;
		return -1;
	}
	preload_real.lseek(out, 0, SEEK_SET);
	return out;
}

int preload_open_fdinfo(int fd, int flags)
{
	ssize_t vfs, drm;
	int out, err;
	char *buf;

	if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC))) {
		errno = EACCES;
		return -1;
	}
	buf = malloc(FDINFO_MAX);
	if (!buf)
		return -1;
	vfs = real_fdinfo(fd, buf, FDINFO_MAX - 1);
	drm = vfs < 0 ? -1 : gem_fdinfo(fd, buf + vfs, FDINFO_MAX - (size_t)vfs);
	out = drm < 0 ? -1 : preload_text_fd("fdinfo", buf, (size_t)(vfs + drm), flags);
	err = errno;
	free(buf);
	errno = err;
	return out;
}
