/* create SIZE: a new object; its handle is the verb's value. */
#include <errno.h>

#include <drm.h>
#include <i915_drm.h>

#include "commands.h"
#include "json.h"
#include "session.h"

static int cmd_create(struct gemctl *ctl, int argc, char **argv)
{
	struct drm_i915_gem_create arg = { 0 };
	uint64_t size;
	gj *doc;
	int ret;

	if (argc != 2)
		return gemctl_usage(ctl);
	ret = gemctl_parse_size(ctl, "size", argv[1], &size);
	if (ret)
		return ret;
	arg.size = size;
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_CREATE, &arg);
	if (ret)
		return gemctl_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_CREATE", -ret,
					  "size %llu", (unsigned long long)arg.size);
	gemctl_handle_add(ctl, arg.handle, arg.size);
	gemctl_result(ctl, "%u", arg.handle);
	gemctl_say(ctl, "handle %u size %llu\n", arg.handle,
		   (unsigned long long)arg.size);
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "handle", arg.handle);
	gj_uint(doc, "size", arg.size);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_create_entry = {
	.name = "create",
	.args = "SIZE",
	.summary = "create an object; its handle is the value",
	.fn = cmd_create,
};
