/* gemkit_ring (the ring and its outstanding requests) and gemkit_counters. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gemdebugfs.h"
#include "record.h"
#include "util.h"

#define RING(k, t, m)	GDFS_FIELD(k, t, struct gdfs_ring, m)
static const struct gdfs_field ring_fields[] = {
	GDFS_FIELD_TEXT("name", struct gdfs_ring, name),
	RING("head", U32, head), RING("tail", U32, tail), RING("acthd", U32, acthd),
	RING("start", U32, start), RING("ctl", U32, ctl), RING("size", U64, size),
	RING("emitted_seqno", U32, emitted_seqno),
	RING("completed_seqno", U32, completed_seqno),
	RING("waiting_seqno", U32, waiting_seqno),
	RING("irq_seqno", U32, irq_seqno),
	RING("outstanding", U32, outstanding),
	RING("idle", BOOL, idle), RING("stopped", BOOL, stopped),
	RING("wedged", BOOL, wedged),
};
#undef RING

#define REQ(k, t, m)	GDFS_FIELD(k, t, struct gdfs_request, m)
static const struct gdfs_field request_fields[] = {
	REQ("seqno", U32, seqno), REQ("tail", U32, tail), REQ("age_ns", U64, age_ns),
	REQ("file", U32, file), REQ("pid", I32, pid),
};
#undef REQ

struct ring_ctx {
	struct gdfs_ring *out;
	size_t alloc;
	bool ring;
};

static int ring_record(void *arg, const struct gdfs_kv *kv, int n,
		       unsigned int line, struct strbuf *err)
{
	struct ring_ctx *ctx = arg;
	const struct gdfs_kv *kind = gdfs_kv_find(kv, n, "kind", 0);
	struct gdfs_request *rq;

	if (!kind) {
		gdfs_err(err, "gemkit_ring", line, "record without kind");
		return -EINVAL;
	}
	if (gdfs_val_is(kind, "ring")) {
		/* Only the render ring on gen3; a later ring is skipped. */
		if (ctx->ring)
			return 0;
		ctx->ring = true;
		return gdfs_fill_fields(ring_fields, ARRAY_SIZE(ring_fields), ctx->out,
					kv, n, "gemkit_ring", line, err);
	}
	if (!gdfs_val_is(kind, "request"))
		return 0;
	rq = gdfs_vec_push((void **)&ctx->out->requests, &ctx->out->nrequests,
			   &ctx->alloc, sizeof(*rq));
	if (!rq)
		return -ENOMEM;
	return gdfs_fill_fields(request_fields, ARRAY_SIZE(request_fields), rq, kv, n,
				"gemkit_ring", line, err);
}

int gdfs_parse_ring(const char *buf, size_t len, struct gdfs_ring *out,
		    struct strbuf *err)
{
	struct ring_ctx ctx = { .out = out };
	int ret;

	memset(out, 0, sizeof(*out));
	ret = gdfs_parse_file(buf, len, "gemkit_ring", &out->schema, ring_record, &ctx, err);
	if (!ret && !ctx.ring) {
		gdfs_err(err, "gemkit_ring", 0, "no ring record");
		ret = -EINVAL;
	}
	if (ret)
		gdfs_ring_release(out);
	return ret;
}

void gdfs_ring_release(struct gdfs_ring *r)
{
	free(r->requests);
	memset(r, 0, sizeof(*r));
}

/* --- gemkit_counters ---------------------------------------------------- */

struct counters_ctx {
	struct gdfs_counters *out;
	size_t alloc;
};

static int counters_record(void *arg, const struct gdfs_kv *kv, int n,
			   unsigned int line, struct strbuf *err)
{
	struct counters_ctx *ctx = arg;
	struct gdfs_counter *c;
	int i;

	for (i = 0; i < n; i++) {
		if (kv[i].klen >= sizeof(c->key)) {
			gdfs_err(err, "gemkit_counters", line, "key too long");
			return -EINVAL;
		}
		c = gdfs_vec_push((void **)&ctx->out->v, &ctx->out->n, &ctx->alloc,
				  sizeof(*c));
		if (!c)
			return -ENOMEM;
		memcpy(c->key, kv[i].key, kv[i].klen);
		c->key[kv[i].klen] = '\0';
		if (gdfs_kv_u64(&kv[i], &c->value)) {
			gdfs_err(err, "gemkit_counters", line, "bad value for key '%s'", c->key);
			return -EINVAL;
		}
	}
	return 0;
}

int gdfs_parse_counters(const char *buf, size_t len, struct gdfs_counters *out,
			struct strbuf *err)
{
	struct counters_ctx ctx = { .out = out };
	int ret;

	memset(out, 0, sizeof(*out));
	ret = gdfs_parse_file(buf, len, "gemkit_counters", &out->schema,
			      counters_record, &ctx, err);
	if (ret)
		gdfs_counters_release(out);
	return ret;
}

void gdfs_counters_release(struct gdfs_counters *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}

bool gdfs_counter(const struct gdfs_counters *c, const char *key, uint64_t *value)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].key, key)) {
			*value = c->v[i].value;
			return true;
		}
	*value = 0;
	return false;
}
