/*
 * libFuzzer: gemdump's batch input reader (binary or "%08x : %08x" text)
 * and its gen3 command walker, as decode --summary/--json use them.
 */
#include <stdint.h>
#include <stdlib.h>

#include "batch.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct gd_cmdinfo ci;
	struct gd_dwords d;
	uint32_t addr[2], idx[2];
	size_t i = 0;

	if (gd_parse_dwords((const char *)data, size, &d, &err) == 0) {
		while (i < d.n) {
			gd_command_info(&d.v[i], d.n - i, &ci);
			if (ci.len <= d.n - i)
				gd_cmd_addresses(&d.v[i], &ci, addr, idx, 2);
			i += MIN((size_t)ci.len, d.n - i);
		}
		gd_dwords_release(&d);
	}
	strbuf_release(&err);
	return 0;
}
