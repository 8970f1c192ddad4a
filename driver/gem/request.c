/*
 * Requests: ring emission, seqnos, retirement, and every way of waiting
 * for the GPU (busy, wait, throttle).
 *
 * A request is what i915_add_request made it: a flush, the seqno stored
 * into the hardware status page with MI_STORE_DWORD_INDEX, and
 * MI_USER_INTERRUPT.  Objects used by a request are "active" and hold a
 * reference until it retires, so they outlive GEM_CLOSE and their file.
 *
 * Waiting never holds dev->lock: gem_wait_seqno drops it, sleeps on the
 * interrupt condition variable and takes it again, so the caller must
 * revalidate anything it had looked at (objects it holds a reference to
 * stay allocated, but may have moved).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "gem_priv.h"
#include "log.h"
#include "util.h"

#define RETIRE_PERIOD_NS	(10ull * 1000 * 1000)
/* How long the thread that submitted may run the GPU itself (gpu_run):
 * a nop batch or a small blit, not a frame. */
#define INLINE_RUN_NS		(50ull * 1000)

/* This thread queued work the GPU has not been told to run yet. */
static __thread bool submitted;

static uint32_t ring_head(struct gem_device *dev)
{
	return gpu_read(dev->gpu, PRB0_HEAD) & HEAD_ADDR;
}

static uint32_t ring_space(struct gem_device *dev)
{
	int space = (int)ring_head(dev) - (int)(dev->ring_tail + 8);

	if (space < 0)
		space += GEM_RING_SIZE;
	return (uint32_t)space;
}

/*
 * Wait (lock dropped) for the command streamer to consume more ring: as
 * long as it takes, as intel_ring_wait_for_space does, unless the client
 * is interrupted by a signal (-EINTR; the ring is as it was).
 */
static int ring_wait_for_space(struct gem_device *dev, uint32_t bytes)
{
	while (ring_space(dev) < bytes) {
		/* A stopped ring is reset and replayed by hangcheck.c. */
		if (dev->wedged)
			return -EIO;
		if (gem_signal_pending() ||
		    __atomic_load_n(&dev->closing, __ATOMIC_ACQUIRE))
			return -EINTR;
		gpu_run(dev->gpu, 0);
		gem_unlock(dev);
		{
			struct timespec ts = { 0, 50000 };

			nanosleep(&ts, NULL);
		}
		gem_lock(dev);
	}
	/* Nothing new goes into the ring of a wedged device (hangcheck.c):
	 * its requests would never complete. */
	return dev->wedged ? -EIO : 0;
}

/* Reserve room for dwords (intel_ring_begin); pads to the ring's end
 * with MI_NOOP when the commands would not fit before wrapping. */
int gem_ring_begin(struct gem_device *dev, unsigned int dwords)
{
	uint32_t bytes = dwords * 4;
	int ret;

	gem_assert_held(dev);

	if (dev->ring_tail + bytes > GEM_RING_SIZE) {
		uint32_t rem = GEM_RING_SIZE - dev->ring_tail;
		uint32_t *p;

		ret = ring_wait_for_space(dev, rem);
		if (ret)
			return ret;
		p = (uint32_t *)(dev->ring->vaddr + dev->ring_tail);
		for (; rem; rem -= 4)
			*p++ = MI_NOOP;
		dev->ring_tail = 0;
	}
	return ring_wait_for_space(dev, bytes);
}

void gem_ring_emit(struct gem_device *dev, uint32_t dw)
{
	*(volatile uint32_t *)(dev->ring->vaddr + dev->ring_tail) = dw;
	dev->ring_tail += 4;
}

/* The GPU gets the new TAIL, but only gem_gpu_kick starts it: the
 * submitting thread runs short work itself once it has let go of the
 * lock, saving two thread switches per request. */
void gem_ring_advance(struct gem_device *dev)
{
	dev->ring_tail &= GEM_RING_SIZE - 1;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	gpu_submit(dev->gpu, dev->ring_tail);
	submitted = true;
}

