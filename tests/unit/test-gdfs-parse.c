/*
 * libgemdebugfs parsers on fixed text: exact values from known lines,
 * unknown keys skipped, and every malformed or truncated input refused
 * with a message -- never a crash (this test runs under ASan in CI).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gemdebugfs.h"
#include "gemtest.h"
#include "strbuf.h"

static const char objects_txt[] =
	"schema=gemkit_objects version=1 count=3 fields=id,size,list\n"
	"id=1 size=131072 list=pinned gtt_offset=0x00000000 gtt_size=131072 read=0x01 "
	"write=0x01 pin=1 user_pin=0 fence=-1 tiling=none stride=0 madv=willneed "
	"cache=none dirty=0 active=0 last_read_seqno=0 last_write_seqno=0 name=0 "
	"handles=0 creator_pid=0 created_ns=1796299093013824739 binds=1 evicts=0 owners=\n"
	"id=7 size=8192 list=active gtt_offset=0x00040000 gtt_size=16384 read=0x0a "
	"write=0x02 pin=0 user_pin=0 fence=3 tiling=x stride=512 madv=dontneed "
	"cache=cached dirty=1 active=1 last_read_seqno=42 last_write_seqno=41 name=5 "
	"handles=2 creator_pid=1234 created_ns=17 binds=3 evicts=2 future_key=zz "
	"owners=2:1234:my%20prog:1,3:99:x%3Ay:4\n"
	"\n"
	"id=9 size=4096 list=unbound tiling=y madv=purged cache=display\n";

static const char gtt_txt[] =
	"schema=gemkit_gtt version=1 fields=...\n"
	"kind=range start=0x00000000 size=131072 obj=1 obj_size=131072 pin=1 list=pinned fence=-1\n"
	"kind=hole start=0x00020000 size=4096\n"
	"kind=range start=0x00021000 size=8192 obj=7 obj_size=8192 pin=0 list=active fence=2\n"
	"kind=newkind whatever=1\n"
	"kind=summary total=143360 used=139264 free=4096 largest_hole=4096 pinned=131072 "
	"evictable=8192 ranges=2 holes=1\n";

static const char ring_txt[] =
	"schema=gemkit_ring version=1 fields=...\n"
	"kind=ring name=render head=0x00000040 tail=0x00000080 acthd=0x00010004 "
	"start=0x00000000 ctl=0x0001f001 size=131072 emitted_seqno=12 completed_seqno=10 "
	"waiting_seqno=11 irq_seqno=10 outstanding=2 idle=0 stopped=0 wedged=0\n"
	"kind=request seqno=11 tail=0x00000060 age_ns=5000 file=3 pid=77\n"
	"kind=request seqno=12 tail=0x00000080 age_ns=100 file=0 pid=0\n";

static const char counters_txt[] =
	"schema=gemkit_counters version=1\n"
	"time_ns=13931438981885 execbuffers=5 relocations=9 binds=1 new_counter=3\n";

static const char clients_txt[] =
	"schema=gemkit_clients version=1 count=1 fields=...\n"
	"file=2 pid=1234 comm=my%20prog handles=3 handle_bytes=20480 bound_bytes=8192 "
	"requests=1\n";

static const char events_txt[] =
	"schema=gemkit_events version=1 first_seq=5 next_seq=9 since=6 dropped=1 count=2 "
	"fields=...\n"
	"seq=7 ts_ns=100 type=bind obj=7 offset=0x00040000 size=16384\n"
	"seq=8 ts_ns=200 type=wait seqno=12 wait_ns=350 result=-110\n"
	"seq=9 ts_ns=300 type=teleport obj=1\n";

static const char seqno_txt[] =
	"Current sequence (render ring): 10\n"
	"Waiter sequence (render ring):  11\n"
	"IRQ sequence (render ring):     -2\n";

static const char ringinfo_txt[] =
	"Ring render ring:\n"
	"  Head :    00000040\n"
	"  Tail :    00000080\n"
	"  Size :    00020000\n"
	"  Active :  00010004\n"
	"  NOPID :   00000000\n"
	"  Control : 0001f001\n"
	"  Start :   00000000\n";

static const char era_line[] =
	"   ffff880000001c00: pX    16384 0002 0004 7 7 uncached dirty purgeable (name: 3) "
	"(fence: 2) (gtt offset: 00040000, size: 00004000) (p mappable) (render ring)";

/* Every parser, by name, over any input: returns 0 or -errno. */
static int parse_any(int which, const char *buf, size_t len, struct strbuf *err)
{
	int ret;

	switch (which) {
	case 0: {
		struct gdfs_objects o;

		ret = gdfs_parse_objects(buf, len, &o, err);
		if (!ret)
			gdfs_objects_release(&o);
		return ret;
	}
	case 1: {
		struct gdfs_gtt g;

		ret = gdfs_parse_gtt(buf, len, &g, err);
		if (!ret)
			gdfs_gtt_release(&g);
		return ret;
	}
	case 2: {
		struct gdfs_ring r;

		ret = gdfs_parse_ring(buf, len, &r, err);
		if (!ret)
			gdfs_ring_release(&r);
		return ret;
	}
	case 3: {
		struct gdfs_counters c;

		ret = gdfs_parse_counters(buf, len, &c, err);
		if (!ret)
			gdfs_counters_release(&c);
		return ret;
	}
	case 4: {
		struct gdfs_clients c;

		ret = gdfs_parse_clients(buf, len, &c, err);
		if (!ret)
			gdfs_clients_release(&c);
		return ret;
	}
	case 5: {
		struct gdfs_events e;

		ret = gdfs_parse_events(buf, len, &e, err);
		if (!ret)
			gdfs_events_release(&e);
		return ret;
	}
	case 6: {
		struct gdfs_era_seqno s;

		return gdfs_parse_era_seqno(buf, len, &s, err);
	}
	case 7: {
		struct gdfs_era_ringinfo r;

		return gdfs_parse_era_ringinfo(buf, len, &r, err);
	}
	default: {
		struct gdfs_era_obj o;

		return gdfs_parse_era_obj(buf, len, &o);
	}
	}
}

