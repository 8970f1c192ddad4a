/*
 * GPU hangs: detection, and recovery that loses nothing but the guilty
 * batch.
 *
 * Detection, in GPU time.  One thread samples the GPU four times per
 * hangcheck period while requests are outstanding: ACTHD and INSTDONE, as
 * the 2.6.37-3.6 kernels did, and two things only a simulator needs
 * (gpu_sample, gpu.h): how much work the command streamer got done
 * (commands other than a batch jumping, blit rows, 3D spans) and how long
 * it ran.  The chip is never descheduled; the simulator's thread is, and
 * a starved command streamer sampled on the wall clock looked hung (three
 * unchanged ACTHDs on a long blit).  So the GPU is stuck only after three
 * samples without progress that together hold 3/4 of a period of GPU time
 * (the kernel's hangcheck_count++ > 1, each sample a full quarter): a hang
 * is declared about a period after the GPU stops making progress on an
 * idle machine (1 1/4 with a kick), within the two periods the kernel's
 * 1500 ms timer gave, and never while the simulator waits for a CPU.  A
 * ring waiting in MI_WAIT_FOR_EVENT is first kicked (kick_ring()), and
 * declared hung only if still stuck at the next sample.  Errors the
 * command streamer latches itself (PGTBL_ER, a bad command) raise the
 * error interrupt, which is only logged, as i9xx_error_irq_handler does
 * (and the 3.x kernels' i915_handle_error(dev, false) reset nothing): the
 * parser stays stopped on the command, its stop counts as GPU time, and
 * the samples find the ring stuck like any other, kind "badop" or
 * "fault" by EIR.  IGT relies on it (gem_eio's in-flight-internal: work
 * queued behind a spinner's invalid command is accepted, with reset=0
 * too, until the test itself wedges the GPU); with hangcheck off the
 * ring stays stopped until the request watchdog or a forced reset.
 *
 * A budget for loops.  A batch can keep ACTHD moving for ever (a loop of
 * MI_NOOPs jumping back to its start, IGT's spinner) while everyone
 * else's work waits behind it.  The 3.14-4.x kernels told such a loop
 * from work by where ACTHD went (head_stuck): a sample beyond the
 * furthest ACTHD the request had reached (max_acthd) is progress, and
 * costs nothing however long the request runs; one that moved without
 * getting further is HANGCHECK_ACTIVE_LOOP, and those add up.  Here a
 * sample is progress when ACTHD passed the request's furthest point (in
 * its batch or in the ring, which lie anywhere in the GTT), or
 * when work was done inside one command (a long blit's rows: work moved
 * while no command finished); any other movement is a loop, and its GPU
 * time is charged to the request.  Loop time of budget periods (default
 * 4, gemd --batch-budget) declares the request hung, kind "runaway": a
 * blit, or a long batch of them, is never cut short; a batch jumping
 * back over its own commands is.  --hangcheck 0 turns both off.
 *
 * The request watchdog of Linux 6.1 (request_timeout_ms, 20 s by default):
 * a file takes i915.request_timeout_ms when it is opened, as a new default
 * context does, and a request of it that runs longer is cancelled by a
 * reset, kind "watchdog", whether hangcheck is enabled or not.  The kernel
 * times it on the wall clock from submission; here it is the request's own
 * GPU time, counted from the first sample that finds it running, so that
 * neither the work queued ahead of it nor a simulator starved of CPU is
 * charged to it.  The timer (--hangcheck 0: none) samples it.
 *
 * Recovery, with the per-drm_file semantics of Linux 6.1 (gen3 has no
 * hardware contexts, so a file's default context stands for one): the
 * ring is reset, the guilty request (the oldest one not completed) is
 * completed with an error: its seqno is written to the status page, so
 * waits on its objects return, and its commands are skipped; the requests
 * queued behind it are replayed by restarting the ring right after it.
 * Memory is untouched.  The guilty file's batch_active counts for
 * GET_RESET_STATS (guilty_count); the requests replayed behind it are not
 * charged to anyone (batch_pending, active_count, counts only an innocent
 * request the reset interrupted, and a hang here always blames the one
 * running).  A file is banned (its execbuffers fail with -EIO) as
 * mark_guilty bans a context: on its third hang within 120 s, on its first
 * if it is not recoverable, never if it is not bannable.
 *
 * Wedging, as intel_gt_set_wedged: with i915.reset=0, or when a reset
 * fails, everything in flight is cancelled (each request completes with
 * -EIO without running, so waits return) and execbuffer and throttle fail
 * with -EIO.  The next error handling with resets allowed (a write to
 * i915_wedged) unwedges the device first, as intel_gt_reset does.
 *
 * Records.  Every hang is captured (error.c).  The first since the last
 * clear stays in i915_error_state, as the kernel kept it; the last
 * max_records captures, each under its hang number, are gemkit_errors/<n>.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "error.h"
#include "gem_priv.h"
#include "log.h"
#include "util.h"

const char *const gem_hang_kind_names[GEM_HANG_KIND_COUNT] = {
#define GEM_HANG_KIND(id, name) [GEM_HANG_##id] = name,
#include "hang-kinds.def"
#undef GEM_HANG_KIND
};

#define SAMPLES_PER_PERIOD	4
#define STUCK_SAMPLES		3	/* unchanged samples: hangcheck_count++ > 1 */
#define FAST_HANG_NS		(120ull * 1000 * 1000 * 1000)	/* CONTEXT_FAST_HANG_JIFFIES */
#define HANG_EVENTS		16	/* kept for GEM_MSG_HANG_WAIT */

