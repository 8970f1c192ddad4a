/*
 * The object files: the era's lists and totals (i915_gem_objects,
 * i915_gem_gtt, i915_gem_{active,flushing,inactive,pinned,deferred_free},
 * i915_gem_fence_regs) in Linux 3.2's describe_obj format, and gemkit's
 * structured gemkit_objects, gemkit_clients and gemkit_fences (FORMAT.md).
 *
 * Era mapping: an object's list is its mm_list; unbound objects are on
 * no era list (3.2 kept them on none either).  last_rendering_seqno and
 * last_fenced_seqno read 0 once the object retired, as move_off_active
 * reset them; " (render ring)" marks the objects still active.  The %p
 * is a stable fake kernel address derived from the object id
 * (0xffff880000000000 + (id << 10)), so text lines can be matched to
 * gemkit_objects records.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs_priv.h"
#include "util.h"

static const char *cache_level_str(uint32_t level)
{
	switch (level) {
	case I915_CACHING_NONE: return " uncached";
	case I915_CACHING_CACHED: return " snooped (LLC)";
	default: return "";
	}
}

char *fmt_describe_obj(char *p, const struct snap_obj *o)
{
	bool on_ring = o->active;

	p = fmt_hex(p, debugfs_obj_ptr(o->id), 16);
	*p++ = ':';
	*p++ = ' ';
	*p++ = o->user_pin_count ? 'P' : o->pin_count ? 'p' : ' ';
	*p++ = gdfs_tiling_letter((enum gdfs_tiling)o->tiling_mode);
	*p++ = ' ';
	p = fmt_u64_pad(p, o->size, 8);
	*p++ = ' ';
	p = fmt_hex(p, o->read_domains, 4);
	*p++ = ' ';
	p = fmt_hex(p, o->write_domain, 4);
	*p++ = ' ';
	p = fmt_i64(p, on_ring ? (int32_t)o->last_read_seqno : 0);
	*p++ = ' ';
	p = fmt_i64(p, on_ring && o->fence_reg >= 0 ? (int32_t)o->last_read_seqno : 0);
	p = fmt_str(p, cache_level_str(o->cache_level));
	if (o->dirty)
		p = fmt_lit(p, " dirty");
	if (o->madv == I915_MADV_DONTNEED)
		p = fmt_lit(p, " purgeable");
	if (o->flink_name) {
		p = fmt_lit(p, " (name: ");
		p = fmt_i64(p, (int32_t)o->flink_name);
		*p++ = ')';
	}
	if (o->fence_reg >= 0) {
		p = fmt_lit(p, " (fence: ");
		p = fmt_i64(p, o->fence_reg);
		*p++ = ')';
	}
	if (o->gtt_size) {
		p = fmt_lit(p, " (gtt offset: ");
		p = fmt_hex(p, (uint32_t)o->gtt_start, 8);
		p = fmt_lit(p, ", size: ");
		p = fmt_hex(p, (uint32_t)o->gtt_size, 8);
		*p++ = ')';
	}
	/* pin_mappable: pinned with map_and_fenceable (the ring, GEM_PIN);
	 * fault_mappable is not tracked per object on gemd. */
	if (o->pin_count && o->map_and_fenceable)
		p = fmt_lit(p, " (p mappable)");
	if (on_ring)
		p = fmt_lit(p, " (render ring)");
	return p;
}

/* "   <describe_obj>\n" for objs[i]. */
static int emit_obj_line(struct strbuf *sb, const struct snap_obj *o, const char *prefix)
{
	char *p = sb_reserve(sb, 320);

	if (!p)
		return -ENOMEM;
	p = fmt_str(p, prefix);
	p = fmt_describe_obj(p, o);
	*p++ = '\n';
	sb_commit(sb, p);
	return 0;
}

static int emit_total(struct strbuf *sb, uint64_t count, uint64_t obj_size,
		      uint64_t gtt_size)
{
	return strbuf_addf(sb, "Total %d objects, %zu bytes, %zu GTT size\n",
			   (int)count, (size_t)obj_size, (size_t)gtt_size);
}

DEBUGFS_SNAP_SHOW(debugfs_show_gem_list)
{
	static const char *const headers[GEM_LIST_COUNT + 1] = {
		[GEM_LIST_INACTIVE] = "Inactive:\n",
		[GEM_LIST_ACTIVE] = "Active:\n",
		[GEM_LIST_FLUSHING] = "Flushing:\n",
		[GEM_LIST_PINNED] = "Pinned:\n",
		[GEM_LIST_COUNT] = "Deferred free:\n",	/* always empty: frees are immediate */
	};
	unsigned int list = (unsigned int)(uintptr_t)data;
	uint64_t count = 0, obj_size = 0, gtt_size = 0;
	size_t i;
	int ret;

	if (list > GEM_LIST_COUNT || !headers[list])
		return -EINVAL;
	ret = strbuf_addstr(sb, headers[list]);
	if (list < GEM_LIST_COUNT) {
		for (i = snap->list_start[list]; !ret && i < snap->list_start[list + 1]; i++) {
			const struct snap_obj *o = &snap->objs[i];

			ret = emit_obj_line(sb, o, "   ");
			count++;
			obj_size += o->size;
			gtt_size += o->gtt_size;
		}
	}
	if (!ret)
		ret = emit_total(sb, count, obj_size, gtt_size);
	return ret;
}

