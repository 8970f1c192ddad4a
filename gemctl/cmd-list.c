/*
 * list [--client PID|COMM] [--list LIST] [--domain D] [--min-size N]
 *      [--max-size N] [--mine]: the objects of gemkit_objects, filtered as
 * gemtop filters them.  The value is the number of objects listed.
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "dfs.h"
#include "names.h"
#include "session.h"

struct list_filter {
	const char *client;
	int list;		/* -1: any */
	uint32_t domain;	/* 0: any */
	uint64_t min_size, max_size;
	uint32_t mine;		/* our file id, 0: any */
};

static bool owner_matches(const struct gdfs_object *o, const char *client)
{
	char *end;
	unsigned long pid = strtoul(client, &end, 10);
	uint32_t i;

	for (i = 0; i < o->nowners; i++) {
		if (!*end ? o->owners[i].pid == (pid_t)pid
			  : !strcmp(o->owners[i].comm, client))
			return true;
	}
	return false;
}

static bool matches(const struct gdfs_object *o, const struct list_filter *f)
{
	uint32_t i;

	if (f->list >= 0 && (int)o->list != f->list)
		return false;
	if (f->domain && !((o->read | o->write) & f->domain))
		return false;
	if (o->size < f->min_size || (f->max_size && o->size > f->max_size))
		return false;
	if (f->client && !owner_matches(o, f->client))
		return false;
	if (f->mine) {
		for (i = 0; i < o->nowners; i++)
			if (o->owners[i].file == f->mine)
				return true;
		return false;
	}
	return true;
}

static int parse_list_name(const char *s)
{
	int l;

	for (l = 0; l < GDFS_LIST_COUNT; l++)
		if (!strcmp(gdfs_list_name((enum gdfs_list)l), s))
			return l;
	return -1;
}

static const struct tool_opt list_opts[] = {
	{ "client", 0, 'c', TOOL_ARG_VALUE, "PID|COMM",
	  "objects a client holds (pid or command name)" },
	{ "list", 0, 'l', TOOL_ARG_VALUE, "LIST",
	  "objects on LIST (unbound, inactive, active, flushing, pinned)" },
	{ "domain", 0, 'd', TOOL_ARG_VALUE, "D",
	  "objects whose read or write domains include D" },
	{ "min-size", 0, 'm', TOOL_ARG_VALUE, "N",
	  "objects of at least N bytes (4K, 1M)" },
	{ "max-size", 0, 'M', TOOL_ARG_VALUE, "N",
	  "objects of at most N bytes" },
	{ "mine", 0, 'o', TOOL_ARG_NONE, NULL,
	  "only the objects this session holds" },
	TOOL_OPT_END
};

static int cmd_list(struct gemctl *ctl, int argc, char **argv)
{
	struct list_filter f = { .list = -1 };
	struct strbuf dom = STRBUF_INIT;
	char sz[24];
	struct gdfs_objects objs;
	bool mine = false;
	size_t i, shown = 0;
	int opt, ret;
	gj *doc, *arr;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		switch (opt) {
		case 'c':
			f.client = optarg;
			break;
		case 'l':
			f.list = parse_list_name(optarg);
			if (f.list < 0)
				return gemctl_error(ctl, GEMCTL_USAGE,
						    "list '%s' is not unbound, inactive, active, flushing or pinned",
						    optarg);
			break;
		case 'd':
			f.domain = gemctl_domain_parse(optarg);
			if (!f.domain)
				return gemctl_error(ctl, GEMCTL_USAGE, "unknown domain '%s'", optarg);
			break;
		case 'm':
			if ((ret = gemctl_parse_size(ctl, "size", optarg, &f.min_size)))
				return ret;
			break;
		case 'M':
			if ((ret = gemctl_parse_size(ctl, "size", optarg, &f.max_size)))
				return ret;
			break;
		case 'o':
			mine = true;
			break;
		default:
			return gemctl_usage(ctl);
		}
	}
	if (optind != argc)
		return gemctl_usage(ctl);
	if (mine) {
		f.mine = gemctl_my_file(ctl);
		if (!f.mine)
			return gemctl_error(ctl, GEMCTL_FAILED,
					    "--mine: this session has not opened the device");
	}
	if ((ret = gemctl_read_objects(ctl, &objs)))
		return ret;
	doc = gemctl_json_begin(ctl);
	arr = gj_array();
	gemctl_say(ctl, "%6s %10s %-8s %-10s %-14s %-8s %-4s %5s %5s %s\n", "ID", "SIZE",
		   "LIST", "GTT", "DOMAINS", "TILING", "FNC", "NAME", "HNDL", "OWNERS");
	for (i = 0; i < objs.n; i++) {
		const struct gdfs_object *o = &objs.v[i];
		struct strbuf own = STRBUF_INIT, gtt = STRBUF_INIT;
		uint32_t k;

		if (!matches(o, &f))
			continue;
		shown++;
		if (doc) {
			gj_push(arr, gemctl_object_json(o));
			continue;
		}
		strbuf_reset(&dom);
		gemctl_domain_format(&dom, o->read);
		if (o->write) {
			strbuf_addch(&dom, '/');
			gemctl_domain_format(&dom, o->write);
		}
		for (k = 0; k < o->nowners; k++)
			strbuf_addf(&own, "%s%s(%d):%u", k ? "," : "", o->owners[k].comm,
				    (int)o->owners[k].pid, o->owners[k].handle);
		if (o->gtt_size)
			strbuf_addf(&gtt, "0x%08x", o->gtt_offset);
		else
			strbuf_addstr(&gtt, "-");
		gemctl_say(ctl, "%6u %10s %-8s %-10s %-14s %-8s %-4d %5u %5u %s\n", o->id,
			   gemctl_size(ctl, o->size, sz), gdfs_list_name(o->list), gtt.buf,
			   dom.buf, gdfs_tiling_name(o->tiling), o->fence, o->name,
			   o->handles, own.buf);
		strbuf_release(&own);
		strbuf_release(&gtt);
	}
	gemctl_result(ctl, "%zu", shown);
	gj_uint(doc, "count", shown);
	gj_set(doc, "objects", arr);
	gemctl_json_end(ctl, doc);
	gdfs_objects_release(&objs);
	strbuf_release(&dom);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_list_entry = {
	.name = "list",
	.args = "[--client PID|COMM] [--list LIST] [--domain D] [--min-size N] [--max-size N] [--mine]",
	.summary = "list objects, filtered",
	.opts = list_opts,
	.fn = cmd_list,
	.no_device = true,
};
