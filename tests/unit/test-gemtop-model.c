/*
 * gemtop's model and sampling layer on saved debugfs text (FORMAT.md
 * formats): filters, sort orders, search, rates from two counters
 * records, per-list totals from the objects and from the era file, the
 * fenced share, the events ring, the short forms, and the JSON/CSV records.
 * No daemon and no curses.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemtop.h"
#include "gemtest.h"
#include "strbuf.h"

static const char objects_txt[] =
	"schema=gemkit_objects version=1 count=5 fields=...\n"
	"id=1 size=131072 list=pinned gtt_offset=0x00000000 gtt_size=131072 read=0x01 "
	"write=0x01 pin=1 user_pin=0 fence=-1 tiling=none madv=willneed dirty=0 "
	"created_ns=1000000000 owners=\n"
	"id=2 size=65536 list=inactive gtt_offset=0x00020000 gtt_size=65536 read=0x06 "
	"write=0x02 pin=0 fence=-1 name=1 created_ns=3000000000 evicts=4 "
	"owners=1:100:Xorg:1\n"
	"id=3 size=2097152 list=active gtt_offset=0x00100000 gtt_size=2097152 read=0x0a "
	"write=0x00 pin=0 fence=2 tiling=x last_read_seqno=9 created_ns=2000000000 "
	"owners=2:200:glxgears:1,1:100:Xorg:2\n"
	"id=4 size=4096 list=unbound created_ns=5000000000 madv=dontneed "
	"owners=2:200:glxgears:2\n"
	"id=5 size=65536 list=unbound created_ns=4000000000 dirty=1 "
	"owners=2:200:glxgears:3\n";

static const char gtt_txt[] =
	"schema=gemkit_gtt version=1 fields=...\n"
	"kind=range start=0x00000000 size=131072 obj=1 obj_size=131072 pin=1 list=pinned fence=-1\n"
	"kind=range start=0x00020000 size=65536 obj=2 obj_size=65536 pin=0 list=inactive fence=-1\n"
	"kind=hole start=0x00030000 size=851968\n"
	"kind=range start=0x00100000 size=2097152 obj=3 obj_size=2097152 pin=0 list=active fence=2\n"
	"kind=hole start=0x00300000 size=13631488\n"
	"kind=summary total=16777216 used=2293760 free=14483456 largest_hole=13631488 "
	"pinned=131072 evictable=2162688 ranges=3 holes=2\n";

static const char era_objects_txt[] =
	"11 objects, 786432 bytes\n"
	"6 [6] objects, 458752 [458752] bytes in gtt\n"
	"  0 [0] active objects, 0 [0] bytes\n"
	"  3 [3] pinned objects, 262144 [262144] bytes\n"
	"  3 [3] inactive objects, 196608 [196608] bytes\n"
	"  0 [0] freed objects, 0 [0] bytes\n"
	"3 pinned mappable objects, 262144 bytes\n"
	"0 fault mappable objects, 0 bytes\n"
	"16777216 [16777216] gtt total\n";

static const char counters1_txt[] =
	"schema=gemkit_counters version=1\n"
	"time_ns=1000000000 execbuffers=10 binds=4 evictions=1 waits=0 "
	"clflush_bytes=4096 pwrite_bytes=0 pread_bytes=100 retires=2 seqno=10 hangs=0\n";
static const char counters2_txt[] =
	"schema=gemkit_counters version=1\n"
	"time_ns=3000000000 execbuffers=30 binds=8 evictions=1 waits=6 "
	"clflush_bytes=12288 pwrite_bytes=1048576 pread_bytes=50 retires=6 seqno=30 hangs=1\n";

static const char ring_txt[] =
	"schema=gemkit_ring version=1 fields=...\n"
	"kind=ring name=render head=0x00000040 tail=0x00000080 acthd=0x00010004 "
	"start=0x00000000 ctl=0x0001f001 size=131072 emitted_seqno=30 completed_seqno=27 "
	"waiting_seqno=0 irq_seqno=27 outstanding=3 idle=0 stopped=0 wedged=0\n"
	"kind=request seqno=28 tail=0x00000060 age_ns=7000000 file=2 pid=200\n"
	"kind=request seqno=29 tail=0x00000070 age_ns=5000 file=2 pid=200\n"
	"kind=request seqno=30 tail=0x00000080 age_ns=100 file=0 pid=0\n";

static void parse_objects(struct gdfs_objects *o)
{
	struct strbuf err = STRBUF_INIT;

	memset(o, 0, sizeof(*o));
	gt_assert_f(gdfs_parse_objects(objects_txt, sizeof(objects_txt) - 1, o, &err) >= 0,
		    "%s", err.buf);
	gt_assert_eq(o->n, 5);
	strbuf_release(&err);
}

/* The ids of the model's rows, as "1,2,3". */
static const char *row_ids(const struct gt_model *m, const struct gdfs_objects *o)
{
	static char buf[128];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < m->nrows; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%u", i ? "," : "",
					o->v[m->rows[i]].id);
	return buf;
}

