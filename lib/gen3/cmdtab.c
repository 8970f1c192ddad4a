/* The gen3 command table, its lookup and its length rules (cmdtab.h). */
#include <stdbool.h>

#include "cmdtab.h"

/* The length and address columns of cmds.def, as initialisers. */
#define L_ONE		.rule = GEN3_RULE_ONE, .min = 1, .max = 1, .per = 1
#define L_FIELD(m, b, lo, hi) \
	.rule = GEN3_RULE_FIELD, .mask = (m), .bias = (b), .min = (lo), \
	.max = (hi), .per = 1
#define L_ITEMS(m, b, lo, hi, n) \
	.rule = GEN3_RULE_FIELD, .mask = (m), .bias = (b), .min = (lo), \
	.max = (hi), .per = (n)
#define L_FLAGS(m, b, r) \
	.rule = GEN3_RULE_FLAGS, .flags_rule = (r), .mask = (m), .bias = (b), \
	.min = (b), .max = (m) + (b), .per = 1
#define L_PRIMITIVE	.rule = GEN3_RULE_PRIMITIVE, .min = 1, .per = 1, \
	.max = PRIM3D_INLINE_LEN_MASK + 2
#define A_NONE		.addr = { 0, 0 }, .addr_mask = 0
#define A_1(i, m)	.addr = { (i), 0 }, .addr_mask = (m)
#define A_2(i, j, m)	.addr = { (i), (j) }, .addr_mask = (m)
#define A_1S(i, m)	.addr = { (i), 0 }, .addr_mask = (m), .addr_short = true

