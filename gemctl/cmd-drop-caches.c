/*
 * drop-caches [FLAGS]: write FLAGS to i915_gem_drop_caches (default: every
 * bit gemd supports, read from the file).  FLAGS is a number or names
 * joined by ',' or '|': the kernel's DROP_* bits by their names in
 * gdfs_drop_names (unbound, bound, retire, active, freed, shrink-all, ...).
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "gemdebugfs.h"
#include "json.h"
#include "session.h"
#include "util.h"

static int parse_flags(const char *s, uint64_t *out)
{
	char *copy, *p, *tok, *save = NULL, *end;
	int bit, ret = 0;

	*out = strtoull(s, &end, 0);
	if (*s && !*end)
		return 0;
	*out = 0;
	copy = strdup(s);
	if (!copy)
		return -1;
	for (p = copy; (tok = strtok_r(p, ",|", &save)); p = NULL) {
		bit = gdfs_name_lookup(gdfs_drop_names, tok, false);
		if (bit < 0) {
			ret = -1;
			break;
		}
		*out |= 1ull << bit;
	}
	free(copy);
	return ret;
}

static int cmd_drop_caches(struct gemctl *ctl, int argc, char **argv)
{
	struct strbuf buf = STRBUF_INIT;
	struct gdfs *src;
	uint64_t flags;
	ssize_t n;
	int ret;
	gj *doc;

	if (argc > 2)
		return gemctl_usage(ctl);
	/* Bad flags are a usage error, said before the device is tried. */
	if (argc == 2) {
		if (parse_flags(argv[1], &flags) < 0) {
			const char *const *name;

			for (name = gdfs_drop_names; *name; name++)
				strbuf_addf(&buf, "%s%s", buf.len ? "," : "", *name);
			ret = gemctl_error(ctl, GEMCTL_USAGE,
					   "bad flags '%s' (a number, or names joined by ',': %s)",
					   argv[1], buf.buf);
			strbuf_release(&buf);
			return ret;
		}
	}
	if ((ret = gemctl_debugfs(ctl, &src)))
		return ret;
	if (argc != 2) {
		ret = gdfs_read(src, "i915_gem_drop_caches", &buf);
		flags = ret < 0 ? 0 : strtoull(buf.buf, NULL, 0);
		if (ret < 0 || !flags) {
			strbuf_release(&buf);
			return gemctl_error(ctl, GEMCTL_FAILED,
					    "cannot read %s/i915_gem_drop_caches: %s",
					    gdfs_describe(src), strerror(ret < 0 ? -ret : 22));
		}
	}
	strbuf_reset(&buf);
	strbuf_addf(&buf, "0x%llx", (unsigned long long)flags);
	n = gdfs_write(src, "i915_gem_drop_caches", buf.buf, buf.len);
	strbuf_release(&buf);
	if (n < 0)
		return gemctl_error(ctl, GEMCTL_FAILED,
				    "write 0x%llx to %s/i915_gem_drop_caches: %s",
				    (unsigned long long)flags, gdfs_describe(src),
				    strerror((int)-n));
	gemctl_result(ctl, "0x%llx", (unsigned long long)flags);
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "flags", flags);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_drop_caches_entry = {
	.name = "drop-caches",
	.args = "[FLAGS]",
	.summary = "write i915_gem_drop_caches (default: all)",
	.fn = cmd_drop_caches,
	.no_device = true,
};
