/*
 * Explicit fences (I915_EXEC_FENCE_IN/OUT) as sync_file-like descriptors.
 *
 * A fence is one end of a socketpair: the client holds the other end,
 * which poll() sees readable (POLLIN) once gemd writes the fence's status
 * into its end when the request retires, as a sync_file polls when its
 * dma_fence signals.  gemd knows a client's fence by that end's inode
 * number (what fstat says on either side), which the client sends instead
 * of the descriptor: gemd never needs the client's fd back.
 *
 * gen3 has one ring and executes in order, so an in-fence needs no wait:
 * every fence gemd made belongs to a request already queued ahead.  For
 * the same reason merging two fences (SYNC_IOC_MERGE) keeps the later one
 * alone, as dma_fence_unwrap_merge does for fences of one timeline.
 *
 * The status is 1 once signaled, or the request's error (-EIO for a batch
 * that hung the GPU, or for every pending request when the device wedges).
 * Pending fences wait in seqno order; signaled ones are remembered (for
 * their status and for in-fences) up to GEM_SYNCFILES_KEPT of them,
 * oldest forgotten first.  Everything is under dev->lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gem_priv.h"
#include "log.h"
#include "util.h"

#define GEM_SYNCFILES_KEPT	4096
#define FENCE_ERRORS		64	/* recent requests that failed */

struct gem_syncfile {
	struct list_head link;		/* dev->syncfiles_pending (seqno order)
					 * or dev->syncfiles_done (signal order) */
	uint32_t ino;			/* the client's end */
	int fd;				/* our end, -1 once signaled */
	uint32_t seqno;
	int status;			/* 0 active, 1 signaled, < 0 error */
	uint64_t signal_ns;		/* CLOCK_MONOTONIC of the signal */
};

static int fence_error(struct gem_device *dev, uint32_t seqno)
{
	unsigned int i;

	for (i = 0; i < FENCE_ERRORS; i++)
		if (dev->fence_errors[i].seqno == seqno)
			return dev->fence_errors[i].error;
	return 0;
}

void gem_request_set_error(struct gem_device *dev, uint32_t seqno, int error)
{
	unsigned int i = dev->fence_errors_next++ % FENCE_ERRORS;

	gem_assert_held(dev);
	dev->fence_errors[i].seqno = seqno;
	dev->fence_errors[i].error = error;
}

static void syncfile_free(struct gem_syncfile *sf)
{
	list_del_init(&sf->link);
	if (sf->fd >= 0)
		close(sf->fd);
	free(sf);
}

/* Write the status and close our end: the client's end polls readable.
 * The fence moves to the signaled ones, the oldest of which are dropped. */
static void syncfile_signal(struct gem_device *dev, struct gem_syncfile *sf,
			    int status)
{
	int8_t byte = (int8_t)(status == 1 ? 0 : -status);

	sf->status = status;
	sf->signal_ns = now_ns();
	if (sf->fd >= 0) {
		(void)!send(sf->fd, &byte, 1, MSG_DONTWAIT | MSG_NOSIGNAL);
		close(sf->fd);
		sf->fd = -1;
	}
	list_move_tail(&sf->link, &dev->syncfiles_done);
	if (++dev->nsyncfiles_done > GEM_SYNCFILES_KEPT) {
		syncfile_free(list_first_entry(&dev->syncfiles_done,
					       struct gem_syncfile, link));
		dev->nsyncfiles_done--;
	}
}

void gem_syncfiles_retire(struct gem_device *dev, uint32_t hw_seqno)
{
	struct gem_syncfile *sf, *next;

	gem_assert_held(dev);
	list_for_each_entry_safe(sf, next, &dev->syncfiles_pending, link) {
		int err;

		if (!seqno_passed(hw_seqno, sf->seqno))
			break;
		err = fence_error(dev, sf->seqno);
		syncfile_signal(dev, sf, err ? err : 1);
	}
}

void gem_syncfiles_wedged(struct gem_device *dev)
{
	struct gem_syncfile *sf, *next;

	gem_assert_held(dev);
	list_for_each_entry_safe(sf, next, &dev->syncfiles_pending, link)
		syncfile_signal(dev, sf, -EIO);
}

