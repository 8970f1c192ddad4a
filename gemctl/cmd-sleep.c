/*
 * sleep DUR: wait in a script (a bare number is seconds, as sleep(1)).
 * Ctrl-C ends it early, as it ends every blocking verb.
 */
#include <time.h>

#include "commands.h"
#include "session.h"
#include "util.h"

/* Wake this often to see Ctrl-C (the shell's SIGINT sets a flag only). */
#define SLEEP_SLICE_NS 100000000ull

static int cmd_sleep(struct gemctl *ctl, int argc, char **argv)
{
	uint64_t ns, deadline, now;
	int ret;

	if (argc != 2)
		return gemctl_usage(ctl);
	if ((ret = gemctl_parse_timeout(ctl, argv[1], &ns)))
		return ret;
	deadline = now_ns() + ns;
	while ((now = now_ns()) < deadline) {
		uint64_t left = MIN(deadline - now, SLEEP_SLICE_NS);
		struct timespec ts = { .tv_sec = (time_t)(left / 1000000000ull),
				       .tv_nsec = (long)(left % 1000000000ull) };

		if (gemctl_interrupted)
			return gemctl_error(ctl, GEMCTL_FAILED, "interrupted");
		nanosleep(&ts, NULL);
	}
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_sleep_entry = {
	.name = "sleep",
	.args = "DUR",
	.summary = "wait DUR (a bare number is seconds; 500ms, 1.5s)",
	.fn = cmd_sleep,
	.no_device = true,
};
