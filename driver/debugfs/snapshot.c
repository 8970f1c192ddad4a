/*
 * One consistent snapshot of the driver for a debugfs file: everything a
 * show function prints is copied here under dev->lock, and formatting
 * happens after the lock is released.  Copies are flat arrays sized up
 * front (counts are known under the lock), so taking a snapshot of
 * 100,000 objects is a few allocations and a linear walk.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs_priv.h"
#include "util.h"

#define PIPEASTAT	0x70024
#define PIPEBSTAT	0x71024

static bool map_and_fenceable(const struct gem_object *obj)
{
	uint64_t fence;

	if (!gem_object_bound(obj))
		return false;
	if (obj->tiling_mode == I915_TILING_NONE)
		return true;
	fence = gem_fence_size((struct gem_object *)obj);
	return !(obj->gtt_node.start & (fence - 1)) && obj->gtt_node.size >= fence;
}

static void snap_copy_obj(struct gem_device *dev, struct snap_obj *s,
			  const struct gem_object *obj)
{
	s->id = obj->id;
	s->flink_name = obj->flink_name;
	s->size = obj->size;
	if (gem_object_bound(obj)) {
		s->gtt_start = obj->gtt_node.start;
		s->gtt_size = obj->gtt_node.size;
	} else {
		s->gtt_start = 0;
		s->gtt_size = 0;
	}
	s->created_ns = obj->created_ns;
	s->bind_count = obj->bind_count;
	s->evict_count = obj->evict_count;
	s->read_domains = obj->read_domains;
	s->write_domain = obj->write_domain;
	s->last_read_seqno = obj->last_read_seqno;
	s->last_write_seqno = obj->last_write_seqno;
	s->pin_count = obj->pin_count;
	s->user_pin_count = obj->user_pin_count;
	s->tiling_mode = obj->tiling_mode;
	s->stride = obj->stride;
	s->madv = obj->madv;
	s->cache_level = obj->cache_level;
	s->handle_count = obj->handle_count;
	s->owner_first = 0;
	s->owner_count = 0;
	s->fence_reg = obj->fence_reg;
	s->creator_pid = obj->creator_pid;
	s->list = (uint8_t)obj->list;
	s->active = obj->active;
	s->dirty = obj->dirty;
	s->map_and_fenceable = map_and_fenceable(obj);
	s->is_ring = obj == dev->ring;
}

/* id -> index + 1 into snap->objs, for the walks that start elsewhere. */
static int snap_index(struct debugfs_snapshot *snap, struct idmap *map)
{
	size_t i;
	int ret;

	for (i = 0; i < snap->nobjs; i++) {
		ret = idmap_insert(map, snap->objs[i].id, (void *)(uintptr_t)(i + 1));
		if (ret)
			return ret;
	}
	return 0;
}

static long snap_lookup(struct idmap *map, uint32_t id)
{
	return (long)(uintptr_t)idmap_lookup(map, id) - 1;
}

static int snap_objects(struct gem_device *dev, struct debugfs_snapshot *snap)
{
	struct gem_object *obj;
	size_t n = 0;
	int l, i;

	snap->objs = malloc((dev->object_count ? dev->object_count : 1) *
			    sizeof(*snap->objs));
	if (!snap->objs)
		return -ENOMEM;
	for (i = 0; i < GEN3_NUM_FENCES; i++)
		snap->fence_obj[i] = -1;
	for (l = 0; l < GEM_LIST_COUNT; l++) {
		snap->list_start[l] = n;
		list_for_each_entry(obj, &dev->lists[l], list_link) {
			if (n == dev->object_count)
				return -EIO;	/* lists and count disagree */
			snap_copy_obj(dev, &snap->objs[n], obj);
			if (obj->fence_reg >= 0 && obj->fence_reg < GEN3_NUM_FENCES)
				snap->fence_obj[obj->fence_reg] = (int32_t)n;
			n++;
		}
	}
	snap->list_start[GEM_LIST_COUNT] = n;
	snap->nobjs = n;
	return 0;
}

static int snap_gtt_order(struct gem_device *dev, struct debugfs_snapshot *snap,
			  struct idmap *map)
{
	struct mm_node *node;
	size_t n = 0;

