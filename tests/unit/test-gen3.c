/*
 * Unit tests of lib/gen3, the hardware facts: registers, bits and command
 * headers pinned to their literal values (the kernel's i915_reg.h and
 * IGT's intel_reg.h say what they are; a test against the same constant
 * could not catch a wrong one), and the command table against its
 * consumers: for every entry, the GPU model's length decoding and
 * gemdump's agree with the table's.
 */
#include <stdlib.h>
#include <strings.h>

#include "batch.h"
#include "batchbuffer.h"
#include "cmdtab.h"
#include "gemtest.h"
#include "gpu_priv.h"
#include "regs.h"

struct pin {
	const char *name;
	uint32_t got, want;
};

#define PIN(name, want)	{ #name, (uint32_t)(name), (want) }

static void check_pins(const struct pin *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		gt_assert_f(p[i].got == p[i].want, "%s is 0x%08x, not 0x%08x",
			    p[i].name, p[i].got, p[i].want);
}

static const struct pin register_pins[] = {
	PIN(GEN3_DEVID, 0x2772),
	PIN(PRB0_TAIL, 0x2030),
	PIN(PRB0_HEAD, 0x2034),
	PIN(PRB0_START, 0x2038),
	PIN(PRB0_CTL, 0x203c),
	PIN(HWS_PGA, 0x2080),
	PIN(IPEIR, 0x2088),
	PIN(IPEHR, 0x208c),
	PIN(INSTDONE, 0x2090),
	PIN(NOPID, 0x2094),
	PIN(HWSTAM, 0x2098),
	PIN(IER, 0x20a0),
	PIN(IIR, 0x20a4),
	PIN(IMR, 0x20a8),
	PIN(ISR, 0x20ac),
	PIN(EIR, 0x20b0),
	PIN(EMR, 0x20b4),
	PIN(ESR, 0x20b8),
	PIN(INSTPM, 0x20c0),
	PIN(ACTHD, 0x20c8),
	PIN(DMA_FADD_I8XX, 0x2078),
	PIN(PGTBL_CTL, 0x2020),
	PIN(PGTBL_ER, 0x2024),
	PIN(FENCE_REG_830_0, 0x2000),
	PIN(FENCE_REG_945_8, 0x3000),
	PIN(I915_GEM_HWS_INDEX, 0x20),
};

static const struct pin bit_pins[] = {
	PIN(TAIL_ADDR, 0x001ffff8),
	PIN(HEAD_ADDR, 0x001ffffc),
	PIN(HEAD_WRAP_COUNT, 0xffe00000),
	PIN(HEAD_WRAP_ONE, 0x00200000),
	PIN(RING_NR_PAGES, 0x001ff000),
	PIN(RING_VALID, 1u << 0),
	PIN(RING_WAIT, 1u << 11),
	PIN(I915_USER_INTERRUPT, 1u << 1),
	/* It was bit 11 (plane A flip pending) until issue 13. */
	PIN(I915_RENDER_COMMAND_PARSER_ERROR_INTERRUPT, 1u << 15),
	PIN(I915_ERROR_PAGE_TABLE, 1u << 4),
	PIN(I915_ERROR_MEMORY_REFRESH, 1u << 1),
	PIN(I915_ERROR_INSTRUCTION, 1u << 0),
	/* It was bit 4 (display A's PTE) until issue 13. */
	PIN(PGTBL_ER_RENDER_PTE, 1u << 20),
	PIN(PGTBL_ERR_CS_INSTRUCTION_GTT_PTE, 1u << 20),
	PIN(INSTDONE_IDLE, 0x7fffffc0),
	PIN(IP_DONE, 1u << 26),
	PIN(I830_FENCE_START_MASK, 0x07f80000),
	PIN(I830_FENCE_TILING_Y_SHIFT, 12),
	PIN(I830_FENCE_PITCH_SHIFT, 4),
	PIN(I830_FENCE_REG_VALID, 1u << 0),
	PIN(I915_FENCE_START_MASK, 0x0ff00000),
	PIN(I915_FENCE_MAX_PITCH_VAL, 4),
};

