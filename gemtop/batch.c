/*
 * gemtop -b: one record per sample as text (top -b style), JSON Lines or
 * CSV.  JSON comes from the tools' writer (tools/gj.h): every number is a
 * JSON number, and a figure gemtop cannot know yet (rates before two
 * samples exist) is left out, never written as 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "gemtop.h"
#include "gj.h"
#include "util.h"

#define BATCH_OBJECT_ROWS 20

static gj *json_aperture(const struct gt_sample *c)
{
	gj *o = gj_object();

	gj_uint(o, "total", c->gtt.total);
	gj_uint(o, "used", c->gtt.used);
	gj_uint(o, "free", c->gtt.free);
	gj_uint(o, "largest_hole", c->gtt.largest_hole);
	gj_uint(o, "holes", c->gtt.holes);
	gj_uint(o, "pinned", c->gtt.pinned);
	gj_uint(o, "fenced", c->fenced_bytes);
	gj_uint(o, "evictable", c->gtt.evictable);
	return o;
}

static gj *json_ring(const struct gdfs_ring *r)
{
	gj *o = gj_object();

	gj_str(o, "name", r->name);
	gj_uint(o, "head", r->head);
	gj_uint(o, "tail", r->tail);
	gj_uint(o, "acthd", r->acthd);
	gj_uint(o, "size", r->size);
	gj_uint(o, "emitted_seqno", r->emitted_seqno);
	gj_uint(o, "completed_seqno", r->completed_seqno);
	gj_uint(o, "seqno_lag", gt_seqno_lag(r));
	gj_uint(o, "outstanding", r->outstanding);
	gj_uint(o, "oldest_request_age_ns", gt_oldest_age_ns(r));
	gj_bool(o, "wedged", r->wedged);
	return o;
}

static gj *json_object_of(const struct gdfs_object *obj, uint64_t now)
{
	gj *o = gj_object(), *clients = gj_array();
	char dom[24];
	uint32_t i;

	gt_fmt_domains(obj->read, obj->write, dom, sizeof(dom));
	gj_uint(o, "id", obj->id);
	gj_uint(o, "size", obj->size);
	gj_str(o, "list", gdfs_list_name(obj->list));
	gj_uint(o, "read", obj->read);
	gj_uint(o, "write", obj->write);
	gj_str(o, "domains", dom);
	if (obj->gtt_size)
		gj_uint(o, "gtt_offset", obj->gtt_offset);
	else
		gj_null(o, "gtt_offset");
	gj_uint(o, "pin", obj->pin);
	gj_int(o, "fence", obj->fence);
	gj_uint(o, "tiling", obj->tiling);
	gj_bool(o, "dirty", obj->dirty);
	gj_bool(o, "purgeable", obj->madv != GDFS_MADV_WILLNEED);
	gj_uint(o, "last_read_seqno", obj->last_read_seqno);
	gj_uint(o, "last_write_seqno", obj->last_write_seqno);
	gj_uint(o, "name", obj->name);
	if (obj->created_ns)
		gj_uint(o, "age_ns", gt_obj_age_ns(obj, now));
	else
		gj_null(o, "age_ns");
	gj_uint(o, "evicts", obj->evicts);
	for (i = 0; i < obj->nowners; i++) {
		gj *w = gj_object();

		gj_uint(w, "file", obj->owners[i].file);
		gj_uint(w, "pid", (uint64_t)obj->owners[i].pid);
		gj_str(w, "comm", obj->owners[i].comm);
		gj_uint(w, "handle", obj->owners[i].handle);
		gj_push(clients, w);
	}
	gj_set(o, "clients", clients);
	return o;
}

/* Rates and CPU with three decimals, as the CSV has them. */
static gj *json_rates(const struct gt_rates *r)
{
	gj *o = gj_object();

	gj_fixed(o, "execbuffers", r->execbuffers, 3);
	gj_fixed(o, "binds", r->binds, 3);
	gj_fixed(o, "evictions", r->evictions, 3);
	gj_fixed(o, "waits", r->waits, 3);
	gj_fixed(o, "retires", r->retires, 3);
	gj_fixed(o, "seqnos", r->seqnos, 3);
	gj_fixed(o, "clflush_bytes", r->clflush_bytes, 3);
	gj_fixed(o, "pwrite_bytes", r->pwrite_bytes, 3);
	gj_fixed(o, "pread_bytes", r->pread_bytes, 3);
	return o;
}

