/* seqno: the ring's seqnos (gemkit_ring); the value is the completed one. */
#include "commands.h"
#include "gemdebugfs.h"
#include "json.h"
#include "session.h"

static int cmd_seqno(struct gemctl *ctl, int argc, char **argv)
{
	struct gdfs_ring ring;
	int ret;
	gj *doc;

	(void)argv;
	if (argc != 1)
		return gemctl_usage(ctl);
	if ((ret = gemctl_read_ring(ctl, &ring)))
		return ret;
	gemctl_result(ctl, "%u", ring.completed_seqno);
	gemctl_say(ctl, "emitted %u\ncompleted %u\nwaiting %u\nirq %u\noutstanding %u\n",
		   ring.emitted_seqno, ring.completed_seqno, ring.waiting_seqno,
		   ring.irq_seqno, ring.outstanding);
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "emitted", ring.emitted_seqno);
	gj_uint(doc, "completed", ring.completed_seqno);
	gj_uint(doc, "waiting", ring.waiting_seqno);
	gj_uint(doc, "irq", ring.irq_seqno);
	gj_uint(doc, "outstanding", ring.outstanding);
	gemctl_json_end(ctl, doc);
	gdfs_ring_release(&ring);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_seqno_entry = {
	.name = "seqno",
	.args = "",
	.summary = "emitted, completed and waited-for seqnos",
	.fn = cmd_seqno,
	.no_device = true,
};
