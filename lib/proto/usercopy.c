/* User memory access that faults softly (see usercopy.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* process_vm_readv */
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "usercopy.h"
#include "util.h"

#define IOV_BATCH	1024	/* UIO_MAXIOV */

/* 1: the system calls work here, 0: not yet known, -1: memcpy only. */
static int vm_calls;

typedef ssize_t (*vm_fn)(pid_t, const struct iovec *, unsigned long,
			 const struct iovec *, unsigned long, unsigned long);

/* One batch; -1 with errno on a refusal of the call itself. */
static ssize_t vm_copy(vm_fn fn, const struct iovec *local,
		       const struct iovec *user, size_t n)
{
	ssize_t ret;

	do {
		ret = fn(getpid(), local, n, user, n, 0);
	} while (ret < 0 && errno == EINTR);
	return ret;
}

static bool vm_usable(ssize_t ret)
{
	int state = __atomic_load_n(&vm_calls, __ATOMIC_RELAXED);

	if (state)
		return state > 0;
	/* EFAULT and success mean the call works; anything else means it
	 * is refused (ENOSYS, EPERM) and will be every time. */
	state = ret >= 0 || errno == EFAULT ? 1 : -1;
	__atomic_store_n(&vm_calls, state, __ATOMIC_RELAXED);
	return state > 0;
}

/*
 * Read a range the way the CPU may: through a pipe, whose write() copies
 * from the range with the page tables' permissions.  process_vm_readv
 * refuses a mapping without PROT_READ, yet on x86 a PROT_WRITE mapping
 * is readable and the kernel's copy_from_user reads it (IGT's
 * gem_exec_params mmapped puts the execbuffer in one).  Slow; only for
 * what process_vm_readv refused.  0 or -EFAULT.
 */
static int read_via_pipe(void *to, const void *from, size_t n)
{
	int p[2], ret = 0;

	if (pipe2(p, O_CLOEXEC))
		return -EFAULT;
	while (n && !ret) {
		size_t chunk = MIN(n, (size_t)4096);
		ssize_t w = write(p[1], from, chunk);

		if (w <= 0 || read_full(p[0], to, (size_t)w) != w) {
			ret = -EFAULT;
			break;
		}
		to = (uint8_t *)to + w;
		from = (const uint8_t *)from + w;
		n -= (size_t)w;
	}
	close(p[0]);
	close(p[1]);
	return ret;
}

static size_t copy_iov(vm_fn fn, bool to_user, const struct iovec *local,
		       const struct iovec *user, size_t n)
{
	size_t done = 0, i;

	while (done < n) {
		size_t batch = MIN(n - done, (size_t)IOV_BATCH), want = 0, got;
		ssize_t ret;

		if (__atomic_load_n(&vm_calls, __ATOMIC_RELAXED) < 0)
			goto fallback;
		for (i = 0; i < batch; i++)
			want += user[done + i].iov_len;
		ret = vm_copy(fn, local + done, user + done, batch);
		if (!vm_usable(ret))
			goto fallback;
		if (ret == (ssize_t)want) {
			done += batch;
			continue;
		}
		/* Short: count the ranges that made it whole. */
		got = ret < 0 ? 0 : (size_t)ret;
		for (i = 0; i < batch && got >= user[done + i].iov_len; i++)
			got -= user[done + i].iov_len;
		done += i;
		if (to_user || read_via_pipe(local[done].iov_base,
					     user[done].iov_base,
					     user[done].iov_len))
			return done;
		done++;
	}
	return done;

fallback:
	for (; done < n; done++) {
		if (to_user)
			memcpy(user[done].iov_base, local[done].iov_base,
			       user[done].iov_len);
		else
			memcpy(local[done].iov_base, user[done].iov_base,
			       user[done].iov_len);
	}
	return n;
}

size_t copy_from_user_iov(const struct iovec *local, const struct iovec *user,
			  size_t n)
{
	return copy_iov(process_vm_readv, false, local, user, n);
}

size_t copy_to_user_iov(const struct iovec *local, const struct iovec *user,
			size_t n)
{
	return copy_iov(process_vm_writev, true, local, user, n);
}

/*
 * The caller's own stack needs no system call: between this frame and the
 * top of the thread's stack every page is mapped and writable, and that
 * is where nearly every ioctl argument lives (libdrm's and Mesa's structs
 * are locals).  A hot ioctl on the shared-memory channel then makes no
 * system call at all.  Stacks grow down on every architecture gemd runs
 * on.  Not used on a signal stack (this frame outside the thread's).
 */
static __thread uintptr_t stack_lo, stack_hi;
static __thread int stack_known;	/* 1 known, -1 not to be had, 0 not asked */

static void stack_learn(void)
{
	pthread_attr_t attr;
	void *addr;
	size_t size;

	stack_known = -1;
	if (pthread_getattr_np(pthread_self(), &attr))
		return;
	if (!pthread_attr_getstack(&attr, &addr, &size)) {
		stack_lo = (uintptr_t)addr;
		stack_hi = stack_lo + size;
		stack_known = 1;
	}
	pthread_attr_destroy(&attr);
}

static bool on_this_stack(const void *p, size_t n)
{
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	uintptr_t a = (uintptr_t)p;

	if (!stack_known)
		stack_learn();
	return stack_known > 0 && here >= stack_lo && here < stack_hi &&
	       a >= here && a < stack_hi && n <= stack_hi - a;
}

int copy_from_user(void *to, const void *from, size_t n)
{
	struct iovec local = { to, n }, user = { (void *)from, n };

	if (!n)
		return 0;
	if (on_this_stack(from, n)) {
		memcpy(to, from, n);
		return 0;
	}
	return copy_from_user_iov(&local, &user, 1) == 1 ? 0 : -EFAULT;
}

int copy_to_user(void *to, const void *from, size_t n)
{
	struct iovec local = { (void *)from, n }, user = { to, n };

	if (!n)
		return 0;
	if (on_this_stack(to, n)) {
		memcpy(to, from, n);
		return 0;
	}
	return copy_to_user_iov(&local, &user, 1) == 1 ? 0 : -EFAULT;
}
