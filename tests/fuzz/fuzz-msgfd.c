/*
 * libFuzzer: gemd's messages that carry descriptors, through its real
 * server (driver/server/server.c) on the in-process device of the tests:
 * GEM_MSG_TOKEN, CHANNEL, DMABUF, SYNCFILE and the PRIME ioctls, each
 * with descriptors of several kinds attached (fuzz-fds.h: memfd,
 * socketpair end, pipe, /dev/null, a dma-buf of gemd's own, the device
 * fd itself, two at once), on the file connection or on a channel, with
 * a token that is right, zero, right in its low half only, or made up,
 * and (when run as root) on a channel of another user: uid 65534, whose
 * channel a helper process connects, as a hostile local user would.
 * fuzz-wire covers the ioctl payloads; this covers who may hand gemd
 * what.  The server runs on a socket in a private directory and is
 * started afresh for every input: a finding replays alone.
 *
 * An input is a sequence of up to MAX_MSGS records:
 *
 *	u8  what	index into whats[] (modulo its length)
 *	u8  how		bit 0: on the file connection (else a channel);
 *			bits 1-3: the descriptor(s), see attach();
 *			bit 4: on the other user's channel
 *	u8  token	0 the file's, 1 none, 2 its low half, 3 arg's
 *	u8  flags	gem_msg_hdr.flags
 *	u32 arg		the request (the ioctl code for the IOCTL rows)
 *	u16 len		payload bytes that follow (cut to what is left)
 *	    payload
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "connect.h"
#include "fuzz-fds.h"
#include "gemtest-inproc.h"
#include "log.h"
#include "protocol.h"
#include "server.h"
#include "token.h"
#include "util.h"
#include "wire.h"

#define MAX_MSGS	12
#define REC_HEAD	10
#define APERTURE	(16u << 20)

struct what {
	uint16_t type;
	uint32_t request;	/* 0: the record's arg */
};

static const struct what whats[] = {
	{ GEM_MSG_TOKEN, 0 },
	{ GEM_MSG_CHANNEL, 0 },
	{ GEM_MSG_DMABUF, 0 },
	{ GEM_MSG_SYNCFILE, 0 },
	{ GEM_MSG_IOCTL, DRM_IOCTL_PRIME_FD_TO_HANDLE },
	{ GEM_MSG_IOCTL, DRM_IOCTL_PRIME_HANDLE_TO_FD },
	{ GEM_MSG_IOCTL, DRM_IOCTL_I915_GEM_CREATE },
	{ GEM_MSG_IOCTL, DRM_IOCTL_GEM_CLOSE },
	{ GEM_MSG_ARENA, 0 },
	{ GEM_MSG_MMAP, 0 },
	{ GEM_MSG_STATUS, 0 },
	{ GEM_MSG_RELEASE, 0 },
	{ GEM_MSG_SYNC, 0 },
	{ GEM_MSG_DEBUGFS, 0 },
};

struct peer {
	const char *path;
	int file, chan;		/* -1 once gemd closed them */
	int other;		/* uid 65534's channel, or -1 */
	struct gem_token token;
	int dmabuf;
};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char sock_dir[32], sock_path[64];
static int helper = -1;		/* socket to the uid-65534 helper */

union fds_ctl {
	struct cmsghdr hdr;
	char buf[CMSG_SPACE(sizeof(int) * 2)];
};

/* Send fds[0..n) (n <= 2) with msg, as SCM_RIGHTS in ctl. */
static void msg_attach(struct msghdr *msg, union fds_ctl *ctl, const int *fds,
		       unsigned int n)
{
	if (!n)
		return;
	memset(ctl, 0, sizeof(*ctl));
	msg->msg_control = ctl->buf;
	msg->msg_controllen = CMSG_SPACE(sizeof(int) * n);
	ctl->hdr.cmsg_level = SOL_SOCKET;
	ctl->hdr.cmsg_type = SCM_RIGHTS;
	ctl->hdr.cmsg_len = CMSG_LEN(sizeof(int) * n);
	memcpy(CMSG_DATA(&ctl->hdr), fds, sizeof(int) * n);
}

