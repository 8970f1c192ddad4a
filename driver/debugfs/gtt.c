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

#include "debugfs_priv.h"
#include "util.h"

#define GTT_FIELDS "kind=range:start,size,obj,obj_size,pin,list,fence;" \
	"kind=hole:start,size;" \
	"kind=summary:total,used,free,largest_hole,pinned,evictable,ranges,holes"

static char *emit_hole(char *p, uint64_t start, uint64_t size)
{
	p = fmt_lit(p, "kind=hole start=0x");
	p = fmt_hex(p, start, 8);
	p = fmt_lit(p, " size=");
	p = fmt_u64(p, size);
	*p++ = '\n';
	return p;
}

DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_gtt)
{
	uint64_t pos = 0, used = 0, pinned = 0, largest = 0, holes = 0;
	size_t i;
	int ret;

	ret = strbuf_addf(sb, "schema=gemkit_gtt version=%d fields=" GTT_FIELDS "\n",
			  GEMKIT_SCHEMA_VERSION);
	for (i = 0; !ret && i <= snap->ngtt; i++) {
		const struct snap_obj *o = i < snap->ngtt ? &snap->objs[snap->gtt_order[i]] : NULL;
		uint64_t start = o ? o->gtt_start : snap->aperture_size;
		char *p = sb_reserve(sb, 256);

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		if (start > pos) {
			p = emit_hole(p, pos, start - pos);
			holes++;
			if (start - pos > largest)
				largest = start - pos;
		}
		if (o) {
			p = fmt_lit(p, "kind=range start=0x");
			p = fmt_hex(p, o->gtt_start, 8);
			p = fmt_lit(p, " size=");
			p = fmt_u64(p, o->gtt_size);
			p = fmt_lit(p, " obj=");
			p = fmt_u64(p, o->id);
			p = fmt_lit(p, " obj_size=");
			p = fmt_u64(p, o->size);
			p = fmt_lit(p, " pin=");
			p = fmt_u64(p, o->pin_count);
			p = fmt_lit(p, " list=");
			p = fmt_str(p, debugfs_list_name(o->list));
			p = fmt_lit(p, " fence=");
			p = fmt_i64(p, o->fence_reg);
			*p++ = '\n';
			used += o->gtt_size;
			if (o->pin_count)
				pinned += o->gtt_size;
			pos = o->gtt_start + o->gtt_size;
		}
		sb_commit(sb, p);
	}
	if (!ret)
		ret = strbuf_addf(sb, "kind=summary total=%llu used=%llu free=%llu "
				  "largest_hole=%llu pinned=%llu evictable=%llu "
				  "ranges=%zu holes=%llu\n",
				  (unsigned long long)snap->aperture_size,
				  (unsigned long long)used,
				  (unsigned long long)(snap->aperture_size - used),
				  (unsigned long long)largest, (unsigned long long)pinned,
				  (unsigned long long)(used - pinned), snap->ngtt,
				  (unsigned long long)holes);
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
		memcpy(buf, obj->vaddr + off, len);
		ret = (ssize_t)len;
	}
	gem_unlock(dev);
	return ret;
}
