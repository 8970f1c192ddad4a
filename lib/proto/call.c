/*
 * One request and its reply on a gemd socket (wire.h), for every client of
 * the protocol: libgem's channels, the OPEN/HELLO handshake, the debugfs
 * socket source, the tools' control requests and gemd --ping.  The reply
 * is validated here and only here, and interrupted system calls are
 * retried here, so no caller can read a reply differently from another.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util.h"
#include "wire.h"

#define WAIT_SLICE_MS	100		/* how often a wait looks at c->stop */
#define RECV_HINT	4096		/* payload room for the first recvmsg */
#define RECV_FDS	4		/* room for descriptors a broken peer sends */

ssize_t wire_send(int sock, struct iovec *iov, int iovcnt, int pass_fd)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = (size_t)iovcnt };
	size_t total = 0;
	ssize_t n;

	if (pass_fd >= 0) {
		struct cmsghdr *cm;

		memset(&ctl, 0, sizeof(ctl));
		msg.msg_control = ctl.buf;
		msg.msg_controllen = sizeof(ctl.buf);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &pass_fd, sizeof(int));
	}
	for (;;) {
		/* Skip what is done, including empty entries. */
		while (msg.msg_iovlen && msg.msg_iov->iov_len == 0) {
			msg.msg_iov++;
			msg.msg_iovlen--;
		}
		if (!msg.msg_iovlen)
			return (ssize_t)total;
		n = sendmsg(sock, &msg, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		total += (size_t)n;
		/* The descriptor travels with the first byte only. */
		msg.msg_control = NULL;
		msg.msg_controllen = 0;
		while (n > 0) {
			size_t step = MIN((size_t)n, msg.msg_iov->iov_len);

			msg.msg_iov->iov_base = (uint8_t *)msg.msg_iov->iov_base + step;
			msg.msg_iov->iov_len -= step;
			n -= (ssize_t)step;
			if (!msg.msg_iov->iov_len) {
				msg.msg_iov++;
				msg.msg_iovlen--;
			}
		}
	}
}

/* The descriptors that came with a reply, kept until it is judged. */
struct fd_catch {
	int fd[RECV_FDS];
	unsigned int n;
	bool lost;		/* more than there was room for */
};

static void fd_catch_close(struct fd_catch *fc)
{
	while (fc->n)
		close(fc->fd[--fc->n]);
}

/* Until sock is readable: -EINTR once *c->stop is set, -ETIMEDOUT at
 * c->deadline_ns, 0 at once for a call that set neither. */
static int wait_readable(int sock, const struct wire_call *c)
{
	struct pollfd p = { .fd = sock, .events = POLLIN };
	uint64_t now;
	int ms, n;

	if (!c->deadline_ns && !c->stop)
		return 0;
	for (;;) {
		if (c->stop && *c->stop)
			return -EINTR;
		ms = WAIT_SLICE_MS;
		if (c->deadline_ns) {
			now = now_ns();
			if (now >= c->deadline_ns)
				return -ETIMEDOUT;
			ms = (int)MIN((uint64_t)ms, (c->deadline_ns - now + 999999) / 1000000);
		}
		n = poll(&p, 1, ms);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/* One recvmsg, catching any descriptors: bytes read, 0 at EOF, -errno. */
static ssize_t recv_some(int sock, struct wire_call *c, struct iovec *iov,
			 int iovcnt, struct fd_catch *fc)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int) * RECV_FDS)];
	} ctl;
	struct msghdr msg = {
		.msg_iov = iov, .msg_iovlen = (size_t)iovcnt,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	struct cmsghdr *cm;
	ssize_t n;
	int ret;

	ret = wait_readable(sock, c);
	if (ret)
		return ret;
	for (;;) {
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
		if (n >= 0 || errno != EINTR)
			break;
		if (c->interrupt) {
			void (*tell)(struct wire_call *, int) = c->interrupt;

			c->interrupt = NULL;
			tell(c, sock);
		}
	}
	if (n < 0)
		return -errno;
	if (msg.msg_flags & MSG_CTRUNC)
		fc->lost = true;	/* the kernel closed what did not fit */
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
		size_t i, nfds;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		nfds = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < nfds; i++) {
			int got;

			memcpy(&got, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
			if (fc->n < RECV_FDS)
				fc->fd[fc->n++] = got;
			else
				close(got);
		}
	}
	return n;
}

