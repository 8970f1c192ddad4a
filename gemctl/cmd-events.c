/*
 * events [--since N] [--follow] [--timeout DUR]: the memory manager's
 * events (gemkit_events) after seq N (default: all held).  --follow keeps
 * printing new ones until Ctrl-C or --timeout (then exit 0: following
 * ends, nothing failed); with --json every poll that found events prints
 * one document.  The value is the last seq seen, for the next --since.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "gemdebugfs.h"
#include "json.h"
#include "names.h"
#include "session.h"
#include "util.h"

static void event_text(struct strbuf *sb, const struct gdfs_event *e)
{
	const char *type = e->type == GDFS_EV_OTHER ? e->type_name
						      : gdfs_event_type_name(e->type);

	strbuf_addf(sb, "%llu %llu.%09llu %s", (unsigned long long)e->seq,
		    (unsigned long long)(e->ts_ns / 1000000000ull),
		    (unsigned long long)(e->ts_ns % 1000000000ull), type);
	switch (e->type) {
	case GDFS_EV_BIND:
	case GDFS_EV_UNBIND:
	case GDFS_EV_EVICT:
		strbuf_addf(sb, " obj %u offset 0x%08llx size %llu", e->obj,
			    (unsigned long long)e->offset, (unsigned long long)e->size);
		break;
	case GDFS_EV_DOMAIN:
		strbuf_addf(sb, " obj %u ", e->obj);
		gemctl_domain_format(sb, e->old_read);
		strbuf_addch(sb, '/');
		gemctl_domain_format(sb, e->old_write);
		strbuf_addstr(sb, " -> ");
		gemctl_domain_format(sb, e->read);
		strbuf_addch(sb, '/');
		gemctl_domain_format(sb, e->write);
		break;
	case GDFS_EV_SUBMIT:
		strbuf_addf(sb, " seqno %u file %u", e->seqno, e->file);
		break;
	case GDFS_EV_WAIT:
		strbuf_addf(sb, " seqno %u wait %lluus result %d", e->seqno,
			    (unsigned long long)(e->wait_ns / 1000), e->result);
		break;
	case GDFS_EV_RETIRE:
		strbuf_addf(sb, " seqno %u", e->seqno);
		break;
	case GDFS_EV_PURGE:
		strbuf_addf(sb, " obj %u size %llu", e->obj, (unsigned long long)e->size);
		break;
	default:
		break;
	}
	strbuf_addch(sb, '\n');
}

static gj *event_json(const struct gdfs_event *e)
{
	gj *j = gj_object();

	gj_uint(j, "seq", e->seq);
	gj_uint(j, "ts_ns", e->ts_ns);
	gj_str(j, "type", e->type == GDFS_EV_OTHER ? e->type_name
						 : gdfs_event_type_name(e->type));
	switch (e->type) {
	case GDFS_EV_BIND:
	case GDFS_EV_UNBIND:
	case GDFS_EV_EVICT:
		gj_uint(j, "obj", e->obj);
		gj_uint(j, "offset", e->offset);
		gj_uint(j, "size", e->size);
		break;
	case GDFS_EV_DOMAIN:
		gj_uint(j, "obj", e->obj);
		gj_uint(j, "old_read", e->old_read);
		gj_uint(j, "old_write", e->old_write);
		gj_uint(j, "read", e->read);
		gj_uint(j, "write", e->write);
		break;
	case GDFS_EV_SUBMIT:
		gj_uint(j, "seqno", e->seqno);
		gj_uint(j, "file", e->file);
		break;
	case GDFS_EV_WAIT:
		gj_uint(j, "seqno", e->seqno);
		gj_uint(j, "wait_ns", e->wait_ns);
		gj_int(j, "result", e->result);
		break;
	case GDFS_EV_RETIRE:
		gj_uint(j, "seqno", e->seqno);
		break;
	case GDFS_EV_PURGE:
		gj_uint(j, "obj", e->obj);
		gj_uint(j, "size", e->size);
		break;
	default:
		break;
	}
	return j;
}

/* Print one batch of events; returns the new 'since'. */
static uint64_t print_events(struct gemctl *ctl, const struct gdfs_events *ev,
			     uint64_t since, bool always_doc)
{
	struct strbuf sb = STRBUF_INIT;
	gj *doc = NULL, *arr;
	size_t i;

	if (ev->n || always_doc)
		doc = gemctl_json_begin(ctl);
	arr = gj_array();
	for (i = 0; i < ev->n; i++) {
		if (doc) {
			gj_push(arr, event_json(&ev->v[i]));
		} else {
			strbuf_reset(&sb);
			event_text(&sb, &ev->v[i]);
			gemctl_say(ctl, "%s", sb.buf);
		}
		since = ev->v[i].seq;
	}
	if (ev->dropped && !ctl->json)
		fprintf(stderr, "gemctl events: %llu events were dropped before this read\n",
			(unsigned long long)ev->dropped);
	gj_uint(doc, "first_seq", ev->first_seq);
	gj_uint(doc, "next_seq", ev->next_seq);
	gj_uint(doc, "dropped", ev->dropped);
	gj_set(doc, "events", arr);
	gemctl_json_end(ctl, doc);
	if (!doc && !ctl->json)
		fflush(stdout);
	strbuf_release(&sb);
	return since;
}

