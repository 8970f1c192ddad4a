/*
 * Device-wide files: name, i915_capabilities, i915_wedged and
 * i915_gem_drop_caches (the two writable ones), and gemkit_counters.
 *
 * i915_wedged: reading prints the 3.2 line; writing a number (strtoul
 * base 0, as simple_strtoul) forces error handling: an error capture
 * (kind "wedged"), then a ring reset that blames the running request
 * (driver/gem/hangcheck.c) and unwedges a wedged device, as
 * intel_gt_handle_error does.  With i915.reset=0, or if the reset fails,
 * the device is wedged: execbuffer and throttle fail with -EIO until a
 * later write with resets allowed.  The write succeeds either way.  A GPU
 * stopped on an error reads as wedged until it is recovered.
 *
 * i915_gem_drop_caches: reading gives the mask of supported bits
 * ("0x%08llx\n" of DROP_ALL, as igt_drop_caches_has expects); writing a
 * mask does, in the kernel's order: DROP_ACTIVE/DROP_IDLE wait for the
 * GPU to idle; DROP_RETIRE (and ACTIVE, IDLE, FREED) retire requests, so
 * closed objects whose last reference was the GPU's are freed; DROP_BOUND
 * unbinds every unpinned object (i915_gem_evict_everything: waits for the
 * GPU first, purgeable ones lose their pages); DROP_UNBOUND drops the
 * pages of unbound purgeable objects; DROP_SHRINK_ALL does both for
 * purgeable objects only.  RESET_ACTIVE, RESET_SEQNO and RCU are accepted
 * and do nothing here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs_priv.h"
#include "error.h"
#include "log.h"
#include "util.h"

DEBUGFS_SHOW(debugfs_show_name)
{
	return strbuf_addstr(sb, "i915 dev=0000:00:02.0 unique=0000:00:02.0\n");
}

/*
 * i915_swizzle_info (Linux 3.4 on gen3/4): gemd's 945G has one memory
 * channel of 1 GiB, so no bit-6 swizzling (i915_gem_detect_bit_6_swizzle
 * reads single-channel addressing in DCC) and no L-shaped layout.
 */
DEBUGFS_SHOW(debugfs_show_swizzle_info)
{
	return strbuf_addstr(sb, "bit6 swizzle for X-tiling = none\n"
			     "bit6 swizzle for Y-tiling = none\n"
			     "DDC = 0x00000000\n"
			     "C0DRB3 = 0x0020\n"
			     "C1DRB3 = 0x0020\n");
}

/*
 * i915_wa_registers (Linux 6.1): each engine's context workarounds, an
 * engine with none printing nothing.  i915 has none for a gen3 ring, so
 * a 945G shows an empty file (IGT's gem_workarounds then skips).
 */
DEBUGFS_SHOW(debugfs_show_wa_registers)
{
	return 0;
}

/* i915_params/<name>: data is the parameter's name (params.c). */
DEBUGFS_SHOW(debugfs_show_param)
{
	const struct gem_param_desc *p = gem_param_lookup(data);

	return p ? gem_param_show(dev, p, sb) : -ENOENT;
}

DEBUGFS_WRITE(debugfs_write_param)
{
	const struct gem_param_desc *p = gem_param_lookup(data);

	return p ? gem_param_store(dev, p, buf, len) : -ENOENT;
}

DEBUGFS_SHOW(debugfs_show_capabilities)
{
	/* intel_945g_info */
	static const struct { const char *name; bool yes; } caps[] = {
		{ "is_mobile", false }, { "is_i85x", false }, { "is_i915g", false },
		{ "is_i945gm", false }, { "is_g33", false }, { "need_gfx_hws", false },
		{ "is_g4x", false }, { "is_pineview", false }, { "is_broadwater", false },
		{ "is_crestline", false }, { "has_fbc", false }, { "has_pipe_cxsr", false },
		{ "has_hotplug", true }, { "cursor_needs_physical", true },
		{ "has_overlay", true }, { "overlay_needs_physical", true },
		{ "supports_tv", false }, { "has_bsd_ring", false }, { "has_blt_ring", false },
	};
	unsigned int i;
	int ret;

	ret = strbuf_addf(sb, "gen: %d\n", 3);
	for (i = 0; !ret && i < ARRAY_SIZE(caps); i++)
		ret = strbuf_addf(sb, "%s: %s\n", caps[i].name, caps[i].yes ? "yes" : "no");
	return ret;
}

DEBUGFS_SHOW(debugfs_show_wedged)
{
	int wedged;

	/* Not a stopped parser: nothing is wedged until a hang is handled
	 * with resets off (a parser error alone resets nothing). */
	gem_lock(dev);
	wedged = dev->wedged;
	gem_unlock(dev);
	return strbuf_addf(sb, "wedged :  %d\n", wedged);
}

/* A number as the kernel's attribute writes take it: base 0, optional
 * trailing whitespace, at most 31 characters. */
static int parse_number(const char *buf, size_t len, unsigned long long *out)
{
	char tmp[32], *end;

	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' ' ||
		       buf[len - 1] == '\t' || buf[len - 1] == '\0'))
		len--;
	if (!len || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, buf, len);
	tmp[len] = '\0';
	errno = 0;
	*out = strtoull(tmp, &end, 0);
	if (errno || *end || tmp[0] == '-')
		return -EINVAL;
	return 0;
}

