/*
 * Per drm_file accounting (acct.c): what gemd spent on each file, as the
 * kernel's DRM client usage stats report it (Documentation/gpu/
 * drm-usage-stats.rst) plus gemkit's own figures.
 *
 * CPU time is the serving threads' own CPU clock (CLOCK_THREAD_CPUTIME_ID),
 * but that clock is a system call here (about 1-1.5 us on a kvm-clock
 * guest, a third of a shared-memory GETPARAM), so a request does not read
 * it.  The dispatch point (gem_ioctl_dispatch) times each request with a
 * cheap clock (the TSC on x86-64, about 15 ns; the vDSO's CLOCK_MONOTONIC
 * elsewhere) and adds that weight to a per-thread table of pending
 * charges by (file, class).  A flush reads the CPU clock once and splits
 * the thread's CPU since its previous reading over the pending entries
 * in proportion to their weights, the rounding remainder to the largest:
 * the sum is exact, nothing is counted twice or lost.  A thread flushes
 * when its table is full (8 pairs), after 128 requests or 1 ms, before
 * it sleeps inside a request (gem_wait_seqno: the sleep is not CPU, so it
 * must not weigh), before any other reading of its clock (interrupts,
 * retirement, fdinfo) and when it exits.
 *
 * What that means for the figures:
 * - the CPU between requests (the wire's decoding, a ring's spin, the
 *   previous reply) is spread over the period's requests by weight;
 * - the split between classes, and between files served by one thread in
 *   one period, follows wall time: a request preempted under CPU load
 *   weighs more than the CPU it used.  A file's total is exact whenever
 *   its thread serves it alone between flushes (one thread per
 *   connection: the usual case);
 * - a reader sees up to 1 ms (or 128 requests) of a thread's requests not
 *   yet charged, until that thread's next request, a sleep inside one, or
 *   its exit -- however long the thread then waits for work (checking the
 *   age before each wait cost a clock reading per request, for nothing:
 *   the end of the request before it had just checked); a client reading
 *   its own fdinfo flushes its thread first.
 *
 * GPU work is charged at each request's user interrupt, on the
 * thread that executed it (the command streamer's, or a submitter running
 * short work inline): the GPU busy time and that thread's CPU time since
 * its last interrupt go to the file that submitted the request.  An
 * inline run's interrupts split the run's CPU, read once at its end, by
 * wall time between them: its run reads the clock at start and end only.
 *
 * Locks: the counters are relaxed atomics, written without dev->lock;
 * the acct itself lives until its file, the last request slot naming it
 * and the last pending charge let go (refs, atomic).
 */
#ifndef GEMKIT_GEM_ACCT_H
#define GEMKIT_GEM_ACCT_H

#include <stdbool.h>
#include <stdint.h>

struct gem_device;
struct gem_file;
struct gem_object;

/* Where a file's CPU time went (the class of an ioctl: acct.c's table). */
enum gem_acct_class {
	GEM_ACCT_OTHER,		/* every ioctl not named below */
	GEM_ACCT_MM,		/* memory manager: create, close, madvise,
				 * set_domain, pread/pwrite, tiling, bind/evict */
	GEM_ACCT_SUBMIT,	/* execbuffer: relocations, emission (its
				 * binding and eviction: GEM_ACCT_MM) */
	GEM_ACCT_WAIT,		/* wait, busy, throttle, sw_finish */
	GEM_ACCT_GPU,		/* the GPU model executing its requests */
	GEM_ACCT_RETIRE,	/* retiring its requests off any ioctl (the
				 * retire worker): the memory manager's too */
	GEM_ACCT_CLASSES
};

#define GEM_ACCT_IOCTLS	256	/* by _IOC_NR */

/* A copy of a file's figures (gem_acct_read). */
struct gem_acct_stats {
	uint64_t cpu_ns[GEM_ACCT_CLASSES];
	uint64_t gpu_busy_ns;
	uint64_t ioctls[GEM_ACCT_IOCTLS];
	uint64_t ioctls_total;
	uint64_t execbuffers, relocations;
	uint64_t waits, wait_ns;
	uint64_t evictions_caused, evictions_suffered;
};

