/*
 * The client's access to its caller's memory, as the kernel's
 * copy_from_user()/copy_to_user(): a bad pointer, a page that is not
 * mapped or a read-only page gives -EFAULT instead of a crash.  libgem
 * reads every structure and array an ioctl points to through these, and
 * writes every answer back through them.
 *
 * They go through process_vm_readv/writev on the calling process, which
 * honour page protections as the kernel's user copies do.  Where those
 * system calls are refused (an old kernel, a seccomp filter) the copies
 * fall back to memcpy, and a bad pointer crashes as any library's would.
 */
#ifndef GEMKIT_USERCOPY_H
#define GEMKIT_USERCOPY_H

#include <stddef.h>
#include <sys/uio.h>

/* Copy n bytes: 0, or -EFAULT if any byte of the user range is not
 * readable (from) / writable (to).  n == 0 always succeeds. */
int copy_from_user(void *to, const void *from, size_t n);
int copy_to_user(void *to, const void *from, size_t n);

/*
 * Many ranges at once (one system call per 1024): user[i] is copied to or
 * from local[i], whose lengths must match.  Returns the number of leading
 * ranges copied whole, so a result below n names the first bad one.
 */
size_t copy_from_user_iov(const struct iovec *local, const struct iovec *user,
			  size_t n);
size_t copy_to_user_iov(const struct iovec *local, const struct iovec *user,
			size_t n);

#endif
