/*
 * gemctl's own channel to gemd for the messages that are not ioctls
 * (GEM_MSG_HANG_WAIT, GEM_MSG_CONTROL): a HELLO channel with no drm_file
 * (hdr.file 0), opened on first use.
 */
#ifndef GEMKIT_GEMCTL_CONTROL_H
#define GEMKIT_GEMCTL_CONTROL_H

#include <stddef.h>
#include <stdint.h>

struct gemctl;

/*
 * Send one message and wait for its reply, polling in slices so that
 * Ctrl-C (gemctl_interrupted) ends the wait: -EINTR then, and the channel
 * is dropped (the reply would arrive out of turn); so does timeout_ns
 * (0: none) passing, with -ETIMEDOUT.  *result gets gemd's
 * result; reply (may be NULL) receives up to replylen payload bytes.
 * Returns 0 or -errno for transport failures (-ENOENT/-ECONNREFUSED: no
 * gemd).
 */
int gemctl_control_call(struct gemctl *ctl, uint16_t type, uint32_t request,
			const void *payload, size_t len, uint64_t timeout_ns,
			int32_t *result, void *reply, size_t replylen);

#endif
