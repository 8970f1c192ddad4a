/* gemdump info: what a capture holds, in one screen. */
#include <getopt.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "core.h"
#include "gemdump.h"
#include "json-out.h"
#include "units.h"
#include "util.h"

static const char *reason_name(uint32_t r)
{
	return r == GD_REASON_LIVE ? "live driver" :
	       r == GD_REASON_ERROR_STATE ? "error state" : "unknown";
}

static void print_info(const struct gd_ctx *ctx, const struct gd_capture *c)
{
	struct gd_totals tot;
	size_t i;
	char when[96] = "", etime[192], b1[32], b2[32], b3[32], ap[32];
	time_t t = (time_t)(c->header.time_ns / 1000000000ull);
	struct tm tm;

	if (ctx->human)
		tool_fmt_time(when, sizeof(when), c->header.time_ns, now_realtime_ns());
	else if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	gd_capture_totals(c, &tot);
	printf("capture:   schema %u, %s, written by %s\n", c->header.schema,
	       reason_name(c->header.reason), c->header.tool_version);
	printf("time:      %s\n", when);
	printf("source:    %s\n", c->header.source);
	if (c->header.error_time[0]) {
		gd_fmt_error_time(ctx, c->header.error_time, etime, sizeof(etime));
		printf("error:     %s\n", etime);
	}
	gd_fmt_bytes(ctx, c->device.aperture, ap, sizeof(ap));
	printf("device:    PCI id 0x%04x, gen %u, aperture %s, %u fences\n",
	       c->device.pci_id, c->device.gen, ap, c->device.nfences);
	gd_fmt_bytes(ctx, tot.bytes, b1, sizeof(b1));
	gd_fmt_bytes(ctx, tot.bound_bytes, b2, sizeof(b2));
	gd_fmt_bytes(ctx, tot.captured_bytes, b3, sizeof(b3));
	printf("objects:   %zu (%s), %zu bound (%s), %zu with contents (%s)\n",
	       tot.n, b1, tot.bound, b2, tot.captured, b3);
	for (i = 0; i < c->nrings; i++) {
		const struct gd_rec_ring *r = &c->rings[i];

		printf("ring %s:%s head 0x%08x tail 0x%08x acthd 0x%08x start 0x%08x "
		       "(obj %u)\n", r->name, strlen(r->name) < 6 ? " " : "", r->head,
		       r->tail, r->acthd, r->start, r->ring_obj);
		unsigned int retiring = gd_ring_retiring(c, r);
		char ret[40] = "";

		/* Completed but not retired is not outstanding: "idle" beside
		 * "1 outstanding" contradicted itself. */
		if (retiring)
			snprintf(ret, sizeof(ret), " (+%u retiring)", retiring);
		printf("           seqno emitted %u completed %u, %u outstanding%s%s%s%s\n",
		       r->emitted_seqno, r->completed_seqno,
		       r->outstanding > retiring ? r->outstanding - retiring : 0, ret,
		       r->flags & GD_RING_IDLE ? ", idle" : "",
		       r->flags & GD_RING_STOPPED ? ", stopped" : "",
		       r->flags & GD_RING_WEDGED ? ", wedged" : "");
	}
	printf("requests:  %zu\n", c->nrequests);
	printf("clients:   %zu\n", c->nclients);
	for (i = 0; i < c->nclients; i++)
		printf("           file %u pid %d %s: %u handles, %" PRIu64 " bytes\n",
		       c->clients[i].file, c->clients[i].pid, c->clients[i].comm,
		       c->clients[i].handles, c->clients[i].handle_bytes);
	printf("fences:    %zu\n", c->nfences);
	printf("registers:");
	for (i = 0; i < c->nregs; i++)
		printf(" %s=0x%08x", c->regs[i].name, c->regs[i].value);
	printf("\n");
	printf("events:    %zu", c->nevents);
	if (c->nevents)
		printf(" (seq %" PRIu64 "..%" PRIu64 ")", c->events[0].seq,
		       c->events[c->nevents - 1].seq);
	printf("\n");
	if (c->header.hang_kind[0] || c->header.guilty_pid)
		printf("hang:      %s, guilty pid %d (%s) seqno %u\n",
		       c->header.hang_kind[0] ? c->header.hang_kind : "?",
		       c->header.guilty_pid, c->header.guilty_comm, c->header.guilty_seqno);
}

static int run(struct gd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct gd_capture c;
	bool json = false;
	int opt, ret = GD_EXIT_OK;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt != 'j')
			return gd_option_error(ctx, opts, "", argc, argv);
		json = true;
	}
	if (argc - optind != 1)
		return gd_usage_error(ctx, "one capture file expected");
	if (gd_load_capture(ctx, argv[optind], &c))
		return GD_EXIT_FAIL;
	if (json)
		ret = gd_json_info(&c);
	else
		print_info(ctx, &c);
	gd_capture_release(&c);
	return ret;
}

const struct gd_cmd gd_cmd_info = {
	.name = "info",
	.args = "[--json] FILE",
	.summary = "summarise a capture: device, rings, objects, clients, registers",
	.options = "      --json           one JSON document (raw numbers, units in the names)\n",
	.complete = "--json",
	.run = run,
};
