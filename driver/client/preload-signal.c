/*
 * sigaction and signal: libgem's SIGSEGV/SIGBUS handler, which makes its
 * copies fault softly (copyguard.h), stays installed when the program
 * installs its own.  The program's handler is recorded as the one to
 * chain to, and the program sees what it set, as if it were installed;
 * its own faults reach it as before.  Other signals pass straight through.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <signal.h>

#include "copyguard.h"
#include "preload.h"

#define EXPORT __attribute__((visibility("default")))

__attribute__((constructor)) static void signal_hooks_ctor(void)
{
	copyguard_hooked();
}

EXPORT int sigaction(int sig, const struct sigaction *act,
		     struct sigaction *oldact)
{
	return copyguard_sigaction(sig, act, oldact);
}

/* glibc's signal(): BSD semantics (the signal masked in its handler,
 * interrupted calls restarted). */
EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
	static sighandler_t (*real_signal)(int, sighandler_t);
	struct sigaction sa = { .sa_handler = handler, .sa_flags = SA_RESTART };
	struct sigaction old;

	if (sig != SIGSEGV && sig != SIGBUS) {
		if (!real_signal)
			real_signal = dlsym(RTLD_NEXT, "signal");
		return real_signal(sig, handler);
	}
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, sig);
	if (copyguard_sigaction(sig, &sa, &old))
		return SIG_ERR;
	return old.sa_handler;
}
