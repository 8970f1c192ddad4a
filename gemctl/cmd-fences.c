/*
 * fences [--all]: the fence registers and the objects holding them, from
 * gemkit_objects: the register, the object, its GTT range, tiling and
 * stride.  On gen3 a fence is what lets the GPU and GTT mappings see a
 * tiled object linearly, and there are only 16, so this is where a
 * workload that thrashes them shows it.  --all lists the free registers
 * too.  The value is the number of registers in use.
 */
#include "commands.h"
#include "dfs.h"
#include "session.h"

static const struct tool_opt fences_opts[] = {
	{ "all", 0, 'a', TOOL_ARG_NONE, NULL,
	  "list the free registers too" },
	TOOL_OPT_END
};

static void fence_line(struct gemctl *ctl, int reg, const struct gdfs_object *o)
{
	if (!o) {
		gemctl_say(ctl, "%5d %7s\n", reg, "-");
		return;
	}
	gemctl_say(ctl, "%5d %7u 0x%08x %9llu %-6s %6u %3u\n", reg, o->id, o->gtt_offset,
		   (unsigned long long)o->gtt_size, gdfs_tiling_name(o->tiling),
		   o->stride, o->pin);
}

static gj *fence_json(int reg, const struct gdfs_object *o)
{
	gj *j = gj_object();

	gj_int(j, "fence", reg);
	gj_uint(j, "object", o->id);
	gj_uint(j, "gtt_offset", o->gtt_offset);
	gj_uint(j, "gtt_size", o->gtt_size);
	gj_str(j, "tiling", gdfs_tiling_name(o->tiling));
	gj_uint(j, "stride", o->stride);
	gj_uint(j, "pin", o->pin);
	return j;
}

static int cmd_fences(struct gemctl *ctl, int argc, char **argv)
{
	const struct gdfs_object *held[GEN3_NUM_FENCES] = { NULL };
	struct gdfs_objects objs;
	bool all = false;
	unsigned int used = 0;
	gj *doc, *arr;
	size_t i;
	int opt, ret;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		if (opt != 'a')
			return gemctl_usage(ctl);
		all = true;
	}
	if (optind != argc)
		return gemctl_usage(ctl);
	if ((ret = gemctl_read_objects(ctl, &objs)))
		return ret;
	for (i = 0; i < objs.n; i++) {
		int32_t reg = objs.v[i].fence;

		if (reg >= 0 && reg < GEN3_NUM_FENCES && !held[reg]) {
			held[reg] = &objs.v[i];
			used++;
		}
	}
	gemctl_say(ctl, "%5s %7s %-10s %9s %-6s %6s %3s\n", "FENCE", "OBJ", "OFFSET",
		   "SIZE", "TILING", "STRIDE", "PIN");
	doc = gemctl_json_begin(ctl);
	arr = doc ? gj_array() : NULL;
	for (i = 0; i < GEN3_NUM_FENCES; i++) {
		if (held[i] || all)
			fence_line(ctl, (int)i, held[i]);
		if (held[i])
			gj_push(arr, fence_json((int)i, held[i]));
	}
	gemctl_say(ctl, "%u of %u in use\n", used, GEN3_NUM_FENCES);
	gj_uint(doc, "total", GEN3_NUM_FENCES);
	gj_uint(doc, "used", used);
	gj_set(doc, "fences", arr);
	gemctl_json_end(ctl, doc);
	gemctl_result(ctl, "%u", used);
	gdfs_objects_release(&objs);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_fences_entry = {
	.name = "fences",
	.args = "[--all]",
	.summary = "the fence registers and the objects holding them",
	.opts = fences_opts,
	.fn = cmd_fences,
	.no_device = true,
};