size_t wire_call_reply_max(const struct wire_call *c)
{
	if (!c->reply)
		return 0;
	return c->max_len ? MIN(c->max_len, (size_t)GEM_MSG_MAX_PAYLOAD) :
	       GEM_MSG_MAX_PAYLOAD;
}

int wire_call_judge(const struct wire_call *c, const struct gem_reply_hdr *rh,
		    size_t have)
{
	if (rh->magic != GEM_PROTOCOL_MAGIC)
		return -EPROTO;
	if (rh->len > wire_call_reply_max(c))
		return -EMSGSIZE;
	/* Exactly one reply per request: more bytes mean we are lost. */
	if (have > rh->len)
		return -EPROTO;
	if (rh->result >= 0 && rh->len < c->min_len)
		return -EBADMSG;
	return 0;
}

/*
 * Read one reply: the header and, in the same recvmsg, as much payload as
 * there is room for (gemd writes a reply at once, so that is nearly always
 * all of it); then the rest.  The payload goes to reply->buf + reply->len,
 * which the caller commits with strbuf_setlen once it is judged.
 */
static int recv_reply(int sock, struct wire_call *c, struct gem_reply_hdr *rh,
		      struct fd_catch *fc)
{
	struct strbuf *reply = c->reply;
	size_t got = 0, have, room = 0, max = wire_call_reply_max(c);
	struct iovec iov[2];
	ssize_t n;
	int ret;

	if (reply) {
		if (strbuf_grow(reply, MIN(max, (size_t)RECV_HINT)))
			return -ENOMEM;
		room = reply->alloc - reply->len - 1;
	}
	while (got < sizeof(*rh)) {
		iov[0] = (struct iovec){ (uint8_t *)rh + got, sizeof(*rh) - got };
		iov[1] = (struct iovec){ reply ? reply->buf + reply->len : NULL, room };
		n = recv_some(sock, c, iov, room ? 2 : 1, fc);
		if (n <= 0)
			return n ? (int)n : -ECONNRESET;
		got += (size_t)n;
	}
	have = got - sizeof(*rh);
	ret = wire_call_judge(c, rh, have);
	if (ret)
		return ret;
	if (have == rh->len)
		return 0;
	/* reply is set: rh->len <= max, which is 0 without one. */
	if (strbuf_grow(reply, rh->len))
		return -ENOMEM;
	while (have < rh->len) {
		iov[0] = (struct iovec){ reply->buf + reply->len + have, rh->len - have };
		n = recv_some(sock, c, iov, 1, fc);
		if (n <= 0)
			return n ? (int)n : -ECONNRESET;
		have += (size_t)n;
	}
	return 0;
}

void wire_call_interrupt_message(struct wire_call *c, int sock)
{
	struct gem_msg_hdr hdr = {
		.magic = GEM_PROTOCOL_MAGIC,
		.type = GEM_MSG_INTERRUPT,
		.flags = GEM_MSG_F_NOREPLY,
		.request = c->request,
		.file = c->file,
	};
	struct iovec iov = { &hdr, sizeof(hdr) };
	int err = errno;

	/* Lost with the connection, which the wait then sees. */
	(void)wire_send(sock, &iov, 1, -1);
	errno = err;
}

