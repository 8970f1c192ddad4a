/*
 * The event log: a bounded ring of what the memory manager did (bind,
 * unbind, evict, domain transitions, submissions, waits, retirements),
 * each with a sequence number and a CLOCK_MONOTONIC timestamp, for the
 * debugfs file gemkit_events.
 *
 * Every emission point runs under dev->lock, which also protects the ring;
 * emitting is a clock read and a 40-byte store, cheap enough for the hot
 * paths.  When the ring is full the oldest events are overwritten; readers
 * notice from the sequence numbers (gemkit_events reports "dropped").
 */
#ifndef GEMKIT_GEM_EVENT_H
#define GEMKIT_GEM_EVENT_H

#include <stdint.h>

enum gem_event_type {
	GEM_EV_BIND = 1,	/* obj; a = gtt offset, b = node size */
	GEM_EV_UNBIND,		/* obj; a = gtt offset, b = node size */
	GEM_EV_EVICT,		/* obj; a = gtt offset, b = node size (after its unbind) */
	GEM_EV_DOMAIN,		/* obj; a = old read<<32|old write, b = new read<<32|new write */
	GEM_EV_SUBMIT,		/* obj = 0; a = seqno, b = file id (0: kernel) */
	GEM_EV_WAIT,		/* obj = 0; a = seqno, b = ns waited; c = -errno result */
	GEM_EV_RETIRE,		/* obj = 0; a = seqno */
	GEM_EV_PURGE,		/* obj; a = size */
	GEM_EV_TYPE_COUNT
};

struct gem_event {
	uint64_t seq;		/* 1, 2, 3 ... never reused */
	uint64_t ts_ns;		/* CLOCK_MONOTONIC */
	uint64_t a, b;
	uint32_t obj;		/* global object id, 0 = none */
	uint16_t type;		/* enum gem_event_type */
	int16_t c;
};

struct gem_event_log {
	struct gem_event *ring;
	uint32_t mask;		/* size - 1; size is a power of two; 0: disabled */
	uint64_t next_seq;	/* seq of the next event */
};

#define GEM_EVENT_LOG_SIZE	65536

int gem_event_log_init(struct gem_event_log *log, uint32_t size);
void gem_event_log_release(struct gem_event_log *log);
/* Oldest sequence number still held (== next_seq when empty). */
uint64_t gem_event_log_first(const struct gem_event_log *log);
/* The event with sequence number seq, which must be held. */
static inline const struct gem_event *
gem_event_log_at(const struct gem_event_log *log, uint64_t seq)
{
	return &log->ring[seq & log->mask];
}

#endif
