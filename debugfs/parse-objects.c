/*
 * gemkit_objects and gemkit_clients into structs.  The owners field is a
 * comma-separated list of file:pid:comm:handle, all owners of one file
 * go into one pool so 100,000 objects cost two allocations, not 100,000.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gemdebugfs.h"
#include "record.h"
#include "util.h"

int gdfs_vec_reserve(void **v, size_t *alloc, size_t want, size_t size)
{
	void *nv;

	if (want <= *alloc)
		return 0;
	if (want > SIZE_MAX / size)
		return -ENOMEM;
	nv = realloc(*v, want * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*alloc = want;
	return 0;
}

void *gdfs_vec_push(void **v, size_t *n, size_t *alloc, size_t size)
{
	char *slot;

	if (*n == *alloc && gdfs_vec_reserve(v, alloc, *alloc ? *alloc * 2 : 64, size))
		return NULL;
	slot = (char *)*v + *n * size;
	memset(slot, 0, size);
	(*n)++;
	return slot;
}

static const struct gdfs_field object_fields[] = {
#define FIELD(k, K, t, a)	GDFS_TAB_##K(struct gdfs_object, k, a)
#include "objects.def"
#undef FIELD
};

/* An owner's fields, in order, without keys (owner.def). */
static const struct gdfs_field owner_fields[] = {
#define FIELD(k, K, t, a)	GDFS_TAB_##K(struct gdfs_owner, k, a)
#include "owner.def"
#undef FIELD
};

/* One owner "file:pid:comm:handle": its fields by position, each converted
 * as the table says. */
static int parse_owner(const char *s, size_t n, struct gdfs_owner *o)
{
	struct gdfs_kv kv[ARRAY_SIZE(owner_fields)];
	size_t i = 0, start = 0, k;

	for (k = 0; k <= n; k++) {
		if (k < n && s[k] != ':')
			continue;
		if (i == ARRAY_SIZE(owner_fields))
			return -EINVAL;
		kv[i].key = owner_fields[i].key;
		kv[i].klen = owner_fields[i].klen;
		kv[i].val = s + start;
		kv[i].vlen = k - start;
		i++;
		start = k + 1;
	}
	if (i != ARRAY_SIZE(owner_fields))
		return -EINVAL;
	return gdfs_fill_fields(owner_fields, ARRAY_SIZE(owner_fields), o, kv, (int)i,
				"owners", 0, NULL);
}

static int parse_owners(struct gdfs_objects *objs, size_t *pool_alloc,
			const struct gdfs_kv *kv, uint32_t *first, uint32_t *count)
{
	const char *s = kv->val, *end = kv->val + kv->vlen, *comma;
	struct gdfs_owner *o;

	*first = (uint32_t)objs->nowner_pool;
	*count = 0;
	while (s < end) {
		comma = memchr(s, ',', (size_t)(end - s));
		if (!comma)
			comma = end;
		o = gdfs_vec_push((void **)&objs->owner_pool, &objs->nowner_pool,
				  pool_alloc, sizeof(*o));
		if (!o)
			return -ENOMEM;
		if (parse_owner(s, (size_t)(comma - s), o))
			return -EINVAL;
		(*count)++;
		s = comma + 1;
	}
	return 0;
}

struct objects_ctx {
	struct gdfs_objects *out;
	size_t pool_alloc;
	struct gdfs_vec firsts;		/* owner_pool index per object */
};

static void object_init(void *rec)
{
	((struct gdfs_object *)rec)->fence = -1;
}

/* The owners of object index, which the field table does not cover. */
static int object_rest(void *arg, void *rec, size_t index, const struct gdfs_kv *kv,
		       int n, unsigned int line, struct strbuf *err)
{
	struct objects_ctx *ctx = arg;
	struct gdfs_object *o = rec;
	const struct gdfs_kv *owners = gdfs_kv_find(kv, n, "owners", -1);
	uint32_t *first;
	int ret;

	first = gdfs_vec_push(&ctx->firsts.v, &ctx->firsts.n, &ctx->firsts.alloc,
			      sizeof(*first));
	if (!first || ctx->firsts.n != index + 1)
		return -ENOMEM;
	if (!owners)
		return 0;
	ret = parse_owners(ctx->out, &ctx->pool_alloc, owners, first, &o->nowners);
	if (ret)
		gdfs_err(err, "gemkit_objects", line, "bad owners '%.*s'",
			 (int)(owners->vlen > 60 ? 60 : owners->vlen), owners->val);
	return ret;
}

