/*
 * wedged [--inject]: is the GPU wedged (i915_wedged)?  Prints yes or no
 * (the value: 1 or 0) and exits 0 either way.  --inject writes
 * i915_wedged, which makes gemd handle an error as 3.x did (a capture of
 * kind "wedged", then a ring reset); wait-hang sees it.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "gemdebugfs.h"
#include "json.h"
#include "session.h"

static const struct tool_opt wedged_opts[] = {
	{ "inject", 0, 'i', TOOL_ARG_NONE, NULL,
	  "write i915_wedged: gemd handles an error (a capture, a reset)" },
	TOOL_OPT_END
};

static int cmd_wedged(struct gemctl *ctl, int argc, char **argv)
{
	struct strbuf buf = STRBUF_INIT;
	bool inject = false;
	struct gdfs *src;
	int opt, ret, wedged = 0;
	ssize_t n;
	gj *doc;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		if (opt != 'i')
			return gemctl_usage(ctl);
		inject = true;
	}
	if (optind != argc)
		return gemctl_usage(ctl);
	if ((ret = gemctl_debugfs(ctl, &src)))
		return ret;
	if (inject) {
		n = gdfs_write(src, "i915_wedged", "1", 1);
		if (n < 0)
			return gemctl_error(ctl, GEMCTL_FAILED, "write to %s/i915_wedged: %s",
					    gdfs_describe(src), strerror((int)-n));
	}
	ret = gdfs_read(src, "i915_wedged", &buf);
	if (ret < 0 || sscanf(buf.buf, "wedged : %d", &wedged) != 1) {
		ret = gemctl_error(ctl, GEMCTL_FAILED, "cannot read %s/i915_wedged: %s",
				   gdfs_describe(src),
				   ret < 0 ? strerror(-ret) : "unexpected contents");
		strbuf_release(&buf);
		return ret;
	}
	strbuf_release(&buf);
	gemctl_result(ctl, "%d", wedged ? 1 : 0);
	gemctl_say(ctl, "%s\n", wedged ? "wedged" : "not wedged");
	doc = gemctl_json_begin(ctl);
	gj_bool(doc, "wedged", wedged != 0);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_wedged_entry = {
	.name = "wedged",
	.args = "[--inject]",
	.summary = "is the GPU wedged? (--inject: force error handling)",
	.opts = wedged_opts,
	.fn = cmd_wedged,
	.no_device = true,
};
