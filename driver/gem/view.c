/*
 * The GTT view of tiled objects: what a 945G shows through the aperture.
 *
 * On the hardware an object has one set of pages, laid out as the GPU
 * tiles them.  A CPU mapping, pread and pwrite see those bytes as they
 * are; a GTT mapping reaches them through the aperture, where a fence
 * register covering a tiled object detiles every access, so the program
 * sees the surface linearly (row y at y * stride).  The two views are the
 * same memory, coherent at every byte, and the GTT one changes under an
 * existing mapping when the tiling changes.  Mesa's i915 driver relies on
 * it: it uploads textures and reads render targets through GTT maps of
 * X-tiled objects and lets the GPU sample and render them tiled.
 *
 * gemd's clients map object memory directly, and nothing tells gemd when
 * a program touches a mapping.  The choices were:
 *
 *  1. store tiled objects linearly and have the GPU model apply the
 *     tiling.  The GTT view would then be the memory itself, but every
 *     other view would need the translation instead: CPU maps, pread and
 *     pwrite must show the raw tiled bytes (IGT's gem_tiled_pread_basic,
 *     gem_tiled_wb and _wc check exactly that), and the GPU's untiled
 *     accesses, relocations, error capture and debugfs would all need to
 *     know which objects are stored how — the GPU model would have to
 *     learn about objects, which driver/gpu must not.  It moves the
 *     problem rather than solving it.
 *  2. fault-driven coherence (userfaultfd or mprotect and SIGSEGV in the
 *     client): exact, but it takes signals or privileges from programs
 *     that have their own uses for them.
 *  3. a linear shadow ("view") of each tiled object that a client maps
 *     through the GTT, kept in step with the object's own pages by gemd
 *     at the points where the i915 uAPI lets a program expect the other
 *     side's writes: set_domain, pread, pwrite, the CPU and GTT mmap
 *     calls, execbuffer, the retirement of GPU writes, sw_finish, and
 *     tiling changes.  Not a set_domain that leaves an object in the
 *     GTT domain: the kernel returns from that one at once (domain.c).
 *
 * We take 3.  The object's own pages stay exactly as the hardware has
 * them, so the GPU model, CPU maps, pread, relocation and capture are
 * untouched; only GTT mappings of tiled objects are redirected.
 *
 * Keeping the two in step without knowing who wrote.  A program may write
 * through its GTT map without set_domain (the kernel's GTT is coherent
 * anyway, and IGT writes and then preads), and the GPU or a CPU map may
 * write the pages meanwhile.  So the view keeps a third copy, "base": the
 * object's pages as of the last merge.  A merge (gem_view_sync) walks the
 * surface in the runs that tiling keeps contiguous (a 512-byte X tile row,
 * a 16-byte Y OWord) and for each compares both sides with base: a run
 * changed only in the view is copied to the pages, one changed only in
 * the pages is copied to the view, one changed on both sides is merged
 * byte by byte, the pages winning a byte both changed (gem_merge3).  A
 * merge costs two comparisons of the object's size (gemkit_counters'
 * view_merges and view_merge_bytes count them); views exist only for
 * tiled objects a client mapped through the GTT.  The layout is the one
 * the blitter uses (gpu_tiled_offset), with bit-6 swizzling NONE, as the
 * driver reports: the merge is exact.
 *
 * When the tiling changes the view is merged and let go; the client maps
 * its GTT mappings of the object again (GEM_LOC_REMAP), and the next GTT
 * mapping makes a view for the new layout (or maps the pages themselves
 * once the object is untiled), so an existing mapping shows what the
 * fence would.  Other processes' GTT mappings of that object keep the old
 * view until they map again: the one place where the view is weaker than
 * the hardware.  Linear bytes of a partial last tile row, which the fence
 * would send past the object, read as zeros and ignore writes.
 *
 * Client-side answers (issue 18's BUSY from the status page) must keep
 * to these merge points: an object with a view is idle for the client
 * only once gemd has retired it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gem_priv.h"
#include "log.h"

/* gem_merge3 compares and copies from snapshots of this many bytes. */
#define MERGE_CHUNK	512

/*
 * Both sides may be written while we merge: the GPU model writes the
 * pages (an earlier batch still running when an execbuffer merges its
 * render target), the client its GTT map.  So each chunk of each side is
 * read once, into a snapshot, and only bytes that differ from base in a
 * snapshot are written, on the other side and into base.  A byte written
 * after its snapshot still differs from base and is merged next time; a
 * copy that read a side twice could leave base and the view unequal,
 * and the next merge would then take the view's stale bytes for the
 * client's writes and copy them over the GPU's (t4001 blend-separate).
 * A chunk both sides still hold as base is passed over without taking
 * snapshots: it writes nothing, and a byte written meanwhile differs from
 * base next time (a program that maps a tiled object again and again
 * pays a comparison of each side, not a copy and a comparison).
 */
