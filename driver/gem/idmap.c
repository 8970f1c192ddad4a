/* A u32 → pointer hash map for object ids and flink names. */
#include <errno.h>
#include <stdlib.h>

#include "faultsim.h"
#include "idmap.h"

#define IDMAP_DELETED UINT32_MAX

static uint32_t idmap_hash(uint32_t id)
{
	/* Fibonacci hashing: ids are sequential, so spread them. */
	return id * 2654435761u;
}

void idmap_init(struct idmap *m)
{
	m->keys = NULL;
	m->vals = NULL;
	m->cap = 0;
	m->count = 0;
	m->used = 0;
}

void idmap_release(struct idmap *m)
{
	free(m->keys);
	free(m->vals);
	idmap_init(m);
}

static void idmap_place(uint32_t *keys, void **vals, uint32_t cap,
			uint32_t id, void *val)
{
	uint32_t i = idmap_hash(id) & (cap - 1);

	while (keys[i] != 0)
		i = (i + 1) & (cap - 1);
	keys[i] = id;
	vals[i] = val;
}

static int idmap_resize(struct idmap *m, uint32_t cap)
{
	uint32_t *keys = gem_calloc(cap, sizeof(*keys));
	void **vals = gem_calloc(cap, sizeof(*vals));
	uint32_t i;

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (i = 0; i < m->cap; i++)
		if (m->keys[i] != 0 && m->keys[i] != IDMAP_DELETED)
			idmap_place(keys, vals, cap, m->keys[i], m->vals[i]);
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	m->used = m->count;
	return 0;
}

static int idmap_find(const struct idmap *m, uint32_t id)
{
	uint32_t i;

	if (!m->cap)
		return -1;
	i = idmap_hash(id) & (m->cap - 1);
	while (m->keys[i] != 0) {
		if (m->keys[i] == id)
			return (int)i;
		i = (i + 1) & (m->cap - 1);
	}
	return -1;
}

int idmap_insert(struct idmap *m, uint32_t id, void *val)
{
	int ret;

	if (id == 0 || id == IDMAP_DELETED)
		return -EINVAL;
	if (idmap_find(m, id) >= 0)
		return -EEXIST;
	/* Keep the load (with tombstones) under 1/2 for short probes. */
	if ((m->used + 1) * 2 > m->cap) {
		uint32_t cap = m->cap ? m->cap : 64;

		while ((m->count + 1) * 4 > cap)
			cap *= 2;
		ret = idmap_resize(m, cap);
		if (ret)
			return ret;
	}
	idmap_place(m->keys, m->vals, m->cap, id, val);
	m->count++;
	m->used++;
	return 0;
}

void *idmap_lookup(const struct idmap *m, uint32_t id)
{
	int i = idmap_find(m, id);

	return i < 0 ? NULL : m->vals[i];
}

void *idmap_remove(struct idmap *m, uint32_t id)
{
	int i = idmap_find(m, id);
	void *val;

	if (i < 0)
		return NULL;
	val = m->vals[i];
	m->keys[i] = IDMAP_DELETED;
	m->vals[i] = NULL;
	m->count--;
	return val;
}
