/*
 * wait-hang [--timeout DUR] [--after N | --since N]: block until gemd
 * reports a hang (GEM_MSG_HANG_WAIT) and say which record holds its
 * capture: i915_error_state when it is the first since the last clear,
 * else gemkit_errors/<n>, or none when gemd no longer keeps it.  After
 * `hang` in the same session it waits for a hang after the ones counted
 * before that submission, so a hang caught before wait-hang starts is not
 * missed; --since N returns at once if hang N is already recorded;
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
	{ "since", 0, 's', TOOL_ARG_VALUE, "N",
	  "hang number N or a later one (at once if already recorded)" },
	TOOL_OPT_END
};

/*
 * Which file holds hang seq's capture, relative to dri/0, into where;
 * false when gemd keeps none (cleared, or older than the kept records).
 */
static bool find_record(struct gdfs *src, uint64_t seq, struct strbuf *where)
{
	struct strbuf text = STRBUF_INIT, name = STRBUF_INIT;
	struct gdfs_error_state es;
	bool found = false;

	if (gdfs_read(src, "i915_error_state", &text) == 0 &&
	    gdfs_parse_error_state(text.buf, text.len, &es, NULL) == 0) {
		found = es.present && es.hang_seq == seq;
		gdfs_error_state_release(&es);
	}
	if (found) {
		strbuf_addstr(where, "i915_error_state");
	} else {
		strbuf_addf(&name, "gemkit_errors/%llu", (unsigned long long)seq);
		found = gdfs_has(src, name.buf);
		if (found)
			strbuf_add(where, name.buf, name.len);
	}
	strbuf_release(&text);
	strbuf_release(&name);
	return found;
}

static int cmd_wait_hang(struct gemctl *ctl, int argc, char **argv)
{
	uint64_t after = GDFS_HANG_NEXT, timeout_ns = ctl->timeout_ns;
	struct strbuf where = STRBUF_INIT, record = STRBUF_INIT;
	bool kept = false;
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
		case 's':
			if ((ret = gemctl_parse_u64(ctl, "hang number", optarg, &after)))
				return ret;
			if (after == 0)
				return gemctl_error(ctl, GEMCTL_USAGE,
						    "hang numbers start at 1");
			after--;
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
		return gemctl_unreachable(ctl, -ret);
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
	if (gemctl_debugfs(ctl, &src) == 0) {
		kept = find_record(src, ev.seq, &record);
		if (kept)
			strbuf_addf(&where, "%s/%s", gdfs_describe(src), record.buf);
	}
	if (!kept)
		strbuf_addstr(&where, "none kept (cleared, or older than the "
			      "records gemd keeps)");
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
	if (kept) {
		gj_str(doc, "capture", where.buf);
		gj_str(doc, "record", record.buf);
	} else {
		gj_null(doc, "capture");
		gj_null(doc, "record");
	}
	gemctl_json_end(ctl, doc);
	strbuf_release(&where);
	strbuf_release(&record);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_wait_hang_entry = {
	.name = "wait-hang",
	.args = "[--timeout DUR] [--after N | --since N]",
	.summary = "wait for gemd to report a hang; print which record holds it",
	.opts = wait_hang_opts,
	.fn = cmd_wait_hang,
	.no_device = true,
};
