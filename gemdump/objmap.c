/* GTT address -> object, from a capture or the live driver. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gemdebugfs.h"
#include "objmap.h"

static int cmp_ent(const void *a, const void *b)
{
	const struct gd_objmap_ent *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

int gd_objmap_from_capture(struct gd_objmap *m, const struct gd_capture *c)
{
	size_t i;

	m->n = 0;
	m->v = calloc(c->nobjects ? c->nobjects : 1, sizeof(*m->v));
	if (!m->v)
		return -ENOMEM;
	for (i = 0; i < c->nobjects; i++) {
		const struct gd_rec_object *o = &c->objects[i];

		if (!(o->flags & GD_OBJ_BOUND))
			continue;
		m->v[m->n].start = o->gtt_offset;
		m->v[m->n].size = o->size;
		m->v[m->n++].id = o->id;
	}
	qsort(m->v, m->n, sizeof(*m->v), cmp_ent);
	return 0;
}

/* One command a process: the status of the one live source it opens. */
static int live_exit;

int gd_live_exit(void)
{
	return live_exit;
}

int gd_open_live(const struct gd_ctx *ctx, struct gdfs **src)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = gdfs_open_auto(ctx->device, ctx->debugfs, src);

	if (!ret)
		return 0;
	if (ctx->debugfs) {
		/* A directory is input, not a device: a plain failure. */
		gd_error(ctx, "cannot read debugfs tree '%s': %s", ctx->debugfs,
			 strerror(-ret));
	} else {
		live_exit = gem_unreachable(&sb, gem_device_path(ctx->device), -ret);
		gd_error(ctx, "%s", sb.buf);
	}
	strbuf_release(&sb);
	return ret;
}

int gd_objmap_from_live(struct gd_objmap *m, const struct gd_ctx *ctx)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct gdfs_gtt gtt;
	struct gdfs *src;
	size_t i;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = gd_open_live(ctx, &src);
	if (ret)
		return ret;
	ret = gdfs_read(src, "gemkit_gtt", &sb);
	if (ret) {
		gd_error(ctx, "reading %s/gemkit_gtt: %s", gdfs_describe(src), gdfs_strerror(ret));
		goto out;
	}
	ret = gdfs_parse_gtt(sb.buf, sb.len, &gtt, &err);
	if (ret) {
		gd_error(ctx, "%s", err.buf);
		goto out;
	}
	m->v = calloc(gtt.n ? gtt.n : 1, sizeof(*m->v));
	if (!m->v) {
		ret = -ENOMEM;
		goto out_gtt;
	}
	for (i = 0; i < gtt.n; i++) {
		if (gtt.v[i].hole)
			continue;
		m->v[m->n].start = gtt.v[i].start;
		m->v[m->n].size = gtt.v[i].obj_size ? gtt.v[i].obj_size : gtt.v[i].size;
		m->v[m->n++].id = gtt.v[i].obj;
	}
	qsort(m->v, m->n, sizeof(*m->v), cmp_ent);
out_gtt:
	gdfs_gtt_release(&gtt);
out:
	gdfs_close(src);
	strbuf_release(&sb);
	strbuf_release(&err);
	return ret;
}

void gd_objmap_release(struct gd_objmap *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}

const struct gd_objmap_ent *gd_objmap_find(const struct gd_objmap *m, uint64_t addr,
					   const struct gd_objmap_ent **border)
{
	size_t lo = 0, hi = m->n;

	/* The last entry starting at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (border)
		*border = NULL;
	if (!lo)
		return NULL;
	if (addr - m->v[lo - 1].start < m->v[lo - 1].size)
		return &m->v[lo - 1];
	if (border)
		*border = &m->v[lo - 1];
	return NULL;
}
