/*
 * The shared-memory channel (GEM_MSG_SHM, protocol.h): its layout, and the
 * two halves that move messages through it, each side's spin and its
 * futex doorbell.  libgem is the producer (driver/client/channel-shm.c),
 * one gemd connection thread the consumer (driver/server/shm.c).
 *
 * Layout of the memfd gemd creates, sealed against resizing:
 *
 *	[0, 4 KiB)		struct gem_shm_ctl: one cache line per side
 *	[4 KiB, +RING)		the request ring
 *	[.., +REPLY)		the reply area
 *
 * The ring holds messages as the socket carries them: a struct gem_msg_hdr
 * and len payload bytes, padded to 8.  head counts the bytes the client
 * has written (free-running, modulo 2^32), done the bytes gemd has
 * finished with; a message between them is complete.  A message never
 * wraps: fewer than a header's bytes before the end are skipped by both
 * sides, more by a GEM_MSG_SKIP message.  At most one request waits for a
 * reply (GEM_MSG_F_NOREPLY messages may precede it), so the reply area
 * holds one struct gem_reply_hdr and its payload; it is valid once done
 * has passed the request.  A reply that does not fit goes on the socket
 * and the area says so (GEM_SHM_REPLY_ON_SOCKET).
 *
 * Waking: each side says in its line whether it runs, spins or sleeps.  A
 * client that finds gemd asleep adds one to bell and FUTEX_WAKEs it; gemd
 * wakes a sleeping client on done.  A message that needs no reply does
 * not ring: it waits in the ring for the next message that does, or for
 * any wait of the client, which rings first; so no notice costs a wake-up
 * of its own, and no reply is waited for with notices unread.  Each side
 * spins first, but only while the other runs on another CPU (on the same
 * one, spinning only keeps it from running); gemd learns from each
 * channel how long spinning pays.
 *
 * Trust: the client trusts gemd.  gemd trusts nothing in the memory: it
 * reads head once per look, copies a message out before it looks inside,
 * checks every length against what it copied, and never reads back its
 * own line.  A bad index or header is -EPROTO and the channel goes; the
 * worst a client can do to gemd is make its own channel thread wake.
 */
#ifndef GEMKIT_SHMRING_H
#define GEMKIT_SHMRING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

#define GEM_SHM_CTL_SIZE	4096u
#define GEM_SHM_RING_SIZE	(128u << 10)
#define GEM_SHM_REPLY_SIZE	(64u << 10)
#define GEM_SHM_SIZE		(GEM_SHM_CTL_SIZE + GEM_SHM_RING_SIZE + \
				 GEM_SHM_REPLY_SIZE)
/* The largest message (header and payload) that goes through the ring. */
#define GEM_SHM_MSG_MAX		(GEM_SHM_RING_SIZE / 4)
/* gem_reply_hdr.magic of a reply that went on the socket instead. */
#define GEM_SHM_REPLY_ON_SOCKET	0x474d4453u	/* "GMDS" */

enum gem_shm_state {
	GEM_SHM_RUNNING = 0,
	GEM_SHM_SPINNING = 1,
	GEM_SHM_SLEEPING = 2,
};

struct gem_shm_ctl {
	/* the client's line: gemd reads it and believes none of it */
	uint32_t head;		/* bytes written into the ring */
	uint32_t client_state;	/* enum gem_shm_state */
	uint32_t bell;		/* += 1 and FUTEX_WAKE to wake gemd */
	uint32_t client_cpu;	/* where the client last ran */
	uint32_t interrupt;	/* end of the request a signal broke the
				 * client's wait for (GEM_MSG_INTERRUPT) */
	uint8_t pad0[44];
	/* gemd's line */
	uint32_t done;		/* bytes gemd finished with (the client's futex) */
	uint32_t server_state;
	uint32_t server_cpu;
	uint32_t pad1;
	uint8_t pad2[48];
};

/* Bytes a message of payload len takes in the ring. */
static inline uint32_t shm_msg_size(uint32_t len)
{
	return (uint32_t)sizeof(struct gem_msg_hdr) + ((len + 7u) & ~7u);
}

/* --- the client's half ------------------------------------------------- */

struct shm_client {
	struct gem_shm_ctl *ctl;
	uint8_t *ring, *reply;
	uint32_t head;		/* our copy: the client's line is ours */
	uint32_t last;		/* end of the last request awaiting a reply */
};

