/* suspend [--timeout DUR]: gemd idles the GPU, unbinds every unpinned
 * object and refuses execbuffer (EBUSY) until `resume`
 * (driver/gem/suspend.c).  On timeout gemd may still finish suspending. */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "commands.h"
#include "gemcontrol.h"
#include "json.h"
#include "session.h"

int gemctl_control_verb(struct gemctl *ctl, int argc, char **argv, bool suspend)
{
	static const struct option opts[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	const char *what = suspend ? "suspend" : "resume";
	uint64_t timeout_ns = ctl->timeout_ns;
	struct gdfs_control *control;
	struct gdfs_wait w;
	int opt, ret, result;
	gj *doc;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
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
		ret = suspend ? gdfs_suspend(control, &w, &result) :
				gdfs_resume(control, &w, &result);
	if (ret == -ETIMEDOUT) {
		/* gemd goes on idling; the GPU state says why it takes long. */
		gemctl_error(ctl, GEMCTL_TIMEOUT, "%s: no answer within %llums", what,
			     (unsigned long long)(timeout_ns / 1000000));
		gemctl_print_evidence(ctl);
		return GEMCTL_TIMEOUT;
	}
	if (ret == -ENOENT || ret == -ECONNREFUSED || ret == -ENOTCONN)
		return gemctl_error(ctl, GEMCTL_NODEV, "cannot reach gemd at %s: %s",
				    gemctl_device(ctl), strerror(-ret));
	if (ret == -EINTR)
		return gemctl_error(ctl, GEMCTL_FAILED, "interrupted");
	if (ret)
		return gemctl_error(ctl, GEMCTL_FAILED, "GEM_MSG_CONTROL: %s",
				    strerror(-ret));
	if (result)
		return gemctl_ioctl_error(ctl, "GEM_MSG_CONTROL", -result, "%s", what);
	doc = gemctl_json_begin(ctl);
	gj_str(doc, "state", suspend ? "suspended" : "running");
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

int cmd_suspend(struct gemctl *ctl, int argc, char **argv)
{
	return gemctl_control_verb(ctl, argc, argv, true);
}
