/* Which of our sockets a client's socket is connected to. */
#ifndef GEMKIT_SOCKPEER_H
#define GEMKIT_SOCKPEER_H

#include <sys/types.h>

/*
 * The inode of the peer of AF_UNIX socket fd (a descriptor a client sent
 * us of its own end), as NETLINK_SOCK_DIAG says: 0 and *peer_ino, or
 * -errno (-EOPNOTSUPP without unix_diag in the kernel).
 */
int sock_peer_ino(int fd, ino_t *peer_ino);

#endif
