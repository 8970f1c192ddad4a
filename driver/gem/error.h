/*
 * GPU hangs: hangcheck (hangcheck.c), the error state capture (error.c)
 * and recovery (hangcheck.c).
 *
 * A capture is taken under dev->lock and holds copies of everything
 * i915_error_state prints (driver/debugfs/error_state.c), so formatting it
 * later needs no dev->lock and the objects it saw may change or go away
 * meanwhile.  Every hang is captured: the first one is kept for
 * i915_error_state until it is cleared (a write to i915_error_state), as
 * in Linux 3.5 and later, and the last few (gemd --error-states) for
 * gemkit_errors/<hang number>.
 */
#ifndef GEMKIT_GEM_ERROR_H
#define GEMKIT_GEM_ERROR_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "strbuf.h"

struct gem_device;
struct gem_device_config;
struct gem_request;


/* One line of the Active/Pinned lists (print_error_buffers of 3.4). */
struct gem_error_obj {
	uint32_t gtt_offset, size;
	uint32_t read_domains, write_domain, seqno;
	uint32_t name;			/* flink name, 0: none */
	int32_t fence;			/* -1: none */
	int8_t pinned;			/* 1 kernel pin (" P"), -1 user pin (" p") */
	uint8_t tiling;			/* I915_TILING_* */
	bool dirty, purgeable, on_ring;
};

struct gem_error_buffer {
	uint32_t gtt_offset;
	uint32_t ndwords;
	uint32_t *dwords;
};

struct gem_error_request {
	uint32_t seqno, tail;
	uint64_t emitted;		/* "jiffies": ms since gemd started */
};

struct gem_error_state {
	unsigned int refs;		/* hangcheck.c's holders, under error_lock */
	uint64_t seq;			/* hang number, as in gem_hang_info */
	int64_t time_s, time_us;	/* CLOCK_REALTIME of the capture */
	uint32_t eir, pgtbl_er;
	uint32_t fences[16];
	/* render command stream */
	uint32_t head, tail, acthd, ipeir, ipehr, instdone, instpm, seqno;
	uint32_t faddr;			/* DMA_FADD_I8XX: what faulted */
	uint32_t ring_head, ring_tail;
	/* gemd's extras: who and what */
	char kind[16];
	uint32_t guilty_seqno, guilty_file;
	pid_t guilty_pid;
	char guilty_comm[16];
	uint64_t detect_ns;		/* guilty submission to detection */

	struct gem_error_obj *active, *pinned;
	uint32_t nactive, npinned;
	struct gem_error_buffer batch[2];	/* at ACTHD, and the guilty's */
	unsigned int nbatch;
	struct gem_error_request *requests;
	uint32_t nrequests;
	struct gem_error_buffer ring;
};

/* error.c.  Capture with dev->lock held; NULL if out of memory. */
struct gem_error_state *gem_error_capture(struct gem_device *dev,
					  const struct gem_request *guilty,
					  const char *kind, uint64_t now_ns);
void gem_error_free(struct gem_error_state *e);

/* hangcheck.c */
int gem_hangcheck_start(struct gem_device *dev, const struct gem_device_config *cfg);
void gem_hangcheck_stop(struct gem_device *dev);
/* From the CS thread: the command streamer stopped on an error. */
void gem_hangcheck_error_irq(struct gem_device *dev);
/* Force error handling (i915_wedged write; kind "wedged").  Takes the
 * lock.  Returns 0, or -EIO if recovery failed and the device is wedged. */
int gem_handle_error_forced(struct gem_device *dev);
/* The kept capture: call fn with it (NULL when there is none) while it
 * is held against a concurrent clear, and return what fn returns.  fn
 * runs under error_lock alone, so it may take its time (i915_error_state
 * formats hundreds of KiB) without holding up the clients. */
int gem_error_state_with(struct gem_device *dev,
			 int (*fn)(const struct gem_error_state *e, void *arg), void *arg);
/* The same for the record of hang seq (gemkit_errors/<seq>); -ENOENT
 * when it is not kept (too old, cleared, or no such hang). */
int gem_error_record_with(struct gem_device *dev, uint64_t seq,
			  int (*fn)(const struct gem_error_state *e, void *arg),
			  void *arg);
/* The hang numbers of the kept records, oldest first (at most max). */
unsigned int gem_error_records(struct gem_device *dev, uint64_t *seqs,
			       unsigned int max);
/* Drop every kept capture (a write to i915_error_state): the first and
 * the records. */
void gem_error_state_clear(struct gem_device *dev);

#endif
