/*
 * The 945G's 3D pipeline: the bit fields of its state commands, its vertex
 * and surface formats, and the pixel shader ISA.  Names follow the kernel's
 * and Mesa's i915_reg.h, so a dword read in a Mesa batch can be looked up
 * here by the name Mesa wrote it with.  Command names and length rules are
 * the command table's; this header says what the dwords mean.
 */
#ifndef GEMKIT_GEN3_3D_H
#define GEMKIT_GEN3_3D_H

/* Client 3, opcode bits 28:24; the 0x1d class has its sub-opcode in 23:16. */
#define CMD_3D				(0x3u << 29)
#define OPC_3D(hdr)			(((hdr) >> 24) & 0x1f)
#define OPC_3D_1D(hdr)			(((hdr) >> 16) & 0xff)

#define OP3D_AA				0x06	/* 3DSTATE_ANTI_ALIASING */
#define OP3D_RASTER_RULES		0x07
#define OP3D_BACKFACE_STENCIL_OPS	0x08
#define OP3D_BACKFACE_STENCIL_MASKS	0x09
#define OP3D_INDEPENDENT_ALPHA_BLEND	0x0b
#define OP3D_MODES_5			0x0c
#define OP3D_MODES_4			0x0d
#define OP3D_FOG_COLOR			0x15
#define OP3D_COORD_SET_BINDINGS		0x16
#define OP3D_1C				0x1c
#define OP3D_1D				0x1d
#define OP3D_PRIMITIVE			0x1f

/* 0x1c class: sub-opcode bits 23:19. */
#define OPC_3D_1C(hdr)			(((hdr) >> 19) & 0x1f)
#define OP1C_SCISSOR_ENABLE		0x10
#define OP1C_DEPTH_SUBRECT_DISABLE	0x11
#define   ENABLE_SCISSOR_RECT		((1u << 1) | 1u)
#define   DISABLE_SCISSOR_RECT		(1u << 1)

/* 0x1d class sub-opcodes. */
#define OP1D_MAP_STATE			0x00
#define OP1D_SAMPLER_STATE		0x01
#define OP1D_LOAD_STATE_IMMEDIATE_2	0x03
#define OP1D_LOAD_STATE_IMMEDIATE_1	0x04
#define OP1D_PIXEL_SHADER_PROGRAM	0x05
#define OP1D_PIXEL_SHADER_CONSTANTS	0x06
#define OP1D_LOAD_INDIRECT		0x07
#define OP1D_DRAW_RECT			0x80
#define OP1D_SCISSOR_RECT		0x81
#define OP1D_STIPPLE			0x83
#define OP1D_DST_BUF_VARS		0x85
#define OP1D_CHROMA_KEY			0x86
#define OP1D_CONST_BLEND_COLOR		0x88
#define OP1D_FOG_MODE			0x89
#define OP1D_BUF_INFO			0x8e
#define OP1D_MAP_PALETTE_LOAD_32	0x8f
#define OP1D_DEPTH_OFFSET_SCALE		0x97
#define OP1D_DFLT_Z			0x98
#define OP1D_DFLT_DIFFUSE		0x99
#define OP1D_DFLT_SPEC			0x9a
#define OP1D_CLEAR_PARAMETERS		0x9c
#define OP1D_FILTER_COEFFICIENTS_4X4	0x9d
#define OP1D_MONO_FILTER		0x9e

/* _3DPRIMITIVE */
#define PRIM_INDIRECT			(1u << 23)
#define PRIM_INDIRECT_ELTS		(1u << 17)
#define PRIM3D_SHIFT			18
#define PRIM3D_TYPE(hdr)		(((hdr) >> PRIM3D_SHIFT) & 0x1f)
#define PRIM3D_TRILIST			0x0
#define PRIM3D_TRISTRIP			0x1
#define PRIM3D_TRISTRIP_RVRSE		0x2
#define PRIM3D_TRIFAN			0x3
#define PRIM3D_POLY			0x4
#define PRIM3D_LINELIST			0x5
#define PRIM3D_LINESTRIP		0x6
#define PRIM3D_RECTLIST			0x7
#define PRIM3D_POINTLIST		0x8
#define PRIM3D_DIB			0x9
#define PRIM3D_CLEAR_RECT		0xa
#define PRIM3D_ZONE_INIT		0xd
#define PRIM_INLINE_LEN_MASK		0x3ffffu
#define PRIM_INDIRECT_COUNT_MASK	0xffffu
#define PRIM_INDEX_TERMINATOR		0xffffu

