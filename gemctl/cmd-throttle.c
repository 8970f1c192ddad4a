/* throttle: I915_GEM_THROTTLE (wait for this file's work older than 20ms). */
#include <drm.h>
#include <i915_drm.h>

#include "commands.h"
#include "json.h"
#include "session.h"

static int cmd_throttle(struct gemctl *ctl, int argc, char **argv)
{
	int ret;
	gj *doc;

	(void)argv;
	if (argc != 1)
		return gemctl_usage(ctl);
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_THROTTLE, NULL);
	if (ret)
		return gemctl_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_THROTTLE", -ret, "%s", "");
	doc = gemctl_json_begin(ctl);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_throttle_entry = {
	.name = "throttle",
	.args = "",
	.summary = "wait for this client's older work (GEM_THROTTLE)",
	.fn = cmd_throttle,
};