static const char *filtered(struct gdfs_objects *o, const char *text)
{
	struct strbuf err = STRBUF_INIT;
	struct gt_model m;
	static char buf[128];

	gt_model_init(&m);
	gt_assert_f(gt_filter_parse(text, &m.filter, &err) == 0, "%s: %s", text, err.buf);
	m.sort = GT_COL_ID;
	gt_assert_eq(gt_model_update(&m, o, 0), 0);
	snprintf(buf, sizeof(buf), "%s", row_ids(&m, o));
	gt_model_release(&m);
	strbuf_release(&err);
	return buf;
}

static void expect_str(const char *got, const char *want)
{
	gt_assert_f(!strcmp(got, want), "got '%s', expected '%s'", got, want);
}

static void expect_bad_filter(const char *text, const char *msg)
{
	struct strbuf err = STRBUF_INIT;
	struct gt_filter f;

	gt_assert_eq(gt_filter_parse(text, &f, &err), -EINVAL);
	gt_assert_f(strstr(err.buf, msg), "'%s': message '%s' lacks '%s'", text, err.buf, msg);
	strbuf_release(&err);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);

	gemtest_subtest("filter-terms") {
		struct gdfs_objects o;

		parse_objects(&o);
		expect_str(filtered(&o, ""), "1,2,3,4,5");
		expect_str(filtered(&o, "client:Xorg"), "2,3");
		expect_str(filtered(&o, "client:200"), "3,4,5");	/* pid */
		expect_str(filtered(&o, "client:1"), "2,3");		/* drm file */
		expect_str(filtered(&o, "list:unb"), "4,5");
		expect_str(filtered(&o, "list:pinned"), "1");
		expect_str(filtered(&o, "dom:render"), "2,3");
		expect_str(filtered(&o, "dom:sampler"), "2");
		expect_str(filtered(&o, "dom:command"), "3");
		expect_str(filtered(&o, "size>64K"), "1,3");
		expect_str(filtered(&o, "size<64K"), "4");
		expect_str(filtered(&o, "size>1M"), "3");
		expect_str(filtered(&o, "pinned"), "1");
		expect_str(filtered(&o, "fenced"), "3");
		expect_str(filtered(&o, "id:4"), "4");
		expect_str(filtered(&o, "glxgears size>4K"), "3,5");
		expect_str(filtered(&o, "client:glxgears list:active dom:sampler"), "");
		gdfs_objects_release(&o);
	}

	gemtest_subtest("filter-errors") {
		expect_bad_filter("size>lots", "bad size in 'size>lots'");
		expect_bad_filter("list:nowhere", "unknown list 'nowhere'");
		expect_bad_filter("dom:vram", "unknown domain 'vram'");
		expect_bad_filter("id:x", "bad id 'x'");
		expect_bad_filter("colour:red", "unknown filter term 'colour:red'");
		/* Misspelt keys are errors with a suggestion, not substrings. */
		expect_bad_filter("sise>1M", "unknown filter term 'sise>1M' (did you mean 'size>1M'?)");
		expect_bad_filter("lsit:pinned",
				  "unknown filter term 'lsit:pinned' (did you mean 'list:pinned'?)");
		expect_bad_filter("size=4K", "unknown filter term 'size=4K'");
		expect_bad_filter("a b c d e f g h i", "at most 8 filter terms");
	}

	gemtest_subtest("sparkline-fixed-scales-in-columns") {
		double ap[4] = { 0.5, 0.5, 50, 100 }, rate[3] = { 0, 10000, 1e9 };
		char out[200];

		/* ASCII: the levels themselves.  0.5% of the aperture is the
		 * lowest bar, not a full one because nothing was higher. */
		gt_assert_eq(gt_sparkline(ap, 4, 40, GT_SCALE_PERCENT, true, out,
					  sizeof(out)), 4);
		expect_str(out, "__=#");
		gt_assert_eq(gt_sparkline(rate, 3, 40, GT_SCALE_LOG, true, out,
					  sizeof(out)), 3);
		expect_str(out, "_##");
		/* The newest width samples. */
		gt_assert_eq(gt_sparkline(ap, 4, 2, GT_SCALE_PERCENT, true, out,
					  sizeof(out)), 2);
		expect_str(out, "=#");
		if (setlocale(LC_ALL, "C.UTF-8")) {
			/* Blocks: 3 bytes, 1 column each. */
			gt_assert_eq(gt_sparkline(ap, 4, 40, GT_SCALE_PERCENT, false, out,
						  sizeof(out)), 4);
			gt_assert_eq(strlen(out), 12);
			gt_assert_eq(gt_fit_columns(out, 2), 6);
			gt_assert_eq(gt_fit_columns(out, 40), 12);
			gt_assert_eq(gt_fit_columns("History", 3), 3);
			setlocale(LC_ALL, "C");
		}
	}

	gemtest_subtest("event-filter") {
		struct gdfs_event bind = { .type = GDFS_EV_BIND, .obj = 4 };
		struct gdfs_event submit = { .type = GDFS_EV_SUBMIT };
		struct gdfs_event hang = { .type = GDFS_EV_OTHER, .type_name = "hang" };
		struct strbuf err = STRBUF_INIT;
		struct gt_filter f;

		gt_assert_eq(gt_event_filter_parse("", &f, &err), 0);
		gt_assert(gt_event_filter_match(&f, &bind) && gt_event_filter_match(&f, &hang));
		/* Types: any of them; id:N: that object. */
		gt_assert_eq(gt_event_filter_parse("submit hang", &f, &err), 0);
		gt_assert(!gt_event_filter_match(&f, &bind));
		gt_assert(gt_event_filter_match(&f, &submit) && gt_event_filter_match(&f, &hang));
		gt_assert_eq(gt_event_filter_parse("bind id:4", &f, &err), 0);
		gt_assert(gt_event_filter_match(&f, &bind));
		gt_assert_eq(gt_event_filter_parse("bind id:5", &f, &err), 0);
		gt_assert(!gt_event_filter_match(&f, &bind));
		gt_assert_eq(gt_event_filter_parse("submt", &f, &err), -EINVAL);
		expect_str(err.buf, "unknown event type 'submt' (did you mean 'submit'?)");
		strbuf_reset(&err);
		gt_assert_eq(gt_event_filter_parse("size>1M", &f, &err), -EINVAL);
		expect_str(err.buf, "unknown event type 'size>1M' (bind, unbind, evict, domain, "
			   "submit, wait, retire, purge, hang, id:N)");
		strbuf_release(&err);
	}

	gemtest_subtest("sort-orders") {
		struct gdfs_objects o;
		struct gt_model m;

		parse_objects(&o);
		gt_model_init(&m);
		/* Default: size, biggest first; equal sizes in id order. */
		gt_model_update(&m, &o, 0);
		expect_str(row_ids(&m, &o), "3,1,2,5,4");
		m.invert = true;
		gt_model_update(&m, &o, 0);
		expect_str(row_ids(&m, &o), "4,2,5,1,3");
		m.invert = false;
		m.sort = GT_COL_OFFSET;		/* unbound after every bound one */
		gt_model_update(&m, &o, 0);
		expect_str(row_ids(&m, &o), "1,2,3,4,5");
		m.sort = GT_COL_AGE;		/* oldest first */
		gt_model_update(&m, &o, 0);
		expect_str(row_ids(&m, &o), "1,3,2,5,4");
		m.sort = GT_COL_LIST;
		gt_model_update(&m, &o, 0);
		expect_str(row_ids(&m, &o), "4,5,2,3,1");
		m.sort = GT_COL_EVICTS;
		gt_model_update(&m, &o, 0);
		expect_str(row_ids(&m, &o), "2,1,3,4,5");
		expect_str(gt_col_name(GT_COL_OFFSET), "OFFSET");
		gt_model_release(&m);
		gdfs_objects_release(&o);
	}

	gemtest_subtest("search") {
		struct gdfs_objects o;
		struct gt_model m;

		parse_objects(&o);
		gt_model_init(&m);
		gt_model_update(&m, &o, 0);	/* 3,1,2,5,4 */
		gt_assert_eq(gt_model_search(&m, &o, "glxgears", 0), 0);
		gt_assert_eq(gt_model_search(&m, &o, "glxgears", 1), 3);
		gt_assert_eq(gt_model_search(&m, &o, "Xorg", 1), 2);
		gt_assert_eq(gt_model_search(&m, &o, "unbound", 0), 3);
		gt_assert_eq(gt_model_search(&m, &o, "4", 0), 4);
		gt_assert_eq(gt_model_search(&m, &o, "nothing", 0), -1);
		gt_model_release(&m);
		gdfs_objects_release(&o);
	}

	gemtest_subtest("lists-from-objects-and-era") {
		struct gt_list_totals a, b;
		struct gdfs_objects o;

		parse_objects(&o);
		gt_lists_from_objects(&o, &a);
		gt_assert(a.valid);
		gt_assert_eq(a.objects[GDFS_LIST_UNBOUND], 2);
		gt_assert_eq(a.bytes[GDFS_LIST_UNBOUND], 69632);
		gt_assert_eq(a.objects[GDFS_LIST_ACTIVE], 1);
		gt_assert_eq(a.bytes[GDFS_LIST_ACTIVE], 2097152);
		gt_assert_eq(a.objects[GDFS_LIST_PINNED], 1);
		gdfs_objects_release(&o);

		gt_assert_eq(gt_lists_from_era(era_objects_txt, sizeof(era_objects_txt) - 1, &b), 0);
		gt_assert_eq(b.objects[GDFS_LIST_UNBOUND], 5);
		gt_assert_eq(b.bytes[GDFS_LIST_UNBOUND], 327680);
		gt_assert_eq(b.objects[GDFS_LIST_INACTIVE], 3);
		gt_assert_eq(b.bytes[GDFS_LIST_INACTIVE], 196608);
		gt_assert_eq(b.objects[GDFS_LIST_PINNED], 3);
		gt_assert_eq(b.bytes[GDFS_LIST_PINNED], 262144);
		gt_assert_eq(b.objects[GDFS_LIST_ACTIVE], 0);
		gt_assert_eq(gt_lists_from_era("garbage\n", 8, &b), -EINVAL);
		gt_assert_eq(gt_lists_from_era("", 0, &b), -EINVAL);
	}

	gemtest_subtest("rates-from-two-samples") {
		struct gdfs_counters c1, c2;
		struct gt_rates r;

		memset(&c1, 0, sizeof(c1));
		memset(&c2, 0, sizeof(c2));
		gt_assert(gdfs_parse_counters(counters1_txt, sizeof(counters1_txt) - 1, &c1, NULL) >= 0);
		gt_assert(gdfs_parse_counters(counters2_txt, sizeof(counters2_txt) - 1, &c2, NULL) >= 0);
		gt_rates_compute(&c1, &c2, 2000000000ull, &r);
		gt_assert(r.valid);
		gt_assert_eq(r.execbuffers * 1000, 10000);
		gt_assert_eq(r.binds * 1000, 2000);
		gt_assert_eq(r.evictions * 1000, 0);
		gt_assert_eq(r.waits * 1000, 3000);
		gt_assert_eq(r.clflush_bytes, 4096);
		gt_assert_eq(r.pwrite_bytes, 524288);
		gt_assert_eq(r.pread_bytes, 0);	/* went backwards: a restart */
		gt_assert_eq(r.seqnos * 1000, 10000);
		gt_rates_compute(&c1, &c2, 0, &r);
		gt_assert(!r.valid);
		gdfs_counters_release(&c1);
		gdfs_counters_release(&c2);
	}

	gemtest_subtest("ring-lag-and-age") {
		struct gdfs_ring r;

		memset(&r, 0, sizeof(r));
		gt_assert(gdfs_parse_ring(ring_txt, sizeof(ring_txt) - 1, &r, NULL) >= 0);
		gt_assert_eq(gt_seqno_lag(&r), 3);
		gt_assert_eq(gt_oldest_age_ns(&r), 7000000);
		/* None of 28..30 is completed (27): none waits to retire. */
		gt_assert_eq(gt_ring_retiring(&r), 0);
		/* 28 and 29 completed, not retired: outstanding 1, not 3. */
		r.completed_seqno = 29;
		gt_assert_eq(gt_ring_retiring(&r), 2);
		r.completed_seqno = 27;
		r.emitted_seqno = 2;		/* wrapped past 2^32 */
		r.completed_seqno = 0xfffffffe;
		gt_assert_eq(gt_seqno_lag(&r), 4);
		gdfs_ring_release(&r);
	}

	gemtest_subtest("gtt-fenced-share") {
		struct gdfs_gtt g;

		memset(&g, 0, sizeof(g));
		gt_assert(gdfs_parse_gtt(gtt_txt, sizeof(gtt_txt) - 1, &g, NULL) >= 0);
		gt_assert_eq(gt_fenced_bytes(&g), 2097152);
		gdfs_gtt_release(&g);
	}

	gemtest_subtest("events-ring") {
		struct gt_events e;
		struct gdfs_events in;
		struct gdfs_event v[3];
		size_t i;

		memset(&e, 0, sizeof(e));
		e.v = calloc(GEMTOP_EVENTS_KEPT, sizeof(*e.v));
		gt_assert(e.v);
		memset(&in, 0, sizeof(in));
		memset(v, 0, sizeof(v));
		in.v = v;
		in.n = 3;
		for (i = 0; i < 3; i++)
			v[i].seq = i + 1;
		in.next_seq = 4;
		gt_events_add(&e, &in);
		gt_assert_eq(e.n, 3);
		gt_assert_eq(e.next_seq, 4);
		/* The same events again (an overlapping read) are not doubled. */
		gt_events_add(&e, &in);
		gt_assert_eq(e.n, 3);
		/* Overflow keeps the newest. */
		for (i = 0; i < GEMTOP_EVENTS_KEPT; i++) {
			v[0].seq = 4 + i;
			in.n = 1;
			in.next_seq = 5 + i;
			gt_events_add(&e, &in);
		}
		gt_assert_eq(e.n, GEMTOP_EVENTS_KEPT);
		gt_assert_eq(gt_event_at(&e, 0)->seq, 4);
		gt_assert_eq(gt_event_at(&e, GEMTOP_EVENTS_KEPT - 1)->seq, 3 + GEMTOP_EVENTS_KEPT);
		gt_assert(gt_event_at(&e, GEMTOP_EVENTS_KEPT) == NULL);
		free(e.v);
	}

	gemtest_subtest("short-forms") {
		struct gdfs_objects o;
		char buf[32];

		gt_fmt_domains(0x06, 0x02, buf, sizeof(buf));
		expect_str(buf, "rs/R");
		gt_fmt_domains(0, 0, buf, sizeof(buf));
		expect_str(buf, "-/-");
		gt_fmt_domains(0x41, 0x40, buf, sizeof(buf));
		expect_str(buf, "cg/G");
		gt_fmt_size(100, buf, sizeof(buf));
		expect_str(buf, "100B");
		gt_fmt_size(4096, buf, sizeof(buf));
		expect_str(buf, "4K");
		gt_fmt_size(1572864, buf, sizeof(buf));
		expect_str(buf, "1.5M");
		gt_fmt_size(16777216, buf, sizeof(buf));
		expect_str(buf, "16M");
		gt_fmt_age(1500000000ull, buf, sizeof(buf));
		expect_str(buf, "1.5s");
		gt_fmt_age(600000000000ull, buf, sizeof(buf));
		expect_str(buf, "10m00s");
		/* No jump from 98.5s to 1m: each unit carries the next. */
		gt_fmt_age(99900000000ull, buf, sizeof(buf));
		expect_str(buf, "99.9s");
		gt_fmt_age(100000000000ull, buf, sizeof(buf));
		expect_str(buf, "1m40s");
		gt_fmt_age(3600000000000ull, buf, sizeof(buf));
		expect_str(buf, "1h00m");
		gt_fmt_age(86399000000000ull, buf, sizeof(buf));
		expect_str(buf, "23h59m");
		gt_fmt_age(273600000000000ull, buf, sizeof(buf));
		expect_str(buf, "3d04h");
		parse_objects(&o);
		gt_fmt_flags(&o.v[0], buf, sizeof(buf));
		expect_str(buf, "p.....");
		gt_fmt_flags(&o.v[2], buf, sizeof(buf));
		expect_str(buf, ".FX...");
		gt_fmt_flags(&o.v[3], buf, sizeof(buf));
		expect_str(buf, "....U.");
		gt_fmt_owner(&o.v[2], buf, sizeof(buf));
		expect_str(buf, "200/glxgears+1");
		gt_fmt_owner(&o.v[0], buf, sizeof(buf));
		expect_str(buf, "-");
		gdfs_objects_release(&o);
	}

	gemtest_subtest("json-and-csv-records") {
		struct gt_sampler s;
		struct gt_model m;
		struct gt_batch b;
		struct strbuf sb = STRBUF_INIT;
		char *mem = NULL;
		size_t memlen = 0;
		FILE *f;

		gt_assert_eq(gt_sampler_init(&s, NULL, NULL), 0);
		s.cur->real_ns = 1234;
		gt_assert(gdfs_parse_counters(counters2_txt, sizeof(counters2_txt) - 1,
					      &s.cur->ctr, NULL) >= 0);
		gt_assert(gdfs_parse_gtt(gtt_txt, sizeof(gtt_txt) - 1, &s.cur->gtt, NULL) >= 0);
		gt_assert(gdfs_parse_ring(ring_txt, sizeof(ring_txt) - 1, &s.cur->ring, NULL) >= 0);
		gt_assert(gdfs_parse_objects(objects_txt, sizeof(objects_txt) - 1,
					     &s.cur->objs, NULL) >= 0);
		s.cur->have = GT_NEED_COUNTERS | GT_NEED_GTT | GT_NEED_RING | GT_NEED_OBJECTS |
			      GT_NEED_LISTS;
		s.cur->fenced_bytes = gt_fenced_bytes(&s.cur->gtt);
		gt_lists_from_objects(&s.cur->objs, &s.cur->lists);
		s.count = 1;
		gt_model_init(&m);
		gt_filter_parse("size>64K", &m.filter, NULL);
		gt_model_update(&m, &s.cur->objs, 1234);

		gt_json_frame(&sb, &s, 500000000, &m);
		gt_assert(!strncmp(sb.buf, "{\"schema_version\":1,\"tool\":\"gemtop\",", 36));
		gt_assert(strstr(sb.buf, "\"timestamp_ns\":1234,\"interval_ns\":500000000,\"sample\":1,"));
		gt_assert(strstr(sb.buf, "\"aperture\":{\"total\":16777216,\"used\":2293760,"
				 "\"free\":14483456,\"largest_hole\":13631488,\"holes\":2,"
				 "\"pinned\":131072,\"fenced\":2097152,\"evictable\":2162688}"));
		gt_assert(strstr(sb.buf, "\"unbound\":{\"objects\":2,\"bytes\":69632}"));
		gt_assert(strstr(sb.buf, "\"seqno_lag\":3,\"outstanding\":3,\"oldest_request_age_ns\":7000000"));
		gt_assert(strstr(sb.buf, "\"hangs\":1,"));
		gt_assert(!strstr(sb.buf, "\"rates\""));	/* one sample only */
		gt_assert(!strstr(sb.buf, "\"cpu_pct\""));
		gt_assert(strstr(sb.buf, "\"objects_total\":5,\"objects_matched\":2,"));
		gt_assert(strstr(sb.buf, "\"comm\":\"glxgears\""));
		gt_assert(strstr(sb.buf, "\"gtt_offset\":1048576,"));
		gt_assert_eq(sb.buf[sb.len - 1], '}');

		s.rates.valid = true;
		s.rates.execbuffers = 10;
		strbuf_reset(&sb);
		gt_json_frame(&sb, &s, 500000000, &m);
		gt_assert(strstr(sb.buf, "\"rates\":{\"execbuffers\":10.000,"));

		f = open_memstream(&mem, &memlen);
		gt_assert(f);
		memset(&b, 0, sizeof(b));
		b.out = f;
		b.format = GT_FMT_CSV;
		b.interval_ns = 500000000;
		s.rates.valid = false;
		gt_assert_eq(gt_batch_emit(&b, &s, &m), 0);
		s.rates.valid = true;
		gt_assert_eq(gt_batch_emit(&b, &s, &m), 0);
		fclose(f);
		gt_assert(!strncmp(mem, "timestamp_ns,interval_ns,sample,", 32));
		gt_assert(strstr(mem, "\n1234,500000000,1,16777216,2293760,13631488,131072,"
				 "2097152,2,69632,1,65536,1,2097152,0,0,1,131072,30,27,3,"
				 "7000000,1,,,,,,,,\n"));
		gt_assert(strstr(mem, ",1,10.000,0.000,"));
		/* The header once. */
		gt_assert(strstr(strstr(mem, "timestamp_ns") + 1, "timestamp_ns") == NULL);
		free(mem);
		strbuf_release(&sb);
		gt_model_release(&m);
		gt_sampler_release(&s);
	}

	gemtest_subtest("era-files") {
		static const char pinned[] =
			"Pinned:\n"
			"   ffff880000000400: p    131072 0001 0001 0 0 uncached (gtt offset: "
			"00000000, size: 00020000) (p mappable)\n"
			"   ffff880000001400: PX    65536 0002 0002 7 0 dirty (name: 3) "
			"(fence: 2) (gtt offset: 00050000, size: 00010000) (p mappable)\n"
			"Total 2 objects, 196608 bytes, 196608 GTT size\n";
		static const char seqno[] =
			"Current sequence (render ring): 5\n"
			"Waiter sequence (render ring):  0\n"
			"IRQ sequence (render ring):     5\n";
		static const char request[] =
			"Render requests:\n    6 @ 12\n    7 @ 3\n";
		struct gdfs_objects o;
		struct gdfs_ring r;

		memset(&o, 0, sizeof(o));
		gt_assert_eq(gt_era_objects(pinned, sizeof(pinned) - 1, GDFS_LIST_PINNED, &o), 0);
		gt_assert_eq(o.n, 2);
		gt_assert_eq(o.v[0].id, 1);
		gt_assert_eq(o.v[0].size, 131072);
		gt_assert_eq(o.v[0].pin, 1);
		gt_assert_eq(o.v[0].user_pin, 0);
		gt_assert_eq(o.v[0].gtt_size, 131072);
		gt_assert_eq(o.v[1].id, 5);
		gt_assert_eq(o.v[1].user_pin, 1);
		gt_assert_eq(o.v[1].tiling, GDFS_TILING_X);
		gt_assert_eq(o.v[1].fence, 2);
		gt_assert_eq(o.v[1].name, 3);
		gt_assert_eq(o.v[1].dirty, 1);
		gt_assert_eq(o.v[1].read, 2);
		gt_assert_eq(o.v[1].last_read_seqno, 7);
		gt_assert_eq(o.v[1].gtt_offset, 0x50000);
		gt_assert(gdfs_objects_find(&o, 5) == &o.v[1]);
		gdfs_objects_release(&o);

		gt_assert_eq(gt_era_ring(seqno, sizeof(seqno) - 1, NULL, 0, request,
					 sizeof(request) - 1, &r), 0);
		gt_assert_eq(r.completed_seqno, 5);
		gt_assert_eq(r.emitted_seqno, 7);
		gt_assert_eq(gt_seqno_lag(&r), 2);
		gt_assert_eq(r.nrequests, 2);
		gt_assert_eq(gt_oldest_age_ns(&r), 12000000);
		gdfs_ring_release(&r);
		gt_assert_eq(gt_era_ring("junk", 4, NULL, 0, NULL, 0, &r), -EINVAL);
		gdfs_ring_release(&r);
	}

	return gemtest_exit();
}
