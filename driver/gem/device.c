/* The GEM device: set-up and tear-down, interrupts, arenas and mmap lookups. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "gem_priv.h"
#include "log.h"
#include "util.h"

#ifdef GEMKIT_DEBUG
__thread unsigned int gem_locks_held;

void gem_lock_bug(const char *what, enum gem_lock_class class)
{
	static const char *const names[GEM_LOCK_CLASSES] = {
		[GEM_LOCK_DEV] = "dev->lock",
		[GEM_LOCK_IRQ] = "irq_lock",
		[GEM_LOCK_ERROR] = "error_lock",
	};

	log_err("lock order: %s %s (this thread holds mask 0x%x); aborting",
		names[class], what, gem_locks_held);
	abort();
}
#endif

uint32_t gem_hw_seqno(struct gem_device *dev)
{
	return gpu_hws(dev->gpu)[I915_GEM_HWS_INDEX];
}

/* The "interrupt handler": wake every waiter; retirement happens in
 * process context (waiters and the retire worker), as in i915. */
static void gem_user_interrupt(void *data)
{
	struct gem_device *dev = data;

	uint32_t seqno = gem_hw_seqno(dev);

	gem_acct_interrupt(dev, seqno);
	gem_irq_lock(dev);
	dev->irq_count++;
	dev->irq_seqno = seqno;
	pthread_cond_broadcast(&dev->irq_cond);
	gem_irq_unlock(dev);
}

static void gem_error_interrupt(void *data)
{
	struct gem_device *dev = data;

	/* Hangcheck captures, logs and recovers at once (not on its timer). */
	gem_hangcheck_error_irq(dev);
}

static const struct gpu_ops gem_gpu_ops = {
	.user_interrupt = gem_user_interrupt,
	.error_interrupt = gem_error_interrupt,
	.run_start = gem_acct_gpu_run_start,
	.run_end = gem_acct_gpu_run_end,
};

/* The ring is a kernel-owned object pinned in the GTT, as in i915. */
static int gem_ring_init(struct gem_device *dev)
{
	struct gem_object *ring;
	int ret;

	ret = gem_object_create(dev, NULL, GEM_RING_SIZE, &ring);
	if (ret)
		return ret;
	ret = gem_object_pin(ring, 4096, true);
	if (ret) {
		gem_object_put(ring);
		return ret;
	}
	dev->ring = ring;
	dev->ring_tail = 0;
	gpu_write(dev->gpu, PRB0_CTL, 0);
	gpu_write(dev->gpu, PRB0_HEAD, 0);
	gpu_write(dev->gpu, PRB0_TAIL, 0);
	gpu_write(dev->gpu, PRB0_START, gem_object_gtt_offset(ring));
	gpu_write(dev->gpu, PRB0_CTL,
		  ((GEM_RING_SIZE - 4096) & RING_NR_PAGES) | RING_VALID);
	return 0;
}

/* GEMKIT_CS_STALL_MS=N (gemd(8)): the simulated GPU is starved of the
 * CPU for N ms before each batch, for the tests of hangcheck. */
static uint64_t cs_stall_ns(void)
{
	const char *env = getenv("GEMKIT_CS_STALL_MS");
	unsigned long ms;
	char *end;

	if (!env || !*env)
		return 0;
	ms = strtoul(env, &end, 10);
	if (*end || ms > 60000) {
		log_warn("ignoring GEMKIT_CS_STALL_MS='%s': not milliseconds "
			 "up to 60000", env);
		return 0;
	}
	log_notice("GEMKIT_CS_STALL_MS: the GPU is off the CPU for %lu ms "
		   "before each batch", ms);
	return ms * 1000000ull;
}

