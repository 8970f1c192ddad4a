/* gemdump list: a capture's objects, in gemtop's columns. */
#include <getopt.h>
#include <inttypes.h>
#include <string.h>

#include "core.h"
#include "gemdebugfs.h"
#include "gemdump.h"
#include "json-out.h"
#include "units.h"
#include "util.h"

/*
 * gemtop's columns and letters (gemtop/format.c), so the two read alike:
 * DOMAINS read domains in lower case / the write domain in upper case
 * (c cpu, r render, s sampler, m command, i instruction, v vertex, g gtt);
 * FLAGS six places, '.' when clear: P pinned (p kernel pin only), F
 * fenced, X/Y tiled, D dirty, U purgeable (E purged), A active.  SIZE is
 * exact bytes here, for scripts.  gemdump adds DUMP: R ring, B the error
 * state's batch, c contents captured.
 */
static void flags_str(const struct gd_rec_object *o, char *f)
{
	f[0] = o->user_pin ? 'P' : o->pin ? 'p' : '.';
	f[1] = o->fence >= 0 ? 'F' : '.';
	f[2] = o->tiling != GDFS_TILING_NONE ? gdfs_tiling_letter((enum gdfs_tiling)o->tiling) : '.';
	f[3] = o->flags & GD_OBJ_DIRTY ? 'D' : '.';
	f[4] = o->madv == 1 ? 'U' : o->madv == 2 ? 'E' : '.';
	f[5] = o->flags & GD_OBJ_ACTIVE ? 'A' : '.';
	f[6] = '\0';
}

static void dump_str(const struct gd_rec_object *o, bool captured, char *f)
{
	f[0] = o->flags & GD_OBJ_RING ? 'R' : '.';
	f[1] = o->flags & GD_OBJ_BATCH ? 'B' : '.';
	f[2] = captured ? 'c' : '.';
	f[3] = '\0';
}

/* "pid/comm" of the object's first owner, "+N" for more; "-" for none. */
static void owner_str(const struct gd_capture *c, const struct gd_rec_object *o,
		      char *out, size_t size)
{
	size_t i;

	for (i = 0; i < c->nowners; i++) {
		if (c->owners[i].obj != o->id)
			continue;
		if (o->nowners > 1)
			snprintf(out, size, "%d/%s+%u", c->owners[i].pid, c->owners[i].comm,
				 o->nowners - 1);
		else
			snprintf(out, size, "%d/%s", c->owners[i].pid, c->owners[i].comm);
		return;
	}
	snprintf(out, size, "-");
}

void gd_print_object_header(void)
{
	printf("%8s %10s %-8s %-9s %-10s %-6s %7s %7s %-20s %5s %4s\n", "ID", "SIZE",
	       "LIST", "DOMAINS", "OFFSET", "FLAGS", "RSEQ", "WSEQ", "CLIENT", "NAME", "DUMP");
}

void gd_print_object(const struct gd_ctx *ctx, const struct gd_capture *c,
		     const struct gd_rec_object *o)
{
	char dom[20], gtt[16], fl[8], dump[4], own[40], size[24];

	gdfs_domains_str(o->read, o->write, dom, sizeof(dom));
	if (o->flags & GD_OBJ_BOUND)
		snprintf(gtt, sizeof(gtt), "0x%08" PRIx64, o->gtt_offset);
	else
		snprintf(gtt, sizeof(gtt), "-");
	flags_str(o, fl);
	dump_str(o, gd_capture_data(c, o) != NULL, dump);
	owner_str(c, o, own, sizeof(own));
	if (ctx->human)
		tool_fmt_size(size, sizeof(size), o->size);
	else
		snprintf(size, sizeof(size), "%" PRIu64, o->size);
	printf("%8u %10s %-8s %-9s %-10s %-6s %7u %7u %-20s %5u %4s\n", o->id,
	       size, gdfs_list_name((enum gdfs_list)o->list), dom, gtt, fl, o->last_read_seqno,
	       o->last_write_seqno, own, o->name, dump);
}

static int run(struct gd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct gd_capture c;
	bool json = false;
	size_t i;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt != 'j')
			return gd_option_error(ctx, opts, "", argc, argv);
		json = true;
	}
	if (argc - optind != 1)
		return gd_usage_error(ctx, "one capture file expected");
	if (gd_load_capture(ctx, argv[optind], &c))
		return GD_EXIT_FAIL;
	if (json) {
		ret = gd_json_list(&c);
		gd_capture_release(&c);
		return ret;
	}
	gd_print_object_header();
	for (i = 0; i < c.nobjects; i++)
		gd_print_object(ctx, &c, &c.objects[i]);
	gd_capture_release(&c);
	return GD_EXIT_OK;
}

const struct gd_cmd gd_cmd_list = {
	.name = "list",
	.args = "[--json] FILE",
	.summary = "a capture's objects, in gemtop's columns",
	.options = "      --json           one JSON document (raw numbers, units in the names)\n",
	.complete = "--json",
	.run = run,
};
