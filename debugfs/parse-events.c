/* gemkit_events: the header's window (first/next/since/dropped) and the events. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gemdebugfs.h"
#include "record.h"
#include "util.h"

static const char *const event_names[] = {
	"bind", "unbind", "evict", "domain", "submit", "wait", "retire", "purge", NULL,
};

const char *gdfs_event_type_name(enum gdfs_event_type t)
{
	return (unsigned int)t < GDFS_EV_OTHER ? event_names[t] : "other";
}

#define EV(k, t, m)	GDFS_FIELD(k, t, struct gdfs_event, m)
static const struct gdfs_field event_fields[] = {
	EV("seq", U64, seq), EV("ts_ns", U64, ts_ns),
	GDFS_FIELD_TEXT("type", struct gdfs_event, type_name),
	EV("obj", U32, obj), EV("offset", U64, offset), EV("size", U64, size),
	EV("old_read", U32, old_read), EV("old_write", U32, old_write),
	EV("read", U32, read), EV("write", U32, write),
	EV("seqno", U32, seqno), EV("file", U32, file), EV("wait_ns", U64, wait_ns),
	EV("result", I32, result),
};
#undef EV

#define HDR(k, m)	GDFS_FIELD(k, U64, struct gdfs_events, m)
static const struct gdfs_field header_fields[] = {
	HDR("first_seq", first_seq), HDR("next_seq", next_seq),
	HDR("since", since), HDR("dropped", dropped),
};
#undef HDR

struct events_ctx {
	struct gdfs_events *out;
	size_t alloc;
};

static int event_record(void *arg, const struct gdfs_kv *kv, int n,
			unsigned int line, struct strbuf *err)
{
	struct events_ctx *ctx = arg;
	struct gdfs_event *e, *prev;
	int i;

	e = gdfs_vec_push((void **)&ctx->out->v, &ctx->out->n, &ctx->alloc, sizeof(*e));
	if (!e)
		return -ENOMEM;
	if (gdfs_fill_fields(event_fields, ARRAY_SIZE(event_fields), e, kv, n,
			     "gemkit_events", line, err))
		return -EINVAL;
	if (!e->seq || !e->type_name[0]) {
		gdfs_err(err, "gemkit_events", line, "event without seq or type");
		return -EINVAL;
	}
	prev = ctx->out->n > 1 ? e - 1 : NULL;
	if (prev && e->seq <= prev->seq) {
		gdfs_err(err, "gemkit_events", line, "seq %llu after %llu",
			 (unsigned long long)e->seq, (unsigned long long)prev->seq);
		return -EINVAL;
	}
	e->type = GDFS_EV_OTHER;
	for (i = 0; event_names[i]; i++)
		if (!strcmp(e->type_name, event_names[i]))
			e->type = (enum gdfs_event_type)i;
	return 0;
}

int gdfs_parse_events(const char *buf, size_t len, struct gdfs_events *out,
		      struct strbuf *err)
{
	struct events_ctx ctx = { .out = out };
	struct gdfs_kv kv[GDFS_MAX_KEYS];
	struct gdfs_cursor c;
	int n, ret;

	memset(out, 0, sizeof(*out));
	/* The header's window is on the schema line itself. */
	gdfs_cursor_init(&c, buf, len);
	n = gdfs_next_record(&c, kv, GDFS_MAX_KEYS);
	if (n > 0 && gdfs_fill_fields(header_fields, ARRAY_SIZE(header_fields), out,
				      kv, n, "gemkit_events", 1, err))
		return -EINVAL;
	ret = gdfs_parse_file(buf, len, "gemkit_events", &out->schema,
			      event_record, &ctx, err);
	if (ret)
		gdfs_events_release(out);
	return ret;
}

void gdfs_events_release(struct gdfs_events *e)
{
	free(e->v);
	memset(e, 0, sizeof(*e));
}