/* 3DSTATE_ANTI_ALIASING */
#define AA_LINE_ECAAR_WIDTH_ENABLE	(1u << 16)
#define AA_LINE_REGION_WIDTH_ENABLE	(1u << 8)

/* 3DSTATE_RASTERIZATION_RULES */
#define ENABLE_POINT_RASTER_RULE	(1u << 15)
#define OGL_POINT_RASTER_RULE		(1u << 13)
#define ENABLE_TEXKILL_3D_4D		(1u << 10)
#define TEXKILL_4D			(1u << 9)
#define ENABLE_LINE_STRIP_PROVOKE_VRTX	(1u << 8)
#define LINE_STRIP_PROVOKE_VRTX_SHIFT	6
#define ENABLE_TRI_FAN_PROVOKE_VRTX	(1u << 5)
#define TRI_FAN_PROVOKE_VRTX_SHIFT	3

/* 3DSTATE_BACKFACE_STENCIL_OPS */
#define BFO_ENABLE_STENCIL_REF		(1u << 23)
#define BFO_STENCIL_REF_SHIFT		15
#define BFO_ENABLE_STENCIL_FUNCS	(1u << 14)
#define BFO_STENCIL_TEST_SHIFT		11
#define BFO_STENCIL_FAIL_SHIFT		8
#define BFO_STENCIL_PASS_Z_FAIL_SHIFT	5
#define BFO_STENCIL_PASS_Z_PASS_SHIFT	2
#define BFO_ENABLE_STENCIL_TWO_SIDE	(1u << 1)
#define BFO_STENCIL_TWO_SIDE		(1u << 0)

/* 3DSTATE_BACKFACE_STENCIL_MASKS */
#define BFM_ENABLE_STENCIL_TEST_MASK	(1u << 17)
#define BFM_ENABLE_STENCIL_WRITE_MASK	(1u << 16)
#define BFM_STENCIL_TEST_MASK_SHIFT	8
#define BFM_STENCIL_WRITE_MASK_SHIFT	0

/* 3DSTATE_INDEPENDENT_ALPHA_BLEND */
#define IAB_MODIFY_ENABLE		(1u << 23)
#define IAB_ENABLE			(1u << 22)
#define IAB_MODIFY_FUNC			(1u << 21)
#define IAB_FUNC_SHIFT			16
#define IAB_MODIFY_SRC_FACTOR		(1u << 11)
#define IAB_SRC_FACTOR_SHIFT		6
#define IAB_MODIFY_DST_FACTOR		(1u << 5)
#define IAB_DST_FACTOR_SHIFT		0

/* 3DSTATE_MODES_4 */
#define ENABLE_LOGIC_OP_FUNC		(1u << 23)
#define LOGIC_OP_FUNC_SHIFT		18
#define ENABLE_STENCIL_TEST_MASK	(1u << 17)
#define STENCIL_TEST_MASK_SHIFT		8
#define ENABLE_STENCIL_WRITE_MASK	(1u << 16)
#define STENCIL_WRITE_MASK_SHIFT	0

/* 3DSTATE_COORD_SET_BINDINGS: texture unit i reads coordinate set bits
 * 3i+2:3i. */
#define CSB_TCB_SHIFT(unit)		((unit) * 3)

/* 3DSTATE_LOAD_INDIRECT: which blocks follow, two dwords each (DIS one). */
#define LI0_STATE_STATIC_INDIRECT	(0x01u << 8)
#define LI0_STATE_DYNAMIC_INDIRECT	(0x02u << 8)
#define LI0_STATE_SAMPLER		(0x04u << 8)
#define LI0_STATE_MAP			(0x08u << 8)
#define LI0_STATE_PROGRAM		(0x10u << 8)
#define LI0_STATE_CONSTANTS		(0x20u << 8)
#define LI_BUFFER_VALID			(1u << 0)
#define LI_BUFFER_ADDRESS(x)		((x) & ~0x3u)
#define LI_BUFFER_LENGTH(x)		((x) & 0xffu)	/* dwords - 1 */

