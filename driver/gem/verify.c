/*
 * gem_verify_state: the whole memory manager checked against itself, as
 * the kernel's i915_verify_lists did under WATCH_LISTS.
 *
 * The driver keeps the same facts in several places — an object's list
 * and its state, the per-list counters and the lists, the GTT allocator
 * and the bound objects, fence registers and fenced objects, handle
 * tables and handle counts, flink names and the name map, reference
 * counts and their holders, arenas and the objects they back — and every
 * path has to update all of them together.  This walks everything once
 * and checks each fact against the others, one rule per fact
 * (GEM_VERIFY_RULES in gem_priv.h).
 *
 * It runs with dev->lock held, after every ioctl when enabled (debug
 * builds, GEMKIT_VERIFY=1, the test suite), and aborts on a violation so
 * that the test that caused it fails at the ioctl that did.  A full walk
 * costs one step per object and handle slot; after each ioctl we earn
 * GEM_VERIFY_BUDGET steps and walk once the credit covers the state, so
 * small tests are checked after every ioctl and gem_many's 100,000
 * objects every few hundred (GEMKIT_VERIFY=all checks every one).
 *
 * Another thread's ioctl may have dropped the lock to wait while holding
 * object references and execbuffer marks; with such ioctls in flight the
 * reference count is checked as a lower bound and execbuffer marks are
 * allowed.  Nothing here allocates: per-object tallies live in scratch
 * fields, and a verify_epoch stamp tells live objects and arenas from
 * dangling pointers (which ASan reports in sanitized builds).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gem_priv.h"
#include "log.h"
#include "util.h"

#define GEM_VERIFY_BUDGET	128	/* objects' worth of checking per ioctl */
#define GEM_VERIFY_LOG_MAX	16	/* violations logged per verification */

static const struct {
	const char *name;
	const char *what;
} gem_verify_rules[GEM_VERIFY_RULE_COUNT] = {
#define X(id, name, what) [GEM_VERIFY_##id] = { name, what },
	GEM_VERIFY_RULES(X)
#undef X
};

const char *gem_verify_rule_name(unsigned int rule)
{
	return rule < GEM_VERIFY_RULE_COUNT ? gem_verify_rules[rule].name : "unknown";
}

struct verify {
	struct gem_device *dev;
	uint32_t epoch;
	unsigned int others;		/* ioctls in flight besides the caller */
	uint32_t broken;		/* 1 << rule */
	unsigned int logged;
};

