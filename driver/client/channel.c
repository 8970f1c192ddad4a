/* libgem's channels to gemd: per-thread sockets, and the arenas per gemd. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* gettid (config.h has it in a real build) */
#endif
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "channel.h"
#include "util.h"
#include "wire.h"

#define RBUF_INITIAL	(16u << 10)

struct arena_fd {
	struct gem_arena_ref ref;
	void *map;			/* libgem_arena_map's, or NULL */
	bool map_failed;		/* mmap refused: not asked again */
	unsigned int users;		/* borrowed, not to be closed */
	uint64_t used;			/* LRU clock */
};

struct gem_dev {
	char path[PATH_MAX];
	unsigned int index;		/* into each thread's channel table */
	pthread_mutex_t lock;		/* arenas */
	struct arena_fd *arenas;
	size_t narenas, alloc;
	uint64_t clock;
};

/* devs, and every thread's channels (so that a fork child can drop them). */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gem_dev *devs[GEM_MAX_DEVS];
static unsigned int ndevs;
static struct gem_channel *channels;

/* Each thread's channels, indexed by gem_dev.index; freed at thread exit. */
struct thread_channels {
	struct gem_channel *ch[GEM_MAX_DEVS];
};

static __thread struct thread_channels *tls_channels;
static pthread_key_t channels_key;
static pthread_once_t channel_once = PTHREAD_ONCE_INIT;

static void channel_free(struct gem_channel *ch)
{
	pthread_mutex_lock(&state_lock);
	if (ch->prev)
		ch->prev->next = ch->next;
	else
		channels = ch->next;
	if (ch->next)
		ch->next->prev = ch->prev;
	pthread_mutex_unlock(&state_lock);
	/* What the thread left unanswered is done before it is gone. */
	channel_flush(ch);
	channel_shm_detach(ch);
	if (ch->sock >= 0)
		close(ch->sock);
	strbuf_release(&ch->extra);
	strbuf_release(&ch->rbuf);
	strbuf_release(&ch->arg);
	strbuf_release(&ch->queued);
	free(ch);
}

static void thread_channels_free(void *p)
{
	struct thread_channels *tc = p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tc->ch); i++)
		if (tc->ch[i])
			channel_free(tc->ch[i]);
	free(tc);
	tls_channels = NULL;
}

/*
 * By system call, not close(2)/munmap(2): under the interposer those
 * consult its tables, whose locks a fork child may find held (by the
 * interposer's own atfork handlers, which run in an order nobody
 * chooses).  The ring and the socket are libgem's own, in no table.
 */
void channel_reset(struct gem_channel *ch)
{
	if (ch->shm_base) {
		syscall(SYS_munmap, ch->shm_base, (size_t)GEM_SHM_SIZE);
		ch->shm_base = NULL;
	}
	if (ch->sock >= 0)
		syscall(SYS_close, ch->sock);
	ch->sock = -1;
	ch->notices = false;
	ch->owed.request = 0;
	strbuf_reset(&ch->queued);
	ch->in_call = false;
}

void libgem_thread_abandon(void)
{
	struct thread_channels *tc = tls_channels;
	size_t i;

	if (!tc)
		return;
	for (i = 0; i < ARRAY_SIZE(tc->ch); i++)
		if (tc->ch[i] && tc->ch[i]->in_call)
			channel_reset(tc->ch[i]);
}

/* No lock may be held by a thread that fork() leaves behind. */
static void atfork_prepare(void)
{
	unsigned int i;

	pthread_mutex_lock(&state_lock);
	for (i = 0; i < ndevs; i++)
		pthread_mutex_lock(&devs[i]->lock);
}

static void atfork_parent(void)
{
	unsigned int i;

	for (i = 0; i < ndevs; i++)
		pthread_mutex_unlock(&devs[i]->lock);
	pthread_mutex_unlock(&state_lock);
}

/*
 * The child holds copies of every channel socket of the parent, and the
 * parent's rings mapped.  Reading replies on them would steal the
 * parent's, writing to a ring would corrupt it, and keeping them open
 * would keep gemd's side of them alive, so the child drops them all
 * untouched; the one thread it has opens a channel of its own on first
 * use.
 */
static void atfork_child(void)
{
	struct gem_channel *ch;

	for (ch = channels; ch; ch = ch->next)
		channel_reset(ch);
	atfork_parent();
}

