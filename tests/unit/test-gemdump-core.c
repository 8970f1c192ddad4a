/*
 * gemdump's readers and writer without a daemon: capture write/read round
 * trips (exact records and bytes, 70,000 objects past ELF's 65,535
 * program header limit, record sizes from older and newer writers), the
 * ascii85 and zlib decoders on known vectors, and the batch input reader.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gemdebugfs.h"
#include "batch.h"
#include "core.h"
#include "gemdump.h"
#include "gemtest.h"

static char path[256];

static void tmp_path(const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", gemtest_tmpdir(), name);
}

static struct gd_rec_object *add_obj(struct gd_capture *c, uint32_t id, uint64_t gtt,
				     uint64_t size, const uint8_t *data)
{
	struct gd_rec_object *o = gd_capture_add_object(c);

	gt_assert(o);
	o->id = id;
	o->size = size;
	o->gtt_offset = gtt;
	o->gtt_size = size;
	o->flags = GD_OBJ_BOUND;
	o->fence = -1;
	c->data[c->nobjects - 1] = data;
	return o;
}

static void round_trip_small(void)
{
	static uint8_t batch[4096], ring[8192];
	struct strbuf err = STRBUF_INIT;
	struct gd_capture c, r;
	const struct gd_rec_object *o;
	struct gd_rec_ring *rg;
	uint32_t v;
	size_t i;

	for (i = 0; i < sizeof(batch); i++)
		batch[i] = (uint8_t)(i * 7);
	for (i = 0; i < sizeof(ring); i++)
		ring[i] = (uint8_t)(i * 13 + 1);
	gd_capture_init(&c);
	c.header.reason = GD_REASON_LIVE;
	snprintf(c.header.source, sizeof(c.header.source), "unit");
	c.device.pci_id = 0x2772;
	add_obj(&c, 7, 0xa45000, sizeof(batch), batch);
	add_obj(&c, 1, 0x0, sizeof(ring), ring)->flags |= GD_OBJ_RING;
	add_obj(&c, 9, 0x100000, 1 << 20, NULL);		/* no contents */
	add_obj(&c, 12, 0, 4096, batch)->flags = 0;		/* unbound, contents */
	rg = gd_capture_add_ring(&c);
	snprintf(rg->name, sizeof(rg->name), "render");
	rg->acthd = 0xa45004;
	rg->ring_obj = 1;
	gt_assert(gd_capture_add_register(&c, "IPEHR", 0x54300004));
	tmp_path("small.core");
	gt_assert_eq(gd_capture_write(&c, path, &err), 0);
	gd_capture_release(&c);

	gt_assert_eq(gd_capture_load(path, &r, &err), 0);
	gt_assert_eq(r.nobjects, 4);
	gt_assert_eq(r.device.pci_id, 0x2772);
	gt_assert(!strcmp(r.header.source, "unit"));
	gt_assert_eq(r.nrings, 1);
	gt_assert_eq(r.rings[0].acthd, 0xa45004);
	gt_assert(gd_capture_reg(&r, "IPEHR", &v));
	gt_assert_eq(v, 0x54300004);
	o = gd_capture_find_addr(&r, 0xa45ffc);
	gt_assert(o && o->id == 7);
	gt_assert(!memcmp(gd_capture_data(&r, o), batch, sizeof(batch)));
	o = gd_capture_find_id(&r, 1);
	gt_assert(o && (o->flags & GD_OBJ_RING));
	gt_assert(!memcmp(gd_capture_data(&r, o), ring, sizeof(ring)));
	o = gd_capture_find_id(&r, 9);
	gt_assert(o && !gd_capture_data(&r, o) && !(o->flags & GD_OBJ_CAPTURED));
	o = gd_capture_find_id(&r, 12);
	gt_assert(o && gd_capture_data(&r, o) && !(o->flags & GD_OBJ_BOUND));
	gt_assert(!gd_capture_find_addr(&r, 0xa46000));
	gd_capture_release(&r);
	strbuf_release(&err);
	unlink(path);
}

