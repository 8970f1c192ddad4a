/*
 * Allocation-failure injection, as SQLite's faultsim (test_malloc.c) and
 * the kernel's fault injection do it: every allocation of the memory
 * manager goes through gem_malloc/gem_calloc/gem_realloc, and every other
 * step that can run out of memory (growing an arena: memfd, ftruncate,
 * mmap) asks gem_faultsim_fail() first.  Armed with N, the Nth of these
 * from then on fails (and the R after it, if asked), so a test can walk
 * N = 1, 2, 3 ... over an ioctl until it succeeds and check every
 * failure path on the way: a clean -ENOMEM, nothing leaked, the state
 * verified (verify.c) and the driver still working.
 *
 * Armed by tests in process (gem_faultsim_arm) or for gemd by
 * GEMKIT_FAILMALLOC=N[,R] (gemd(8)), counting from the end of start-up.
 * Disarmed, each allocation costs one relaxed atomic load.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "faultsim.h"
#include "log.h"

static atomic_ulong countdown;		/* steps to the failure; 0: disarmed */
static atomic_ulong repeat_left;	/* further failures after it */
static atomic_ulong injected;		/* failures injected since armed */

/* A breakpoint target, as sqlite3Fault: every injected failure ends here. */
__attribute__((noinline)) static void gem_faultsim_hit(unsigned long n)
{
	log_info("faultsim: failing allocation (%lu injected)", n);
}

bool gem_faultsim_fail(void)
{
	unsigned long c = atomic_load_explicit(&countdown, memory_order_relaxed);

	do {
		if (c == 0)
			return false;
	} while (!atomic_compare_exchange_weak(&countdown, &c, c - 1));
	if (c > 1)
		return false;
	if (atomic_load(&repeat_left)) {
		atomic_fetch_sub(&repeat_left, 1);
		atomic_store(&countdown, 1);	/* the next one fails too */
	}
	gem_faultsim_hit(atomic_fetch_add(&injected, 1) + 1);
	errno = ENOMEM;
	return true;
}

void gem_faultsim_arm(unsigned long nth, unsigned long repeat)
{
	atomic_store(&injected, 0);
	atomic_store(&repeat_left, repeat);
	atomic_store(&countdown, nth);
}

void gem_faultsim_disarm(void)
{
	atomic_store(&countdown, 0);
	atomic_store(&repeat_left, 0);
}

unsigned long gem_faultsim_injected(void)
{
	return atomic_load(&injected);
}

void gem_faultsim_init(void)
{
	const char *env = getenv("GEMKIT_FAILMALLOC");
	unsigned long nth, repeat = 0;
	char *end;

	if (!env || !*env)
		return;
	nth = strtoul(env, &end, 10);
	if (*end == ',')
		repeat = strtoul(end + 1, &end, 10);
	if (*end || !nth) {
		log_warn("GEMKIT_FAILMALLOC='%s' is not N[,R] with N >= 1; ignored",
			 env);
		return;
	}
	log_notice("faultsim: allocation %lu from now fails, and %lu after it",
		   nth, repeat);
	gem_faultsim_arm(nth, repeat);
}

void *gem_malloc(size_t size)
{
	return gem_faultsim_fail() ? NULL : malloc(size);
}

void *gem_calloc(size_t n, size_t size)
{
	return gem_faultsim_fail() ? NULL : calloc(n, size);
}

void *gem_realloc(void *ptr, size_t size)
{
	return gem_faultsim_fail() ? NULL : realloc(ptr, size);
}
