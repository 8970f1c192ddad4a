/*
 * gemctl sessions across invocations (-S NAME): a small per-user holder
 * process owns the drm_file and the session (handles, their sizes,
 * variables, mappings), as ssh's ControlMaster or a tmux server own a
 * connection; each `gemctl -S NAME ...` hands it its command line, its
 * standard input, output and error and its working directory over a
 * 0600 socket in the user's runtime dir, and exits with the command's
 * status.  The holder exits after an idle time, or on `gemctl -S NAME exit`.
 *
 * One holder runs one command at a time (the session's handles are one
 * state): commands that arrive meanwhile wait their turn in arrival
 * order, each with its own descriptors, and none fails for it.  A waiting
 * caller's Ctrl-C cancels its own command (status 130) and leaves the
 * running one alone; the running one's caller's Ctrl-C interrupts it.
 * `gemctl -S NAME shell` (or no verb on a terminal) runs the interactive
 * shell in the holder, on the caller's terminal: the session is held by
 * it until it exits.
 *
 *	<runtime dir>/gemctl/NAME	the socket (directory 0700, socket 0600)
 */
#ifndef GEMKIT_GEMCTL_HOLDER_H
#define GEMKIT_GEMCTL_HOLDER_H

#include <stdbool.h>
#include <stdint.h>

struct gemctl;

/* What one invocation asks of the holder. */
enum gemctl_holder_kind {
	GEMCTL_HOLD_ARGV = 1,		/* one verb: args */
	GEMCTL_HOLD_COMMAND,		/* -c: args[0] */
	GEMCTL_HOLD_FILE,		/* -f: args[0] (relative to the caller's cwd) */
	GEMCTL_HOLD_STDIN,		/* a script on standard input */
	GEMCTL_HOLD_EXIT,		/* `gemctl -S NAME exit` */
	GEMCTL_HOLD_SHELL,		/* `gemctl -S NAME shell` */
};

struct gemctl_holder_req {
	enum gemctl_holder_kind kind;
	int argc;
	char **args;
	uint64_t idle_ns;		/* a new holder's idle time */
};

/* Default idle time of a holder: long enough for a rig's pauses, short
 * enough that a forgotten session does not hold GTT space for a day. */
#define GEMCTL_HOLDER_IDLE_NS (15ull * 60 * 1000000000ull)

/* A session name: letters, digits, '_', '-', '.', not starting with '.'. */
bool gemctl_session_name_ok(const char *name);

/*
 * Run req in session name, starting its holder from ctl (device, options)
 * when none runs.  ctl's per-invocation settings (-j, -q, -e/+e, -x, -t)
 * travel with the request.  Returns the command's exit status.
 */
int gemctl_holder_run(struct gemctl *ctl, const char *name,
		      const struct gemctl_holder_req *req);

#endif