/* 3DSTATE_LOAD_STATE_IMMEDIATE_1: S0..S7 words present per bits 11:4. */
#define I1_LOAD_S(n)			(1u << (4 + (n)))

#define S0_VB_OFFSET_MASK		0x0ffffffcu
#define S0_AUTO_CACHE_INV_DISABLE	(1u << 0)

#define S1_VERTEX_WIDTH_SHIFT		24
#define S1_VERTEX_PITCH_SHIFT		16
#define S1_VERTEX_FIELD_MASK		0x3fu

#define TEXCOORDFMT_2D			0x0
#define TEXCOORDFMT_3D			0x1
#define TEXCOORDFMT_4D			0x2
#define TEXCOORDFMT_1D			0x3
#define TEXCOORDFMT_2D_16		0x4
#define TEXCOORDFMT_4D_16		0x5
#define TEXCOORDFMT_NOT_PRESENT		0xf
#define S2_TEXCOORD_FMT(s2, unit)	(((s2) >> ((unit) * 4)) & 0xf)

#define S4_POINT_WIDTH_SHIFT		23
#define S4_POINT_WIDTH_MASK		0x1ffu
#define S4_LINE_WIDTH_SHIFT		19	/* half pixels */
#define S4_LINE_WIDTH_MASK		0xfu
#define S4_FLATSHADE_ALPHA		(1u << 18)
#define S4_FLATSHADE_FOG		(1u << 17)
#define S4_FLATSHADE_SPECULAR		(1u << 16)
#define S4_FLATSHADE_COLOR		(1u << 15)
#define S4_CULLMODE_SHIFT		13
#define S4_CULLMODE_BOTH		0
#define S4_CULLMODE_NONE		1
#define S4_CULLMODE_CW			2
#define S4_CULLMODE_CCW			3
#define S4_VFMT_POINT_WIDTH		(1u << 12)
#define S4_VFMT_SPEC_FOG		(1u << 11)
#define S4_VFMT_COLOR			(1u << 10)
#define S4_VFMT_DEPTH_OFFSET		(1u << 9)
#define S4_VFMT_XYZW_SHIFT		6
#define S4_VFMT_XYZW_MASK		0x7u
#define S4_VFMT_XYZ			1
#define S4_VFMT_XYZW			2
#define S4_VFMT_XY			3
#define S4_VFMT_XYW			4
#define S4_FORCE_DEFAULT_DIFFUSE	(1u << 5)
#define S4_FORCE_DEFAULT_SPECULAR	(1u << 4)
#define S4_LOCAL_DEPTH_OFFSET_ENABLE	(1u << 3)
#define S4_VFMT_FOG_PARAM		(1u << 2)
#define S4_SPRITE_POINT_ENABLE		(1u << 1)
#define S4_LINE_ANTIALIAS_ENABLE	(1u << 0)

#define S5_WRITEDISABLE_ALPHA		(1u << 31)
#define S5_WRITEDISABLE_RED		(1u << 30)
#define S5_WRITEDISABLE_GREEN		(1u << 29)
#define S5_WRITEDISABLE_BLUE		(1u << 28)
#define S5_FORCE_DEFAULT_POINT_SIZE	(1u << 27)
#define S5_LAST_PIXEL_ENABLE		(1u << 26)
#define S5_GLOBAL_DEPTH_OFFSET_ENABLE	(1u << 25)
#define S5_FOG_ENABLE			(1u << 24)
#define S5_STENCIL_REF_SHIFT		16
#define S5_STENCIL_TEST_FUNC_SHIFT	13
#define S5_STENCIL_FAIL_SHIFT		10
#define S5_STENCIL_PASS_Z_FAIL_SHIFT	7
#define S5_STENCIL_PASS_Z_PASS_SHIFT	4
#define S5_STENCIL_WRITE_ENABLE		(1u << 3)
#define S5_STENCIL_TEST_ENABLE		(1u << 2)
#define S5_COLOR_DITHER_ENABLE		(1u << 1)
#define S5_LOGICOP_ENABLE		(1u << 0)

