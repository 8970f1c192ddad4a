/*
 * info: the device at a glance: where it is, the aperture, fences, seqnos
 * and every counter of gemkit_counters (libgemdebugfs).
 */
#include <string.h>

#include "commands.h"
#include "dfs.h"
#include "session.h"

static int cmd_info(struct gemctl *ctl, int argc, char **argv)
{
	struct gdfs_counters c;
	struct gdfs_objects objs;
	struct gdfs_ring ring;
	struct gdfs *src;
	uint64_t aperture = 0, gtt_free = 0, hole = 0, pinned = 0, nobj = 0, bytes = 0;
	char s1[24], s2[24], s3[24], s4[24];
	unsigned int fences = 0;
	gj *doc, *cj;
	size_t i;
	int ret;

	(void)argv;
	if (argc != 1)
		return gemctl_usage(ctl);
	if ((ret = gemctl_debugfs(ctl, &src)))
		return ret;
	if ((ret = gemctl_read_counters(ctl, &c)))
		return ret;
	if ((ret = gemctl_read_ring(ctl, &ring))) {
		gdfs_counters_release(&c);
		return ret;
	}
	if ((ret = gemctl_read_objects(ctl, &objs))) {
		gdfs_ring_release(&ring);
		gdfs_counters_release(&c);
		return ret;
	}
	for (i = 0; i < objs.n; i++)
		if (objs.v[i].fence >= 0)
			fences++;
	gdfs_counter(&c, "aperture", &aperture);
	gdfs_counter(&c, "gtt_free", &gtt_free);
	gdfs_counter(&c, "gtt_largest_hole", &hole);
	gdfs_counter(&c, "pinned_bytes", &pinned);
	gdfs_counter(&c, "objects", &nobj);
	gdfs_counter(&c, "object_bytes", &bytes);

	/* Which gemd answered, and how: the state below is its. */
	gemctl_say(ctl, "device %s\nfrom %s\ndebugfs %s\n", gemctl_device(ctl),
		   gdfs_origin(src), gdfs_describe(src));
	gemctl_say(ctl, "aperture %s free %s largest hole %s pinned %s\n",
		   gemctl_size(ctl, aperture, s1), gemctl_size(ctl, gtt_free, s2),
		   gemctl_size(ctl, hole, s3), gemctl_size(ctl, pinned, s4));
	gemctl_say(ctl, "objects %llu bytes %s\n", (unsigned long long)nobj,
		   gemctl_size(ctl, bytes, s1));
	gemctl_say(ctl, "fences %u of %u in use\n", fences, GEN3_NUM_FENCES);
	gemctl_say(ctl, "seqno emitted %u completed %u; %u outstanding%s%s\n",
		   ring.emitted_seqno, ring.completed_seqno, ring.outstanding,
		   ring.idle ? ", idle" : "", ring.wedged ? ", WEDGED" : "");
	gemctl_say(ctl, "counters:\n");
	for (i = 0; i < c.n; i++)
		gemctl_say(ctl, "  %-20s %llu\n", c.v[i].key, (unsigned long long)c.v[i].value);
	gemctl_result(ctl, "%llu", (unsigned long long)aperture);

	doc = gemctl_json_begin(ctl);
	if (doc) {
		gj *ap = gj_object(), *fj = gj_object(), *sj = gj_object();

		gj_str(doc, "debugfs", gdfs_describe(src));
		gj_str(doc, "from", gdfs_origin(src));
		gj_uint(ap, "size", aperture);
		gj_uint(ap, "free", gtt_free);
		gj_uint(ap, "largest_hole", hole);
		gj_uint(ap, "pinned", pinned);
		gj_set(doc, "aperture", ap);
		gj_uint(fj, "total", GEN3_NUM_FENCES);
		gj_uint(fj, "used", fences);
		gj_set(doc, "fences", fj);
		gj_uint(sj, "emitted", ring.emitted_seqno);
		gj_uint(sj, "completed", ring.completed_seqno);
		gj_uint(sj, "outstanding", ring.outstanding);
		gj_bool(sj, "idle", ring.idle);
		gj_bool(sj, "wedged", ring.wedged);
		gj_set(doc, "seqno", sj);
		cj = gj_object();
		for (i = 0; i < c.n; i++)
			gj_uint(cj, c.v[i].key, c.v[i].value);
		gj_set(doc, "counters", cj);
	}
	gemctl_json_end(ctl, doc);
	gdfs_objects_release(&objs);
	gdfs_ring_release(&ring);
	gdfs_counters_release(&c);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_info_entry = {
	.name = "info",
	.args = "",
	.summary = "device, aperture, fences, seqnos and counters",
	.fn = cmd_info,
	.no_device = true,
};
