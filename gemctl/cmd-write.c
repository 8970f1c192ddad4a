/*
 * write H [--offset N] [--length N] (FILE | - | --pattern HEX | --fill BYTE)
 *
 * FILE (or - for stdin) is written as is at the offset.  --pattern's hex
 * digits are bytes in order ("0xdeadbeef": de ad be ef), repeated; --fill
 * repeats one byte.  Both cover --length bytes, by default to the end of
 * the object (known for handles this session created or opened).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "commands.h"
#include "json.h"
#include "names.h"
#include "session.h"

static const struct tool_opt write_opts[] = {
	{ "offset", 0, 'o', TOOL_ARG_VALUE, "N",
	  "start at byte N of the object (default 0)" },
	{ "length", 0, 'l', TOOL_ARG_VALUE, "N",
	  "write N bytes (default: to the end of the object)" },
	{ "pattern", 0, 'p', TOOL_ARG_VALUE, "HEX",
	  "repeat these bytes (0xdeadbeef: de ad be ef)" },
	{ "fill", 0, 'f', TOOL_ARG_VALUE, "BYTE",
	  "repeat one byte" },
	TOOL_OPT_END
};

static int cmd_write(struct gemctl *ctl, int argc, char **argv)
{
	struct drm_i915_gem_pwrite pw = { 0 };
	struct strbuf unit = STRBUF_INIT, data = STRBUF_INIT;
	uint64_t offset = 0, length = 0, size, i;
	bool have_length = false, repeat = false;
	uint32_t handle;
	int opt, ret = GEMCTL_USAGE;
	gj *doc;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		switch (opt) {
		case 'o':
			if ((ret = gemctl_parse_size(ctl, "offset", optarg, &offset)))
				goto out;
			break;
		case 'l':
			if ((ret = gemctl_parse_size(ctl, "length", optarg, &length)))
				goto out;
			have_length = true;
			break;
		case 'p':
			repeat = true;
			strbuf_reset(&unit);
			if (gemctl_parse_hex_bytes(optarg, &unit) < 0) {
				ret = gemctl_error(ctl, GEMCTL_USAGE,
						   "bad pattern '%s' (hex bytes)", optarg);
				goto out;
			}
			break;
		case 'f': {
			uint32_t b;

			if ((ret = gemctl_parse_u32(ctl, "fill byte", optarg, &b)))
				goto out;
			if (b > 0xff) {
				ret = gemctl_error(ctl, GEMCTL_USAGE, "fill byte %u > 0xff", b);
				goto out;
			}
			repeat = true;
			strbuf_reset(&unit);
			strbuf_addch(&unit, (int)b);
			break;
		}
		default:
			ret = gemctl_usage(ctl);
			goto out;
		}
	}
	ret = GEMCTL_USAGE;
	if (argc - optind != (repeat ? 1 : 2)) {
		gemctl_usage(ctl);
		goto out;
	}
	if ((ret = gemctl_parse_handle(ctl, argv[optind], &handle)))
		goto out;
	if (repeat) {
		size = gemctl_handle_size(ctl, handle);
		if (!have_length) {
			if (!size || offset >= size) {
				ret = gemctl_error(ctl, GEMCTL_USAGE,
						   "give --length: the size of handle %u is not known to this session",
						   handle);
				goto out;
			}
			length = size - offset;
		}
		for (i = 0; i < length; i++)
			if (strbuf_addch(&data, unit.buf[i % unit.len]) < 0)
				break;
	} else {
		if ((ret = gemctl_read_input(ctl, argv[optind + 1], &data)))
			goto out;
		if (have_length && length < data.len)
			strbuf_setlen(&data, length);
	}
	pw.handle = handle;
	pw.offset = offset;
	pw.size = data.len;
	pw.data_ptr = (uintptr_t)data.buf;
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_PWRITE, &pw);
	if (ret) {
		ret = gemctl_handle_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_PWRITE", -ret, handle,
					 "handle %u offset %llu length %zu", handle,
					 (unsigned long long)offset, data.len);
		goto out;
	}
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "handle", handle);
	gj_uint(doc, "offset", offset);
	gj_uint(doc, "length", data.len);
	gemctl_json_end(ctl, doc);
	ret = GEMCTL_OK;
out:
	strbuf_release(&unit);
	strbuf_release(&data);
	return ret;
}

const struct gemctl_cmd cmd_write_entry = {
	.name = "write",
	.args = "H [--offset N] [--length N] (FILE|-|--pattern HEX|--fill BYTE)",
	.summary = "write bytes into an object (pwrite)",
	.opts = write_opts,
	.complete = GEMCTL_COMPLETE_HANDLE | GEMCTL_COMPLETE_FILE,
	.fn = cmd_write,
};
