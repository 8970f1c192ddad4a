/* gemkit_ring (the ring and its outstanding requests) and gemkit_counters. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gemdebugfs.h"
#include "record.h"
#include "util.h"

static const struct gdfs_field ring_fields[] = {
#define FIELD(k, K, t, a)	GDFS_TAB_##K(struct gdfs_ring, k, a)
#include "ring.def"
#undef FIELD
};

static const struct gdfs_field request_fields[] = {
#define FIELD(k, K, t, a)	GDFS_TAB_##K(struct gdfs_request, k, a)
#include "request.def"
#undef FIELD
};

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

static const struct gdfs_field counter_fields[] = {
#define FIELD(k, K, t, a)	GDFS_TAB_##K(struct gdfs_counter_values, k, a)
#include "counters.def"
#undef FIELD
};

struct counters_ctx {
	struct gdfs_counters *out;
	size_t alloc;
};

/* Whether kv is "<list><suffix>" for a list name; which list in *l. */
static bool list_key(const struct gdfs_kv *kv, const char *suffix, int *l)
{
	size_t slen = strlen(suffix), nlen;
	int i;

	for (i = 0; i < GDFS_LIST_COUNT; i++) {
		nlen = strlen(gdfs_list_names[i]);
		if (kv->klen == nlen + slen && !memcmp(kv->key, gdfs_list_names[i], nlen) &&
		    !memcmp(kv->key + nlen, suffix, slen)) {
			*l = i;
			return true;
		}
	}
	return false;
}

/*
 * The typed values (counters.def).  A PERLIST field is a run of pairs
 * "<list>_objects=N <list>_bytes=M": a pair is known by its adjacency,
 * since "pinned_bytes" is also a gauge of its own.
 */
static int counters_known(struct gdfs_counter_values *known, const struct gdfs_kv *kv,
			  int n, unsigned int line, struct strbuf *err)
{
	int i, l, l2;

	for (i = 0; i < n; i++) {
		if (i + 1 < n && list_key(&kv[i], "_objects", &l) &&
		    list_key(&kv[i + 1], "_bytes", &l2) && l == l2) {
			if (gdfs_kv_u64(&kv[i], &known->list_objects[l]) ||
			    gdfs_kv_u64(&kv[i + 1], &known->list_bytes[l]))
				return -EINVAL;	/* the generic pass said why */
			i++;
			continue;
		}
		if (gdfs_fill_fields(counter_fields, ARRAY_SIZE(counter_fields), known,
				     &kv[i], 1, "gemkit_counters", line, err))
			return -EINVAL;
	}
	return 0;
}

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
	return counters_known(&ctx->out->known, kv, n, line, err);
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
