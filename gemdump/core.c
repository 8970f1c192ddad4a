/* The capture model in memory: records, lookups, and their text names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "util.h"

void gd_capture_set_source(struct gd_capture *c, const char *source)
{
	size_t len = strlen(source), room = sizeof(c->header.source) - 1;

	if (len <= room)
		snprintf(c->header.source, sizeof(c->header.source), "%s", source);
	else
		snprintf(c->header.source, sizeof(c->header.source), "...%s",
			 source + len - (room - 3));
}

void gd_capture_init(struct gd_capture *c)
{
	memset(c, 0, sizeof(*c));
	c->header.h.version = 1;
	c->header.h.size = sizeof(c->header);
	c->header.schema = GD_CORE_SCHEMA;
	c->device.h.version = 1;
	c->device.h.size = sizeof(c->device);
}

void gd_capture_release(struct gd_capture *c)
{
	size_t i;

	if (c->fill_release)
		c->fill_release(c->fill_arg);
	for (i = 0; i < c->nowned; i++)
		free(c->owned[i]);
	free(c->owned);
	free(c->rings);
	free(c->requests);
	free(c->objects);
	free(c->data);
	free(c->owners);
	free(c->clients);
	free(c->fences);
	free(c->regs);
	free(c->events);
	free(c->file);
	gd_capture_init(c);
}

/* Grow *v (elements of size sz, count *n) by one zeroed element. */
static void *grow(void **v, size_t *n, size_t sz)
{
	char *nv;

	/* Double at powers of two: amortised O(1) without a capacity field. */
	if (!*n || (*n >= 8 && !(*n & (*n - 1)))) {
		size_t cap = *n ? *n * 2 : 8;

		nv = realloc(*v, cap * sz);
		if (!nv)
			return NULL;
		*v = nv;
	}
	nv = (char *)*v + *n * sz;
	memset(nv, 0, sz);
	(*n)++;
	return nv;
}

#define ADD(c, field, count, type) ({					\
	type *r_ = grow((void **)&(c)->field, &(c)->count, sizeof(type)); \
	if (r_) {							\
		r_->h.version = 1;					\
		r_->h.size = sizeof(type);				\
	}								\
	r_; })

struct gd_rec_object *gd_capture_add_object(struct gd_capture *c)
{
	struct gd_rec_object *o = ADD(c, objects, nobjects, struct gd_rec_object);
	size_t n = c->nobjects - 1;
	const uint8_t **nd;

	if (!o)
		return NULL;
	/* data[] follows objects[] one for one. */
	if (!n || (n >= 8 && !(n & (n - 1)))) {
		nd = realloc(c->data, (n ? n * 2 : 8) * sizeof(*nd));
		if (!nd) {
			c->nobjects--;
			return NULL;
		}
		c->data = nd;
	}
	c->data[n] = NULL;
	return o;
}

struct gd_rec_ring *gd_capture_add_ring(struct gd_capture *c)
{
	return ADD(c, rings, nrings, struct gd_rec_ring);
}

unsigned int gd_ring_retiring(const struct gd_capture *c, const struct gd_rec_ring *r)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < c->nrequests; i++)
		if (!strncmp(c->requests[i].ring, r->name, sizeof(c->requests[i].ring)) &&
		    (int32_t)(c->requests[i].seqno - r->completed_seqno) <= 0)
			n++;
	return n;
}

struct gd_rec_request *gd_capture_add_request(struct gd_capture *c)
{
	return ADD(c, requests, nrequests, struct gd_rec_request);
}

struct gd_rec_owner *gd_capture_add_owner(struct gd_capture *c)
{
	return ADD(c, owners, nowners, struct gd_rec_owner);
}

struct gd_rec_client *gd_capture_add_client(struct gd_capture *c)
{
	return ADD(c, clients, nclients, struct gd_rec_client);
}

struct gd_rec_fence *gd_capture_add_fence(struct gd_capture *c)
{
	return ADD(c, fences, nfences, struct gd_rec_fence);
}

struct gd_rec_register *gd_capture_add_register(struct gd_capture *c, const char *name,
						uint32_t value)
{
	struct gd_rec_register *r = ADD(c, regs, nregs, struct gd_rec_register);

	if (r) {
		snprintf(r->name, sizeof(r->name), "%s", name);
		r->value = value;
	}
	return r;
}

struct gd_rec_event *gd_capture_add_event(struct gd_capture *c)
{
	return ADD(c, events, nevents, struct gd_rec_event);
}

int gd_capture_own(struct gd_capture *c, uint8_t *buf)
{
	uint8_t **no = realloc(c->owned, (c->nowned + 1) * sizeof(*no));

	if (!no)
		return -ENOMEM;
	c->owned = no;
	c->owned[c->nowned++] = buf;
	return 0;
}

const struct gd_rec_object *gd_capture_find_id(const struct gd_capture *c, uint32_t id)
{
	size_t i;

	for (i = 0; i < c->nobjects; i++)
		if (c->objects[i].id == id)
			return &c->objects[i];
	return NULL;
}

void gd_capture_totals(const struct gd_capture *c, struct gd_totals *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->n = c->nobjects;
	for (i = 0; i < c->nobjects; i++) {
		t->bytes += c->objects[i].size;
		if (c->data[i]) {
			t->captured++;
			t->captured_bytes += c->objects[i].size;
		}
		if (c->objects[i].flags & GD_OBJ_BOUND) {
			t->bound++;
			t->bound_bytes += c->objects[i].size;
		}
	}
}

const struct gd_rec_object *gd_capture_find_addr(const struct gd_capture *c, uint64_t addr)
{
	size_t i;

	for (i = 0; i < c->nobjects; i++) {
		const struct gd_rec_object *o = &c->objects[i];

		if ((o->flags & GD_OBJ_BOUND) && addr >= o->gtt_offset &&
		    addr - o->gtt_offset < o->size)
			return o;
	}
	return NULL;
}

const uint8_t *gd_capture_data(const struct gd_capture *c, const struct gd_rec_object *o)
{
	size_t i = (size_t)(o - c->objects);

	return i < c->nobjects ? c->data[i] : NULL;
}

bool gd_capture_reg(const struct gd_capture *c, const char *name, uint32_t *value)
{
	size_t i;

	for (i = 0; i < c->nregs; i++) {
		if (!strcmp(c->regs[i].name, name)) {
			*value = c->regs[i].value;
			return true;
		}
	}
	return false;
}

