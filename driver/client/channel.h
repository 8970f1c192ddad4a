/* libgem internals: the gemds a process talks to and per-thread channels. */
#ifndef GEMKIT_CHANNEL_H
#define GEMKIT_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "connect.h"
#include "protocol.h"
#include "shmring.h"
#include "strbuf.h"
#include "wire.h"

/*
 * One gemd this process has talked to, named by the socket path gemd
 * bound (what getpeername() returns on any of its fds).  Holds a small
 * cache of arena descriptors.  Never freed: a process talks to a handful
 * at most.
 */
struct gem_dev;

#define GEM_MAX_DEVS	16

struct gem_dev *libgem_dev_get(const char *path);	/* NULL, errno ENOMEM/ENOSPC */
const char *libgem_dev_path(const struct gem_dev *dev);
/* 0 .. GEM_MAX_DEVS - 1, for tables kept per gemd. */
unsigned int libgem_dev_index(const struct gem_dev *dev);
/* The i-th gemd this process has talked to, or NULL past the last. */
struct gem_dev *libgem_dev_at(unsigned int i);
/* The one gemd this process has talked to, or NULL (none, or several). */
struct gem_dev *libgem_dev_only(void);
/* A dma-buf fd came from PRIME on dev (dmabuf.c). */
void libgem_dmabuf_remember(int fd, struct gem_dev *dev);
/* GEM_MSG_CONTROL op (enum gem_control_op) to the gemd at path (NULL: the
 * default device): gemd's answer, or -errno if none came (libgem.c). */
int libgem_control(const char *path, uint32_t op);

/*
 * An arena's descriptor, borrowed from the cache until libgem_arena_put:
 * pread/pwrite go through it and maps are made from it.  The cache keeps
 * at most LIBGEM_ARENA_CACHE descriptors not in use, least recently used
 * out first, so a process never collects the descriptors of arenas gemd
 * has long destroyed (an object of 1 GiB has one of its own).
 */
#define LIBGEM_ARENA_CACHE	16
struct gem_arena_ref {
	uint32_t id;
	int fd;			/* libgem's: do not close */
	uint64_t size;
	dev_t st_dev;		/* the memfd's identity, to recognise */
	ino_t st_ino;		/* our mappings of it in /proc/self/maps */
};

/* Fetch (over this thread's channel, naming the file by token, which
 * gemd checks may see the arena) or find arena id: 0 or -errno. */
int libgem_arena_get(struct gem_dev *dev, struct gem_token token, uint32_t id,
		     struct gem_arena_ref *ref);
void libgem_arena_put(struct gem_dev *dev, const struct gem_arena_ref *ref);
/*
 * The whole arena mapped shared, read and write, while ref is borrowed
 * (the fast path copies through it): NULL if it cannot be.  The mapping
 * lives as long as the cache's descriptor (unmapped with it, inherited
 * with it by a fork child), so the cache bounds the mappings too.
 */
void *libgem_arena_map(struct gem_dev *dev, const struct gem_arena_ref *ref);
/*
 * A handle to the object at [offset, offset + size) of arena id was
 * closed: if the object filled the arena (a dedicated one, which dies
 * with its object) and nobody borrows it, its descriptor and mapping
 * leave the cache now, so that the memory goes back as the kernel's does
 * at close instead of when 16 newer arenas push it out.  Wrong only in
 * costing a fetch, if the object lives on through another handle.
 */
void libgem_arena_forget_whole(struct gem_dev *dev, uint32_t id,
			       uint64_t offset, uint64_t size);

/*
 * A request channel: this thread's connection to one gemd, created on
 * first use, closed when the thread exits, and closed in a fork() child
 * (which opens its own: replies on a shared socket would interleave).
 * The buffers are reused by every request, so the hot path allocates
 * nothing.
 *
 * Its transport ($GEMKIT_TRANSPORT, read when the channel connects) is
 * the socket, or by default a ring in memory shared with gemd
 * (channel-shm.c), with the socket kept for what the ring cannot carry.
 */
