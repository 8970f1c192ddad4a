/*
 * The object files: the era's lists and totals (i915_gem_objects,
 * i915_gem_gtt, i915_gem_{active,flushing,inactive,pinned,deferred_free},
 * i915_gem_fence_regs) in Linux 3.2's describe_obj format, and gemkit's
 * structured gemkit_objects and gemkit_clients (FORMAT.md).
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
	*p++ = o->tiling_mode == I915_TILING_X ? 'X' :
	       o->tiling_mode == I915_TILING_Y ? 'Y' : ' ';
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
		ret = emit_count(sb, "active", &active);
	if (!ret)
		ret = emit_count(sb, "pinned", &pinned);
	if (!ret)
		ret = emit_count(sb, "inactive", &inactive);
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

const char *debugfs_list_name(unsigned int list)
{
	static const char *const names[GEM_LIST_COUNT] = {
		[GEM_LIST_UNBOUND] = "unbound",
		[GEM_LIST_INACTIVE] = "inactive",
		[GEM_LIST_ACTIVE] = "active",
		[GEM_LIST_FLUSHING] = "flushing",
		[GEM_LIST_PINNED] = "pinned",
	};

	return list < GEM_LIST_COUNT ? names[list] : "unknown";
}

static const char *tiling_name(uint32_t t)
{
	return t == I915_TILING_X ? "x" : t == I915_TILING_Y ? "y" : "none";
}

static const char *madv_name(uint32_t m)
{
	return m == I915_MADV_WILLNEED ? "willneed" :
	       m == I915_MADV_DONTNEED ? "dontneed" : "purged";
}

static const char *cache_name(uint32_t c)
{
	return c == I915_CACHING_NONE ? "none" :
	       c == I915_CACHING_CACHED ? "cached" :
	       c == I915_CACHING_DISPLAY ? "display" : "unknown";
}

#define OBJ_FIELDS "id,size,list,gtt_offset,gtt_size,read,write,pin,user_pin," \
	"fence,tiling,stride,madv,cache,dirty,active,last_read_seqno," \
	"last_write_seqno,name,handles,creator_pid,created_ns,binds,evicts,owners"

static char *fmt_key_u64(char *p, const char *key, size_t keylen, uint64_t v)
{
	p = fmt_mem(p, key, keylen);
	return fmt_u64(p, v);
}
#define KEY_U64(p, key, v)	fmt_key_u64((p), key, sizeof(key) - 1, (v))

DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_objects)
{
	size_t i;
	int ret;

	ret = strbuf_addf(sb, "schema=gemkit_objects version=%d count=%zu fields=" OBJ_FIELDS "\n",
			  GEMKIT_SCHEMA_VERSION, snap->nobjs);
	/* A line is at most ~420 bytes plus 80 per owner. */
	for (i = 0; !ret && i < snap->nobjs; i++) {
		const struct snap_obj *o = &snap->objs[i];
		char *p = sb_reserve(sb, 512 + (size_t)o->owner_count * 80);
		uint32_t k;

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		p = KEY_U64(p, "id=", o->id);
		p = KEY_U64(p, " size=", o->size);
		p = fmt_lit(p, " list=");
		p = fmt_str(p, debugfs_list_name(o->list));
		p = fmt_lit(p, " gtt_offset=0x");
		p = fmt_hex(p, o->gtt_start, 8);
		p = KEY_U64(p, " gtt_size=", o->gtt_size);
		p = fmt_lit(p, " read=0x");
		p = fmt_hex(p, o->read_domains, 2);
		p = fmt_lit(p, " write=0x");
		p = fmt_hex(p, o->write_domain, 2);
		p = KEY_U64(p, " pin=", o->pin_count);
		p = KEY_U64(p, " user_pin=", o->user_pin_count);
		p = fmt_lit(p, " fence=");
		p = fmt_i64(p, o->fence_reg);
		p = fmt_lit(p, " tiling=");
		p = fmt_str(p, tiling_name(o->tiling_mode));
		p = KEY_U64(p, " stride=", o->stride);
		p = fmt_lit(p, " madv=");
		p = fmt_str(p, madv_name(o->madv));
		p = fmt_lit(p, " cache=");
		p = fmt_str(p, cache_name(o->cache_level));
		p = KEY_U64(p, " dirty=", o->dirty);
		p = KEY_U64(p, " active=", o->active);
		p = KEY_U64(p, " last_read_seqno=", o->last_read_seqno);
		p = KEY_U64(p, " last_write_seqno=", o->last_write_seqno);
		p = KEY_U64(p, " name=", o->flink_name);
		p = KEY_U64(p, " handles=", o->handle_count);
		p = KEY_U64(p, " creator_pid=", (uint64_t)(uint32_t)o->creator_pid);
		p = KEY_U64(p, " created_ns=", o->created_ns);
		p = KEY_U64(p, " binds=", o->bind_count);
		p = KEY_U64(p, " evicts=", o->evict_count);
		p = fmt_lit(p, " owners=");
		for (k = 0; k < o->owner_count; k++) {
			const struct snap_owner *ow = &snap->owners[o->owner_first + k];
			const struct snap_file *f = snap_file_of(snap, ow->file_id);

			if (k)
				*p++ = ',';
			p = fmt_u64(p, ow->file_id);
			*p++ = ':';
			p = fmt_u64(p, f ? (uint32_t)f->pid : 0);
			*p++ = ':';
			p = fmt_token(p, f ? f->comm : "", 15);
			*p++ = ':';
			p = fmt_u64(p, ow->handle);
		}
		*p++ = '\n';
		sb_commit(sb, p);
	}
	return ret;
}

#define CLIENT_FIELDS "file,pid,comm,handles,handle_bytes,bound_bytes,requests"

DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_clients)
{
	size_t i;
	int ret;

	ret = strbuf_addf(sb, "schema=gemkit_clients version=%d count=%zu fields=" CLIENT_FIELDS "\n",
			  GEMKIT_SCHEMA_VERSION, snap->nfiles);
	for (i = 0; !ret && i < snap->nfiles; i++) {
		const struct snap_file *f = &snap->files[i];
		char *p = sb_reserve(sb, 256);

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		p = KEY_U64(p, "file=", f->id);
		p = KEY_U64(p, " pid=", (uint32_t)f->pid);
		p = fmt_lit(p, " comm=");
		p = fmt_token(p, f->comm, 15);
		p = KEY_U64(p, " handles=", f->handle_count);
		p = KEY_U64(p, " handle_bytes=", f->handle_bytes);
		p = KEY_U64(p, " bound_bytes=", f->bound_bytes);
		p = KEY_U64(p, " requests=", f->requests);
		*p++ = '\n';
		sb_commit(sb, p);
	}
	return ret;
}