int gem_device_create(const struct gem_device_config *cfg, struct gem_device **out)
{
	struct gpu_config gcfg = {
		.aperture_size = cfg->aperture_size ? cfg->aperture_size : 256u << 20,
		.blit_bytes_per_sec = cfg->blit_bytes_per_sec,
		.cmd_cost_ns = cfg->cmd_cost_ns,
		.stall_ns = cs_stall_ns(),
		.cs_nice = cfg->gpu_nice,
	};
	struct gem_device *dev;
	pthread_condattr_t attr;
	int i, ret;

	dev = gem_calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	pthread_mutex_init(&dev->lock, NULL);
	pthread_mutex_init(&dev->irq_lock, NULL);
	/* gem_wait_seqno's deadlines are CLOCK_MONOTONIC: on the default
	 * clock they would all lie in the past and every wait would spin. */
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&dev->irq_cond, &attr);
	pthread_condattr_destroy(&attr);
	pthread_cond_init(&dev->retire_cond, NULL);
	for (i = 0; i < GEM_LIST_COUNT; i++)
		INIT_LIST_HEAD(&dev->lists[i]);
	INIT_LIST_HEAD(&dev->arenas);
	INIT_LIST_HEAD(&dev->kernel_arenas);
	INIT_LIST_HEAD(&dev->quarantine);
	INIT_LIST_HEAD(&dev->recycle);
	INIT_LIST_HEAD(&dev->files);
	INIT_LIST_HEAD(&dev->requests);
	INIT_LIST_HEAD(&dev->syncfiles_pending);
	INIT_LIST_HEAD(&dev->syncfiles_done);
	idmap_init(&dev->objects);
	idmap_init(&dev->names);
	idmap_init(&dev->arena_ids);
	for (i = 0; i < GEN3_NUM_FENCES; i++)
		dev->fences[i].obj = NULL;
	dev->hws_fd = -1;
	dev->mmio_fd = -1;
	dev->next_object_id = 1;
	dev->next_name = 1;
	dev->next_arena_id = 1;
	dev->next_file_id = 1;
	dev->next_seqno = 1;
	dev->aperture_size = gcfg.aperture_size;
	dev->share_names = cfg->share_names;
	mm_init(&dev->gtt, 0, dev->aperture_size);
	/* Without memory for the log, run without one (debugfs shows none). */
	(void)gem_event_log_init(&dev->events, GEM_EVENT_LOG_SIZE);
	ret = gem_params_init(&dev->params);
	if (ret)
		goto out_free;
	ret = gem_acct_device_init(dev);
	if (ret)
		goto out_params;

	/* In memfds so that clients can map them (status.c). */
	ret = gem_status_pages_init(dev);
	if (ret)
		goto out_acct;
	gcfg.hws = dev->hws;
	gcfg.mmio = dev->mmio;
	dev->gpu = gpu_create(&gcfg, &gem_gpu_ops, dev);
	if (!dev->gpu) {
		ret = -errno;
		goto out_acct;
	}
	if (gpu_cs_nice_error(dev->gpu))
		log_info("the GPU's thread runs at gemd's priority: nice %d needs "
			 "CAP_SYS_NICE or RLIMIT_NICE (%s)", cfg->gpu_nice,
			 strerror(gpu_cs_nice_error(dev->gpu)));

	gem_lock(dev);
	ret = gem_ring_init(dev);
	gem_unlock(dev);
	if (ret)
		goto out_gpu;

	gem_verify_init(dev);
	ret = gem_retire_worker_start(dev);
	if (ret)
		goto out_ring;
	ret = gem_hangcheck_start(dev, cfg);
	if (ret)
		goto out_retire;

	/* Counted from here: what clients make gemd allocate. */
	gem_faultsim_init();
	*out = dev;
	return 0;

out_retire:
	gem_retire_worker_stop(dev);
out_ring:
	gem_lock(dev);
	gem_object_unpin(dev->ring);
	gem_object_put(dev->ring);
	gem_unlock(dev);
out_gpu:
	gpu_destroy(dev->gpu);
out_acct:
	gem_acct_device_fini(dev);
out_params:
	gem_params_release(&dev->params);
out_free:
	gem_status_pages_fini(dev);
	gem_backing_fini(dev);
	gem_event_log_release(&dev->events);
	free(dev);
	return ret;
}

void gem_device_unblock(struct gem_device *dev)
{
	gem_irq_lock(dev);
	__atomic_store_n(&dev->closing, true, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&dev->irq_cond);
	gem_irq_unlock(dev);
}

