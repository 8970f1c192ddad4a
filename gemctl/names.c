/* Domain names. */
#include <errno.h>
#include <string.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemdebugfs.h"
#include "names.h"
#include "util.h"

/* gdfs_domain_names[i] names bit i. */
_Static_assert(I915_GEM_DOMAIN_CPU == 1 << 0 && I915_GEM_DOMAIN_RENDER == 1 << 1 &&
	       I915_GEM_DOMAIN_SAMPLER == 1 << 2 && I915_GEM_DOMAIN_COMMAND == 1 << 3 &&
	       I915_GEM_DOMAIN_INSTRUCTION == 1 << 4 && I915_GEM_DOMAIN_VERTEX == 1 << 5 &&
	       I915_GEM_DOMAIN_GTT == 1 << 6, "I915_GEM_DOMAIN_* are gdfs_domain_names' bits");

uint32_t gemctl_domain_parse(const char *name)
{
	int i = gdfs_name_lookup(gdfs_domain_names, name, false);

	return i < 0 ? 0 : 1u << i;
}

void gemctl_domain_format(struct strbuf *sb, uint32_t mask)
{
	size_t i, n = 0;

	for (i = 0; i < GDFS_DOMAIN_COUNT; i++)
		if (mask & (1u << i))
			strbuf_addf(sb, "%s%s", n++ ? "|" : "", gdfs_domain_names[i]);
	mask &= ~(uint32_t)((1u << GDFS_DOMAIN_COUNT) - 1);
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
