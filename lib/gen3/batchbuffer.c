/* The gen3 batch builder and its EXECBUFFER2 (batchbuffer.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "batchbuffer.h"

static uint64_t to_user_pointer(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

void gen3_batch_reset(struct gen3_batch *b)
{
	b->len = 0;
	b->nreloc = 0;
	b->overflow = false;
}

void gen3_batch_emit(struct gen3_batch *b, uint32_t dw)
{
	if (b->len >= GEN3_BATCH_MAX_DWORDS) {
		b->overflow = true;
		return;
	}
	b->dw[b->len++] = dw;
}

void gen3_batch_emit_reloc(struct gen3_batch *b, uint32_t target, uint32_t delta,
			   uint32_t read_domains, uint32_t write_domain)
{
	struct drm_i915_gem_relocation_entry *r;

	if (b->nreloc >= GEN3_BATCH_MAX_RELOCS) {
		b->overflow = true;
		return;
	}
	r = &b->reloc[b->nreloc++];
	memset(r, 0, sizeof(*r));
	r->target_handle = target;
	r->delta = delta;
	r->offset = (uint64_t)b->len * 4;
	r->presumed_offset = 0;
	r->read_domains = read_domains;
	r->write_domain = write_domain;
	gen3_batch_emit(b, delta);	/* the address if target sat at 0 */
}

void gen3_batch_pad_to(struct gen3_batch *b, unsigned int idx)
{
	while (b->len < idx && !b->overflow)
		gen3_batch_emit(b, MI_NOOP);
}

void gen3_batch_end(struct gen3_batch *b)
{
	gen3_batch_emit(b, MI_BATCH_BUFFER_END);
	if (b->len & 1)
		gen3_batch_emit(b, MI_NOOP);
}

void gen3_emit_store_dword(struct gen3_batch *b, uint32_t target, uint32_t offset,
			   uint32_t value)
{
	gen3_batch_emit(b, MI_STORE_DWORD_IMM_GTT);
	gen3_batch_emit(b, 0);
	gen3_batch_emit_reloc(b, target, offset, I915_GEM_DOMAIN_RENDER,
			      I915_GEM_DOMAIN_RENDER);
	gen3_batch_emit(b, value);
}

void gen3_emit_spin(struct gen3_batch *b, uint32_t self)
{
	uint32_t here = b->len * 4;

	gen3_batch_emit(b, MI_BATCH_BUFFER_START_GTT);
	gen3_batch_emit_reloc(b, self, here + MI_BATCH_NON_SECURE,
			      I915_GEM_DOMAIN_COMMAND, 0);
}

static uint32_t br13_depth(uint32_t cpp)
{
	switch (cpp) {
	case 1:
		return BR13_8BPP;
	case 2:
		return BR13_565;
	default:
		return BR13_32BPP;
	}
}

static uint32_t write_bits(uint32_t cpp)
{
	return cpp == 4 ? XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB : 0;
}

static uint32_t xy(int x, int y)
{
	return (uint32_t)(y & 0xffff) << 16 | (uint32_t)(x & 0xffff);
}

void gen3_emit_color_blt_cmd(struct gen3_batch *b, uint32_t cmd_flags,
			     const struct gen3_surf *dst, const struct gen3_rect *r,
			     uint32_t color)
{
	gen3_batch_emit(b, XY_COLOR_BLT_CMD | cmd_flags);
	gen3_batch_emit(b, br13_depth(dst->cpp) | BR13_ROP(ROP_PATCOPY) | dst->pitch);
	gen3_batch_emit(b, xy(r->x1, r->y1));
	gen3_batch_emit(b, xy(r->x2, r->y2));
	gen3_batch_emit_reloc(b, dst->handle, 0, I915_GEM_DOMAIN_RENDER,
			      I915_GEM_DOMAIN_RENDER);
	gen3_batch_emit(b, color);
}

void gen3_emit_color_blt(struct gen3_batch *b, const struct gen3_surf *dst,
			 const struct gen3_rect *r, uint32_t color)
{
	uint32_t flags = write_bits(dst->cpp);

	if (dst->tiling != I915_TILING_NONE)
		flags |= XY_BLT_DST_TILED;
	gen3_emit_color_blt_cmd(b, flags, dst, r, color);
}

void gen3_emit_copy_blt(struct gen3_batch *b, const struct gen3_surf *dst,
			int dx, int dy, const struct gen3_surf *src, int sx,
			int sy, int w, int h)
{
	uint32_t flags = write_bits(dst->cpp);

	if (dst->tiling != I915_TILING_NONE)
		flags |= XY_BLT_DST_TILED;
	if (src->tiling != I915_TILING_NONE)
		flags |= XY_BLT_SRC_TILED;
	gen3_batch_emit(b, XY_SRC_COPY_BLT_CMD | flags);
	gen3_batch_emit(b, br13_depth(dst->cpp) | BR13_ROP(ROP_SRCCOPY) | dst->pitch);
	gen3_batch_emit(b, xy(dx, dy));
	gen3_batch_emit(b, xy(dx + w, dy + h));
	gen3_batch_emit_reloc(b, dst->handle, 0, I915_GEM_DOMAIN_RENDER,
			      I915_GEM_DOMAIN_RENDER);
	gen3_batch_emit(b, xy(sx, sy));
	gen3_batch_emit(b, src->pitch);
	gen3_batch_emit_reloc(b, src->handle, 0, I915_GEM_DOMAIN_RENDER, 0);
}

void gen3_batch_execbuf(struct gen3_batch *b, const struct gen3_exec *x,
			struct drm_i915_gem_exec_object2 *obj,
			struct drm_i915_gem_execbuffer2 *eb)
{
	unsigned int i;

	memset(obj, 0, (x->n + 1) * sizeof(*obj));
	for (i = 0; i < x->n; i++) {
		obj[i].handle = x->handles[i];
		obj[i].flags = x->flags ? x->flags[i] : 0;
	}
	obj[x->n].handle = x->batch;
	obj[x->n].relocation_count = b->nreloc;
	obj[x->n].relocs_ptr = to_user_pointer(b->reloc);
	if (x->batch_pin) {
		obj[x->n].offset = x->batch_pin;
		obj[x->n].flags = EXEC_OBJECT_PINNED;
	}

	memset(eb, 0, sizeof(*eb));
	eb->buffers_ptr = to_user_pointer(obj);
	eb->buffer_count = x->n + 1;
	eb->batch_start_offset = x->batch_offset;
	eb->batch_len = gen3_batch_bytes(b);
	eb->flags = x->exec_flags;
}

int gen3_batch_submit(gen3_ioctl_fn ioctl_fn, int fd, struct gen3_batch *b,
		      const struct gen3_exec *x, uint64_t *offsets)
{
	struct drm_i915_gem_pwrite pw = {
		.handle = x->batch,
		.offset = x->batch_offset,
		.size = gen3_batch_bytes(b),
		.data_ptr = to_user_pointer(b->dw),
	};
	struct drm_i915_gem_exec_object2 *obj;
	struct drm_i915_gem_execbuffer2 eb;
	unsigned int i;
	int ret = 0;

	if (b->overflow)
		return -E2BIG;
	if (ioctl_fn(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw))
		return -errno;
	obj = calloc(x->n + 1, sizeof(*obj));
	if (!obj)
		return -ENOMEM;
	gen3_batch_execbuf(b, x, obj, &eb);
	if (ioctl_fn(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb))
		ret = -errno;
	if (ret == 0 && offsets)
		for (i = 0; i <= x->n; i++)
			offsets[i] = obj[i].offset;
	free(obj);
	return ret;
}
