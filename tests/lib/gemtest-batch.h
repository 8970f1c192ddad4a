/*
 * gemtest-batch: gen3 batch buffers for the tests and the demo.
 *
 * The MI and blitter encodings of a 945G, a batch builder that records
 * relocations as it emits address dwords, submission through EXECBUFFER2,
 * and a software reference of the blits and of the 945G tiling layout that
 * results are checked against.  Nothing here asserts: functions return 0
 * or -errno, so programs that are not tests (bench/gem-demo) can use them.
 *
 *	struct gt_batch b;
 *
 *	gt_batch_reset(&b);
 *	gt_emit_store_dword(&b, target, 64, 0xc0ffee);
 *	gt_batch_end(&b);
 *	ret = gt_batch_submit(fd, &b, batch, &target, NULL, 1, 0, NULL);
 */
#ifndef GEMKIT_GEMTEST_BATCH_H
#define GEMKIT_GEMTEST_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <drm.h>
#include <i915_drm.h>

/* Memory interface commands (client 0). */
#define MI_NOOP			0x00000000u
#define MI_BATCH_BUFFER_END	0x05000000u	/* (0x0a << 23) */
/* (0x20 << 23) | GTT address (1 << 22) | length 2: header, 0, address, value */
#define MI_STORE_DWORD_IMM_GTT	0x10400002u
/* (0x31 << 23) | GTT (2 << 6); the address dword has bit 0 = non-secure */
#define MI_BATCH_BUFFER_START_GTT 0x18800080u
#define MI_BATCH_NON_SECURE	1u

/* 2D blitter (client 2). */
#define XY_COLOR_BLT_CMD	0x54000004u	/* (2 << 29) | (0x50 << 22) | 4 */
#define XY_SRC_COPY_BLT_CMD	0x54c00006u	/* (2 << 29) | (0x53 << 22) | 6 */
#define XY_BLT_WRITE_ALPHA	(1u << 21)
#define XY_BLT_WRITE_RGB	(1u << 20)
#define XY_BLT_SRC_TILED	(1u << 15)
#define XY_BLT_DST_TILED	(1u << 11)
#define BR13_8BPP		(0u << 24)
#define BR13_565		(1u << 24)
#define BR13_32BPP		(3u << 24)
#define BR13_ROP(rop)		((uint32_t)(rop) << 16)
#define ROP_SRCCOPY		0xccu
#define ROP_PATCOPY		0xf0u

/* Where gt_emit_spin's redirection target conventionally starts. */
#define GT_SPIN_TAIL		64u

#define GT_BATCH_MAX_DWORDS	1024
#define GT_BATCH_MAX_RELOCS	128

struct gt_batch {
	uint32_t dw[GT_BATCH_MAX_DWORDS];
	unsigned int len;		/* dwords emitted */
	/* presumed_offset is written back here by the driver on submit */
	struct drm_i915_gem_relocation_entry reloc[GT_BATCH_MAX_RELOCS];
	unsigned int nreloc;
	bool overflow;			/* too many dwords or relocations */
};

/* A 2D surface in an object: pitch in bytes, cpp 1, 2 or 4. */
struct gt_surf {
	uint32_t handle;
	uint32_t pitch;
	uint32_t cpp;
	uint32_t tiling;		/* I915_TILING_NONE, _X or _Y */
	uint64_t size;			/* of the object, in bytes */
};

/* A rectangle in pixels; x2 and y2 are exclusive, as the blitter has it. */
struct gt_rect {
	int x1, y1, x2, y2;
};

void gt_batch_reset(struct gt_batch *b);
void gt_batch_emit(struct gt_batch *b, uint32_t dw);
/* Emit the GTT address of target + delta (as if target sat at 0) and
 * record a relocation for it, presumed_offset 0. */
void gt_batch_emit_reloc(struct gt_batch *b, uint32_t target, uint32_t delta,
			 uint32_t read_domains, uint32_t write_domain);
/* MI_NOOPs up to (not including) dword index idx. */
void gt_batch_pad_to(struct gt_batch *b, unsigned int idx);
/* MI_BATCH_BUFFER_END, then an MI_NOOP if needed for qword alignment. */
void gt_batch_end(struct gt_batch *b);
static inline uint32_t gt_batch_bytes(const struct gt_batch *b)
{
	return b->len * 4;
}

