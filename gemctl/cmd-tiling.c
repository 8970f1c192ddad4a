/* tiling H none|x|y [STRIDE]: I915_GEM_SET_TILING; prints what the driver
 * chose (it may refuse or change a stride). */
#include <string.h>

#include <drm.h>
#include <i915_drm.h>

#include "commands.h"
#include "gemdebugfs.h"
#include "json.h"
#include "session.h"

_Static_assert(I915_TILING_X == GDFS_TILING_X && I915_TILING_Y == GDFS_TILING_Y,
	       "I915_TILING_* index gdfs_tiling_names");

static int cmd_tiling(struct gemctl *ctl, int argc, char **argv)
{
	struct drm_i915_gem_set_tiling arg = { 0 };
	int i, ret;
	gj *doc;

	if (argc != 3 && argc != 4)
		return gemctl_usage(ctl);
	if ((ret = gemctl_parse_handle(ctl, argv[1], &arg.handle)))
		return ret;
	i = gdfs_name_lookup(gdfs_tiling_names, argv[2], true);
	if (i < 0)
		return gemctl_error(ctl, GEMCTL_USAGE, "tiling '%s' is not none, x or y",
				    argv[2]);
	arg.tiling_mode = (uint32_t)i;
	if (argc == 4 && (ret = gemctl_parse_u32(ctl, "stride", argv[3], &arg.stride)))
		return ret;
	if (i != I915_TILING_NONE && argc != 4)
		return gemctl_error(ctl, GEMCTL_USAGE, "tiling %s needs a STRIDE",
				    argv[2]);
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_SET_TILING, &arg);
	if (ret)
		return gemctl_handle_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_SET_TILING", -ret, arg.handle,
					  "handle %u %s stride %u", arg.handle,
					  argv[2], arg.stride);
	gemctl_result(ctl, "%s", gdfs_tiling_name((enum gdfs_tiling)arg.tiling_mode));
	gemctl_say(ctl, "handle %u tiling %s stride %u swizzle %u\n", arg.handle,
		   gdfs_tiling_name((enum gdfs_tiling)arg.tiling_mode),
		   arg.stride, arg.swizzle_mode);
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "handle", arg.handle);
	gj_str(doc, "tiling", gdfs_tiling_name((enum gdfs_tiling)arg.tiling_mode));
	gj_uint(doc, "stride", arg.stride);
	gj_uint(doc, "swizzle", arg.swizzle_mode);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_tiling_entry = {
	.name = "tiling",
	.args = "H none|x|y [STRIDE]",
	.summary = "set an object's tiling",
	.complete = GEMCTL_COMPLETE_HANDLE,
	.fn = cmd_tiling,
};