/* The header of c's request, its payload's length checked. */
static int call_hdr(const struct wire_call *c, struct gem_msg_hdr *hdr)
{
	size_t len = 0;
	int i;

	if (c->iovcnt < 0 || c->iovcnt > WIRE_CALL_MAX_IOV)
		return -EINVAL;
	for (i = 0; i < c->iovcnt; i++)
		len += c->iov[i].iov_len;
	if (len > GEM_MSG_MAX_PAYLOAD)
		return -EMSGSIZE;
	*hdr = (struct gem_msg_hdr){
		.magic = GEM_PROTOCOL_MAGIC,
		.type = c->type,
		.flags = c->flags,
		.request = c->request,
		.len = (uint32_t)len,
		.file = c->file,
	};
	return 0;
}

int wire_call_pack(const struct wire_call *c, struct strbuf *out)
{
	struct gem_msg_hdr hdr;
	size_t start = out->len;
	int i, ret;

	ret = c->pass_fd ? -EINVAL : call_hdr(c, &hdr);
	if (ret)
		return ret;
	if (strbuf_add(out, &hdr, sizeof(hdr)))
		goto out_truncate;
	for (i = 0; i < c->iovcnt; i++)
		if (strbuf_add(out, c->iov[i].iov_base, c->iov[i].iov_len))
			goto out_truncate;
	return 0;

out_truncate:
	strbuf_setlen(out, start);
	return -ENOMEM;
}

int wire_call_send(int sock, struct wire_call *c)
{
	struct iovec iov[2 + WIRE_CALL_MAX_IOV];
	struct gem_msg_hdr hdr;
	ssize_t n;
	int i, k = 0, ret;

	c->result = 0;
	c->fd = -1;
	ret = call_hdr(c, &hdr);
	if (ret)
		return ret;
	/* A descriptor goes with the first byte: it must be this message's. */
	if (c->before && c->pass_fd)
		return -EINVAL;
	if (c->before)
		iov[k++] = (struct iovec){ c->before->buf, c->before->len };
	iov[k++] = (struct iovec){ &hdr, sizeof(hdr) };
	for (i = 0; i < c->iovcnt; i++)
		iov[k++] = c->iov[i];
	n = wire_send(sock, iov, k, c->pass_fd ? *c->pass_fd : -1);
	return n < 0 ? (int)n : 0;
}

int wire_call_recv(int sock, struct wire_call *c)
{
	size_t start = c->reply ? c->reply->len : 0;
	struct fd_catch fc = { .n = 0 };
	struct gem_reply_hdr rh;
	unsigned int want_fds;
	int ret;

	c->result = 0;
	c->fd = -1;
	ret = recv_reply(sock, c, &rh, &fc);
	if (ret)
		goto out_fail;
	/* Descriptors only as promised: the header's count, and one with a
	 * success that wants one. */
	want_fds = c->want_fd && rh.result >= 0;
	if (fc.lost || fc.n != rh.nfds || rh.nfds != want_fds) {
		ret = -EPROTO;
		goto out_fail;
	}
	if (c->reply)
		strbuf_setlen(c->reply, start + rh.len);
	c->result = rh.result;
	if (fc.n)
		c->fd = fc.fd[0];
	return 0;

out_fail:
	fd_catch_close(&fc);
	if (c->reply)
		strbuf_setlen(c->reply, start);
	return ret;
}

void wire_hang_wait_init(struct wire_call *c, struct gem_hang_wait *req,
			 struct iovec *iov, struct strbuf *reply,
			 uint64_t after, uint32_t timeout_ms)
{
	*req = (struct gem_hang_wait){ .after = after, .timeout_ms = timeout_ms };
	*iov = (struct iovec){ req, sizeof(*req) };
	*c = (struct wire_call){
		.type = GEM_MSG_HANG_WAIT, .iov = iov, .iovcnt = 1,
		.reply = reply,
		.min_len = sizeof(struct gem_hang_event),
		.max_len = sizeof(struct gem_hang_event),
		.fd = -1,
	};
}

int wire_call(int sock, struct wire_call *c)
{
	int ret = wire_call_send(sock, c);

	if (ret)
		return ret;
	/* A NOREPLY message is answered by nothing. */
	if (c->flags & GEM_MSG_F_NOREPLY)
		return 0;
	return wire_call_recv(sock, c);
}
