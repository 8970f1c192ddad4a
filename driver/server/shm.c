/* gemd's side of the shared-memory channels (shm.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* F_SEAL_* */
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "log.h"
#include "memfd.h"
#include "shm.h"
#include "shmring.h"
#include "util.h"

#define WATCH_EVENTS	16

struct shm_chan {
	struct shm_watch *watch;
	struct shm_chan *prev, *next;	/* watch->chans, under watch->lock */
	uint64_t id;			/* the watcher's name for it */
	int sock;
	void *base;			/* GEM_SHM_SIZE, shared with the client */
	struct shm_server ring;
	atomic_bool dead;		/* the socket saw EOF or an error */
	/* the message being handled, copied out; aligned as wire.c needs */
	uint8_t msg[GEM_SHM_MSG_MAX] __attribute__((aligned(16)));
};

struct shm_watch {
	int epfd;
	int stopfd;			/* eventfd: stop the watcher */
	pthread_t thread;
	pthread_mutex_t lock;		/* chans, next_id */
	struct shm_chan *chans;
	uint64_t next_id;
};

/* Mark the channel id dead and wake its thread; under w->lock. */
static void watch_bury(struct shm_watch *w, uint64_t id)
{
	struct shm_chan *ch;

	for (ch = w->chans; ch; ch = ch->next) {
		if (ch->id != id)
			continue;
		atomic_store_explicit(&ch->dead, true, memory_order_release);
		shm_server_kick(ch->ring.ctl);
		/* Level-triggered: it would fire again until destroyed. */
		epoll_ctl(w->epfd, EPOLL_CTL_DEL, ch->sock, NULL);
		return;
	}
}

static void *watch_main(void *arg)
{
	struct shm_watch *w = arg;
	struct epoll_event ev[WATCH_EVENTS];
	int i, n;

	for (;;) {
		n = epoll_wait(w->epfd, ev, WATCH_EVENTS, -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			log_err("shared channels: epoll_wait: %m; dead clients "
				"are no longer noticed");
			return NULL;
		}
		pthread_mutex_lock(&w->lock);
		for (i = 0; i < n; i++) {
			if (ev[i].data.u64 == 0) {
				pthread_mutex_unlock(&w->lock);
				return NULL;
			}
			watch_bury(w, ev[i].data.u64);
		}
		pthread_mutex_unlock(&w->lock);
	}
}

int shm_watch_start(struct shm_watch **out)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 0 };
	struct shm_watch *w = calloc(1, sizeof(*w));
	sigset_t all, old;
	int ret;

	if (!w)
		return -ENOMEM;
	w->next_id = 1;		/* 0 is the stop event */
	pthread_mutex_init(&w->lock, NULL);
	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	w->stopfd = eventfd(0, EFD_CLOEXEC);
	if (w->epfd < 0 || w->stopfd < 0 ||
	    epoll_ctl(w->epfd, EPOLL_CTL_ADD, w->stopfd, &ev) < 0) {
		ret = -errno;
		goto out_close;
	}
	/* Signals belong to gemd's main loop. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&w->thread, NULL, watch_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		goto out_close;
	*out = w;
	return 0;

out_close:
	if (w->stopfd >= 0)
		close(w->stopfd);
	if (w->epfd >= 0)
		close(w->epfd);
	pthread_mutex_destroy(&w->lock);
	free(w);
	return ret;
}

void shm_watch_stop(struct shm_watch *w)
{
	uint64_t one = 1;

	if (!w)
		return;
	if (write(w->stopfd, &one, sizeof(one)) != sizeof(one))
		log_warn("shared channels: cannot stop the watcher: %m");
	else
		pthread_join(w->thread, NULL);
	close(w->stopfd);
	close(w->epfd);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

/*
 * The memory is gemd's memfd, sealed so that nobody can shrink it under
 * gemd's mapping (SIGBUS) or grow it: the client gets a descriptor to map
 * and can do nothing to it but write what it likes.
 */
static int chan_memory(void **base, int *memfd)
{
	int fd, ret;
	void *p;

	fd = memfd_create_sealed("gemd-channel", GEM_SHM_SIZE,
				 F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	if (fd < 0)
		return fd;
	p = mmap(NULL, GEM_SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		ret = -errno;
		goto out_close;
	}
	*base = p;
	*memfd = fd;
	return 0;

out_close:
	close(fd);
	return ret;
}

int shm_chan_create(struct shm_watch *w, int sock, struct shm_chan **out,
		    int *memfd)
{
	struct epoll_event ev = { .events = EPOLLRDHUP };
	struct shm_chan *ch = calloc(1, sizeof(*ch));
	int ret;

	if (!ch)
		return -ENOMEM;
	ret = chan_memory(&ch->base, memfd);
	if (ret)
		goto out_free;
	ch->watch = w;
	ch->sock = sock;
	shm_server_init(&ch->ring, ch->base);

	pthread_mutex_lock(&w->lock);
	ch->id = w->next_id++;
	ev.data.u64 = ch->id;
	if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, sock, &ev) < 0) {
		ret = -errno;
		pthread_mutex_unlock(&w->lock);
		goto out_unmap;
	}
	ch->next = w->chans;
	if (w->chans)
		w->chans->prev = ch;
	w->chans = ch;
	pthread_mutex_unlock(&w->lock);
	*out = ch;
	return 0;

out_unmap:
	munmap(ch->base, GEM_SHM_SIZE);
	close(*memfd);
out_free:
	free(ch);
	return ret;
}

void shm_chan_destroy(struct shm_chan *ch)
{
	struct shm_watch *w;

	if (!ch)
		return;
	w = ch->watch;
	pthread_mutex_lock(&w->lock);
	if (ch->prev)
		ch->prev->next = ch->next;
	else
		w->chans = ch->next;
	if (ch->next)
		ch->next->prev = ch->prev;
	/* Gone already if the watcher buried it. */
	epoll_ctl(w->epfd, EPOLL_CTL_DEL, ch->sock, NULL);
	pthread_mutex_unlock(&w->lock);
	munmap(ch->base, GEM_SHM_SIZE);
	free(ch);
}

int shm_chan_next(struct shm_chan *ch, struct gem_msg_hdr *hdr,
		  uint8_t **payload)
{
	int ret;

	for (;;) {
		/* What a client sent before it died is still read. */
		ret = shm_server_next(&ch->ring, hdr, ch->msg);
		if (ret) {
			*payload = ch->msg;
			return ret;
		}
		if (atomic_load_explicit(&ch->dead, memory_order_acquire))
			return 0;
		shm_server_wait(&ch->ring, &ch->dead);
	}
}

int shm_chan_reply(struct shm_chan *ch, int32_t result, const void *data,
		   size_t len)
{
	if (len > UINT32_MAX)
		return -E2BIG;
	return shm_server_reply(&ch->ring, result, data, (uint32_t)len);
}

void shm_chan_on_socket(struct shm_chan *ch)
{
	shm_server_on_socket(&ch->ring);
}

bool shm_chan_interrupted(struct shm_chan *ch)
{
	return atomic_load_explicit(&ch->dead, memory_order_acquire) ||
	       shm_server_interrupted(&ch->ring);
}

void shm_chan_done(struct shm_chan *ch)
{
	shm_server_done(&ch->ring);
}