void gem_gpu_kick(struct gem_device *dev)
{
	if (!submitted)
		return;
	submitted = false;
	gpu_run(dev->gpu, INLINE_RUN_NS);
}

struct gem_request *gem_request_alloc(void)
{
	struct gem_request *rq = gem_calloc(1, sizeof(*rq));

	if (rq) {
		INIT_LIST_HEAD(&rq->link);
		INIT_LIST_HEAD(&rq->file_link);
	}
	return rq;
}

uint32_t gem_add_request(struct gem_device *dev, struct gem_file *file,
			 struct gem_request *rq)
{
	uint32_t seqno;

	seqno = dev->next_seqno++;
	dev->stats.requests++;
	if (dev->next_seqno == 0)	/* 0 means "no seqno" */
		dev->next_seqno = 1;
	gem_acct_request(dev, file, seqno);
	gem_ring_emit(dev, MI_FLUSH);
	gem_ring_emit(dev, MI_NOOP);
	gem_ring_emit(dev, MI_STORE_DWORD_INDEX);
	gem_ring_emit(dev, I915_GEM_HWS_INDEX << MI_STORE_DWORD_INDEX_SHIFT);
	gem_ring_emit(dev, seqno);
	gem_ring_emit(dev, MI_USER_INTERRUPT);
	gem_ring_advance(dev);

	gem_event(dev, GEM_EV_SUBMIT, 0, seqno, file ? file->id : 0, 0);
	rq->seqno = seqno;
	rq->tail = dev->ring_tail;
	rq->emitted_ns = now_ns();
	rq->file = file;
	if (file) {
		rq->watchdog_ns = file->watchdog_ns;
		rq->file_id = file->id;
		rq->pid = file->pid;
		memcpy(rq->comm, file->comm, sizeof(rq->comm));
	}
	/* Wake the retire worker only when it sleeps on an empty list, not
	 * in its timed sleep: that one ends within RETIRE_PERIOD_NS anyway,
	 * and a client whose every request finds the list empty (the last
	 * one retired by its own next call, as a nop execbuffer loop's is)
	 * would otherwise wake it, and switch to it, once per request. */
	if (dev->retire_idle) {
		dev->retire_idle = false;
		pthread_cond_signal(&dev->retire_cond);
	}
	list_add_tail(&rq->link, &dev->requests);
	if (file)
		list_add_tail(&rq->file_link, &file->requests);
	return seqno;
}

void gem_request_free(struct gem_device *dev, struct gem_request *rq)
{
	(void)dev;
	list_del_init(&rq->link);
	list_del_init(&rq->file_link);
	if (rq->batch)
		gem_object_put(rq->batch);
	free(rq);
}

void gem_retire_requests(struct gem_device *dev)
{
	uint32_t hw = gem_hw_seqno(dev);
	struct gem_object *obj, *next;
	/* whose requests these were (acct.h); more share the first ones' */
	struct gem_file *files[32];
	unsigned int nfiles = 0;

	gem_assert_held(dev);

	while (!list_empty(&dev->requests)) {
		struct gem_request *rq =
			list_first_entry(&dev->requests, struct gem_request, link);

		if (!seqno_passed(hw, rq->seqno))
			break;
		if (nfiles < ARRAY_SIZE(files))
			files[nfiles++] = rq->file;
		gem_event(dev, GEM_EV_RETIRE, 0, rq->seqno, 0, 0);
		gem_request_free(dev, rq);
		dev->stats.retires++;
	}
	/* The active list is in submission order: stop at the first busy. */
	list_for_each_entry_safe(obj, next, &dev->lists[GEM_LIST_ACTIVE], list_link) {
		uint32_t old_write = obj->write_domain;

		if (!seqno_passed(hw, obj->last_read_seqno))
			break;
		obj->active = false;
		obj->write_domain &= ~I915_GEM_GPU_DOMAINS;
		/* What the GPU wrote shows through the GTT view now. */
		if (old_write & I915_GEM_GPU_DOMAINS)
			gem_view_sync(obj);
		gem_event_domain(obj, obj->read_domains, old_write);
		gem_object_update_list(obj);
		gem_object_put(obj);	/* the active reference */
	}
	gem_syncfiles_retire(dev, hw);
	gem_acct_retired(files, nfiles);
}

