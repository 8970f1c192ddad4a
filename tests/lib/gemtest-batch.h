/*
 * gemtest-batch: the test side of gen3 batches.  Building them is
 * lib/gen3/batchbuffer.h's business; here are the tests' submission
 * (through libgem, -errno), the safety nets for tests that spin or
 * hang, and a software reference of the blits and of the 945G tiling
 * layout that results are checked against.
 *
 *	struct gen3_batch b;
 *
 *	gen3_batch_reset(&b);
 *	gen3_emit_store_dword(&b, target, 64, 0xc0ffee);
 *	gen3_batch_end(&b);
 *	ret = gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, NULL);
 */
#ifndef GEMKIT_GEMTEST_BATCH_H
#define GEMKIT_GEMTEST_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "batchbuffer.h"

/*
 * Write the batch into batch_handle (PWRITE) and submit it with
 * EXECBUFFER2: handles[0..n) then the batch (last, so the batch).
 * obj_flags (may be NULL) gives each of handles[] its exec object flags;
 * exec_flags goes to execbuffer2.flags (ring 0 if none).  offsets
 * (may be NULL) receives the n + 1 offsets the driver wrote back.
 * With I915_EXEC_HANDLE_LUT the caller emitted indices as targets.
 * Returns 0 or -errno.
 */
int gt_execbuf(int fd, struct gen3_batch *b, uint32_t batch_handle,
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

/*
 * The start of a GEM test program: the harness, a private gemd (with
 * gemd_args, or the defaults for NULL), gt_program_timeout(timeout_s) and
 * a device fd on that gemd, which it returns.
 */
int gt_start(int argc, char **argv, const char *const *gemd_args,
	     unsigned int timeout_s);

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
uint64_t gt_surf_offset(const struct gen3_surf *s, uint32_t x, uint32_t y);
/* What XY_COLOR_BLT does to mem (the object's bytes); byte_mask selects
 * the bytes of each pixel written (0xf: all). */
void gt_ref_color_blt(uint8_t *mem, const struct gen3_surf *dst,
		      const struct gen3_rect *r, uint32_t color, uint32_t byte_mask);
/* What XY_SRC_COPY_BLT does (src and dst do not overlap). */
void gt_ref_copy_blt(uint8_t *dmem, const struct gen3_surf *dst, int dx, int dy,
		     const uint8_t *smem, const struct gen3_surf *src, int sx,
		     int sy, int w, int h);

#endif
