/*
 * The GTT: gemkit_gtt (the aperture's bound ranges and holes, in address
 * order, with a summary), and raw access to memory for debuggers, the way
 * umr reads amdgpu's amdgpu_gtt: gemkit_aperture reads the aperture at
 * GTT offsets (unbound pages read as zeros), and gemkit_object_data/<id>
 * reads one object's backing pages.
 *
 * Raw reads copy under dev->lock, one read call at a time, so no object
 * can be freed or unbound under the copy; the lock is held for the copy
 * of one request (FUSE asks for at most 128 KiB).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debugfs_priv.h"
#include "util.h"

static void range_record(struct gdfs_gtt_range *r, const struct snap_obj *o)
{
	*r = (struct gdfs_gtt_range){
		.start = o->gtt_start,
		.size = o->gtt_size,
		.obj = o->id,
		.obj_size = o->size,
		.pin = o->pin_count,
		.list = (enum gdfs_list)o->list,
		.fence = o->fence_reg,
	};
}

DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_gtt)
{
	struct gdfs_gtt sum = { .total = snap->aperture_size };
	struct gdfs_gtt_range r;
	uint64_t pos = 0;
	size_t i;
	int ret;

	ret = debugfs_schema_gtt(sb);
	for (i = 0; !ret && i <= snap->ngtt; i++) {
		const struct snap_obj *o = i < snap->ngtt ? &snap->objs[snap->gtt_order[i]] : NULL;
		uint64_t start = o ? o->gtt_start : snap->aperture_size;
		char *p = sb_reserve(sb, 2 * debugfs_gtt_range_max);

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		if (start > pos) {
			r = (struct gdfs_gtt_range){ .hole = true, .start = pos, .size = start - pos };
			p = debugfs_fmt_gtt_range(p, &r);
			sum.holes++;
			if (start - pos > sum.largest_hole)
				sum.largest_hole = start - pos;
		}
		if (o) {
			range_record(&r, o);
			p = debugfs_fmt_gtt_range(p, &r);
			sum.used += o->gtt_size;
			if (o->pin_count)
				sum.pinned += o->gtt_size;
			pos = o->gtt_start + o->gtt_size;
		}
		sb_commit(sb, p);
	}
	sum.free = sum.total - sum.used;
	sum.evictable = sum.used - sum.pinned;
	sum.ranges = snap->ngtt;
	if (!ret) {
		char *p = sb_reserve(sb, debugfs_gtt_summary_max);

		if (!p)
			return -ENOMEM;
		sb_commit(sb, debugfs_fmt_gtt_summary(p, &sum));
	}
	return ret;
}

uint64_t debugfs_aperture_size(struct gem_device *dev, const void *data)
{
	return dev->aperture_size;	/* fixed at creation */
}

ssize_t debugfs_aperture_read(struct gem_device *dev, void *buf, size_t len,
			      uint64_t off, const void *data)
{
	uint8_t *dst = buf;
	size_t done = 0;

	if (off >= dev->aperture_size)
		return 0;
	if (len > dev->aperture_size - off)
		len = (size_t)(dev->aperture_size - off);
	gem_lock(dev);
	while (done < len) {
		uint64_t at = off + done;
		size_t in_page = GTT_PAGE_SIZE - (size_t)(at & (GTT_PAGE_SIZE - 1));
		size_t n = MIN(in_page, len - done);
		const uint8_t *page = gpu_gtt_host(dev->gpu, (uint32_t)(at & ~(uint64_t)(GTT_PAGE_SIZE - 1)));

		if (page)
			memcpy(dst + done, page + (at & (GTT_PAGE_SIZE - 1)), n);
		else
			memset(dst + done, 0, n);
		done += n;
	}
	gem_unlock(dev);
	return (ssize_t)done;
}

/*
 * len bytes of obj's pages from off, read from its arena's memfd rather
 * than through gemd's mapping of it: a reader of a large object then
 * does not fault every page into gemd (its RSS would grow by the
 * object's size for as long as the arena stays mapped), and holes read
 * as zeros without being allocated.
 */
static ssize_t objdata_copy(const struct gem_object *obj, void *buf, size_t len,
			    uint64_t off)
{
	const struct gem_arena *a = obj->arena;
	size_t done = 0;
	ssize_t n;

	if (!a || obj->vaddr < a->base || obj->vaddr + obj->size > a->base + a->size) {
		memcpy(buf, obj->vaddr + off, len);
		return (ssize_t)len;
	}
	off += (uint64_t)(obj->vaddr - a->base);
	while (done < len) {
		n = pread(a->fd, (uint8_t *)buf + done, len - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)	/* sealed against shrinking: cannot happen */
			return -EIO;
		done += (size_t)n;
	}
	return (ssize_t)len;
}

/* data carries the object id (see debugfs_lookup). */
uint64_t debugfs_objdata_size(struct gem_device *dev, const void *data)
{
	uint32_t id = (uint32_t)(uintptr_t)data;
	struct gem_object *obj;
	uint64_t size = 0;

	gem_lock(dev);
	obj = idmap_lookup(&dev->objects, id);
	if (obj)
		size = obj->size;
	gem_unlock(dev);
	return size;
}

ssize_t debugfs_objdata_read(struct gem_device *dev, void *buf, size_t len,
			     uint64_t off, const void *data)
{
	uint32_t id = (uint32_t)(uintptr_t)data;
	struct gem_object *obj;
	ssize_t ret;

	gem_lock(dev);
	obj = idmap_lookup(&dev->objects, id);
	if (!obj || !obj->vaddr) {
		ret = -ENOENT;
	} else if (off >= obj->size) {
		ret = 0;
	} else {
		if (len > obj->size - off)
			len = (size_t)(obj->size - off);
		ret = objdata_copy(obj, buf, len, off);
	}
	gem_unlock(dev);
	return ret;
}
