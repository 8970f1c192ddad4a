/*
 * A map from 32-bit ids to pointers (open addressing, linear probing,
 * tombstones), for global object ids and flink names.  Lookups are O(1)
 * expected at 100,000 entries; nothing here allocates per entry.
 */
#ifndef GEMKIT_IDMAP_H
#define GEMKIT_IDMAP_H

#include <stdint.h>

struct idmap {
	uint32_t *keys;		/* 0 = empty, UINT32_MAX = deleted */
	void **vals;
	uint32_t cap;		/* power of two */
	uint32_t count;
	uint32_t used;		/* count + tombstones */
};

void idmap_init(struct idmap *m);
void idmap_release(struct idmap *m);
/* id must be in 1..UINT32_MAX-1.  Returns 0, -EEXIST or -ENOMEM. */
int idmap_insert(struct idmap *m, uint32_t id, void *val);
void *idmap_lookup(const struct idmap *m, uint32_t id);
void *idmap_remove(struct idmap *m, uint32_t id);

#endif