/* Every header cmd.h defines, as the bits the hardware sees. */
static const struct pin header_pins[] = {
	PIN(MI_NOOP, 0x00000000),
	PIN(MI_USER_INTERRUPT, 0x01000000),
	PIN(MI_WAIT_FOR_EVENT, 0x01800000),
	PIN(MI_FLUSH, 0x02000000),
	PIN(MI_ARB_CHECK, 0x02800000),
	PIN(MI_REPORT_HEAD, 0x03800000),
	PIN(MI_ARB_ON_OFF, 0x04000000),
	PIN(MI_BATCH_BUFFER_END, 0x05000000),
	PIN(MI_STORE_DWORD_IMM, 0x10000002),
	PIN(MI_STORE_DWORD_INDEX, 0x10800001),
	PIN(MI_LOAD_REGISTER_IMM(1), 0x11000001),
	PIN(MI_LOAD_REGISTER_IMM(3), 0x11000005),
	PIN(MI_BATCH_BUFFER_START, 0x18800000),
	PIN(MI_STORE_DWORD_IMM_GTT, 0x10400002),
	PIN(MI_BATCH_BUFFER_START_GTT, 0x18800080),
	PIN(XY_SETUP_BLT_CMD, 0x40400006),
	PIN(XY_SETUP_CLIP_BLT_CMD, 0x40c00001),
	PIN(XY_SCANLINES_BLT_CMD, 0x49400001),
	PIN(COLOR_BLT_CMD, 0x50000003),
	PIN(SRC_COPY_BLT_CMD, 0x50c00004),
	PIN(XY_COLOR_BLT_CMD, 0x54000004),
	PIN(XY_SRC_COPY_BLT_CMD, 0x54c00006),
	PIN(GFX_INSTR(0x0d, 0), 0x6d000000),
	PIN(GFX_OP_1C(0x11), 0x7c880000),
	PIN(GFX_OP_1D(0x8e, 1), 0x7d8e0001),
	PIN(PRIM3D, 0x7f000000),
};

static const struct pin header_bit_pins[] = {
	PIN(MI_NOOP_WRITE_ID, 1u << 22),
	PIN(MI_WAIT_FOR_PLANE_A_FLIP, 1u << 2),
	PIN(MI_MEM_VIRTUAL, 1u << 22),
	PIN(MI_STORE_DWORD_INDEX_SHIFT, 2),
	PIN(MI_BATCH_GTT, 2u << 6),
	PIN(MI_BATCH_NON_SECURE, 1),
	PIN(XY_BLT_WRITE_ALPHA, 1u << 21),
	PIN(XY_BLT_WRITE_RGB, 1u << 20),
	PIN(XY_BLT_SRC_TILED, 1u << 15),
	PIN(XY_BLT_DST_TILED, 1u << 11),
	PIN(BR13_CLIP_ENABLE, 1u << 30),
	PIN(BR13_565, 1u << 24),
	PIN(BR13_32BPP, 3u << 24),
	PIN(BR13_ROP(ROP_PATCOPY), 0xf0u << 16),
	PIN(BR13_ROP(ROP_SRCCOPY), 0xccu << 16),
	PIN(PRIM3D_INDIRECT, 1u << 23),
	PIN(PRIM3D_INDIRECT_ELTS, 1u << 17),
};

