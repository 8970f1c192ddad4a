/*
 * gemtop -b: one record per sample as text (top -b style), JSON Lines or
 * CSV.  JSON is written by hand into a strbuf: every number is a JSON
 * number, every string escaped, and a figure gemtop cannot know yet (rates
 * before two samples exist) is left out, never written as 0.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "gemtop.h"
#include "util.h"

#define BATCH_OBJECT_ROWS 20

static void json_str(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			strbuf_addf(sb, "\\u%04x", c);
		else
			strbuf_addch(sb, (char)c);
	}
	strbuf_addch(sb, '"');
}

static void json_key(struct strbuf *sb, bool *first, const char *key)
{
	if (!*first)
		strbuf_addch(sb, ',');
	*first = false;
	json_str(sb, key);
	strbuf_addch(sb, ':');
}

static void json_u64(struct strbuf *sb, bool *first, const char *key, uint64_t v)
{
	json_key(sb, first, key);
	strbuf_addf(sb, "%" PRIu64, v);
}

static void json_dbl(struct strbuf *sb, bool *first, const char *key, double v)
{
	json_key(sb, first, key);
	strbuf_addf(sb, "%.3f", isfinite(v) ? v : 0.0);
}

static void json_aperture(struct strbuf *sb, const struct gt_sample *c)
{
	bool f = true;

	strbuf_addch(sb, '{');
	json_u64(sb, &f, "total", c->gtt.total);
	json_u64(sb, &f, "used", c->gtt.used);
	json_u64(sb, &f, "free", c->gtt.free);
	json_u64(sb, &f, "largest_hole", c->gtt.largest_hole);
	json_u64(sb, &f, "holes", c->gtt.holes);
	json_u64(sb, &f, "pinned", c->gtt.pinned);
	json_u64(sb, &f, "fenced", c->fenced_bytes);
	json_u64(sb, &f, "evictable", c->gtt.evictable);
	strbuf_addch(sb, '}');
}

static void json_ring(struct strbuf *sb, const struct gdfs_ring *r)
{
	bool f = true;

	strbuf_addch(sb, '{');
	json_key(sb, &f, "name");
	json_str(sb, r->name);
	json_u64(sb, &f, "head", r->head);
	json_u64(sb, &f, "tail", r->tail);
	json_u64(sb, &f, "acthd", r->acthd);
	json_u64(sb, &f, "size", r->size);
	json_u64(sb, &f, "emitted_seqno", r->emitted_seqno);
	json_u64(sb, &f, "completed_seqno", r->completed_seqno);
	json_u64(sb, &f, "seqno_lag", gt_seqno_lag(r));
	json_u64(sb, &f, "outstanding", r->outstanding);
	json_u64(sb, &f, "oldest_request_age_ns", gt_oldest_age_ns(r));
	json_key(sb, &f, "wedged");
	strbuf_addstr(sb, r->wedged ? "true" : "false");
	strbuf_addch(sb, '}');
}

static void json_object(struct strbuf *sb, const struct gdfs_object *o, uint64_t now)
{
	char dom[24];
	bool f = true;
	uint32_t i;

	gt_fmt_domains(o->read, o->write, dom, sizeof(dom));
	strbuf_addch(sb, '{');
	json_u64(sb, &f, "id", o->id);
	json_u64(sb, &f, "size", o->size);
	json_key(sb, &f, "list");
	json_str(sb, gdfs_list_name(o->list));
	json_u64(sb, &f, "read", o->read);
	json_u64(sb, &f, "write", o->write);
	json_key(sb, &f, "domains");
	json_str(sb, dom);
	json_key(sb, &f, "gtt_offset");
	if (o->gtt_size)
		strbuf_addf(sb, "%u", o->gtt_offset);
	else
		strbuf_addstr(sb, "null");
	json_u64(sb, &f, "pin", o->pin);
	json_key(sb, &f, "fence");
	strbuf_addf(sb, "%d", (int)o->fence);
	json_u64(sb, &f, "tiling", o->tiling);
	json_key(sb, &f, "dirty");
	strbuf_addstr(sb, o->dirty ? "true" : "false");
	json_key(sb, &f, "purgeable");
	strbuf_addstr(sb, o->madv != GDFS_MADV_WILLNEED ? "true" : "false");
	json_u64(sb, &f, "last_read_seqno", o->last_read_seqno);
	json_u64(sb, &f, "last_write_seqno", o->last_write_seqno);
	json_u64(sb, &f, "name", o->name);
	json_key(sb, &f, "age_ns");
	if (o->created_ns)
		strbuf_addf(sb, "%" PRIu64, gt_obj_age_ns(o, now));
	else
		strbuf_addstr(sb, "null");
	json_u64(sb, &f, "evicts", o->evicts);
	json_key(sb, &f, "clients");
	strbuf_addch(sb, '[');
	for (i = 0; i < o->nowners; i++) {
		bool g = true;

		strbuf_addstr(sb, i ? ",{" : "{");
		json_u64(sb, &g, "file", o->owners[i].file);
		json_u64(sb, &g, "pid", (uint64_t)o->owners[i].pid);
		json_key(sb, &g, "comm");
		json_str(sb, o->owners[i].comm);
		json_u64(sb, &g, "handle", o->owners[i].handle);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "]}");
}

static void json_rates(struct strbuf *sb, const struct gt_rates *r)
{
	bool f = true;

	strbuf_addch(sb, '{');
	json_dbl(sb, &f, "execbuffers", r->execbuffers);
	json_dbl(sb, &f, "binds", r->binds);
	json_dbl(sb, &f, "evictions", r->evictions);
	json_dbl(sb, &f, "waits", r->waits);
	json_dbl(sb, &f, "retires", r->retires);
	json_dbl(sb, &f, "seqnos", r->seqnos);
	json_dbl(sb, &f, "clflush_bytes", r->clflush_bytes);
	json_dbl(sb, &f, "pwrite_bytes", r->pwrite_bytes);
	json_dbl(sb, &f, "pread_bytes", r->pread_bytes);
	strbuf_addch(sb, '}');
}

int gt_json_frame(struct strbuf *sb, const struct gt_sampler *s, uint64_t interval_ns,
		  const struct gt_model *m)
{
	const struct gt_sample *c = s->cur;
	bool f = true, present;
	uint64_t hangs;
	size_t i;

	strbuf_addch(sb, '{');
	json_u64(sb, &f, "schema_version", GEMTOP_SCHEMA_VERSION);
	json_key(sb, &f, "tool");
	json_str(sb, "gemtop");
	json_key(sb, &f, "tool_version");
	json_str(sb, PACKAGE_VERSION);
	json_key(sb, &f, "source");
	json_str(sb, s->src ? gdfs_describe(s->src) : "");
	json_u64(sb, &f, "timestamp_ns", c->real_ns);
	json_u64(sb, &f, "interval_ns", interval_ns);
	json_u64(sb, &f, "sample", s->count);
	if (c->have & GT_NEED_GTT) {
		json_key(sb, &f, "aperture");
		json_aperture(sb, c);
	}
	if (c->have & GT_NEED_LISTS) {
		bool g = true;

		json_key(sb, &f, "lists");
		strbuf_addch(sb, '{');
		for (i = 0; i < GDFS_LIST_COUNT; i++) {
			bool h = true;

			json_key(sb, &g, gdfs_list_name(i));
			strbuf_addch(sb, '{');
			json_u64(sb, &h, "objects", c->lists.objects[i]);
			json_u64(sb, &h, "bytes", c->lists.bytes[i]);
			strbuf_addch(sb, '}');
		}
		strbuf_addch(sb, '}');
	}
	if (c->have & GT_NEED_RING) {
		json_key(sb, &f, "ring");
		json_ring(sb, &c->ring);
	}
	hangs = gt_counter(c, "hangs", &present);
	json_key(sb, &f, "hangs");
	if (present)
		strbuf_addf(sb, "%" PRIu64, hangs);
	else
		strbuf_addstr(sb, "null");
	if (c->have & GT_NEED_COUNTERS) {
		bool g = true;

		json_key(sb, &f, "counters");
		strbuf_addch(sb, '{');
		for (i = 0; i < c->ctr.n; i++)
			json_u64(sb, &g, c->ctr.v[i].key, c->ctr.v[i].value);
		strbuf_addch(sb, '}');
	}
	if (s->rates.valid) {
		json_key(sb, &f, "rates");
		json_rates(sb, &s->rates);
	}
	if (s->cpu_pct >= 0)
		json_dbl(sb, &f, "cpu_pct", s->cpu_pct);
	if (c->have & GT_NEED_CLIENTS) {
		json_key(sb, &f, "clients");
		strbuf_addch(sb, '[');
		for (i = 0; i < c->clients.n; i++) {
			const struct gdfs_client *cl = &c->clients.v[i];
			bool g = true;

			strbuf_addstr(sb, i ? ",{" : "{");
			json_u64(sb, &g, "file", cl->file);
			json_u64(sb, &g, "pid", (uint64_t)cl->pid);
			json_key(sb, &g, "comm");
			json_str(sb, cl->comm);
			json_u64(sb, &g, "handles", cl->handles);
			json_u64(sb, &g, "bytes", cl->handle_bytes);
			json_u64(sb, &g, "bound_bytes", cl->bound_bytes);
			json_u64(sb, &g, "requests", cl->requests);
			strbuf_addch(sb, '}');
		}
		strbuf_addch(sb, ']');
	}
	if (m && c->have & GT_NEED_OBJECTS) {
		size_t rows = m->nrows;

		json_u64(sb, &f, "objects_timestamp_ns", c->objs_real_ns);
		json_u64(sb, &f, "objects_total", c->objs.n);
		json_u64(sb, &f, "objects_matched", m->nrows);
		json_key(sb, &f, "objects");
		strbuf_addch(sb, '[');
		for (i = 0; i < rows; i++) {
			if (i)
				strbuf_addch(sb, ',');
			json_object(sb, &c->objs.v[m->rows[i]], c->real_ns);
		}
		strbuf_addch(sb, ']');
	}
	if (s->missing[0]) {
		json_key(sb, &f, "missing");
		json_str(sb, s->missing);
	}
	strbuf_addch(sb, '}');
	return 0;
}

static const char *const csv_cols =
	"timestamp_ns,interval_ns,sample,aperture_total,aperture_used,largest_hole,"
	"pinned_bytes,fenced_bytes,"
	"unbound_objects,unbound_bytes,inactive_objects,inactive_bytes,"
	"active_objects,active_bytes,flushing_objects,flushing_bytes,"
	"pinned_objects,pinned_list_bytes,"
	"emitted_seqno,completed_seqno,seqno_lag,oldest_request_age_ns,hangs,"
	"execbuffers_per_s,binds_per_s,evictions_per_s,waits_per_s,"
	"clflush_bytes_per_s,pwrite_bytes_per_s,pread_bytes_per_s,cpu_pct\n";

static void csv_row(struct strbuf *sb, const struct gt_sampler *s, uint64_t interval_ns)
{
	const struct gt_sample *c = s->cur;
	const struct gt_rates *r = &s->rates;
	bool present;
	uint64_t hangs = gt_counter(c, "hangs", &present);
	size_t i;

	strbuf_addf(sb, "%" PRIu64 ",%" PRIu64 ",%lu,%" PRIu64 ",%" PRIu64 ",%" PRIu64
		    ",%" PRIu64 ",%" PRIu64,
		    c->real_ns, interval_ns, s->count, c->gtt.total, c->gtt.used,
		    c->gtt.largest_hole, c->gtt.pinned, c->fenced_bytes);
	for (i = 0; i < GDFS_LIST_COUNT; i++)
		strbuf_addf(sb, ",%" PRIu64 ",%" PRIu64, c->lists.objects[i],
			    c->lists.bytes[i]);
	strbuf_addf(sb, ",%u,%u,%u,%" PRIu64 ",", c->ring.emitted_seqno,
		    c->ring.completed_seqno, gt_seqno_lag(&c->ring),
		    gt_oldest_age_ns(&c->ring));
	if (present)
		strbuf_addf(sb, "%" PRIu64, hangs);
	/* Empty fields, not zeros, until two samples give rates. */
	if (r->valid)
		strbuf_addf(sb, ",%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f", r->execbuffers,
			    r->binds, r->evictions, r->waits, r->clflush_bytes,
			    r->pwrite_bytes, r->pread_bytes);
	else
		strbuf_addstr(sb, ",,,,,,,");
	if (s->cpu_pct >= 0)
		strbuf_addf(sb, ",%.3f\n", s->cpu_pct);
	else
		strbuf_addstr(sb, ",\n");
}

