/* Connect to gemd and say OPEN or HELLO (see connect.h). */
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "connect.h"
#include "protocol.h"
#include "sockpath.h"
#include "util.h"
#include "wire.h"

int channel_connect(const char *path, uint16_t type, bool autobind,
		    bool cloexec, void *reply, size_t replylen)
{
	return channel_connect_timeout(path, type, autobind, cloexec, reply,
				       replylen, 0);
}

/* The OPEN or HELLO exchange on a connected socket: it, or -errno (then
 * it is closed). */
static int channel_greet(int fd, uint16_t type, void *reply, size_t replylen,
			 uint64_t timeout_ns)
{
	struct gem_msg_hello hello = {
		.version = GEM_PROTOCOL_VERSION,
		.pid = (uint32_t)getpid(),
		.tid = (uint32_t)gettid(),
	};
	struct iovec iov = { &hello, sizeof(hello) };
	struct strbuf rep = STRBUF_INIT;
	struct wire_call call = {
		.type = type, .iov = &iov, .iovcnt = 1,
		.reply = &rep, .min_len = replylen, .max_len = replylen,
	};
	int ret;

	/* The calling thread's name, as the kernel records current->comm. */
	prctl(PR_GET_NAME, hello.comm, 0, 0, 0);
	hello.comm[sizeof(hello.comm) - 1] = '\0';
	/* max_len 0 means no limit: an empty answer is asked for with no
	 * buffer at all. */
	if (!replylen)
		call.reply = NULL;
	if (timeout_ns)
		call.deadline_ns = now_ns() + timeout_ns;
	ret = wire_call(fd, &call);
	if (!ret && call.result < 0)
		ret = call.result;
	if (ret)
		goto out_close;
	if (replylen)
		memcpy(reply, rep.buf, replylen);
	strbuf_release(&rep);
	return fd;

out_close:
	strbuf_release(&rep);
	close(fd);
	return ret;
}

int channel_connect_timeout(const char *path, uint16_t type, bool autobind,
			    bool cloexec, void *reply, size_t replylen,
			    uint64_t timeout_ns)
{
	/* A whole (zeroed) sockaddr_un, though only its family is passed:
	 * checkers read the struct the pointer names. */
	struct sockaddr_un any = { .sun_family = AF_UNIX };
	int fd, ret;

	fd = socket(AF_UNIX, SOCK_STREAM | (cloexec ? SOCK_CLOEXEC : 0), 0);
	if (fd < 0)
		return -errno;
	/* Length sizeof(sa_family_t): the kernel picks an abstract name. */
	if (autobind && bind(fd, (struct sockaddr *)&any, sizeof(sa_family_t)) < 0)
		goto out_errno;
	ret = sockpath_connect(fd, path);
	if (ret)
		goto out_close;
	return channel_greet(fd, type, reply, replylen, timeout_ns);

out_errno:
	ret = -errno;
out_close:
	close(fd);
	return ret;
}

int channel_connect_via(int devfd, bool cloexec)
{
	struct wire_call call = { .type = GEM_MSG_CHANNEL };
	int sv[2], ret;

	if (socketpair(AF_UNIX, SOCK_STREAM | (cloexec ? SOCK_CLOEXEC : 0), 0,
		       sv) < 0)
		return -errno;
	call.pass_fd = &sv[1];
	ret = wire_call_send(devfd, &call);
	close(sv[1]);
	if (ret) {
		close(sv[0]);
		return ret;
	}
	return channel_greet(sv[0], GEM_MSG_HELLO, NULL, 0, 0);
}
