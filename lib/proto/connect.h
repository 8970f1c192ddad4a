/*
 * Opening a connection to gemd: shared by libgem's channels and file
 * connections and by the tools' debugfs reader (libgemdebugfs), which
 * talk to gemd without a drm_file.
 */
#ifndef GEMKIT_CONNECT_H
#define GEMKIT_CONNECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Connect to path and exchange an OPEN or HELLO (type); autobind gives the
 * socket the abstract name gemd uses as the file token.  Returns the
 * socket, or -errno: the connect error as is (ENOENT, ECONNREFUSED),
 * gemd's answer (-EPROTO on version skew), or wire_call's verdict on the
 * reply.  reply gets gemd's payload, which must be exactly replylen bytes.
 */
int channel_connect(const char *path, uint16_t type, bool autobind,
		    bool cloexec, void *reply, size_t replylen);
/* The same, giving up with -ETIMEDOUT when gemd has not answered within
 * timeout_ns (0: wait for ever): for tools facing a stopped gemd. */
int channel_connect_timeout(const char *path, uint16_t type, bool autobind,
			    bool cloexec, void *reply, size_t replylen,
			    uint64_t timeout_ns);
/*
 * A channel asked for through a device fd (GEM_MSG_CHANNEL), for a holder
 * of the fd who cannot connect to the socket's path (it dropped root, or
 * a privileged opener passed it the fd): the channel socket, or -errno.
 */
int channel_connect_via(int devfd, bool cloexec);

#endif
