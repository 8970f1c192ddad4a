/*
 * The interposer's dma-buf fds.  A PRIME fd from gemd is a real file: the
 * object's own memfd (driver/gem/prime.c), which reads, writes and maps
 * as the object by itself, and which any process can import by passing it
 * to PRIME_FD_TO_HANDLE (libgem sends the descriptor to gemd, which
 * recognises it).  What a memfd does differently from the kernel's
 * dma-buf file is made to match here, for the fds this process got from
 * PRIME: llseek only to 0 or the end, mmap refused past the end (a memfd
 * would map it and fault), DMA_BUF_IOCTL_SYNC waiting for the GPU, and
 * poll() saying whether the GPU still writes (POLLIN) or uses (POLLOUT)
 * it, as the kernel's implicit fences do.  select and epoll are not
 * hooked: they see a regular file, always ready.
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <drm.h>
#include <linux/dma-buf.h>

#include "libgem.h"
#include "preload.h"

#define EXPORT __attribute__((visibility("default")))

bool preload_is_dmabuf(int fd)
{
	return fd >= 0 && preload_fd_minor_raw(fd) == PRELOAD_FD_DMABUF;
}

void preload_prime_done(unsigned long request, void *arg)
{
	const struct drm_prime_handle *args = arg;

	if (request == DRM_IOCTL_PRIME_HANDLE_TO_FD ||
	    request == DRM_IOCTL_PRIME_FD_TO_HANDLE)
		preload_fd_set(args->fd, PRELOAD_FD_DMABUF);
}

int preload_dmabuf_ioctl(int fd, unsigned long request, void *arg)
{
	const struct dma_buf_sync *sync = arg;

	int ret, err;

	if (request != DMA_BUF_IOCTL_SYNC) {
		errno = ENOTTY;
		return -1;
	}
	/* dma_buf_ioctl's checks. */
	if (!sync || (sync->flags & ~DMA_BUF_SYNC_VALID_FLAGS_MASK) ||
	    !(sync->flags & DMA_BUF_SYNC_RW)) {
		errno = EINVAL;
		return -1;
	}
	if (sync->flags & DMA_BUF_SYNC_END)
		return 0;
	/* START: the GPU is done with what the CPU is about to touch. */
	preload_busy++;
	ret = gem_dmabuf_wait(fd, sync->flags & DMA_BUF_SYNC_WRITE, -1);
	err = errno;
	preload_busy--;
	errno = err;
	return ret;
}

/* The events of pfd that a dma-buf has now: GPU writes pending keep
 * POLLIN back, any GPU use POLLOUT. */
static short dmabuf_revents(const struct pollfd *pfd)
{
	int busy;
	short ev = 0;

	preload_busy++;
	busy = gem_dmabuf_busy(pfd->fd);
	preload_busy--;
	if (busy < 0)
		return POLLERR;
	if ((pfd->events & POLLIN) && !(busy & GEM_DMABUF_WRITE))
		ev |= POLLIN;
	if ((pfd->events & POLLOUT) && !(busy & GEM_DMABUF_READ))
		ev |= POLLOUT;
	return ev;
}

/* Fill in every dma-buf's revents: how many have some. */
static int dmabufs_ready(struct pollfd *fds, nfds_t n)
{
	int ready = 0;
	nfds_t i;

	for (i = 0; i < n; i++) {
		if (!preload_is_dmabuf(fds[i].fd))
			continue;
		fds[i].revents = dmabuf_revents(&fds[i]);
		ready += fds[i].revents != 0;
	}
	return ready;
}

/*
 * poll with dma-bufs among the fds (at most 64 fds).  One dma-buf alone
 * waits in gemd; a mix polls the others in slices of
 * DMABUF_POLL_SLICE_MS and asks gemd again, so a dma-buf becoming ready
 * is seen within a slice.
 */
#define DMABUF_POLL_SLICE_MS	2
static int poll_with_dmabufs(struct pollfd *fds, nfds_t n, int timeout)
{
	struct pollfd others[64];
	int ready, got, slice, err;
	nfds_t i;

	if (n == 1 && timeout != 0 && !dmabufs_ready(fds, 1)) {
		preload_busy++;
		(void)gem_dmabuf_wait(fds[0].fd, fds[0].events & POLLOUT, timeout);
		err = errno;
		preload_busy--;
		errno = err;
		return dmabufs_ready(fds, 1);
	}
	for (;;) {
		ready = dmabufs_ready(fds, n);
		/* A negative fd is skipped by poll: a memfd is always ready. */
		for (i = 0; i < n; i++) {
			others[i] = fds[i];
			if (preload_is_dmabuf(fds[i].fd))
				others[i].fd = -1;
		}
		slice = ready || timeout == 0 ? 0 :
			timeout < 0 || timeout > DMABUF_POLL_SLICE_MS ?
			DMABUF_POLL_SLICE_MS : timeout;
		got = preload_real.poll(others, n, slice);
		if (got < 0)
			return -1;
		for (i = 0; i < n; i++)
			if (!preload_is_dmabuf(fds[i].fd))
				fds[i].revents = others[i].revents;
		ready += got;
		if (ready || timeout == 0)
			return ready;
		if (timeout > 0 && (timeout -= slice) <= 0)
			return 0;
	}
}

static bool has_dmabuf(const struct pollfd *fds, nfds_t n)
{
	nfds_t i;

	for (i = 0; i < n; i++)
		if (preload_is_dmabuf(fds[i].fd))
			return true;
	return false;
}

EXPORT int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	if (!preload_real.poll)
		preload_init();
	if (preload_busy || n > 64 || !has_dmabuf(fds, n))
		return preload_real.poll(fds, n, timeout);
	return poll_with_dmabufs(fds, n, timeout);
}

bool preload_dmabuf_mmap_ok(int fd, size_t len, off_t off)
{
	struct stat st;

	/* dma_buf_mmap_internal: the pages must lie inside the buffer. */
	if (preload_real.fstat(fd, &st) < 0)
		return true;	/* let mmap say what is wrong */
	return off >= 0 && (uint64_t)off <= (uint64_t)st.st_size &&
	       len <= (uint64_t)st.st_size - (uint64_t)off;
}

/* dma_buf_llseek: only to the start or the end, which gives the size. */
static off_t hook_lseek(int fd, off_t off, int whence)
{
	if (!preload_real.lseek)
		preload_init();
	if (preload_busy || !preload_is_dmabuf(fd))
		return preload_real.lseek(fd, off, whence);
	if (off != 0 || (whence != SEEK_SET && whence != SEEK_END)) {
		errno = EINVAL;
		return -1;
	}
	return preload_real.lseek(fd, 0, whence);
}

EXPORT off_t lseek(int fd, off_t off, int whence)
{
	return hook_lseek(fd, off, whence);
}

EXPORT off64_t lseek64(int fd, off64_t off, int whence)
{
	return hook_lseek(fd, (off_t)off, whence);
}
