/*
 * Say a repeated thing once per interval: a client hammering gemd with
 * refused requests must not turn its log into ten lines a second.
 */
#ifndef GEMKIT_RATELIMIT_H
#define GEMKIT_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

#define RATELIMIT_INTERVAL_NS	1000000000ull	/* one line a second */

/* Zero-initialised: the first call is allowed. */
struct ratelimit {
	uint64_t next_ns;	/* CLOCK_MONOTONIC: the next allowed */
	unsigned long missed;	/* suppressed since the last allowed */
};

/*
 * true if the caller may log now; *missed is then how many calls were
 * suppressed since the last allowed one.  Thread-safe.
 */
bool ratelimit_allow(struct ratelimit *rl, unsigned long *missed);
/* The same with the time given (tests). */
bool ratelimit_allow_at(struct ratelimit *rl, uint64_t now_ns,
			unsigned long *missed);

#endif