static const struct gdfs_array_desc objects_desc = {
	.schema = "gemkit_objects",
	.tab = object_fields,
	.ntab = ARRAY_SIZE(object_fields),
	.size = sizeof(struct gdfs_object),
	.init = object_init,
	.rest = object_rest,
};

int gdfs_parse_objects(const char *buf, size_t len, struct gdfs_objects *out,
		       struct strbuf *err)
{
	struct objects_ctx ctx = { .out = out };
	struct gdfs_vec vec = { NULL, 0, 0 };
	uint32_t *firsts;
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	/* Size the arrays once from the schema's count, but never beyond
	 * what len bytes can hold: a hostile count allocates nothing big. */
	if (!gdfs_parse_schema(buf, len, &out->schema, NULL) && out->schema.count) {
		size_t want = MIN(out->schema.count, len / 32 + 1);

		if (gdfs_vec_reserve(&vec.v, &vec.alloc, want, sizeof(*out->v)) ||
		    gdfs_vec_reserve(&ctx.firsts.v, &ctx.firsts.alloc, want, sizeof(*firsts)) ||
		    gdfs_vec_reserve((void **)&out->owner_pool, &ctx.pool_alloc, want,
				     sizeof(*out->owner_pool))) {
			ret = -ENOMEM;
			goto out_free;
		}
	}
	ret = gdfs_parse_array(buf, len, &objects_desc, &out->schema, &vec, &ctx, err);
	out->v = vec.v;
	out->n = vec.n;
	if (ret)
		goto out_free;
	/* The pool moved while it grew: point into it now. */
	firsts = ctx.firsts.v;
	for (i = 0; i < out->n; i++)
		out->v[i].owners = out->v[i].nowners ? out->owner_pool + firsts[i] : NULL;
	free(ctx.firsts.v);
	return 0;

out_free:
	if (!out->v)
		free(vec.v);
	free(ctx.firsts.v);
	gdfs_objects_release(out);
	return ret;
}

void gdfs_objects_release(struct gdfs_objects *objs)
{
	free(objs->v);
	free(objs->owner_pool);
	free(objs->index);
	memset(objs, 0, sizeof(*objs));
}

static int cmp_index(const void *a, const void *b)
{
	const struct gdfs_object *x = *(const struct gdfs_object *const *)a;
	const struct gdfs_object *y = *(const struct gdfs_object *const *)b;

	return x->id < y->id ? -1 : x->id > y->id;
}

const struct gdfs_object *gdfs_objects_find(struct gdfs_objects *objs, uint32_t id)
{
	size_t lo = 0, hi, i;

	if (!objs->index && objs->n) {
		objs->index = malloc(objs->n * sizeof(*objs->index));
		if (!objs->index) {
			for (i = 0; i < objs->n; i++)
				if (objs->v[i].id == id)
					return &objs->v[i];
			return NULL;
		}
		for (i = 0; i < objs->n; i++)
			objs->index[i] = &objs->v[i];
		qsort(objs->index, objs->n, sizeof(*objs->index), cmp_index);
	}
	hi = objs->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (objs->index[mid]->id == id)
			return objs->index[mid];
		if (objs->index[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* --- gemkit_clients ----------------------------------------------------- */

static const struct gdfs_field client_fields[] = {
#define FIELD(k, K, t, a)	GDFS_TAB_##K(struct gdfs_client, k, a)
#include "clients.def"
#undef FIELD
};

static const struct gdfs_array_desc clients_desc = {
	.schema = "gemkit_clients",
	.tab = client_fields,
	.ntab = ARRAY_SIZE(client_fields),
	.size = sizeof(struct gdfs_client),
};

/* Does the schema line (up to the first newline) list key as a field? */
static bool schema_lists(const char *buf, size_t len, const char *key)
{
	const char *nl = memchr(buf, '\n', len), *p;
	size_t n = nl ? (size_t)(nl - buf) : len, klen = strlen(key);

	for (p = buf; (p = memmem(p, n - (size_t)(p - buf), key, klen)); p += klen)
		if (p > buf && (p[-1] == ',' || p[-1] == '=') &&
		    (p + klen == buf + n || p[klen] == ',' || p[klen] == ' '))
			return true;
	return false;
}

int gdfs_parse_clients(const char *buf, size_t len, struct gdfs_clients *out,
		       struct strbuf *err)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = gdfs_parse_records(buf, len, &clients_desc, &out->schema, (void **)&out->v,
				 &out->n, err);
	if (!ret)
		out->has_usage = schema_lists(buf, len, "cpu_ns");
	return ret;
}

void gdfs_clients_release(struct gdfs_clients *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}
