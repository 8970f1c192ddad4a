/* Reading input files and numbers: shared by the commands and the fuzzers. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gemdump.h"
#include "util.h"

int gd_read_file(const char *path, size_t max, struct strbuf *out)
{
	long n = strbuf_read_path(out, path, max);

	return n < 0 ? (int)n : 0;
}
