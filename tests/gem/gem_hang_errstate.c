/*
 * gem_hang_errstate: the i915_error_state parser of libgemdebugfs
 * (debugfs/errstate.c) on the eras' layouts, gemd's extra lines, "no error
 * state collected", and malformed input: -EINVAL naming the line, never a
 * crash (every truncation and thousands of mutations of a capture).
 */
#include <stdlib.h>

#include "gemdebugfs.h"
#include "gemtest.h"
#include "strbuf.h"

/* shared/reference/sample-error-state-gen3.txt: Linux 3.4 on a 945G. */
static const char sample_34[] =
	"Time: 1325376000 s 0 us\n"
	"PCI ID: 0x2772\n"
	"EIR: 0x00000000\n"
	"PGTBL_ER: 0x00000000\n"
	"  fence[0] = 00800231\n"
	"  fence[1] = 00000000\n"
	"  fence[2] = 00000000\n"
	"  fence[3] = 00000000\n"
	"  fence[4] = 00000000\n"
	"  fence[5] = 00000000\n"
	"  fence[6] = 00000000\n"
	"  fence[7] = 00000000\n"
	"  fence[8] = 00000000\n"
	"  fence[9] = 00000000\n"
	"  fence[10] = 00000000\n"
	"  fence[11] = 00000000\n"
	"  fence[12] = 00000000\n"
	"  fence[13] = 00000000\n"
	"  fence[14] = 00000000\n"
	"  fence[15] = 00000000\n"
	"render command stream:\n"
	"  HEAD: 0x00000010\n"
	"  TAIL: 0x00000028\n"
	"  ACTHD: 0x00a45004\n"
	"  IPEIR: 0x00000000\n"
	"  IPEHR: 0x54300004\n"
	"  INSTDONE: 0x7bffffc1\n"
	"  INSTPM: 0x00000000\n"
	"  seqno: 0x00000011\n"
	"  ring->head: 0x00000000\n"
	"  ring->tail: 0x00000028\n"
	"Active [2]:\n"
	"  00100000   409600 0002 0002 00000012 render uncached\n"
	"  00a45000     4096 0008 0000 00000012 render uncached\n"
	"Pinned [2]:\n"
	"  00020000   131072 0040 0040 00000000 P uncached\n"
	"  00800000  4194304 0040 0040 00000000 P X uncached (fence: 0)\n"
	"render ring --- gtt_offset = 0x00a45000\n"
	"00000000 :  00000000\n"
	"00000004 :  54300004\n"
	"00000008 :  03f01000\n"
	"0000000c :  00000000\n"
	"00000010 :  00640064\n"
	"00000014 :  00100000\n"
	"00000018 :  ffff0000\n"
	"0000001c :  02000000\n"
	"00000020 :  05000000\n"
	"00000024 :  00000000\n"
	"render ring --- 1 requests\n"
	"  seqno 0x00000012, emitted 4294937296, tail 0x00000028\n"
	"render ring --- ringbuffer = 0x00020000\n"
	"00000000 :  02000001\n"
	"00000004 :  00000000\n"
	"00000008 :  18800080\n"
	"0000000c :  00a45001\n"
	"00000010 :  02000000\n"
	"00000014 :  00000000\n"
	"00000018 :  10800001\n"
	"0000001c :  00000080\n"
	"00000020 :  00000012\n"
	"00000024 :  01000000\n"
	"00000028 :  00000000\n"
	"0000002c :  00000000\n";

static const char gemd_lines[] =
	"gemd hang kind: hangcheck\n"
	"gemd hang number: 7\n"
	"gemd guilty seqno: 0x00000012\n"
	"gemd guilty pid: 4242\n"
	"gemd guilty comm: glxgears\n"
	"gemd guilty file: 3\n"
	"gemd submit to detect: 1523000000 ns\n";

/* ≈3.2: no HEAD/TAIL, "Render command stream:", fences after it, a
 * describe-era buffer list with name and a Blitter block to skip. */
