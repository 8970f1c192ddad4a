/* Names of uAPI values as gemctl prints and parses them. */
#ifndef GEMKIT_GEMCTL_NAMES_H
#define GEMKIT_GEMCTL_NAMES_H

#include <stdint.h>

#include "strbuf.h"

/* "cpu", "gtt", "render", ... or a number: I915_GEM_DOMAIN_* bit, 0 if
 * unknown. */
uint32_t gemctl_domain_parse(const char *name);
/* "render|sampler", or "none". */
void gemctl_domain_format(struct strbuf *sb, uint32_t mask);
/* Parse hex bytes ("0xdeadbeef" -> de ad be ef); 0 or -EINVAL. */
int gemctl_parse_hex_bytes(const char *s, struct strbuf *out);

#endif