void gem_device_destroy(struct gem_device *dev)
{
	struct gem_file *file;
	int64_t timeout = 100000000;

	gem_hangcheck_stop(dev);
	gem_retire_worker_stop(dev);

	/* From here on only the command streamer runs besides us (the
	 * server and debugfs stopped first), so the lists of files and the
	 * counters can be read without dev->lock. */
	while (!list_empty(&dev->files)) {
		file = list_first_entry(&dev->files, struct gem_file, link);
		gem_file_release(file);
	}

	/* Our own wait for the GPU below is not a client's. */
	__atomic_store_n(&dev->closing, false, __ATOMIC_RELEASE);
	gem_lock(dev);
	if (!list_empty(&dev->requests)) {
		struct gem_request *last =
			list_last_entry(&dev->requests, struct gem_request, link);

		if (gem_wait_seqno(dev, last->seqno, &timeout))
			log_warn("GPU did not idle at shutdown; discarding its work");
	}
	gem_retire_requests(dev);
	gem_unlock(dev);

	/* Stop the command streamer before its memory goes away. */
	gpu_reset(dev->gpu);

	gem_lock(dev);
	/* Requests that never completed still hold their objects. */
	while (!list_empty(&dev->requests)) {
		struct gem_request *rq =
			list_first_entry(&dev->requests, struct gem_request, link);

		gem_request_free(dev, rq);
	}
	while (!list_empty(&dev->lists[GEM_LIST_ACTIVE])) {
		struct gem_object *obj = list_first_entry(&dev->lists[GEM_LIST_ACTIVE],
							  struct gem_object, list_link);

		obj->active = false;
		gem_object_update_list(obj);
		gem_object_put(obj);
	}
	if (dev->ring) {
		gem_object_unpin(dev->ring);
		gem_object_put(dev->ring);
		dev->ring = NULL;
	}
	gem_syncfiles_wedged(dev);	/* nothing will signal them now */
	gem_syncfiles_fini(dev);
	gem_unlock(dev);

	if (dev->object_count)
		log_warn("%llu objects still alive at shutdown",
			 (unsigned long long)dev->object_count);
	gpu_destroy(dev->gpu);
	gem_acct_device_fini(dev);
	gem_status_pages_fini(dev);
	gem_backing_fini(dev);
	idmap_release(&dev->objects);
	idmap_release(&dev->names);
	idmap_release(&dev->arena_ids);
	gem_event_log_release(&dev->events);
	gem_params_release(&dev->params);
	pthread_cond_destroy(&dev->retire_cond);
	pthread_cond_destroy(&dev->irq_cond);
	pthread_mutex_destroy(&dev->irq_lock);
	pthread_mutex_destroy(&dev->lock);
	free(dev);
}

/*
 * drm_vma_offset_lookup + drm_vma_node_is_allowed: the offset names an
 * object and a mapping type (I915_MMAP_OFFSET_*), and only a file holding
 * a handle to the object may map it.
 */
int gem_mmap_lookup(struct gem_file *file, uint64_t offset, uint64_t length,
		    struct gem_backing_loc *loc)
{
	struct gem_device *dev = file->dev;
	uint32_t id = (uint32_t)(offset >> GEM_FAKE_OFFSET_SHIFT);
	uint32_t type = (uint32_t)(offset >> GEM_FAKE_TYPE_SHIFT) & 3;
	uint64_t within = offset & ((1ull << GEM_FAKE_TYPE_SHIFT) - 1);
	struct gem_object *obj;
	int ret = 0;

	/* drm_gem_mmap on an unplugged device */
	if (gem_file_unplugged(file))
		return -ENODEV;
	gem_lock(dev);
	obj = idmap_lookup(&dev->objects, id);
	if (!obj) {
		ret = -EINVAL;
		goto out_unlock;
	}
	if (!gem_holder_find(obj, file)) {
		ret = -EACCES;
		goto out_unlock;
	}
	/* Like drm_vma_offset: the range must lie inside one object. */
	if ((within & 4095) || within >= obj->size ||
	    length > obj->size - within || !length) {
		ret = -EINVAL;
		goto out_unlock;
	}
	if (obj->madv == GEM_MADV_PURGED) {
		gem_object_location(obj, loc);
		loc->flags |= GEM_LOC_PURGED;
	} else if (type == I915_MMAP_OFFSET_GTT && obj->tiling_mode != I915_TILING_NONE) {
		ret = gem_view_get(obj);
		if (ret)
			goto out_unlock;
		gem_view_location(obj, loc);
	} else {
		gem_object_hand_out(obj, loc);
		obj->client_mapped = true;
	}
	loc->offset += within;
	loc->size = length;
out_unlock:
	gem_unlock(dev);
	return ret;
}
