/*
 * AF_UNIX addresses for socket paths of any length.
 *
 * sun_path holds 108 bytes, NUL included; a build directory nested deep
 * enough (make distcheck's, a CI runner's) or a long $XDG_RUNTIME_DIR
 * passes that.  As tmux and systemd do, a longer path is reached through
 * its parent directory, opened O_PATH: the address becomes
 * "/proc/self/fd/N/NAME", which the kernel resolves like the path itself.
 * Only NAME must then be short (SOCKPATH_NAME_MAX); a longer one is
 * -ENAMETOOLONG, which sockpath_strerror() explains naming the limit.
 *
 * Every bind and connect of a path in gemkit goes through here.
 */
#ifndef GEMKIT_SOCKPATH_H
#define GEMKIT_SOCKPATH_H

#include <stddef.h>

struct strbuf;

/* sun_path's size, and the longest last component a path may have when
 * it has to go through /proc/self/fd/N/ (N of up to 7 digits). */
#define SOCKPATH_SUN_PATH	108
#define SOCKPATH_NAME_MAX	(SOCKPATH_SUN_PATH - sizeof("/proc/self/fd/1234567/"))

/*
 * Bind sock to path.  0 or -errno.  *dirfd is -1 when path fit sun_path,
 * else the directory the name was bound through: keep it open while the
 * socket is bound (a peer resolves the name through it, sockpath_peer)
 * and close it after.
 */
int sockpath_bind(int sock, const char *path, int *dirfd);

/* Connect sock to path (retrying EINTR).  0 or -errno, connect's as is. */
int sockpath_connect(int sock, const char *path);

/*
 * The path the peer of a connected sock bound, into out (reset first):
 * as is, or for a name bound through /proc/self/fd/N/, the peer's
 * directory N (SO_PEERCRED's pid, /proc/PID/fd/N) and the name.
 * 0, -ENOTCONN for an unnamed peer, or -errno.
 */
int sockpath_peer(int sock, struct strbuf *out);

/* Append a sentence for err from the above on path ("socket path too
 * long: ... (NAME has N bytes, at most M ...)" for -ENAMETOOLONG). */
void sockpath_strerror(struct strbuf *sb, const char *path, int err);

#endif
