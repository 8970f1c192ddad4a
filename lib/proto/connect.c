/* Connect to gemd and say OPEN or HELLO (see connect.h). */
#include <errno.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "connect.h"
#include "protocol.h"
#include "util.h"
#include "wire.h"

int channel_connect(const char *path, uint16_t type, bool autobind,
		    bool cloexec, void *reply, size_t replylen)
{
	struct gem_msg_hello hello = {
		.version = GEM_PROTOCOL_VERSION,
		.pid = (uint32_t)getpid(),
		.tid = (uint32_t)gettid(),
	};
	struct gem_msg_hdr hdr = {
		.magic = GEM_PROTOCOL_MAGIC,
		.type = type,
		.len = sizeof(hello),
	};
	struct iovec iov[2] = { { &hdr, sizeof(hdr) }, { &hello, sizeof(hello) } };
	/* A whole (zeroed) sockaddr_un, though only its family is passed:
	 * checkers read the struct the pointer names. */
	struct sockaddr_un any = { .sun_family = AF_UNIX };
	struct gem_reply_hdr rh;
	struct sockaddr_un sa;
	int fd, alen, ret;
	ssize_t n;

	alen = wire_path_addr(&sa, path);
	if (alen < 0)
		return alen;
	/* The calling thread's name, as the kernel records current->comm. */
	prctl(PR_GET_NAME, hello.comm, 0, 0, 0);
	hello.comm[sizeof(hello.comm) - 1] = '\0';

	fd = socket(AF_UNIX, SOCK_STREAM | (cloexec ? SOCK_CLOEXEC : 0), 0);
	if (fd < 0)
		return -errno;
	/* Length sizeof(sa_family_t): the kernel picks an abstract name. */
	if (autobind && bind(fd, (struct sockaddr *)&any, sizeof(sa_family_t)) < 0)
		goto out_errno;
	while (connect(fd, (struct sockaddr *)&sa, (socklen_t)alen) < 0) {
		if (errno != EINTR)
			goto out_errno;
	}
	n = wire_send(fd, iov, 2, -1);
	if (n < 0) {
		ret = (int)n;
		goto out_close;
	}
	n = read_full(fd, &rh, sizeof(rh));
	if (n != (ssize_t)sizeof(rh)) {
		ret = n < 0 ? (int)n : -ECONNRESET;
		goto out_close;
	}
	if (rh.magic != GEM_PROTOCOL_MAGIC) {
		ret = -EPROTO;
		goto out_close;
	}
	if (rh.result < 0) {
		ret = rh.result;
		goto out_close;
	}
	if (rh.len != replylen) {
		ret = -EPROTO;
		goto out_close;
	}
	n = read_full(fd, reply, replylen);
	if (n != (ssize_t)replylen) {
		ret = n < 0 ? (int)n : -ECONNRESET;
		goto out_close;
	}
	return fd;

out_errno:
	ret = -errno;
out_close:
	close(fd);
	return ret;
}

