/*
 * Eviction: making room in the aperture (i915_gem_evict.c).
 *
 * The order follows the 2011 driver: the scan walks the least recently
 * used objects first — inactive ones, purgeable before the rest (their
 * contents may be thrown away, so evicting them is cheapest), then those
 * still in use by the GPU.  The range allocator's scan API tells which of
 * them really sit in the hole it found, so we evict only those and not the
 * whole LRU prefix.  Evicting an object the GPU still uses means waiting
 * for it; we do that with the lock dropped and return -EAGAIN so that the
 * caller starts over with fresh state.
 *
 * A purgeable (MADV_DONTNEED) object that is evicted loses its contents,
 * as the kernel's shrinker would have truncated it.
 */
#include <errno.h>

#include "gem_priv.h"
#include "log.h"
#include "util.h"

static int evict_one(struct gem_object *obj)
{
	uint64_t start = obj->gtt_node.start, size = obj->gtt_node.size;
	int ret = gem_object_unbind(obj);

	if (ret)
		return ret;
	gem_event(obj->dev, GEM_EV_EVICT, obj->id, start, size, 0);
	obj->evict_count++;
	obj->dev->stats.evictions++;
	gem_acct_evict(obj);
	/* A userptr object's pages are the client's memory: the kernel's
	 * shrinker only unpins them, it never truncates them. */
	if (obj->madv == I915_MADV_DONTNEED && !obj->userptr)
		gem_object_purge(obj);
	return 0;
}

static bool scan_add(struct gem_device *dev, struct gem_object *obj,
		     struct list_head *scanned)
{
	list_add(&obj->evict_link, scanned);	/* newest first: reverse order */
	return mm_scan_add_node(&dev->gtt, &obj->gtt_node);
}

int gem_evict_something(struct gem_device *dev, uint64_t size, uint64_t align)
{
	struct list_head scanned = LIST_HEAD_INIT(scanned);
	struct list_head victims = LIST_HEAD_INIT(victims);
	struct gem_object *obj, *next;
	uint32_t wait_seqno = 0;
	uint64_t free0;
	bool found = false;
	int pass, ret = 0;

	/*
	 * Idle objects are cheaper victims.  Retiring may also free objects
	 * whose last handle went while the GPU used them: their space is a
	 * hole the scan would not see, so the caller looks again first
	 * ("Re-check for free space after retiring requests", 2.6.32).
	 */
	free0 = mm_free_bytes(&dev->gtt);
	gem_retire_requests(dev);
	if (mm_free_bytes(&dev->gtt) > free0)
		return 0;
	mm_scan_init(&dev->gtt, size, align);
	for (pass = 0; pass < 2 && !found; pass++) {
		list_for_each_entry(obj, &dev->lists[GEM_LIST_INACTIVE], list_link) {
			if ((obj->madv == I915_MADV_DONTNEED) != (pass == 0))
				continue;
			if ((found = scan_add(dev, obj, &scanned)))
				break;
		}
	}
	if (!found) {
		list_for_each_entry(obj, &dev->lists[GEM_LIST_ACTIVE], list_link) {
			if (obj->pin_count || !gem_object_bound(obj))
				continue;
			if ((found = scan_add(dev, obj, &scanned)))
				break;
		}
	}

	/* Every scanned node must leave the scan, newest first. */
	list_for_each_entry_safe(obj, next, &scanned, evict_link) {
		list_del_init(&obj->evict_link);
		if (mm_scan_remove_node(&dev->gtt, &obj->gtt_node))
			list_add(&obj->evict_link, &victims);
	}
	if (!found)
		return -ENOSPC;

	list_for_each_entry_safe(obj, next, &victims, evict_link) {
		list_del_init(&obj->evict_link);
		if (obj->active) {
			if (!wait_seqno || seqno_passed(obj->last_read_seqno, wait_seqno))
				wait_seqno = obj->last_read_seqno;
			continue;
		}
		if (!ret)
			ret = evict_one(obj);
	}
	if (ret)
		return ret;
	if (wait_seqno) {
		ret = gem_wait_seqno(dev, wait_seqno, NULL);
		return ret ? ret : -EAGAIN;
	}
	return 0;
}

/*
 * Make room for a node at exactly [start, start + size)
 * (i915_gem_evict_for_node): evict every object in the way.  An object
 * pinned there (the ring, one placed earlier by the same execbuffer, a
 * GEM_PIN) cannot move: -ENOSPC.  One still in use by the GPU is waited
 * for with the lock dropped: -EAGAIN.
 */
int gem_evict_for_node(struct gem_device *dev, uint64_t start, uint64_t size)
{
	struct mm_node *node, *next;
	int ret;

	for (node = mm_first_node(&dev->gtt); node; node = next) {
		struct gem_object *obj = container_of(node, struct gem_object, gtt_node);

		next = mm_next_node(&dev->gtt, node);
		if (node->start >= start + size)
			break;
		if (node->start + node->size <= start)
			continue;
		if (obj->pin_count)
			return -ENOSPC;
		ret = evict_one(obj);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Unbind everything not pinned (i915_gem_evict_everything).  Waits for the
 * GPU first if anything is active; returns -EAGAIN if it had to, since
 * the caller's view is then stale.
 */
int gem_evict_everything(struct gem_device *dev, bool purgeable_only)
{
	struct gem_object *obj, *next;
	bool waited = false;
	int ret;

	if (!purgeable_only && !list_empty(&dev->lists[GEM_LIST_ACTIVE])) {
		ret = gem_gpu_idle(dev);
		if (ret)
			return ret;
		waited = true;
	}
	list_for_each_entry_safe(obj, next, &dev->lists[GEM_LIST_INACTIVE], list_link) {
		if (purgeable_only && obj->madv != I915_MADV_DONTNEED)
			continue;
		ret = evict_one(obj);
		if (ret)
			return ret;
	}
	return waited ? -EAGAIN : 0;
}
