/* gemctl's HELLO channel for HANG_WAIT and CONTROL (control.h). */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "connect.h"
#include "control.h"
#include "protocol.h"
#include "session.h"
#include "util.h"

static void control_drop(struct gemctl *ctl)
{
	if (ctl->control_fd >= 0)
		close(ctl->control_fd);
	ctl->control_fd = -1;
}

static int control_open(struct gemctl *ctl)
{
	int fd;

	if (ctl->control_fd >= 0)
		return 0;
	fd = channel_connect(gemctl_device(ctl), GEM_MSG_HELLO, false, true, NULL, 0);
	if (fd < 0)
		return fd;
	ctl->control_fd = fd;
	return 0;
}

/* Wait until the socket is readable, 100 ms at a time, minding Ctrl-C
 * and the deadline (0: none). */
static int wait_readable(int fd, uint64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n;

	for (;;) {
		if (gemctl_interrupted)
			return -EINTR;
		if (deadline && now_ns() >= deadline)
			return -ETIMEDOUT;
		n = poll(&p, 1, 100);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

int gemctl_control_call(struct gemctl *ctl, uint16_t type, uint32_t request,
			const void *payload, size_t len, uint64_t timeout_ns,
			int32_t *result, void *reply, size_t replylen)
{
	uint64_t deadline = timeout_ns ? now_ns() + timeout_ns : 0;
	struct gem_msg_hdr hdr = {
		.magic = GEM_PROTOCOL_MAGIC,
		.type = type,
		.len = (uint32_t)len,
		.request = request,
		.file = 0,
	};
	struct gem_reply_hdr rh;
	uint8_t *msg, *rest = NULL;
	ssize_t n;
	int ret;

	ret = control_open(ctl);
	if (ret)
		return ret;
	msg = malloc(sizeof(hdr) + len);
	if (!msg)
		return -ENOMEM;
	memcpy(msg, &hdr, sizeof(hdr));
	if (len)
		memcpy(msg + sizeof(hdr), payload, len);
	n = write_full(ctl->control_fd, msg, sizeof(hdr) + len);
	free(msg);
	if (n < 0)
		goto lost;
	ret = wait_readable(ctl->control_fd, deadline);
	if (ret) {
		control_drop(ctl);
		return ret;
	}
	n = read_full(ctl->control_fd, &rh, sizeof(rh));
	if (n != (ssize_t)sizeof(rh))
		goto lost;
	if (rh.magic != GEM_PROTOCOL_MAGIC || rh.len > GEM_MSG_MAX_PAYLOAD || rh.nfds) {
		control_drop(ctl);
		return -EPROTO;
	}
	if (rh.len) {
		rest = malloc(rh.len);
		if (!rest) {
			control_drop(ctl);
			return -ENOMEM;
		}
		n = read_full(ctl->control_fd, rest, rh.len);
		if (n != (ssize_t)rh.len) {
			free(rest);
			goto lost;
		}
		if (reply)
			memcpy(reply, rest, MIN((size_t)rh.len, replylen));
		free(rest);
	}
	*result = rh.result;
	return 0;
lost:
	control_drop(ctl);
	return -ENOTCONN;
}
