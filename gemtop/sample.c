/*
 * gemtop's sampling: read what the visible view needs through
 * libgemdebugfs, keep the previous sample for rates, keep the newest
 * events and a short history for the sparklines.  No curses, no policy.
 *
 * The source keeps each file open and preads it again (gdfs_read), so a
 * refresh costs one read per file.  When a read fails on a file the source
 * had, the device has gone: the source is closed and the next sample
 * reopens it, which is how gemtop rides out a gemd restart.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "gemtop.h"
#include "util.h"

static uint64_t own_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

int gt_sampler_init(struct gt_sampler *s, const char *device, const char *debugfs_dir)
{
	memset(s, 0, sizeof(*s));
	strbuf_init(&s->buf, 0);
	s->device = device ? strdup(device) : NULL;
	s->debugfs_dir = debugfs_dir ? strdup(debugfs_dir) : NULL;
	if ((device && !s->device) || (debugfs_dir && !s->debugfs_dir))
		return -ENOMEM;
	s->cur = &s->samples[0];
	s->prev = &s->samples[1];
	s->cpu_pct = -1;
	s->events.v = calloc(GEMTOP_EVENTS_KEPT, sizeof(*s->events.v));
	if (!s->events.v)
		return -ENOMEM;
	s->events.next_seq = 0;
	return 0;
}

void gt_sample_release(struct gt_sample *smp)
{
	if (smp->have & GT_NEED_COUNTERS)
		gdfs_counters_release(&smp->ctr);
	if (smp->have & GT_NEED_RING)
		gdfs_ring_release(&smp->ring);
	if (smp->have & GT_NEED_GTT)
		gdfs_gtt_release(&smp->gtt);
	if (smp->have & GT_NEED_OBJECTS)
		gdfs_objects_release(&smp->objs);
	if (smp->have & GT_NEED_CLIENTS)
		gdfs_clients_release(&smp->clients);
	memset(smp, 0, sizeof(*smp));
}

void gt_sampler_release(struct gt_sampler *s)
{
	gt_sample_release(&s->samples[0]);
	gt_sample_release(&s->samples[1]);
	if (s->src)
		gdfs_close(s->src);
	strbuf_release(&s->buf);
	free(s->events.v);
	free(s->device);
	free(s->debugfs_dir);
}

static void set_error(struct gt_sampler *s, const char *what, int err)
{
	s->error_exit = gem_exit_for_errno(err);
	snprintf(s->error, sizeof(s->error), "%s: %s", what, gdfs_strerror(-err));
}

/* Read name into s->buf; -ENOENT when the source lacks it (not fatal). */
static int read_file(struct gt_sampler *s, const char *name)
{
	strbuf_reset(&s->buf);
	return gdfs_read(s->src, name, &s->buf);
}

static int open_source(struct gt_sampler *s)
{
	static const char *const wanted[] = {
		"gemkit_counters", "gemkit_ring", "gemkit_gtt", "gemkit_objects",
		"gemkit_clients", "gemkit_events",
	};
	size_t i;
	int ret;

	ret = gdfs_open_auto(s->device, s->debugfs_dir, &s->src);
	if (ret) {
		struct strbuf sb = STRBUF_INIT;

		s->error_exit = GEM_EXIT_FAILED;
		if (s->debugfs_dir)
			snprintf(s->error, sizeof(s->error),
				 "cannot open '%s': %s (no dri/0 holding a 'name' file "
				 "under it?)", s->debugfs_dir, gdfs_strerror(ret));
		else
			s->error_exit = gem_unreachable(&sb, gem_device_path(s->device),
							-ret);
		if (sb.len)
			snprintf(s->error, sizeof(s->error), "%s", sb.buf);
		strbuf_release(&sb);
		s->src = NULL;
		return ret;
	}
	s->missing[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(wanted); i++) {
		size_t l = strlen(s->missing);

		if (gdfs_has(s->src, wanted[i]))
			continue;
		snprintf(s->missing + l, sizeof(s->missing) - l, "%s%s",
			 l ? " " : "", wanted[i]);
	}
	s->driver[0] = '\0';
	if (read_file(s, "name") >= 0) {
		size_t l = strcspn(s->buf.buf, "\n");

		snprintf(s->driver, sizeof(s->driver), "%.*s", (int)l, s->buf.buf);
	}
	/* A new source (a restarted gemd) starts its event numbers again. */
	s->events.n = 0;
	s->events.head = 0;
	s->events.next_seq = 0;
	return 0;
}

