/*
 * Guarded copies (see copyguard.h).
 *
 * Why one instruction: the handler must know for certain that a fault is
 * the copy's, not the program's.  A thread-local "copy in progress" is not
 * enough on its own: a signal handler may longjmp out of a copy (IGT's
 * timeouts do) and leave it set over code that faults for its own
 * reasons.  So the copy is one `rep movsb` (the kernel's own user copy on
 * CPUs with fast strings, and glibc's memcpy for mid-sized copies), and a
 * fault is ours only if the faulting instruction is that one, the
 * thread's guard is set, and the address lies in one of the copy's two
 * ranges.  Elsewhere than x86-64 there is no guard: the copy is left to a
 * system call.
 *
 * The jump leaves the signal mask as the handler left it (sigsetjmp
 * without the mask: saving it would be a system call per copy), so the
 * signal taken is unblocked again after landing.
 *
 * Chaining follows what the kernel would have done with the program's
 * handler: SA_SIGINFO or plain, its sa_mask, SA_NODEFER and SA_RESETHAND;
 * SIG_DFL (and SIG_IGN, which the kernel does not honour for a fault) is
 * put back and the fault taken again, so the program dies of the signal
 * with its core as it would have.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* RTLD_NEXT, REG_RIP */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#include "copyguard.h"

/* Without the interposer each copy costs two sigaction queries: below
 * this, a pread/pwrite system call is as cheap. */
#define UNHOOKED_MIN	(64u << 10)

#define NGUARDED	2	/* SIGSEGV, SIGBUS */

struct copy_guard {
	sigjmp_buf env;
	uintptr_t dst, src;
	size_t n;
	struct copy_guard *outer;	/* a copy this one interrupted */
};

static __thread struct copy_guard *guard_now
	__attribute__((tls_model("initial-exec")));

/*
 * The program's handlers, as it last set them: two slots each, the live
 * one named by prev_cur, so that the signal handler reads a whole one
 * while sigaction() writes the other (writers hold guard_lock).
 */
static struct sigaction prev[NGUARDED][2];
static unsigned int prev_cur[NGUARDED];
static bool installed[NGUARDED];
static bool ready;		/* both installed */
static bool hooked;		/* the interposer keeps them installed */
static bool dying;		/* a fault went to SIG_DFL: never again */
static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;

/* libc's own: under the interposer, plain calls would reach its hooks. */
static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);
static void (*real_siglongjmp)(sigjmp_buf, int) __attribute__((noreturn));

/* A sanitized program: its fake stacks must learn of the jump. */
extern void __asan_handle_no_return(void)
	__attribute__((weak, visibility("default")));

#if defined(__x86_64__)
#define HAVE_GUARD	1
void copyguard_movsb(void *dst, const void *src, size_t n)
	__attribute__((visibility("hidden")));
extern const char copyguard_insn[] __attribute__((visibility("hidden")));
__asm__(".text\n"
	".p2align 4\n"
	".type copyguard_movsb, @function\n"
	"copyguard_movsb:\n"
#ifdef __CET__
	"	endbr64\n"
#endif
	"	movq %rdx, %rcx\n"
	"copyguard_insn:\n"
	"	rep movsb\n"
	"	ret\n"
	".size copyguard_movsb, .-copyguard_movsb\n");

static bool at_copy_insn(const void *uc)
{
	const ucontext_t *u = uc;

	return (uintptr_t)u->uc_mcontext.gregs[REG_RIP] == (uintptr_t)copyguard_insn;
}
#else
#define HAVE_GUARD	0
static void copyguard_movsb(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
}

static bool at_copy_insn(const void *uc)
{
	(void)uc;
	return false;
}
#endif

static int guarded_index(int sig)
{
	return sig == SIGSEGV ? 0 : sig == SIGBUS ? 1 : -1;
}

static void prev_read(int i, struct sigaction *out)
{
	unsigned int cur = __atomic_load_n(&prev_cur[i], __ATOMIC_ACQUIRE);

	*out = prev[i][cur];
}

/* guard_lock held, or the signal handler (SA_RESETHAND). */
static void prev_write(int i, const struct sigaction *sa)
{
	unsigned int next = !__atomic_load_n(&prev_cur[i], __ATOMIC_RELAXED);

	prev[i][next] = *sa;
	__atomic_store_n(&prev_cur[i], next, __ATOMIC_RELEASE);
}

/* The kernel's default action: put SIG_DFL back and let the signal
 * come again (a fault retakes itself on return; a sent one is raised). */
static void die_by_default(int i, int sig, const siginfo_t *si)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	sigemptyset(&dfl.sa_mask);
	__atomic_store_n(&dying, true, __ATOMIC_RELAXED);
	real_sigaction(sig, &dfl, NULL);
	__atomic_store_n(&installed[i], false, __ATOMIC_RELAXED);
	if (si->si_code <= 0)
		raise(sig);
}

