/* libgem internals: the gemds a process talks to and per-thread channels. */
#ifndef GEMKIT_CHANNEL_H
#define GEMKIT_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "protocol.h"
#include "strbuf.h"
#include "connect.h"

/*
 * One gemd this process has talked to, named by the socket path gemd
 * bound (what getpeername() returns on any of its fds).  Holds the arena
 * mappings, which fork() children inherit as they are (MAP_SHARED).
 * Never freed: a process talks to a handful at most.
 */
struct gem_dev;

struct gem_dev *libgem_dev_get(const char *path);	/* NULL, errno ENOMEM/ENOSPC */
const char *libgem_dev_path(const struct gem_dev *dev);

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
	uint8_t *rbuf;		/* reply header and payload */
	size_t ralloc;
};

/* This thread's channel to dev: 0, -ENODEV (no gemd) or -EPROTO. */
int channel_get(struct gem_dev *dev, struct gem_channel **out);

/*
 * One request: iov[0] must be the struct gem_msg_hdr.  Sends it with one
 * sendmsg and reads the reply, normally with one recvmsg.  On return 0,
 * *rh holds the reply header and *reply its payload (valid until the
 * next call on ch); fd, if not NULL, receives a passed descriptor or -1.
 * If gemd has gone the channel is closed and -ENODEV returned, -EIO on a
 * reply that breaks the protocol.
 */
int channel_call(struct gem_channel *ch, struct iovec *iov, int iovcnt,
		 struct gem_reply_hdr *rh, void **reply, int *fd);
/* Drop ch's connection (after a reply that made no sense). */
void channel_reset(struct gem_channel *ch);

#endif
