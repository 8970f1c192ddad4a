/* suspend [--timeout DUR]: gemd idles the GPU, unbinds every unpinned
 * object and refuses execbuffer (EBUSY) until `resume`
 * (driver/gem/suspend.c).  On timeout gemd may still finish suspending. */
#include <errno.h>
#include <string.h>

#include "commands.h"
#include "gemcontrol.h"
#include "json.h"
#include "session.h"

const struct tool_opt gemctl_control_opts[] = {
	{ "timeout", 0, 't', TOOL_ARG_VALUE, "DUR",
	  "give up waiting for gemd after DUR (exit 124; default: -t)" },
	TOOL_OPT_END
};

int gemctl_control_verb(struct gemctl *ctl, int argc, char **argv,
			const struct gemctl_control_op *op)
{
	const char *what = op->name;
	uint64_t timeout_ns = ctl->timeout_ns;
	struct gdfs_control *control;
	struct gdfs_wait w;
	int opt, ret, result;
	gj *doc;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		if (opt != 't')
			return gemctl_usage(ctl);
		if ((ret = gemctl_parse_timeout(ctl, optarg, &timeout_ns)))
			return ret;
	}
	if (optind != argc)
		return gemctl_usage(ctl);
	w = (struct gdfs_wait){ .timeout_ns = timeout_ns, .stop = &gemctl_interrupted };
	ret = gemctl_control(ctl, &control);
	if (!ret)
		ret = op->call(control, &w, &result);
	if (ret == -ETIMEDOUT) {
		/* gemd goes on idling; the GPU state says why it takes long. */
		gemctl_error(ctl, GEMCTL_TIMEOUT, "%s: no answer within %llums", what,
			     (unsigned long long)(timeout_ns / 1000000));
		gemctl_print_evidence(ctl);
		return GEMCTL_TIMEOUT;
	}
	if (ret == -ENOENT || ret == -ECONNREFUSED || ret == -ENOTCONN)
		return gemctl_unreachable(ctl, -ret);
	if (ret == -EINTR)
		return gemctl_error(ctl, GEMCTL_FAILED, "interrupted");
	if (ret)
		return gemctl_error(ctl, GEMCTL_FAILED, "GEM_MSG_CONTROL: %s",
				    strerror(-ret));
	if (result)
		return gemctl_ioctl_error(ctl, "GEM_MSG_CONTROL", -result, "%s", what);
	doc = gemctl_json_begin(ctl);
	gj_str(doc, "state", op->state);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

static int cmd_suspend(struct gemctl *ctl, int argc, char **argv)
{
	static const struct gemctl_control_op op = {
		"suspend", "suspended", gdfs_suspend,
	};

	return gemctl_control_verb(ctl, argc, argv, &op);
}

const struct gemctl_cmd cmd_suspend_entry = {
	.name = "suspend",
	.args = "[--timeout DUR]",
	.summary = "idle the GPU, unbind everything, refuse work until resume",
	.opts = gemctl_control_opts,
	.fn = cmd_suspend,
	.no_device = true,
};
