/*
 * gemdump find: which object holds a GTT address.  As freedreno's
 * crashdec marks them: "==" the object containing it, ">=" the object
 * it lies just past (a fault one beyond the end of a buffer).
 */
#include <getopt.h>
#include <inttypes.h>

#include "core.h"
#include "gemdump.h"
#include "objmap.h"

static int run(struct gd_ctx *ctx, int argc, char **argv)
{
	const struct gd_objmap_ent *e, *border;
	struct gd_objmap map;
	struct gd_capture c;
	uint64_t addr;
	int ret;

	static const struct option no_opts[] = { { NULL, 0, NULL, 0 } };

	if (getopt_long(argc, argv, "", no_opts, NULL) != -1)
		return gd_option_error(ctx, no_opts, "", argc, argv);
	if (argc - optind != 2)
		return gd_usage_error(ctx, "a capture file and an address expected");
	if (parse_u64(argv[optind + 1], &addr))
		return gd_usage_error(ctx, "invalid address '%s'", argv[optind + 1]);
	if (gd_load_capture(ctx, argv[optind], &c))
		return GD_EXIT_FAIL;
	if (gd_objmap_from_capture(&map, &c)) {
		gd_capture_release(&c);
		return gd_error(ctx, "out of memory");
	}
	e = gd_objmap_find(&map, addr, &border);
	ret = GD_EXIT_OK;
	if (c.device.aperture && addr >= c.device.aperture) {
		/* No object can border an address the GTT does not map. */
		printf("0x%08" PRIx64 ": outside the aperture [0, 0x%08" PRIx64 ")\n",
		       addr, c.device.aperture);
		ret = GD_EXIT_FAIL;
	} else if (e) {
		printf("0x%08" PRIx64 " == obj %u [0x%08" PRIx64 ", 0x%08" PRIx64 ") + 0x%" PRIx64 "\n",
		       addr, e->id, e->start, e->start + e->size, addr - e->start);
		gd_print_object_header();
		gd_print_object(ctx, &c, gd_capture_find_id(&c, e->id));
	} else if (border) {
		printf("0x%08" PRIx64 " >= obj %u [0x%08" PRIx64 ", 0x%08" PRIx64 "): 0x%" PRIx64
		       " bytes past its end\n", addr, border->id, border->start,
		       border->start + border->size, addr - border->start - border->size);
		gd_print_object_header();
		gd_print_object(ctx, &c, gd_capture_find_id(&c, border->id));
	} else {
		printf("0x%08" PRIx64 ": no object\n", addr);
		ret = GD_EXIT_FAIL;
	}
	gd_objmap_release(&map);
	gd_capture_release(&c);
	return ret;
}

const struct gd_cmd gd_cmd_find = {
	.name = "find",
	.args = "FILE ADDR",
	.summary = "which object of a capture holds (==) or borders (>=) a GTT address",
	.options = "",
	.complete = "",
	.run = run,
};