static void round_trip_many(void)
{
	static uint8_t page[4096] = { 0xab };
	struct strbuf err = STRBUF_INIT;
	struct gd_capture c, r;
	const struct gd_rec_object *o;
	uint32_t i;

	gd_capture_init(&c);
	for (i = 0; i < 70000; i++)
		add_obj(&c, i + 1, 4096ull * i, 4096, i % 10000 ? NULL : page);
	tmp_path("many.core");
	gt_assert_f(gd_capture_write(&c, path, &err) == 0, "%s", err.buf);
	gd_capture_release(&c);
	gt_assert_f(gd_capture_load(path, &r, &err) == 0, "%s", err.buf);
	gt_assert_eq(r.nobjects, 70000);
	o = gd_capture_find_addr(&r, 4096ull * 60000 + 5);
	gt_assert(o && o->id == 60001);
	gt_assert(gd_capture_data(&r, o) && gd_capture_data(&r, o)[0] == 0xab);
	o = gd_capture_find_id(&r, 69999);
	gt_assert(o && !gd_capture_data(&r, o));
	gd_capture_release(&r);
	strbuf_release(&err);
	unlink(path);
}

static void record_sizes(void)
{
	struct strbuf err = STRBUF_INIT;
	struct gd_capture c, r;
	uint8_t *buf;
	size_t len, off;
	uint32_t *hdr;

	/* Start from a real file, then rewrite its device record. */
	gd_capture_init(&c);
	c.device.pci_id = 0x2772;
	c.device.gen = 3;
	tmp_path("sizes.core");
	gt_assert_eq(gd_capture_write(&c, path, &err), 0);
	gd_capture_release(&c);
	{
		struct strbuf sb = STRBUF_INIT;

		gt_assert_eq(gd_read_file(path, 1 << 20, &sb), 0);
		buf = (uint8_t *)strbuf_detach(&sb, &len);
	}
	/* The device note follows the header note. */
	off = 0x40 + 0x38 + 0;			/* ehdr + one phdr */
	off = (off + 7) & ~(size_t)7;
	off += 20 + sizeof(struct gd_rec_header);
	hdr = (uint32_t *)(buf + off + 20);
	gt_assert_eq(hdr[2], 0x2772);
	/* An older writer: a record of 12 bytes (pci_id only); gen reads 0. */
	hdr[1] = 12;
	gt_assert_eq(gd_capture_parse(buf, len, &r, &err), 0);
	gt_assert_eq(r.device.pci_id, 0x2772);
	gt_assert_eq(r.device.gen, 0);
	gd_capture_release(&r);
	strbuf_release(&err);
	unlink(path);
}

/* Streamed contents: object 2's bytes arrive, object 3 vanishes. */
static int fake_fill(void *arg, const struct gd_rec_object *o, int fd, uint64_t off)
{
	uint8_t buf[4096];

	(void)arg;
	if (o->id == 3)
		return -ENOENT;
	memset(buf, (int)o->id, sizeof(buf));
	if (pwrite(fd, buf, sizeof(buf), (off_t)off) != (ssize_t)sizeof(buf))
		return -EIO;
	return 0;
}

static void streamed(void)
{
	struct strbuf err = STRBUF_INIT;
	struct gd_capture c, r;
	const struct gd_rec_object *o;
	int i;

	gd_capture_init(&c);
	for (i = 1; i <= 3; i++)
		add_obj(&c, (uint32_t)i, 0x10000u * (uint32_t)i, 4096, NULL)->flags |=
			i > 1 ? GD_OBJ_CAPTURED : 0;
	c.fill = fake_fill;
	tmp_path("streamed.core");
	gt_assert_eq(gd_capture_write(&c, path, &err), 0);
	gt_assert(!(c.objects[2].flags & GD_OBJ_CAPTURED));
	gd_capture_release(&c);
	gt_assert_f(gd_capture_load(path, &r, &err) == 0, "%s", err.buf);
	o = gd_capture_find_id(&r, 1);
	gt_assert(o && !gd_capture_data(&r, o));
	o = gd_capture_find_id(&r, 2);
	gt_assert(o && gd_capture_data(&r, o) && gd_capture_data(&r, o)[4095] == 2);
	o = gd_capture_find_id(&r, 3);
	gt_assert(o && !gd_capture_data(&r, o) && !(o->flags & GD_OBJ_CAPTURED));
	gt_assert_eq(o->data_size, 0);
	gd_capture_release(&r);
	strbuf_release(&err);
	unlink(path);
}