static void channel_init_once(void)
{
	/* The maps record registers its fork handlers later, on its first
	 * entry: its prepare handler then runs first, taking maps_lock
	 * before our locks, the order libgem_maps_remap() takes them in.
	 * Our child handler does not take maps_lock (channel_reset). */
	pthread_key_create(&channels_key, thread_channels_free);
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

struct gem_dev *libgem_dev_get(const char *path)
{
	struct gem_dev *dev = NULL;
	unsigned int i;

	pthread_once(&channel_once, channel_init_once);
	if (strlen(path) >= sizeof(dev->path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	pthread_mutex_lock(&state_lock);
	for (i = 0; i < ndevs; i++) {
		if (!strcmp(devs[i]->path, path)) {
			dev = devs[i];
			goto out_unlock;
		}
	}
	if (ndevs == GEM_MAX_DEVS) {
		errno = ENOSPC;
		goto out_unlock;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		errno = ENOMEM;
		goto out_unlock;
	}
	snprintf(dev->path, sizeof(dev->path), "%s", path);
	dev->index = ndevs;
	pthread_mutex_init(&dev->lock, NULL);
	devs[ndevs++] = dev;
out_unlock:
	pthread_mutex_unlock(&state_lock);
	return dev;
}

const char *libgem_dev_path(const struct gem_dev *dev)
{
	return dev->path;
}

unsigned int libgem_dev_index(const struct gem_dev *dev)
{
	return dev->index;
}

struct gem_dev *libgem_dev_at(unsigned int i)
{
	struct gem_dev *dev = NULL;

	pthread_mutex_lock(&state_lock);
	if (i < ndevs)
		dev = devs[i];
	pthread_mutex_unlock(&state_lock);
	return dev;
}

struct gem_dev *libgem_dev_only(void)
{
	struct gem_dev *dev;

	pthread_mutex_lock(&state_lock);
	dev = ndevs == 1 ? devs[0] : NULL;
	pthread_mutex_unlock(&state_lock);
	return dev;
}

/* --- one request and its reply ---------------------------------------- */

/* Notices queued on a socket channel beyond this go at once. */
#define QUEUED_MAX	4096u

/*
 * On the socket, a notice written at once would wake gemd for nothing
 * that needs an answer: it is queued, and goes ahead of the next request
 * in the same sendmsg (alone before one passing a descriptor, which must
 * travel with its own message's first byte).
 */
static int socket_call(struct gem_channel *ch, struct wire_call *call)
{
	struct iovec iov = { ch->queued.buf, ch->queued.len };
	ssize_t n;
	int ret;

	if (call->flags & GEM_MSG_F_NOREPLY) {
		ret = wire_call_pack(call, &ch->queued);
		if (ret || ch->queued.len < QUEUED_MAX)
			return ret;
		call = NULL;
	}
	if (ch->queued.len && (!call || call->pass_fd)) {
		n = wire_send(ch->sock, &iov, 1, -1);
		if (n < 0)
			return (int)n;
		strbuf_reset(&ch->queued);
	}
	if (!call)
		return 0;
	call->before = ch->queued.len ? &ch->queued : NULL;
	ret = wire_call(ch->sock, call);
	call->before = NULL;
	strbuf_reset(&ch->queued);
	return ret;
}

int channel_call(struct gem_channel *ch, struct wire_call *call)
{
	int ret;

	/* What is owed goes first: gemd keeps the order of a channel. */
	ret = libgem_notice_send(ch);
	if (ret)
		return ret;
	strbuf_reset(&ch->rbuf);
	call->reply = &ch->rbuf;
	/* An ioctl may wait in gemd: a signal can break that off. */
	if (call->type == GEM_MSG_IOCTL && !(call->flags & GEM_MSG_F_NOREPLY)) {
		call->interrupt = ch->shm_base ? channel_shm_interrupt :
				  wire_call_interrupt_message;
		call->interrupt_arg = ch;
	}
	ch->in_call = true;
	ret = ch->shm_base ? channel_shm_call(ch, call) : socket_call(ch, call);
	ch->in_call = false;
	if (!ret) {
		if (call->flags & GEM_MSG_F_NOREPLY)
			ch->notices = true;
		else
			ch->notices = false;
		return 0;
	}
	channel_reset(ch);
	if (wire_call_bad_reply(ret))
		return -EIO;
	/* Else as the kernel answers after the device went away. */
	return ret == -ENOMEM ? -ENOMEM : -ENODEV;
}

/* --- connecting ------------------------------------------------------- */

static struct thread_channels *thread_channels(void)
{
	struct thread_channels *tc = tls_channels;

	if (tc)
		return tc;
	pthread_once(&channel_once, channel_init_once);
	tc = calloc(1, sizeof(*tc));
	if (!tc)
		return NULL;
	/* Registered so that the destructor closes them at thread exit. */
	if (pthread_setspecific(channels_key, tc)) {
		free(tc);
		return NULL;
	}
	tls_channels = tc;
	return tc;
}

/* This thread's channel to dev if it has one. */
struct gem_channel *channel_peek(struct gem_dev *dev)
{
	struct thread_channels *tc = tls_channels;

	return tc ? tc->ch[dev->index] : NULL;
}

int channel_flush(struct gem_channel *ch)
{
	struct wire_call call = { .type = GEM_MSG_SYNC };
	int ret;

	if (ch->sock < 0)
		return 0;
	ret = libgem_notice_send(ch);
	if (ret)
		return ret;
	if (!ch->notices)
		return 0;
	if (ch->shm_base) {
		ret = channel_shm_flush(ch);
		if (ret) {
			channel_reset(ch);
			return -ENODEV;
		}
		ch->notices = false;
		return 0;
	}
	ret = channel_call(ch, &call);
	return ret ? ret : call.result;
}

void channel_flush_all(void)
{
	struct thread_channels *tc = tls_channels;
	size_t i;

	for (i = 0; tc && i < ARRAY_SIZE(tc->ch); i++)
		if (tc->ch[i])
			channel_flush(tc->ch[i]);
}

int channel_get(struct gem_dev *dev, struct gem_channel **out)
{
	return channel_get_for(dev, -1, out);
}

int channel_get_for(struct gem_dev *dev, int devfd, struct gem_channel **out)
{
	struct thread_channels *tc = thread_channels();
	struct gem_channel *ch;
	int sock;

	if (!tc)
		return -ENOMEM;
	ch = tc->ch[dev->index];
	if (ch && ch->sock >= 0) {
		*out = ch;
		return 0;
	}
	if (!ch) {
		ch = calloc(1, sizeof(*ch));
		if (!ch)
			return -ENOMEM;
		ch->sock = -1;
		ch->dev = dev;
		strbuf_init(&ch->extra, 0);
		strbuf_init(&ch->rbuf, RBUF_INITIAL);
		strbuf_init(&ch->arg, 0);
		strbuf_init(&ch->queued, 0);
		tc->ch[dev->index] = ch;
		pthread_mutex_lock(&state_lock);
		ch->next = channels;
		if (channels)
			channels->prev = ch;
		channels = ch;
		pthread_mutex_unlock(&state_lock);
	}
	sock = channel_connect(dev->path, GEM_MSG_HELLO, false, true, NULL, 0);
	/* The path is closed to us now (we dropped root since the open, or
	 * were handed the fd): holding the device fd still gives a channel. */
	if ((sock == -EACCES || sock == -EPERM) && devfd >= 0)
		sock = channel_connect_via(devfd, true);
	if (sock < 0)
		return sock == -EPROTO ? -EPROTO : -ENODEV;
	ch->sock = sock;
	if (channel_shm_attach(ch)) {
		channel_reset(ch);
		return -ENODEV;
	}
	*out = ch;
	return 0;
}

/* --- arenas and status pages ------------------------------------------- */

/* gem_arena_reply and gem_status_reply: a descriptor's reply is its size. */
_Static_assert(sizeof(struct gem_arena_reply) == sizeof(uint64_t) &&
	       sizeof(struct gem_status_reply) == sizeof(uint64_t),
	       "a descriptor's reply is its size");

/* Ask gemd for a descriptor: it, and the size its reply gives. */
int channel_fetch_fd(struct gem_dev *dev, uint16_t type, uint32_t request,
		     struct gem_token token, int *fd, uint64_t *size)
{
	struct wire_call call = {
		.type = type, .request = request, .file = token,
		.min_len = sizeof(uint64_t), .max_len = sizeof(uint64_t),
		.want_fd = true,
	};
	struct gem_channel *ch;
	int ret;

	ret = channel_get(dev, &ch);
	if (ret)
		return ret;
	ret = channel_call(ch, &call);
	if (ret)
		return ret;
	if (call.result < 0)
		return call.result;
	memcpy(size, ch->rbuf.buf, sizeof(*size));
	*fd = call.fd;
	return 0;
}

int channel_map_fd(struct gem_dev *dev, uint16_t type, uint32_t request,
		   struct gem_token token, int prot, void **base, uint64_t *size, int *fd)
{
	void *p;
	int ret, mfd;

	ret = channel_fetch_fd(dev, type, request, token, &mfd, size);
	if (ret)
		return ret;
	p = mmap(NULL, *size, prot, MAP_SHARED, mfd, 0);
	ret = p == MAP_FAILED ? -errno : 0;
	if (ret || !fd)
		close(mfd);
	if (ret)
		return ret;
	*base = p;
	if (fd)
		*fd = mfd;
	return 0;
}

static int arena_fetch(struct gem_dev *dev, struct gem_token token, uint32_t id,
		       struct gem_arena_ref *ref)
{
	struct stat st;
	uint64_t size;
	int ret, fd;

	ret = channel_fetch_fd(dev, GEM_MSG_ARENA, id, token, &fd, &size);
	if (ret)
		return ret;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	*ref = (struct gem_arena_ref){
		.id = id, .fd = fd, .size = size,
		.st_dev = st.st_dev, .st_ino = st.st_ino,
	};
	return 0;
}

/* A slot for a new entry: a free one, or the least recently used idle
 * one past the cache's size (its descriptor closed). */
static struct arena_fd *arena_slot(struct gem_dev *dev)
{
	struct arena_fd *victim = NULL;
	size_t i;

	if (dev->narenas >= LIBGEM_ARENA_CACHE) {
		for (i = 0; i < dev->narenas; i++)
			if (!dev->arenas[i].users &&
			    (!victim || dev->arenas[i].used < victim->used))
				victim = &dev->arenas[i];
		if (victim) {
			if (victim->map)
				munmap(victim->map, victim->ref.size);
			close(victim->ref.fd);
			return victim;
		}
	}
	if (dev->narenas == dev->alloc) {
		size_t n = dev->alloc ? dev->alloc * 2 : LIBGEM_ARENA_CACHE;
		struct arena_fd *p = realloc(dev->arenas, n * sizeof(*p));

		if (!p)
			return NULL;
		dev->arenas = p;
		dev->alloc = n;
	}
	return &dev->arenas[dev->narenas++];
}

static struct arena_fd *arena_find(struct gem_dev *dev, uint32_t id)
{
	size_t i;

	for (i = 0; i < dev->narenas; i++)
		if (dev->arenas[i].ref.id == id)
			return &dev->arenas[i];
	return NULL;
}

/*
 * The lock is never held across the fetch: a signal handler that
 * longjmps out of it (IGT's timeouts do) must not leave it taken.  Two
 * threads fetching the same arena at once fetch it twice; the second to
 * come back drops its copy.
 */
int libgem_arena_get(struct gem_dev *dev, struct gem_token token, uint32_t id,
		     struct gem_arena_ref *ref)
{
	struct gem_arena_ref fetched;
	struct arena_fd *a;
	int ret = 0;

	pthread_mutex_lock(&dev->lock);
	a = arena_find(dev, id);
	if (a)
		goto out_found;
	pthread_mutex_unlock(&dev->lock);

	ret = arena_fetch(dev, token, id, &fetched);
	if (ret)
		return ret;

	pthread_mutex_lock(&dev->lock);
	a = arena_find(dev, id);
	if (a) {
		close(fetched.fd);
		goto out_found;
	}
	a = arena_slot(dev);
	if (!a) {
		close(fetched.fd);
		ret = -ENOMEM;
		goto out_unlock;
	}
	*a = (struct arena_fd){ .ref = fetched };
out_found:
	a->users++;
	a->used = ++dev->clock;
	*ref = a->ref;
out_unlock:
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

void *libgem_arena_map(struct gem_dev *dev, const struct gem_arena_ref *ref)
{
	struct arena_fd *a;
	void *map = NULL, *p;

	pthread_mutex_lock(&dev->lock);
	a = arena_find(dev, ref->id);
	if (!a || !a->users)
		goto out_unlock;
	if (!a->map && !a->map_failed && a->ref.size) {
		p = mmap(NULL, a->ref.size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 a->ref.fd, 0);
		if (p == MAP_FAILED)
			a->map_failed = true;
		else
			a->map = p;
	}
	map = a->map;
out_unlock:
	pthread_mutex_unlock(&dev->lock);
	return map;
}

void libgem_arena_forget_whole(struct gem_dev *dev, uint32_t id,
			       uint64_t offset, uint64_t size)
{
	struct arena_fd *a;

	pthread_mutex_lock(&dev->lock);
	a = arena_find(dev, id);
	if (a && !a->users && offset == 0 && size == a->ref.size) {
		if (a->map)
			munmap(a->map, a->ref.size);
		close(a->ref.fd);
		*a = dev->arenas[--dev->narenas];
	}
	pthread_mutex_unlock(&dev->lock);
}

void libgem_arena_put(struct gem_dev *dev, const struct gem_arena_ref *ref)
{
	struct arena_fd *a;

	pthread_mutex_lock(&dev->lock);
	a = arena_find(dev, ref->id);
	if (a && a->users)
		a->users--;
	pthread_mutex_unlock(&dev->lock);
}