static void broken(struct verify *v, enum gem_verify_rule rule,
		   const struct gem_object *obj, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void broken(struct verify *v, enum gem_verify_rule rule,
		   const struct gem_object *obj, const char *fmt, ...)
{
	char detail[160];
	va_list ap;

	v->broken |= 1u << rule;
	if (v->logged++ >= GEM_VERIFY_LOG_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	if (obj)
		log_err("verify: %s: object %u (size %llu): %s (%s)",
			gem_verify_rules[rule].name, obj->id,
			(unsigned long long)obj->size, detail,
			gem_verify_rules[rule].what);
	else
		log_err("verify: %s: %s (%s)", gem_verify_rules[rule].name,
			detail, gem_verify_rules[rule].what);
}

static bool is_live(const struct verify *v, const struct gem_object *obj)
{
	return obj && obj->verify_epoch == v->epoch;
}

/* Stamp every object and arena, and clear the tallies. */
static void mark_live(struct verify *v)
{
	struct gem_device *dev = v->dev;
	struct gem_object *obj;
	struct gem_arena *arena;
	int l;

	for (l = 0; l < GEM_LIST_COUNT; l++)
		list_for_each_entry(obj, &dev->lists[l], list_link) {
			obj->verify_epoch = v->epoch;
			obj->verify_handles = 0;
			obj->verify_batches = 0;
			obj->verify_solo = false;
		}
	list_for_each_entry(arena, &dev->arenas, link) {
		arena->verify_epoch = v->epoch;
		arena->verify_bytes = 0;
		arena->verify_objects = 0;
	}
}

static void check_active(struct verify *v, struct gem_object *obj,
			 const struct gem_object *prev_active)
{
	if (!obj->active)
		return;
	if (!gem_object_bound(obj) || !obj->last_read_seqno)
		broken(v, GEM_VERIFY_ACTIVE, obj, "active, bound %d, seqno %u",
		       gem_object_bound(obj), obj->last_read_seqno);
	/* Retirement stops at the first busy object: submission order. */
	if (prev_active && obj->list == GEM_LIST_ACTIVE &&
	    !seqno_passed(obj->last_read_seqno, prev_active->last_read_seqno))
		broken(v, GEM_VERIFY_ACTIVE, obj,
		       "seqno %u after object %u's %u on the active list",
		       obj->last_read_seqno, prev_active->id,
		       prev_active->last_read_seqno);
}

static void check_domains(struct verify *v, struct gem_object *obj)
{
	uint32_t w = obj->write_domain;

	if ((w & (w - 1)) || (w & ~obj->read_domains))
		broken(v, GEM_VERIFY_DOMAINS, obj, "read 0x%x write 0x%x",
		       obj->read_domains, w);
	/* Requests end with MI_FLUSH: retiring clears GPU write domains. */
	if (!obj->active && !obj->in_exec && (w & I915_GEM_GPU_DOMAINS))
		broken(v, GEM_VERIFY_DOMAINS, obj,
		       "idle with GPU write domain 0x%x", w);
}

static void check_pin(struct verify *v, struct gem_object *obj)
{
	unsigned int pins = (obj->user_pin_count > 0) + obj->exec_pinned +
			    (obj == v->dev->ring);

	if (obj->pin_count != pins)
		broken(v, GEM_VERIFY_PIN, obj,
		       "pin_count %u, pins held %u (user %u, execbuffer %u)",
		       obj->pin_count, pins, obj->user_pin_count, obj->exec_pinned);
	if (obj->pin_count && !gem_object_bound(obj))
		broken(v, GEM_VERIFY_PIN, obj, "pinned but not bound");
	if ((obj->user_pin_count > 0) != (obj->pin_file != NULL))
		broken(v, GEM_VERIFY_PIN, obj, "user pins %u, pin file %s",
		       obj->user_pin_count, obj->pin_file ? "set" : "none");
}

static void check_gtt(struct verify *v, struct gem_object *obj)
{
	struct gem_device *dev = v->dev;
	const struct mm_node *n = &obj->gtt_node;
	uint8_t *first, *last;

	if (!gem_object_bound(obj))
		return;
	if (n->mm != &dev->gtt || n->start + n->size > dev->aperture_size ||
	    n->size < obj->size) {
		broken(v, GEM_VERIFY_GTT_NODE, obj,
		       "node 0x%llx+0x%llx %s the GTT allocator",
		       (unsigned long long)n->start, (unsigned long long)n->size,
		       n->mm == &dev->gtt ? "in" : "not in");
		return;
	}
	/* The page table maps the object's pages, then the scratch page for
	 * the rest of the node (gtt.c). */
	first = gpu_gtt_host(dev->gpu, (uint32_t)n->start);
	last = gpu_gtt_host(dev->gpu, (uint32_t)(n->start + obj->size - GTT_PAGE_SIZE));
	if (first != obj->vaddr ||
	    last != obj->vaddr + obj->size - GTT_PAGE_SIZE ||
	    (n->size > obj->size &&
	     gpu_gtt_host(dev->gpu, (uint32_t)(n->start + obj->size)) !=
	     gpu_scratch_page(dev->gpu)))
		broken(v, GEM_VERIFY_GTT_PTE, obj,
		       "PTEs at 0x%llx do not map the object's pages",
		       (unsigned long long)n->start);
}

static void check_fence_of(struct verify *v, struct gem_object *obj)
{
	int reg = obj->fence_reg;

	if (reg < 0)
		return;
	if (reg >= GEN3_NUM_FENCES || v->dev->fences[reg].obj != obj ||
	    !gem_object_bound(obj) || obj->tiling_mode == I915_TILING_NONE)
		broken(v, GEM_VERIFY_FENCE, obj,
		       "holds fence %d (register's object %s, bound %d, tiling %u)",
		       reg, reg < GEN3_NUM_FENCES && v->dev->fences[reg].obj == obj ?
		       "itself" : "another", gem_object_bound(obj), obj->tiling_mode);
}

static void check_exec(struct verify *v, struct gem_object *obj)
{
	if (obj->exec_pinned > obj->in_exec)
		broken(v, GEM_VERIFY_EXEC, obj, "pinned by %u execbuffers of %u",
		       obj->exec_pinned, obj->in_exec);
	else if (obj->in_exec > v->others)
		broken(v, GEM_VERIFY_EXEC, obj,
		       "listed by %u execbuffers with %u other ioctls running",
		       obj->in_exec, v->others);
}

/* A range of arena that an object or a view holds. */
static bool range_ok(struct verify *v, const struct gem_arena *arena,
		     const struct mm_node *node, const uint8_t *vaddr,
		     uint64_t size)
{
	return arena && arena->verify_epoch == v->epoch &&
	       node->mm == &arena->mm && mm_node_allocated(node) &&
	       node->size == size && vaddr == arena->base + node->start;
}

/* Every file holding the object may see its arena (backing.c). */
static void check_isolation(struct verify *v, struct gem_object *obj)
{
	const struct gem_arena *arena = obj->arena;
	uint32_t i, handles = obj->holder.handles;

	for (i = 0; i < obj->nmore; i++) {
		handles += obj->more[i].handles;
		if (!obj->more[i].file || !obj->more[i].handles)
			broken(v, GEM_VERIFY_HANDLE_COUNT, obj,
			       "holder %u names no file or no handle", i + 1);
	}
	if (handles != obj->handle_count || (obj->nmore && !obj->holder.file))
		broken(v, GEM_VERIFY_HANDLE_COUNT, obj,
		       "holders count %u handles, handle_count %u", handles,
		       obj->handle_count);
	if (arena->dedicated) {
		if (arena->obj != obj)
			broken(v, GEM_VERIFY_ISOLATION, obj,
			       "dedicated arena %u is another object's", arena->id);
		return;
	}
	if ((obj->holder.file && (arena->kernel || obj->holder.file != arena->owner)) ||
	    obj->nmore)
		broken(v, GEM_VERIFY_ISOLATION, obj,
		       "held by a file that may not see shared arena %u", arena->id);
}

static void check_backing(struct verify *v, struct gem_object *obj)
{
	struct gem_arena *arena = obj->arena;
	struct gem_view *view = obj->view;

	if (!range_ok(v, arena, &obj->arena_node, obj->vaddr, obj->size)) {
		broken(v, GEM_VERIFY_ARENA, obj, "backing not in arena %u",
		       arena ? arena->id : 0);
		return;
	}
	arena->verify_bytes += obj->size;
	arena->verify_objects++;
	check_isolation(v, obj);
	if (!view)
		return;
	if (!range_ok(v, view->arena, &view->node, view->vaddr, obj->size) ||
	    (view->arena->dedicated ? view->arena->obj != obj :
	     view->arena->owner != arena->owner) ||
	    view->tiling_mode != obj->tiling_mode || view->stride != obj->stride) {
		broken(v, GEM_VERIFY_ARENA, obj, "its GTT view is not in arena %u "
		       "or not of its tiling", view->arena ? view->arena->id : 0);
		return;
	}
	view->arena->verify_bytes += obj->size;
	view->arena->verify_objects++;
}

/* Fence slots against the objects that claim them (the other way round
 * is check_fence_of), and the registers against the slots. */
static void check_fences(struct verify *v, uint32_t fenced)
{
	struct gem_device *dev = v->dev;
	uint32_t slots = 0;
	int i;

	for (i = 0; i < GEN3_NUM_FENCES; i++) {
		struct gem_object *obj = dev->fences[i].obj;
		bool valid = gpu_read(dev->gpu, fence_reg_offset(i)) & I830_FENCE_REG_VALID;

		if (obj && (!is_live(v, obj) || obj->fence_reg != i))
			broken(v, GEM_VERIFY_FENCE, is_live(v, obj) ? obj : NULL,
			       "fence %d names an object that does not hold it", i);
		if (valid != (obj != NULL))
			broken(v, GEM_VERIFY_FENCE, NULL,
			       "fence %d register %s, slot %s", i,
			       valid ? "valid" : "invalid", obj ? "taken" : "free");
		slots += obj != NULL;
	}
	if (slots != fenced)
		broken(v, GEM_VERIFY_FENCE, NULL,
		       "%u fence slots taken, %u objects hold one", slots, fenced);
}

/* A file's handle table says of handle h (obj, or NULL) what it should. */
static void check_status_entry(struct verify *v, const struct gem_file *file,
			       uint32_t h, const struct gem_object *obj)
{
	const struct gem_handle_state *e;
	struct gem_handle_state want;

	if (!file->status || h >= GEM_HANDLE_STATE_MAX)
		return;
	e = &file->status[h];
	gem_status_entry(file, obj, &want);
	want.seq = e->seq;
	if ((e->seq & 1) || memcmp(e, &want, sizeof(want)))
		broken(v, GEM_VERIFY_STATUS, NULL,
		       "file %u: handle %u's entry says object %" PRIu64 " flags 0x%x "
		       "seqnos %u/%u arena %u, the handle object %" PRIu64 " flags 0x%x "
		       "seqnos %u/%u arena %u", file->id, h, e->object, e->flags,
		       e->read_seqno, e->write_seqno, e->arena, want.object, want.flags,
		       want.read_seqno, want.write_seqno, want.arena);
}

static void check_files(struct verify *v, uint32_t *file_requests)
{
	struct gem_device *dev = v->dev;
	struct gem_file *file;
	struct gem_arena *arena;

	list_for_each_entry(file, &dev->files, link) {
		struct gem_request *rq;
		uint32_t h, count = 0;
		uint64_t bytes = 0;

		for (h = 1; h < file->handles_alloc; h++) {
			struct gem_object *obj = file->handles[h];

			if (!obj) {
				if (h < file->lowest_free)
					broken(v, GEM_VERIFY_HANDLES, NULL,
					       "file %u: handle %u free below the hint %u",
					       file->id, h, file->lowest_free);
				check_status_entry(v, file, h, NULL);
				continue;
			}
			count++;
			if (!is_live(v, obj)) {
				broken(v, GEM_VERIFY_HANDLES, NULL,
				       "file %u: handle %u names no live object",
				       file->id, h);
				continue;
			}
			obj->verify_handles++;
			bytes += obj->size;
			if (obj->solo_file == file && obj->solo_handle == h)
				obj->verify_solo = true;
			check_status_entry(v, file, h, obj);
		}
		list_for_each_entry(arena, &file->arenas, owner_link)
			if (arena->owner != file || arena->dedicated)
				broken(v, GEM_VERIFY_ISOLATION, NULL,
				       "file %u lists arena %u, which is not its own",
				       file->id, arena->id);
		if (count != file->handle_count ||
		    (file->handles_alloc && file->handles[0]))
			broken(v, GEM_VERIFY_HANDLES, NULL,
			       "file %u: %u handles, counter says %u", file->id,
			       count, file->handle_count);
		if (bytes != file->handle_bytes)
			broken(v, GEM_VERIFY_HANDLES, NULL,
			       "file %u: its handles hold %llu bytes, counter says %llu",
			       file->id, (unsigned long long)bytes,
			       (unsigned long long)file->handle_bytes);
		list_for_each_entry(rq, &file->requests, file_link) {
			(*file_requests)++;
			if (rq->file != file)
				broken(v, GEM_VERIFY_REQUESTS, NULL,
				       "request %u on file %u's list names another",
				       rq->seqno, file->id);
		}
	}
}

static void check_requests(struct verify *v, uint32_t file_requests)
{
	struct gem_device *dev = v->dev;
	struct gem_request *rq, *prev = NULL;
	uint32_t with_file = 0;

	list_for_each_entry(rq, &dev->requests, link) {
		if (prev && (rq->seqno == prev->seqno ||
			     !seqno_passed(rq->seqno, prev->seqno)))
			broken(v, GEM_VERIFY_REQUESTS, NULL,
			       "seqno %u queued after %u", rq->seqno, prev->seqno);
		with_file += rq->file != NULL;
		if (rq->batch) {
			if (is_live(v, rq->batch))
				rq->batch->verify_batches++;
			else
				broken(v, GEM_VERIFY_REQUESTS, NULL,
				       "request %u holds a dead batch", rq->seqno);
		}
		prev = rq;
	}
	if (with_file != file_requests)
		broken(v, GEM_VERIFY_REQUESTS, NULL,
		       "%u requests name a file, the files list %u",
		       with_file, file_requests);
}

/* Counts against the handle and batch tallies (check_files and
 * check_requests ran before). */
static void check_holders(struct verify *v, struct gem_object *obj)
{
	struct gem_device *dev = v->dev;
	unsigned int holders = obj->handle_count + obj->active +
			       obj->verify_batches + (obj == dev->ring);

	if (obj->verify_handles != obj->handle_count)
		broken(v, GEM_VERIFY_HANDLE_COUNT, obj,
		       "handle_count %u, %u handles name it",
		       obj->handle_count, obj->verify_handles);
	if (obj->handle_count == 1 && obj->solo_file && !obj->verify_solo)
		broken(v, GEM_VERIFY_STATUS, obj,
		       "its only handle is not handle %u of the file it names",
		       obj->solo_handle);
	if (v->others ? obj->refcount < holders : obj->refcount != holders)
		broken(v, GEM_VERIFY_REFCOUNT, obj,
		       "refcount %u, holders %u (handles %u, active %d, "
		       "batches %u)%s", obj->refcount, holders,
		       obj->handle_count, obj->active, obj->verify_batches,
		       v->others ? " with ioctls in flight" : "");
	if (obj->flink_name &&
	    (idmap_lookup(&dev->names, obj->flink_name) != obj ||
	     !obj->handle_count))
		broken(v, GEM_VERIFY_FLINK, obj, "name %u: %s, %u handles",
		       obj->flink_name,
		       idmap_lookup(&dev->names, obj->flink_name) == obj ?
		       "mapped" : "not mapped to it", obj->handle_count);
}

/* Everything that is a property of one object, and the list counters. */
static void check_objects(struct verify *v, uint64_t *pinned, uint64_t *bound_bytes,
			  uint32_t *bound, uint32_t *named, uint32_t *fenced)
{
	struct gem_device *dev = v->dev;
	uint64_t total = 0, total_bytes = 0;
	int l;

	for (l = 0; l < GEM_LIST_COUNT; l++) {
		struct gem_object *obj, *prev_active = NULL;
		uint64_t count = 0, bytes = 0;

		list_for_each_entry(obj, &dev->lists[l], list_link) {
			count++;
			bytes += obj->size;
			if (obj->list != (enum gem_list)l)
				broken(v, GEM_VERIFY_LIST_TAG, obj,
				       "on list %d, records %d", l, obj->list);
			if (gem_object_state_list(obj) != (enum gem_list)l)
				broken(v, GEM_VERIFY_LIST_STATE, obj,
				       "on list %d; active %d bound %d pinned %u",
				       l, obj->active, gem_object_bound(obj),
				       obj->pin_count);
			if (idmap_lookup(&dev->objects, obj->id) != obj)
				broken(v, GEM_VERIFY_OBJECTS, obj,
				       "not in the id map under its id");
			check_active(v, obj, prev_active);
			if (obj->active)
				prev_active = obj;
			check_domains(v, obj);
			check_pin(v, obj);
			check_gtt(v, obj);
			check_fence_of(v, obj);
			check_exec(v, obj);
			check_backing(v, obj);
			check_holders(v, obj);
			if (obj->pin_count && gem_object_bound(obj))
				*pinned += obj->gtt_node.size;
			if (gem_object_bound(obj)) {
				(*bound)++;
				*bound_bytes += obj->gtt_node.size;
			}
			*named += obj->flink_name != 0;
			*fenced += obj->fence_reg >= 0;
		}
		if (count != dev->list_count[l] || bytes != dev->list_bytes[l])
			broken(v, GEM_VERIFY_LIST_COUNTERS, NULL,
			       "list %d: counters %llu objects %llu bytes, "
			       "recount %llu objects %llu bytes", l,
			       (unsigned long long)dev->list_count[l],
			       (unsigned long long)dev->list_bytes[l],
			       (unsigned long long)count, (unsigned long long)bytes);
		total += count;
		total_bytes += bytes;
	}
	if (total != dev->object_count || total_bytes != dev->object_bytes ||
	    total != dev->objects.count)
		broken(v, GEM_VERIFY_OBJECTS, NULL,
		       "%llu objects (%llu bytes) on the lists, counters say %llu "
		       "(%llu bytes), the id map holds %u",
		       (unsigned long long)total, (unsigned long long)total_bytes,
		       (unsigned long long)dev->object_count,
		       (unsigned long long)dev->object_bytes, dev->objects.count);
}

/* A kept range's bytes, counted to its arena; 0 if it is in none. */
static uint64_t kept_range(struct verify *v, const struct gem_quarantine *q,
			   bool recycle)
{
	if (q->arena->verify_epoch != v->epoch || q->node.mm != &q->arena->mm ||
	    q->recycle != recycle) {
		broken(v, GEM_VERIFY_ARENA, NULL, "a %s range is in no arena",
		       recycle ? "recycled" : "quarantined");
		return 0;
	}
	q->arena->verify_bytes += q->node.size;
	return q->node.size;
}

static void check_arenas(struct verify *v)
{
	struct gem_device *dev = v->dev;
	struct gem_quarantine *q;
	struct gem_arena *arena;
	uint64_t quarantined = 0, recycled = 0;
	uint32_t arenas = 0, recycled_ranges = 0;

	list_for_each_entry(q, &dev->quarantine, link)
		quarantined += kept_range(v, q, false);
	if (quarantined != dev->quarantine_bytes)
		broken(v, GEM_VERIFY_ARENA, NULL, "quarantine %llu bytes, counter %llu",
		       (unsigned long long)quarantined,
		       (unsigned long long)dev->quarantine_bytes);
	list_for_each_entry(q, &dev->recycle, link) {
		recycled += kept_range(v, q, true);
		recycled_ranges++;
	}
	if (recycled != dev->recycle_bytes || recycled_ranges != dev->recycle_ranges ||
	    recycled > GEM_RECYCLE_BYTES || recycled_ranges > GEM_RECYCLE_RANGES)
		broken(v, GEM_VERIFY_ARENA, NULL,
		       "recycle %llu bytes in %u ranges, counters %llu in %u",
		       (unsigned long long)recycled, recycled_ranges,
		       (unsigned long long)dev->recycle_bytes, dev->recycle_ranges);
	list_for_each_entry(arena, &dev->arenas, link) {
		arenas++;
		if (idmap_lookup(&dev->arena_ids, arena->id) != arena ||
		    arena->verify_bytes != arena->mm.allocated_bytes ||
		    arena->free != arena->size - arena->mm.allocated_bytes ||
		    arena->verify_objects != arena->ranges ||
		    (arena->dedicated && arena->ranges != 1) ||
		    (!arena->dedicated && !arena->owner && !arena->kernel &&
		     !arena->ranges))
			broken(v, GEM_VERIFY_ARENA, NULL,
			       "arena %u: %llu bytes of objects and quarantine, "
			       "allocator %llu, free %llu of %llu, %u objects and "
			       "views, %u counted%s",
			       arena->id, (unsigned long long)arena->verify_bytes,
			       (unsigned long long)arena->mm.allocated_bytes,
			       (unsigned long long)arena->free,
			       (unsigned long long)arena->size, arena->verify_objects,
			       arena->ranges, arena->dedicated ? " (dedicated)" : "");
	}
	if (arenas != dev->arena_ids.count)
		broken(v, GEM_VERIFY_ARENA, NULL, "%u arenas listed, %u in the id map",
		       arenas, dev->arena_ids.count);
}

uint32_t gem_verify_state(struct gem_device *dev)
{
	struct verify v = {
		.dev = dev,
		.epoch = ++dev->verify_epoch,
		.others = dev->ioctls_in_flight,
	};
	uint64_t pinned = 0, bound_bytes = 0;
	uint32_t bound = 0, named = 0, fenced = 0, file_requests = 0;

	gem_assert_held(dev);
	mark_live(&v);
	check_files(&v, &file_requests);
	check_requests(&v, file_requests);
	check_objects(&v, &pinned, &bound_bytes, &bound, &named, &fenced);
	if (pinned != dev->pinned_bytes)
		broken(&v, GEM_VERIFY_PINNED_BYTES, NULL,
		       "pinned nodes hold %llu bytes, counter says %llu",
		       (unsigned long long)pinned,
		       (unsigned long long)dev->pinned_bytes);
	if (bound != dev->gtt.node_count || bound_bytes != dev->gtt.allocated_bytes)
		broken(&v, GEM_VERIFY_GTT_NODE, NULL,
		       "%u bound objects (%llu bytes), the allocator holds %u "
		       "nodes (%llu bytes)", bound, (unsigned long long)bound_bytes,
		       dev->gtt.node_count,
		       (unsigned long long)dev->gtt.allocated_bytes);
	check_fences(&v, fenced);
	if (named != dev->names.count)
		broken(&v, GEM_VERIFY_FLINK, NULL,
		       "%u objects have a name, the name map holds %u",
		       named, dev->names.count);
	check_arenas(&v);
	if (v.logged > GEM_VERIFY_LOG_MAX)
		log_err("verify: %u more violations not shown",
			v.logged - GEM_VERIFY_LOG_MAX);
	return v.broken;
}

/* --- when it runs ------------------------------------------------------ */

void gem_verify_init(struct gem_device *dev)
{
	const char *env = getenv("GEMKIT_VERIFY");

#ifdef GEMKIT_DEBUG
	dev->verify = GEM_VERIFY_BUDGET;
#endif
	if (env && *env)
		dev->verify = !strcmp(env, "all") ? UINT32_MAX :
			      strcmp(env, "0") ? GEM_VERIFY_BUDGET : 0;
	if (dev->verify)
		log_info("verifying the memory manager's state after %s ioctl",
			 dev->verify == UINT32_MAX ? "every" : "each affordable");
}

/* What a full walk costs: one step per object and handle slot. */
static uint64_t verify_cost(struct gem_device *dev)
{
	struct gem_file *file;
	uint64_t cost = dev->object_count;

	list_for_each_entry(file, &dev->files, link)
		cost += file->handles_alloc;
	return cost;
}

void gem_verify_after(struct gem_device *dev, const char *what,
		      const struct gem_file *file)
{
	uint32_t rules;
	unsigned int r;

	if (!dev->verify)
		return;
	if (dev->verify != UINT32_MAX) {
		dev->verify_credit += dev->verify;
		if (dev->verify_credit < verify_cost(dev))
			return;
	}
	dev->verify_credit = 0;
	rules = gem_verify_state(dev);
	if (!rules)
		return;
	for (r = 0; r < GEM_VERIFY_RULE_COUNT; r++)
		if (rules & (1u << r))
			log_err("verify: rule %s broken after %s (file %u, pid %d)",
				gem_verify_rules[r].name, what, file ? file->id : 0,
				file ? (int)file->pid : 0);
	log_err("verify: the memory manager's state is inconsistent; aborting");
	abort();
}

void gem_ioctl_enter(struct gem_file *file)
{
	gem_lock(file->dev);
	file->dev->ioctls_in_flight++;
}

void gem_ioctl_exit(struct gem_file *file, const char *name)
{
	struct gem_device *dev = file->dev;

	dev->ioctls_in_flight--;
	gem_verify_after(dev, name, file);
	gem_unlock(dev);
}