static int parse_failed(struct gt_sampler *s, const char *name, struct strbuf *err, int ret)
{
	snprintf(s->error, sizeof(s->error), "%s: %s", name,
		 err->len ? err->buf : strerror(-ret));
	return ret;
}

#define READ_PARSE(bit, file, parser, field) do {				\
	if (need & (bit)) {							\
		ret = read_file(s, file);					\
		if (ret == -ENOENT && !gdfs_has(s->src, file))			\
			break;							\
		if (ret < 0) {							\
			set_error(s, file, -ret);				\
			goto out_vanished;					\
		}							\
		strbuf_reset(&err);						\
		ret = parser(s->buf.buf, s->buf.len, &smp->field, &err);	\
		if (ret < 0) {							\
			parse_failed(s, file, &err, ret);			\
			goto out_release;					\
		}							\
		smp->have |= (bit);						\
	}									\
} while (0)

static int read_era_objects(struct gt_sampler *s, struct gdfs_objects *objs)
{
	static const struct { const char *file; enum gdfs_list list; } files[] = {
		{ "i915_gem_active", GDFS_LIST_ACTIVE },
		{ "i915_gem_flushing", GDFS_LIST_FLUSHING },
		{ "i915_gem_inactive", GDFS_LIST_INACTIVE },
		{ "i915_gem_pinned", GDFS_LIST_PINNED },
	};
	size_t i, found = 0;
	int ret;

	memset(objs, 0, sizeof(*objs));
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		if (read_file(s, files[i].file) < 0)
			continue;
		found++;
		ret = gt_era_objects(s->buf.buf, s->buf.len, files[i].list, objs);
		if (ret < 0) {
			gdfs_objects_release(objs);
			return ret;
		}
	}
	if (!found) {
		gdfs_objects_release(objs);
		return -ENOENT;
	}
	return 0;
}

static int read_era_ring(struct gt_sampler *s, struct gdfs_ring *ring)
{
	struct strbuf seqno = STRBUF_INIT, info = STRBUF_INIT, req = STRBUF_INIT;
	int ret;

	ret = gdfs_read(s->src, "i915_gem_seqno", &seqno);
	if (ret >= 0) {
		if (gdfs_read(s->src, "i915_ringbuffer_info", &info) < 0)
			strbuf_reset(&info);
		if (gdfs_read(s->src, "i915_gem_request", &req) < 0)
			strbuf_reset(&req);
		ret = gt_era_ring(seqno.buf, seqno.len, info.len ? info.buf : NULL, info.len,
				  req.len ? req.buf : NULL, req.len, ring);
	}
	strbuf_release(&seqno);
	strbuf_release(&info);
	strbuf_release(&req);
	return ret;
}

static void history_push(double *v, size_t n, double x)
{
	if (n == GEMTOP_HISTORY) {
		memmove(v, v + 1, (GEMTOP_HISTORY - 1) * sizeof(*v));
		v[GEMTOP_HISTORY - 1] = x;
	} else {
		v[n] = x;
	}
}

static void update_history(struct gt_sampler *s)
{
	struct gt_history *h = &s->hist;
	const struct gt_sample *c = s->cur;
	double ap = 0, lag = 0, ev = 0;

	if (c->have & GT_NEED_GTT && c->gtt.total)
		ap = 100.0 * (double)c->gtt.used / (double)c->gtt.total;
	if (c->have & GT_NEED_RING)
		lag = gt_seqno_lag(&c->ring);
	if (s->rates.valid)
		ev = s->rates.evictions;
	history_push(h->aperture_pct, h->n, ap);
	history_push(h->lag, h->n, lag);
	history_push(h->evict_rate, h->n, ev);
	if (h->n < GEMTOP_HISTORY)
		h->n++;
}

static int read_events(struct gt_sampler *s)
{
	struct gdfs_events ev;
	struct strbuf err = STRBUF_INIT;
	uint64_t since = s->events.next_seq ? s->events.next_seq - 1 : 0;
	int ret;

	memset(&ev, 0, sizeof(ev));
	ret = gdfs_read_events(s->src, since, &ev, &err);
	if (ret < 0) {
		snprintf(s->error, sizeof(s->error), "gemkit_events: %s",
			 err.len ? err.buf : strerror(-ret));
		strbuf_release(&err);
		return ret;
	}
	gt_events_add(&s->events, &ev);
	gdfs_events_release(&ev);
	strbuf_release(&err);
	return 0;
}