bool gem_merge3(uint8_t *a, uint8_t *b, uint8_t *base, size_t len)
{
	uint8_t ta[MERGE_CHUNK], tb[MERGE_CHUNK];
	bool changed = false;
	size_t off, n, i;

	for (off = 0; off < len; off += n) {
		n = len - off < MERGE_CHUNK ? len - off : MERGE_CHUNK;
		if (!memcmp(a + off, base + off, n) && !memcmp(b + off, base + off, n))
			continue;
		memcpy(ta, a + off, n);
		memcpy(tb, b + off, n);
		if (!memcmp(ta, base + off, n) && !memcmp(tb, base + off, n))
			continue;
		changed = true;
		for (i = 0; i < n; i++) {
			uint8_t *bs = &base[off + i];

			if (ta[i] != *bs)
				b[off + i] = *bs = ta[i];
			else if (tb[i] != *bs)
				a[off + i] = *bs = tb[i];
		}
	}
	return changed;
}

/* The bytes a fence keeps contiguous: an X tile row, a Y OWord. */
static uint32_t run_length(uint32_t tiling_mode)
{
	return tiling_mode == I915_TILING_X ? gpu_tile_width(GPU_TILING_X) : 16;
}

static enum gpu_tiling gpu_tiling_of(uint32_t tiling_mode)
{
	return tiling_mode == I915_TILING_X ? GPU_TILING_X : GPU_TILING_Y;
}

/*
 * Call fn for every run of the view: its offset in the view (linear) and
 * in the object's pages (tiled), both inside the object.
 */
static void view_walk(struct gem_object *obj, struct gem_view *v,
		      void (*fn)(struct gem_object *obj, struct gem_view *v,
				 uint64_t lin, uint64_t raw, uint32_t len))
{
	enum gpu_tiling tiling = gpu_tiling_of(v->tiling_mode);
	uint32_t run = run_length(v->tiling_mode);
	uint64_t lin, raw;

	for (lin = 0; lin + run <= obj->size; lin += run) {
		raw = gpu_tiled_offset(tiling, v->stride, (uint32_t)(lin % v->stride),
				       (uint32_t)(lin / v->stride));
		if (raw + run <= obj->size)
			fn(obj, v, lin, raw, run);
	}
}

static void run_merge(struct gem_object *obj, struct gem_view *v,
		      uint64_t lin, uint64_t raw, uint32_t len)
{
	gem_merge3(obj->vaddr + raw, v->vaddr + lin, v->base + raw, len);
}

/*
 * A new view is filled from base, not from the pages: the GPU may be
 * writing them (Mesa maps a render target while the batch drawing it
 * runs), and a view read from the pages later than base was would differ
 * from base where the GPU wrote in between.  The next merge takes such a
 * byte for the client's write; when the GPU has meanwhile written the
 * byte's old value back (a clear, then a draw, then a blend that restores
 * it) nothing tells the two apart and the stale byte is copied over the
 * GPU's (t4001 blend-separate on a tiled target, alpha 0x6c for 0x00).
 */
static void run_fill(struct gem_object *obj, struct gem_view *v,
		     uint64_t lin, uint64_t raw, uint32_t len)
{
	(void)obj;
	memcpy(v->vaddr + lin, v->base + raw, len);
}

void gem_view_sync(struct gem_object *obj)
{
	if (!obj->view)
		return;
	view_walk(obj, obj->view, run_merge);
	obj->dev->stats.view_merges++;
	obj->dev->stats.view_merge_bytes += obj->size;
}

void gem_view_free(struct gem_object *obj)
{
	struct gem_view *v = obj->view;

	if (!v)
		return;
	obj->view = NULL;
	gem_status_object_changed(obj);
	gem_backing_view_free(obj, v);
	free(v->base);
	free(v);
}

void gem_view_drop(struct gem_object *obj)
{
	gem_view_sync(obj);
	gem_view_free(obj);
}

int gem_view_get(struct gem_object *obj)
{
	struct gem_view *v = obj->view;
	int ret;

	if (v && v->tiling_mode == obj->tiling_mode && v->stride == obj->stride) {
		gem_view_sync(obj);
		return 0;
	}
	gem_view_drop(obj);
	if (obj->tiling_mode == I915_TILING_NONE)
		return 0;
	v = gem_calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	v->base = gem_malloc(obj->size);
	if (!v->base) {
		ret = -ENOMEM;
		goto out_free;
	}
	ret = gem_backing_view_alloc(obj, v);
	if (ret)
		goto out_free_base;
	v->tiling_mode = obj->tiling_mode;
	v->stride = obj->stride;
	memcpy(v->base, obj->vaddr, obj->size);
	/* Fresh arena memory reads as zeros: the runs past the object stay so. */
	view_walk(obj, v, run_fill);
	obj->view = v;
	gem_status_object_changed(obj);
	return 0;

out_free_base:
	free(v->base);
out_free:
	free(v);
	return ret;
}

void gem_view_location(struct gem_object *obj, struct gem_backing_loc *loc)
{
	struct gem_view *v = obj->view;

	v->mapped = true;
	loc->arena = v->arena->id;
	loc->flags = 0;
	loc->offset = v->node.start;
	loc->size = obj->size;
	loc->object = (uint64_t)obj->id << GEM_FAKE_OFFSET_SHIFT;
}
