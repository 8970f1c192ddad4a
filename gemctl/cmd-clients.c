/* clients: the open drm_files (gemkit_clients); the value is their count.
 * Their usage figures (fdinfo.def) go into the JSON as gemd wrote them,
 * and into the table as gemd's CPU, GPU busy time and waits; a gemd that
 * does not measure them gets no such keys and "-" with the reason. */
#include <stdio.h>

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
	gemctl_say(ctl, "%5s %7s %-16s %7s %12s %12s %8s %10s %10s %7s\n", "FILE",
		   "PID", "COMM", "HANDLES", "BYTES", "BOUND", "REQUESTS", "CPU ms",
		   "GPU ms", "WAITS");
	for (i = 0; i < c.n; i++) {
		const struct gdfs_client *k = &c.v[i];
		char cpu[24] = "-", gpu[24] = "-", waits[24] = "-";
		gj *j = gj_object();

		if (c.has_usage) {
			snprintf(cpu, sizeof(cpu), "%.3f", (double)k->cpu_ns / 1e6);
			snprintf(gpu, sizeof(gpu), "%.3f", (double)k->engine_render_ns / 1e6);
			snprintf(waits, sizeof(waits), "%llu", (unsigned long long)k->waits);
		}
		gemctl_say(ctl, "%5u %7d %-16s %7u %12llu %12llu %8u %10s %10s %7s\n",
			   k->file, (int)k->pid, k->comm, k->handles,
			   (unsigned long long)k->handle_bytes,
			   (unsigned long long)k->bound_bytes, k->requests, cpu, gpu, waits);
		gj_uint(j, "file", k->file);
		gj_int(j, "pid", k->pid);
		gj_str(j, "comm", k->comm);
		gj_uint(j, "handles", k->handles);
		gj_uint(j, "handle_bytes", k->handle_bytes);
		gj_uint(j, "bound_bytes", k->bound_bytes);
		gj_uint(j, "requests", k->requests);
		if (c.has_usage) {
#define FDINFO(field, name, unit)	gj_uint(j, #field, k->field);
#include "fdinfo.def"
#undef FDINFO
		}
		gj_push(arr, j);
	}
	if (c.n && !c.has_usage)
		gemctl_say(ctl, "-: not measured: this gemd does not report "
			   "per-client usage\n");
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
