/* set-domain H READ[,WRITE]: I915_GEM_SET_DOMAIN (cpu, gtt, render, ...). */
#include <string.h>

#include <drm.h>
#include <i915_drm.h>

#include "commands.h"
#include "json.h"
#include "names.h"
#include "session.h"

static int cmd_set_domain(struct gemctl *ctl, int argc, char **argv)
{
	struct drm_i915_gem_set_domain arg = { 0 };
	char *comma, read_name[32];
	const char *write_name = NULL;
	size_t len;
	int ret;
	gj *doc;

	if (argc != 3)
		return gemctl_usage(ctl);
	if ((ret = gemctl_parse_handle(ctl, argv[1], &arg.handle)))
		return ret;
	comma = strchr(argv[2], ',');
	len = comma ? (size_t)(comma - argv[2]) : strlen(argv[2]);
	if (len >= sizeof(read_name))
		len = sizeof(read_name) - 1;
	memcpy(read_name, argv[2], len);
	read_name[len] = '\0';
	if (comma)
		write_name = comma + 1;
	arg.read_domains = gemctl_domain_parse(read_name);
	if (!arg.read_domains)
		return gemctl_error(ctl, GEMCTL_USAGE,
				    "unknown domain '%s' (cpu, gtt, render, sampler, command, instruction, vertex)",
				    read_name);
	if (write_name) {
		arg.write_domain = gemctl_domain_parse(write_name);
		if (!arg.write_domain)
			return gemctl_error(ctl, GEMCTL_USAGE, "unknown domain '%s'",
					    write_name);
	}
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_SET_DOMAIN, &arg);
	if (ret)
		return gemctl_handle_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_SET_DOMAIN", -ret, arg.handle,
					  "handle %u %s", arg.handle, argv[2]);
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "handle", arg.handle);
	gj_uint(doc, "read_domains", arg.read_domains);
	gj_uint(doc, "write_domain", arg.write_domain);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_set_domain_entry = {
	.name = "set-domain",
	.args = "H READ[,WRITE]",
	.summary = "move an object to domains (cpu, gtt, render, sampler, ...)",
	.complete = GEMCTL_COMPLETE_HANDLE,
	.fn = cmd_set_domain,
};
