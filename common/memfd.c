/* Sealed memfds that cross between gemd and its clients (see memfd.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memfd_create, F_ADD_SEALS */
#endif
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "memfd.h"

int memfd_create_sealed(const char *name, uint64_t size, int seals)
{
	int fd, ret;

	if (size > (uint64_t)INT64_MAX)
		return -EFBIG;
	fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)size) < 0 ||
	    fcntl(fd, F_ADD_SEALS, seals) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return fd;
}

int memfd_shmem_seals(int fd, uint64_t *size)
{
	struct statfs sfs;
	struct stat st;
	int seals;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
	    fstatfs(fd, &sfs) < 0 || sfs.f_type != TMPFS_MAGIC)
		return -EINVAL;
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0)
		return -EINVAL;
	*size = (uint64_t)st.st_size;
	return seals;
}
