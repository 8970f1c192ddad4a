/*
 * fill H X1 Y1 X2 Y2 COLOR [--pitch P] [--bpp 8|16|32]: one XY_COLOR_BLT
 * (x2, y2 exclusive).  The pitch defaults to X2 * cpp rounded up to 64.
 */
#include <stdlib.h>

#include "commands.h"
#include "json.h"
#include "session.h"
#include "submit.h"

static int check_fits(struct gemctl *ctl, const struct gen3_surf *s, int y2)
{
	uint64_t need = (uint64_t)s->pitch * (uint64_t)y2;

	if (s->size && s->tiling == 0 && need > s->size)
		return gemctl_error(ctl, GEMCTL_USAGE,
				    "the rectangle needs %llu bytes at pitch %u; handle %u has %llu",
				    (unsigned long long)need, s->pitch, s->handle,
				    (unsigned long long)s->size);
	return 0;
}

static const struct tool_opt fill_opts[] = {
	{ "pitch", 0, GEMCTL_BLIT_PITCH, TOOL_ARG_VALUE, "P",
	  "bytes per row (default: X2 x cpp rounded up to 64)" },
	{ "bpp", 0, GEMCTL_BLIT_BPP, TOOL_ARG_VALUE, "8|16|32",
	  "bits per pixel (default 32)" },
	TOOL_OPT_END
};

static int cmd_fill(struct gemctl *ctl, int argc, char **argv)
{
	uint32_t pitch = 0, bpp = 32, handle, color, v[4];
	uint64_t flags;
	struct gen3_batch *b;
	struct gen3_rect r;
	struct gen3_surf s;
	int i, ret;
	gj *doc;

	ret = gemctl_parse_blit_opts(ctl, argc, argv, &pitch, NULL, &bpp,
				     NULL, NULL, NULL, NULL);
	if (ret)
		return ret;
	if (argc - optind != 6)
		return gemctl_usage(ctl);
	if ((ret = gemctl_parse_handle(ctl, argv[optind], &handle)))
		return ret;
	for (i = 0; i < 4; i++)
		if ((ret = gemctl_parse_u32(ctl, "coordinate", argv[optind + 1 + i], &v[i])))
			return ret;
	if ((ret = gemctl_parse_u32(ctl, "color", argv[optind + 5], &color)))
		return ret;
	if (v[0] >= v[2] || v[1] >= v[3] || v[2] > 0x7fff || v[3] > 0x7fff)
		return gemctl_error(ctl, GEMCTL_USAGE,
				    "bad rectangle %u,%u-%u,%u (x1 < x2, y1 < y2, below 32768)",
				    v[0], v[1], v[2], v[3]);
	r = (struct gen3_rect){ (int)v[0], (int)v[1], (int)v[2], (int)v[3] };
	if ((ret = gemctl_surface(ctl, handle, pitch, bpp, v[2], &s)))
		return ret;
	if ((ret = check_fits(ctl, &s, r.y2)))
		return ret;
	b = malloc(sizeof(*b));
	if (!b)
		return gemctl_error(ctl, GEMCTL_FAILED, "out of memory");
	gen3_batch_reset(b);
	gen3_emit_color_blt(b, &s, &r, color);
	gen3_batch_end(b);
	flags = gemctl_surface_flags(&s);
	ret = gemctl_submit(ctl, b, &handle, &flags, 1, NULL);
	free(b);
	if (ret)
		return ret;
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "handle", handle);
	gj_uint(doc, "pitch", s.pitch);
	gj_uint(doc, "bpp", bpp);
	gj_uint(doc, "color", color);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_fill_entry = {
	.name = "fill",
	.args = "H X1 Y1 X2 Y2 COLOR [--pitch P] [--bpp 8|16|32]",
	.summary = "fill a rectangle with the blitter (XY_COLOR_BLT)",
	.opts = fill_opts,
	.complete = GEMCTL_COMPLETE_HANDLE,
	.fn = cmd_fill,
};