/* What the headers gemkit emits are, by the table. */
static const struct {
	uint32_t hdr;
	enum gen3_cmd_id id;
	uint32_t len;
} emitted[] = {
	{ MI_NOOP, GEN3_MI_NOOP, 1 },
	{ MI_NOOP | MI_NOOP_WRITE_ID | 0x1234, GEN3_MI_NOOP, 1 },
	{ MI_USER_INTERRUPT, GEN3_MI_USER_INTERRUPT, 1 },
	{ MI_WAIT_FOR_EVENT | MI_WAIT_FOR_PLANE_A_FLIP, GEN3_MI_WAIT_FOR_EVENT, 1 },
	{ MI_FLUSH, GEN3_MI_FLUSH, 1 },
	{ MI_ARB_CHECK, GEN3_MI_ARB_CHECK, 1 },
	{ MI_REPORT_HEAD, GEN3_MI_REPORT_HEAD, 1 },
	{ MI_ARB_ON_OFF, GEN3_MI_ARB_ON_OFF, 1 },
	{ MI_BATCH_BUFFER_END, GEN3_MI_BATCH_BUFFER_END, 1 },
	{ MI_STORE_DWORD_IMM_GTT, GEN3_MI_STORE_DATA_IMM, 4 },
	{ MI_STORE_DWORD_IMM_GTT - 1, GEN3_MI_STORE_DATA_IMM, 3 },	/* 945G form */
	{ MI_STORE_DWORD_INDEX, GEN3_MI_STORE_DATA_INDEX, 3 },
	{ MI_LOAD_REGISTER_IMM(1), GEN3_MI_LOAD_REGISTER_IMM, 3 },
	{ MI_LOAD_REGISTER_IMM(4), GEN3_MI_LOAD_REGISTER_IMM, 9 },
	{ MI_BATCH_BUFFER_START_GTT, GEN3_MI_BATCH_BUFFER_START, 2 },
	{ XY_SETUP_BLT_CMD, GEN3_XY_SETUP_BLT, 8 },
	{ XY_SETUP_CLIP_BLT_CMD, GEN3_XY_SETUP_CLIP_BLT, 3 },
	{ XY_SCANLINES_BLT_CMD, GEN3_XY_SCANLINES_BLT, 3 },
	{ COLOR_BLT_CMD, GEN3_COLOR_BLT, 5 },
	{ SRC_COPY_BLT_CMD, GEN3_SRC_COPY_BLT, 6 },
	{ XY_COLOR_BLT_CMD | XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, GEN3_XY_COLOR_BLT, 6 },
	{ XY_SRC_COPY_BLT_CMD | XY_BLT_DST_TILED | XY_BLT_SRC_TILED,
	  GEN3_XY_SRC_COPY_BLT, 8 },
	{ GFX_INSTR(0x0d, 0), GEN3_3DSTATE_MODES_4, 1 },
	{ GFX_OP_1C(0x11), GEN3_3DSTATE_DEPTH_SUBRECTANGLE_DISABLE, 1 },
	{ GFX_OP_1D(0x8e, 1), GEN3_3DSTATE_BUFFER_INFO, 3 },
	{ PRIM3D | 3, GEN3_3DPRIMITIVE, 5 },
};

static uint32_t no_fetch_count;

static int no_fetch(void *ctx, uint32_t idx, uint32_t *dw)
{
	no_fetch_count++;
	return GEN3_LEN_FAULT;
}

/* The opcode (and sub-opcode) bits of c, from the encoding macros. */
static uint32_t base_header(const struct gen3_cmd *c)
{
	switch (c->client) {
	case GEN3_CLIENT_MI:
		return MI_INSTR(c->opcode, 0);
	case GEN3_CLIENT_2D:
		return BLT_INSTR(c->opcode, 0);
	}
	if (c->opcode == 0x1c)
		return GFX_OP_1C(c->sub);
	if (c->opcode == 0x1d)
		return GFX_OP_1D(c->sub, 0);
	return GFX_INSTR(c->opcode, 0);
}

static void check_table_lookup(void)
{
	unsigned int i, j;

	for (i = 0; i < GEN3_NCMDS; i++) {
		const struct gen3_cmd *c = &gen3_cmds[i];

		gt_assert_f(c->name && c->id == i, "entry %u", i);
		gt_assert_f(gen3_cmd_lookup(base_header(c)) == c,
			    "%s: header 0x%08x looks up another entry", c->name,
			    base_header(c));
		gt_assert_f(c->min >= 1 && c->min <= c->max && c->per >= 1,
			    "%s: lengths %u..%u", c->name, c->min, c->max);
		for (j = 0; j < i; j++)
			gt_assert_f(strcmp(c->name, gen3_cmds[j].name), "%s twice", c->name);
	}
}

/* --- the GPU model and gemdump against the table ------------------------ */

/*
 * dw[0..n) through the table, the GPU's decoding and gemdump's: the same
 * length, and each accepts it exactly when the table says GEN3_LEN_OK
 * (GEN3_LEN_SHORT: the GPU waits for the rest, gemdump reports it).
 * Returns the table's verdict; *len its length.
 */
static enum gen3_len agree(const uint32_t *dw, uint32_t n, uint32_t *len)
{
	const struct gen3_cmd *c = gen3_cmd_lookup(dw[0]);
	struct gen3_dwords d = { dw, n };
	struct gd_cmdinfo ci;
	enum cs_status gpu;
	enum gen3_len st;
	uint32_t gpu_len = 0;