/* Keep ev as the newest, dropping the oldest when full. */
static void events_push(struct gt_events *e, const struct gdfs_event *ev)
{
	if (e->n == GEMTOP_EVENTS_KEPT) {
		e->v[e->head] = *ev;
		e->head = (e->head + 1) % GEMTOP_EVENTS_KEPT;
	} else {
		e->v[(e->head + e->n) % GEMTOP_EVENTS_KEPT] = *ev;
		e->n++;
	}
}

bool gt_event_is_hang(const struct gdfs_event *e)
{
	return e->type == GDFS_EV_OTHER && !strcmp(e->type_name, "hang");
}

const struct gt_hang *gt_hang_find(const struct gt_sampler *s, uint64_t seq)
{
	size_t i;

	for (i = 0; i < s->nhangs; i++)
		if (s->hangs[i].seq == seq)
			return &s->hangs[i];
	return NULL;
}

/*
 * The hangs counter rose to count: note the hang with what the error
 * state says of it (gemd's extra lines: the guilty client, the kind), and
 * give it a row in the events at the time it happened.
 */
static void note_hang(struct gt_sampler *s, uint64_t count)
{
	struct gdfs_error_state es;
	struct gt_hang h = { .seq = count, .real_ns = s->cur->real_ns };
	struct gdfs_event ev;

	if (read_file(s, "i915_error_state") >= 0 &&
	    gdfs_parse_error_state(s->buf.buf, s->buf.len, &es, NULL) == 0) {
		if (es.present && (!es.hang_seq || es.hang_seq == count)) {
			snprintf(h.kind, sizeof(h.kind), "%s", es.hang_kind);
			snprintf(h.comm, sizeof(h.comm), "%s", es.guilty_comm);
			h.pid = es.guilty_pid;
			h.seqno = es.guilty_seqno;
			if (es.time_sec > 0)
				h.real_ns = (uint64_t)es.time_sec * 1000000000ull +
					    (uint64_t)es.time_usec * 1000ull;
		}
		gdfs_error_state_release(&es);
	}
	if (s->nhangs == GEMTOP_HANGS_KEPT) {
		memmove(s->hangs, s->hangs + 1, sizeof(s->hangs) - sizeof(s->hangs[0]));
		s->nhangs--;
	}
	s->hangs[s->nhangs++] = h;
	s->hangs_new++;
	/* Events carry CLOCK_MONOTONIC, the error state wall time. */
	memset(&ev, 0, sizeof(ev));
	ev.type = GDFS_EV_OTHER;
	snprintf(ev.type_name, sizeof(ev.type_name), "hang");
	ev.obj = (uint32_t)h.seq;
	ev.seqno = h.seqno;
	ev.ts_ns = s->cur->mono_ns;
	if (s->cur->real_ns > h.real_ns && s->cur->mono_ns > s->cur->real_ns - h.real_ns)
		ev.ts_ns = s->cur->mono_ns - (s->cur->real_ns - h.real_ns);
	events_push(&s->events, &ev);
}

/*
 * A hang before gemtop started (or reconnected) that nobody acknowledged:
 * its error state is still there (i915_error_state, kept until a write
 * clears it).  It gets the banner as a hang seen live would; gemtop's a
 * only takes the banner down, so the next gemtop shows it again until
 * the error state is cleared (gemctl clear-error).  count: hangs so far.
 */
static void note_recorded_hang(struct gt_sampler *s, uint64_t count)
{
	struct gdfs_error_state es;
	uint64_t seq = 0;

	if (!count || read_file(s, "i915_error_state") < 0 ||
	    gdfs_parse_error_state(s->buf.buf, s->buf.len, &es, NULL))
		return;
	if (es.present)
		seq = es.hang_seq ? es.hang_seq : count;
	gdfs_error_state_release(&es);
	if (seq)
		note_hang(s, seq);
}

