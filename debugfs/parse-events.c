/* gemkit_events: the header's window (first/next/since/dropped) and the events. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gemdebugfs.h"
#include "record.h"
#include "util.h"

static const struct gdfs_field event_fields[] = {
#define VFIELD(k, K, t, a, in)	GDFS_TAB_##K(struct gdfs_event, k, a)
#include "events.def"
#undef VFIELD
};

/* The window on the schema line. */
static const struct gdfs_field window_fields[] = {
#define FIELD(k, K, t, a)	GDFS_TAB_##K(struct gdfs_events, k, a)
#include "events-window.def"
#undef FIELD
};

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
	i = gdfs_name_lookup(gdfs_event_type_names, e->type_name, false);
	e->type = i < 0 ? GDFS_EV_OTHER : (enum gdfs_event_type)i;
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
	if (n > 0 && gdfs_fill_fields(window_fields, ARRAY_SIZE(window_fields), out,
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
