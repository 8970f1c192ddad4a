/* Once-per-interval logging (ratelimit.h). */
#include <pthread.h>

#include "ratelimit.h"
#include "util.h"

static pthread_mutex_t ratelimit_lock = PTHREAD_MUTEX_INITIALIZER;

bool ratelimit_allow_at(struct ratelimit *rl, uint64_t now_ns,
			unsigned long *missed)
{
	bool ok;

	pthread_mutex_lock(&ratelimit_lock);
	ok = now_ns >= rl->next_ns;
	if (ok) {
		*missed = rl->missed;
		rl->missed = 0;
		rl->next_ns = now_ns + RATELIMIT_INTERVAL_NS;
	} else {
		rl->missed++;
	}
	pthread_mutex_unlock(&ratelimit_lock);
	return ok;
}

bool ratelimit_allow(struct ratelimit *rl, unsigned long *missed)
{
	return ratelimit_allow_at(rl, now_ns(), missed);
}