	snap->gtt_order = malloc((dev->gtt.node_count + 1) * sizeof(*snap->gtt_order));
	if (!snap->gtt_order)
		return -ENOMEM;
	for (node = mm_first_node(&dev->gtt); node; node = mm_next_node(&dev->gtt, node)) {
		struct gem_object *obj = container_of(node, struct gem_object, gtt_node);
		long idx = snap_lookup(map, obj->id);

		if (idx >= 0 && n <= dev->gtt.node_count)
			snap->gtt_order[n++] = (uint32_t)idx;
	}
	snap->ngtt = n;
	return 0;
}

/*
 * Memory by state as drm_show_memory_stats counts it: over the file's
 * handles; resident is "has its pages" (not purged), bound is in the GTT.
 * totals_only (SNAP_FILE_TOTALS): the running total of handle bytes, no
 * walk of the handles.
 */
void snap_file_fill(struct snap_file *sf, struct gem_file *file,
		    bool totals_only)
{
	struct gem_request *rq;
	uint32_t h;

	gem_assert_held(file->dev);
	memset(sf, 0, sizeof(*sf));
	sf->id = file->id;
	sf->pid = file->pid;
	memcpy(sf->comm, file->comm, sizeof(sf->comm));
	sf->comm[sizeof(sf->comm) - 1] = '\0';
	sf->handle_count = file->handle_count;
	list_for_each_entry(rq, &file->requests, file_link)
		sf->requests++;
	gem_acct_read(file, &sf->acct);
	if (totals_only) {
		sf->handle_bytes = file->handle_bytes;
		return;
	}
	for (h = 1; h < file->handles_alloc; h++) {
		struct gem_object *obj = file->handles[h];

		if (!obj)
			continue;
		sf->handle_bytes += obj->size;
		if (gem_object_bound(obj))
			sf->bound_bytes += obj->size;
		if (obj->madv != GEM_MADV_PURGED)
			sf->resident_bytes += obj->size;
		if (obj->madv == I915_MADV_DONTNEED)
			sf->purgeable_bytes += obj->size;
		if (obj->active)
			sf->active_bytes += obj->size;
	}
}

/* totals_only: no walk of the handles (SNAP_FILE_TOTALS). */
static int snap_files(struct gem_device *dev, struct debugfs_snapshot *snap,
		      struct idmap *map, bool totals_only)
{
	struct gem_file *file;
	size_t nfiles = 0, nowners = 0, i, f;
	uint32_t h;

	list_for_each_entry(file, &dev->files, link) {
		nfiles++;
		nowners += file->handle_count;
	}
	snap->files = calloc(nfiles ? nfiles : 1, sizeof(*snap->files));
	if (!snap->files)
		return -ENOMEM;
	if (map) {
		snap->owners = malloc((nowners ? nowners : 1) * sizeof(*snap->owners));
		if (!snap->owners)
			return -ENOMEM;
		/* Object slots first (counts), then fill: a CSR layout. */
		list_for_each_entry(file, &dev->files, link)
			for (h = 1; h < file->handles_alloc; h++)
				if (file->handles[h]) {
					long idx = snap_lookup(map, file->handles[h]->id);

					if (idx >= 0)
						snap->objs[idx].owner_count++;
				}
		for (i = 0; i < snap->nobjs; i++) {
			snap->objs[i].owner_first = (uint32_t)snap->nowners;
			snap->nowners += snap->objs[i].owner_count;
			snap->objs[i].owner_count = 0;
		}
	}

	f = 0;
	list_for_each_entry(file, &dev->files, link) {
		snap_file_fill(&snap->files[f++], file, totals_only);
		for (h = 1; map && !totals_only && h < file->handles_alloc; h++) {
			struct gem_object *obj = file->handles[h];
			long idx = obj ? snap_lookup(map, obj->id) : -1;

			if (idx >= 0) {
				struct snap_obj *so = &snap->objs[idx];
				struct snap_owner *ow =
					&snap->owners[so->owner_first + so->owner_count++];

				ow->file_id = file->id;
				ow->handle = h;
			}
		}
	}
	snap->nfiles = f;
	return 0;
}

