/*
 * wait-hang [--timeout DUR] [--after N]: block until gemd reports a hang
 * (GEM_MSG_HANG_WAIT) and say where its capture is.  After `hang` in the
 * same session it waits for a hang after the ones counted before that
 * submission, so a hang caught before wait-hang starts is not missed;
 * otherwise the next one from now.
 */
#include <errno.h>
#include <string.h>

#include "commands.h"
#include "gemcontrol.h"
#include "gemdebugfs.h"
#include "json.h"
#include "session.h"
#include "util.h"

static const struct tool_opt wait_hang_opts[] = {
	{ "timeout", 0, 't', TOOL_ARG_VALUE, "DUR",
	  "give up after DUR (exit 124; default: -t)" },
	{ "after", 0, 'a', TOOL_ARG_VALUE, "N",
	  "wait for a hang after hang number N" },
	TOOL_OPT_END
};

static int cmd_wait_hang(struct gemctl *ctl, int argc, char **argv)
{
	uint64_t after = GDFS_HANG_NEXT, timeout_ns = ctl->timeout_ns;
	struct strbuf where = STRBUF_INIT;
	struct gdfs_control *control;
	struct gdfs_hang ev;
	struct gdfs_wait w;
	struct gdfs *src;
	uint32_t timeout_ms;
	int opt, ret, result;
	gj *doc;

	if (ctl->hang_base_set)
		after = ctl->hang_base;
	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		switch (opt) {
		case 't':
			if ((ret = gemctl_parse_timeout(ctl, optarg, &timeout_ns)))
				return ret;
			break;
		case 'a':
			if ((ret = gemctl_parse_u64(ctl, "hang number", optarg, &after)))
				return ret;
			break;
		default:
			return gemctl_usage(ctl);
		}
	}
	if (optind != argc)
		return gemctl_usage(ctl);
	/* 0 would mean forever: the shortest wait is 1 ms. */
	timeout_ms = (uint32_t)MAX(1ull, MIN(timeout_ns / 1000000, (uint64_t)UINT32_MAX));
	memset(&ev, 0, sizeof(ev));
	/* gemd times the wait; ours is a backstop for a gemd that hangs. */
	w = (struct gdfs_wait){ .timeout_ns = timeout_ns + 5000000000ull,
				.stop = &gemctl_interrupted };
	ret = gemctl_control(ctl, &control);
	if (!ret)
		ret = gdfs_hang_wait(control, after, timeout_ms, &w, &ev, &result);
	if (ret == -ENOENT || ret == -ECONNREFUSED || ret == -ENOTCONN)
		return gemctl_error(ctl, GEMCTL_NODEV, "cannot reach gemd at %s: %s",
				    gemctl_device(ctl), strerror(-ret));
	if (ret == -EINTR)
		return gemctl_error(ctl, GEMCTL_FAILED, "interrupted");
	if (ret && ret != -ETIMEDOUT)
		return gemctl_error(ctl, GEMCTL_FAILED, "GEM_MSG_HANG_WAIT: %s",
				    strerror(-ret));
	if (ret == -ETIMEDOUT || result == -ETIMEDOUT) {
		gemctl_error(ctl, GEMCTL_TIMEOUT, "no hang within %llums",
			     (unsigned long long)(timeout_ns / 1000000));
		gemctl_print_evidence(ctl);
		return GEMCTL_TIMEOUT;
	}
	if (result)
		return gemctl_ioctl_error(ctl, "GEM_MSG_HANG_WAIT", -result, "%s", "");
	ctl->hang_base_set = false;
	if (gemctl_debugfs(ctl, &src) == 0)
		strbuf_addf(&where, "%s/i915_error_state", gdfs_describe(src));
	else
		strbuf_addstr(&where, "i915_error_state");
	gemctl_result(ctl, "%s", ev.kind);
	gemctl_say(ctl, "hang %llu: %s, seqno %u, pid %u, file %u, acthd 0x%08x ipehr 0x%08x, "
		   "detected after %llums, %s\ncapture: %s\n",
		   (unsigned long long)ev.seq, ev.kind, ev.seqno, ev.pid, ev.file,
		   ev.acthd, ev.ipehr, (unsigned long long)(ev.detect_ns / 1000000),
		   ev.recovered ? "recovered" : "WEDGED", where.buf);
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "seq", ev.seq);
	gj_str(doc, "kind", ev.kind);
	gj_uint(doc, "seqno", ev.seqno);
	gj_uint(doc, "pid", ev.pid);
	gj_uint(doc, "file", ev.file);
	gj_uint(doc, "acthd", ev.acthd);
	gj_uint(doc, "ipehr", ev.ipehr);
	gj_uint(doc, "detect_ns", ev.detect_ns);
	gj_uint(doc, "time_ns", ev.time_ns);
	gj_bool(doc, "recovered", ev.recovered);
	gj_str(doc, "capture", where.buf);
	gemctl_json_end(ctl, doc);
	strbuf_release(&where);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_wait_hang_entry = {
	.name = "wait-hang",
	.args = "[--timeout DUR] [--after N]",
	.summary = "wait for gemd to report a hang; print where the capture is",
	.opts = wait_hang_opts,
	.fn = cmd_wait_hang,
	.no_device = true,
};
