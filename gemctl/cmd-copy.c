/*
 * copy SRC DST WIDTH HEIGHT [--from X,Y] [--to X,Y] [--src-pitch P]
 *      [--pitch P] [--bpp 8|16|32]: one XY_SRC_COPY_BLT.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "session.h"
#include "submit.h"

static int parse_xy(struct gemctl *ctl, const char *s, int *x, int *y)
{
	unsigned int a, b;
	char tail;

	if (sscanf(s, "%u,%u%c", &a, &b, &tail) != 2 || a > 0x7fff || b > 0x7fff)
		return gemctl_error(ctl, GEMCTL_USAGE, "bad position '%s' (X,Y)", s);
	*x = (int)a;
	*y = (int)b;
	return 0;
}

/* Options shared by fill and copy (either may pass NULL for what it lacks;
 * its table does not offer them). */
int gemctl_parse_blit_opts(struct gemctl *ctl, int argc, char **argv,
			   uint32_t *pitch, uint32_t *src_pitch, uint32_t *bpp,
			   int *sx, int *sy, int *dx, int *dy)
{
	int opt, ret;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		switch (opt) {
		case GEMCTL_BLIT_PITCH:
			ret = gemctl_parse_u32(ctl, "pitch", optarg, pitch);
			break;
		case GEMCTL_BLIT_SRC_PITCH:
			ret = src_pitch ? gemctl_parse_u32(ctl, "pitch", optarg, src_pitch)
					: gemctl_usage(ctl);
			break;
		case GEMCTL_BLIT_BPP:
			ret = gemctl_parse_u32(ctl, "bpp", optarg, bpp);
			break;
		case GEMCTL_BLIT_FROM:
			ret = sx ? parse_xy(ctl, optarg, sx, sy) : gemctl_usage(ctl);
			break;
		case GEMCTL_BLIT_TO:
			ret = dx ? parse_xy(ctl, optarg, dx, dy) : gemctl_usage(ctl);
			break;
		default:
			ret = gemctl_usage(ctl);
			break;
		}
		if (ret)
			return ret;
	}
	return 0;
}

static const struct tool_opt copy_opts[] = {
	{ "from", 0, GEMCTL_BLIT_FROM, TOOL_ARG_VALUE, "X,Y",
	  "the rectangle's corner in SRC (default 0,0)" },
	{ "to", 0, GEMCTL_BLIT_TO, TOOL_ARG_VALUE, "X,Y",
	  "the rectangle's corner in DST (default 0,0)" },
	{ "src-pitch", 0, GEMCTL_BLIT_SRC_PITCH, TOOL_ARG_VALUE, "P",
	  "SRC's bytes per row (default: --pitch)" },
	{ "pitch", 0, GEMCTL_BLIT_PITCH, TOOL_ARG_VALUE, "P",
	  "DST's bytes per row (default: from the width)" },
	{ "dst-pitch", 0, GEMCTL_BLIT_PITCH, TOOL_ARG_VALUE, "P",
	  "the same as --pitch" },
	{ "bpp", 0, GEMCTL_BLIT_BPP, TOOL_ARG_VALUE, "N",
	  "bits per pixel: 8, 16 or 32 (default 32)" },
	TOOL_OPT_END
};

static int cmd_copy(struct gemctl *ctl, int argc, char **argv)
{
	uint32_t pitch = 0, src_pitch = 0, bpp = 32, src, dst, w, h;
	int sx = 0, sy = 0, dx = 0, dy = 0, ret;
	struct gen3_surf ss, ds;
	struct gen3_batch *b;
	uint32_t handles[2];
	uint64_t flags[2];
	gj *doc;

	ret = gemctl_parse_blit_opts(ctl, argc, argv, &pitch, &src_pitch, &bpp,
				     &sx, &sy, &dx, &dy);
	if (ret)
		return ret;
	if (argc - optind != 4)
		return gemctl_usage(ctl);
	if ((ret = gemctl_parse_handle(ctl, argv[optind], &src)) ||
	    (ret = gemctl_parse_handle(ctl, argv[optind + 1], &dst)) ||
	    (ret = gemctl_parse_u32(ctl, "width", argv[optind + 2], &w)) ||
	    (ret = gemctl_parse_u32(ctl, "height", argv[optind + 3], &h)))
		return ret;
	if (!w || !h || w > 0x7fff || h > 0x7fff)
		return gemctl_error(ctl, GEMCTL_USAGE, "bad size %ux%u", w, h);
	if ((ret = gemctl_surface(ctl, src, src_pitch ? src_pitch : pitch, bpp,
				  sx + w, &ss)) ||
	    (ret = gemctl_surface(ctl, dst, pitch, bpp, dx + w, &ds)))
		return ret;
	if ((ss.size && !ss.tiling && (uint64_t)ss.pitch * (sy + h) > ss.size) ||
	    (ds.size && !ds.tiling && (uint64_t)ds.pitch * (dy + h) > ds.size))
		return gemctl_error(ctl, GEMCTL_USAGE,
				    "the rectangle does not fit in the objects at pitch %u/%u",
				    ss.pitch, ds.pitch);
	b = malloc(sizeof(*b));
	if (!b)
		return gemctl_error(ctl, GEMCTL_FAILED, "out of memory");
	gen3_batch_reset(b);
	gen3_emit_copy_blt(b, &ds, dx, dy, &ss, sx, sy, (int)w, (int)h);
	gen3_batch_end(b);
	handles[0] = src;
	handles[1] = dst;
	flags[0] = gemctl_surface_flags(&ss);
	flags[1] = gemctl_surface_flags(&ds);
	ret = gemctl_submit(ctl, b, handles, flags, src == dst ? 1 : 2, NULL);
	free(b);
	if (ret)
		return ret;
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "src", src);
	gj_uint(doc, "dst", dst);
	gj_uint(doc, "width", w);
	gj_uint(doc, "height", h);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_copy_entry = {
	.name = "copy",
	.args = "SRC DST WIDTH HEIGHT [--from X,Y] [--to X,Y] [--src-pitch P] [--pitch P] [--bpp N]",
	.summary = "copy a rectangle with the blitter (XY_SRC_COPY_BLT)",
	.opts = copy_opts,
	.complete = GEMCTL_COMPLETE_HANDLE,
	.fn = cmd_copy,
};