struct gem_channel {
	int sock;			/* -1: connect on next use */
	struct gem_channel *prev, *next;	/* every channel, for fork */
	struct gem_dev *dev;
	struct strbuf extra;	/* request deep copies (wire_client_pack) */
	struct strbuf rbuf;	/* reply payload */
	void *shm_base;		/* the shared memory, NULL: socket only */
	struct shm_client shm;
	bool notices;		/* NOREPLY messages sent since the last reply */
	/*
	 * The bookkeeping libgem owes gemd for preads or pwrites it did
	 * itself (fastpath.c), not sent yet: consecutive ones of one handle
	 * add up into one message, sent before anything else on the channel.
	 */
	struct gem_notice {
		unsigned long request;	/* PREAD or PWRITE; 0: none owed */
		struct gem_token token;
		uint32_t handle;
		uint64_t bytes;		/* so far, at most limit */
		uint64_t limit;		/* the object's size */
		uint64_t data_ptr;
	} owed;
	struct strbuf arg;	/* the caller's ioctl struct, copied in */
	struct strbuf queued;	/* socket only: notices not sent yet, whole
				 * messages that go ahead of the next request */
	bool in_call;		/* a request sent, its reply not read yet */
};

/* Ask dev, over this thread's channel, for a descriptor (GEM_MSG_ARENA,
 * GEM_MSG_STATUS: request and token as those want) and its size: 0 or
 * -errno (gemd's answer as it gave it). */
int channel_fetch_fd(struct gem_dev *dev, uint16_t type, uint32_t request,
		     struct gem_token token, int *fd, uint64_t *size);
/* The same, and map it whole, shared, with prot: its base and size, and
 * the descriptor in *fd, or closed if fd is NULL.  0 or -errno. */
int channel_map_fd(struct gem_dev *dev, uint16_t type, uint32_t request,
		   struct gem_token token, int prot, void **base, uint64_t *size, int *fd);

/* This thread's channel to dev: 0, -ENODEV (no gemd) or -EPROTO. */
int channel_get(struct gem_dev *dev, struct gem_channel **out);
/* The same for a request on device fd devfd, through which a channel is
 * asked for when the socket's path refuses us (-1: none). */
int channel_get_for(struct gem_dev *dev, int devfd, struct gem_channel **out);
/* This thread's channel to dev, NULL if it has none (no connecting). */
struct gem_channel *channel_peek(struct gem_dev *dev);
/* Wait until gemd has handled the unanswered messages of this thread's
 * channels (before a close, at exit). */
void channel_flush_all(void);

/*
 * One request (wire_call, with the reply going to ch->rbuf): one sendmsg
 * and normally one recvmsg.  On return 0, call->result is gemd's answer
 * and ch->rbuf its payload (until the next call on ch).  Otherwise the
 * channel is closed and the error is the kernel's for a device that went
 * away (-ENODEV), -EIO for a reply that breaks the protocol, or -ENOMEM.
 */
int channel_call(struct gem_channel *ch, struct wire_call *call);
/* Drop ch's connection (after a reply that made no sense). */
void channel_reset(struct gem_channel *ch);

/*
 * A message that needs no reply (call->flags has GEM_MSG_F_NOREPLY): the
 * bookkeeping of an ioctl libgem completed itself.  gemd handles it
 * before anything ch sends next; until a reply has come since,
 * ch->notices is set.  0, or as channel_call.
 */
static inline bool channel_quiet(const struct gem_channel *ch)
{
	return !ch->notices && !ch->owed.request;
}

/* fastpath.c: send what ch owes (channel_call does it first). 0 or as
 * channel_call. */
int libgem_notice_send(struct gem_channel *ch);

/* channel-shm.c: the shared-memory transport. */
/* Ask gemd for shared memory if $GEMKIT_TRANSPORT wants it: 0 (on the
 * ring, or left on the socket where gemd has none), or -errno when the
 * socket broke. */
int channel_shm_attach(struct gem_channel *ch);
/* Unmap it (the socket is the caller's). */
void channel_shm_detach(struct gem_channel *ch);
/* One call through the ring, or announced in it and made on the socket;
 * returns as wire_call. */
int channel_shm_call(struct gem_channel *ch, struct wire_call *call);
/* wire_call.interrupt of a channel with a ring (interrupt_arg: ch). */
void channel_shm_interrupt(struct wire_call *call, int sock);
/* Wait until gemd has handled everything ch sent: 0 or -ECONNRESET. */
int channel_shm_flush(struct gem_channel *ch);
/* Wait until gemd has handled ch's unanswered messages (a GEM_MSG_SYNC
 * round trip on the socket): 0 or as channel_call. */
int channel_flush(struct gem_channel *ch);

/*
 * This thread left libgem by a longjmp (a signal handler's, or a crash
 * handler's) in the middle of a call: a channel still waiting for a reply
 * is out of step and is dropped; the next call connects afresh.  The
 * interposer calls it from its longjmp hooks.  Async-signal-safe.
 */
void libgem_thread_abandon(void);

#endif