static void text_frame(struct strbuf *sb, const struct gt_sampler *s, const struct gt_model *m)
{
	const struct gt_sample *c = s->cur;
	char a[16], b[16], d[24], fl[8], own[40], age[16], h[24];
	bool present;
	uint64_t hangs = gt_counter(c, "hangs", &present);
	size_t i;

	strbuf_addf(sb, "gemtop - %s - sample %lu\n", s->src ? gdfs_describe(s->src) : "",
		    s->count);
	if (s->missing[0])
		strbuf_addf(sb, "Missing: %s\n", s->missing);
	if (c->have & GT_NEED_GTT) {
		gt_fmt_size(c->gtt.used, a, sizeof(a));
		gt_fmt_size(c->gtt.total, b, sizeof(b));
		gt_fmt_size(c->gtt.largest_hole, d, sizeof(d));
		strbuf_addf(sb, "Aperture: %s / %s used, largest hole %s, pinned %" PRIu64
			    ", fenced %" PRIu64 "\n", a, b, d, c->gtt.pinned,
			    c->fenced_bytes);
	}
	if (c->have & GT_NEED_LISTS) {
		strbuf_addstr(sb, "Lists:");
		for (i = 0; i < GDFS_LIST_COUNT; i++)
			strbuf_addf(sb, " %s %" PRIu64 "/%" PRIu64, gdfs_list_name(i),
				    c->lists.objects[i], c->lists.bytes[i]);
		strbuf_addch(sb, '\n');
	}
	if (present)
		snprintf(h, sizeof(h), "%" PRIu64, hangs);
	else
		snprintf(h, sizeof(h), "n/a");
	if (c->have & GT_NEED_RING)
		strbuf_addf(sb, "Seqno: emitted %u completed %u lag %u oldest %" PRIu64
			    " ns, hangs %s\n", c->ring.emitted_seqno,
			    c->ring.completed_seqno, gt_seqno_lag(&c->ring),
			    gt_oldest_age_ns(&c->ring), h);
	if (s->rates.valid)
		strbuf_addf(sb, "Rates/s: exec %.1f binds %.1f evict %.1f waits %.1f "
			    "clflush %.0f pwrite %.0f pread %.0f\n",
			    s->rates.execbuffers, s->rates.binds, s->rates.evictions,
			    s->rates.waits, s->rates.clflush_bytes, s->rates.pwrite_bytes,
			    s->rates.pread_bytes);
	if (!(c->have & GT_NEED_OBJECTS) || !m)
		goto out;
	strbuf_addf(sb, "%8s %6s %-8s %-9s %-10s %-6s %7s %7s %-20s %5s %6s\n", "ID",
		    "SIZE", "LIST", "DOMAINS", "OFFSET", "FLAGS", "RSEQ", "WSEQ",
		    "CLIENT", "NAME", "AGE");
	for (i = 0; i < m->nrows && i < BATCH_OBJECT_ROWS; i++) {
		const struct gdfs_object *o = &c->objs.v[m->rows[i]];
		char off[16];

		gt_fmt_size(o->size, a, sizeof(a));
		gt_fmt_domains(o->read, o->write, d, sizeof(d));
		gt_fmt_flags(o, fl, sizeof(fl));
		gt_fmt_owner(o, own, sizeof(own));
		gt_fmt_age(gt_obj_age_ns(o, c->real_ns), age, sizeof(age));
		if (o->gtt_size)
			snprintf(off, sizeof(off), "0x%08x", o->gtt_offset);
		else
			snprintf(off, sizeof(off), "-");
		strbuf_addf(sb, "%8u %6s %-8s %-9s %-10s %-6s %7u %7u %-20s %5u %6s\n",
			    o->id, a, gdfs_list_name(o->list), d, off, fl,
			    o->last_read_seqno, o->last_write_seqno, own, o->name, age);
	}
out:
	strbuf_addch(sb, '\n');
}

int gt_batch_emit(struct gt_batch *b, const struct gt_sampler *s, const struct gt_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	switch (b->format) {
	case GT_FMT_JSON:
		gt_json_frame(&sb, s, b->interval_ns, m);
		strbuf_addch(&sb, '\n');
		break;
	case GT_FMT_CSV:
		if (!b->csv_header_done) {
			strbuf_addstr(&sb, csv_cols);
			b->csv_header_done = true;
		}
		csv_row(&sb, s, b->interval_ns);
		break;
	case GT_FMT_TEXT:
		text_frame(&sb, s, m);
		break;
	}
	if (fwrite(sb.buf, 1, sb.len, b->out) != sb.len || fflush(b->out))
		ret = -1;
	strbuf_release(&sb);
	return ret;
}