static int snap_requests(struct gem_device *dev, struct debugfs_snapshot *snap)
{
	struct gem_request *rq;
	size_t n = 0;

	list_for_each_entry(rq, &dev->requests, link)
		n++;
	snap->reqs = malloc((n ? n : 1) * sizeof(*snap->reqs));
	if (!snap->reqs)
		return -ENOMEM;
	n = 0;
	list_for_each_entry(rq, &dev->requests, link) {
		struct snap_request *s = &snap->reqs[n++];

		s->seqno = rq->seqno;
		s->tail = rq->tail;
		s->emitted_ns = rq->emitted_ns;
		s->file_id = rq->file ? rq->file->id : 0;
		s->pid = rq->file ? rq->file->pid : 0;
	}
	snap->nreqs = n;
	return 0;
}

static int snap_batches(struct gem_device *dev, struct debugfs_snapshot *snap)
{
	struct gem_object *obj;
	size_t n = 0;

	list_for_each_entry(obj, &dev->lists[GEM_LIST_ACTIVE], list_link)
		if (obj->read_domains & I915_GEM_DOMAIN_COMMAND)
			n++;
	snap->batches = calloc(n ? n : 1, sizeof(*snap->batches));
	if (!snap->batches)
		return -ENOMEM;
	list_for_each_entry(obj, &dev->lists[GEM_LIST_ACTIVE], list_link) {
		struct snap_batch *b;

		if (!(obj->read_domains & I915_GEM_DOMAIN_COMMAND) ||
		    !gem_object_bound(obj) || !obj->vaddr)
			continue;
		b = &snap->batches[snap->nbatches];
		b->data = malloc(obj->size);
		if (!b->data)
			return -ENOMEM;
		memcpy(b->data, obj->vaddr, obj->size);
		b->gtt_offset = gem_object_gtt_offset(obj);
		b->size = (uint32_t)obj->size;
		snap->nbatches++;
	}
	return 0;
}

static void snap_registers(struct gem_device *dev, struct debugfs_snapshot *snap)
{
	struct gpu *gpu = dev->gpu;

	snap->head = gpu_read(gpu, PRB0_HEAD);
	snap->tail = gpu_read(gpu, PRB0_TAIL);
	snap->acthd = gpu_read(gpu, ACTHD);
	snap->ctl = gpu_read(gpu, PRB0_CTL);
	snap->start = gpu_read(gpu, PRB0_START);
	snap->nopid = gpu_read(gpu, NOPID);
	snap->ier = gpu_read(gpu, IER);
	snap->iir = gpu_read(gpu, IIR);
	snap->imr = gpu_read(gpu, IMR);
	snap->pipea_stat = gpu_read(gpu, PIPEASTAT);
	snap->pipeb_stat = gpu_read(gpu, PIPEBSTAT);
	snap->eir = gpu_read(gpu, EIR);
	snap->instdone = gpu_read(gpu, INSTDONE);
	snap->ipehr = gpu_read(gpu, IPEHR);
}

/* The fences in use and the outstanding requests: a walk of the 16
 * fence registers and of the requests the ring holds, never of objects. */
static void snap_device_extra(struct gem_device *dev, struct debugfs_snapshot *snap)
{
	struct gem_request *rq;
	unsigned int i;

	for (i = 0; i < GEN3_NUM_FENCES; i++)
		if (dev->fences[i].obj)
			snap->fences_used++;
	list_for_each_entry(rq, &dev->requests, link) {
		if (!snap->requests_outstanding++)
			snap->oldest_request_ns = rq->emitted_ns;
	}
	snap->hangcheck_period_ns = gem_hangcheck_period_ns(dev);
}

int debugfs_snapshot_take(struct gem_device *dev, unsigned int want,
			  struct debugfs_snapshot *snap)
{
	struct idmap map;
	bool need_map;
	int ret = 0;

	memset(snap, 0, sizeof(*snap));
	if (want & SNAP_OWNERS)
		want |= SNAP_FILES | SNAP_OBJECTS;
	if (want & SNAP_GTT_ORDER)
		want |= SNAP_OBJECTS;
	snap->want = want;
	need_map = want & (SNAP_OWNERS | SNAP_GTT_ORDER);
	idmap_init(&map);

