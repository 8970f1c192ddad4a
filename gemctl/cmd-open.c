/* open NAME: a handle for a flinked object; the handle is the value. */
#include <drm.h>

#include "commands.h"
#include "json.h"
#include "session.h"

static int cmd_open(struct gemctl *ctl, int argc, char **argv)
{
	struct drm_gem_open arg = { 0 };
	gj *doc;
	int ret;

	if (argc != 2)
		return gemctl_usage(ctl);
	ret = gemctl_parse_u32(ctl, "flink name", argv[1], &arg.name);
	if (ret)
		return ret;
	ret = gemctl_ioctl(ctl, DRM_IOCTL_GEM_OPEN, &arg);
	if (ret)
		return gemctl_ioctl_error(ctl, "DRM_IOCTL_GEM_OPEN", -ret,
					  "name %u", arg.name);
	gemctl_handle_add(ctl, arg.handle, arg.size);
	gemctl_name_add(ctl, arg.name);
	gemctl_result(ctl, "%u", arg.handle);
	gemctl_say(ctl, "handle %u size %llu\n", arg.handle,
		   (unsigned long long)arg.size);
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "name", arg.name);
	gj_uint(doc, "handle", arg.handle);
	gj_uint(doc, "size", arg.size);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_open_entry = {
	.name = "open",
	.args = "NAME",
	.summary = "open a flink name; the new handle is the value",
	.complete = GEMCTL_COMPLETE_FLINK,
	.fn = cmd_open,
};