/* One byte, and fd with it when fd >= 0. */
static void send_byte_fd(int s, int fd)
{
	union fds_ctl ctl;
	char byte = 0;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	msg_attach(&msg, &ctl, &fd, fd >= 0);
	(void)sendmsg(s, &msg, MSG_NOSIGNAL);
}

/*
 * The helper: a process of uid 65534, forked before any thread, that
 * connects a channel for each byte it reads and sends it back.  gemd
 * judges a channel by SO_PEERCRED, which is the connecting process's.
 */
static void helper_main(int s)
{
	char byte;
	int fd;

	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534))
		_exit(1);
	while (read(s, &byte, 1) == 1) {
		fd = channel_connect(sock_path, GEM_MSG_HELLO, false, true, NULL, 0);
		send_byte_fd(s, fd);
		if (fd >= 0)
			close(fd);
	}
	_exit(0);
}

static int other_connect(void)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	char byte = 0;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *cm;
	int fd = -1;

	if (helper < 0 || write(helper, &byte, 1) != 1 ||
	    recvmsg(helper, &msg, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* server_stop removed the socket. */
static void remove_dir(void)
{
	(void)rmdir(sock_dir);
}

/* Before any thread: the socket's directory, and the helper if root. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int sv[2];

	(void)argc;
	(void)argv;
	snprintf(sock_dir, sizeof(sock_dir), "/tmp/fuzz-msgfd.XXXXXX");
	if (!mkdtemp(sock_dir) || chmod(sock_dir, 0755))
		abort();
	snprintf(sock_path, sizeof(sock_path), "%s/card0", sock_dir);
	atexit(remove_dir);
	log_init("fuzz-msgfd", 0, LOG_CRIT);	/* refusals are answers */
	if (geteuid() != 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return 0;
	switch (fork()) {
	case 0:
		close(sv[0]);
		helper_main(sv[1]);
		break;
	case -1:
		close(sv[1]);
		close(sv[0]);
		return 0;
	default:
		close(sv[1]);
		helper = sv[0];
	}
	return 0;
}

static void unblock(void *data)
{
	gem_device_unblock(data);
}

static void peer_open(struct peer *p)
{
	struct gem_open_reply rep;

	p->file = channel_connect(p->path, GEM_MSG_OPEN, true, true, &rep, sizeof(rep));
	p->token = p->file >= 0 ? rep.file : GEM_TOKEN_NONE;
	p->chan = channel_connect(p->path, GEM_MSG_HELLO, false, true, NULL, 0);
	p->other = other_connect();
}

/*
 * The descriptors of how's bits 1-3: 0-5 one of fuzz-fds.h's kinds, 6 a
 * dup of the device fd (the file connection), 7 a sealed memfd and the
 * dma-buf.  Returns how many were made, in fds[0..).
 */
static unsigned int attach(const struct peer *p, unsigned int kind, int fds[2])
{
	unsigned int n = 0;
	int made[2] = { -1, -1 };

	if (kind == 6) {
		made[0] = p->file >= 0 ? fcntl(p->file, F_DUPFD_CLOEXEC, 0) : -1;
	} else if (kind == 7) {
		made[0] = fuzz_fd_make(FUZZ_FD_MEMFD_SEALED, -1);
		made[1] = fuzz_fd_make(FUZZ_FD_DMABUF, p->dmabuf);
	} else {
		made[0] = fuzz_fd_make(kind, p->dmabuf);
	}
	fds[0] = fds[1] = -1;
	if (made[0] >= 0)
		fds[n++] = made[0];
	if (made[1] >= 0)
		fds[n++] = made[1];
	return n;
}

/* What gemd sent back, descriptors included, without waiting for it. */
static void drain(int s)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int) * 4)];
	} ctl;
	char buf[4096];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr msg;
	struct cmsghdr *cm;
	size_t i, n;
	int fd;

	for (;;) {
		msg = (struct msghdr){ .msg_iov = &iov, .msg_iovlen = 1,
				       .msg_control = ctl.buf,
				       .msg_controllen = sizeof(ctl.buf) };
		if (recvmsg(s, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) <= 0)
			return;
		for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
			if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
				continue;
			n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			for (i = 0; i < n; i++) {
				memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
				close(fd);
			}
		}
	}
}