static const char sample_32[] =
	"Time: 1300000000 s 5 us\n"
	"PCI ID: 0x2772\n"
	"EIR: 0x00000010\n"
	"PGTBL_ER: 0x00100000\n"
	"Render command stream:\n"
	"  ACTHD: 0x00a45004\n"
	"  IPEIR: 0x00000000\n"
	"  IPEHR: 0x54300004\n"
	"  INSTDONE: 0x7bffffc1\n"
	"  INSTPM: 0x00000000\n"
	"  seqno: 0x00000011\n"
	"Blitter command stream:\n"
	"  ACTHD: 0xdeadbeef\n"
	"  fence[0] = 00800231\n"
	"  fence[1] = 00000000\n"
	"Active [1]:\n"
	"  00100000   409600 0002 0002 00000012 Y dirty purgeable render uncached (name: 5) (fence: 3)\n"
	"Pinned [0]:\n"
	"render ring --- gtt_offset = 0x00a45000\n"
	"00000000 :  00000000\n"
	"00000004 :  54300004\n"
	"render ring --- ringbuffer = 0x00020000\n"
	"00000000 :  02000001\n"
	"Overlay, status: 0x00000000, interrupt: 0x00000000\n";

/* 2.6.34: indented registers, Buffers, bare "--- gtt_offset". */
static const char sample_2634[] =
	"Time: 1270000000 s 1 us\n"
	"PCI ID: 0x2772\n"
	"EIR: 0x00000001\n"
	"  PGTBL_ER: 0x00000000\n"
	"  INSTPM: 0x00000000\n"
	"  IPEIR: 0x00000000\n"
	"  IPEHR: 0x23456789\n"
	"  INSTDONE: 0x7bffffc0\n"
	"  ACTHD: 0x00a45008\n"
	"seqno: 0x00000004\n"
	"Buffers [1]:\n"
	"  00a45000     4096 00000008 00000000 00000005 p\n"
	"--- gtt_offset = 0x00a45000\n"
	"00000000 :  00000000\n"
	"00000004 :  00000000\n"
	"00000008 :  23456789\n"
	"--- ringbuffer = 0x00020000\n"
	"00000000 :  18800080\n";

static int parse(const char *text, size_t len, struct gdfs_error_state *e,
		 struct strbuf *err)
{
	strbuf_reset(err);
	return gdfs_parse_error_state(text, len, e, err);
}

static void test_34(void)
{
	struct strbuf err = STRBUF_INIT;
	struct gdfs_error_state e;

	gt_assert_f(parse(sample_34, strlen(sample_34), &e, &err) == 0, "%s", err.buf);
	gt_assert(e.present);
	gt_assert(!strcmp(e.time, "Time: 1325376000 s 0 us"));
	gt_assert_eq(e.time_sec, 1325376000);
	gt_assert_eq(e.pci_id, 0x2772);
	gt_assert_eq(e.nfences, 16);
	gt_assert_eq(e.fences[0], 0x00800231);
	gt_assert(e.has_ring_regs);
	gt_assert_eq(e.head, 0x10);
	gt_assert_eq(e.tail, 0x28);
	gt_assert_eq(e.acthd, 0x00a45004);
	gt_assert_eq(e.ipehr, 0x54300004);
	gt_assert_eq(e.instdone, 0x7bffffc1);
	gt_assert_eq(e.seqno, 0x11);
	gt_assert_eq(e.ring_tail, 0x28);
	gt_assert_eq(e.nactive, 2);
	gt_assert_eq(e.active[0].gtt_offset, 0x00100000);
	gt_assert_eq(e.active[0].size, 409600);
	gt_assert_eq(e.active[0].read, 2);
	gt_assert_eq(e.active[0].write, 2);
	gt_assert_eq(e.active[0].last_rendering_seqno, 0x12);
	gt_assert(!strcmp(e.active[0].ring, "render"));
	gt_assert(!strcmp(e.active[0].cache, "uncached"));
	gt_assert_eq(e.active[1].read, 8);
	gt_assert_eq(e.npinned, 2);
	gt_assert_eq(e.pinned[0].pin, 'p');	/* kernel pin, describe_obj's letter */
	gt_assert_eq(e.pinned[0].ring[0], '\0');
	gt_assert_eq(e.pinned[1].tiling, 'X');
	gt_assert_eq(e.pinned[1].fence, 0);
	gt_assert_eq(e.nbuffers, 2);
	gt_assert(!strcmp(e.buffers[0].name, "batch"));
	gt_assert(!strcmp(e.buffers[0].ring, "render ring"));
	gt_assert_eq(e.buffers[0].gtt_offset, 0x00a45000);
	gt_assert_eq(e.buffers[0].ndwords, 10);
	gt_assert_eq(e.buffers[0].dwords[1], 0x54300004);
	gt_assert_eq(e.buffers[0].dwords[8], 0x05000000);
	gt_assert(!strcmp(e.buffers[1].name, "ring"));
	gt_assert_eq(e.buffers[1].gtt_offset, 0x00020000);
	gt_assert_eq(e.buffers[1].ndwords, 12);
	gt_assert_eq(e.buffers[1].dwords[3], 0x00a45001);
	gt_assert_eq(e.nrequests, 1);
	gt_assert_eq(e.requests[0].seqno, 0x12);
	gt_assert_eq_u64(e.requests[0].jiffies, 4294937296ull);
	gt_assert_eq(e.requests[0].tail, 0x28);
	gt_assert(!e.has_gemd);
	gt_assert_eq(e.guilty_pid, 0);
	gt_assert(!e.has_faddr);	/* 3.4 printed FADDR from gen6 only */
	gdfs_error_state_release(&e);
	strbuf_release(&err);
}