/* Hangs since the first sample: the counter is gemd's, from its start. */
static void check_hangs(struct gt_sampler *s)
{
	bool present;
	uint64_t n = gt_counter(s->cur, "hangs", &present), i;

	if (!present)
		return;
	if (!s->hangs_base_set || n < s->hangs_base) {
		s->hangs_base = n;	/* a new gemd counts from 0 again */
		s->hangs_base_set = true;
		note_recorded_hang(s, n);
		return;
	}
	/* One row each, the latest with the error state's details. */
	for (i = s->hangs_base + 1; i <= n; i++) {
		if (i < n) {
			struct gt_hang h = { .seq = i, .real_ns = s->cur->real_ns };

			if (s->nhangs < GEMTOP_HANGS_KEPT)
				s->hangs[s->nhangs++] = h;
			continue;
		}
		note_hang(s, i);
	}
	s->hangs_base = n;
}

int gt_sample(struct gt_sampler *s, unsigned int need)
{
	struct strbuf err = STRBUF_INIT;
	struct gt_sample *smp;
	int ret = 0;

	if (!s->src) {
		ret = open_source(s);
		if (ret)
			return ret;
		/* Rates across a reconnect would mix two daemons. */
		gt_sample_release(s->prev);
	}
	/* The previous "previous" goes; the current one becomes previous. */
	gt_sample_release(s->prev);
	smp = s->prev;
	s->prev = s->cur;
	s->cur = smp;
	smp->mono_ns = now_ns();
	smp->real_ns = now_realtime_ns();

	READ_PARSE(GT_NEED_COUNTERS, "gemkit_counters", gdfs_parse_counters, ctr);
	READ_PARSE(GT_NEED_RING, "gemkit_ring", gdfs_parse_ring, ring);
	READ_PARSE(GT_NEED_GTT, "gemkit_gtt", gdfs_parse_gtt, gtt);
	if (need & GT_NEED_OBJECTS) {
		uint64_t t0 = now_ns();

		READ_PARSE(GT_NEED_OBJECTS, "gemkit_objects", gdfs_parse_objects, objs);
		if (smp->have & GT_NEED_OBJECTS) {
			s->objs_read_ns = t0;
			s->objs_cost_ns = now_ns() - t0;
			smp->objs_real_ns = smp->real_ns;
		}
	} else if (need & GT_KEEP_OBJECTS && s->prev->have & GT_NEED_OBJECTS) {
		/* Hand the last objects read on to this sample. */
		smp->objs = s->prev->objs;
		smp->objs_real_ns = s->prev->objs_real_ns;
		memset(&s->prev->objs, 0, sizeof(s->prev->objs));
		s->prev->have &= ~(unsigned int)GT_NEED_OBJECTS;
		smp->have |= GT_NEED_OBJECTS;
		/* And their list totals: the header then agrees with the
		 * table, and i915_gem_objects (which costs gemd a walk of
		 * every object) is not read between two objects reads. */
		if (s->prev->have & GT_NEED_LISTS) {
			smp->lists = s->prev->lists;
			smp->have |= GT_NEED_LISTS;
		}
	}
	READ_PARSE(GT_NEED_CLIENTS, "gemkit_clients", gdfs_parse_clients, clients);
	/* A tree without the gemkit files: what its era files allow. */
	if (need & GT_NEED_OBJECTS && !(smp->have & GT_NEED_OBJECTS) &&
	    !gdfs_has(s->src, "gemkit_objects") && read_era_objects(s, &smp->objs) == 0) {
		smp->have |= GT_NEED_OBJECTS;
		smp->objs_real_ns = smp->real_ns;
		s->objs_read_ns = smp->mono_ns;
	}
	if (need & GT_NEED_RING && !(smp->have & GT_NEED_RING) &&
	    !gdfs_has(s->src, "gemkit_ring") && read_era_ring(s, &smp->ring) == 0)
		smp->have |= GT_NEED_RING;
	if (smp->have & GT_NEED_GTT)
		smp->fenced_bytes = gt_fenced_bytes(&smp->gtt);
	/* The lists from the objects when they are all there (gemkit_objects;
	 * the era files leave out the unbound ones). */
	if (need & GT_NEED_OBJECTS && smp->have & GT_NEED_OBJECTS &&
	    gdfs_has(s->src, "gemkit_objects")) {
		gt_lists_from_objects(&smp->objs, &smp->lists);
		smp->have |= GT_NEED_LISTS;
	} else if (need & GT_NEED_LISTS && !(smp->have & GT_NEED_LISTS) &&
		   smp->have & GT_NEED_COUNTERS &&
		   gt_lists_from_counters(&smp->ctr, &smp->lists) == 0) {
		/* gemd keeps the totals as objects move: no walk of them. */
		smp->have |= GT_NEED_LISTS;
	} else if (need & GT_NEED_LISTS && !(smp->have & GT_NEED_LISTS)) {
		ret = read_file(s, "i915_gem_objects");
		if (ret >= 0 && gt_lists_from_era(s->buf.buf, s->buf.len, &smp->lists) == 0)
			smp->have |= GT_NEED_LISTS;
	}
	if (need & GT_NEED_EVENTS && gdfs_has(s->src, "gemkit_events")) {
		ret = read_events(s);
		if (ret < 0)
			goto out_vanished;
		smp->have |= GT_NEED_EVENTS;
	}
	smp->cpu_ns = own_cpu_ns();
	s->count++;
	s->error[0] = '\0';

	s->rates.valid = false;
	if (s->prev->have & smp->have & GT_NEED_COUNTERS) {
		uint64_t t0 = gt_counter(s->prev, "time_ns", NULL);
		uint64_t t1 = gt_counter(smp, "time_ns", NULL);
		uint64_t dt = t1 > t0 ? t1 - t0 : smp->mono_ns - s->prev->mono_ns;

		gt_rates_compute(&s->prev->ctr, &smp->ctr, dt, &s->rates);
	}
	if (s->prev->mono_ns && smp->mono_ns > s->prev->mono_ns && s->prev->cpu_ns)
		s->cpu_pct = 100.0 * (double)(smp->cpu_ns - s->prev->cpu_ns) /
			     (double)(smp->mono_ns - s->prev->mono_ns);
	update_history(s);
	check_hangs(s);
	strbuf_release(&err);
	return 0;

out_vanished:
	gdfs_close(s->src);
	s->src = NULL;
out_release:
	gt_sample_release(smp);
	/* Keep the last good sample on screen. */
	s->cur = s->prev;
	s->prev = smp;
	strbuf_release(&err);
	return ret < 0 ? ret : -EIO;
}

