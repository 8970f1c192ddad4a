/* gemkit_gtt into a table of ranges and holes in address order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gemdebugfs.h"
#include "record.h"
#include "util.h"

/* Ranges and holes share one table: a hole only has start and size. */
static const struct gdfs_field range_fields[] = {
#define VFIELD(k, K, t, a, in)	GDFS_TAB_##K(struct gdfs_gtt_range, k, a)
#include "gtt.def"
#undef VFIELD
};

static const struct gdfs_field summary_fields[] = {
#define FIELD(k, K, t, a)	GDFS_TAB_##K(struct gdfs_gtt, k, a)
#include "gtt-summary.def"
#undef FIELD
};

struct gtt_ctx {
	struct gdfs_gtt *out;
	size_t alloc;
	bool summary;
};

static int gtt_record(void *arg, const struct gdfs_kv *kv, int n,
		      unsigned int line, struct strbuf *err)
{
	struct gtt_ctx *ctx = arg;
	const struct gdfs_kv *kind = gdfs_kv_find(kv, n, "kind", 0);
	struct gdfs_gtt_range *r, *prev;

	if (!kind) {
		gdfs_err(err, "gemkit_gtt", line, "record without kind");
		return -EINVAL;
	}
	if (gdfs_val_is(kind, "summary")) {
		ctx->summary = true;
		return gdfs_fill_fields(summary_fields, ARRAY_SIZE(summary_fields),
					ctx->out, kv, n, "gemkit_gtt", line, err);
	}
	if (!gdfs_val_is(kind, "range") && !gdfs_val_is(kind, "hole"))
		return 0;	/* a kind added later */
	r = gdfs_vec_push((void **)&ctx->out->v, &ctx->out->n, &ctx->alloc, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->hole = gdfs_val_is(kind, "hole");
	r->fence = -1;
	if (gdfs_fill_fields(range_fields, ARRAY_SIZE(range_fields), r, kv, n,
			     "gemkit_gtt", line, err))
		return -EINVAL;
	prev = ctx->out->n > 1 ? r - 1 : NULL;
	if (prev && r->start < prev->start + prev->size) {
		gdfs_err(err, "gemkit_gtt", line, "range at %#llx overlaps the previous one",
			 (unsigned long long)r->start);
		return -EINVAL;
	}
	return 0;
}

int gdfs_parse_gtt(const char *buf, size_t len, struct gdfs_gtt *out,
		   struct strbuf *err)
{
	struct gtt_ctx ctx = { .out = out };
	int ret;

	memset(out, 0, sizeof(*out));
	ret = gdfs_parse_file(buf, len, "gemkit_gtt", &out->schema, gtt_record, &ctx, err);
	if (!ret && !ctx.summary) {
		gdfs_err(err, "gemkit_gtt", 0, "no summary record");
		ret = -EINVAL;
	}
	if (ret)
		gdfs_gtt_release(out);
	return ret;
}

void gdfs_gtt_release(struct gdfs_gtt *g)
{
	free(g->v);
	memset(g, 0, sizeof(*g));
}

const struct gdfs_gtt_range *gdfs_gtt_lookup(const struct gdfs_gtt *g, uint64_t addr)
{
	size_t lo = 0, hi = g->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct gdfs_gtt_range *r = &g->v[mid];

		if (addr < r->start)
			hi = mid;
		else if (addr - r->start >= r->size)
			lo = mid + 1;
		else
			return r;
	}
	return NULL;
}
