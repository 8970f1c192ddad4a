/* resume: gemd accepts work again after `suspend`. */
#include "commands.h"
#include "session.h"

int cmd_resume(struct gemctl *ctl, int argc, char **argv)
{
	return gemctl_control_verb(ctl, argc, argv, false);
}
