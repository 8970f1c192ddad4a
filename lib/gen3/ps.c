/*
 * Pixel shader decoding and validation.  What counts as malformed is what
 * the hardware documents as reserved or out of range: unknown opcodes,
 * register files an operand cannot name, register numbers past a file's
 * end, reserved channel selects, more than one constant register in one
 * instruction, reading an input or sampler before its declaration, and
 * more instructions of a kind than the unit holds.  Fields the hardware
 * ignores stay ignored: Mesa reads oC as "oC[8]", and the number of the
 * single oC/oD register is never looked at.
 */
#include <errno.h>
#include <stddef.h>

#include "ps.h"

static const char *const op_names[] = {
	[A0_NOP] = "NOP", [A0_ADD] = "ADD", [A0_MOV] = "MOV", [A0_MUL] = "MUL",
	[A0_MAD] = "MAD", [A0_DP2ADD] = "DP2ADD", [A0_DP3] = "DP3",
	[A0_DP4] = "DP4", [A0_FRC] = "FRC", [A0_RCP] = "RCP", [A0_RSQ] = "RSQ",
	[A0_EXP] = "EXP", [A0_LOG] = "LOG", [A0_CMP] = "CMP", [A0_MIN] = "MIN",
	[A0_MAX] = "MAX", [A0_FLR] = "FLR", [A0_MOD] = "MOD", [A0_TRC] = "TRC",
	[A0_SGE] = "SGE", [A0_SLT] = "SLT", [T0_TEXLD] = "TEXLD",
	[T0_TEXLDP] = "TEXLDP", [T0_TEXLDB] = "TEXLDB",
	[T0_TEXKILL] = "TEXKILL", [D0_DCL] = "DCL",
};

const char *gen3_ps_opcode_name(unsigned int op)
{
	return op < sizeof(op_names) / sizeof(op_names[0]) ? op_names[op] : NULL;
}

int gen3_ps_alu_nsrc(unsigned int op)
{
	switch (op) {
	case A0_NOP:
		return 0;
	case A0_MOV: case A0_FRC: case A0_RCP: case A0_RSQ: case A0_EXP:
	case A0_LOG: case A0_FLR: case A0_MOD: case A0_TRC:
		return 1;
	case A0_ADD: case A0_MUL: case A0_DP3: case A0_DP4: case A0_MIN:
	case A0_MAX: case A0_SGE: case A0_SLT:
		return 2;
	case A0_MAD: case A0_DP2ADD: case A0_CMP:
		return 3;
	}
	return -1;
}

/* Highest register number of a file as an operand, -1 if it cannot be
 * one.  oC and oD have one register whatever the number says. */
static int src_file_limit(unsigned int type)
{
	switch (type) {
	case REG_TYPE_R:
		return I915_MAX_TEMPORARY - 1;
	case REG_TYPE_T:
		return I915_MAX_T_REG - 1;
	case REG_TYPE_CONST:
		return I915_MAX_CONSTANT - 1;
	case REG_TYPE_OC:
	case REG_TYPE_OD:
		return 31;
	case REG_TYPE_U:
		return I915_MAX_UTEMP;
	}
	return -1;
}

static int dst_file_limit(unsigned int type)
{
	switch (type) {
	case REG_TYPE_R:
		return I915_MAX_TEMPORARY - 1;
	case REG_TYPE_OC:
	case REG_TYPE_OD:
		return 15;
	case REG_TYPE_U:
		return I915_MAX_UTEMP;
	}
	return -1;
}

struct decode_ctx {
	struct gen3_ps_program *prog;
	struct gen3_ps_error *err;
	int idx;
};

static int fail(struct decode_ctx *c, const char *why)
{
	c->err->insn = c->idx;
	c->err->why = why;
	return -EINVAL;
}

