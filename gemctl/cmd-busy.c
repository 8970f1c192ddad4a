/* busy H: I915_GEM_BUSY; prints busy or idle (the value: 1 or 0). */
#include <drm.h>
#include <i915_drm.h>

#include "commands.h"
#include "json.h"
#include "session.h"

static int cmd_busy(struct gemctl *ctl, int argc, char **argv)
{
	struct drm_i915_gem_busy arg = { 0 };
	int ret;
	gj *doc;

	if (argc != 2)
		return gemctl_usage(ctl);
	if ((ret = gemctl_parse_handle(ctl, argv[1], &arg.handle)))
		return ret;
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_BUSY, &arg);
	if (ret)
		return gemctl_handle_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_BUSY", -ret, arg.handle,
					  "handle %u", arg.handle);
	gemctl_result(ctl, "%u", arg.busy ? 1 : 0);
	gemctl_say(ctl, "handle %u %s\n", arg.handle, arg.busy ? "busy" : "idle");
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "handle", arg.handle);
	gj_bool(doc, "busy", arg.busy != 0);
	gj_uint(doc, "busy_flags", arg.busy);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_busy_entry = {
	.name = "busy",
	.args = "H",
	.summary = "is the GPU still using the object? (value 1 or 0)",
	.complete = GEMCTL_COMPLETE_HANDLE,
	.fn = cmd_busy,
};
