/*
 * 945G (gen3) MMIO register offsets and bits that the model implements.
 *
 * Provenance: every offset and bit below was checked against the Linux
 * 3.6 drivers/gpu/drm/i915/i915_reg.h ("kernel") and IGT 1.27's
 * lib/intel_reg.h and lib/instdone.c ("IGT"); where they differ, the
 * comment says which one is followed.  tests/unit/test-gen3.c pins the
 * values, so a change here has to be made on purpose.
 */
#ifndef GEMKIT_GEN3_REGS_H
#define GEMKIT_GEN3_REGS_H

/* PCI: the 945G (kernel i915_pciids.h INTEL_I945G_IDS). */
#define GEN3_DEVID		0x2772
#define GEN3_REVISION		0x02

/* Render ring (PRB0): kernel RING_*(RENDER_RING_BASE). */
#define PRB0_TAIL		0x02030
#define PRB0_HEAD		0x02034
#define PRB0_START		0x02038
#define PRB0_CTL		0x0203c
#define   TAIL_ADDR		0x001ffff8	/* kernel; IGT's is i810's 0x000ffff8 */
#define   HEAD_WRAP_COUNT	0xffe00000
#define   HEAD_WRAP_ONE		0x00200000
#define   HEAD_ADDR		0x001ffffc
#define   RING_NR_PAGES		0x001ff000
#define   RING_VALID		0x00000001
#define   RING_WAIT		(1 << 11)	/* gen3: CS waiting in MI_WAIT_FOR_EVENT */

#define HWS_PGA			0x02080
#define IPEIR			0x02088
#define IPEHR			0x0208c
#define INSTDONE		0x02090
/* Bits 30:6 are the units' done bits (IGT instdone.c, gen3: IDCT_DONE at
 * 30 down to MAP_L2_IDLE at 6); bits 2:0 are the ring enables. */
#define   INSTDONE_IDLE		0x7fffffc0	/* every unit done, parser idle */
#define   IP_DONE		(1 << 26)	/* instruction parser done */
#define NOPID			0x02094
#define HWSTAM			0x02098
#define IER			0x020a0
#define IIR			0x020a4
#define IMR			0x020a8
#define ISR			0x020ac
#define   I915_USER_INTERRUPT	(1 << 1)
/* Bit 15; bit 11 is I915_DISPLAY_PLANE_A_FLIP_PENDING_INTERRUPT. */
#define   I915_RENDER_COMMAND_PARSER_ERROR_INTERRUPT	(1 << 15)
#define EIR			0x020b0
#define EMR			0x020b4
#define ESR			0x020b8
#define   I915_ERROR_PAGE_TABLE		(1 << 4)
#define   I915_ERROR_MEMORY_REFRESH	(1 << 1)
#define   I915_ERROR_INSTRUCTION	(1 << 0)
#define INSTPM			0x020c0
#define ACTHD			0x020c8
/*
 * DMA_FADD_I8XX, the command streamer's fetch address (gen2/3; 3.10+
 * error states print it as "FADDR:" for every gen).  The model latches
 * the GTT address of the access that faulted there when a page-table
 * error stops the CS, and ACTHD when an instruction error does.
 */
#define DMA_FADD_I8XX		0x02078
#define PGTBL_CTL		0x02020		/* IGT PGETBL_CTL, kernel I810_PGETBL_CTL */
/*
 * PGTBL_ER (IGT, "page table debug register for i945") has one bit per
 * unit and kind of fault.  Bit 4 is display A's PTE and bit 2 does not
 * exist; the model's one command streamer does every GTT access of the
 * render engine, so it latches the command-stream instruction PTE bit for
 * each fault it takes, as a real 945G does for a batch in an unbound page
 * (0x00100000 in 3.x error states).
 */
#define PGTBL_ER		0x02024
#define   PGTBL_ERR_CS_INSTRUCTION_GTT_PTE	(1 << 20)
#define   PGTBL_ER_RENDER_PTE	PGTBL_ERR_CS_INSTRUCTION_GTT_PTE

/* The most a 945G's GTT maps: no object, and no aperture, is larger. */
#define GEN3_GTT_MAX_SIZE	(512ull << 20)

/* Fence registers: 0-7 at 0x2000, 8-15 (945 and later) at 0x3000. */
#define FENCE_REG_830_0		0x02000
#define FENCE_REG_945_8		0x03000
#define GEN3_NUM_FENCES		16
#define   I830_FENCE_START_MASK		0x07f80000
#define   I830_FENCE_TILING_Y_SHIFT	12
#define   I830_FENCE_SIZE_BITS(size)	((ffs((size) >> 19) - 1) << 8)
#define   I830_FENCE_PITCH_SHIFT	4
#define   I830_FENCE_REG_VALID		(1 << 0)
#define   I915_FENCE_START_MASK		0x0ff00000
#define   I915_FENCE_SIZE_BITS(size)	((ffs((size) >> 20) - 1) << 8)
#define   I915_FENCE_MAX_PITCH_VAL	4	/* 945: pitch_val up to 8 KiB / 512 */

static inline unsigned int fence_reg_offset(int i)
{
	return i < 8 ? FENCE_REG_830_0 + i * 4 : FENCE_REG_945_8 + (i - 8) * 4;
}

/* Hardware status page: dword index of the seqno written by the driver
 * (kernel intel_ringbuffer.h). */
#define I915_GEM_HWS_INDEX	0x20

#endif
