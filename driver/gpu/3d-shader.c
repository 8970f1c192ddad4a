/*
 * The pixel shader: inputs interpolated for every lane of the batch, then
 * the decoded program run one instruction at a time over all lanes, in
 * 32-bit float.  Lanes outside the primitive run too (their results feed
 * the texture derivatives of their quad) but never write memory.
 *
 * Arithmetic follows the 915's definitions: RCP, RSQ, EXP and LOG take the
 * x channel of their (swizzled) source and replicate the result, DP2ADD
 * adds the x channel of its third source, CMP selects on src0 >= 0, and a
 * saturated result is clamped to [0, 1] before the write mask applies.
 */
#include <math.h>
#include <string.h>

#include "3d-priv.h"

/* Interpolate the declared inputs and depth for every lane. */
static void interpolate(struct r3d *r, unsigned int nlanes)
{
	const struct r3d_setup *su = r->setup;
	const struct r3d_batch *b = &r->batch;
	struct r3d_regs *g = &r->regs;
	float px[R3D_LANES], py[R3D_LANES], rw[R3D_LANES];
	unsigned int l, a, c;
	uint16_t mask = su->attr_mask;

	const float zc = su->z.c, zdx = su->z.dx, zdy = su->z.dy;
	const float wc = su->w.c, wdx = su->w.dx, wdy = su->w.dy;

	for (l = 0; l < nlanes; l++) {
		px[l] = (float)(b->qx[l >> 2] + (int32_t)(l & 1));
		py[l] = (float)(b->qy[l >> 2] + (int32_t)((l >> 1) & 1));
	}
	for (l = 0; l < nlanes; l++)
		g->z[l] = zc + zdx * px[l] + zdy * py[l];
	if (su->perspective) {
		for (l = 0; l < nlanes; l++)
			rw[l] = 1.0f / (wc + wdx * px[l] + wdy * py[l]);
	}
	for (a = 0; a < R3D_NATTR; a++) {
		if (!(mask & (1u << a)))
			continue;
		for (c = 0; c < 4; c++) {
			const float pc = su->a[a][c].c, pdx = su->a[a][c].dx;
			const float pdy = su->a[a][c].dy;
			float *dst = g->t[a][c];

			for (l = 0; l < nlanes; l++)
				dst[l] = pc + pdx * px[l] + pdy * py[l];
			if (su->perspective && !(su->flat[a] & (1u << c)))
				for (l = 0; l < nlanes; l++)
					dst[l] *= rw[l];
		}
	}
}

static float *reg_chan(struct r3d *r, unsigned int type, unsigned int nr,
		       unsigned int c)
{
	struct r3d_regs *g = &r->regs;

	switch (type) {
	case REG_TYPE_R:
		return g->r[nr][c];
	case REG_TYPE_T:
		return g->t[nr][c];
	case REG_TYPE_OC:
		return g->oc[c];
	case REG_TYPE_OD:
		return g->od[c];
	case REG_TYPE_U:
		return g->u[nr][c];
	}
	return NULL;
}

/* Materialise a source operand: swizzle, constants and negation applied. */
static void fetch_src(struct r3d *r, const struct gen3_ps_src *s,
		      float (*out)[R3D_LANES], unsigned int nlanes)
{
	unsigned int c, l, sel;

	for (c = 0; c < 4; c++) {
		sel = s->sel[c];
		if (sel == SRC_ZERO || sel == SRC_ONE) {
			float v = sel == SRC_ONE ? 1.0f : 0.0f;

			for (l = 0; l < nlanes; l++)
				out[c][l] = v;
		} else if (s->type == REG_TYPE_CONST) {
			float v = r->st.constants[s->nr][sel];

			for (l = 0; l < nlanes; l++)
				out[c][l] = v;
		} else {
			memcpy(out[c], reg_chan(r, s->type, s->nr, sel),
			       nlanes * sizeof(float));
		}
		if (s->neg & (1u << c))
			for (l = 0; l < nlanes; l++)
				out[c][l] = -out[c][l];
	}
}

static void write_dst(struct r3d *r, const struct gen3_ps_insn *in,
		      float (*res)[R3D_LANES], unsigned int nlanes)
{
	unsigned int c, l;

	for (c = 0; c < 4; c++) {
		float *dst;

		if (!(in->mask & (1u << c)))
			continue;
		dst = reg_chan(r, in->dst_type, in->dst_nr, c);
		if (in->sat) {
			for (l = 0; l < nlanes; l++)
				dst[l] = r3d_clamp01(res[c][l]);
		} else {
			memcpy(dst, res[c], nlanes * sizeof(float));
		}
	}
}

static float frc(float v)
{
	return v - floorf(v);
}