/* Locks as in gem_priv.h's LOCKING section. */
struct gem_hang {
	/* fixed */
	struct gem_device *dev;
	uint64_t period_ns;		/* 0: no timer */
	uint64_t budget_ns;		/* GPU time a request may run, 0: any */
	unsigned int max_records;	/* gemkit_errors/ */
	pthread_t thread;
	bool running;

	/* under dev->irq_lock */
	pthread_cond_t cond;		/* wakes the thread: errors, stop */
	pthread_cond_t event_cond;	/* a hang was published */
	bool stop;
	bool error_pending;		/* the error interrupt fired */
	struct gem_hang_info events[HANG_EVENTS];	/* seq % HANG_EVENTS */
	/* Hangs so far: written (publish) under dev->lock and irq_lock, so
	 * either lock is enough to read it. */
	uint64_t seq;

	/* the samples: under dev->lock (hangcheck thread, forced errors) */
	bool sampled;
	struct gpu_progress last;
	unsigned int count;		/* samples in a row without progress */
	uint64_t stuck_ns;		/* the GPU time they held */
	bool kicked;
	uint32_t budget_seqno;		/* the request being judged ... */
	uint32_t max_acthd[2];		/* ... the furthest it got in its
					 * batch and in the ring ... */
	uint64_t loop_ns;		/* ... and its GPU time in loops */
	bool watching;			/* the watchdog's request ... */
	uint32_t watch_seqno;
	uint64_t watch_start_ns;	/* ... and its GPU time when first seen */

	/* The captures.  Set under dev->lock and error_lock, read and
	 * cleared under error_lock alone: formatting one (hundreds of KiB of
	 * text) never holds up the clients.  first_error may also be one of
	 * records[]: e->refs counts the two. */
	pthread_mutex_t error_lock;
	struct gem_error_state *first_error;
	struct gem_error_state *records[GEM_ERROR_RECORDS_MAX];	/* oldest first */
	unsigned int nrecords;
};

static void timespec_at(struct timespec *ts, uint64_t mono_ns)
{
	ts->tv_sec = (time_t)(mono_ns / 1000000000ull);
	ts->tv_nsec = (long)(mono_ns % 1000000000ull);
}

/* The oldest request the GPU has not completed: the one it is running. */
static struct gem_request *first_outstanding(struct gem_device *dev)
{
	uint32_t hw = gem_hw_seqno(dev);
	struct gem_request *rq;

	list_for_each_entry(rq, &dev->requests, link)
		if (!seqno_passed(hw, rq->seqno))
			return rq;
	return NULL;
}

/*
 * Charge the guilty request's file (mark_guilty, client_mark_guilty of
 * Linux 6.1): batch_active, and a ban on its third hang within 120 s.
 */
static void charge_guilty(struct gem_hang *h, struct gem_request *guilty,
			  uint64_t now)
{
	struct gem_file *file = guilty ? guilty->file : NULL;
	uint64_t prev;

	if (!file)
		return;
	file->batch_active++;
	if (file->unbannable || file->banned)
		return;
	prev = file->hang_ns[0];
	file->hang_ns[0] = file->hang_ns[1];
	file->hang_ns[1] = now;
	if (!file->unrecoverable && !(prev && now - prev < FAST_HANG_NS))
		return;
	file->banned = true;
	h->dev->stats.bans++;
	log_err("pid %d (%s): GPU hanging too fast, banning file %u: "
		"its execbuffers now fail with EIO",
		(int)file->pid, file->comm, file->id);
}

