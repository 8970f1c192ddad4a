/*
 * shell: the interactive shell, as gemctl with no verb on a terminal
 * opens it; through a session (`gemctl -S NAME shell`) the holder runs
 * it on the caller's terminal against the session's handles.  Inside the
 * shell it is refused: there is one shell a session.
 */
#include <stdio.h>

#include "commands.h"
#include "session.h"

int gemctl_run_shell(struct gemctl *ctl)
{
	int ret;

	if (ctl->interactive)
		return gemctl_error(ctl, GEMCTL_USAGE, "already in the shell");
	/* A script read earlier in a holder may have left stdin at EOF. */
	clearerr(stdin);
	gemctl_catch_sigint(NULL);
	ctl->interactive = true;
	ret = gemctl_shell(ctl);
	ctl->interactive = false;
	return ret;
}

static int cmd_shell(struct gemctl *ctl, int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return gemctl_usage(ctl);
	return gemctl_run_shell(ctl);
}

const struct gemctl_cmd cmd_shell_entry = {
	.name = "shell",
	.args = "",
	.summary = "the interactive shell (with -S NAME: on the session's handles)",
	.fn = cmd_shell,
	.no_device = true,
};
