/* clients: the open drm_files (gemkit_clients); the value is their count. */
#include "commands.h"
#include "dfs.h"
#include "session.h"

static int cmd_clients(struct gemctl *ctl, int argc, char **argv)
{
	struct gdfs_clients c;
	gj *doc, *arr;
	size_t i;
	int ret;

	(void)argv;
	if (argc != 1)
		return gemctl_usage(ctl);
	if ((ret = gemctl_read_clients(ctl, &c)))
		return ret;
	doc = gemctl_json_begin(ctl);
	arr = gj_array();
	gemctl_say(ctl, "%5s %7s %-16s %7s %12s %12s %8s\n", "FILE", "PID", "COMM",
		   "HANDLES", "BYTES", "BOUND", "REQUESTS");
	for (i = 0; i < c.n; i++) {
		const struct gdfs_client *k = &c.v[i];
		gj *j = gj_object();

		gemctl_say(ctl, "%5u %7d %-16s %7u %12llu %12llu %8u\n", k->file,
			   (int)k->pid, k->comm, k->handles,
			   (unsigned long long)k->handle_bytes,
			   (unsigned long long)k->bound_bytes, k->requests);
		gj_uint(j, "file", k->file);
		gj_int(j, "pid", k->pid);
		gj_str(j, "comm", k->comm);
		gj_uint(j, "handles", k->handles);
		gj_uint(j, "handle_bytes", k->handle_bytes);
		gj_uint(j, "bound_bytes", k->bound_bytes);
		gj_uint(j, "requests", k->requests);
		gj_push(arr, j);
	}
	gemctl_result(ctl, "%zu", c.n);
	gj_uint(doc, "count", c.n);
	gj_set(doc, "clients", arr);
	gemctl_json_end(ctl, doc);
	gdfs_clients_release(&c);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_clients_entry = {
	.name = "clients",
	.args = "",
	.summary = "open drm files",
	.fn = cmd_clients,
	.no_device = true,
};