/*
 * Cancel everything in flight and wedge (intel_gt_set_wedged): the
 * command streamer stays stopped, every request outstanding completes
 * with -EIO without running, so that waits return.
 */
static void wedge(struct gem_hang *h)
{
	struct gem_device *dev = h->dev;
	uint32_t hw = gem_hw_seqno(dev), last = hw;
	struct gem_request *rq;

	gpu_reset(dev->gpu);
	list_for_each_entry(rq, &dev->requests, link) {
		if (seqno_passed(hw, rq->seqno))
			continue;
		gem_request_set_error(dev, rq->seqno, -EIO);
		last = rq->seqno;
	}
	__atomic_store_n(&gpu_hws(dev->gpu)[I915_GEM_HWS_INDEX], last,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&dev->wedged, true, __ATOMIC_RELEASE);
	gem_syncfiles_wedged(dev);
	gem_retire_requests(dev);
}

/*
 * Reset the ring and restart it after the guilty request (or where it
 * stands, with none; a wedged device has nothing in flight).  Returns 0,
 * or -EIO when the ring would not come back: then the device is wedged
 * until the next reset tries again.
 */
static int recover(struct gem_hang *h, struct gem_request *guilty, uint64_t now)
{
	struct gem_device *dev = h->dev;
	struct gpu *gpu = dev->gpu;
	uint32_t head = guilty ? guilty->tail : dev->ring_tail;

	gpu_reset(gpu);
	dev->stats.resets++;
	charge_guilty(h, guilty, now);
	if (guilty)
		__atomic_store_n(&gpu_hws(gpu)[I915_GEM_HWS_INDEX], guilty->seqno,
				 __ATOMIC_RELEASE);

	/* Program the ring as gem_ring_init did, checking each register
	 * before CTL sets the command streamer going again. */
	gpu_write(gpu, PRB0_START, gem_object_gtt_offset(dev->ring));
	gpu_write(gpu, PRB0_HEAD, head);
	gpu_write(gpu, PRB0_TAIL, dev->ring_tail);
	if (gpu_stopped(gpu) ||
	    (gpu_read(gpu, PRB0_HEAD) & HEAD_ADDR) != head ||
	    gpu_read(gpu, PRB0_START) != gem_object_gtt_offset(dev->ring) ||
	    (gpu_write(gpu, PRB0_CTL, ((GEM_RING_SIZE - 4096) & RING_NR_PAGES) |
				     RING_VALID),
	     !(gpu_read(gpu, PRB0_CTL) & RING_VALID))) {
		log_err("GPU reset failed: the render ring did not restart "
			"(CTL 0x%08x HEAD 0x%08x); device wedged, execbuffer "
			"returns EIO until a reset succeeds",
			gpu_read(gpu, PRB0_CTL), gpu_read(gpu, PRB0_HEAD));
		wedge(h);
		return -EIO;
	}
	if (dev->wedged)
		log_notice("GPU reset: device unwedged");
	__atomic_store_n(&dev->wedged, false, __ATOMIC_RELEASE);
	gem_retire_requests(dev);
	return 0;
}

static void publish(struct gem_hang *h, struct gem_hang_info *ev)
{
	struct gem_device *dev = h->dev;

	gem_irq_lock(dev);
	ev->seq = ++h->seq;
	h->events[ev->seq % HANG_EVENTS] = *ev;
	pthread_cond_broadcast(&h->event_cond);
	/* Waiters: their seqno passed (guilty, replayed) or never will. */
	pthread_cond_broadcast(&dev->irq_cond);
	gem_irq_unlock(dev);
}

/* Drop one holder of a capture; error_lock held.  Returns it when it is
 * to be freed (after the lock is dropped), else NULL. */
static struct gem_error_state *error_unref(struct gem_error_state *e)
{
	return e && --e->refs == 0 ? e : NULL;
}

/* Keep capture e (hang number seq): the newest record, and the first
 * since the last clear.  dev->lock held. */
