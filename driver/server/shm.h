/*
 * gemd's side of the shared-memory channels (GEM_MSG_SHM, shmring.h): the
 * memory of each, reading its ring, and one watcher thread that notices a
 * peer's death on its socket and wakes the connection thread sleeping on
 * the ring's doorbell, so no thread sleeps forever on a dead client.
 */
#ifndef GEMKIT_SERVER_SHM_H
#define GEMKIT_SERVER_SHM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

struct shm_watch;
struct shm_chan;

/* The watcher of a server's channels: 0 or -errno. */
int shm_watch_start(struct shm_watch **out);
/* Stop it; every channel must be destroyed first. */
void shm_watch_stop(struct shm_watch *w);

/*
 * Shared memory for the channel connected on sock: *memfd is a new
 * descriptor to send to the client (the caller closes it).  0 or -errno.
 */
int shm_chan_create(struct shm_watch *w, int sock, struct shm_chan **out,
		    int *memfd);
void shm_chan_destroy(struct shm_chan *ch);

/*
 * The next message from the ring, waiting for it: 1 with *hdr filled and
 * *payload pointing at a private copy (valid until the next call), 0 when
 * the peer is gone and everything it sent before is read, -EPROTO when
 * the ring holds what a client cannot have written correctly.
 */
int shm_chan_next(struct shm_chan *ch, struct gem_msg_hdr *hdr,
		  uint8_t **payload);
/* The reply to the last message, in the ring: 0, or -E2BIG when it does
 * not fit (then shm_chan_on_socket and send it on the socket). */
int shm_chan_reply(struct shm_chan *ch, int32_t result, const void *data,
		   size_t len);
void shm_chan_on_socket(struct shm_chan *ch);
/* The last message is finished: the client may read its reply. */
void shm_chan_done(struct shm_chan *ch);
/* The client was interrupted while it waited for the message being
 * handled (gem_shm_ctl.interrupt), or died. */
bool shm_chan_interrupted(struct shm_chan *ch);

#endif