	gt_assert_f(c, "0x%08x: no command", dw[0]);
	st = gen3_cmd_length(c, dw[0], gen3_fetch_dwords, &d, len);
	gpu = cs_decode_length(c, dw[0], gen3_fetch_dwords, &d, &gpu_len);
	gd_command_info(dw, n, &ci);

	gt_assert_f(ci.known && ci.cmd == c && !strcmp(ci.name, c->name),
		    "0x%08x: gemdump says %s", dw[0], ci.name);
	gt_assert_f(gpu_len == *len && ci.len == *len,
		    "%s 0x%08x: table %u, GPU %u, gemdump %u dwords", c->name,
		    dw[0], *len, gpu_len, ci.len);
	gt_assert_f((st == GEN3_LEN_OK) == (gpu == CS_OK) &&
		    (st == GEN3_LEN_OK) == !ci.bad_len,
		    "%s 0x%08x: table %d, GPU %d, gemdump bad_len %d", c->name,
		    dw[0], st, gpu, ci.bad_len);
	if (st == GEN3_LEN_SHORT)
		gt_assert_eq(gpu, CS_PARTIAL);
	if (st == GEN3_LEN_BAD)
		gt_assert_eq(gpu, CS_INVALID);
	return st;
}

static void expect_length(uint32_t hdr, enum gen3_len want, uint32_t want_len)
{
	uint32_t len = 0;
	enum gen3_len st = agree(&hdr, 1, &len);

	gt_assert_f(st == want && len == want_len,
		    "0x%08x: %d with %u dwords, expected %d with %u", hdr, st,
		    len, want, want_len);
}

/* A length-field header of c announcing len dwords in all. */
static uint32_t field_header(const struct gen3_cmd *c, uint32_t len)
{
	return base_header(c) | ((len - c->bias) & c->mask);
}

static bool encodable(const struct gen3_cmd *c, uint32_t len)
{
	return len >= c->bias && len - c->bias <= c->mask;
}

static void check_field(const struct gen3_cmd *c)
{
	uint32_t bad = 0;

	expect_length(field_header(c, c->min), GEN3_LEN_OK, c->min);
	expect_length(field_header(c, c->max), GEN3_LEN_OK, c->max);
	if (c->max < c->min + 2 * c->per)
		;
	else
		expect_length(field_header(c, c->min + c->per), GEN3_LEN_OK,
			      c->min + c->per);
	/* One invalid length, where the field can say one. */
	if (encodable(c, c->max + 1))
		bad = c->max + 1;
	else if (c->min > c->bias)
		bad = c->min - 1;
	else if (c->per > 1)
		bad = c->min + 1;
	if (bad)
		expect_length(field_header(c, bad), GEN3_LEN_BAD, bad);
}

/* The flag bits a header sets and the dwords they announce (counted by
 * hand from the bspec tables, not by the library). */
static const struct {
	enum gen3_flags_rule rule;
	uint32_t flags;
	uint32_t len;
} flag_cases[] = {
	{ GEN3_FLAGS_LIS1, 1u << 4, 2 },			/* S0 */
	{ GEN3_FLAGS_LIS1, 0x1ffu << 4, 10 },			/* S0..S8 */
	{ GEN3_FLAGS_LIS1, (1u << 6) | (1u << 8), 3 },		/* S2, S4 */
	{ GEN3_FLAGS_LIS2, 1u << 6, 2 },
	{ GEN3_FLAGS_LIS2, 0x3fu << 6, 15 },			/* bits 6..11 */
	{ GEN3_FLAGS_LOAD_INDIRECT, 0, 1 },
	{ GEN3_FLAGS_LOAD_INDIRECT, 1u << 9, 2 },		/* DIS */
	{ GEN3_FLAGS_LOAD_INDIRECT, 0x3fu << 8, 12 },		/* all six */
};

static void check_flags(const struct gen3_cmd *c)
{
	unsigned int i, n = 0;

	for (i = 0; i < sizeof(flag_cases) / sizeof(flag_cases[0]); i++) {
		uint32_t hdr, len = flag_cases[i].len;

		if (flag_cases[i].rule != c->flags_rule)
			continue;
		n++;
		hdr = field_header(c, len) | flag_cases[i].flags;
		expect_length(hdr, GEN3_LEN_OK, len);
		/* The same flags with one dword more or less are refused. */
		expect_length(field_header(c, len + 1) | flag_cases[i].flags,
			      GEN3_LEN_BAD, len + 1);
		if (len > c->bias)
			expect_length(field_header(c, len - 1) | flag_cases[i].flags,
				      GEN3_LEN_BAD, len - 1);
	}
	gt_assert_f(n >= 2, "%s: no flag cases for its rule", c->name);
}