static const char *const samples[] = {
	objects_txt, gtt_txt, ring_txt, counters_txt, clients_txt, events_txt,
	seqno_txt, ringinfo_txt, era_line,
};

static void put_file(const char *dir, const char *name, size_t size)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	gt_assert(fd >= 0);
	gt_assert_eq(ftruncate(fd, (off_t)size), 0);
	gt_assert_eq(close(fd), 0);
}

/*
 * A directory source reads regular files only (ESPIPE for a FIFO or a
 * device, EISDIR for a directory) and no more than its limit (EFBIG),
 * leaving what the caller had in the buffer alone.
 */
static void test_dir_source_limits(void)
{
	char dir[256], path[512];
	struct strbuf sb = STRBUF_INIT;
	struct gdfs *src;

	snprintf(dir, sizeof(dir), "%s/tree/dri/0", gemtest_tmpdir());
	snprintf(path, sizeof(path), "%s/tree", gemtest_tmpdir());
	gt_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/tree/dri", gemtest_tmpdir());
	gt_assert_eq(mkdir(path, 0755), 0);
	gt_assert_eq(mkdir(dir, 0755), 0);
	put_file(dir, "name", 12);
	put_file(dir, "big", (2u << 20) + 1);
	put_file(dir, "fits", 1u << 20);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	gt_assert_eq(mkfifo(path, 0644), 0);
	snprintf(path, sizeof(path), "%s/zero", dir);
	gt_assert_eq(symlink("/dev/zero", path), 0);
	snprintf(path, sizeof(path), "%s/sub", dir);
	gt_assert_eq(mkdir(path, 0755), 0);

	snprintf(path, sizeof(path), "%s/tree", gemtest_tmpdir());
	gt_assert_eq(gdfs_open_dir(path, &src), 0);
	gdfs_set_max_size(src, 2u << 20);
	strbuf_addstr(&sb, "kept");
	gt_assert_eq(gdfs_read(src, "big", &sb), -EFBIG);
	gt_assert_eq(sb.len, 4);
	gt_assert_eq(gdfs_read(src, "fits", &sb), 0);
	gt_assert_eq(sb.len, 4 + (1u << 20));
	gt_assert_eq(gdfs_read(src, "fifo", &sb), -ESPIPE);
	gt_assert_eq(gdfs_read(src, "zero", &sb), -ESPIPE);
	gt_assert_eq(gdfs_read(src, "sub", &sb), -EISDIR);
	gt_assert_eq(gdfs_read_range(src, "fifo", 0, 16, &sb), -ESPIPE);
	gt_assert_eq(gdfs_write(src, "fifo", "x", 1), -ESPIPE);
	gt_assert_eq(sb.len, 4 + (1u << 20));
	gdfs_close(src);

	gt_assert(!strcmp(gdfs_strerror(-ESPIPE), "not a regular file"));
	gt_assert(!strcmp(gdfs_strerror(-EFBIG),
			  "larger than a debugfs file may be (256 MiB)"));
	gt_assert(!strcmp(gdfs_strerror(-ENOSPC), "No space left on device"));
	strbuf_release(&sb);
}

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;

	gemtest_init(argc, argv);

	gemtest_subtest("objects-exact") {
		struct gdfs_objects o;
		const struct gdfs_object *a, *b, *c;

		gt_assert_eq(gdfs_parse_objects(objects_txt, strlen(objects_txt), &o, &err), 0);
		gt_assert_eq(o.schema.version, 1);
		gt_assert_eq(o.schema.count, 3);
		gt_assert_eq(o.n, 3);
		a = &o.v[0];
		gt_assert_eq(a->id, 1);
		gt_assert_eq(a->list, GDFS_LIST_PINNED);
		gt_assert_eq(a->gtt_size, 131072);
		gt_assert_eq(a->fence, -1);
		gt_assert_eq_u64(a->created_ns, 1796299093013824739ull);
		gt_assert_eq(a->nowners, 0);
		gt_assert(a->owners == NULL);
		b = gdfs_objects_find(&o, 7);
		gt_assert(b == &o.v[1]);
		gt_assert_eq(b->size, 8192);
		gt_assert_eq(b->list, GDFS_LIST_ACTIVE);
		gt_assert_eq(b->gtt_offset, 0x40000);
		gt_assert_eq(b->read, 0x0a);
		gt_assert_eq(b->write, 0x02);
		gt_assert_eq(b->fence, 3);
		gt_assert_eq(b->tiling, GDFS_TILING_X);
		gt_assert_eq(b->stride, 512);
		gt_assert_eq(b->madv, GDFS_MADV_DONTNEED);
		gt_assert_eq(b->cache, GDFS_CACHE_CACHED);
		gt_assert(b->dirty && b->active);
		gt_assert_eq(b->last_read_seqno, 42);
		gt_assert_eq(b->last_write_seqno, 41);
		gt_assert_eq(b->name, 5);
		gt_assert_eq(b->handles, 2);
		gt_assert_eq(b->creator_pid, 1234);
		gt_assert_eq(b->binds, 3);
		gt_assert_eq(b->evicts, 2);
		gt_assert_eq(b->nowners, 2);
		gt_assert_eq(b->owners[0].file, 2);
		gt_assert_eq(b->owners[0].pid, 1234);
		gt_assert(!strcmp(b->owners[0].comm, "my prog"));
		gt_assert_eq(b->owners[0].handle, 1);
		gt_assert(!strcmp(b->owners[1].comm, "x:y"));
		gt_assert_eq(b->owners[1].handle, 4);
		c = gdfs_objects_find(&o, 9);
		gt_assert(c && c->tiling == GDFS_TILING_Y && c->madv == GDFS_MADV_PURGED &&
			  c->cache == GDFS_CACHE_DISPLAY && c->fence == -1);
		gt_assert(gdfs_objects_find(&o, 8) == NULL);
		gdfs_objects_release(&o);
	}

	gemtest_subtest("gtt-exact") {
		struct gdfs_gtt g;
		const struct gdfs_gtt_range *r;

		gt_assert_eq(gdfs_parse_gtt(gtt_txt, strlen(gtt_txt), &g, &err), 0);
		gt_assert_eq(g.n, 3);		/* the unknown kind is skipped */
		gt_assert_eq(g.total, 143360);
		gt_assert_eq(g.largest_hole, 4096);
		gt_assert_eq(g.evictable, 8192);
		gt_assert_eq(g.ranges, 2);
		gt_assert(g.v[1].hole && g.v[1].start == 0x20000 && g.v[1].size == 4096);
		r = gdfs_gtt_lookup(&g, 0x22fff);
		gt_assert(r && !r->hole && r->obj == 7 && r->fence == 2 &&
			  r->list == GDFS_LIST_ACTIVE);
		r = gdfs_gtt_lookup(&g, 0x20800);
		gt_assert(r && r->hole);
		gt_assert(gdfs_gtt_lookup(&g, 0x23000) == NULL);
		gdfs_gtt_release(&g);
	}

	gemtest_subtest("ring-counters-clients-exact") {
		struct gdfs_ring r;
		struct gdfs_counters c;
		struct gdfs_clients cl;
		uint64_t v;

		gt_assert_eq(gdfs_parse_ring(ring_txt, strlen(ring_txt), &r, &err), 0);
		gt_assert(!strcmp(r.name, "render"));
		gt_assert_eq(r.acthd, 0x10004);
		gt_assert_eq(r.emitted_seqno, 12);
		gt_assert_eq(r.completed_seqno, 10);
		gt_assert_eq(r.waiting_seqno, 11);
		gt_assert_eq(r.outstanding, 2);
		gt_assert(!r.idle && !r.stopped && !r.wedged);
		gt_assert_eq(r.nrequests, 2);
		gt_assert_eq(r.requests[0].seqno, 11);
		gt_assert_eq(r.requests[0].age_ns, 5000);
		gt_assert_eq(r.requests[0].pid, 77);
		gt_assert_eq(r.requests[1].tail, 0x80);
		gdfs_ring_release(&r);

		gt_assert_eq(gdfs_parse_counters(counters_txt, strlen(counters_txt), &c, &err), 0);
		gt_assert_eq(c.n, 5);
		gt_assert(gdfs_counter(&c, "relocations", &v) && v == 9);
		gt_assert(gdfs_counter(&c, "new_counter", &v) && v == 3);
		gt_assert(!gdfs_counter(&c, "hangs", &v) && v == 0);
		gdfs_counters_release(&c);

		gt_assert_eq(gdfs_parse_clients(clients_txt, strlen(clients_txt), &cl, &err), 0);
		gt_assert_eq(cl.n, 1);
		gt_assert(!strcmp(cl.v[0].comm, "my prog"));
		gt_assert_eq(cl.v[0].handle_bytes, 20480);
		gt_assert_eq(cl.v[0].requests, 1);
		gdfs_clients_release(&cl);
	}

	gemtest_subtest("events-exact") {
		struct gdfs_events e;

		gt_assert_eq(gdfs_parse_events(events_txt, strlen(events_txt), &e, &err), 0);
		gt_assert_eq(e.first_seq, 5);
		gt_assert_eq(e.next_seq, 9);
		gt_assert_eq(e.since, 6);
		gt_assert_eq(e.dropped, 1);
		gt_assert_eq(e.n, 3);
		gt_assert_eq(e.v[0].type, GDFS_EV_BIND);
		gt_assert_eq(e.v[0].offset, 0x40000);
		gt_assert_eq(e.v[1].type, GDFS_EV_WAIT);
		gt_assert_eq(e.v[1].result, -110);
		gt_assert_eq(e.v[1].wait_ns, 350);
		gt_assert_eq(e.v[2].type, GDFS_EV_OTHER);
		gt_assert(!strcmp(e.v[2].type_name, "teleport"));
		gt_assert(!strcmp(gdfs_event_type_name(GDFS_EV_RETIRE), "retire"));
		gdfs_events_release(&e);
	}

	gemtest_subtest("era-exact") {
		struct gdfs_era_obj o;
		struct gdfs_era_seqno s;
		struct gdfs_era_ringinfo ri;
		static const char plain[] =
			"ffff880000000400:        131072 0001 0001 0 0";

		gt_assert_eq(gdfs_parse_era_obj(era_line, strlen(era_line), &o), 0);
		gt_assert_eq_u64(o.ptr, 0xffff880000001c00ull);
		gt_assert_eq(gdfs_era_obj_id(o.ptr), 7);
		gt_assert_eq(o.pin, 'p');
		gt_assert_eq(o.tiling, 'X');
		gt_assert_eq(o.size, 16384);
		gt_assert_eq(o.read, 2);
		gt_assert_eq(o.write, 4);
		gt_assert_eq(o.last_rendering_seqno, 7);
		gt_assert(!strcmp(o.cache, "uncached"));
		gt_assert(o.dirty && o.purgeable);
		gt_assert_eq(o.name, 3);
		gt_assert_eq(o.fence, 2);
		gt_assert(o.bound && o.gtt_offset == 0x40000 && o.gtt_size == 0x4000);
		gt_assert(o.pin_mappable && !o.fault_mappable);
		gt_assert(!strcmp(o.ring, "render ring"));
		gt_assert_eq(gdfs_parse_era_obj(plain, strlen(plain), &o), 0);
		gt_assert(o.pin == ' ' && o.tiling == ' ' && !o.bound && o.fence == -1 &&
			  o.size == 131072 && gdfs_era_obj_id(o.ptr) == 1);
		gt_assert_eq(gdfs_era_obj_id(0x1234), 0);

		gt_assert_eq(gdfs_parse_era_seqno(seqno_txt, strlen(seqno_txt), &s, &err), 0);
		gt_assert_eq(s.current, 10);
		gt_assert(s.has_waiter && s.waiter == 11);
		gt_assert_eq(s.irq, 0xfffffffe);
		gt_assert_eq(gdfs_parse_era_ringinfo(ringinfo_txt, strlen(ringinfo_txt), &ri,
						     &err), 0);
		gt_assert_eq(ri.head, 0x40);
		gt_assert_eq(ri.size, 0x20000);
		gt_assert_eq(ri.active, 0x10004);
		gt_assert_eq(ri.ctl, 0x1f001);
	}

	gemtest_subtest("malformed-named") {
		static const struct {
			int which;
			const char *text, *msg;
		} bad[] = {
			{ 0, "", "no schema line" },
			{ 0, "schema=gemkit_objects\n", "no version" },
			{ 0, "schema=gemkit_gtt version=1\n", "this is a gemkit_gtt file" },
			{ 0, "schema=gemkit_objects version=1\nid=1 size=12x\n",
			  "gemkit_objects line 2: bad value '12x' for key 'size'" },
			{ 0, "schema=gemkit_objects version=1\nid=1 list=sideways\n",
			  "bad value 'sideways' for key 'list'" },
			{ 0, "schema=gemkit_objects version=1\nid=99999999999\n",
			  "for key 'id'" },
			{ 0, "schema=gemkit_objects version=1\nid=1 size=18446744073709551616\n",
			  "for key 'size'" },
			{ 0, "schema=gemkit_objects version=1\nid=1 junk\n", "line 2: malformed" },
			{ 0, "schema=gemkit_objects version=1\nsize=3\n", "record without id" },
			{ 0, "schema=gemkit_objects version=1\nid=1 owners=1:2:x\n", "bad owners" },
			{ 0, "schema=gemkit_objects version=1\nid=1", "truncated" },
			{ 1, "schema=gemkit_gtt version=1\nkind=hole start=0 size=1\n",
			  "no summary record" },
			{ 1, "schema=gemkit_gtt version=1\nkind=hole start=0x10 size=32\n"
			     "kind=hole start=0x20 size=1\n", "overlaps" },
			{ 2, "schema=gemkit_ring version=1\n", "no ring record" },
			{ 5, "schema=gemkit_events version=1\nseq=2 ts_ns=1 type=bind\n"
			     "seq=2 ts_ns=1 type=bind\n", "seq 2 after 2" },
			{ 6, "Current sequence (render ring): x\n", "bad value" },
			{ 7, "Ring render ring:\n  Head :    zz\n", "bad value after '  Head :'" },
		};
		unsigned int i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			strbuf_reset(&err);
			gt_assert_eq(parse_any(bad[i].which, bad[i].text, strlen(bad[i].text), &err),
				     -EINVAL);
			gt_assert_f(err.buf && strstr(err.buf, bad[i].msg),
				    "case %u: message '%s' lacks '%s'", i,
				    err.buf ? err.buf : "", bad[i].msg);
		}
	}

	/* Every prefix and every one-byte mutation of every sample: the parser
	 * may accept or refuse, but must not crash, leak or read past len. */
	gemtest_subtest("truncations-and-mutations") {
		static const char mutants[] = "\n =,:%-0x9Z\0";
		unsigned int s, runs = 0;
		size_t len, i, m;

		for (s = 0; s < sizeof(samples) / sizeof(samples[0]); s++) {
			len = strlen(samples[s]);
			for (i = 0; i <= len; i++) {
				/* a copy of exactly i bytes, so ASan sees overreads */
				char *copy = malloc(i ? i : 1);

				gt_assert(copy);
				memcpy(copy, samples[s], i);
				strbuf_reset(&err);
				(void)parse_any((int)s, copy, i, &err);
				free(copy);
				runs++;
			}
			for (i = 0; i < len; i++) {
				for (m = 0; m < sizeof(mutants) - 1; m++) {
					char *copy = malloc(len);

					gt_assert(copy);
					memcpy(copy, samples[s], len);
					copy[i] = mutants[m];
					strbuf_reset(&err);
					(void)parse_any((int)s, copy, len, &err);
					free(copy);
					runs++;
				}
			}
		}
		gemtest_diag("%u parses of truncated and mutated input", runs);
	}

	gemtest_subtest("dir-source-limits")
		test_dir_source_limits();

	strbuf_release(&err);
	return gemtest_exit();
}