static const struct tool_opt events_opts[] = {
	{ "since", 0, 's', TOOL_ARG_VALUE, "N",
	  "only the events after seq N" },
	{ "follow", 0, 'f', TOOL_ARG_NONE, NULL,
	  "keep printing new events until Ctrl-C or --timeout" },
	{ "timeout", 0, 't', TOOL_ARG_VALUE, "DUR",
	  "stop following after DUR (exit 0)" },
	TOOL_OPT_END
};

static int cmd_events(struct gemctl *ctl, int argc, char **argv)
{
	struct timespec nap = { 0, 50 * 1000000 };
	struct strbuf err = STRBUF_INIT;
	uint64_t since = 0, timeout_ns = 0, deadline = 0;
	struct gdfs_events ev;
	bool follow = false;
	struct gdfs *src;
	int opt, ret;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		switch (opt) {
		case 's':
			if ((ret = gemctl_parse_u64(ctl, "seq", optarg, &since)))
				return ret;
			break;
		case 'f':
			follow = true;
			break;
		case 't':
			if ((ret = gemctl_parse_timeout(ctl, optarg, &timeout_ns)))
				return ret;
			break;
		default:
			return gemctl_usage(ctl);
		}
	}
	if (optind != argc)
		return gemctl_usage(ctl);
	if ((ret = gemctl_debugfs(ctl, &src)))
		return ret;
	if (timeout_ns)
		deadline = gemctl_deadline(timeout_ns);
	for (;;) {
		memset(&ev, 0, sizeof(ev));
		strbuf_reset(&err);
		ret = gdfs_read_events(src, since, &ev, &err);
		if (ret < 0) {
			ret = gemctl_error(ctl, GEMCTL_FAILED, "gemkit_events (%s): %s",
					   gdfs_describe(src),
					   err.len ? err.buf : strerror(-ret));
			break;
		}
		since = print_events(ctl, &ev, since, !follow);
		gdfs_events_release(&ev);
		ret = GEMCTL_OK;
		if (!follow || gemctl_interrupted || (deadline && gemctl_expired(deadline)))
			break;
		nanosleep(&nap, NULL);
	}
	gemctl_result(ctl, "%llu", (unsigned long long)since);
	strbuf_release(&err);
	return ret;
}

const struct gemctl_cmd cmd_events_entry = {
	.name = "events",
	.args = "[--since N] [--follow] [--timeout DUR]",
	.summary = "the memory manager's events",
	.opts = events_opts,
	.fn = cmd_events,
	.no_device = true,
};
