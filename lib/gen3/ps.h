/*
 * The 945G pixel shader program, decoded and validated.  gemd runs the
 * decoded form (driver/gpu/3d-shader.c) and refuses a program this says is
 * malformed, the way the chip stops on it; gemdump uses the same decoder
 * to point at the offending instruction of a hung batch.
 */
#ifndef GEMKIT_GEN3_PS_H
#define GEMKIT_GEN3_PS_H

#include <stdbool.h>
#include <stdint.h>

#include "3d.h"

struct gen3_ps_src {
	uint8_t type;		/* REG_TYPE_* */
	uint8_t nr;
	uint8_t sel[4];		/* SRC_X..SRC_ONE per destination channel */
	uint8_t neg;		/* bit c: negate channel c */
};

struct gen3_ps_insn {
	uint8_t op;		/* A0_*, T0_*, D0_DCL */
	uint8_t dst_type;	/* DCL: the declared register's type */
	uint8_t dst_nr;
	uint8_t mask;		/* write mask (DCL: declared channels), bit c */
	bool sat;
	uint8_t nsrc;		/* arithmetic sources used */
	uint8_t sampler;	/* texture: sampler number */
	uint8_t sample_type;	/* DCL of a sampler: D0_SAMPLE_TYPE_* */
	struct gen3_ps_src src[3];	/* texture: src[0] is the address */
};

struct gen3_ps_program {
	unsigned int ninsn;
	unsigned int n_alu, n_tex, n_decl;
	uint16_t t_decl;	/* T registers declared (bit n) */
	uint16_t s_decl;	/* samplers declared */
	uint8_t t_mask[I915_MAX_T_REG];		/* their declared channels */
	uint8_t s_type[16];
	bool writes_depth;	/* some instruction writes oD */
	bool kills;		/* TEXKILL present */
	struct gen3_ps_insn insn[PS_MAX_INSN];
};

/* Why a program was refused: the instruction index and a short reason. */
struct gen3_ps_error {
	int insn;
	const char *why;
};

/*
 * Decode ninsn instructions (3 dwords each) from dw.  Returns 0, or
 * -EINVAL with *err saying which instruction is malformed and why.
 */
int gen3_ps_decode(const uint32_t *dw, unsigned int ninsn,
		   struct gen3_ps_program *prog, struct gen3_ps_error *err);

/* Sources an arithmetic opcode reads (0 for NOP, -1 if not arithmetic). */
int gen3_ps_alu_nsrc(unsigned int op);

/* The instruction's mnemonic, or NULL for an unknown opcode. */
const char *gen3_ps_opcode_name(unsigned int op);

#endif
