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
	char buf[65536];
	int fd = 0, ret = 0;
	ssize_t n;

	if (path && strcmp(path, "-")) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
	}
	for (;;) {
		n = xread(fd, buf, sizeof(buf));
		if (n < 0) {
			ret = (int)n;
			break;
		}
		if (n == 0)
			break;
		if (out->len + (size_t)n > max) {
			ret = -EFBIG;
			break;
		}
		if (strbuf_add(out, buf, (size_t)n)) {
			ret = -ENOMEM;
			break;
		}
	}
	if (fd)
		close(fd);
	return ret;
}
