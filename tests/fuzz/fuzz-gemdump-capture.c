/* libFuzzer: gemdump's capture reader (gd_capture_parse) on any bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where the touched bytes go, so the reads are not optimised away. */
static volatile uint32_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct gd_capture c;
	void *buf = malloc(size ? size : 1);
	size_t i, j;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (gd_capture_parse(buf, size, &c, &err) == 0) {
		/* Touch every byte the reader vouched for. */
		for (i = 0; i < c.nobjects; i++) {
			const uint8_t *p = gd_capture_data(&c, &c.objects[i]);

			for (j = 0; p && j < c.objects[i].size; j += 512)
				sink += p[j];
			if (p && c.objects[i].size)
				sink += p[c.objects[i].size - 1];
			gd_capture_find_addr(&c, c.objects[i].gtt_offset);
		}
		gd_capture_release(&c);
	}
	strbuf_release(&err);
	return 0;
}