static void check_primitive(const struct gen3_cmd *c)
{
	uint32_t dw[8] = { 0 }, len;

	expect_length(PRIM3D, GEN3_LEN_OK, 2);
	expect_length(PRIM3D | PRIM3D_INLINE_LEN_MASK, GEN3_LEN_OK,
		      PRIM3D_INLINE_LEN_MASK + 2);
	expect_length(PRIM3D | PRIM3D_INDIRECT | 7, GEN3_LEN_OK, 2);
	expect_length(PRIM3D | PRIM3D_INDIRECT | PRIM3D_INDIRECT_ELTS | 3,
		      GEN3_LEN_OK, 3);
	expect_length(PRIM3D | PRIM3D_INDIRECT | PRIM3D_INDIRECT_ELTS | 4,
		      GEN3_LEN_OK, 3);
	/* No count: the indices run to a 0xffff, in either half. */
	dw[0] = PRIM3D | PRIM3D_INDIRECT | PRIM3D_INDIRECT_ELTS;
	dw[1] = 0x00010000;
	dw[2] = 0xffff0002;
	gt_assert_eq(agree(dw, 8, &len), GEN3_LEN_OK);
	gt_assert_eq(len, 3);
	dw[2] = 0x0003ffff;
	gt_assert_eq(agree(dw, 8, &len), GEN3_LEN_OK);
	gt_assert_eq(len, 3);
	/* None in what there is: the GPU waits, gemdump reports. */
	dw[2] = 0x00030002;
	gt_assert_eq(agree(dw, 8, &len), GEN3_LEN_SHORT);
	gt_assert_eq(len, 8);
	gt_assert(c->id == GEN3_3DPRIMITIVE);
}

static void check_lengths(void)
{
	unsigned int i;

	for (i = 0; i < GEN3_NCMDS; i++) {
		const struct gen3_cmd *c = &gen3_cmds[i];

		switch (c->rule) {
		case GEN3_RULE_ONE:
			/* The low bits are flags, not a length. */
			expect_length(base_header(c), GEN3_LEN_OK, 1);
			expect_length(base_header(c) | 0x3f, GEN3_LEN_OK, 1);
			break;
		case GEN3_RULE_FIELD:
			check_field(c);
			break;
		case GEN3_RULE_FLAGS:
			check_flags(c);
			break;
		case GEN3_RULE_PRIMITIVE:
			check_primitive(c);
			break;
		default:
			gt_assert_f(0, "%s: rule %u", c->name, c->rule);
		}
	}
}

static void check_unknown(void)
{
	static const uint32_t none[] = {
		MI_INSTR(0x3f, 0), MI_INSTR(0x01, 0), BLT_INSTR(0x7f, 6),
		GFX_INSTR(0x1e, 0), GFX_OP_1C(0x00), GFX_OP_1D(0xff, 0),
		1u << 29, 4u << 29, 7u << 29,
	};
	struct gd_cmdinfo ci;
	uint32_t len;
	unsigned int i;

	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		gt_assert_f(!gen3_cmd_lookup(none[i]), "0x%08x", none[i]);
		gt_assert_eq(cs_decode_length(NULL, none[i], no_fetch, NULL, &len),
			     CS_INVALID);
		gd_command_info(&none[i], 1, &ci);
		gt_assert(!ci.known && !ci.cmd && ci.len == 1 && !ci.bad_len);
		gt_assert(!strcmp(ci.name, "UNKNOWN"));
	}
}

/* --- the batch builder against the table --------------------------------- */

/* Walk b by the table: every command known with a good length, and the
 * relocations exactly at the table's address dwords. */
