/*
 * libgem internals: an ioctl on an fd a caller vouches for.  libgem
 * alone must fstat() a device fd on every ioctl, to catch one closed and
 * its number reused behind its back; the interposer (preload.c) sees
 * every close, dup and close_range of the program, so its table of
 * device fds can stand in for that system call.
 */
#ifndef GEMKIT_VOUCH_H
#define GEMKIT_VOUCH_H

/*
 * gem_ioctl, the caller vouching that fd is still the device fd libgem
 * last knew under that number, if libgem knew one: it has not been
 * closed since libgem last looked at it (gem_open, gem_is_device_fd,
 * an ioctl that was not vouched for) or copied onto since libgem_fd_copy.
 */
int libgem_ioctl_vouched(int fd, unsigned long request, void *arg);
/* newfd is now a copy of oldfd (dup2 and friends): the same file, or
 * nothing libgem knows of if oldfd was not known. */
void libgem_fd_copy(int oldfd, int newfd);

#endif