#define S6_ALPHA_TEST_ENABLE		(1u << 31)
#define S6_ALPHA_TEST_FUNC_SHIFT	28
#define S6_ALPHA_REF_SHIFT		20
#define S6_DEPTH_TEST_ENABLE		(1u << 19)
#define S6_DEPTH_TEST_FUNC_SHIFT	16
#define S6_CBUF_BLEND_ENABLE		(1u << 15)
#define S6_CBUF_BLEND_FUNC_SHIFT	12
#define S6_CBUF_SRC_BLEND_FACT_SHIFT	8
#define S6_CBUF_DST_BLEND_FACT_SHIFT	4
#define S6_DEPTH_WRITE_ENABLE		(1u << 3)
#define S6_COLOR_WRITE_ENABLE		(1u << 2)
#define S6_TRISTRIP_PV_SHIFT		0
#define S6_TRISTRIP_PV_MASK		0x3u

/* 3DSTATE_BUF_INFO dword 1 */
#define BUF_3D_ID_SHIFT			24
#define BUF_3D_ID_MASK			0x7u
#define BUF_3D_ID_COLOR_BACK		0x3
#define BUF_3D_ID_DEPTH			0x7
#define BUF_3D_USE_FENCE		(1u << 23)
#define BUF_3D_TILED_SURFACE		(1u << 22)
#define BUF_3D_TILE_WALK_Y		(1u << 21)
#define BUF_3D_PITCH_MASK		0x3ffcu		/* bytes, dword aligned */
#define BUF_3D_ADDR(x)			((x) & ~0x3u)

/* 3DSTATE_DST_BUF_VARS dword 1 */
#define CLASSIC_EARLY_DEPTH		(1u << 31)
#define TEX_DEFAULT_COLOR_D3D		(1u << 30)
#define ZR_EARLY_DEPTH			(1u << 29)
#define LOD_PRECLAMP_OGL		(1u << 28)
#define DSTORG_HORT_BIAS_SHIFT		20	/* sixteenths of a pixel */
#define DSTORG_VERT_BIAS_SHIFT		16
#define DSTORG_BIAS_MASK		0xfu
#define COLOR_BUF_FORMAT_SHIFT		8
#define COLOR_BUF_FORMAT_MASK		0xfu
#define COLOR_BUF_8BIT			0x0
#define COLOR_BUF_RGB555		0x1
#define COLOR_BUF_RGB565		0x2
#define COLOR_BUF_ARGB8888		0x3
#define COLOR_BUF_YCRCB_SWAP		0x4
#define COLOR_BUF_YCRCB_NORMAL		0x5
#define COLOR_BUF_YCRCB_SWAPUV		0x6
#define COLOR_BUF_YCRCB_SWAPUVY		0x7
#define COLOR_BUF_ARGB4444		0x8
#define COLOR_BUF_ARGB1555		0x9
#define COLOR_BUF_ARGB2101010		0xa
#define DEPTH_FRMT_SHIFT		2
#define DEPTH_FRMT_MASK			0x3u
#define DEPTH_FRMT_16_FIXED		0x0
#define DEPTH_FRMT_16_FLOAT		0x1
#define DEPTH_FRMT_24_FIXED_8_OTHER	0x2

/* 3DSTATE_DRAW_RECT dword 1 */
#define DRAW_RECT_DIS_DEPTH_OFS		(1u << 30)

/* 3DSTATE_STIPPLE dword 1 */
#define ST1_ENABLE			(1u << 16)
#define ST1_MASK			0xffffu

/* 3DSTATE_FOG_MODE dword 1 */
#define FMC1_FOGFUNC_MODIFY_ENABLE	(1u << 31)
#define FMC1_FOGFUNC_SHIFT		28
#define FMC1_FOGFUNC_VERTEX		0
#define FMC1_FOGINDEX_MODIFY_ENABLE	(1u << 27)
#define FMC1_FOGINDEX_W			(1u << 25)

