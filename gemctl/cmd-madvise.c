/* madvise H willneed|dontneed: prints whether the pages are retained
 * (0 means the driver already purged them). */
#include <string.h>

#include <drm.h>
#include <i915_drm.h>

#include "commands.h"
#include "gemdebugfs.h"
#include "json.h"
#include "session.h"

_Static_assert(I915_MADV_WILLNEED == GDFS_MADV_WILLNEED && I915_MADV_DONTNEED == GDFS_MADV_DONTNEED,
	       "I915_MADV_* index gdfs_madv_names");

static int cmd_madvise(struct gemctl *ctl, int argc, char **argv)
{
	struct drm_i915_gem_madvise arg = { 0 };
	int advice, ret;
	gj *doc;

	if (argc != 3)
		return gemctl_usage(ctl);
	if ((ret = gemctl_parse_handle(ctl, argv[1], &arg.handle)))
		return ret;
	/* purged is the driver's verdict, not advice */
	advice = gdfs_name_lookup(gdfs_madv_names, argv[2], false);
	if (advice != GDFS_MADV_WILLNEED && advice != GDFS_MADV_DONTNEED)
		return gemctl_error(ctl, GEMCTL_USAGE,
				    "advice '%s' is not willneed or dontneed", argv[2]);
	arg.madv = (uint32_t)advice;
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_MADVISE, &arg);
	if (ret)
		return gemctl_handle_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_MADVISE", -ret, arg.handle,
					  "handle %u %s", arg.handle, argv[2]);
	gemctl_result(ctl, "%u", arg.retained);
	gemctl_say(ctl, "handle %u %s retained %u\n", arg.handle, argv[2],
		   arg.retained);
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "handle", arg.handle);
	gj_str(doc, "advice", argv[2]);
	gj_bool(doc, "retained", arg.retained);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_madvise_entry = {
	.name = "madvise",
	.args = "H willneed|dontneed",
	.summary = "advise whether the pages are needed",
	.complete = GEMCTL_COMPLETE_HANDLE,
	.fn = cmd_madvise,
};