/* Device and file lifetime (device.c, file.c); 0 or -ENOMEM. */
int gem_acct_device_init(struct gem_device *dev);
void gem_acct_device_fini(struct gem_device *dev);
int gem_acct_file_open(struct gem_file *file);
void gem_acct_file_release(struct gem_file *file);	/* dev->lock */

/* The dispatch point: file is the one served on this thread from begin
 * to end, for the counters below; end adds the request's weight to this
 * thread's pending charges for file and the class of ioctl number nr. */
void gem_acct_begin(struct gem_file *file, unsigned int nr);
void gem_acct_end(struct gem_file *file, unsigned int nr);
/* The same on an acct of one's own (gem_acct_new, gem_acct_put):
 * bench/gem-bench measures the accounting's cost with them. */
struct gem_acct *gem_acct_new(void);
void gem_acct_put(struct gem_acct *acct);
void gem_acct_serve_begin(struct gem_acct *acct, unsigned int nr);
void gem_acct_serve_end(struct gem_acct *acct, unsigned int nr);
/* The request being served goes on in class cls from now (its time so
 * far stays with the class it had): the binding and eviction inside an
 * execbuffer are memory-manager work, the very cost the 2008 debate was
 * about, so they must not hide in submission.
 * Returns the class it left, to switch back to. */
enum gem_acct_class gem_acct_switch(enum gem_acct_class cls);
/* A request is about to sleep, and woke: its weight so far is pended and
 * flushed, and restarts on waking. */
void gem_acct_sleep(void);
void gem_acct_wake(void);
/* Charge this thread's pending charges now (one CPU clock reading). */
void gem_acct_flush(void);
/* The flush's arithmetic: share[i] of total in proportion to weight[i]
 * (equal if all are 0), the remainder to the largest weight (the first
 * of equals), so the shares sum to total exactly. */
void gem_acct_split(uint64_t total, const uint64_t *weight, unsigned int n,
		    uint64_t *share);
/* The pending table, for tests: add weight to (acct, cls), 1 (and
 * nothing added) when it is full; the number of entries pending. */
int gem_acct_pend(struct gem_acct *acct, unsigned int cls, uint64_t weight);
unsigned int gem_acct_pending(void);
/* The ioctl class of _IOC_NR nr. */
enum gem_acct_class gem_acct_class_of(unsigned int nr);

/* Requests of files[0..n) (NULL: the driver's) retired.  On a thread
 * serving no ioctl (the retire worker), its CPU since its last reading
 * goes to those files in equal shares; inside an ioctl it stays the
 * ioctl's.  dev->lock. */
void gem_acct_retired(struct gem_file *const *files, unsigned int n);

/* What this thread did since its last reading is no file's usage (a
 * client reading its own fdinfo): dropped, not charged to its next request. */
void gem_acct_discard(void);

/* Counters, charged to the file being served on this thread (if any). */
void gem_acct_execbuffer(void);
void gem_acct_relocations(uint64_t count);
void gem_acct_wait(uint64_t ns);
void gem_acct_evict(const struct gem_object *victim);	/* dev->lock */

/* A request was emitted for file (NULL: the driver's own); dev->lock. */
void gem_acct_request(struct gem_device *dev, struct gem_file *file,
		      uint32_t seqno);
/* The GPU model starts a run on this thread (gpu_ops): what the thread
 * did since its last reading (the command streamer's idle spin) is no
 * request's.  Inside an ioctl (serving) nothing is dropped.
 * cpu_ns is the thread's CPU clock as the model just read it, so
 * that it is not read twice; 0 when the model did not. */
void gem_acct_gpu_run_start(void *dev, uint64_t cpu_ns);
/* The run ends (gpu_ops), cpu_ns the model's last reading: a run
 * that began with the model's reading charges its user interrupts' CPU
 * then, so that an inline nop execbuffer reads the clock twice in all. */
void gem_acct_gpu_run_end(void *dev, uint64_t cpu_ns);
/* The user interrupt (device.c), on the thread executing the GPU. */
void gem_acct_interrupt(struct gem_device *dev, uint32_t hw_seqno);

/* Readings of this thread's CPU clock (a system call each) so far: tests
 * pin how many a path makes. */
uint64_t gem_acct_clock_reads(void);

/* Read a file's figures (any thread; they move while read). */
void gem_acct_read(const struct gem_file *file, struct gem_acct_stats *out);

#endif