static gj *json_lists(const struct gt_list_totals *l)
{
	gj *o = gj_object();
	int i;

	for (i = 0; i < GDFS_LIST_COUNT; i++) {
		gj *e = gj_object();

		gj_uint(e, "objects", l->objects[i]);
		gj_uint(e, "bytes", l->bytes[i]);
		gj_set(o, gdfs_list_name(i), e);
	}
	return o;
}

static gj *json_clients(const struct gdfs_clients *cs)
{
	gj *arr = gj_array();
	size_t i;

	for (i = 0; i < cs->n; i++) {
		const struct gdfs_client *cl = &cs->v[i];
		gj *o = gj_object();

		gj_uint(o, "file", cl->file);
		gj_uint(o, "pid", (uint64_t)cl->pid);
		gj_str(o, "comm", cl->comm);
		gj_uint(o, "handles", cl->handles);
		gj_uint(o, "bytes", cl->handle_bytes);
		gj_uint(o, "bound_bytes", cl->bound_bytes);
		gj_uint(o, "requests", cl->requests);
		gj_push(arr, o);
	}
	return arr;
}

int gt_json_frame(struct strbuf *sb, const struct gt_sampler *s, uint64_t interval_ns,
		  const struct gt_model *m)
{
	const struct gt_sample *c = s->cur;
	gj *doc = gj_doc("gemtop", GEMTOP_SCHEMA_VERSION);
	bool present;
	uint64_t hangs;
	size_t i;

	if (!doc)
		return -ENOMEM;
	gj_str(doc, "source", s->src ? gdfs_describe(s->src) : "");
	gj_uint(doc, "timestamp_ns", c->real_ns);
	gj_uint(doc, "interval_ns", interval_ns);
	gj_uint(doc, "sample", s->count);
	if (c->have & GT_NEED_GTT)
		gj_set(doc, "aperture", json_aperture(c));
	if (c->have & GT_NEED_LISTS)
		gj_set(doc, "lists", json_lists(&c->lists));
	if (c->have & GT_NEED_RING)
		gj_set(doc, "ring", json_ring(&c->ring));
	hangs = gt_counter(c, "hangs", &present);
	if (present)
		gj_uint(doc, "hangs", hangs);
	else
		gj_null(doc, "hangs");
	if (c->have & GT_NEED_COUNTERS) {
		gj *ctr = gj_object();

		for (i = 0; i < c->ctr.n; i++)
			gj_uint(ctr, c->ctr.v[i].key, c->ctr.v[i].value);
		gj_set(doc, "counters", ctr);
	}
	if (s->rates.valid)
		gj_set(doc, "rates", json_rates(&s->rates));
	if (s->cpu_pct >= 0)
		gj_fixed(doc, "cpu_pct", s->cpu_pct, 3);
	if (c->have & GT_NEED_CLIENTS)
		gj_set(doc, "clients", json_clients(&c->clients));
	if (m && c->have & GT_NEED_OBJECTS) {
		gj *objs = gj_array();

		gj_uint(doc, "objects_timestamp_ns", c->objs_real_ns);
		gj_uint(doc, "objects_total", c->objs.n);
		gj_uint(doc, "objects_matched", m->nrows);
		for (i = 0; i < m->nrows; i++)
			gj_push(objs, json_object_of(&c->objs.v[m->rows[i]], c->real_ns));
		gj_set(doc, "objects", objs);
	}
	if (s->missing[0])
		gj_str(doc, "missing", s->missing);
	gj_addto(sb, doc);
	gj_free(doc);
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

/* A size or an age in the text: for people, or raw (bytes, ns). */
static void text_size(bool human, uint64_t v, char *out, size_t size)
{
	if (human)
		gt_fmt_size(v, out, size);
	else
		snprintf(out, size, "%" PRIu64, v);
}

static void text_age(bool human, uint64_t ns, char *out, size_t size)
{
	if (human)
		gt_fmt_age(ns, out, size);
	else
		snprintf(out, size, "%" PRIu64 " ns", ns);
}

static void text_frame(struct strbuf *sb, const struct gt_sampler *s, const struct gt_model *m,
		       bool human)
{
	const struct gt_sample *c = s->cur;
	char a[24], b[24], d[24], e[24], f[24], fl[8], own[40], age[24], h[24];
	int sw, aw;
	bool present;
	uint64_t hangs = gt_counter(c, "hangs", &present);
	size_t i;

	strbuf_addf(sb, "gemtop - %s - sample %lu\n", s->src ? gdfs_origin(s->src) : "",
		    s->count);
	if (s->missing[0])
		strbuf_addf(sb, "Missing: %s\n", s->missing);
	if (c->have & GT_NEED_GTT) {
		text_size(human, c->gtt.used, a, sizeof(a));
		text_size(human, c->gtt.total, b, sizeof(b));
		text_size(human, c->gtt.largest_hole, d, sizeof(d));
		text_size(human, c->gtt.pinned, e, sizeof(e));
		text_size(human, c->fenced_bytes, f, sizeof(f));
		strbuf_addf(sb, "Aperture: %s / %s used, largest hole %s, pinned %s"
			    ", fenced %s\n", a, b, d, e, f);
	}
	if (c->have & GT_NEED_LISTS) {
		strbuf_addstr(sb, "Lists:");
		for (i = 0; i < GDFS_LIST_COUNT; i++) {
			text_size(human, c->lists.bytes[i], a, sizeof(a));
			strbuf_addf(sb, " %s %" PRIu64 "/%s", gdfs_list_name(i),
				    c->lists.objects[i], a);
		}
		strbuf_addch(sb, '\n');
	}
	if (present)
		snprintf(h, sizeof(h), "%" PRIu64, hangs);
	else
		snprintf(h, sizeof(h), "n/a");
	if (c->have & GT_NEED_RING) {
		text_age(human, gt_oldest_age_ns(&c->ring), age, sizeof(age));
		strbuf_addf(sb, "Seqno: emitted %u completed %u lag %u oldest %s"
			    ", hangs %s\n", c->ring.emitted_seqno,
			    c->ring.completed_seqno, gt_seqno_lag(&c->ring),
			    human && !c->ring.nrequests ? "-" : age, h);
	}
	if (s->rates.valid)
		strbuf_addf(sb, "Rates/s: exec %.1f binds %.1f evict %.1f waits %.1f "
			    "clflush %.0f pwrite %.0f pread %.0f\n",
			    s->rates.execbuffers, s->rates.binds, s->rates.evictions,
			    s->rates.waits, s->rates.clflush_bytes, s->rates.pwrite_bytes,
			    s->rates.pread_bytes);
	if (!(c->have & GT_NEED_OBJECTS) || !m)
		goto out;
	/* Raw: bytes and ns need wider columns, and AGE says its unit. */
	sw = human ? 6 : 10;
	aw = human ? 6 : 13;
	strbuf_addf(sb, "%8s %*s %-8s %-9s %-10s %-6s %7s %7s %-20s %5s %*s\n", "ID",
		    sw, "SIZE", "LIST", "DOMAINS", "OFFSET", "FLAGS", "RSEQ", "WSEQ",
		    "CLIENT", "NAME", aw, human ? "AGE" : "AGE_NS");
	for (i = 0; i < m->nrows && i < BATCH_OBJECT_ROWS; i++) {
		const struct gdfs_object *o = &c->objs.v[m->rows[i]];
		char off[16];

		text_size(human, o->size, a, sizeof(a));
		gt_fmt_domains(o->read, o->write, d, sizeof(d));
		gt_fmt_flags(o, fl, sizeof(fl));
		gt_fmt_owner(o, own, sizeof(own));
		if (human)
			gt_fmt_age(gt_obj_age_ns(o, c->real_ns), age, sizeof(age));
		else
			snprintf(age, sizeof(age), "%" PRIu64, gt_obj_age_ns(o, c->real_ns));
		if (o->gtt_size)
			snprintf(off, sizeof(off), "0x%08x", o->gtt_offset);
		else
			snprintf(off, sizeof(off), "-");
		strbuf_addf(sb, "%8u %*s %-8s %-9s %-10s %-6s %7u %7u %-20s %5u %*s\n",
			    o->id, sw, a, gdfs_list_name(o->list), d, off, fl,
			    o->last_read_seqno, o->last_write_seqno, own, o->name, aw, age);
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
		text_frame(&sb, s, m, b->human);
		break;
	}
	if (fwrite(sb.buf, 1, sb.len, b->out) != sb.len || fflush(b->out))
		ret = -1;
	strbuf_release(&sb);
	return ret;
}
