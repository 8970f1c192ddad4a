/*
 * pread/pwrite copied by libgem itself (driver/client/copyguard.h): the
 * cases, run by tests/gem/gem_copyguard (libgem alone) and
 * tests/client/preload_copyguard (an unmodified program under the
 * interposer), each through its own way of making an ioctl.
 */
#ifndef GEMKIT_COPYGUARD_CASES_H
#define GEMKIT_COPYGUARD_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cg_dev {
	int fd;
	int (*ioctl)(int fd, unsigned long request, void *arg);	/* 0 or -errno */
	size_t size;		/* a copy the fast path makes without a system call */
	bool hooked;		/* under the interposer: the program's sigaction
				 * calls never show libgem's handler */
};

/* Bad user memory is -EFAULT for both directions, and gemd's books count
 * only the copies that succeeded. */
void cg_bad_pointers(const struct cg_dev *d);
/* n copies of d->size make fewer than n/2 read/write system calls. */
void cg_no_syscall(const struct cg_dev *d);
/* The program's own SIGSEGV (SA_SIGINFO) and SIGBUS (signal()) handlers,
 * installed before or after libgem's, get its own faults with their
 * addresses, not the copies', which stay -EFAULT. */
void cg_own_handlers(const struct cg_dev *d);
/* With SIG_DFL a fault of the program's still kills it by SIGSEGV. */
void cg_default_kills(const struct cg_dev *d);
/* Threads copying (and faulting) at once. */
void cg_threads(const struct cg_dev *d);
/* A fork child copies through what it inherited, and the parent after it. */
void cg_fork(const struct cg_dev *d);
/* Every case above, in the order that gives own-handlers its "before" and
 * "after" libgem's first copy; small (or NULL) repeats the copies at a
 * size only the interposer's hooks let libgem guard. */
void cg_run_all(const struct cg_dev *d, const struct cg_dev *small);

#endif