static void chain(int i, int sig, siginfo_t *si, void *uc)
{
	struct sigaction p;
	sigset_t unblock;

	prev_read(i, &p);
	if (!(p.sa_flags & SA_SIGINFO) &&
	    (p.sa_handler == SIG_DFL || p.sa_handler == SIG_IGN)) {
		if (p.sa_handler == SIG_IGN && si->si_code <= 0)
			return;
		die_by_default(i, sig, si);
		return;
	}
	if (p.sa_flags & SA_RESETHAND) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		sigemptyset(&dfl.sa_mask);
		prev_write(i, &dfl);
	}
	/* The mask the kernel would have set; sigreturn restores ours. */
	pthread_sigmask(SIG_BLOCK, &p.sa_mask, NULL);
	if (p.sa_flags & SA_NODEFER) {
		sigemptyset(&unblock);
		sigaddset(&unblock, sig);
		pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);
	}
	if (p.sa_flags & SA_SIGINFO)
		p.sa_sigaction(sig, si, uc);
	else
		p.sa_handler(sig);
}

static void guard_handler(int sig, siginfo_t *si, void *uc)
{
	struct copy_guard *g = guard_now;
	int i = guarded_index(sig);
	uintptr_t a = (uintptr_t)si->si_addr;

	if (g && si->si_code > 0 && at_copy_insn(uc) &&
	    (a - g->dst < g->n || a - g->src < g->n)) {
		if (__asan_handle_no_return)
			__asan_handle_no_return();
		real_siglongjmp(g->env, sig);
	}
	if (i >= 0)
		chain(i, sig, si, uc);
}

static void guard_lock_take(void)
{
	pthread_mutex_lock(&guard_lock);
}

static void guard_lock_drop(void)
{
	pthread_mutex_unlock(&guard_lock);
}

static void guard_init_once(void)
{
	real_sigaction = dlsym(RTLD_NEXT, "sigaction");
	real_siglongjmp = dlsym(RTLD_NEXT, "siglongjmp");
	pthread_atfork(guard_lock_take, guard_lock_drop, guard_lock_drop);
}

static bool guard_resolved(void)
{
	pthread_once(&guard_once, guard_init_once);
	return real_sigaction && real_siglongjmp;
}

static int signal_of(int i)
{
	return i == 0 ? SIGSEGV : SIGBUS;
}

/* Install the handler for both signals, once: true when it is. */
static bool guard_install(void)
{
	struct sigaction ours = {
		.sa_sigaction = guard_handler,
		.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART,
	}, old;
	int i;

	if (__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
		return true;
	if (__atomic_load_n(&dying, __ATOMIC_RELAXED) || !guard_resolved())
		return false;
	sigemptyset(&ours.sa_mask);
	pthread_mutex_lock(&guard_lock);
	for (i = 0; i < NGUARDED; i++) {
		if (installed[i])
			continue;
		if (real_sigaction(signal_of(i), &ours, &old))
			goto out_unlock;
		prev_write(i, &old);
		installed[i] = true;
	}
	__atomic_store_n(&ready, true, __ATOMIC_RELEASE);
out_unlock:
	pthread_mutex_unlock(&guard_lock);
	return __atomic_load_n(&ready, __ATOMIC_ACQUIRE);
}

/*
 * Without the hooks: is our handler still the one the kernel has?  One
 * the program put back to SIG_DFL is taken again (the default is what
 * chaining gives it); one it replaced by its own is left to it.
 */
static bool guard_still_ours(void)
{
	struct sigaction cur;
	bool retake = false;
	int i;

	for (i = 0; i < NGUARDED; i++) {
		if (real_sigaction(signal_of(i), NULL, &cur))
			return false;
		if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == guard_handler)
			continue;
		if ((cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_DFL ||
		    __atomic_load_n(&dying, __ATOMIC_RELAXED))
			return false;
		pthread_mutex_lock(&guard_lock);
		installed[i] = false;
		__atomic_store_n(&ready, false, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&guard_lock);
		retake = true;
	}
	return !retake || guard_install();
}

void copyguard_hooked(void)
{
	__atomic_store_n(&hooked, true, __ATOMIC_RELEASE);
}

bool copyguard_worth(size_t n)
{
	return HAVE_GUARD && (n >= UNHOOKED_MIN ||
			      __atomic_load_n(&hooked, __ATOMIC_ACQUIRE));
}

int copyguard_copy(void *dst, const void *src, size_t n)
{
	struct copy_guard g;
	sigset_t set;
	int sig;

	if (!copyguard_worth(n) || !guard_install())
		return -ENOSYS;
	if (!__atomic_load_n(&hooked, __ATOMIC_ACQUIRE) && !guard_still_ours())
		return -ENOSYS;
	g.dst = (uintptr_t)dst;
	g.src = (uintptr_t)src;
	g.n = n;
	g.outer = guard_now;
	sig = sigsetjmp(g.env, 0);
	if (sig) {
		guard_now = g.outer;
		sigemptyset(&set);
		sigaddset(&set, sig);
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
		return -EFAULT;
	}
	guard_now = &g;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	copyguard_movsb(dst, src, n);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	guard_now = g.outer;
	return 0;
}

int copyguard_sigaction(int sig, const struct sigaction *act,
			struct sigaction *oldact)
{
	int i = guarded_index(sig), ret = 0;

	if (!guard_resolved()) {
		errno = ENOSYS;
		return -1;
	}
	if (i < 0)
		return real_sigaction(sig, act, oldact);
	pthread_mutex_lock(&guard_lock);
	if (!installed[i]) {
		ret = real_sigaction(sig, act, oldact);
		goto out_unlock;
	}
	if (oldact)
		prev_read(i, oldact);
	if (act)
		prev_write(i, act);
out_unlock:
	pthread_mutex_unlock(&guard_lock);
	return ret;
}