static void check_batch(const struct gen3_batch *b)
{
	uint32_t i = 0, len, addr[2], idx[2];
	unsigned int r = 0;
	size_t k, na;

	while (i < b->len) {
		const struct gen3_cmd *c = gen3_cmd_lookup(b->dw[i]);

		gt_assert_f(c, "dword %u: 0x%08x", i, b->dw[i]);
		gt_assert_eq(gen3_cmd_length(c, b->dw[i], no_fetch, NULL, &len),
			     GEN3_LEN_OK);
		gt_assert(i + len <= b->len);
		na = gen3_cmd_addresses(c, &b->dw[i], len, addr, idx, 2);
		for (k = 0; k < na; k++, r++) {
			gt_assert_f(r < b->nreloc, "%s: address dword %u has no relocation",
				    c->name, idx[k]);
			gt_assert_eq(b->reloc[r].offset, 4ull * (i + idx[k]));
			gt_assert_eq(addr[k], b->reloc[r].delta & c->addr_mask);
		}
		i += len;
	}
	gt_assert_eq(r, b->nreloc);
}

static void check_builder(void)
{
	struct gen3_surf dst = { .handle = 1, .pitch = 256, .cpp = 4, .size = 65536 };
	struct gen3_surf src = { .handle = 2, .pitch = 512, .cpp = 2, .size = 65536,
				 .tiling = I915_TILING_X };
	struct gen3_batch *b = malloc(sizeof(*b));

	gt_assert(b);
	gen3_batch_reset(b);
	gen3_emit_store_dword(b, 3, 64, 0xc0ffee);
	gen3_emit_color_blt(b, &dst, &(struct gen3_rect){ 1, 2, 3, 4 }, 0xff00ff00);
	gen3_emit_copy_blt(b, &dst, 0, 0, &src, 8, 8, 16, 16);
	gen3_batch_pad_to(b, 40);
	gen3_emit_spin(b, 4);
	gen3_batch_end(b);
	gt_assert(!b->overflow);
	gt_assert_eq(b->len, 44);
	gt_assert_eq(b->nreloc, 5);
	gt_assert_eq(no_fetch_count, 0);
	check_batch(b);
	/* The spin's address is its own, with the non-secure bit. */
	gt_assert_eq(b->reloc[4].delta, 40 * 4 + MI_BATCH_NON_SECURE);
	gt_assert_eq(b->dw[43], MI_NOOP);
	free(b);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);

	gemtest_subtest("register-offsets")
		check_pins(register_pins, sizeof(register_pins) / sizeof(register_pins[0]));

	gemtest_subtest("register-bits")
		check_pins(bit_pins, sizeof(bit_pins) / sizeof(bit_pins[0]));

	gemtest_subtest("fence-registers") {
		gt_assert_eq(fence_reg_offset(0), 0x2000);
		gt_assert_eq(fence_reg_offset(7), 0x201c);
		gt_assert_eq(fence_reg_offset(8), 0x3000);
		gt_assert_eq(fence_reg_offset(15), 0x301c);
		/* 1 MiB on 915 is size value 0, 1 MiB on 830 is 1 (512 KiB units). */
		gt_assert_eq(I915_FENCE_SIZE_BITS(1u << 20), 0 << 8);
		gt_assert_eq(I915_FENCE_SIZE_BITS(64u << 20), 6 << 8);
		gt_assert_eq(I830_FENCE_SIZE_BITS(1u << 20), 1 << 8);
	}

	gemtest_subtest("command-headers") {
		check_pins(header_pins, sizeof(header_pins) / sizeof(header_pins[0]));
		check_pins(header_bit_pins,
			   sizeof(header_bit_pins) / sizeof(header_bit_pins[0]));
	}

	gemtest_subtest("headers-decode-as-named") {
		unsigned int i;
		uint32_t len;

		for (i = 0; i < sizeof(emitted) / sizeof(emitted[0]); i++) {
			const struct gen3_cmd *c = gen3_cmd_lookup(emitted[i].hdr);

			gt_assert_f(c && c->id == emitted[i].id, "0x%08x is %s",
				    emitted[i].hdr, c ? c->name : "nothing");
			gt_assert_eq(gen3_cmd_length(c, emitted[i].hdr, no_fetch,
						     NULL, &len), GEN3_LEN_OK);
			gt_assert_eq(len, emitted[i].len);
		}
	}

	gemtest_subtest("table-lookup")
		check_table_lookup();

	gemtest_subtest("gpu-and-gemdump-agree-with-the-table")
		check_lengths();

	gemtest_subtest("unknown-commands")
		check_unknown();

	gemtest_subtest("builder-relocations-at-address-dwords")
		check_builder();

	return gemtest_exit();
}
