/* resume: gemd accepts work again after `suspend`. */
#include "commands.h"
#include "gemcontrol.h"
#include "session.h"

static int cmd_resume(struct gemctl *ctl, int argc, char **argv)
{
	static const struct gemctl_control_op op = {
		"resume", "running", gdfs_resume,
	};

	return gemctl_control_verb(ctl, argc, argv, &op);
}

const struct gemctl_cmd cmd_resume_entry = {
	.name = "resume",
	.args = "[--timeout DUR]",
	.summary = "accept work again after suspend",
	.opts = gemctl_control_opts,
	.fn = cmd_resume,
	.no_device = true,
};