static void ascii85(void)
{
	struct gdfs_dwords d = { 0 };
	struct strbuf err = STRBUF_INIT;
	/* ~ raw: 0, 0x54300004 */
	static const char raw[] = "~z<%n:T";
	/* zlib.compress(b"\x01\x00\x00\x00" * 4) */
	uint8_t z[] = { 0x78, 0x9c, 0x63, 0x64, 0x60, 0x60, 0x60, 0x44, 0xc2, 0x00,
			0x00, 0x38, 0x00, 0x05 };
	struct strbuf out = STRBUF_INIT;

	gt_assert_eq(gdfs_ascii85_decode(raw, strlen(raw), &d, &err), 0);
	gt_assert_eq(d.n, 2);
	gt_assert_eq(d.v[0], 0);
	gt_assert_eq(d.v[1], 0x54300004);
	d.n = 0;
	gt_assert_eq(gdfs_ascii85_decode("~<%n:", 5, &d, &err), -EINVAL);
	gt_assert(strstr(err.buf, "partial group"));
	strbuf_reset(&err);
	gt_assert_eq(gdfs_ascii85_decode("~vvvvv", 6, &d, &err), -EINVAL);
	gt_assert(strstr(err.buf, "bad character"));
	gt_assert_eq(gdfs_inflate(z, sizeof(z), &out, 1 << 20), 0);
	gt_assert_eq(out.len, 16);
	gt_assert(!memcmp(out.buf, "\1\0\0\0\1\0\0\0\1\0\0\0\1\0\0\0", 16));
	strbuf_reset(&out);
	gt_assert_eq(gdfs_inflate(z, sizeof(z), &out, 8), -EFBIG);
	strbuf_reset(&out);
	z[sizeof(z) - 1] ^= 1;			/* Adler-32 */
	gt_assert_eq(gdfs_inflate(z, sizeof(z), &out, 1 << 20), -EINVAL);
	strbuf_reset(&out);
	gt_assert_eq(gdfs_inflate(z, 5, &out, 1 << 20), -EINVAL);
	free(d.v);
	strbuf_release(&out);
	strbuf_release(&err);
}

/*
 * libgemdebugfs reads the later kernels' ascii85 error states itself, so
 * that every tool parsing an error state does (not only gemdump): the
 * batch of the sample decodes to its XY_COLOR_BLT (IPEHR 0x54300004, at
 * ACTHD, the batch's second dword).
 */
static void ascii85_error_state(void)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct gdfs_error_state es;
	char golden[PATH_MAX];
	size_t i;

	snprintf(golden, sizeof(golden), "%s/tests/golden/gemdump/errstate-ascii85-zlib.txt",
		 getenv("GEMKIT_SRC_DIR") ? getenv("GEMKIT_SRC_DIR") : "..");
	gt_assert(strbuf_read_path(&text, golden, 1 << 20) > 0);
	gt_assert_f(!gdfs_parse_error_state(text.buf, text.len, &es, &err), "%s", err.buf);
	gt_assert(es.present);
	gt_assert_eq(es.nbuffers, 2);
	for (i = 0; i < es.nbuffers; i++)
		if (es.buffers[i].gtt_offset == 0x00a45000)
			break;
	gt_assert(i < es.nbuffers);
	gt_assert(es.buffers[i].ndwords > 1);
	gt_assert_eq(es.buffers[i].dwords[1], 0x54300004);
	gdfs_error_state_release(&es);
	strbuf_release(&text);
	strbuf_release(&err);
}

/*
 * An error state as Linux 6.1 prints sysfs card0/error (gemd's
 * gemkit_sysfs_error): the ring named "rcs0" is the render ring, whose
 * registers are kept; the batch's offset comes as high and low words.
 */
static void engine_named_error_state(void)
{
	static const char text[] = "Time: 1 s 0 us\nPCI ID: 0x2772\nEIR: 0x00000000\n"
				   "PGTBL_ER: 0x00000000\nrcs0 command stream:\n"
				   "  HEAD: 0x00000008\n  ACTHD: 0x00020004\n"
				   "rcs0 --- batch = 0x00000000 00020000\n~z\"TSN&\n";
	struct strbuf err = STRBUF_INIT;
	struct gdfs_error_state es;

	gt_assert_f(!gdfs_parse_error_state(text, strlen(text), &es, &err), "%s", err.buf);
	gt_assert(es.present);
	gt_assert_eq(es.head, 8);
	gt_assert_eq(es.acthd, 0x20004);
	gt_assert_eq(es.nbuffers, 1);
	gt_assert_eq(es.buffers[0].gtt_offset, 0x20000);
	gt_assert_eq(strcmp(es.buffers[0].name, "batch"), 0);
	gt_assert_eq(es.buffers[0].ndwords, 2);
	gt_assert_eq(es.buffers[0].dwords[0], 0);
	gt_assert_eq(es.buffers[0].dwords[1], 0x05000000);
	gdfs_error_state_release(&es);
	strbuf_release(&err);
}

