/* caching H [none|cached]: I915_GEM_SET_CACHING, or GET_CACHING without a
 * level. */
#include <string.h>

#include <drm.h>
#include <i915_drm.h>

#include "commands.h"
#include "json.h"
#include "session.h"

static const char *caching_name(uint32_t c)
{
	switch (c) {
	case I915_CACHING_NONE:
		return "none";
	case I915_CACHING_CACHED:
		return "cached";
	case I915_CACHING_DISPLAY:
		return "display";
	default:
		return "unknown";
	}
}

static int cmd_caching(struct gemctl *ctl, int argc, char **argv)
{
	struct drm_i915_gem_caching arg = { 0 };
	int ret;
	gj *doc;

	if (argc != 2 && argc != 3)
		return gemctl_usage(ctl);
	if ((ret = gemctl_parse_handle(ctl, argv[1], &arg.handle)))
		return ret;
	if (argc == 3) {
		if (!strcmp(argv[2], "none"))
			arg.caching = I915_CACHING_NONE;
		else if (!strcmp(argv[2], "cached"))
			arg.caching = I915_CACHING_CACHED;
		else
			return gemctl_error(ctl, GEMCTL_USAGE,
					    "caching '%s' is not none or cached", argv[2]);
		ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_SET_CACHING, &arg);
		if (ret)
			return gemctl_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_SET_CACHING",
						  -ret, "handle %u %s", arg.handle,
						  argv[2]);
	}
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_GET_CACHING, &arg);
	if (ret)
		return gemctl_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_GET_CACHING", -ret,
					  "handle %u", arg.handle);
	gemctl_result(ctl, "%s", caching_name(arg.caching));
	gemctl_say(ctl, "handle %u caching %s\n", arg.handle, caching_name(arg.caching));
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "handle", arg.handle);
	gj_str(doc, "caching", caching_name(arg.caching));
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_caching_entry = {
	.name = "caching",
	.args = "H [none|cached]",
	.summary = "show or set an object's caching level",
	.complete = GEMCTL_COMPLETE_HANDLE,
	.fn = cmd_caching,
};
