/*
 * A memcpy that faults softly, as the kernel's copy_to_user and
 * copy_from_user do: libgem copies a CPU pread or pwrite between the
 * caller's buffer and its own mapping of the object's arena without a
 * system call, and a bad user pointer (or an arena page gone) still gives
 * the caller an errno, never a crash.
 *
 * How: libgem installs a SIGSEGV and SIGBUS handler on the first guarded
 * copy.  A fault taken by the copy's one instruction, on the thread that
 * is copying, at an address inside one of the copy's two ranges, jumps
 * back out of the copy; every other fault goes to the handler the
 * program had (or installs later, under the interposer), exactly as the
 * kernel would have delivered it, and SIG_DFL still kills with the signal.
 *
 * The handler must stay installed.  Under the interposer, sigaction() and
 * signal() for SIGSEGV and SIGBUS are hooked (preload-signal.c): the
 * program's handler is recorded as the one to chain to, and reported
 * back as installed.  libgem alone cannot see the program's calls, so
 * each guarded copy first asks the kernel whether the handler is still
 * libgem's (two cheap system calls, so only copies large enough to gain
 * are made this way).  If it is not, the copy is left to a system call
 * (a handler put back to SIG_DFL is taken again: chaining gives the
 * default).  Not covered: a raw rt_sigaction system call under the
 * interposer, and a copy made with SIGSEGV or SIGBUS blocked (the kernel
 * kills a thread that faults with the signal blocked).
 */
#ifndef GEMKIT_COPYGUARD_H
#define GEMKIT_COPYGUARD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Copy n bytes from src to dst: 0, -EFAULT if a byte of either range
 * faulted (some bytes may have been copied, as the kernel's copies
 * leave them), or -ENOSYS if no guarded copy can be made here (another
 * handler replaced libgem's, no guard on this architecture, or a copy
 * too small to gain without the interposer): the caller copies by
 * system call.
 */
int copyguard_copy(void *dst, const void *src, size_t n);
/* Whether a copy of n bytes is worth trying (no mapping made for less). */
bool copyguard_worth(size_t n);

/* The interposer hooks sigaction and signal: no query per copy. */
void copyguard_hooked(void);

/*
 * sigaction(2) as the program must see it: for SIGSEGV and SIGBUS while
 * libgem's handler is installed, act is recorded as the handler to chain
 * to and oldact reports the program's previous one; anything else is the
 * real call.  0, or -1 with errno.
 */
int copyguard_sigaction(int sig, const struct sigaction *act,
			struct sigaction *oldact);

#endif