/* FADDR, as 3.10+ print it for every gen and gemd does: where it faulted. */
static void test_faddr(void)
{
	static const char text[] =
		"Time: 1 s 0 us\n"
		"PCI ID: 0x2772\n"
		"EIR: 0x00000010\n"
		"PGTBL_ER: 0x00100000\n"
		"render command stream:\n"
		"  ACTHD: 0x00a45004\n"
		"  INSTPM: 0x00000000\n"
		"  FADDR: 0x00163ff0\n"
		"  seqno: 0x00000011\n";
	struct strbuf err = STRBUF_INIT;
	struct gdfs_error_state e;

	gt_assert_f(parse(text, strlen(text), &e, &err) == 0, "%s", err.buf);
	gt_assert(e.has_faddr);
	gt_assert_eq(e.faddr, 0x00163ff0);
	gt_assert_eq(e.acthd, 0x00a45004);
	gt_assert_eq(e.seqno, 0x11);
	gdfs_error_state_release(&e);
	strbuf_release(&err);
}

static void test_gemd_lines(void)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct gdfs_error_state e;

	strbuf_addstr(&text, sample_34);
	strbuf_addstr(&text, gemd_lines);
	gt_assert_f(parse(text.buf, text.len, &e, &err) == 0, "%s", err.buf);
	gt_assert(e.has_gemd);
	gt_assert(!strcmp(e.hang_kind, "hangcheck"));
	gt_assert_eq(e.hang_seq, 7);
	gt_assert_eq(e.guilty_seqno, 0x12);
	gt_assert_eq(e.guilty_pid, 4242);
	gt_assert(!strcmp(e.guilty_comm, "glxgears"));
	gt_assert_eq(e.guilty_file, 3);
	gt_assert_eq_u64(e.detect_ns, 1523000000ull);
	/* The extra lines do not disturb the ring dump before them. */
	gt_assert_eq(e.buffers[1].ndwords, 12);
	gdfs_error_state_release(&e);
	strbuf_release(&text);
	strbuf_release(&err);
}

static void test_older(void)
{
	struct strbuf err = STRBUF_INIT;
	struct gdfs_error_state e;

	gt_assert_f(parse(sample_32, strlen(sample_32), &e, &err) == 0, "%s", err.buf);
	gt_assert_eq(e.eir, 0x10);
	gt_assert_eq(e.pgtbl_er, 0x00100000);
	gt_assert_eq(e.acthd, 0x00a45004);	/* the Blitter's is skipped */
	gt_assert_eq(e.head, 0);
	gt_assert_eq(e.nfences, 2);
	gt_assert_eq(e.nactive, 1);
	gt_assert_eq(e.active[0].tiling, 'Y');
	gt_assert(e.active[0].dirty && e.active[0].purgeable);
	gt_assert_eq(e.active[0].name, 5);
	gt_assert_eq(e.active[0].fence, 3);
	gt_assert_eq(e.npinned, 0);
	gt_assert_eq(e.nbuffers, 2);
	gt_assert_eq(e.buffers[1].ndwords, 1);
	gdfs_error_state_release(&e);

	gt_assert_f(parse(sample_2634, strlen(sample_2634), &e, &err) == 0, "%s", err.buf);
	gt_assert_eq(e.eir, 1);
	gt_assert_eq(e.ipehr, 0x23456789);
	gt_assert_eq(e.acthd, 0x00a45008);
	gt_assert_eq(e.seqno, 4);
	gt_assert_eq(e.nactive, 1);
	gt_assert_eq(e.active[0].pin, 'P');	/* " p": a user pin */
	gt_assert_eq(e.nbuffers, 2);
	gt_assert(!strcmp(e.buffers[0].name, "batch"));
	gt_assert(!strcmp(e.buffers[0].ring, ""));
	gt_assert_eq(e.buffers[0].dwords[2], 0x23456789);
	gt_assert(!strcmp(e.buffers[1].name, "ring"));
	gdfs_error_state_release(&e);
	strbuf_release(&err);
}