uint64_t gt_counter(const struct gt_sample *smp, const char *key, bool *present)
{
	uint64_t v = 0;
	bool ok = false;

	if (smp->have & GT_NEED_COUNTERS)
		ok = gdfs_counter(&smp->ctr, key, &v);
	if (present)
		*present = ok;
	return ok ? v : 0;
}

static double rate(const struct gdfs_counters *a, const struct gdfs_counters *b,
		   const char *key, double secs)
{
	uint64_t x = 0, y = 0;

	gdfs_counter(a, key, &x);
	gdfs_counter(b, key, &y);
	/* A counter going backwards means a restarted gemd: no rate. */
	if (y < x || secs <= 0)
		return 0;
	return (double)(y - x) / secs;
}

void gt_rates_compute(const struct gdfs_counters *prev, const struct gdfs_counters *cur,
		      uint64_t dt_ns, struct gt_rates *out)
{
	double secs = (double)dt_ns / 1e9;

	memset(out, 0, sizeof(*out));
	if (!dt_ns)
		return;
	out->valid = true;
	out->execbuffers = rate(prev, cur, "execbuffers", secs);
	out->binds = rate(prev, cur, "binds", secs);
	out->evictions = rate(prev, cur, "evictions", secs);
	out->waits = rate(prev, cur, "waits", secs);
	out->clflush_bytes = rate(prev, cur, "clflush_bytes", secs);
	out->pwrite_bytes = rate(prev, cur, "pwrite_bytes", secs);
	out->pread_bytes = rate(prev, cur, "pread_bytes", secs);
	out->retires = rate(prev, cur, "retires", secs);
	out->seqnos = rate(prev, cur, "seqno", secs);
	{
		uint64_t v;

		/* ns of GPU work per second of time: a share of 1e9. */
		out->gpu_busy_valid = gdfs_counter(cur, "gpu_busy_ns", &v);
		out->gpu_busy_pct = rate(prev, cur, "gpu_busy_ns", secs) / 1e7;
		if (out->gpu_busy_pct > 100)
			out->gpu_busy_pct = 100;
	}
}

int gt_lists_from_counters(const struct gdfs_counters *c, struct gt_list_totals *out)
{
	char key[48];
	unsigned int l;

	memset(out, 0, sizeof(*out));
	for (l = 0; l < GDFS_LIST_COUNT; l++) {
		snprintf(key, sizeof(key), "%s_objects", gdfs_list_name(l));
		if (!gdfs_counter(c, key, &out->objects[l]))
			return -ENOENT;		/* an older gemd */
		snprintf(key, sizeof(key), "%s_bytes", gdfs_list_name(l));
		if (!gdfs_counter(c, key, &out->bytes[l]))
			return -ENOENT;
	}
	out->valid = true;
	return 0;
}

