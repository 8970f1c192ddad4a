/* requests: the outstanding requests on the ring, oldest first, and the
 * ring registers (gemkit_ring).  The value is the number outstanding. */
#include "commands.h"
#include "gemdebugfs.h"
#include "json.h"
#include "session.h"

static int cmd_requests(struct gemctl *ctl, int argc, char **argv)
{
	struct gdfs_ring ring;
	gj *doc, *arr;
	size_t i;
	int ret;

	(void)argv;
	if (argc != 1)
		return gemctl_usage(ctl);
	if ((ret = gemctl_read_ring(ctl, &ring)))
		return ret;
	gemctl_say(ctl, "ring %s head 0x%08x tail 0x%08x acthd 0x%08x%s%s%s\n",
		   ring.name, ring.head, ring.tail, ring.acthd, ring.idle ? " idle" : "",
		   ring.stopped ? " stopped" : "", ring.wedged ? " wedged" : "");
	doc = gemctl_json_begin(ctl);
	arr = gj_array();
	for (i = 0; i < ring.nrequests; i++) {
		const struct gdfs_request *r = &ring.requests[i];
		gj *j = gj_object();

		gemctl_say(ctl, "seqno %u tail 0x%08x age %lluus file %u pid %d\n",
			   r->seqno, r->tail, (unsigned long long)(r->age_ns / 1000),
			   r->file, (int)r->pid);
		gj_uint(j, "seqno", r->seqno);
		gj_uint(j, "tail", r->tail);
		gj_uint(j, "age_ns", r->age_ns);
		gj_uint(j, "file", r->file);
		gj_int(j, "pid", r->pid);
		gj_push(arr, j);
	}
	gemctl_result(ctl, "%zu", ring.nrequests);
	gj_str(doc, "ring", ring.name);
	gj_uint(doc, "head", ring.head);
	gj_uint(doc, "tail", ring.tail);
	gj_uint(doc, "acthd", ring.acthd);
	gj_bool(doc, "idle", ring.idle);
	gj_bool(doc, "stopped", ring.stopped);
	gj_bool(doc, "wedged", ring.wedged);
	gj_set(doc, "requests", arr);
	gemctl_json_end(ctl, doc);
	gdfs_ring_release(&ring);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_requests_entry = {
	.name = "requests",
	.args = "",
	.summary = "outstanding requests and the ring registers",
	.fn = cmd_requests,
	.no_device = true,
};
