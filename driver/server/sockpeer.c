/*
 * sock_peer_ino: ask the kernel (unix_diag) for the peer of a unix socket
 * by its inode.  A client proves it holds a device fd by sending it;
 * the fd's peer is the one file connection of gemd it stands for, which
 * no name a client binds can imitate.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>

#include "sockpeer.h"

static int diag_request(int nl, ino_t ino)
{
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req req;
	} msg = {
		.nlh = {
			.nlmsg_len = sizeof(msg),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST,
		},
		.req = {
			.sdiag_family = AF_UNIX,
			.udiag_states = ~0u,
			.udiag_ino = (unsigned int)ino,
			.udiag_show = UDIAG_SHOW_PEER,
			.udiag_cookie = { ~0u, ~0u },	/* INET_DIAG_NOCOOKIE */
		},
	};
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	if (sendto(nl, &msg, sizeof(msg), 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	return 0;
}

static int diag_parse(const char *buf, size_t len, ino_t ino, ino_t *peer)
{
	const struct nlmsghdr *h = (const struct nlmsghdr *)buf;

	for (; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
		const struct unix_diag_msg *m = NLMSG_DATA(h);
		const struct rtattr *a;
		size_t alen;

		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(h);

			return e->error ? e->error : -ENOENT;
		}
		if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
		    h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)) || m->udiag_ino != ino)
			continue;
		alen = h->nlmsg_len - NLMSG_LENGTH(sizeof(*m));
		for (a = (const struct rtattr *)(m + 1); RTA_OK(a, alen);
		     a = RTA_NEXT(a, alen)) {
			if (a->rta_type == UNIX_DIAG_PEER &&
			    RTA_PAYLOAD(a) >= sizeof(uint32_t)) {
				uint32_t v;

				memcpy(&v, RTA_DATA(a), sizeof(v));
				*peer = v;
				return 0;
			}
		}
		return -ENOTCONN;
	}
	return -ENOENT;
}

int sock_peer_ino(int fd, ino_t *peer_ino)
{
	char buf[4096] __attribute__((aligned(8)));
	struct stat st;
	ssize_t n;
	int nl, ret;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISSOCK(st.st_mode))
		return -ENOTSOCK;
	nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (nl < 0)
		return errno == EPROTONOSUPPORT ? -EOPNOTSUPP : -errno;
	ret = diag_request(nl, st.st_ino);
	if (ret)
		goto out_close;
	do
		n = recv(nl, buf, sizeof(buf), 0);
	while (n < 0 && errno == EINTR);
	ret = n < 0 ? -errno : diag_parse(buf, (size_t)n, st.st_ino, peer_ino);
	if (ret == -ENOENT || ret == -EINVAL)
		ret = -EOPNOTSUPP;	/* no unix_diag: the caller falls back */
out_close:
	close(nl);
	return ret;
}