static void keep_capture(struct gem_hang *h, struct gem_error_state *e)
{
	struct gem_error_state *drop = NULL;
	bool unused;

	gem_mutex_lock(&h->error_lock, GEM_LOCK_ERROR);
	if (!h->first_error) {
		h->first_error = e;
		e->refs++;
	}
	if (h->max_records) {
		if (h->nrecords == h->max_records) {
			drop = error_unref(h->records[0]);
			memmove(h->records, h->records + 1,
				(h->nrecords - 1) * sizeof(h->records[0]));
			h->nrecords--;
		}
		h->records[h->nrecords++] = e;
		e->refs++;
	}
	unused = e->refs == 0;
	gem_mutex_unlock(&h->error_lock, GEM_LOCK_ERROR);
	gem_error_free(drop);
	if (unused)
		gem_error_free(e);
}

/* Count a hang of kind (one of gem_hang_kind_names). */
static void count_hang(struct gem_device *dev, const char *kind)
{
	unsigned int i;

	dev->stats.hangs++;
	for (i = 0; i < GEM_HANG_KIND_COUNT; i++)
		if (!strcmp(kind, gem_hang_kind_names[i]))
			dev->stats.hang_kinds[i]++;
}

/* i915_handle_error: capture, report, reset.  dev->lock held. */
static int handle_error(struct gem_hang *h, const char *kind)
{
	struct gem_device *dev = h->dev;
	struct gpu *gpu = dev->gpu;
	/* A wedged device has nothing in flight (wedge()). */
	struct gem_request *guilty = dev->wedged ? NULL : first_outstanding(dev);
	struct gem_error_state *e;
	struct gem_hang_info ev;
	struct timespec rt;
	uint64_t now = now_ns();
	int ret;

	memset(&ev, 0, sizeof(ev));
	clock_gettime(CLOCK_REALTIME, &rt);
	ev.time_ns = (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec;
	ev.acthd = gpu_read(gpu, ACTHD);
	ev.ipehr = gpu_read(gpu, IPEHR);
	snprintf(ev.kind, sizeof(ev.kind), "%s", kind);
	if (guilty) {
		ev.seqno = guilty->seqno;
		ev.pid = (uint32_t)guilty->pid;
		ev.file = guilty->file_id;
		ev.detect_ns = now - guilty->emitted_ns;
	}
	count_hang(dev, kind);
	/* publish() writes h->seq under dev->lock as well as irq_lock, and
	 * we hold dev->lock: reading it needs no irq_lock, so error_lock
	 * never nests around irq_lock (gem_priv.h, LOCKING). */
	ev.seq = h->seq + 1;
	log_err("GPU hang %llu (%s): ACTHD 0x%08x IPEHR 0x%08x EIR 0x%08x "
		"PGTBL_ER 0x%08x; guilty seqno %u from pid %d (%s), %llu ms "
		"after submission",
		(unsigned long long)ev.seq, kind, ev.acthd, ev.ipehr,
		gpu_read(gpu, EIR), gpu_read(gpu, PGTBL_ER), ev.seqno,
		(int)ev.pid, guilty ? guilty->comm : "none",
		(unsigned long long)(ev.detect_ns / 1000000));

	e = gem_error_capture(dev, guilty, kind, now);
	if (e) {
		e->seq = ev.seq;
		keep_capture(h, e);
	} else {
		log_err("GPU hang %llu: no memory for the error state",
			(unsigned long long)ev.seq);
	}
	/* The guilty request's out-fences report the hang. */
	if (guilty)
		gem_request_set_error(dev, guilty->seqno, -EIO);
	if (dev->params.reset) {
		ret = recover(h, guilty, now);
	} else {
		/* i915.reset=0: no reset allowed, the GPU stays wedged
		 * (intel_gt_reset without intel_has_gpu_reset), and the
		 * guilty file is charged as the kernel's reset would. */
		charge_guilty(h, guilty, now);
		wedge(h);
		log_err("GPU hang with i915.reset=0: device wedged");
		ret = -EIO;
	}
	ev.recovered = ret == 0;
	if (!ret)
		log_notice("render ring reset; %s",
			   guilty ? "guilty request skipped, the rest replayed"
				  : "nothing was running");
	h->sampled = false;
	publish(h, &ev);
	return ret;
}

/* A new baseline: the GPU made progress, or sampling starts over. */
static void sample_restart(struct gem_hang *h, const struct gpu_progress *p)
{
	h->last = *p;
	h->count = 0;
	h->stuck_ns = 0;
	h->kicked = false;
}

/*
 * The furthest ACTHD of the request in the space acthd is in: the ring
 * and the batch lie anywhere in the GTT, so going from one to the other
 * says nothing about getting further.
 */
static uint32_t *furthest(struct gem_hang *h, uint32_t acthd)
{
	uint32_t ring = (uint32_t)gem_object_gtt_offset(h->dev->ring);

	return &h->max_acthd[acthd - ring < GEM_RING_SIZE];
}

/*
 * Did the GPU get further since the last sample (head_stuck's
 * HANGCHECK_ACTIVE), rather than round a loop (HANGCHECK_ACTIVE_LOOP)?
 * Only called when something moved.
 */
static bool moved_forward(struct gem_hang *h, const struct gpu_progress *p)
{
	uint32_t *max = furthest(h, p->acthd);

	if (p->acthd > *max) {
		*max = p->acthd;
		return true;
	}
	/* Rows of one blit, spans of one primitive: the same command. */
	return p->acthd == h->last.acthd && p->commands == h->last.commands;
}

/* The kind of a hang on a parser that stopped itself. */
static const char *error_kind(struct gpu *gpu)
{
	return gpu_read(gpu, EIR) & I915_ERROR_PAGE_TABLE ? "fault" : "badop";
}

/*
 * One hangcheck sample (i915_hangcheck_elapsed, in GPU time), dev->lock
 * held.  See the top of the file.
 */
static void sample(struct gem_hang *h)
{
	struct gem_device *dev = h->dev;
	struct gpu *gpu = dev->gpu;
	struct gem_request *rq = first_outstanding(dev);
	struct gpu_progress p;
	uint64_t ran;

	if (!rq) {
		h->sampled = false;
		return;
	}
	gpu_sample(gpu, &p);
	if (!h->sampled || rq->seqno != h->budget_seqno) {
		/* A new request: nothing of its own reached, no loop yet. */
		h->budget_seqno = rq->seqno;
		h->max_acthd[0] = h->max_acthd[1] = 0;
		*furthest(h, p.acthd) = p.acthd;
		h->loop_ns = 0;
	}
	if (!h->sampled) {
		h->sampled = true;
		sample_restart(h, &p);
		return;
	}
	ran = p.run_ns - h->last.run_ns;
	if (p.acthd != h->last.acthd || p.instdone != h->last.instdone ||
	    p.work != h->last.work) {
		if (!moved_forward(h, &p))
			h->loop_ns += ran;
		sample_restart(h, &p);
		if (!h->budget_ns || h->loop_ns < h->budget_ns)
			return;
		log_err("seqno %u from pid %d (%s) went round a loop for %llu ms "
			"of GPU time without getting further (budget %llu ms)",
			rq->seqno, (int)rq->pid, rq->comm,
			(unsigned long long)(h->loop_ns / 1000000),
			(unsigned long long)(h->budget_ns / 1000000));
		handle_error(h, "runaway");
		return;
	}
	h->last = p;
	h->count++;
	h->stuck_ns += ran;
	if (h->count < STUCK_SAMPLES ||
	    h->stuck_ns < STUCK_SAMPLES * (h->period_ns / SAMPLES_PER_PERIOD))
		return;
	if ((gpu_read(gpu, PRB0_CTL) & RING_WAIT) && !h->kicked) {
		log_notice("Kicking stuck wait on render ring (ACTHD 0x%08x)",
			   p.acthd);
		gpu_kick(gpu);
		h->kicked = true;
		return;
	}
	handle_error(h, gpu_stopped(gpu) ? error_kind(gpu) : "hangcheck");
}

/*
 * The request watchdog (see the top of the file), dev->lock held: true
 * when it cancelled the request running.
 */
static bool watchdog(struct gem_hang *h)
{
	struct gem_request *rq = first_outstanding(h->dev);
	struct gpu_progress p;

	if (!rq) {
		h->watching = false;
		return false;
	}
	gpu_sample(h->dev->gpu, &p);
	if (!h->watching || rq->seqno != h->watch_seqno) {
		h->watching = true;
		h->watch_seqno = rq->seqno;
		h->watch_start_ns = p.run_ns;
		return false;
	}
	if (!rq->watchdog_ns || p.run_ns - h->watch_start_ns < rq->watchdog_ns)
		return false;
	log_err("seqno %u from pid %d (%s) ran %llu ms of GPU time, past "
		"its i915.request_timeout_ms (%llu): cancelled", rq->seqno,
		(int)rq->pid, rq->comm,
		(unsigned long long)((p.run_ns - h->watch_start_ns) / 1000000),
		(unsigned long long)(rq->watchdog_ns / 1000000));
	h->watching = false;
	handle_error(h, "watchdog");
	return true;
}

/* i9xx_error_irq_handler's report of what the command streamer latched. */
static void log_error_irq(struct gpu *gpu)
{
	if (!gpu_stopped(gpu))
		return;		/* reset meanwhile */
	log_err("render ring: command parser error, EIR 0x%08x IPEHR 0x%08x "
		"ACTHD 0x%08x PGTBL_ER 0x%08x; the ring stays stopped until "
		"hangcheck or a forced reset", gpu_read(gpu, EIR),
		gpu_read(gpu, IPEHR), gpu_read(gpu, ACTHD), gpu_read(gpu, PGTBL_ER));
}

static void *hangcheck_thread(void *arg)
{
	struct gem_hang *h = arg;
	struct gem_device *dev = h->dev;
	uint64_t interval = h->period_ns / SAMPLES_PER_PERIOD;
	uint64_t next = now_ns() + interval;
	struct timespec ts;
	bool error;

	gem_irq_lock(dev);
	while (!h->stop) {
		if (h->error_pending) {
			/* handled below, at once */
		} else if (h->period_ns) {
			timespec_at(&ts, next);
			pthread_cond_timedwait(&h->cond, &dev->irq_lock, &ts);
		} else {
			pthread_cond_wait(&h->cond, &dev->irq_lock);
		}
		if (h->stop)
			break;
		error = h->error_pending;
		h->error_pending = false;
		gem_irq_unlock(dev);

		gem_lock(dev);
		if (error) {
			/* The error interrupt: logged, nothing reset (above). */
			log_error_irq(dev->gpu);
		}
		if (dev->wedged) {
			/* Nothing more to do until gemd restarts. */
		} else if (h->period_ns && now_ns() >= next) {
			if (!watchdog(h) && dev->params.enable_hangcheck)
				sample(h);
			next = now_ns() + interval;
		}
		gem_unlock(dev);

		gem_irq_lock(dev);
	}
	gem_irq_unlock(dev);
	return NULL;
}

void gem_hangcheck_error_irq(struct gem_device *dev)
{
	gem_irq_lock(dev);
	if (dev->hang) {
		dev->hang->error_pending = true;
		pthread_cond_signal(&dev->hang->cond);
	}
	gem_irq_unlock(dev);
}

int gem_handle_error_forced(struct gem_device *dev)
{
	int ret;

	/* As intel_gt_handle_error: a wedged device is unwedged by the
	 * reset, if resets are allowed. */
	gem_lock(dev);
	ret = handle_error(dev->hang, "wedged");
	gem_unlock(dev);
	return ret;
}

int gem_error_state_with(struct gem_device *dev,
			 int (*fn)(const struct gem_error_state *e, void *arg), void *arg)
{
	int ret;

	/* fn reads only the capture's own copies; error_lock keeps a
	 * concurrent clear from freeing it underneath. */
	gem_mutex_lock(&dev->hang->error_lock, GEM_LOCK_ERROR);
	ret = fn(dev->hang->first_error, arg);
	gem_mutex_unlock(&dev->hang->error_lock, GEM_LOCK_ERROR);
	return ret;
}

int gem_error_record_with(struct gem_device *dev, uint64_t seq,
			  int (*fn)(const struct gem_error_state *e, void *arg),
			  void *arg)
{
	struct gem_hang *h = dev->hang;
	unsigned int i;
	int ret = -ENOENT;

	gem_mutex_lock(&h->error_lock, GEM_LOCK_ERROR);
	for (i = 0; i < h->nrecords; i++)
		if (h->records[i]->seq == seq) {
			ret = fn(h->records[i], arg);
			break;
		}
	gem_mutex_unlock(&h->error_lock, GEM_LOCK_ERROR);
	return ret;
}

unsigned int gem_error_records(struct gem_device *dev, uint64_t *seqs,
			       unsigned int max)
{
	struct gem_hang *h = dev->hang;
	unsigned int i;

	gem_mutex_lock(&h->error_lock, GEM_LOCK_ERROR);
	for (i = 0; i < h->nrecords && i < max; i++)
		seqs[i] = h->records[i]->seq;
	gem_mutex_unlock(&h->error_lock, GEM_LOCK_ERROR);
	return i;
}

void gem_error_state_clear(struct gem_device *dev)
{
	struct gem_error_state *drop[GEM_ERROR_RECORDS_MAX + 1];
	struct gem_hang *h = dev->hang;
	unsigned int i, n = 0;

	gem_mutex_lock(&h->error_lock, GEM_LOCK_ERROR);
	drop[n] = error_unref(h->first_error);
	n += drop[n] != NULL;
	h->first_error = NULL;
	for (i = 0; i < h->nrecords; i++) {
		drop[n] = error_unref(h->records[i]);
		n += drop[n] != NULL;
	}
	h->nrecords = 0;
	gem_mutex_unlock(&h->error_lock, GEM_LOCK_ERROR);
	for (i = 0; i < n; i++)
		gem_error_free(drop[i]);
}

uint64_t gem_hangcheck_period_ns(const struct gem_device *dev)
{
	return dev->hang ? dev->hang->period_ns : 0;
}

uint64_t gem_hang_seq(struct gem_device *dev)
{
	uint64_t seq;

	gem_irq_lock(dev);
	seq = dev->hang->seq;
	gem_irq_unlock(dev);
	return seq;
}

int gem_hang_wait(struct gem_device *dev, uint64_t after, uint32_t wait_ms,
		  struct gem_hang_info *ev)
{
	struct gem_hang *h = dev->hang;
	struct timespec ts;
	uint64_t first;
	int ret = 0;

	if (!h)
		return -ENODEV;
	timespec_at(&ts, now_ns() + (uint64_t)wait_ms * 1000000ull);
	gem_irq_lock(dev);
	while (h->seq <= after && !h->stop) {
		if (pthread_cond_timedwait(&h->event_cond, &dev->irq_lock, &ts) == ETIMEDOUT)
			break;
	}
	if (h->seq <= after) {
		ret = -ETIMEDOUT;
	} else {
		first = after + 1;
		if (h->seq - first >= HANG_EVENTS)
			first = h->seq - HANG_EVENTS + 1;
		*ev = h->events[first % HANG_EVENTS];
	}
	gem_irq_unlock(dev);
	return ret;
}

int gem_hangcheck_start(struct gem_device *dev, const struct gem_device_config *cfg)
{
	struct gem_hang *h;
	pthread_condattr_t attr;
	sigset_t all, old;
	int ret;

	h = gem_calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->dev = dev;
	h->period_ns = (uint64_t)cfg->hangcheck_ms * 1000000ull;
	h->budget_ns = cfg->batch_budget * h->period_ns;
	h->max_records = MIN(cfg->error_states, GEM_ERROR_RECORDS_MAX);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&h->cond, &attr);
	pthread_cond_init(&h->event_cond, &attr);
	pthread_condattr_destroy(&attr);
	pthread_mutex_init(&h->error_lock, NULL);

	/* Signals belong to gemd's main loop. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&h->thread, NULL, hangcheck_thread, h);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!ret)
		pthread_setname_np(h->thread, "gemd-hangcheck");
	if (ret) {
		pthread_mutex_destroy(&h->error_lock);
		pthread_cond_destroy(&h->event_cond);
		pthread_cond_destroy(&h->cond);
		free(h);
		return -ret;
	}
	h->running = true;
	gem_irq_lock(dev);
	dev->hang = h;
	gem_irq_unlock(dev);
	if (cfg->hangcheck_ms && h->budget_ns)
		log_info("hangcheck every %u ms; a batch may run %u periods",
			 cfg->hangcheck_ms, cfg->batch_budget);
	else if (cfg->hangcheck_ms)
		log_info("hangcheck every %u ms; batches may run for ever",
			 cfg->hangcheck_ms);
	return 0;
}

void gem_hangcheck_stop(struct gem_device *dev)
{
	struct gem_hang *h = dev->hang;

	if (!h)
		return;
	gem_irq_lock(dev);
	h->stop = true;
	pthread_cond_broadcast(&h->cond);
	pthread_cond_broadcast(&h->event_cond);
	gem_irq_unlock(dev);
	pthread_join(h->thread, NULL);

	gem_error_state_clear(dev);
	gem_irq_lock(dev);
	dev->hang = NULL;
	gem_irq_unlock(dev);
	pthread_mutex_destroy(&h->error_lock);
	pthread_cond_destroy(&h->event_cond);
	pthread_cond_destroy(&h->cond);
	free(h);
}
