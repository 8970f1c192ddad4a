/* close H: drop this session's handle. */
#include <drm.h>

#include "commands.h"
#include "json.h"
#include "session.h"

static int cmd_close(struct gemctl *ctl, int argc, char **argv)
{
	struct drm_gem_close arg = { 0 };
	gj *doc;
	int ret;

	if (argc != 2)
		return gemctl_usage(ctl);
	ret = gemctl_parse_handle(ctl, argv[1], &arg.handle);
	if (ret)
		return ret;
	ret = gemctl_ioctl(ctl, DRM_IOCTL_GEM_CLOSE, &arg);
	if (ret)
		return gemctl_handle_ioctl_error(ctl, "DRM_IOCTL_GEM_CLOSE", -ret, arg.handle,
					  "handle %u", arg.handle);
	gemctl_handle_del(ctl, arg.handle);
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "handle", arg.handle);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_close_entry = {
	.name = "close",
	.args = "H",
	.summary = "close a handle",
	.complete = GEMCTL_COMPLETE_HANDLE,
	.fn = cmd_close,
};