DEBUGFS_SNAP_SHOW(debugfs_show_gem_gtt)
{
	uint64_t count = 0, obj_size = 0, gtt_size = 0;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < snap->ngtt; i++) {
		const struct snap_obj *o = &snap->objs[snap->gtt_order[i]];

		ret = emit_obj_line(sb, o, "   ");
		count++;
		obj_size += o->size;
		gtt_size += o->gtt_size;
	}
	if (!ret)
		ret = emit_total(sb, count, obj_size, gtt_size);
	return ret;
}

struct obj_count {
	unsigned int count, mappable_count;
	uint64_t size, mappable_size;
};

static void count_range(const struct debugfs_snapshot *snap, size_t from, size_t to,
			struct obj_count *c)
{
	size_t i;

	for (i = from; i < to; i++) {
		const struct snap_obj *o = &snap->objs[i];

		c->size += o->gtt_size;
		c->count++;
		if (o->map_and_fenceable) {
			c->mappable_size += o->gtt_size;
			c->mappable_count++;
		}
	}
}

static int emit_count(struct strbuf *sb, const char *kind, const struct obj_count *c)
{
	return strbuf_addf(sb, "  %u [%u] %s objects, %zu [%zu] bytes\n", c->count,
			   c->mappable_count, kind, (size_t)c->size, (size_t)c->mappable_size);
}

DEBUGFS_SNAP_SHOW(debugfs_show_gem_objects)
{
	struct obj_count gtt = { 0 }, active = { 0 }, pinned = { 0 };
	struct obj_count inactive = { 0 }, freed = { 0 };
	unsigned int pin_mappable = 0;
	uint64_t pin_mappable_size = 0;
	const size_t *ls = snap->list_start;
	size_t i;
	int ret;

	/* gtt_list: every bound object, i.e. every list but the unbound one. */
	count_range(snap, ls[GEM_LIST_INACTIVE], ls[GEM_LIST_COUNT], &gtt);
	count_range(snap, ls[GEM_LIST_ACTIVE], ls[GEM_LIST_ACTIVE + 1], &active);
	count_range(snap, ls[GEM_LIST_FLUSHING], ls[GEM_LIST_FLUSHING + 1], &active);
	count_range(snap, ls[GEM_LIST_PINNED], ls[GEM_LIST_PINNED + 1], &pinned);
	count_range(snap, ls[GEM_LIST_INACTIVE], ls[GEM_LIST_INACTIVE + 1], &inactive);
	for (i = ls[GEM_LIST_INACTIVE]; i < ls[GEM_LIST_COUNT]; i++) {
		const struct snap_obj *o = &snap->objs[i];

		if (o->pin_count && o->map_and_fenceable) {
			pin_mappable++;
			pin_mappable_size += o->gtt_size;
		}
	}

	ret = strbuf_addf(sb, "%u objects, %zu bytes\n", (unsigned int)snap->object_count,
			  (size_t)snap->object_bytes);
	if (!ret)
		ret = strbuf_addf(sb, "%u [%u] objects, %zu [%zu] bytes in gtt\n", gtt.count,
				  gtt.mappable_count, (size_t)gtt.size, (size_t)gtt.mappable_size);
	if (!ret)
		ret = emit_count(sb, gdfs_list_name(GDFS_LIST_ACTIVE), &active);
	if (!ret)
		ret = emit_count(sb, gdfs_list_name(GDFS_LIST_PINNED), &pinned);
	if (!ret)
		ret = emit_count(sb, gdfs_list_name(GDFS_LIST_INACTIVE), &inactive);
	if (!ret)
		ret = emit_count(sb, "freed", &freed);
	if (!ret)
		ret = strbuf_addf(sb, "%u pinned mappable objects, %zu bytes\n",
				  pin_mappable, (size_t)pin_mappable_size);
	if (!ret)
		ret = strbuf_addf(sb, "%u fault mappable objects, %zu bytes\n", 0u, (size_t)0);
	if (!ret)
		ret = strbuf_addf(sb, "%zu [%zu] gtt total\n", (size_t)snap->aperture_size,
				  (size_t)snap->aperture_size);
	return ret;
}

DEBUGFS_SNAP_SHOW(debugfs_show_fence_regs)
{
	int i, ret;

	ret = strbuf_addf(sb, "Reserved fences = %d\nTotal fences = %d\n", 0, GEN3_NUM_FENCES);
	for (i = 0; !ret && i < GEN3_NUM_FENCES; i++) {
		char prefix[32];

		snprintf(prefix, sizeof(prefix), "Fenced object[%2d] = ", i);
		if (snap->fence_obj[i] < 0)
			ret = strbuf_addf(sb, "%sunused\n", prefix);
		else
			ret = emit_obj_line(sb, &snap->objs[snap->fence_obj[i]], prefix);
	}
	return ret;
}

