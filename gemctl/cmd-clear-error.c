/* clear-error: write to i915_error_state, which frees the capture (as the
 * kernel does on any write). */
#include <string.h>

#include "commands.h"
#include "gemdebugfs.h"
#include "json.h"
#include "session.h"

static int cmd_clear_error(struct gemctl *ctl, int argc, char **argv)
{
	struct gdfs *src;
	ssize_t n;
	int ret;
	gj *doc;

	(void)argv;
	if (argc != 1)
		return gemctl_usage(ctl);
	if ((ret = gemctl_debugfs(ctl, &src)))
		return ret;
	n = gdfs_write(src, "i915_error_state", "1", 1);
	if (n < 0)
		return gemctl_error(ctl, GEMCTL_FAILED, "write to %s/i915_error_state: %s",
				    gdfs_describe(src), strerror((int)-n));
	doc = gemctl_json_begin(ctl);
	gj_bool(doc, "cleared", true);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_clear_error_entry = {
	.name = "clear-error",
	.args = "",
	.summary = "free the error capture (write i915_error_state)",
	.fn = cmd_clear_error,
	.no_device = true,
};
