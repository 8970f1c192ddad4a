/* AF_UNIX addresses for socket paths of any length (see sockpath.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "sockpath.h"
#include "strbuf.h"

_Static_assert(SOCKPATH_SUN_PATH == sizeof(((struct sockaddr_un *)0)->sun_path),
	       "sun_path is 108 bytes on Linux");

#define PROC_FD "/proc/self/fd/"

/* s (n bytes, no NUL needed) into sa; its address length, or -ENAMETOOLONG. */
static int addr_set(struct sockaddr_un *sa, const char *s, size_t n)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (!n || n >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	memcpy(sa->sun_path, s, n);
	return (int)(offsetof(struct sockaddr_un, sun_path) + n + 1);
}

/*
 * The address of path: itself when it fits, else "/proc/self/fd/N/NAME"
 * with N its parent directory opened O_PATH (*dirfd, -1 when not needed).
 * The address length, or -errno.
 */
static int addr_of(struct sockaddr_un *sa, const char *path, int *dirfd)
{
	const char *slash = strrchr(path, '/'), *name;
	struct strbuf dir = STRBUF_INIT, via = STRBUF_INIT;
	int fd, ret;

	*dirfd = -1;
	if (!*path)
		return -ENOENT;
	ret = addr_set(sa, path, strlen(path));
	if (ret != -ENAMETOOLONG)
		return ret;
	name = slash ? slash + 1 : path;
	if (!*name || strlen(name) > SOCKPATH_NAME_MAX)
		return -ENAMETOOLONG;
	if (!slash)
		ret = strbuf_addstr(&dir, ".");
	else if (slash == path)
		ret = strbuf_addstr(&dir, "/");
	else
		ret = strbuf_add(&dir, path, (size_t)(slash - path));
	if (ret)
		goto out;
	fd = open(dir.buf, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	ret = strbuf_addf(&via, PROC_FD "%d/%s", fd, name);
	if (!ret)
		ret = addr_set(sa, via.buf, via.len);
	if (ret < 0)
		close(fd);
	else
		*dirfd = fd;
out:
	strbuf_release(&via);
	strbuf_release(&dir);
	return ret;
}

int sockpath_bind(int sock, const char *path, int *dirfd)
{
	struct sockaddr_un sa;
	int alen = addr_of(&sa, path, dirfd);

	if (alen < 0)
		return alen;
	if (bind(sock, (struct sockaddr *)&sa, (socklen_t)alen) == 0)
		return 0;
	alen = -errno;
	if (*dirfd >= 0)
		close(*dirfd);
	*dirfd = -1;
	return alen;
}

int sockpath_connect(int sock, const char *path)
{
	struct sockaddr_un sa;
	int dirfd, ret, alen = addr_of(&sa, path, &dirfd);

	if (alen < 0)
		return alen;
	/* The directory need only be open while the kernel resolves the
	 * name: during connect itself. */
	do
		ret = connect(sock, (struct sockaddr *)&sa, (socklen_t)alen) < 0 ? -errno : 0;
	while (ret == -EINTR);
	if (dirfd >= 0)
		close(dirfd);
	return ret;
}

int sockpath_peer(int sock, struct strbuf *out)
{
	/* Room for a NUL after a name that fills sun_path, which the
	 * kernel returns unterminated. */
	struct {
		struct sockaddr_un sa;
		char nul;
	} a;
	struct ucred cred;
	socklen_t len = sizeof(a.sa), clen = sizeof(cred);
	char link[64], dir[PATH_MAX], *end;
	const char *name, *path = a.sa.sun_path;
	long n;
	ssize_t dlen;

	strbuf_reset(out);
	memset(&a, 0, sizeof(a));
	if (getpeername(sock, (struct sockaddr *)&a.sa, &len) < 0)
		return -errno;
	if (a.sa.sun_family != AF_UNIX ||
	    len <= offsetof(struct sockaddr_un, sun_path) + 1 || path[0] == '\0')
		return -ENOTCONN;
	if (strncmp(path, PROC_FD, strlen(PROC_FD)))
		return strbuf_addstr(out, path);
	/* Bound through the peer's directory descriptor: resolve it in the
	 * peer's /proc. */
	n = strtol(path + strlen(PROC_FD), &end, 10);
	if (n < 0 || n > INT_MAX || *end != '/')
		return -EINVAL;
	name = end + 1;
	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &clen) < 0)
		return -errno;
	snprintf(link, sizeof(link), "/proc/%d/fd/%ld", (int)cred.pid, n);
	dlen = readlink(link, dir, sizeof(dir) - 1);
	if (dlen < 0)
		return -errno;
	dir[dlen] = '\0';
	if (dir[0] != '/')
		return -ENOENT;		/* the directory is gone */
	return strbuf_addf(out, "%s%s%s", dir, dlen > 1 ? "/" : "", name);
}

void sockpath_strerror(struct strbuf *sb, const char *path, int err)
{
	const char *slash = strrchr(path, '/');

	if (err != -ENAMETOOLONG) {
		strbuf_addf(sb, "%s: %s", path, strerror(-err));
		return;
	}
	strbuf_addf(sb, "socket path too long: %s (an AF_UNIX address holds "
		    "%d bytes; a longer path is reached through its directory, "
		    "and then its last component may have at most %zu bytes, "
		    "not %zu)", path, SOCKPATH_SUN_PATH - 1,
		    (size_t)SOCKPATH_NAME_MAX, strlen(slash ? slash + 1 : path));
}
