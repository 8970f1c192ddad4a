/*
 * inspect H | --id N: everything gemkit_objects says about one object.  H
 * is a handle of this session (found through the object's owners); --id
 * takes the driver's global object id (as `list` shows).
 */

#include "commands.h"
#include "dfs.h"
#include "names.h"
#include "session.h"

static const struct gdfs_object *find_by_handle(struct gdfs_objects *objs,
						uint32_t file, uint32_t handle)
{
	size_t i;
	uint32_t k;

	for (i = 0; i < objs->n; i++)
		for (k = 0; k < objs->v[i].nowners; k++)
			if (objs->v[i].owners[k].file == file &&
			    objs->v[i].owners[k].handle == handle)
				return &objs->v[i];
	return NULL;
}

static void print_object(struct gemctl *ctl, const struct gdfs_object *o)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t k;

	gemctl_say(ctl, "object %u\n  size %llu\n  list %s\n", o->id,
		   (unsigned long long)o->size, gdfs_list_name(o->list));
	if (o->gtt_size)
		gemctl_say(ctl, "  gtt 0x%08x size %llu\n", o->gtt_offset,
			   (unsigned long long)o->gtt_size);
	else
		gemctl_say(ctl, "  gtt unbound\n");
	gemctl_domain_format(&sb, o->read);
	strbuf_addstr(&sb, " write ");
	gemctl_domain_format(&sb, o->write);
	gemctl_say(ctl, "  domains read %s\n", sb.buf);
	gemctl_say(ctl, "  pin %u (user %u)\n  fence %d\n  tiling %s stride %u\n"
		   "  madv %s\n  cache %s\n  dirty %d active %d\n"
		   "  last seqno read %u write %u\n  flink name %u\n  handles %u\n"
		   "  creator pid %d\n  binds %llu evicts %llu\n",
		   o->pin, o->user_pin, o->fence, gdfs_tiling_name(o->tiling),
		   o->stride, gdfs_madv_name(o->madv), gdfs_cache_name(o->cache),
		   o->dirty, o->active, o->last_read_seqno, o->last_write_seqno,
		   o->name, o->handles, (int)o->creator_pid,
		   (unsigned long long)o->binds, (unsigned long long)o->evicts);
	for (k = 0; k < o->nowners; k++)
		gemctl_say(ctl, "  owner file %u pid %d (%s) handle %u\n", o->owners[k].file,
			   (int)o->owners[k].pid, o->owners[k].comm, o->owners[k].handle);
	strbuf_release(&sb);
}

static const struct tool_opt inspect_opts[] = {
	{ "id", 0, 'i', TOOL_ARG_VALUE, "N",
	  "the object with the driver's id N (as list shows)" },
	TOOL_OPT_END
};

static int cmd_inspect(struct gemctl *ctl, int argc, char **argv)
{
	const struct gdfs_object *o;
	struct gdfs_objects objs;
	uint32_t id = 0, handle = 0, file = 0;
	bool by_id = false;
	int opt, ret;
	gj *doc;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		if (opt != 'i')
			return gemctl_usage(ctl);
		if ((ret = gemctl_parse_u32(ctl, "object id", optarg, &id)))
			return ret;
		by_id = true;
	}
	if (argc - optind != (by_id ? 0 : 1))
		return gemctl_usage(ctl);
	if (!by_id) {
		if ((ret = gemctl_parse_handle(ctl, argv[optind], &handle)))
			return ret;
		file = gemctl_my_file(ctl);
		if (!file)
			return gemctl_no_handle(ctl, handle,
						"this gemctl holds no handles: keep them across "
						"runs with -S NAME, or use --id");
	}
	if ((ret = gemctl_read_objects(ctl, &objs)))
		return ret;
	o = by_id ? gdfs_objects_find(&objs, id) : find_by_handle(&objs, file, handle);
	if (!o) {
		gdfs_objects_release(&objs);
		if (by_id)
			return gemctl_error(ctl, GEMCTL_FAILED, "no object with id %u", id);
		return gemctl_no_handle(ctl, handle, NULL);
	}
	gemctl_result(ctl, "%u", o->id);
	print_object(ctl, o);
	doc = gemctl_json_begin(ctl);
	if (doc) {
		if (!by_id)
			gj_uint(doc, "handle", handle);
		gj_set(doc, "object", gemctl_object_json(o));
	}
	gemctl_json_end(ctl, doc);
	gdfs_objects_release(&objs);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_inspect_entry = {
	.name = "inspect",
	.args = "H | --id N",
	.summary = "everything the driver says about one object",
	.opts = inspect_opts,
	.complete = GEMCTL_COMPLETE_HANDLE,
	.fn = cmd_inspect,
	.no_device = true,
};
