/*
 * read H [--offset N] [--length N] [-o FILE | --hex]
 *
 * Raw bytes to stdout (or FILE), or a hex dump.  The length defaults to the
 * rest of the object when this session knows its size.  Assigned to a
 * variable, the value is the bytes in hex.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "commands.h"
#include "json.h"
#include "session.h"
#include "util.h"

static void hex_string(struct strbuf *sb, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		strbuf_addf(sb, "%02x", p[i]);
}

static void hexdump(const uint8_t *p, size_t n, uint64_t base)
{
	size_t i, j;

	for (i = 0; i < n; i += 16) {
		printf("%08llx:", (unsigned long long)(base + i));
		for (j = i; j < i + 16 && j < n; j++)
			printf(" %02x", p[j]);
		putchar('\n');
	}
}

static const struct tool_opt read_opts[] = {
	{ "offset", 0, 'f', TOOL_ARG_VALUE, "N",
	  "start at byte N of the object (default 0)" },
	{ "length", 0, 'l', TOOL_ARG_VALUE, "N",
	  "read N bytes (default: to the end of the object)" },
	{ "output", 'o', 'o', TOOL_ARG_FILE, "FILE",
	  "write the bytes to FILE (default: stdout)" },
	{ "hex", 0, 'x', TOOL_ARG_NONE, NULL,
	  "print a hex dump" },
	TOOL_OPT_END
};

static int cmd_read(struct gemctl *ctl, int argc, char **argv)
{
	struct drm_i915_gem_pread pr = { 0 };
	uint64_t offset = 0, length = 0, size;
	const char *output = NULL;
	bool have_length = false, hex = false;
	struct strbuf sb = STRBUF_INIT;
	uint8_t *buf = NULL;
	uint32_t handle;
	int opt, ret;
	gj *doc;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		switch (opt) {
		case 'f':
			if ((ret = gemctl_parse_size(ctl, "offset", optarg, &offset)))
				return ret;
			break;
		case 'l':
			if ((ret = gemctl_parse_size(ctl, "length", optarg, &length)))
				return ret;
			have_length = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'x':
			hex = true;
			break;
		default:
			return gemctl_usage(ctl);
		}
	}
	if (argc - optind != 1 || (hex && output))
		return gemctl_usage(ctl);
	if ((ret = gemctl_parse_handle(ctl, argv[optind], &handle)))
		return ret;
	if (!have_length) {
		size = gemctl_handle_size(ctl, handle);
		if (!size || offset >= size)
			return gemctl_error(ctl, GEMCTL_USAGE,
					    "give --length: the size of handle %u is not known to this session",
					    handle);
		length = size - offset;
	}
	if (length > (1ull << 31))
		return gemctl_error(ctl, GEMCTL_USAGE, "length %llu is too large",
				    (unsigned long long)length);
	buf = malloc(length ? length : 1);
	if (!buf)
		return gemctl_error(ctl, GEMCTL_FAILED, "%s", strerror(ENOMEM));
	pr.handle = handle;
	pr.offset = offset;
	pr.size = length;
	pr.data_ptr = (uintptr_t)buf;
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_PREAD, &pr);
	if (ret) {
		ret = gemctl_handle_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_PREAD", -ret, handle,
					 "handle %u offset %llu length %llu", handle,
					 (unsigned long long)offset,
					 (unsigned long long)length);
		goto out;
	}
	ret = GEMCTL_OK;
	if (ctl->capture) {
		hex_string(&sb, buf, length);
		gemctl_result(ctl, "%s", sb.buf);
	} else if (ctl->json) {
		doc = gemctl_json_begin(ctl);
		hex_string(&sb, buf, length);
		gj_uint(doc, "handle", handle);
		gj_uint(doc, "offset", offset);
		gj_uint(doc, "length", length);
		gj_str(doc, "data_hex", sb.buf);
		gemctl_json_end(ctl, doc);
	} else if (output) {
		int fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		ssize_t w = fd < 0 ? -errno : write_full(fd, buf, length);

		if (w < 0)
			ret = gemctl_error(ctl, GEMCTL_FAILED, "cannot write %s: %s",
					   output, strerror((int)-w));
		if (fd >= 0)
			close(fd);
	} else if (hex) {
		hexdump(buf, length, offset);
	} else {
		ssize_t w;

		fflush(stdout);
		w = write_full(STDOUT_FILENO, buf, length);
		if (w < 0)
			ret = gemctl_error(ctl, GEMCTL_FAILED, "cannot write stdout: %s",
					   strerror((int)-w));
	}
out:
	strbuf_release(&sb);
	free(buf);
	return ret;
}

const struct gemctl_cmd cmd_read_entry = {
	.name = "read",
	.args = "H [--offset N] [--length N] [-o FILE|--hex]",
	.summary = "read bytes from an object (pread)",
	.opts = read_opts,
	.complete = GEMCTL_COMPLETE_HANDLE,
	.fn = cmd_read,
};