const struct gen3_cmd gen3_cmds[GEN3_NCMDS] = {
#define GEN3_MI(name, op, len, addr) \
	[GEN3_##name] = { #name, GEN3_##name, GEN3_CLIENT_MI, (op), 0, len, addr },
#define GEN3_2D(name, op, len, addr) \
	[GEN3_##name] = { #name, GEN3_##name, GEN3_CLIENT_2D, (op), 0, len, addr },
#define GEN3_3D(name, op, len, addr) \
	[GEN3_##name] = { #name, GEN3_##name, GEN3_CLIENT_3D, (op), 0, len, addr },
#define GEN3_3D_1C(name, sub, len, addr) \
	[GEN3_##name] = { #name, GEN3_##name, GEN3_CLIENT_3D, 0x1c, (sub), len, addr },
#define GEN3_3D_1D(name, sub, len, addr) \
	[GEN3_##name] = { #name, GEN3_##name, GEN3_CLIENT_3D, 0x1d, (sub), len, addr },
#include "cmds.def"
#undef GEN3_MI
#undef GEN3_2D
#undef GEN3_3D
#undef GEN3_3D_1C
#undef GEN3_3D_1D
};

/*
 * Opcode (and sub-opcode) to table index + 1, built by the compiler from
 * the same lines; 0 is "no such command".  Each class has its own range
 * of keys.  A line repeating an opcode overrides an initialiser, which
 * -Woverride-init reports and the unit test catches.
 */
#define KEY_MI		0		/* 64 opcodes */
#define KEY_2D		64		/* 128 opcodes */
#define KEY_3D		192		/* 32 opcodes */
#define KEY_3D_1C	224		/* 32 sub-opcodes */
#define KEY_3D_1D	256		/* 256 sub-opcodes */
#define NKEYS		512

static const uint16_t cmd_index[NKEYS] = {
#define GEN3_MI(name, op, len, addr)	[KEY_MI + (op)] = GEN3_##name + 1,
#define GEN3_2D(name, op, len, addr)	[KEY_2D + (op)] = GEN3_##name + 1,
#define GEN3_3D(name, op, len, addr)	[KEY_3D + (op)] = GEN3_##name + 1,
#define GEN3_3D_1C(name, sub, len, addr) [KEY_3D_1C + (sub)] = GEN3_##name + 1,
#define GEN3_3D_1D(name, sub, len, addr) [KEY_3D_1D + (sub)] = GEN3_##name + 1,
#include "cmds.def"
#undef GEN3_MI
#undef GEN3_2D
#undef GEN3_3D
#undef GEN3_3D_1C
#undef GEN3_3D_1D
};

static unsigned int cmd_key(uint32_t hdr)
{
	switch (GEN3_CLIENT(hdr)) {
	case GEN3_CLIENT_MI:
		return KEY_MI + MI_OPCODE(hdr);
	case GEN3_CLIENT_2D:
		return KEY_2D + BLT_OPCODE(hdr);
	case GEN3_CLIENT_3D:
		switch (GFX_OPCODE(hdr)) {
		case 0x1c:
			return KEY_3D_1C + GFX_SUB_1C(hdr);
		case 0x1d:
			return KEY_3D_1D + GFX_SUB_1D(hdr);
		}
		return KEY_3D + GFX_OPCODE(hdr);
	}
	return NKEYS;
}

const struct gen3_cmd *gen3_cmd_lookup(uint32_t hdr)
{
	unsigned int key = cmd_key(hdr);

	if (key >= NKEYS || !cmd_index[key])
		return NULL;
	return &gen3_cmds[cmd_index[key] - 1];
}

int gen3_fetch_dwords(void *ctx, uint32_t idx, uint32_t *dw)
{
	const struct gen3_dwords *d = ctx;

	if (idx >= d->n)
		return GEN3_LEN_SHORT;
	*dw = d->dw[idx];
	return 0;
}

/* Dwords announced by the flag bits from first up, per_bit[] each. */
static uint32_t flag_dwords(uint32_t hdr, unsigned int first,
			    const uint8_t *per_bit, unsigned int nbits)
{
	uint32_t n = 1;
	unsigned int b;

	for (b = 0; b < nbits; b++)
		if (hdr & (1u << (first + b)))
			n += per_bit[b];
	return n;
}

static uint32_t flags_length(enum gen3_flags_rule rule, uint32_t hdr)
{
	static const uint8_t lis1[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const uint8_t lis2[9] = { 1, 2, 2, 2, 2, 5, 5, 5, 5 };
	static const uint8_t load_indirect[6] = { 2, 1, 2, 2, 2, 2 };

	switch (rule) {
	case GEN3_FLAGS_LIS1:
		return flag_dwords(hdr, 4, lis1, 9);
	case GEN3_FLAGS_LIS2:
		return flag_dwords(hdr, 6, lis2, 9);
	case GEN3_FLAGS_LOAD_INDIRECT:
		/* SIS, DIS, SSB, MSB, PSP, PSC */
		return flag_dwords(hdr, 8, load_indirect, 6);
	case GEN3_FLAGS_NONE:
		break;
	}
	return 0;
}

/* A random-access index list with no count runs to a 0xffff index. */
static enum gen3_len prim_scan_terminator(gen3_fetch_fn fetch, void *ctx,
					  uint32_t *len)
{
	uint32_t i, dw;
	int ret;

	for (i = 1; i < GEN3_PRIM_MAX_SCAN; i++) {
		ret = fetch(ctx, i, &dw);
		if (ret) {
			*len = i;
			return ret == GEN3_LEN_SHORT ? GEN3_LEN_SHORT : GEN3_LEN_FAULT;
		}
		if ((dw & 0xffff) == PRIM3D_INDEX_TERMINATOR ||
		    (dw >> 16) == PRIM3D_INDEX_TERMINATOR) {
			*len = i + 1;
			return GEN3_LEN_OK;
		}
	}
	*len = i;
	return GEN3_LEN_BAD;
}

static enum gen3_len primitive_length(uint32_t hdr, gen3_fetch_fn fetch,
				      void *ctx, uint32_t *len)
{
	uint32_t count = hdr & PRIM3D_INDEX_COUNT_MASK;

	if (!(hdr & PRIM3D_INDIRECT))
		*len = (hdr & PRIM3D_INLINE_LEN_MASK) + 2;	/* inline vertices */
	else if (!(hdr & PRIM3D_INDIRECT_ELTS))
		*len = 2;		/* sequential: the start index */
	else if (count)
		*len = (count + 1) / 2 + 1;	/* 16-bit indices, two a dword */
	else
		return prim_scan_terminator(fetch, ctx, len);
	return GEN3_LEN_OK;
}

enum gen3_len gen3_cmd_length(const struct gen3_cmd *c, uint32_t hdr,
			      gen3_fetch_fn fetch, void *ctx, uint32_t *len)
{
	bool ok;

	switch (c->rule) {
	case GEN3_RULE_ONE:
		*len = 1;
		return GEN3_LEN_OK;
	case GEN3_RULE_PRIMITIVE:
		return primitive_length(hdr, fetch, ctx, len);
	}
	*len = (hdr & c->mask) + c->bias;
	if (c->rule == GEN3_RULE_FLAGS)
		ok = *len == flags_length(c->flags_rule, hdr);
	else
		ok = *len >= c->min && *len <= c->max && (*len - 1) % c->per == 0;
	return ok ? GEN3_LEN_OK : GEN3_LEN_BAD;
}

size_t gen3_cmd_addresses(const struct gen3_cmd *c, const uint32_t *dw,
			  uint32_t len, uint32_t *addr, uint32_t *index,
			  size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < 2 && c->addr[i] && n < max; i++) {
		uint32_t at = c->addr[i] - (c->addr_short && len == c->min);

		if (at >= len)
			continue;
		addr[n] = dw[at] & c->addr_mask;
		index[n++] = at;
	}
	return n;
}