/* MI_STORE_DWORD_IMM of value to target + offset. */
void gt_emit_store_dword(struct gt_batch *b, uint32_t target, uint32_t offset,
			 uint32_t value);
/* An MI_BATCH_BUFFER_START jumping to itself (self relocation, delta
 * = its own offset + 1 for the gen<4 non-secure bit, as IGT does): the
 * batch runs until someone writes MI_BATCH_BUFFER_END over its first
 * dword, or redirects its address dword. */
void gt_emit_spin(struct gt_batch *b, uint32_t self);
/* XY_COLOR_BLT with the pattern ROP; 32 bpp writes alpha and RGB. */
void gt_emit_color_blt(struct gt_batch *b, const struct gt_surf *dst,
		       const struct gt_rect *r, uint32_t color);
/* Same with explicit header flag bits (write enables, tiling). */
void gt_emit_color_blt_cmd(struct gt_batch *b, uint32_t cmd_flags,
			   const struct gt_surf *dst, const struct gt_rect *r,
			   uint32_t color);
/* XY_SRC_COPY_BLT of w x h pixels from src (sx, sy) to dst (dx, dy). */
void gt_emit_copy_blt(struct gt_batch *b, const struct gt_surf *dst, int dx,
		      int dy, const struct gt_surf *src, int sx, int sy, int w,
		      int h);

/*
 * Write the batch into batch_handle (PWRITE) and submit it with
 * EXECBUFFER2: handles[0..n) then the batch (last, so the batch).
 * obj_flags (may be NULL) gives each of handles[] its exec object flags;
 * exec_flags goes to execbuffer2.flags (ring 0 if none).  offsets
 * (may be NULL) receives the n + 1 offsets the driver wrote back.
 * With I915_EXEC_HANDLE_LUT the caller emitted indices as targets.
 * Returns 0 or -errno.
 */
int gt_batch_submit(int fd, struct gt_batch *b, uint32_t batch_handle,
		    const uint32_t *handles, const uint64_t *obj_flags,
		    unsigned int n, uint64_t exec_flags, uint64_t *offsets);

/*
 * Safety net for tests that spin: after ms milliseconds a detached thread
 * writes MI_BATCH_BUFFER_END over the first dword of batch (through a map
 * of its own, never unmapped), so a spinning batch cannot outlive a test
 * that failed before ending it.  Use a fresh batch object per spin.
 */
int gt_spin_watchdog(int fd, uint32_t batch, unsigned int ms);

/*
 * A hung driver must not hang the suite: after seconds, print a TAP
 * "Bail out!", SIGKILL gemd_pid (if > 0; a wedged gemd ignores SIGTERM)
 * and exit 1.  Forked children do not inherit the alarm.
 */
void gt_program_timeout(unsigned int seconds, int gemd_pid);

/* gem_ioctl as 0 or -errno. */
int gt_ioctl_errno(int fd, unsigned long request, void *arg);

/* --- software reference ------------------------------------------------ */

/*
 * Byte offset of byte xb of row y in a 945G surface: linear, or tiled with
 * 4 KiB tiles laid row-major across the surface (tile index =
 * (y / th) * (stride / tw) + xb / tw).  X tiles are 512 B x 8 rows, row
 * after row; Y tiles are 128 B x 32 rows made of 16-byte columns, so
 * within a tile off = (xb / 16) * 512 + (y % 32) * 16 + xb % 16.  No
 * bit-6 swizzling.
 */
uint64_t gt_tiled_offset(uint32_t tiling, uint32_t stride, uint32_t xb,
			 uint32_t y);
uint64_t gt_surf_offset(const struct gt_surf *s, uint32_t x, uint32_t y);
/* What XY_COLOR_BLT does to mem (the object's bytes); byte_mask selects
 * the bytes of each pixel written (0xf: all). */
void gt_ref_color_blt(uint8_t *mem, const struct gt_surf *dst,
		      const struct gt_rect *r, uint32_t color, uint32_t byte_mask);
/* What XY_SRC_COPY_BLT does (src and dst do not overlap). */
void gt_ref_copy_blt(uint8_t *dmem, const struct gt_surf *dst, int dx, int dy,
		     const uint8_t *smem, const struct gt_surf *src, int sx,
		     int sy, int w, int h);

#endif
