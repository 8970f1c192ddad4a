/* unbind, bind: gemd's driver leaves the device and comes back, as a
 * write of the device's name to /sys/bus/pci/drivers/i915/unbind and bind
 * (driver/gem/unbind.c).  Files open across it belong to the old device:
 * -ENODEV for everything but close. */
#include "commands.h"
#include "gemcontrol.h"
#include "session.h"

static int cmd_unbind(struct gemctl *ctl, int argc, char **argv)
{
	static const struct gemctl_control_op op = {
		"unbind", "unbound", gdfs_unbind,
	};

	return gemctl_control_verb(ctl, argc, argv, &op);
}

static int cmd_bind(struct gemctl *ctl, int argc, char **argv)
{
	static const struct gemctl_control_op op = {
		"bind", "running", gdfs_bind,
	};

	return gemctl_control_verb(ctl, argc, argv, &op);
}

const struct gemctl_cmd cmd_unbind_entry = {
	.name = "unbind",
	.args = "[--timeout DUR]",
	.summary = "unbind the driver: open files -ENODEV, no new opens until bind",
	.opts = gemctl_control_opts,
	.fn = cmd_unbind,
	.no_device = true,
};

const struct gemctl_cmd cmd_bind_entry = {
	.name = "bind",
	.args = "[--timeout DUR]",
	.summary = "bind the driver again: a new device for new opens",
	.opts = gemctl_control_opts,
	.fn = cmd_bind,
	.no_device = true,
};
