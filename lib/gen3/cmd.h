/*
 * gen3 command encodings, written as the kernel's i915_reg.h writes them:
 * MI_INSTR(opcode, length) for the memory interface, BLT_INSTR() for the
 * 2D blitter and GFX_INSTR() for the 3D pipeline, then the headers and
 * bits that gemkit emits.  The length argument is the header's length
 * field: total dwords minus 2 (the one-dword commands have none).
 *
 * What each opcode is called, how long it is and which dwords are GTT
 * addresses is the command table's business (cmds.def); the unit test
 * tests/unit/test-gen3.c pins every header here to its literal value
 * and checks that the table decodes it as the command it names.
 */
#ifndef GEMKIT_GEN3_CMD_H
#define GEMKIT_GEN3_CMD_H

#include <stdint.h>

/* Bits 31:29 of every header: which unit parses the command. */
#define GEN3_CLIENT(hdr)	((uint32_t)(hdr) >> 29)
#define GEN3_CLIENT_MI		0u
#define GEN3_CLIENT_2D		2u
#define GEN3_CLIENT_3D		3u

/* --- memory interface (client 0): opcode bits 28:23 -------------------- */
#define MI_INSTR(opcode, flags)	(((uint32_t)(opcode) << 23) | (flags))
#define MI_OPCODE(hdr)		(((uint32_t)(hdr) >> 23) & 0x3f)

#define MI_NOOP			MI_INSTR(0x00, 0)
#define   MI_NOOP_WRITE_ID	(1u << 22)
#define   MI_NOOP_ID_MASK	0x003fffffu
#define MI_USER_INTERRUPT	MI_INSTR(0x02, 0)
#define MI_WAIT_FOR_EVENT	MI_INSTR(0x03, 0)
#define   MI_WAIT_FOR_PLANE_A_FLIP	(1u << 2)
#define MI_FLUSH		MI_INSTR(0x04, 0)
/* A point where the ring may be switched; IGT's spinners emit it. */
#define MI_ARB_CHECK		MI_INSTR(0x05, 0)
#define MI_REPORT_HEAD		MI_INSTR(0x07, 0)
#define MI_ARB_ON_OFF		MI_INSTR(0x08, 0)
#define MI_BATCH_BUFFER_END	MI_INSTR(0x0a, 0)
/* The bspec's MI_STORE_DATA_IMM; gen3 takes four dwords: the header, a
 * reserved dword, the address and the value. */
#define MI_STORE_DWORD_IMM	MI_INSTR(0x20, 2)
#define   MI_MEM_VIRTUAL	(1u << 22)	/* 945, g33, 965: a GTT address */
/* The bspec's MI_STORE_DATA_INDEX: header, byte offset in the hardware
 * status page, value. */
#define MI_STORE_DWORD_INDEX	MI_INSTR(0x21, 1)
#define   MI_STORE_DWORD_INDEX_SHIFT	2
/* n register/value pairs follow the header. */
#define MI_LOAD_REGISTER_IMM(n)	MI_INSTR(0x22, 2 * (n) - 1)
#define MI_BATCH_BUFFER_START	MI_INSTR(0x31, 0)
#define   MI_BATCH_GTT		(2u << 6)
#define   MI_BATCH_NON_SECURE	1u		/* in the address dword, gen2/3 */
/* The forms gen3 code emits: the address is in the GTT. */
#define MI_STORE_DWORD_IMM_GTT	(MI_STORE_DWORD_IMM | MI_MEM_VIRTUAL)
#define MI_BATCH_BUFFER_START_GTT (MI_BATCH_BUFFER_START | MI_BATCH_GTT)

/* --- 2D blitter (client 2): opcode bits 28:22, length bits 7:0 --------- */
#define BLT_INSTR(opcode, len)	((2u << 29) | ((uint32_t)(opcode) << 22) | (len))
#define BLT_OPCODE(hdr)		(((uint32_t)(hdr) >> 22) & 0x7f)

#define XY_SETUP_BLT_CMD	BLT_INSTR(0x01, 6)
#define XY_SETUP_CLIP_BLT_CMD	BLT_INSTR(0x03, 1)
#define XY_SCANLINES_BLT_CMD	BLT_INSTR(0x25, 1)
#define COLOR_BLT_CMD		BLT_INSTR(0x40, 3)
#define SRC_COPY_BLT_CMD	BLT_INSTR(0x43, 4)
#define XY_COLOR_BLT_CMD	BLT_INSTR(0x50, 4)
#define XY_SRC_COPY_BLT_CMD	BLT_INSTR(0x53, 6)
#define   XY_BLT_WRITE_ALPHA	(1u << 21)
#define   XY_BLT_WRITE_RGB	(1u << 20)
#define   XY_BLT_SRC_TILED	(1u << 15)	/* gen4+; on gen3 the fence detiles */
#define   XY_BLT_DST_TILED	(1u << 11)

/* BR13, the second dword of a blit: clipping, depth, ROP, pitch. */
#define BR13_CLIP_ENABLE	(1u << 30)
#define BR13_8BPP		(0u << 24)
#define BR13_565		(1u << 24)
#define BR13_1555		(2u << 24)
#define BR13_32BPP		(3u << 24)
#define BR13_DEPTH(br13)	(((uint32_t)(br13) >> 24) & 3)
#define BR13_ROP(rop)		((uint32_t)(rop) << 16)
#define ROP_BLACKNESS		0x00u
#define ROP_NOOP		0xaau
#define ROP_SRCCOPY		0xccu
#define ROP_PATCOPY		0xf0u
#define ROP_WHITENESS		0xffu

/* --- 3D pipeline (client 3): opcode bits 28:24 ---------------------------- */
#define GFX_INSTR(opcode, flags) ((3u << 29) | ((uint32_t)(opcode) << 24) | (flags))
#define GFX_OPCODE(hdr)		(((uint32_t)(hdr) >> 24) & 0x1f)
/* Two opcodes are classes with a sub-opcode: 0x1c (bits 23:19, one
 * dword) and 0x1d (bits 23:16, a length field that depends on it). */
#define GFX_OP_1C(sub)		GFX_INSTR(0x1c, (uint32_t)(sub) << 19)
#define GFX_OP_1D(sub, len)	GFX_INSTR(0x1d, ((uint32_t)(sub) << 16) | (len))
#define GFX_SUB_1C(hdr)		(((uint32_t)(hdr) >> 19) & 0x1f)
#define GFX_SUB_1D(hdr)		(((uint32_t)(hdr) >> 16) & 0xff)

#define PRIM3D			GFX_INSTR(0x1f, 0)
#define   PRIM3D_INDIRECT	(1u << 23)	/* vertices from a buffer */
#define   PRIM3D_INDIRECT_ELTS	(1u << 17)	/* indirect: 16-bit indices */
#define   PRIM3D_INLINE_LEN_MASK	0x3ffffu	/* inline: dwords of vertices - 1 */
#define   PRIM3D_INDEX_COUNT_MASK	0xffffu	/* elts: index count, 0 = terminated */
#define   PRIM3D_INDEX_TERMINATOR	0xffffu

#endif
