/*
 * A gemd socket source: the debugfs files through GEM_MSG_DEBUGFS, for
 * hosts without /dev/fuse and gemds started with --no-debugfs.  One
 * connection per source, a channel with no drm_file (protocol.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* struct ucred */
#endif
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "connect.h"
#include "protocol.h"
#include "source.h"
#include "util.h"
#include "wire.h"

/* One request: op on name with extra payload bytes; the reply is appended
 * to out (if not NULL).  Returns gemd's result (>= 0) or -errno:
 * -ENOTCONN once gemd went away, -EPROTO for a reply that breaks the
 * protocol (the source is closed then). */
static int sock_call(struct gdfs *src, uint32_t op, const char *name,
		     const void *extra, size_t extralen, struct strbuf *out)
{
	size_t nlen = strlen(name) + 1;
	struct iovec iov[2] = {
		{ (void *)name, nlen },
		{ (void *)extra, extralen },
	};
	struct wire_call call = {
		.type = GEM_MSG_DEBUGFS, .request = op,
		.iov = iov, .iovcnt = 2, .reply = out,
	};
	int ret;

	if (nlen + extralen > GEM_MSG_MAX_PAYLOAD)
		return -E2BIG;
	if (src->fd < 0)
		return -ENOTCONN;
	if (src->timeout_ns)
		call.deadline_ns = now_ns() + src->timeout_ns;
	ret = wire_call(src->fd, &call);
	if (!ret)
		return call.result;
	/* Its answer would come out of turn: this source is done. */
	close(src->fd);
	src->fd = -1;
	if (wire_call_bad_reply(ret))
		return -EPROTO;
	if (ret == -ETIMEDOUT)
		return ret;
	/* Else gemd went away mid-request: this source is done. */
	return ret == -ENOMEM ? -ENOMEM : -ENOTCONN;
}

static int sock_read_range(struct gdfs *src, const char *name, uint64_t off, size_t len,
			   struct strbuf *out);

/*
 * A whole file.  gemd answers a READ of a raw file larger than a message
 * with -EFBIG before it buffers anything; such a file comes in RANGE
 * pieces of GDFS_SOCKET_CHUNK, so gemd holds one piece at a time, until
 * EOF or src->max_size (-EFBIG: one byte past it is asked for to tell).
 */
static int sock_read(struct gdfs *src, const char *name, struct strbuf *out)
{
	size_t oldlen = out ? out->len : 0;
	int ret = sock_call(src, GEM_DEBUGFS_READ, name, NULL, 0, out);

	if (!out)	/* only whether it can be read */
		return ret < 0 ? ret : 0;
	if (ret == -EFBIG && src->max_size < SIZE_MAX)
		ret = sock_read_range(src, name, 0, src->max_size + 1, out);
	if (ret >= 0 && out->len - oldlen > src->max_size)
		ret = -EFBIG;
	if (ret < 0)
		strbuf_setlen(out, oldlen);
	return ret < 0 ? ret : 0;
}

/* In pieces of GDFS_SOCKET_CHUNK: what gemd buffers for one request. */
static int sock_read_range(struct gdfs *src, const char *name, uint64_t off, size_t len,
			   struct strbuf *out)
{
	struct gem_debugfs_range r = { .offset = off };
	size_t done = 0, before;
	int ret;

	while (done < len) {
		size_t want = len - done;

		if (want > GDFS_SOCKET_CHUNK)
			want = GDFS_SOCKET_CHUNK;
		r.offset = off + done;
		r.length = (uint32_t)want;
		before = out->len;
		ret = sock_call(src, GEM_DEBUGFS_RANGE, name, &r, sizeof(r), out);
		if (ret < 0)
			return ret;
		done += out->len - before;
		if (out->len - before < want)
			break;	/* EOF */
	}
	return 0;
}

static ssize_t sock_write(struct gdfs *src, const char *name, const void *buf, size_t len)
{
	if (!len)
		return 0;
	return sock_call(src, GEM_DEBUGFS_WRITE, name, buf, len, NULL);
}

static int sock_list(struct gdfs *src, struct strbuf *out)
{
	int ret = sock_call(src, GEM_DEBUGFS_LIST, "", NULL, 0, out);

	return ret < 0 ? ret : 0;
}

static void sock_close(struct gdfs *src)
{
	if (src->fd >= 0)
		close(src->fd);
}

int gdfs_socket_mount(struct gdfs *src, struct strbuf *dir, uint64_t *dev)
{
	struct strbuf reply = STRBUF_INIT;
	struct gem_mount_reply r;
	struct wire_call call = {
		.type = GEM_MSG_MOUNT, .reply = &reply,
		.min_len = sizeof(r) + 2, .max_len = sizeof(r) + PATH_MAX,
	};
	const char *path;
	int ret;

	if (src->kind != GDFS_SOCKET || src->fd < 0)
		return -ENOTCONN;
	if (src->timeout_ns)
		call.deadline_ns = now_ns() + src->timeout_ns;
	ret = wire_call(src->fd, &call);
	if (ret) {
		/* An older gemd drops the connection on a message it does
		 * not know: this source is done. */
		close(src->fd);
		src->fd = -1;
		ret = ret == -ETIMEDOUT ? ret : -ENOTCONN;
		goto out;
	}
	ret = call.result;
	if (ret)
		goto out;
	memcpy(&r, reply.buf, sizeof(r));
	path = reply.buf + sizeof(r);
	/* An absolute path, NUL-terminated where the reply ends. */
	if (path[0] != '/' || memchr(path, '\0', reply.len - sizeof(r)) !=
			      reply.buf + reply.len - 1) {
		ret = -EPROTO;
		goto out;
	}
	strbuf_addstr(dir, path);
	*dev = r.dev;
out:
	strbuf_release(&reply);
	return ret;
}

static const struct gdfs_ops sock_ops = {
	.read = sock_read,
	.read_range = sock_read_range,
	.write = sock_write,
	.list = sock_list,
	.close = sock_close,
};

/* Whose gemd this is, as the kernel saw it listen: never its own claim. */
static void read_peer(struct gdfs *src)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	src->peer_uid = (uid_t)-1;
	if (!getsockopt(src->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len)) {
		src->peer_pid = cred.pid;
		src->peer_uid = cred.uid;
	}
}

int gdfs_open_socket(const char *path, struct gdfs **out)
{
	struct gdfs *src;
	int fd;

	path = gem_device_path(path);
	if (!path)
		return -ENOENT;
	fd = channel_connect_timeout(path, GEM_MSG_HELLO, false, true, NULL, 0,
				     gdfs_default_timeout_ns);
	if (fd < 0)
		return fd;
	src = gdfs_alloc(&sock_ops, GDFS_SOCKET, fd);
	if (!src) {
		close(fd);
		return -ENOMEM;
	}
	strbuf_addf(&src->desc, "socket %s", path);
	read_peer(src);
	gdfs_add_gemd(&src->origin, path, src->peer_pid);
	strbuf_addstr(&src->origin, ", over the socket");
	*out = src;
	return 0;
}
