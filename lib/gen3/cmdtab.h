/*
 * The gen3 command table (cmds.def) and the length rules it names.
 *
 *	const struct gen3_cmd *c = gen3_cmd_lookup(hdr);
 *	uint32_t len;
 *
 *	if (!c)
 *		... not a gen3 command ...
 *	switch (gen3_cmd_length(c, hdr, fetch, ctx, &len)) { ... }
 *
 * The GPU model refuses a command whose length is not GEN3_LEN_OK (an
 * instruction error); gemdump reports it and walks on by the length
 * the header gives.  Both take the length from here, so they agree.
 */
#ifndef GEMKIT_GEN3_CMDTAB_H
#define GEMKIT_GEN3_CMDTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd.h"

/* GEN3_MI_NOOP, GEN3_XY_COLOR_BLT, GEN3_3DPRIMITIVE, ... */
enum gen3_cmd_id {
#define GEN3_MI(name, op, len, addr)		GEN3_##name,
#define GEN3_2D(name, op, len, addr)		GEN3_##name,
#define GEN3_3D(name, op, len, addr)		GEN3_##name,
#define GEN3_3D_1C(name, sub, len, addr)	GEN3_##name,
#define GEN3_3D_1D(name, sub, len, addr)	GEN3_##name,
#include "cmds.def"
#undef GEN3_MI
#undef GEN3_2D
#undef GEN3_3D
#undef GEN3_3D_1C
#undef GEN3_3D_1D
	GEN3_NCMDS
};

enum gen3_len_rule {
	GEN3_RULE_ONE,		/* one dword */
	GEN3_RULE_FIELD,	/* (hdr & mask) + bias, in [min, max], 1 + per * k */
	GEN3_RULE_FLAGS,	/* (hdr & mask) + bias, as the flag bits announce */
	GEN3_RULE_PRIMITIVE,	/* 3DPRIMITIVE: inline, sequential or indexed */
};

/* How the flag bits of a GEN3_RULE_FLAGS header announce its dwords. */
enum gen3_flags_rule {
	GEN3_FLAGS_NONE,
	GEN3_FLAGS_LIS1,		/* one dword per S0..S8 bit (12:4) */
	GEN3_FLAGS_LIS2,		/* bits 14:6: 1, 2, 2, 2, 2, 5, 5, 5, 5 */
	GEN3_FLAGS_LOAD_INDIRECT,	/* bits 13:8: 2, 1, 2, 2, 2, 2 */
};

struct gen3_cmd {
	const char *name;		/* "XY_COLOR_BLT" */
	enum gen3_cmd_id id;
	uint8_t client;			/* GEN3_CLIENT_MI, _2D, _3D */
	uint8_t opcode;			/* MI 28:23, 2D 28:22, 3D 28:24 */
	uint8_t sub;			/* 3D 0x1c: 23:19, 0x1d: 23:16; else 0 */
	uint8_t rule;			/* enum gen3_len_rule */
	uint8_t flags_rule;		/* enum gen3_flags_rule */
	uint8_t bias, per;
	uint16_t mask;
	uint32_t min, max;
	uint8_t addr[2];		/* dwords holding GTT addresses; 0: none */
	uint32_t addr_mask;		/* the address bits of those dwords */
	bool addr_short;		/* in the min-length form, one dword earlier */
};

extern const struct gen3_cmd gen3_cmds[GEN3_NCMDS];

/* The command hdr starts, or NULL when gen3 has no such command. */
const struct gen3_cmd *gen3_cmd_lookup(uint32_t hdr);

enum gen3_len {
	GEN3_LEN_OK,
	GEN3_LEN_BAD,		/* the header's length is wrong for the command */
	GEN3_LEN_SHORT,		/* the rule needs dwords not available (yet) */
	GEN3_LEN_FAULT,		/* fetching a dword the rule needs failed */
};

/*
 * Only 3DPRIMITIVE's indexed form without a count reads past its header:
 * its indices run to a 0xffff terminator.  fetch gives dword idx (>= 1)
 * of the command and returns 0, GEN3_LEN_SHORT or GEN3_LEN_FAULT.
 */
typedef int (*gen3_fetch_fn)(void *ctx, uint32_t idx, uint32_t *dw);

/* A fetch from memory: the n dwords of a command at dw. */
struct gen3_dwords {
	const uint32_t *dw;
	size_t n;
};
int gen3_fetch_dwords(void *ctx, uint32_t idx, uint32_t *dw);

/* A terminated index list longer than this is garbage, not a draw. */
#define GEN3_PRIM_MAX_SCAN	(1u << 18)

/*
 * The length in dwords (header included) of command c whose header is
 * hdr.  *len is set for every result: for GEN3_LEN_BAD the length the
 * header announces, for GEN3_LEN_SHORT the dwords seen.
 */
enum gen3_len gen3_cmd_length(const struct gen3_cmd *c, uint32_t hdr,
			      gen3_fetch_fn fetch, void *ctx, uint32_t *len);

/*
 * The GTT addresses command c carries in its len dwords dw[]: up to max
 * (address, dword index) pairs, address bits only; returns how many.
 */
size_t gen3_cmd_addresses(const struct gen3_cmd *c, const uint32_t *dw,
			  uint32_t len, uint32_t *addr, uint32_t *index,
			  size_t max);

#endif