	gem_lock(dev);
	/* What the GPU has finished is shown retired, as after a wait:
	 * libgem answers waits of idle objects without gemd. */
	gem_retire_requests(dev);
	snap->taken_ns = now_ns();
	snap->object_count = dev->object_count;
	snap->object_bytes = dev->object_bytes;
	memcpy(snap->list_count, dev->list_count, sizeof(snap->list_count));
	memcpy(snap->list_bytes, dev->list_bytes, sizeof(snap->list_bytes));
	snap->aperture_size = dev->aperture_size;
	snap->pinned_bytes = dev->pinned_bytes;
	snap->gtt_free = mm_free_bytes(&dev->gtt);
	snap->gtt_largest_hole = mm_largest_hole(&dev->gtt);
	snap_device_extra(dev, snap);
	snap->next_seqno = dev->next_seqno;
	snap->hw_seqno = gem_hw_seqno(dev);
	snap->waiting_seqno = dev->waiting_seqno;
	snap->ring_tail = dev->ring_tail;
	snap->wedged = dev->wedged;
	snap->gpu_stopped = gpu_stopped(dev->gpu);
	snap->gpu_idle = gpu_idle(dev->gpu);
	snap->stats = dev->stats;
	gpu_get_stats(dev->gpu, &snap->gpu);
	snap_registers(dev, snap);
	gem_irq_lock(dev);
	snap->irq_count = dev->irq_count;
	snap->irq_seqno = dev->irq_seqno;
	gem_irq_unlock(dev);

	if (want & SNAP_HWS) {
		volatile uint32_t *hws = gpu_hws(dev->gpu);
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(snap->hws); i++)
			snap->hws[i] = hws[i];
	}
	if (want & SNAP_OBJECTS) {
		ret = snap_objects(dev, snap);
		if (ret)
			goto out_unlock;
	}
	if (need_map) {
		ret = snap_index(snap, &map);
		if (ret)
			goto out_unlock;
	}
	if (want & SNAP_GTT_ORDER) {
		ret = snap_gtt_order(dev, snap, &map);
		if (ret)
			goto out_unlock;
	}
	if (want & (SNAP_FILES | SNAP_FILE_TOTALS)) {
		ret = snap_files(dev, snap, want & SNAP_OWNERS ? &map : NULL,
				 !(want & SNAP_FILES));
		if (ret)
			goto out_unlock;
	}
	if (want & SNAP_REQUESTS) {
		ret = snap_requests(dev, snap);
		if (ret)
			goto out_unlock;
	}
	if ((want & SNAP_RING) && dev->ring && dev->ring->vaddr) {
		snap->ring = malloc(dev->ring->size);
		if (!snap->ring) {
			ret = -ENOMEM;
			goto out_unlock;
		}
		memcpy(snap->ring, dev->ring->vaddr, dev->ring->size);
		snap->ring_size = (uint32_t)dev->ring->size;
	}
	if (want & SNAP_BATCHES)
		ret = snap_batches(dev, snap);
out_unlock:
	gem_unlock(dev);
	idmap_release(&map);
	if (ret)
		debugfs_snapshot_release(snap);
	return ret;
}

void debugfs_snapshot_release(struct debugfs_snapshot *snap)
{
	size_t i;

	free(snap->objs);
	free(snap->gtt_order);
	free(snap->owners);
	free(snap->files);
	free(snap->reqs);
	free(snap->ring);
	if (snap->batches)
		for (i = 0; i < snap->nbatches; i++)
			free(snap->batches[i].data);
	free(snap->batches);
	memset(snap, 0, sizeof(*snap));
}

/* files[] is in open order, i.e. by increasing id: binary search. */
const struct snap_file *snap_file_of(const struct debugfs_snapshot *snap, uint32_t id)
{
	size_t lo = 0, hi = snap->nfiles, i;

	while (lo < hi) {
		i = lo + (hi - lo) / 2;
		if (snap->files[i].id == id)
			return &snap->files[i];
		if (snap->files[i].id < id)
			lo = i + 1;
		else
			hi = i;
	}
	return NULL;
}
