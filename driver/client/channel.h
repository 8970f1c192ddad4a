/* libgem internals: the gemds a process talks to and per-thread channels. */
#ifndef GEMKIT_CHANNEL_H
#define GEMKIT_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "connect.h"
#include "protocol.h"
#include "strbuf.h"
#include "wire.h"

/*
 * One gemd this process has talked to, named by the socket path gemd
 * bound (what getpeername() returns on any of its fds).  Holds the arena
 * mappings, which fork() children inherit as they are (MAP_SHARED).
 * Never freed: a process talks to a handful at most.
 */
struct gem_dev;

struct gem_dev *libgem_dev_get(const char *path);	/* NULL, errno ENOMEM/ENOSPC */
const char *libgem_dev_path(const struct gem_dev *dev);
/* The i-th gemd this process has talked to, or NULL past the last. */
struct gem_dev *libgem_dev_at(unsigned int i);

/*
 * The arena id of dev, mapped whole (read/write, shared) on first use
 * over this thread's channel; token names a file the caller holds, as
 * gemd hands arenas only to clients with an open file.  fd stays owned
 * by libgem.  Returns 0 or -errno.
 */
int libgem_dev_arena(struct gem_dev *dev, uint64_t token, uint32_t id,
		  uint8_t **base, uint64_t *size, int *fd);

/*
 * A request channel: this thread's connection to one gemd, created on
 * first use, closed when the thread exits, and closed in a fork() child
 * (which opens its own: replies on a shared socket would interleave).
 * The buffers are reused by every request, so the hot path allocates
 * nothing.
 */
struct gem_channel {
	int sock;			/* -1: connect on next use */
	struct gem_channel *prev, *next;	/* every channel, for fork */
	struct gem_dev *dev;
	struct strbuf extra;	/* request deep copies (wire_client_pack) */
	struct strbuf rbuf;	/* reply payload */
	struct strbuf arg;	/* the caller's ioctl struct, copied in */
	bool in_call;		/* a request sent, its reply not read yet */
};

/* This thread's channel to dev: 0, -ENODEV (no gemd) or -EPROTO. */
int channel_get(struct gem_dev *dev, struct gem_channel **out);

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
 * This thread left libgem by a longjmp (a signal handler's, or a crash
 * handler's) in the middle of a call: a channel still waiting for a reply
 * is out of step and is dropped; the next call connects afresh.  The
 * interposer calls it from its longjmp hooks.  Async-signal-safe.
 */
void libgem_thread_abandon(void);

#endif
