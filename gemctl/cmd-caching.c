/* caching H [none|cached]: I915_GEM_SET_CACHING, or GET_CACHING without a
 * level. */
#include <string.h>

#include <drm.h>
#include <i915_drm.h>

#include "commands.h"
#include "gemdebugfs.h"
#include "json.h"
#include "session.h"

_Static_assert(I915_CACHING_NONE == GDFS_CACHE_NONE && I915_CACHING_CACHED == GDFS_CACHE_CACHED &&
	       I915_CACHING_DISPLAY == GDFS_CACHE_DISPLAY, "I915_CACHING_* index gdfs_cache_names");

static int cmd_caching(struct gemctl *ctl, int argc, char **argv)
{
	struct drm_i915_gem_caching arg = { 0 };
	const char *level;
	int ret;
	gj *doc;

	if (argc != 2 && argc != 3)
		return gemctl_usage(ctl);
	if ((ret = gemctl_parse_handle(ctl, argv[1], &arg.handle)))
		return ret;
	if (argc == 3) {
		int want = gdfs_name_lookup(gdfs_cache_names, argv[2], false);

		if (want != GDFS_CACHE_NONE && want != GDFS_CACHE_CACHED)
			return gemctl_error(ctl, GEMCTL_USAGE,
					    "caching '%s' is not none or cached", argv[2]);
		arg.caching = (uint32_t)want;
		ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_SET_CACHING, &arg);
		if (ret)
			return gemctl_handle_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_SET_CACHING",
						  -ret, arg.handle, "handle %u %s", arg.handle,
						  argv[2]);
	}
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_GET_CACHING, &arg);
	if (ret)
		return gemctl_handle_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_GET_CACHING", -ret, arg.handle,
					  "handle %u", arg.handle);
	level = gdfs_cache_name((enum gdfs_cache)arg.caching);
	gemctl_result(ctl, "%s", level);
	gemctl_say(ctl, "handle %u caching %s\n", arg.handle, level);
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "handle", arg.handle);
	gj_str(doc, "caching", level);
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
