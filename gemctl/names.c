/* Domain names. */
#include <errno.h>
#include <string.h>

#include <drm.h>
#include <i915_drm.h>

#include "names.h"
#include "util.h"

static const struct {
	const char *name;
	uint32_t bit;
} domains[] = {
	{ "cpu", I915_GEM_DOMAIN_CPU },
	{ "render", I915_GEM_DOMAIN_RENDER },
	{ "sampler", I915_GEM_DOMAIN_SAMPLER },
	{ "command", I915_GEM_DOMAIN_COMMAND },
	{ "instruction", I915_GEM_DOMAIN_INSTRUCTION },
	{ "vertex", I915_GEM_DOMAIN_VERTEX },
	{ "gtt", I915_GEM_DOMAIN_GTT },
};

uint32_t gemctl_domain_parse(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(domains); i++)
		if (!strcmp(domains[i].name, name))
			return domains[i].bit;
	return 0;
}

void gemctl_domain_format(struct strbuf *sb, uint32_t mask)
{
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(domains); i++)
		if (mask & domains[i].bit)
			strbuf_addf(sb, "%s%s", n++ ? "|" : "", domains[i].name);
	mask &= ~(uint32_t)0x7f;
	if (mask)
		strbuf_addf(sb, "%s%#x", n++ ? "|" : "", mask);
	if (!n)
		strbuf_addstr(sb, "none");
}

int gemctl_parse_hex_bytes(const char *s, struct strbuf *out)
{
	size_t i, len;

	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
		s += 2;
	len = strlen(s);
	if (!len || len % 2)
		return -EINVAL;
	for (i = 0; i < len; i += 2) {
		int hi = hex_digit(s[i]), lo = hex_digit(s[i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		strbuf_addch(out, hi << 4 | lo);
	}
	return 0;
}