/* 3DSTATE_MAP_STATE: per map MS2 (address), MS3, MS4. */
#define MS2_ADDRESS_MASK		0xfffffffcu
#define MS3_HEIGHT_SHIFT		21
#define MS3_WIDTH_SHIFT			10
#define MS3_SIZE_MASK			0x7ffu
#define MS3_PALETTE_SELECT		(1u << 9)
#define MS3_MAPSURF_FORMAT_SHIFT	7
#define MS3_MAPSURF_FORMAT_MASK		0x7u
#define MAPSURF_8BIT			1
#define MAPSURF_16BIT			2
#define MAPSURF_32BIT			3
#define MAPSURF_422			5
#define MAPSURF_COMPRESSED		6
#define MAPSURF_4BIT_INDEXED		7
#define MS3_MT_FORMAT_SHIFT		3
#define MS3_MT_FORMAT_MASK		0xfu
#define MT_8BIT_I8			0
#define MT_8BIT_L8			1
#define MT_8BIT_A4P4			2
#define MT_8BIT_P4A4			3
#define MT_8BIT_A8			4
#define MT_8BIT_MONO8			5
#define MT_16BIT_RGB565			0
#define MT_16BIT_ARGB1555		1
#define MT_16BIT_ARGB4444		2
#define MT_16BIT_AY88			3
#define MT_16BIT_88DVDU			5
#define MT_16BIT_BUMP_655LDVDU		6
#define MT_16BIT_I16			7
#define MT_16BIT_L16			8
#define MT_16BIT_A16			9
#define MT_32BIT_ARGB8888		0
#define MT_32BIT_ABGR8888		1
#define MT_32BIT_XRGB8888		2
#define MT_32BIT_XBGR8888		3
#define MT_32BIT_ARGB2101010		8
#define MT_32BIT_ABGR2101010		9
#define MT_32BIT_xI824			0xd
#define MT_32BIT_xL824			0xe
#define MT_32BIT_xA824			0xf
#define MT_422_YCRCB_SWAPY		0
#define MT_422_YCRCB_NORMAL		1
#define MT_422_YCRCB_SWAPUV		2
#define MT_422_YCRCB_SWAPUVY		3
#define MS3_USE_FENCE_REGS		(1u << 2)
#define MS3_TILED_SURFACE		(1u << 1)
#define MS3_TILE_WALK_Y			(1u << 0)
#define MS4_PITCH_SHIFT			21	/* dwords - 1 */
#define MS4_PITCH_MASK			0x7ffu
#define MS4_CUBE_FACE_ENA_SHIFT		15
#define MS4_MAX_LOD_SHIFT		9	/* quarter levels */
#define MS4_MAX_LOD_MASK		0x3fu
#define MS4_MIP_LAYOUT_RIGHT		(1u << 8)
#define MS4_VOLUME_DEPTH_SHIFT		0
#define MS4_VOLUME_DEPTH_MASK		0xffu

/* 3DSTATE_SAMPLER_STATE: per sampler SS2, SS3, SS4 (border colour). */
#define SS2_REVERSE_GAMMA_ENABLE	(1u << 31)
#define SS2_PACKED_TO_PLANAR_ENABLE	(1u << 30)
#define SS2_COLORSPACE_CONVERSION	(1u << 29)
#define SS2_BASE_MIP_LEVEL_SHIFT	22
#define SS2_BASE_MIP_LEVEL_MASK		0x1fu
#define SS2_MIP_FILTER_SHIFT		20
#define SS2_MIP_FILTER_MASK		0x3u
#define MIPFILTER_NONE			0
#define MIPFILTER_NEAREST		1
#define MIPFILTER_LINEAR		3
#define SS2_MAG_FILTER_SHIFT		17
#define SS2_MIN_FILTER_SHIFT		14
#define SS2_FILTER_MASK			0x7u
#define FILTER_NEAREST			0
#define FILTER_LINEAR			1
#define FILTER_ANISOTROPIC		2
#define FILTER_4X4_1			3
#define FILTER_4X4_2			4
#define FILTER_4X4_FLAT			5
#define FILTER_6X5_MONO			6
#define SS2_LOD_BIAS_SHIFT		5	/* S4.4, sixteenths */
#define SS2_LOD_BIAS_MASK		0x1ffu
#define SS2_SHADOW_ENABLE		(1u << 4)
#define SS2_SHADOW_FUNC_SHIFT		0
#define SS3_MIN_LOD_SHIFT		24	/* U4.4, sixteenths */
#define SS3_MIN_LOD_MASK		0xffu
#define SS3_KILL_PIXEL_ENABLE		(1u << 17)
#define SS3_TCX_ADDR_MODE_SHIFT		12
#define SS3_TCY_ADDR_MODE_SHIFT		9
#define SS3_TCZ_ADDR_MODE_SHIFT		6
#define SS3_ADDR_MODE_MASK		0x7u
#define TEXCOORDMODE_WRAP		0
#define TEXCOORDMODE_MIRROR		1
#define TEXCOORDMODE_CLAMP_EDGE		2
#define TEXCOORDMODE_CUBE		3
#define TEXCOORDMODE_CLAMP_BORDER	4
#define TEXCOORDMODE_MIRROR_ONCE	5
#define SS3_NORMALIZED_COORDS		(1u << 5)
#define SS3_TEXTUREMAP_INDEX_SHIFT	1
#define SS3_TEXTUREMAP_INDEX_MASK	0xfu
#define SS3_DEINTERLACER_ENABLE		(1u << 0)

