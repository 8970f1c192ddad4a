/*
 * libgem's dma-bufs: which gemd each one this process got from PRIME
 * belongs to, and the two questions only gemd can answer about one — is
 * the GPU still using it (poll), and wait until it is done (the
 * DMA_BUF_IOCTL_SYNC brackets).  Everything else a dma-buf does, it does
 * by itself: it is the object's memfd.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "channel.h"
#include "libgem.h"
#include "maps.h"
#include "util.h"
#include "wire.h"

struct dmabuf {
	int fd;
	dev_t st_dev;
	ino_t st_ino;
	struct gem_dev *dev;
};

static pthread_mutex_t dmabufs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dmabuf *dmabufs;
static size_t ndmabufs, dmabufs_alloc;

void libgem_dmabuf_remember(int fd, struct gem_dev *dev)
{
	struct dmabuf d = { .fd = fd, .dev = dev };
	struct stat st;
	size_t i;

	if (fstat(fd, &st) < 0)
		return;
	d.st_dev = st.st_dev;
	d.st_ino = st.st_ino;
	pthread_mutex_lock(&dmabufs_lock);
	for (i = 0; i < ndmabufs; i++)
		if (dmabufs[i].fd == fd)
			break;
	if (i == ndmabufs) {
		if (array_grow((void **)&dmabufs, &dmabufs_alloc, ndmabufs,
			       sizeof(*dmabufs), 16))
			goto out_unlock;	/* only a hint */
		ndmabufs++;
	}
	dmabufs[i] = d;
out_unlock:
	pthread_mutex_unlock(&dmabufs_lock);
}

/* The gemd of dma-buf fd: remembered (and still that file), or the one
 * gemd this process talks to.  NULL with errno ENOTTY otherwise. */
static struct gem_dev *dmabuf_dev(int fd)
{
	struct gem_dev *dev = NULL;
	struct stat st;
	size_t i;

	if (fstat(fd, &st) < 0)
		return NULL;
	pthread_mutex_lock(&dmabufs_lock);
	for (i = 0; i < ndmabufs; i++)
		if (dmabufs[i].fd == fd && dmabufs[i].st_ino == st.st_ino &&
		    dmabufs[i].st_dev == st.st_dev)
			dev = dmabufs[i].dev;
	pthread_mutex_unlock(&dmabufs_lock);
	if (!dev)
		dev = libgem_dev_only();
	if (!dev)
		errno = ENOTTY;
	return dev;
}

static int dmabuf_call(int fd, enum gem_dmabuf_op op, bool write, int timeout_ms)
{
	struct gem_dmabuf_req req = {
		.write = write, .timeout_ms = timeout_ms < 0 ? 0 : (uint32_t)timeout_ms,
	};
	struct iovec iov = { &req, sizeof(req) };
	struct wire_call wc = {
		.type = GEM_MSG_DMABUF, .request = op, .iov = &iov, .iovcnt = 1,
		.pass_fd = &fd,
	};
	struct gem_channel *ch;
	struct gem_dev *dev;
	int ret;

	dev = dmabuf_dev(fd);
	if (!dev)
		return -1;
	ret = channel_get(dev, &ch);
	if (!ret)
		ret = channel_call(ch, &wc);
	if (!ret && wc.result < 0)
		ret = wc.result;
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return wc.result;
}

int gem_dmabuf_busy(int fd)
{
	return dmabuf_call(fd, GEM_DMABUF_BUSY, false, 0);
}

int gem_dmabuf_wait(int fd, bool write, int timeout_ms)
{
	/* timeout 0 means "forever" on the wire: a poll is BUSY instead. */
	if (timeout_ms == 0) {
		int busy = gem_dmabuf_busy(fd);

		if (busy < 0)
			return -1;
		if (busy & (write ? GEM_DMABUF_READ : GEM_DMABUF_WRITE)) {
			errno = ETIME;
			return -1;
		}
		return 0;
	}
	return dmabuf_call(fd, GEM_DMABUF_WAIT, write, timeout_ms) < 0 ? -1 : 0;
}