DEBUGFS_WRITE(debugfs_write_wedged)
{
	unsigned long long val;
	int ret = parse_number(buf, len, &val);

	if (ret)
		return ret;
	/* As 3.x: i915_handle_error(dev, val): capture, then reset the ring
	 * (hangcheck.c); the device stays wedged only if that fails. */
	log_notice("debugfs: manually setting wedged to %llu", val);
	/* The outcome is read back from i915_wedged: the write itself
	 * succeeds, as i915_wedged_set's did. */
	gem_handle_error_forced(dev);
	return 0;
}

DEBUGFS_SHOW(debugfs_show_drop_caches)
{
	return strbuf_addf(sb, "0x%08llx\n", (unsigned long long)DROP_ALL);
}

/* Drop the pages of unbound purgeable objects (shrink I915_SHRINK_UNBOUND). */
static void drop_unbound(struct gem_device *dev)
{
	struct gem_object *obj;

	list_for_each_entry(obj, &dev->lists[GEM_LIST_UNBOUND], list_link) {
		if (obj->madv != I915_MADV_DONTNEED)
			continue;
		gem_backing_discard(obj);
		obj->madv = GEM_MADV_PURGED;
		dev->stats.purges++;
		gem_event(dev, GEM_EV_PURGE, obj->id, obj->size, 0, 0);
	}
}

static int evict_all(struct gem_device *dev, bool purgeable_only)
{
	int tries, ret = 0;

	/* -EAGAIN: it waited for the GPU and the lists moved; go again. */
	for (tries = 0; tries < 4; tries++) {
		ret = gem_evict_everything(dev, purgeable_only);
		if (ret != -EAGAIN)
			break;
	}
	return ret == -EAGAIN ? 0 : ret;
}

DEBUGFS_WRITE(debugfs_write_drop_caches)
{
	unsigned long long val;
	int ret = parse_number(buf, len, &val);

	if (ret)
		return ret;
	if (val & ~(unsigned long long)DROP_ALL)
		return -EINVAL;
	log_debug("debugfs: dropping caches 0x%llx", val);

	gem_lock(dev);
	if (val & (DROP_ACTIVE | DROP_IDLE)) {
		ret = gem_gpu_idle(dev);
		if (ret)
			goto out_unlock;
	}
	if (val & (DROP_RETIRE | DROP_ACTIVE | DROP_IDLE | DROP_FREED))
		gem_retire_requests(dev);
	if (val & DROP_BOUND) {
		ret = evict_all(dev, false);
		if (ret)
			goto out_unlock;
	}
	if (val & DROP_UNBOUND)
		drop_unbound(dev);
	if (val & DROP_SHRINK_ALL) {
		ret = evict_all(dev, true);
		if (ret)
			goto out_unlock;
		drop_unbound(dev);
	}
	if (val & (DROP_FREED | DROP_SHRINK_ALL)) {
		gem_retire_requests(dev);
		gem_backing_shrink(dev);
	}
out_unlock:
	gem_unlock(dev);
	return ret;
}

DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_counters)
{
	const struct gem_stats *s = &snap->stats;
	struct gdfs_counter_values r = {
		.time_ns = snap->taken_ns,
		.execbuffers = s->execbuffers,
		.relocations = s->relocations,
		.binds = s->binds,
		.evictions = s->evictions,
		.waits = s->waits,
		.wait_ns = s->wait_ns,
		.domain_flushes = s->domain_flushes,
		.clflush_bytes = s->clflush_bytes,
		.pwrite_bytes = s->pwrite_bytes,
		.pread_bytes = s->pread_bytes,
		.purges = s->purges,
		.retires = s->retires,
		.faults = s->faults,
		.view_merges = s->view_merges,
		.view_merge_bytes = s->view_merge_bytes,
		.objects = snap->object_count,
		.object_bytes = snap->object_bytes,
		.pinned_bytes = snap->pinned_bytes,
		.aperture = snap->aperture_size,
		.gtt_free = snap->gtt_free,
		.gtt_largest_hole = snap->gtt_largest_hole,
		.interrupts = snap->irq_count,
		.seqno = snap->hw_seqno,
		.gpu_commands = snap->gpu.commands,
		.gpu_batches = snap->gpu.batches,
		.gpu_blits = snap->gpu.blits,
		.gpu_blit_bytes = snap->gpu.blit_bytes,
		.gpu_interrupts = snap->gpu.interrupts,
		.gpu_busy_ns = snap->gpu.busy_ns,
		.gpu_scratch_accesses = snap->gpu.scratch_accesses,
		.hangs = s->hangs,
		.resets = s->resets,
		.bans = s->bans,
		.wedged = snap->wedged,
	};

	/* The per-list totals i915_gem_objects gives, without a walk of
	 * every object. */
	memcpy(r.list_objects, snap->list_count, sizeof(r.list_objects));
	memcpy(r.list_bytes, snap->list_bytes, sizeof(r.list_bytes));
	return debugfs_fmt_counters(sb, &r);
}