void gt_lists_from_objects(const struct gdfs_objects *o, struct gt_list_totals *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < o->n; i++) {
		unsigned int l = o->v[i].list;

		if (l >= GDFS_LIST_COUNT)
			continue;
		out->objects[l]++;
		out->bytes[l] += o->v[i].size;
	}
	out->valid = true;
}

/*
 * i915_gem_objects (3.2): "%u objects, %zu bytes", "%u [%u] objects, %zu
 * [%zu] bytes in gtt", then active (with flushing), pinned and inactive
 * lines.  Unbound is what is not in the GTT.
 */
int gt_lists_from_era(const char *buf, size_t len, struct gt_list_totals *out)
{
	/* the lists the era file counts, by the same words */
	static const enum gdfs_list kinds[] = {
		GDFS_LIST_ACTIVE, GDFS_LIST_PINNED, GDFS_LIST_INACTIVE,
	};
	unsigned long long n, nm, b, bm, total_n = 0, total_b = 0, gtt_n = 0, gtt_b = 0;
	const char *p = buf, *end = buf + len;
	char line[160], word[32];
	int seen = 0;
	size_t k;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = (size_t)((nl ? nl : end) - p);

		if (l >= sizeof(line))
			l = sizeof(line) - 1;
		memcpy(line, p, l);
		line[l] = '\0';
		p = nl ? nl + 1 : end;
		if (sscanf(line, "%llu [%llu] objects, %llu [%llu] bytes in gtt",
			   &n, &nm, &b, &bm) == 4) {
			gtt_n = n;
			gtt_b = b;
			seen |= 2;
		} else if (sscanf(line, " %llu [%llu] %31s objects, %llu [%llu] bytes",
				  &n, &nm, word, &b, &bm) == 5) {
			for (k = 0; k < ARRAY_SIZE(kinds); k++)
				if (!strcmp(word, gdfs_list_name(kinds[k]))) {
					out->objects[kinds[k]] = n;
					out->bytes[kinds[k]] = b;
				}
		} else if (sscanf(line, "%llu objects, %llu bytes", &n, &b) == 2) {
			total_n = n;
			total_b = b;
			seen |= 1;
		}
	}
	if (seen != 3)
		return -EINVAL;
	out->objects[GDFS_LIST_UNBOUND] = total_n > gtt_n ? total_n - gtt_n : 0;
	out->bytes[GDFS_LIST_UNBOUND] = total_b > gtt_b ? total_b - gtt_b : 0;
	out->valid = true;
	return 0;
}

uint64_t gt_fenced_bytes(const struct gdfs_gtt *g)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < g->n; i++)
		if (!g->v[i].hole && g->v[i].fence >= 0)
			sum += g->v[i].size;
	return sum;
}

const struct gdfs_event *gt_event_at(const struct gt_events *e, size_t i)
{
	if (i >= e->n)
		return NULL;
	return &e->v[(e->head + i) % GEMTOP_EVENTS_KEPT];
}

void gt_events_add(struct gt_events *e, const struct gdfs_events *in)
{
	size_t i;

	e->dropped += in->dropped;
	for (i = 0; i < in->n; i++) {
		const struct gdfs_event *ev = &in->v[i];

		if (ev->seq < e->next_seq)
			continue;	/* already held */
		events_push(e, ev);
		e->next_seq = ev->seq + 1;
	}
	if (in->next_seq > e->next_seq)
		e->next_seq = in->next_seq;
}

uint32_t gt_seqno_lag(const struct gdfs_ring *r)
{
	/* Seqnos wrap: the difference is taken modulo 2^32. */
	return r->emitted_seqno - r->completed_seqno;
}

unsigned int gt_ring_retiring(const struct gdfs_ring *r)
{
	unsigned int n = 0;
	size_t i;

	/* Seqnos wrap: "at or before completed" modulo 2^32. */
	for (i = 0; i < r->nrequests; i++)
		if ((int32_t)(r->requests[i].seqno - r->completed_seqno) <= 0)
			n++;
	return n;
}

uint64_t gt_oldest_age_ns(const struct gdfs_ring *r)
{
	return r->nrequests ? r->requests[0].age_ns : 0;
}