void gem_request_file_release(struct gem_file *file)
{
	struct gem_request *rq, *next;

	list_for_each_entry_safe(rq, next, &file->requests, file_link) {
		list_del_init(&rq->file_link);
		rq->file = NULL;
	}
}

/*
 * Sleep until seqno has passed, the GPU stops on an error (-EIO), or the
 * timeout (if any) expires (-ETIME; *timeout_ns then holds 0).  Called
 * and returns with dev->lock held; drops it while sleeping.
 */
int gem_wait_seqno(struct gem_device *dev, uint32_t seqno, int64_t *timeout_ns)
{
	uint64_t start = now_ns(), deadline = 0;
	int ret = 0;

	gem_assert_held(dev);

	/* Callers loop until the object they wait for is inactive: retire,
	 * or an already-passed seqno would be waited for forever. */
	if (seqno_passed(gem_hw_seqno(dev), seqno)) {
		gem_retire_requests(dev);
		return 0;
	}
	if (timeout_ns && *timeout_ns >= 0)
		deadline = start + (uint64_t)*timeout_ns;
	/* Work this thread queued must not wait for its own kick. */
	gpu_run(dev->gpu, 0);
	submitted = false;
	dev->stats.waits++;
	dev->waiting_seqno = seqno;
	gem_unlock(dev);
	/* A sleep is no CPU: it must not weigh in the split (acct.h). */
	gem_acct_sleep();

	gem_irq_lock(dev);
	for (;;) {
		struct timespec ts;
		uint64_t now, until;

		if (seqno_passed(gem_hw_seqno(dev), seqno))
			break;
		/* A stopped ring is recovered (hangcheck.c), so keep
		 * waiting: only a device that could not be is hopeless. */
		if (__atomic_load_n(&dev->wedged, __ATOMIC_ACQUIRE)) {
			ret = -EIO;
			break;
		}
		if (__atomic_load_n(&dev->closing, __ATOMIC_ACQUIRE) ||
		    gem_signal_pending()) {
			ret = -EINTR;
			break;
		}
		now = now_ns();
		if (deadline && now >= deadline) {
			ret = -ETIME;
			break;
		}
		/* Wake at least every 10 ms: an interrupt can race with our
		 * check of the status page, as on real hardware. */
		until = now + RETIRE_PERIOD_NS;
		if (deadline && deadline < until)
			until = deadline;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		until = until - now + (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		ts.tv_sec = (time_t)(until / 1000000000ull);
		ts.tv_nsec = (long)(until % 1000000000ull);
		pthread_cond_timedwait(&dev->irq_cond, &dev->irq_lock, &ts);
	}
	gem_irq_unlock(dev);
	gem_acct_wake();

	gem_lock(dev);
	dev->waiting_seqno = 0;
	dev->stats.wait_ns += now_ns() - start;
	gem_acct_wait(now_ns() - start);
	gem_event(dev, GEM_EV_WAIT, 0, seqno, now_ns() - start, ret);
	if (timeout_ns && *timeout_ns >= 0) {
		uint64_t spent = now_ns() - start;

		*timeout_ns = ret == -ETIME || spent >= (uint64_t)*timeout_ns ?
			      0 : *timeout_ns - (int64_t)spent;
	}
	gem_retire_requests(dev);
	return ret;
}

bool gem_object_busy(struct gem_object *obj)
{
	return obj->active &&
	       !seqno_passed(gem_hw_seqno(obj->dev), obj->last_read_seqno);
}

/* Wait for the GPU to finish with obj: for writes only if readonly. */
int gem_object_wait_rendering(struct gem_object *obj, bool readonly)
{
	uint32_t seqno;

	if (!obj->active)
		return 0;
	seqno = readonly ? obj->last_write_seqno : obj->last_read_seqno;
	if (!seqno)
		return 0;
	return gem_wait_seqno(obj->dev, seqno, NULL);
}

int gem_gpu_idle(struct gem_device *dev)
{
	struct gem_request *last;

	if (list_empty(&dev->requests))
		return 0;
	last = list_last_entry(&dev->requests, struct gem_request, link);
	return gem_wait_seqno(dev, last->seqno, NULL);
}

int gem_busy_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_i915_gem_busy *args = data;
	struct gem_object *obj;

	obj = gem_handle_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	gem_retire_requests(file->dev);
	/* Modern encoding: render engine (class 0) in the read mask (bit 16),
	 * and engine id + 1 in the low word when it writes. */
	args->busy = 0;
	if (gem_object_busy(obj)) {
		args->busy = 1u << 16;
		if (obj->last_write_seqno &&
		    !seqno_passed(gem_hw_seqno(file->dev), obj->last_write_seqno))
			args->busy |= 1;
	}
	gem_object_put(obj);
	return 0;
}

