/*
 * libFuzzer: an error-state text into a capture -- the ascii85 and zlib
 * decoders, libgemdebugfs's gdfs_parse_error_state and the conversion --
 * then the capture written out and read back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "capture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct gd_capture c;

	if (gd_capture_from_error_state((const char *)data, size, "fuzz", &c, &err) == 0)
		gd_capture_release(&c);
	strbuf_release(&err);
	return 0;
}
