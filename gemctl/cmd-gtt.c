/* gtt [--holes]: the aperture map (ranges and, with --holes, the holes)
 * and its summary, from gemkit_gtt.  The value is the free bytes. */

#include "commands.h"
#include "dfs.h"
#include "session.h"

static const struct tool_opt gtt_opts[] = {
	{ "holes", 0, 'h', TOOL_ARG_NONE, NULL,
	  "list the holes as well as the ranges" },
	TOOL_OPT_END
};

static int cmd_gtt(struct gemctl *ctl, int argc, char **argv)
{
	struct gdfs_gtt g;
	bool holes = false;
	int opt, ret;
	gj *doc, *arr;
	size_t i;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		if (opt != 'h')
			return gemctl_usage(ctl);
		holes = true;
	}
	if (optind != argc)
		return gemctl_usage(ctl);
	if ((ret = gemctl_read_gtt(ctl, &g)))
		return ret;
	doc = gemctl_json_begin(ctl);
	arr = gj_array();
	for (i = 0; i < g.n; i++) {
		const struct gdfs_gtt_range *r = &g.v[i];

		if (r->hole && !holes)
			continue;
		if (doc) {
			gj *j = gj_object();

			gj_str(j, "kind", r->hole ? "hole" : "range");
			gj_uint(j, "start", r->start);
			gj_uint(j, "size", r->size);
			if (!r->hole) {
				gj_uint(j, "obj", r->obj);
				gj_uint(j, "obj_size", r->obj_size);
				gj_uint(j, "pin", r->pin);
				gj_str(j, "list", gdfs_list_name(r->list));
				gj_int(j, "fence", r->fence);
			}
			gj_push(arr, j);
		} else if (r->hole) {
			gemctl_say(ctl, "0x%08llx-0x%08llx %10llu hole\n",
				   (unsigned long long)r->start,
				   (unsigned long long)(r->start + r->size),
				   (unsigned long long)r->size);
		} else {
			gemctl_say(ctl, "0x%08llx-0x%08llx %10llu obj %u %s%s fence %d\n",
				   (unsigned long long)r->start,
				   (unsigned long long)(r->start + r->size),
				   (unsigned long long)r->size, r->obj,
				   gdfs_list_name(r->list), r->pin ? " pinned" : "", r->fence);
		}
	}
	gemctl_say(ctl, "total %llu used %llu free %llu largest hole %llu pinned %llu "
		   "evictable %llu; %llu ranges, %llu holes\n",
		   (unsigned long long)g.total, (unsigned long long)g.used,
		   (unsigned long long)g.free, (unsigned long long)g.largest_hole,
		   (unsigned long long)g.pinned, (unsigned long long)g.evictable,
		   (unsigned long long)g.ranges, (unsigned long long)g.holes);
	gemctl_result(ctl, "%llu", (unsigned long long)g.free);
	gj_set(doc, "map", arr);
	gj_uint(doc, "total", g.total);
	gj_uint(doc, "used", g.used);
	gj_uint(doc, "free", g.free);
	gj_uint(doc, "largest_hole", g.largest_hole);
	gj_uint(doc, "pinned", g.pinned);
	gj_uint(doc, "evictable", g.evictable);
	gj_uint(doc, "ranges", g.ranges);
	gj_uint(doc, "holes", g.holes);
	gemctl_json_end(ctl, doc);
	gdfs_gtt_release(&g);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_gtt_entry = {
	.name = "gtt",
	.args = "[--holes]",
	.summary = "the aperture map and its summary",
	.opts = gtt_opts,
	.fn = cmd_gtt,
	.no_device = true,
};