/* Compare functions (depth, stencil, alpha, shadow). */
#define COMPAREFUNC_ALWAYS		0
#define COMPAREFUNC_NEVER		1
#define COMPAREFUNC_LESS		2
#define COMPAREFUNC_EQUAL		3
#define COMPAREFUNC_LEQUAL		4
#define COMPAREFUNC_GREATER		5
#define COMPAREFUNC_NOTEQUAL		6
#define COMPAREFUNC_GEQUAL		7

#define STENCILOP_KEEP			0
#define STENCILOP_ZERO			1
#define STENCILOP_REPLACE		2
#define STENCILOP_INCRSAT		3
#define STENCILOP_DECRSAT		4
#define STENCILOP_INCR			5
#define STENCILOP_DECR			6
#define STENCILOP_INVERT		7

/* Logic ops (3DSTATE_MODES_4): a ROP2, the result bit for source bit s
 * and destination bit d is bit (2 * s + d) of the code. */
#define LOGICOP_CLEAR			0x0
#define LOGICOP_COPY			0xc
#define LOGICOP_SET			0xf

#define BLENDFUNC_ADD			0
#define BLENDFUNC_SUBTRACT		1
#define BLENDFUNC_REVERSE_SUBTRACT	2
#define BLENDFUNC_MIN			3
#define BLENDFUNC_MAX			4

#define BLENDFACT_ZERO			0x01
#define BLENDFACT_ONE			0x02
#define BLENDFACT_SRC_COLR		0x03
#define BLENDFACT_INV_SRC_COLR		0x04
#define BLENDFACT_SRC_ALPHA		0x05
#define BLENDFACT_INV_SRC_ALPHA		0x06
#define BLENDFACT_DST_ALPHA		0x07
#define BLENDFACT_INV_DST_ALPHA		0x08
#define BLENDFACT_DST_COLR		0x09
#define BLENDFACT_INV_DST_COLR		0x0a
#define BLENDFACT_SRC_ALPHA_SATURATE	0x0b
#define BLENDFACT_CONST_COLOR		0x0c
#define BLENDFACT_INV_CONST_COLOR	0x0d
#define BLENDFACT_CONST_ALPHA		0x0e
#define BLENDFACT_INV_CONST_ALPHA	0x0f
#define BLENDFACT_MASK			0x0f

/*
 * The pixel shader ISA.  A program is up to 123 three-dword instructions:
 * declarations (DCL), arithmetic (A0..A2) and texture (T0..T2) forms.
 */
#define PS_MAX_INSN			123
#define I915_MAX_TEX_INDIRECT		4
#define I915_MAX_TEX_INSN		32
#define I915_MAX_ALU_INSN		64
#define I915_MAX_DECL_INSN		27
#define I915_MAX_TEMPORARY		16
#define I915_MAX_CONSTANT		32
#define I915_MAX_UTEMP			3
#define I915_MAX_T_REG			11	/* T0-T7, diffuse, specular, fog */