/* Per-channel operations. */
static void alu_channels(unsigned int op, float (*s)[4][R3D_LANES],
			 float (*res)[R3D_LANES], unsigned int nlanes)
{
	unsigned int c, l;

	for (c = 0; c < 4; c++) {
		const float *a = s[0][c], *b = s[1][c], *k = s[2][c];
		float *o = res[c];

		switch (op) {
		case A0_ADD:
			for (l = 0; l < nlanes; l++)
				o[l] = a[l] + b[l];
			break;
		case A0_MOV:
			memcpy(o, a, nlanes * sizeof(float));
			break;
		case A0_MUL:
			for (l = 0; l < nlanes; l++)
				o[l] = a[l] * b[l];
			break;
		case A0_MAD:
			for (l = 0; l < nlanes; l++)
				o[l] = a[l] * b[l] + k[l];
			break;
		case A0_FRC:
			for (l = 0; l < nlanes; l++)
				o[l] = frc(a[l]);
			break;
		case A0_CMP:
			for (l = 0; l < nlanes; l++)
				o[l] = a[l] >= 0.0f ? b[l] : k[l];
			break;
		case A0_MIN:
			for (l = 0; l < nlanes; l++)
				o[l] = a[l] < b[l] ? a[l] : b[l];
			break;
		case A0_MAX:
			for (l = 0; l < nlanes; l++)
				o[l] = a[l] >= b[l] ? a[l] : b[l];
			break;
		case A0_FLR:
			for (l = 0; l < nlanes; l++)
				o[l] = floorf(a[l]);
			break;
		case A0_MOD:
			for (l = 0; l < nlanes; l++)
				o[l] = fmodf(a[l], 1.0f);
			break;
		case A0_TRC:
			for (l = 0; l < nlanes; l++)
				o[l] = truncf(a[l]);
			break;
		case A0_SGE:
			for (l = 0; l < nlanes; l++)
				o[l] = a[l] >= b[l] ? 1.0f : 0.0f;
			break;
		case A0_SLT:
			for (l = 0; l < nlanes; l++)
				o[l] = a[l] < b[l] ? 1.0f : 0.0f;
			break;
		}
	}
}

/* Operations whose one result is replicated to every channel. */
static void alu_scalar(unsigned int op, float (*s)[4][R3D_LANES],
		       float (*res)[R3D_LANES], unsigned int nlanes)
{
	unsigned int c, l;
	float v;

	for (l = 0; l < nlanes; l++) {
		switch (op) {
		case A0_DP2ADD:
			v = s[0][0][l] * s[1][0][l] + s[0][1][l] * s[1][1][l] +
			    s[2][0][l];
			break;
		case A0_DP3:
			v = s[0][0][l] * s[1][0][l] + s[0][1][l] * s[1][1][l] +
			    s[0][2][l] * s[1][2][l];
			break;
		case A0_DP4:
			v = s[0][0][l] * s[1][0][l] + s[0][1][l] * s[1][1][l] +
			    s[0][2][l] * s[1][2][l] + s[0][3][l] * s[1][3][l];
			break;
		case A0_RCP:
			v = 1.0f / s[0][0][l];
			break;
		case A0_RSQ:
			v = 1.0f / sqrtf(fabsf(s[0][0][l]));
			break;
		case A0_EXP:
			v = exp2f(s[0][0][l]);
			break;
		default:	/* A0_LOG */
			v = log2f(fabsf(s[0][0][l]));
			break;
		}
		for (c = 0; c < 4; c++)
			res[c][l] = v;
	}
}

static void run_alu(struct r3d *r, const struct gen3_ps_insn *in,
		    unsigned int nlanes)
{
	float (*src)[4][R3D_LANES] = r->regs.src;
	float (*res)[R3D_LANES] = r->regs.res;
	unsigned int i;

	for (i = 0; i < in->nsrc; i++)
		fetch_src(r, &in->src[i], src[i], nlanes);
	switch (in->op) {
	case A0_DP2ADD: case A0_DP3: case A0_DP4: case A0_RCP: case A0_RSQ:
	case A0_EXP: case A0_LOG:
		alu_scalar(in->op, src, res, nlanes);
		break;
	default:
		alu_channels(in->op, src, res, nlanes);
		break;
	}
	write_dst(r, in, res, nlanes);
}

/* TEXKILL: a lane whose address has a negative channel (x, y, z, and w
 * when RASTERIZATION_RULES asks for 4D) is discarded. */
static void run_texkill(struct r3d *r, const float (*addr)[R3D_LANES],
			unsigned int nlanes)
{
	unsigned int chans = r->st.raster_rules & TEXKILL_4D ? 4 : 3, c, l;

	for (l = 0; l < nlanes; l++)
		for (c = 0; c < chans; c++)
			if (addr[c][l] < 0.0f)
				r->regs.live[l] = 0;
}

static void run_tex(struct r3d *r, const struct gen3_ps_insn *in,
		    unsigned int nlanes)
{
	float (*addr)[R3D_LANES] = r->regs.src[0];
	float (*res)[R3D_LANES] = r->regs.res;
	unsigned int c, l;

	fetch_src(r, &in->src[0], addr, nlanes);
	if (in->op == T0_TEXKILL) {
		run_texkill(r, (const float (*)[R3D_LANES])addr, nlanes);
		return;
	}
	if (in->op == T0_TEXLDP) {
		for (l = 0; l < nlanes; l++) {
			float q = 1.0f / addr[3][l];

			for (c = 0; c < 3; c++)
				addr[c][l] *= q;
		}
	}
	r3d_sample(r, in->sampler, in->op, (const float (*)[R3D_LANES])addr,
		   res, nlanes);
	write_dst(r, in, res, nlanes);
}

void r3d_shade_batch(struct r3d *r)
{
	const struct gen3_ps_program *p = &r->st.prog;
	unsigned int nlanes = 4 * r->batch.nquads, i, q;

	for (q = 0; q < r->batch.nquads; q++)
		for (i = 0; i < 4; i++)
			r->regs.live[4 * q + i] = (r->batch.cover[q] >> i) & 1;
	interpolate(r, nlanes);
	memset(r->regs.oc, 0, sizeof(r->regs.oc));
	for (i = 0; i < p->ninsn; i++) {
		const struct gen3_ps_insn *in = &p->insn[i];

		switch (in->op) {
		case D0_DCL:
		case A0_NOP:
			break;
		case T0_TEXLD:
		case T0_TEXLDP:
		case T0_TEXLDB:
		case T0_TEXKILL:
			run_tex(r, in, nlanes);
			break;
		default:
			run_alu(r, in, nlanes);
			break;
		}
	}
}