/* --- structured files -------------------------------------------------- */

char *fmt_token(char *p, const char *s, size_t maxlen)
{
	static const char digits[] = "0123456789ABCDEF";
	size_t i;

	for (i = 0; i < maxlen && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= ' ' || c >= 0x7f || c == '%' || c == '=' || c == ',' || c == ':') {
			*p++ = '%';
			*p++ = digits[c >> 4];
			*p++ = digits[c & 15];
		} else {
			*p++ = (char)c;
		}
	}
	return p;
}

/* comm as a record's TEXT value: at most 15 bytes, NUL-terminated. */
static void copy_comm(char *dst, const char *comm)
{
	size_t n = strnlen(comm, 15);

	memcpy(dst, comm, n);
	dst[n] = '\0';
}

static void object_record(struct gdfs_object *r, const struct snap_obj *o)
{
	*r = (struct gdfs_object){
		.id = o->id,
		.size = o->size,
		.list = (enum gdfs_list)o->list,
		.gtt_offset = (uint32_t)o->gtt_start,
		.gtt_size = o->gtt_size,
		.read = o->read_domains,
		.write = o->write_domain,
		.pin = o->pin_count,
		.user_pin = o->user_pin_count,
		.fence = o->fence_reg,
		.tiling = (enum gdfs_tiling)o->tiling_mode,
		.stride = o->stride,
		.madv = (enum gdfs_madv)o->madv,
		.cache = (enum gdfs_cache)o->cache_level,
		.dirty = o->dirty,
		.active = o->active,
		.last_read_seqno = o->last_read_seqno,
		.last_write_seqno = o->last_write_seqno,
		.name = o->flink_name,
		.handles = o->handle_count,
		.creator_pid = o->creator_pid,
		.created_ns = o->created_ns,
		.binds = o->bind_count,
		.evicts = o->evict_count,
	};
}

/* o's owners into owners[] (room for o->owner_count). */
static void owner_records(struct gdfs_owner *owners, const struct debugfs_snapshot *snap,
			  const struct snap_obj *o)
{
	uint32_t k;

	for (k = 0; k < o->owner_count; k++) {
		const struct snap_owner *ow = &snap->owners[o->owner_first + k];
		const struct snap_file *f = snap_file_of(snap, ow->file_id);

		owners[k] = (struct gdfs_owner){
			.file = ow->file_id,
			.pid = f ? f->pid : 0,
			.handle = ow->handle,
		};
		copy_comm(owners[k].comm, f ? f->comm : "");
	}
}

DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_objects)
{
	struct gdfs_owner *owners = NULL;
	struct gdfs_object r;
	uint32_t nowners = 0;
	size_t i;
	int ret;

	ret = debugfs_schema_objects(sb, snap->nobjs);
	for (i = 0; !ret && i < snap->nobjs; i++) {
		const struct snap_obj *o = &snap->objs[i];
		char *p;

		if (o->owner_count > nowners) {
			struct gdfs_owner *more = realloc(owners, o->owner_count * sizeof(*more));

			if (!more) {
				ret = -ENOMEM;
				break;
			}
			owners = more;
			nowners = o->owner_count;
		}
		p = sb_reserve(sb, debugfs_object_max + o->owner_count * debugfs_owner_max);
		if (!p) {
			ret = -ENOMEM;
			break;
		}
		object_record(&r, o);
		owner_records(owners, snap, o);
		r.owners = owners;
		r.nowners = o->owner_count;
		sb_commit(sb, debugfs_fmt_object(p, &r));
	}
	free(owners);
	return ret;
}

DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_clients)
{
	struct gdfs_client r;
	size_t i;
	int ret;

	ret = debugfs_schema_clients(sb, snap->nfiles);
	for (i = 0; !ret && i < snap->nfiles; i++) {
		const struct snap_file *f = &snap->files[i];
		char *p = sb_reserve(sb, debugfs_client_max);

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		debugfs_client_record(&r, f);
		sb_commit(sb, debugfs_fmt_client(p, &r));
	}
	return ret;
}

/* One record per fence register: its holder's placement and layout. */
DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_fences)
{
	struct gdfs_fence r;
	int i, ret;

	ret = debugfs_schema_fences(sb, GEN3_NUM_FENCES);
	for (i = 0; !ret && i < GEN3_NUM_FENCES; i++) {
		int32_t held = snap->fence_obj[i];
		const struct snap_obj *o = held >= 0 && (size_t)held < snap->nobjs ?
					   &snap->objs[held] : NULL;
		char *p = sb_reserve(sb, debugfs_fence_max);

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		r = (struct gdfs_fence){ .index = (uint32_t)i };
		if (o) {
			r.obj = o->id;
			r.start = (uint32_t)o->gtt_start;
			r.size = o->gtt_size;
			r.obj_size = o->size;
			r.pitch = o->stride;
			r.tiling = (enum gdfs_tiling)o->tiling_mode;
			r.pin = o->pin_count;
		}
		sb_commit(sb, debugfs_fmt_fence(p, &r));
	}
	return ret;
}