int gem_wait_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_i915_gem_wait *args = data;
	struct gem_object *obj;
	uint32_t seqno;
	int ret = 0;

	if (args->flags)
		return -EINVAL;
	obj = gem_handle_lookup(file, args->bo_handle);
	if (!obj)
		return -ENOENT;
	gem_retire_requests(file->dev);
	if (gem_object_busy(obj)) {
		seqno = obj->last_read_seqno;
		int64_t timeout = args->timeout_ns;

		if (timeout == 0)
			ret = -ETIME;
		else
			ret = gem_wait_seqno(file->dev, seqno, &timeout);
		args->timeout_ns = timeout;
	}
	gem_object_put(obj);
	return ret;
}

/* Wait for this file's requests older than 20 ms (i915_gem_ring_throttle). */
int gem_throttle_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct gem_device *dev = file->dev;
	uint64_t cutoff = now_ns() - GEM_THROTTLE_NS;
	struct gem_request *rq;
	uint32_t seqno = 0;

	if (dev->wedged || file->banned)
		return -EIO;
	list_for_each_entry(rq, &file->requests, file_link) {
		if (rq->emitted_ns > cutoff)
			break;
		seqno = rq->seqno;
	}
	if (!seqno)
		return 0;
	return gem_wait_seqno(dev, seqno, NULL);
}

/* The retire worker (i915's retire_work_handler): keeps the lists fresh
 * while requests are outstanding, so an idle client sees its objects go
 * inactive without calling into the driver. */
static void *retire_worker(void *arg)
{
	struct gem_device *dev = arg;

	gem_lock(dev);
	while (!dev->stopping) {
		struct timespec ts;

		if (list_empty(&dev->requests)) {
			dev->retire_idle = true;
			pthread_cond_wait(&dev->retire_cond, &dev->lock);
			dev->retire_idle = false;
			continue;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += (long)RETIRE_PERIOD_NS;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&dev->retire_cond, &dev->lock, &ts);
		gem_retire_requests(dev);
		/* A wake-up that found nothing done was still spent on the
		 * oldest request's behalf: its file pays (acct.h). */
		if (!list_empty(&dev->requests)) {
			struct gem_request *rq = list_first_entry(&dev->requests,
					struct gem_request, link);

			gem_acct_retired(&rq->file, 1);
		}
	}
	gem_unlock(dev);
	return NULL;
}

int gem_retire_worker_start(struct gem_device *dev)
{
	int ret = pthread_create(&dev->retire_thread, NULL, retire_worker, dev);

	if (ret)
		return -ret;
	/* Named, as gpu-cs and gemd-hangcheck: per-thread CPU is read by
	 * name (tests/gem/gem_acct.c, top -H). */
	pthread_setname_np(dev->retire_thread, "gemd-retire");
	dev->retire_running = true;
	return 0;
}

void gem_retire_worker_stop(struct gem_device *dev)
{
	if (!dev->retire_running)
		return;
	gem_lock(dev);
	dev->stopping = true;
	pthread_cond_broadcast(&dev->retire_cond);
	gem_unlock(dev);
	pthread_join(dev->retire_thread, NULL);
	dev->retire_running = false;
}