/* A source operand: file and number, then four 4-bit channel selects. */
static int decode_src(struct decode_ctx *c, struct gen3_ps_src *s,
		      uint32_t type, uint32_t nr, const uint32_t sel[4])
{
	int limit = src_file_limit(type);
	int ch;

	s->type = (uint8_t)type;
	s->nr = (uint8_t)nr;
	s->neg = 0;
	if (limit < 0)
		return fail(c, "source register file");
	if ((int)nr > limit)
		return fail(c, "source register number");
	if (type == REG_TYPE_T && !(c->prog->t_decl & (1u << nr)))
		return fail(c, "input read before its declaration");
	for (ch = 0; ch < 4; ch++) {
		uint32_t v = sel[ch] & 0xf;

		if ((v & 7) > SRC_ONE)
			return fail(c, "reserved channel select");
		s->sel[ch] = (uint8_t)(v & 7);
		if (v & SRC_CHANNEL_NEGATE)
			s->neg |= (uint8_t)(1u << ch);
	}
	return 0;
}

static int decode_dcl(struct decode_ctx *c, struct gen3_ps_insn *in, uint32_t d0)
{
	struct gen3_ps_program *p = c->prog;
	uint32_t type = (d0 >> D0_TYPE_SHIFT) & SRC_TYPE_MASK;
	uint32_t nr = (d0 >> D0_NR_SHIFT) & DEST_NR_MASK;
	uint32_t mask = (d0 >> D0_CHANNEL_SHIFT) & 0xf;

	in->dst_type = (uint8_t)type;
	in->dst_nr = (uint8_t)nr;
	in->mask = (uint8_t)mask;
	if (++p->n_decl > I915_MAX_DECL_INSN)
		return fail(c, "too many declarations");
	if (type == REG_TYPE_T) {
		if (nr >= I915_MAX_T_REG)
			return fail(c, "input register number");
		if (!mask)
			return fail(c, "input declared with no channels");
		p->t_decl |= (uint16_t)(1u << nr);
		p->t_mask[nr] |= (uint8_t)mask;
		return 0;
	}
	if (type == REG_TYPE_S) {
		in->sample_type = (uint8_t)((d0 >> D0_SAMPLE_TYPE_SHIFT) &
					    D0_SAMPLE_TYPE_MASK);
		if (in->sample_type > D0_SAMPLE_TYPE_VOLUME)
			return fail(c, "reserved sampler type");
		p->s_decl |= (uint16_t)(1u << nr);
		p->s_type[nr] = in->sample_type;
		return 0;
	}
	return fail(c, "declaration of a register that is not an input or sampler");
}

static int decode_tex(struct decode_ctx *c, struct gen3_ps_insn *in,
		      const uint32_t *w)
{
	struct gen3_ps_program *p = c->prog;
	static const uint32_t identity[4] = { SRC_X, SRC_Y, SRC_Z, SRC_W };
	uint32_t atype = (w[1] >> T1_ADDRESS_REG_TYPE_SHIFT) & SRC_TYPE_MASK;
	uint32_t anr = (w[1] >> T1_ADDRESS_REG_NR_SHIFT) & T1_ADDRESS_REG_NR_MASK;
	int ret;

	if (++p->n_tex > I915_MAX_TEX_INSN)
		return fail(c, "too many texture instructions");
	in->sampler = (uint8_t)(w[0] & T0_SAMPLER_NR_MASK);
	in->mask = 0xf;
	if (atype == REG_TYPE_CONST)
		return fail(c, "texture address from a constant");
	ret = decode_src(c, &in->src[0], atype, anr, identity);
	if (ret)
		return ret;
	if (in->op == T0_TEXKILL) {
		p->kills = true;
		return 0;
	}
	in->dst_type = (uint8_t)((w[0] >> T0_DEST_TYPE_SHIFT) & SRC_TYPE_MASK);
	in->dst_nr = (uint8_t)((w[0] >> T0_DEST_NR_SHIFT) & DEST_NR_MASK);
	if (dst_file_limit(in->dst_type) < 0)
		return fail(c, "destination register file");
	if (in->dst_nr > dst_file_limit(in->dst_type))
		return fail(c, "destination register number");
	if (!(p->s_decl & (1u << in->sampler)))
		return fail(c, "sampler used before its declaration");
	if (in->dst_type == REG_TYPE_OD)
		p->writes_depth = true;
	return 0;
}

