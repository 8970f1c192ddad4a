/* gemdump diff: what changed between two captures, object by object. */
#include <getopt.h>
#include <inttypes.h>
#include <string.h>

#include "core.h"
#include "gemdebugfs.h"
#include "gemdump.h"

static bool same_bytes(const struct gd_capture *a, const struct gd_rec_object *x,
		       const struct gd_capture *b, const struct gd_rec_object *y)
{
	const uint8_t *p = gd_capture_data(a, x), *q = gd_capture_data(b, y);

	return !p || !q || (x->size == y->size && !memcmp(p, q, x->size));
}

static size_t diff(const struct gd_capture *a, const struct gd_capture *b)
{
	size_t i, n = 0;
	char d1[20], d2[20];

	for (i = 0; i < a->nobjects; i++) {
		const struct gd_rec_object *x = &a->objects[i];
		const struct gd_rec_object *y = gd_capture_find_id(b, x->id);

		if (!y) {
			printf("- obj %u: removed (%" PRIu64 " bytes)\n", x->id, x->size);
			n++;
			continue;
		}
		if ((x->flags & GD_OBJ_BOUND) != (y->flags & GD_OBJ_BOUND) ||
		    ((x->flags & GD_OBJ_BOUND) && x->gtt_offset != y->gtt_offset)) {
			printf("~ obj %u: moved ", x->id);
			if (x->flags & GD_OBJ_BOUND)
				printf("0x%08" PRIx64, x->gtt_offset);
			else
				printf("unbound");
			printf(" -> ");
			if (y->flags & GD_OBJ_BOUND)
				printf("0x%08" PRIx64 "\n", y->gtt_offset);
			else
				printf("unbound\n");
			n++;
		}
		if (x->read != y->read || x->write != y->write) {
			gdfs_domains_str(x->read, x->write, d1, sizeof(d1));
			gdfs_domains_str(y->read, y->write, d2, sizeof(d2));
			printf("~ obj %u: domains %s -> %s\n", x->id, d1, d2);
			n++;
		}
		if (x->list != y->list) {
			printf("~ obj %u: list %s -> %s\n", x->id, gdfs_list_name((enum gdfs_list)x->list),
			       gdfs_list_name((enum gdfs_list)y->list));
			n++;
		}
		if (x->size != y->size || !same_bytes(a, x, b, y)) {
			printf("~ obj %u: contents changed\n", x->id);
			n++;
		}
	}
	for (i = 0; i < b->nobjects; i++) {
		const struct gd_rec_object *y = &b->objects[i];

		if (!gd_capture_find_id(a, y->id)) {
			printf("+ obj %u: added (%" PRIu64 " bytes", y->id, y->size);
			if (y->flags & GD_OBJ_BOUND)
				printf(" at 0x%08" PRIx64, y->gtt_offset);
			printf(")\n");
			n++;
		}
	}
	return n;
}

static int run(struct gd_ctx *ctx, int argc, char **argv)
{
	struct gd_capture a, b;
	size_t n;

	static const struct option no_opts[] = { { NULL, 0, NULL, 0 } };

	if (getopt_long(argc, argv, "", no_opts, NULL) != -1)
		return gd_option_error(ctx, no_opts, "", argc, argv);
	if (argc - optind != 2)
		return gd_usage_error(ctx, "two capture files expected");
	if (gd_load_capture(ctx, argv[optind], &a))
		return GD_EXIT_FAIL;
	if (gd_load_capture(ctx, argv[optind + 1], &b)) {
		gd_capture_release(&a);
		return GD_EXIT_FAIL;
	}
	n = diff(&a, &b);
	if (!n)
		printf("no differences in %zu objects\n", a.nobjects);
	gd_capture_release(&a);
	gd_capture_release(&b);
	/* As diff(1): a rig tests the status, not the text. */
	return n ? GD_EXIT_FAIL : GD_EXIT_OK;
}

const struct gd_cmd gd_cmd_diff = {
	.name = "diff",
	.args = "A B",
	.summary = "objects added, removed, moved, or changed in domains or contents",
	.options = "",
	.complete = "",
	.run = run,
};
