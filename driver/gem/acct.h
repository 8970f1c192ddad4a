/*
 * Per drm_file accounting (acct.c): what gemd spent on each file, as the
 * kernel's DRM client usage stats report it (Documentation/gpu/
 * drm-usage-stats.rst) plus gemkit's own figures.
 *
 * CPU time is the serving threads' own CPU clock (CLOCK_THREAD_CPUTIME_ID),
 * read once per request, when the handler returns at the dispatch point
 * (gem_ioctl_dispatch): the time since the thread's previous reading is
 * charged to the file and the class of that ioctl, so the wire's decoding,
 * the previous reply and the wait for this request (a ring's spin) are
 * counted with it, and nothing is counted twice.  One clock read per
 * request: it is a system call (about 0.2 us), not a vDSO read.  GPU work is charged at each request's user interrupt, on the
 * thread that executed it (the command streamer's, or a submitter running
 * short work inline): the GPU busy time and that thread's CPU time since
 * its last interrupt go to the file that submitted the request.
 *
 * Locks: the counters are relaxed atomics, written without dev->lock;
 * the acct itself lives until both its file and the last request slot
 * naming it let go (refs, dev->lock).
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
	GEM_ACCT_SUBMIT,	/* execbuffer: relocations, binding, emission */
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
 * to end, for the counters below; end charges this thread's CPU since
 * its last reading to file and the class of ioctl number nr. */
void gem_acct_begin(struct gem_file *file);
void gem_acct_end(struct gem_file *file, unsigned int nr);
/* What gem_acct_end does per request, on an acct of one's own (freed
 * with free): bench/gem-bench measures the accounting's cost with it. */
struct gem_acct *gem_acct_new(void);
void gem_acct_charge(struct gem_acct *acct, unsigned int nr);
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
 * request's.  Inside an ioctl (serving) nothing is dropped. */
void gem_acct_gpu_run_start(void *dev);
/* The user interrupt (device.c), on the thread executing the GPU. */
void gem_acct_interrupt(struct gem_device *dev, uint32_t hw_seqno);

/* Read a file's figures (any thread; they move while read). */
void gem_acct_read(const struct gem_file *file, struct gem_acct_stats *out);

#endif