static void batch_input(void)
{
	static const char text[] = "render ring --- gtt_offset = 0x00a45000\n"
				   "00000000 :  02000000\r\n\n# note\n00000004:05000000\n";
	static const uint8_t bin[] = { 4, 3, 2, 1, 0, 0, 0, 5 };
	struct strbuf err = STRBUF_INIT;
	struct gd_dwords d;
	struct gd_cmdinfo ci;
	uint32_t dw[3] = { 0x54300004, 0, 0 };

	gt_assert_eq(gd_parse_dwords(text, strlen(text), &d, &err), 0);
	gt_assert(d.text && d.has_base);
	gt_assert_eq(d.base, 0xa45000);
	gt_assert_eq(d.n, 2);
	gt_assert_eq(d.v[1], 0x05000000);
	gd_dwords_release(&d);
	gt_assert_eq(gd_parse_dwords((const char *)bin, sizeof(bin), &d, &err), 0);
	gt_assert(!d.text);
	gt_assert_eq(d.v[0], 0x01020304);
	gt_assert_eq(d.v[1], 0x05000000);
	gd_dwords_release(&d);
	gt_assert_eq(gd_parse_dwords((const char *)bin, 7, &d, &err), -EINVAL);
	gt_assert(strstr(err.buf, "byte offset 4"));
	gd_command_info(dw, 3, &ci);
	gt_assert(!strcmp(ci.name, "XY_COLOR_BLT") && ci.len == 6 && !ci.bad_len);
	dw[0] = 0x7d8e0001;
	gd_command_info(dw, 3, &ci);
	gt_assert(!strcmp(ci.name, "3DSTATE_BUFFER_INFO") && ci.len == 3);
	dw[0] = 0x1f800000;
	gd_command_info(dw, 3, &ci);
	gt_assert(!ci.known && ci.len == 1);
	strbuf_release(&err);
}

/* Completed but not retired: the ring's own requests at or before its
 * completed seqno, modulo 2^32; another ring's do not count. */
static void ring_retiring(void)
{
	static const struct { uint32_t seqno; const char *ring; } reqs[] = {
		{ 0xfffffffeu, "render" }, { 0xffffffffu, "render" }, { 1, "render" },
		{ 2, "render" }, { 0xfffffffeu, "bsd" },
	};
	struct gd_capture c;
	struct gd_rec_ring *rg;
	size_t i;

	gd_capture_init(&c);
	rg = gd_capture_add_ring(&c);
	gt_assert(rg);
	snprintf(rg->name, sizeof(rg->name), "render");
	rg->completed_seqno = 0xffffffffu;	/* 1 and 2 are after it */
	rg->outstanding = 4;
	for (i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		struct gd_rec_request *q = gd_capture_add_request(&c);

		gt_assert(q);
		q->seqno = reqs[i].seqno;
		snprintf(q->ring, sizeof(q->ring), "%s", reqs[i].ring);
	}
	gt_assert_eq(gd_ring_retiring(&c, &c.rings[0]), 2);
	c.rings[0].completed_seqno = 2;
	gt_assert_eq(gd_ring_retiring(&c, &c.rings[0]), 4);
	c.rings[0].completed_seqno = 0xfffffffdu;
	gt_assert_eq(gd_ring_retiring(&c, &c.rings[0]), 0);
	gd_capture_release(&c);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);
	gemtest_subtest("capture-round-trip")
		round_trip_small();
	gemtest_subtest("capture-70000-objects")
		round_trip_many();
	gemtest_subtest("capture-short-records")
		record_sizes();
	gemtest_subtest("capture-streamed-contents")
		streamed();
	gemtest_subtest("ascii85-and-zlib")
		ascii85();
	gemtest_subtest("ascii85-error-state-in-the-library")
		ascii85_error_state();
	gemtest_subtest("engine-named-error-state")
		engine_named_error_state();
	gemtest_subtest("batch-input")
		batch_input();
	gemtest_subtest("ring-retiring")
		ring_retiring();
	return gemtest_exit();
}
