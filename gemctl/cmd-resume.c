/* resume: gemd accepts work again after `suspend`. */
#include "commands.h"
#include "session.h"

static int cmd_resume(struct gemctl *ctl, int argc, char **argv)
{
	return gemctl_control_verb(ctl, argc, argv, false);
}

const struct gemctl_cmd cmd_resume_entry = {
	.name = "resume",
	.args = "[--timeout DUR]",
	.summary = "accept work again after suspend",
	.opts = gemctl_control_opts,
	.fn = cmd_resume,
	.no_device = true,
};