void gem_syncfiles_fini(struct gem_device *dev)
{
	while (!list_empty(&dev->syncfiles_pending))
		syncfile_free(list_first_entry(&dev->syncfiles_pending,
					       struct gem_syncfile, link));
	while (!list_empty(&dev->syncfiles_done))
		syncfile_free(list_first_entry(&dev->syncfiles_done,
					       struct gem_syncfile, link));
	dev->nsyncfiles_done = 0;
}

/* Pending in seqno order: most fences are the newest, so from the tail. */
static void syncfile_queue(struct gem_device *dev, struct gem_syncfile *sf)
{
	struct list_head *pos = dev->syncfiles_pending.prev;

	while (pos != &dev->syncfiles_pending &&
	       !seqno_passed(sf->seqno, list_entry(pos, struct gem_syncfile, link)->seqno))
		pos = pos->prev;
	list_add(&sf->link, pos);
}

static struct gem_syncfile *syncfile_find(struct gem_device *dev, uint32_t ino)
{
	struct gem_syncfile *sf;

	if (!ino)
		return NULL;
	list_for_each_entry(sf, &dev->syncfiles_pending, link)
		if (sf->ino == ino)
			return sf;
	list_for_each_entry(sf, &dev->syncfiles_done, link)
		if (sf->ino == ino)
			return sf;
	return NULL;
}

int gem_syncfile_prepare(struct gem_device *dev, struct gem_syncfile **out,
			 int *client_fd)
{
	struct gem_syncfile *sf;
	struct stat st;
	int sv[2];

	sf = gem_calloc(1, sizeof(*sf));
	if (!sf)
		return -ENOMEM;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		int err = -errno;

		free(sf);
		return err;
	}
	if (fstat(sv[1], &st) < 0) {
		close(sv[0]);
		close(sv[1]);
		free(sf);
		return -EMFILE;
	}
	shutdown(sv[1], SHUT_WR);	/* the client's end only reads */
	sf->ino = (uint32_t)st.st_ino;
	sf->fd = sv[0];
	INIT_LIST_HEAD(&sf->link);
	*out = sf;
	*client_fd = sv[1];
	return 0;
}

void gem_syncfile_abort(struct gem_syncfile *sf, int client_fd)
{
	close(sf->fd);
	close(client_fd);
	free(sf);
}

void gem_syncfile_commit(struct gem_device *dev, struct gem_syncfile *sf,
			 uint32_t seqno)
{
	gem_assert_held(dev);
	sf->seqno = seqno;
	syncfile_queue(dev, sf);
	/* Already done (a request can retire before we get here). */
	gem_syncfiles_retire(dev, gem_hw_seqno(dev));
}

int gem_syncfile_lookup(struct gem_device *dev, uint32_t ino)
{
	return syncfile_find(dev, ino) ? 0 : -EINVAL;
}

int gem_syncfile_info(struct gem_device *dev, uint32_t ino, int *status,
		      uint64_t *signal_ns)
{
	struct gem_syncfile *sf;

	gem_lock(dev);
	gem_retire_requests(dev);
	sf = syncfile_find(dev, ino);
	if (sf) {
		*status = sf->status;
		*signal_ns = sf->signal_ns;
	}
	gem_unlock(dev);
	return sf ? 0 : -ENOENT;
}

/* The later of two fences of the one timeline, as a new descriptor. */
int gem_syncfile_merge(struct gem_device *dev, uint32_t ino1, uint32_t ino2)
{
	struct gem_syncfile *a, *b, *sf;
	int client_fd, ret;

	gem_lock(dev);
	gem_retire_requests(dev);
	a = syncfile_find(dev, ino1);
	b = syncfile_find(dev, ino2);
	if (!a || !b) {
		ret = -ENOENT;
		goto out_unlock;
	}
	if (seqno_passed(a->seqno, b->seqno))
		b = a;
	ret = gem_syncfile_prepare(dev, &sf, &client_fd);
	if (ret)
		goto out_unlock;
	sf->seqno = b->seqno;
	syncfile_queue(dev, sf);
	if (b->status)
		syncfile_signal(dev, sf, b->status);
	ret = client_fd;
out_unlock:
	gem_unlock(dev);
	return ret;
}
