/*
 * The gen3 batch builder: emits commands (cmd.h) into a batch, records a
 * relocation for every address dword it writes, and builds the
 * EXECBUFFER2 that runs it.  Nothing here asserts or allocates: the
 * builder marks a batch that overflowed and submission refuses it, so
 * tests, the tools and the demo share it.
 *
 *	struct gen3_batch b;
 *
 *	gen3_batch_reset(&b);
 *	gen3_emit_store_dword(&b, target, 64, 0xc0ffee);
 *	gen3_batch_end(&b);
 *	ret = gen3_batch_submit(gem_ioctl, fd, &b, &exec, NULL);
 *
 * lib/ is below libgem, so the caller hands in its ioctl: libgem's
 * gem_ioctl, or a counting wrapper of its own.
 */
#ifndef GEMKIT_GEN3_BATCHBUFFER_H
#define GEMKIT_GEN3_BATCHBUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <drm.h>
#include <i915_drm.h>

#include "cmd.h"

#define GEN3_BATCH_MAX_DWORDS	1024
#define GEN3_BATCH_MAX_RELOCS	128

/* Where gen3_emit_spin's redirection target conventionally starts. */
#define GEN3_SPIN_TAIL		64u

struct gen3_batch {
	uint32_t dw[GEN3_BATCH_MAX_DWORDS];
	unsigned int len;		/* dwords emitted */
	/* presumed_offset is written back here by the driver on submit */
	struct drm_i915_gem_relocation_entry reloc[GEN3_BATCH_MAX_RELOCS];
	unsigned int nreloc;
	bool overflow;			/* too many dwords or relocations */
};

/* A 2D surface in an object: pitch in bytes, cpp 1, 2 or 4. */
struct gen3_surf {
	uint32_t handle;
	uint32_t pitch;
	uint32_t cpp;
	uint32_t tiling;		/* I915_TILING_NONE, _X or _Y */
	uint64_t size;			/* of the object, in bytes */
};

/* A rectangle in pixels; x2 and y2 are exclusive, as the blitter has it. */
struct gen3_rect {
	int x1, y1, x2, y2;
};

void gen3_batch_reset(struct gen3_batch *b);
void gen3_batch_emit(struct gen3_batch *b, uint32_t dw);
/* Emit the GTT address of target + delta (as if target sat at 0) and
 * record a relocation for it, presumed_offset 0. */
void gen3_batch_emit_reloc(struct gen3_batch *b, uint32_t target, uint32_t delta,
			   uint32_t read_domains, uint32_t write_domain);
/* MI_NOOPs up to (not including) dword index idx. */
void gen3_batch_pad_to(struct gen3_batch *b, unsigned int idx);
/* MI_BATCH_BUFFER_END, then an MI_NOOP if needed for qword alignment. */
void gen3_batch_end(struct gen3_batch *b);
static inline uint32_t gen3_batch_bytes(const struct gen3_batch *b)
{
	return b->len * 4;
}

/* MI_STORE_DWORD_IMM of value to target + offset. */
void gen3_emit_store_dword(struct gen3_batch *b, uint32_t target, uint32_t offset,
			   uint32_t value);
/* An MI_BATCH_BUFFER_START jumping to itself (self relocation, delta
 * = its own offset + 1 for the gen<4 non-secure bit, as IGT does): the
 * batch runs until someone writes MI_BATCH_BUFFER_END over its first
 * dword, or redirects its address dword. */
void gen3_emit_spin(struct gen3_batch *b, uint32_t self);
/* XY_COLOR_BLT with the pattern ROP; 32 bpp writes alpha and RGB. */
void gen3_emit_color_blt(struct gen3_batch *b, const struct gen3_surf *dst,
			 const struct gen3_rect *r, uint32_t color);
/* Same with explicit header flag bits (write enables, tiling). */
void gen3_emit_color_blt_cmd(struct gen3_batch *b, uint32_t cmd_flags,
			     const struct gen3_surf *dst, const struct gen3_rect *r,
			     uint32_t color);
/* XY_SRC_COPY_BLT of w x h pixels from src (sx, sy) to dst (dx, dy). */
void gen3_emit_copy_blt(struct gen3_batch *b, const struct gen3_surf *dst,
			int dx, int dy, const struct gen3_surf *src, int sx,
			int sy, int w, int h);

/* What to execute a batch with. */
struct gen3_exec {
	uint32_t batch;			/* the batch object's handle */
	uint32_t batch_offset;		/* where in it the batch starts */
	const uint32_t *handles;	/* the other objects, before the batch */
	const uint64_t *flags;		/* their exec object flags, or NULL */
	unsigned int n;
	uint64_t exec_flags;		/* execbuffer2.flags (0: ring 0) */
	uint64_t batch_pin;		/* the batch's GTT offset (softpin,
					 * EXEC_OBJECT_PINNED); 0: anywhere */
};

/*
 * Fill obj[0..x->n] (n + 1 entries: the batch goes last) and eb to run b
 * as x says.  Relocations point at b->reloc, so b must outlive the call.
 */
void gen3_batch_execbuf(struct gen3_batch *b, const struct gen3_exec *x,
			struct drm_i915_gem_exec_object2 *obj,
			struct drm_i915_gem_execbuffer2 *eb);

/* An ioctl as ioctl(2) has it: 0, or -1 with errno set. */
typedef int (*gen3_ioctl_fn)(int fd, unsigned long request, void *arg);

/*
 * Write b into the batch object at its offset (PWRITE) and submit it
 * (EXECBUFFER2).  offsets (may be NULL) receives the x->n + 1 offsets
 * the driver wrote back.  With I915_EXEC_HANDLE_LUT the caller emitted
 * indices as targets.  Returns 0 or -errno (-E2BIG for an overflowed
 * batch).
 */
int gen3_batch_submit(gen3_ioctl_fn ioctl_fn, int fd, struct gen3_batch *b,
		      const struct gen3_exec *x, uint64_t *offsets);

#endif