/* Point c at a mapping of GEM_SHM_SIZE bytes. */
void shm_client_init(struct shm_client *c, void *base);

/*
 * Room for a message of payload len (<= GEM_SHM_MSG_MAX with its header):
 * the header and the payload are written at the returned pointer, then
 * shm_client_commit publishes them.  Waits (as shm_client_wait) while the
 * ring is full; NULL with *err set when gemd went away (-ECONNRESET).
 */
void *shm_client_reserve(struct shm_client *c, uint32_t len, int sock, int *err);
/* Publish the message reserved last and ring gemd if it sleeps.  Returns
 * the ring position after it (what done must reach). */
uint32_t shm_client_commit(struct shm_client *c, uint32_t len);
/*
 * The same without ringing: for a message that needs no reply, which gemd
 * reads when it next looks at the ring -- at once if it runs or spins,
 * else when the client next rings (a commit, or any shm_client_wait,
 * which rings first), so a reply always comes after the messages before
 * it have been handled.  A client that dies leaves them to be read too.
 */
uint32_t shm_client_commit_quiet(struct shm_client *c, uint32_t len);
/* Ring gemd if it sleeps (after a quiet commit, before waiting). */
void shm_client_ring(struct shm_client *c);
/*
 * Wait until gemd is done with everything up to pos: spin while gemd runs
 * on another CPU, then sleep on done, looking at sock (the channel's
 * socket) every 100 ms for gemd's death.  0 or -ECONNRESET.
 */
int shm_client_wait(struct shm_client *c, uint32_t pos, int sock);
/*
 * The same for the reply to a request gemd may wait in (an ioctl): when
 * a signal handler without SA_RESTART breaks the sleep, tell gemd once
 * (shm_client_interrupt) and keep waiting for its answer.  The futex
 * sleep is broken by every handler; the kernel restarts an ioctl for
 * those with SA_RESTART, so gemd is told only if some handler lacks it.
 */
int shm_client_wait_interruptible(struct shm_client *c, uint32_t pos, int sock);
/* A signal broke the wait for the request in flight (the last committed). */
void shm_client_interrupt(struct shm_client *c);
/* Everything sent so far is done (no NOREPLY message is pending). */
bool shm_client_idle(const struct shm_client *c);

/* --- gemd's half ------------------------------------------------------- */

struct shm_server {
	struct gem_shm_ctl *ctl;
	uint8_t *ring, *reply;
	uint32_t tail;		/* next message to copy out */
	uint32_t done;		/* our copy of what we published */
	uint64_t spin_ns;	/* how long spinning has been paying off */
	uint64_t idle_since;	/* when the ring last ran empty */
};

void shm_server_init(struct shm_server *s, void *base);

/*
 * Copy the next message out of the ring: its header to *hdr and its
 * payload to buf (room for GEM_SHM_MSG_MAX bytes).  GEM_MSG_SKIP fillers
 * are consumed here.  Returns 1, 0 when the ring is empty, or -EPROTO when
 * the client's head or a header it wrote cannot be (the channel must go).
 */
int shm_server_next(struct shm_server *s, struct gem_msg_hdr *hdr, void *buf);
/* The client said a signal broke its wait for the message being handled. */
bool shm_server_interrupted(const struct shm_server *s);
/* Write the reply to the last message into the reply area: 0, or -E2BIG
 * when it does not fit (send it on the socket; shm_server_on_socket). */
int shm_server_reply(struct shm_server *s, int32_t result, const void *data,
		     uint32_t len);
/* Say in the reply area that the reply comes on the socket. */
void shm_server_on_socket(struct shm_server *s);
/* The last message is finished (its reply, if any, written): publish it
 * and wake the client if it sleeps. */
void shm_server_done(struct shm_server *s);
/*
 * Wait for the next message: spin while it pays, then sleep on the bell
 * until the client rings it or *dead is set (whoever sets it must then
 * call shm_server_kick).  Returns when there may be something to read.
 */
void shm_server_wait(struct shm_server *s, const atomic_bool *dead);
/* Wake a sleeping shm_server_wait (after setting its dead flag). */
void shm_server_kick(struct gem_shm_ctl *ctl);

#endif