static void send_one(struct peer *p, const struct what *w, unsigned int how,
		     unsigned int tok, uint16_t flags, uint32_t arg,
		     const uint8_t *payload, uint16_t len)
{
	struct gem_msg_hdr hdr = {
		.magic = GEM_PROTOCOL_MAGIC, .type = w->type, .flags = flags,
		.len = len, .request = w->request ? w->request : arg,
	};
	union fds_ctl ctl;
	struct iovec iov[2] = { { &hdr, sizeof(hdr) }, { (void *)payload, len } };
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 2 };
	int *s = how & 1 ? &p->file : how & 16 ? &p->other : &p->chan;
	int fds[2];

	switch (tok & 3) {
	case 0: hdr.file = p->token; break;
	case 1: break;
	case 2: hdr.file.lo = p->token.lo; break;
	default: hdr.file.lo = arg; hdr.file.hi = ~(uint64_t)arg; break;
	}
	if (*s < 0)
		return;
	msg_attach(&msg, &ctl, fds, attach(p, (how >> 1) & 7, fds));
	if (sendmsg(*s, &msg, MSG_DONTWAIT | MSG_NOSIGNAL) < 0 &&
	    errno != EAGAIN) {
		close(*s);	/* gemd closed it: a refusal, not a finding */
		*s = -1;
	}
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	if (*s >= 0)
		drain(*s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct server_config cfg = {
		.stop_timeout_ms = 2000, .socket_mode = 0666,	/* the helper's */
	};
	struct peer p = { .file = -1, .chan = -1, .other = -1, .dmabuf = -1 };
	struct server *srv;
	char err[256];
	unsigned int n;

	gti_setup(APERTURE);
	cfg.path = sock_path;
	cfg.dev = gti_dev;
	cfg.unblock = unblock;
	cfg.unblock_data = gti_dev;
	if (server_start(&cfg, &srv, err, sizeof(err)) ||
	    server_accept(srv, err, sizeof(err))) {
		fprintf(stderr, "fuzz-msgfd: %s\n", err);
		abort();
	}
	p.path = sock_path;
	p.dmabuf = fuzz_dmabuf_make();
	peer_open(&p);
	for (n = 0; n < MAX_MSGS && size >= REC_HEAD; n++) {
		const struct what *w = &whats[data[0] % ARRAY_SIZE(whats)];
		uint16_t flags, len;
		uint32_t arg;

		flags = data[3];
		memcpy(&arg, data + 4, sizeof(arg));
		memcpy(&len, data + 8, sizeof(len));
		len = (uint16_t)MIN((size_t)len, size - REC_HEAD);
		send_one(&p, w, data[1], data[2], flags, arg, data + REC_HEAD, len);
		data += REC_HEAD + len;
		size -= REC_HEAD + (size_t)len;
	}
	/* Everything sent is handled before the channel's SYNC is answered
	 * (unless a message left half-sent swallowed it: not waited for). */
	if (p.chan >= 0) {
		struct wire_call sync = {
			.type = GEM_MSG_SYNC, .deadline_ns = now_ns() + 500000000ull,
		};

		(void)wire_call(p.chan, &sync);
	}
	if (p.file >= 0)
		close(p.file);
	if (p.chan >= 0)
		close(p.chan);
	if (p.other >= 0)
		close(p.other);
	if (p.dmabuf >= 0)
		close(p.dmabuf);
	if (server_stop(srv))
		abort();	/* a thread stuck in the driver: a finding */
	gem_lock(gti_dev);
	gem_gpu_idle(gti_dev);
	gem_retire_requests(gti_dev);
	gem_unlock(gti_dev);
	gti_teardown();
	return 0;
}