#define REG_TYPE_R			0	/* temporaries R0-R15 */
#define REG_TYPE_T			1	/* interpolated inputs */
#define REG_TYPE_CONST			2	/* C0-C31 */
#define REG_TYPE_S			3	/* samplers */
#define REG_TYPE_OC			4	/* output colour */
#define REG_TYPE_OD			5	/* output depth (in .w) */
#define REG_TYPE_U			6	/* unpreserved temporaries */
#define T_TEX0				0
#define T_DIFFUSE			8
#define T_SPECULAR			9
#define T_FOG_W				10

#define PS_OPCODE(d0)			(((d0) >> 24) & 0x1f)
#define A0_NOP				0x00
#define A0_ADD				0x01
#define A0_MOV				0x02
#define A0_MUL				0x03
#define A0_MAD				0x04
#define A0_DP2ADD			0x05
#define A0_DP3				0x06
#define A0_DP4				0x07
#define A0_FRC				0x08
#define A0_RCP				0x09
#define A0_RSQ				0x0a
#define A0_EXP				0x0b
#define A0_LOG				0x0c
#define A0_CMP				0x0d
#define A0_MIN				0x0e
#define A0_MAX				0x0f
#define A0_FLR				0x10
#define A0_MOD				0x11
#define A0_TRC				0x12
#define A0_SGE				0x13
#define A0_SLT				0x14
#define T0_TEXLD			0x15
#define T0_TEXLDP			0x16
#define T0_TEXLDB			0x17
#define T0_TEXKILL			0x18
#define D0_DCL				0x19

#define A0_DEST_SATURATE		(1u << 22)
#define A0_DEST_TYPE_SHIFT		19
#define A0_DEST_NR_SHIFT		14
#define A0_DEST_CHANNEL_SHIFT		10
#define A0_SRC0_TYPE_SHIFT		7
#define A0_SRC0_NR_SHIFT		2
#define A1_SRC0_CHANNEL_X_SHIFT		28
#define A1_SRC0_CHANNEL_Y_SHIFT		24
#define A1_SRC0_CHANNEL_Z_SHIFT		20
#define A1_SRC0_CHANNEL_W_SHIFT		16
#define A1_SRC1_TYPE_SHIFT		13
#define A1_SRC1_NR_SHIFT		8
#define A1_SRC1_CHANNEL_X_SHIFT		4
#define A1_SRC1_CHANNEL_Y_SHIFT		0
#define A2_SRC1_CHANNEL_Z_SHIFT		28
#define A2_SRC1_CHANNEL_W_SHIFT		24
#define A2_SRC2_TYPE_SHIFT		21
#define A2_SRC2_NR_SHIFT		16
#define A2_SRC2_CHANNEL_X_SHIFT		12
#define A2_SRC2_CHANNEL_Y_SHIFT		8
#define A2_SRC2_CHANNEL_Z_SHIFT		4
#define A2_SRC2_CHANNEL_W_SHIFT		0
#define SRC_TYPE_MASK			0x7u
#define SRC_NR_MASK			0x1fu
#define DEST_NR_MASK			0xfu
/* A source channel select: 4 bits, the top one negates. */
#define SRC_CHANNEL_NEGATE		0x8u
#define SRC_X				0
#define SRC_Y				1
#define SRC_Z				2
#define SRC_W				3
#define SRC_ZERO			4
#define SRC_ONE				5

#define T0_DEST_TYPE_SHIFT		19
#define T0_DEST_NR_SHIFT		14
#define T0_SAMPLER_NR_MASK		0xfu
#define T1_ADDRESS_REG_TYPE_SHIFT	24
#define T1_ADDRESS_REG_NR_SHIFT		17
#define T1_ADDRESS_REG_NR_MASK		0xfu

#define D0_SAMPLE_TYPE_SHIFT		22
#define D0_SAMPLE_TYPE_MASK		0x3u
#define D0_SAMPLE_TYPE_2D		0
#define D0_SAMPLE_TYPE_CUBE		1
#define D0_SAMPLE_TYPE_VOLUME		2
#define D0_TYPE_SHIFT			19
#define D0_TYPE_MASK			0x3u	/* only T (1) and S (3) */
#define D0_NR_SHIFT			14
#define D0_CHANNEL_SHIFT		10

#endif