static void test_empty_state(void)
{
	struct strbuf err = STRBUF_INIT;
	struct gdfs_error_state e;

	gt_assert_eq(parse("no error state collected\n", 25, &e, &err), 0);
	gt_assert(!e.present);
	gt_assert_eq(e.nbuffers, 0);
	gdfs_error_state_release(&e);
	gt_assert_eq(parse("No error state collected.\n", 26, &e, &err), 0);
	gt_assert(!e.present);
	gdfs_error_state_release(&e);
	strbuf_release(&err);
}

/* Malformed input: -EINVAL and a message naming the line. */
static void expect_bad(const char *text, const char *msg)
{
	struct strbuf err = STRBUF_INIT;
	struct gdfs_error_state e;

	gt_assert_eq(parse(text, strlen(text), &e, &err), -EINVAL);
	gt_assert_f(strstr(err.buf, msg), "error '%s', expected '%s'", err.buf, msg);
	gt_assert_eq(e.nbuffers, 0);	/* released */
	strbuf_release(&err);
}

static void test_malformed(void)
{
	expect_bad("", "empty file");
	expect_bad("hello world\n", "i915_error_state line 1: expected 'Time");
	expect_bad("Time: 1 s 2 us\n00000000 :  00000001\n",
		   "line 2: dword outside a buffer section");
	expect_bad("Time: 1 s 2 us\nrender command stream:\n  ACTHD: 0xzz\n",
		   "line 3: bad value for 'ACTHD:'");
	expect_bad("Time: 1 s 2 us\nActive [3]:\n"
		   "  00100000     4096 0002 0002 00000012 render uncached\n"
		   "Pinned [0]:\n", "line 4: buffer list ended after 1 of 3 entries");
	expect_bad("Time: 1 s 2 us\nActive [1]:\n"
		   "  00100000     4096 0002 0002 00000012 render uncached\n"
		   "  00200000     4096 0002 0002 00000012 render uncached\n",
		   "line 4: more buffers");
	expect_bad("Time: 1 s 2 us\nActive [1]:\n  00100000     4096 0002 zz\n",
		   "line 3: bad");
	expect_bad("Time: 1 s 2 us\n  fence[99] = 1\n", "line 2: bad fence line");
	expect_bad("Time: 1 s 2 us\ngemd guilty pid: many\n", "line 2: bad guilty pid");
	expect_bad("no error state collected\nTime: 1 s 2 us\n", "line 2: text after");
	expect_bad("Time: 1 s 2 us\nrender ring --- 1 requests\n  seqno 12\n",
		   "line 3: bad request line");
}

/* Any prefix and any corruption: 0 or -EINVAL with a message, no crash. */
static void test_robust(void)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct gdfs_error_state e;
	uint32_t seed = 12345;
	size_t i;
	int ret;

	strbuf_addstr(&text, sample_34);
	strbuf_addstr(&text, gemd_lines);
	for (i = 0; i <= text.len; i++) {
		ret = parse(text.buf, i, &e, &err);
		gt_assert_f(ret == 0 || (ret == -EINVAL && err.len),
			    "prefix %zu: %d '%s'", i, ret, err.buf);
		gdfs_error_state_release(&e);
	}
	for (i = 0; i < 20000; i++) {
		char *copy = malloc(text.len);
		size_t k, n = 1 + gt_rand(&seed) % 4;

		gt_assert(copy);
		memcpy(copy, text.buf, text.len);
		for (k = 0; k < n; k++)
			copy[gt_rand(&seed) % text.len] = (char)gt_rand(&seed);
		ret = parse(copy, text.len, &e, &err);
		gt_assert_f(ret == 0 || (ret == -EINVAL && err.len),
			    "mutation %zu: %d '%s'", i, ret, err.buf);
		gdfs_error_state_release(&e);
		free(copy);
	}
	gdfs_error_state_release(&e);	/* twice is harmless */
	strbuf_release(&text);
	strbuf_release(&err);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);
	gemtest_subtest("layout-3.4")
		test_34();
	gemtest_subtest("faddr")
		test_faddr();
	gemtest_subtest("gemd-lines")
		test_gemd_lines();
	gemtest_subtest("layouts-3.2-2.6.34")
		test_older();
	gemtest_subtest("no-error-state")
		test_empty_state();
	gemtest_subtest("malformed")
		test_malformed();
	gemtest_subtest("robust")
		test_robust();
	return gemtest_exit();
}
