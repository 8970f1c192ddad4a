/*
 * gemctl: one verb per file (cmd-<verb>.c), which defines the verb's
 * entry: its synopsis, summary, option table and handler.  verbs.def lists
 * the entries; the table made from it drives dispatch, `help`, `--help`,
 * option parsing, the shell's tab completion and the bash/zsh completions.
 *
 * A verb gets the session (handles and variables outlive one verb inside
 * one gemctl process: `gemctl -c`, `-f SCRIPT`, the shell) and its own
 * argv (argv[0] is the verb).  It returns one of the documented exit codes.
 */
#ifndef GEMKIT_GEMCTL_H
#define GEMKIT_GEMCTL_H

#include <stdbool.h>
#include <stdint.h>

#include "exitcode.h"
#include "toolopt.h"

/* Exit codes: the three tools' table (common/exitcodes.def). */
enum gemctl_exit {
	GEMCTL_OK = GEM_EXIT_OK,
	GEMCTL_FAILED = GEM_EXIT_FAILED,
	GEMCTL_USAGE = GEM_EXIT_USAGE,
	GEMCTL_NODEV = GEM_EXIT_NODEV,
	GEMCTL_HUNG = GEM_EXIT_HUNG,
	GEMCTL_TIMEOUT = GEM_EXIT_TIMEOUT,
	GEMCTL_INTERRUPTED = GEM_EXIT_INTERRUPTED,
};

struct gemctl;				/* the session; see session.h */

struct gemctl_cmd {
	const char *name;
	const char *args;		/* synopsis after the verb, for usage lines */
	const char *summary;		/* one line, for `help` */
	/* The options, declared once: the verb parses them with
	 * gemctl_getopt(), `VERB --help` lists them and completion offers
	 * them.  NULL: none. */
	const struct tool_opt *opts;
	/* What positional arguments complete to: 0 none, or GEMCTL_COMPLETE_*. */
	unsigned int complete;
	int (*fn)(struct gemctl *ctl, int argc, char **argv);
	/* true: the verb needs no device connection (help, run, bench --compare). */
	bool no_device;
};

#define GEMCTL_COMPLETE_HANDLE	(1u << 0)
#define GEMCTL_COMPLETE_FILE	(1u << 1)
#define GEMCTL_COMPLETE_FLINK	(1u << 2)
#define GEMCTL_COMPLETE_VERB	(1u << 3)
#define GEMCTL_COMPLETE_COMMAND	(1u << 4)	/* a program (run) */
#define GEMCTL_COMPLETE_WORKLOAD	(1u << 5)	/* a workload name */

/* The options before the verb (main.c). */
extern const struct tool_opt gemctl_global_opts[];

extern const struct gemctl_cmd *const gemctl_cmds[];
extern const unsigned int gemctl_ncmds;
const struct gemctl_cmd *gemctl_cmd_find(const char *name);

/* The device path this session uses (-D, GEM_DEVICE, or the default). */
const char *gemctl_device(const struct gemctl *ctl);

#endif