static int decode_alu(struct decode_ctx *c, struct gen3_ps_insn *in,
		      const uint32_t *w)
{
	struct gen3_ps_program *p = c->prog;
	uint32_t sel[3][4] = {
		{ w[1] >> A1_SRC0_CHANNEL_X_SHIFT, w[1] >> A1_SRC0_CHANNEL_Y_SHIFT,
		  w[1] >> A1_SRC0_CHANNEL_Z_SHIFT, w[1] >> A1_SRC0_CHANNEL_W_SHIFT },
		{ w[1] >> A1_SRC1_CHANNEL_X_SHIFT, w[1] >> A1_SRC1_CHANNEL_Y_SHIFT,
		  w[2] >> A2_SRC1_CHANNEL_Z_SHIFT, w[2] >> A2_SRC1_CHANNEL_W_SHIFT },
		{ w[2] >> A2_SRC2_CHANNEL_X_SHIFT, w[2] >> A2_SRC2_CHANNEL_Y_SHIFT,
		  w[2] >> A2_SRC2_CHANNEL_Z_SHIFT, w[2] >> A2_SRC2_CHANNEL_W_SHIFT },
	};
	uint32_t type[3] = {
		(w[0] >> A0_SRC0_TYPE_SHIFT) & SRC_TYPE_MASK,
		(w[1] >> A1_SRC1_TYPE_SHIFT) & SRC_TYPE_MASK,
		(w[2] >> A2_SRC2_TYPE_SHIFT) & SRC_TYPE_MASK,
	};
	uint32_t nr[3] = {
		(w[0] >> A0_SRC0_NR_SHIFT) & SRC_NR_MASK,
		(w[1] >> A1_SRC1_NR_SHIFT) & SRC_NR_MASK,
		(w[2] >> A2_SRC2_NR_SHIFT) & SRC_NR_MASK,
	};
	int i, ret, cnr = -1;

	in->nsrc = (uint8_t)gen3_ps_alu_nsrc(in->op);
	if (in->op == A0_NOP)
		return 0;
	if (++p->n_alu > I915_MAX_ALU_INSN)
		return fail(c, "too many arithmetic instructions");
	in->sat = w[0] & A0_DEST_SATURATE;
	in->dst_type = (uint8_t)((w[0] >> A0_DEST_TYPE_SHIFT) & SRC_TYPE_MASK);
	in->dst_nr = (uint8_t)((w[0] >> A0_DEST_NR_SHIFT) & DEST_NR_MASK);
	in->mask = (uint8_t)((w[0] >> A0_DEST_CHANNEL_SHIFT) & 0xf);
	if (dst_file_limit(in->dst_type) < 0)
		return fail(c, "destination register file");
	if (in->dst_nr > dst_file_limit(in->dst_type))
		return fail(c, "destination register number");
	if (in->dst_type == REG_TYPE_OD && (in->mask & 8))
		p->writes_depth = true;
	for (i = 0; i < in->nsrc; i++) {
		ret = decode_src(c, &in->src[i], type[i], nr[i], sel[i]);
		if (ret)
			return ret;
		if (type[i] != REG_TYPE_CONST)
			continue;
		if (cnr >= 0 && cnr != (int)nr[i])
			return fail(c, "two constant registers in one instruction");
		cnr = (int)nr[i];
	}
	return 0;
}

int gen3_ps_decode(const uint32_t *dw, unsigned int ninsn,
		   struct gen3_ps_program *prog, struct gen3_ps_error *err)
{
	struct decode_ctx c = { prog, err, 0 };
	unsigned int i;
	int ret;

	*prog = (struct gen3_ps_program){ 0 };
	err->insn = -1;
	err->why = NULL;
	if (ninsn > PS_MAX_INSN)
		return fail(&c, "program longer than the unit holds");
	for (i = 0; i < ninsn; i++) {
		const uint32_t *w = dw + 3 * i;
		struct gen3_ps_insn *in = &prog->insn[i];

		c.idx = (int)i;
		*in = (struct gen3_ps_insn){ .op = (uint8_t)PS_OPCODE(w[0]) };
		switch (in->op) {
		case D0_DCL:
			ret = decode_dcl(&c, in, w[0]);
			break;
		case T0_TEXLD:
		case T0_TEXLDP:
		case T0_TEXLDB:
		case T0_TEXKILL:
			ret = decode_tex(&c, in, w);
			break;
		default:
			if (gen3_ps_alu_nsrc(in->op) < 0)
				return fail(&c, "unknown opcode");
			ret = decode_alu(&c, in, w);
			break;
		}
		if (ret)
			return ret;
	}
	prog->ninsn = ninsn;
	return 0;
}
