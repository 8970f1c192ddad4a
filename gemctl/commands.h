/*
 * The verbs: each cmd-*.c file defines its verbs' entries (struct
 * gemctl_cmd: name, synopsis, summary, option table, completion, handler)
 * and commands.c lists them in gemctl_cmds[].  See "Adding a gemctl verb"
 * in DEVELOPERS.md.
 */
#ifndef GEMKIT_GEMCTL_COMMANDS_H
#define GEMKIT_GEMCTL_COMMANDS_H

#include "gemctl.h"

#define GEMCTL_VERB(entry) extern const struct gemctl_cmd entry;
#include "verbs.def"
#undef GEMCTL_VERB

/* fill and copy share gemctl_parse_blit_opts (cmd-copy.c); their tables
 * give these ids to the blit options. */
enum gemctl_blit_opt {
	GEMCTL_BLIT_PITCH = 'p',
	GEMCTL_BLIT_SRC_PITCH = 's',
	GEMCTL_BLIT_BPP = 'b',
	GEMCTL_BLIT_FROM = 'f',
	GEMCTL_BLIT_TO = 't',
};

/* cmd-suspend.c: suspend (true) or resume (false), reported as a verb;
 * both take the same options. */
extern const struct tool_opt gemctl_control_opts[];
/* A driver control verb (cmd-suspend.c): its name, the state --json
 * reports after it, and its request. */
struct gdfs_control;
struct gdfs_wait;
struct gemctl_control_op {
	const char *name;
	const char *state;
	int (*call)(struct gdfs_control *ctl, const struct gdfs_wait *w, int *result);
};
int gemctl_control_verb(struct gemctl *ctl, int argc, char **argv,
			const struct gemctl_control_op *op);

#endif
