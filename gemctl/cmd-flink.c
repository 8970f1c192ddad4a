/* flink H: a global name for the object; the name is the verb's value. */
#include <drm.h>

#include "commands.h"
#include "json.h"
#include "session.h"

static int cmd_flink(struct gemctl *ctl, int argc, char **argv)
{
	struct drm_gem_flink arg = { 0 };
	gj *doc;
	int ret;

	if (argc != 2)
		return gemctl_usage(ctl);
	ret = gemctl_parse_handle(ctl, argv[1], &arg.handle);
	if (ret)
		return ret;
	ret = gemctl_ioctl(ctl, DRM_IOCTL_GEM_FLINK, &arg);
	if (ret)
		return gemctl_handle_ioctl_error(ctl, "DRM_IOCTL_GEM_FLINK", -ret, arg.handle,
					  "handle %u", arg.handle);
	gemctl_name_add(ctl, arg.name);
	gemctl_result(ctl, "%u", arg.name);
	gemctl_say(ctl, "name %u\n", arg.name);
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "handle", arg.handle);
	gj_uint(doc, "name", arg.name);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_flink_entry = {
	.name = "flink",
	.args = "H",
	.summary = "give an object a global name (the value)",
	.complete = GEMCTL_COMPLETE_HANDLE,
	.fn = cmd_flink,
};
