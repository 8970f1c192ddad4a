/*
 * Signals.  The kernel's waits are interruptible: a signal pending for
 * the caller ends them with -ERESTARTSYS, which the system call returns
 * as -EINTR, or restarts when the handler has SA_RESTART.  gemd's caller
 * is a client process it cannot see the signals of, so the server tells
 * the core, for each request a thread serves, how to ask the client
 * (gem_signal_source): the client's library says when a signal handler
 * without SA_RESTART broke its wait for the reply (GEM_MSG_INTERRUPT),
 * and a client that died is as one killed by a fatal signal.  Waits
 * then end with -EINTR; the restart for SA_RESTART handlers is the
 * client's, whose wait such a handler does not break.
 */
#include <stdbool.h>
#include <stdint.h>

#include "gem_priv.h"
#include "util.h"

/* How often a wait asks: the question may be a system call. */
#define LOOK_EVERY_NS	(1000ull * 1000)

static __thread bool (*pending_fn)(void *arg);
static __thread void *pending_arg;
static __thread uint64_t next_look_ns;
static __thread bool pending;

void gem_signal_source(bool (*fn)(void *arg), void *arg)
{
	pending_fn = fn;
	pending_arg = arg;
	next_look_ns = 0;
	pending = false;
}

bool gem_signal_pending(void)
{
	uint64_t now;

	if (pending || !pending_fn)
		return pending;
	now = now_ns();
	if (now < next_look_ns)
		return false;
	next_look_ns = now + LOOK_EVERY_NS;
	pending = pending_fn(pending_arg);
	return pending;
}
