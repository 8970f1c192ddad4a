/*
 * The debugfs table (i915_debugfs_list[] of Linux 3.2, plus gemkit's
 * files) and the transport-independent entry points: lookup, read a whole
 * file, write, list.  The FUSE export (fuse.c) and the socket fallback
 * both go through here, so they return the same bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs_priv.h"
#include "error.h"
#include "metrics.h"
#include "util.h"

#define LIST(l)	((const void *)(uintptr_t)(l))

#define SHOW(n, fn)		{ .name = n, .show = fn }
#define SNAP(n, fn, want)	{ .name = n, .snap_show = fn, .snap = want }
#define LIST_FILE(n, l)		{ .name = n, .snap_show = debugfs_show_gem_list, \
				  .snap = SNAP_OBJECTS, .data = LIST(l) }

const struct debugfs_file debugfs_files[] = {
	/* the kernel's files (Linux 3.2 formats) */
	SHOW("name", debugfs_show_name),
	SHOW("i915_capabilities", debugfs_show_capabilities),
	SNAP("i915_gem_objects", debugfs_show_gem_objects, SNAP_OBJECTS),
	SNAP("i915_gem_gtt", debugfs_show_gem_gtt, SNAP_GTT_ORDER),
	LIST_FILE("i915_gem_active", GEM_LIST_ACTIVE),
	LIST_FILE("i915_gem_flushing", GEM_LIST_FLUSHING),
	LIST_FILE("i915_gem_inactive", GEM_LIST_INACTIVE),
	LIST_FILE("i915_gem_pinned", GEM_LIST_PINNED),
	{ .name = "i915_gem_deferred_free", .snap_show = debugfs_show_gem_list,
	  .data = LIST(GEM_LIST_COUNT) },	/* always empty: no objects */
	SNAP("i915_gem_request", debugfs_show_gem_request, SNAP_REQUESTS),
	SNAP("i915_gem_seqno", debugfs_show_gem_seqno, 0),
	SNAP("i915_gem_fence_regs", debugfs_show_fence_regs, SNAP_OBJECTS),
	SNAP("i915_gem_interrupt", debugfs_show_gem_interrupt, 0),
	SNAP("i915_gem_hws", debugfs_show_gem_hws, SNAP_HWS),
	SNAP("i915_ringbuffer_data", debugfs_show_ringbuffer_data, SNAP_RING),
	SNAP("i915_ringbuffer_info", debugfs_show_ringbuffer_info, 0),
	SNAP("i915_batchbuffers", debugfs_show_batchbuffers, SNAP_BATCHES),
	{ .name = "i915_error_state", .show = debugfs_show_error_state,
	  .write = debugfs_write_error_state },
	{ .name = "i915_wedged", .show = debugfs_show_wedged,
	  .write = debugfs_write_wedged },
	{ .name = "i915_gem_drop_caches", .show = debugfs_show_drop_caches,
	  .write = debugfs_write_drop_caches },
	SHOW("i915_swizzle_info", debugfs_show_swizzle_info),
	SHOW("i915_wa_registers", debugfs_show_wa_registers),
	/* gemkit's structured files (debugfs/FORMAT.md) */
	SNAP("gemkit_objects", debugfs_show_gemkit_objects, SNAP_OWNERS),
	SNAP("gemkit_clients", debugfs_show_gemkit_clients, SNAP_FILES),
	SNAP("gemkit_fdinfo", debugfs_show_gemkit_fdinfo, SNAP_FILES),
	SNAP("gemkit_fences", debugfs_show_gemkit_fences, SNAP_OBJECTS),
	SNAP("gemkit_gtt", debugfs_show_gemkit_gtt, SNAP_GTT_ORDER),
	SNAP("gemkit_ring", debugfs_show_gemkit_ring, SNAP_REQUESTS),
	SNAP("gemkit_counters", debugfs_show_gemkit_counters, 0),
	SHOW("gemkit_events", debugfs_show_gemkit_events),
	/* sysfs card0/error as Linux 6.1 names it (the interposer's) */
	{ .name = "gemkit_sysfs_error", .show = debugfs_show_error_state,
	  .data = &debugfs_error_naming_engines,
	  .write = debugfs_write_error_state },
	/* the metrics for Prometheus (driver/metrics/metrics.h) */
	{ .name = GDFS_FILE_METRICS, .snap_show = debugfs_show_metrics,
	  .snap = SNAP_FILE_TOTALS, .data = &metrics_formats[METRICS_PROMETHEUS] },
	{ .name = GDFS_FILE_OPENMETRICS, .snap_show = debugfs_show_metrics,
	  .snap = SNAP_FILE_TOTALS, .data = &metrics_formats[METRICS_OPENMETRICS] },
	/* raw memory */
	{ .name = "gemkit_aperture", .raw_size = debugfs_aperture_size,
	  .raw_read = debugfs_aperture_read },
};
const unsigned int debugfs_nfiles = ARRAY_SIZE(debugfs_files);

/* i915_params/: one file per parameter that has one (mode != 0). */
const struct debugfs_file debugfs_param_files[] = {
#define GEM_PARAM(T, name_, def, mode_) \
	{ .name = #name_, .show = debugfs_show_param, .data = #name_, \
	  .write = ((mode_) & 0200) ? debugfs_write_param : NULL, .mode = mode_ },
#include "params.def"
#undef GEM_PARAM
};
const unsigned int debugfs_nparams = ARRAY_SIZE(debugfs_param_files);

/* The per-object raw file; data is set per lookup (see debugfs_file_for). */
const struct debugfs_file debugfs_objdata_file = {
	.name = DEBUGFS_OBJDIR,
	.raw_size = debugfs_objdata_size,
	.raw_read = debugfs_objdata_read,
};

/* The per-hang capture; data is set per lookup (the hang number). */
const struct debugfs_file debugfs_errors_file = {
	.name = DEBUGFS_ERRDIR,
	.show = debugfs_show_error_record,
};

/*
 * The permissions a file shows, in the FUSE tree and to the socket's
 * readers and writers alike (driver/server/policy.c): memory and the
 * error captures (which hold objects' contents) are gemd's user's only.
 */
unsigned int debugfs_file_mode(const struct debugfs_file *f)
{
	if (f->raw_read || f == &debugfs_errors_file)
		return 0400;
	if (f->show == debugfs_show_error_state)
		return 0600;
	if (f->mode)
		return f->mode;
	return f->write ? 0644 : 0444;
}

int gem_debugfs_mode(const char *path)
{
	uint64_t arg;
	const struct debugfs_file *f = debugfs_lookup(path, &arg);

	return f ? (int)debugfs_file_mode(f) : -ENOENT;
}

static int parse_decimal(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -ENOENT;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return -ENOENT;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

static const char *strip_prefix(const char *name)
{
	while (*name == '/')
		name++;
	if (!strncmp(name, "dri/0/", 6))
		name += 6;
	return name;
}

static const struct debugfs_file *lookup_param(const char *name)
{
	unsigned int i;

	for (i = 0; i < debugfs_nparams; i++)
		if (debugfs_param_files[i].mode &&
		    !strcmp(name, debugfs_param_files[i].name))
			return &debugfs_param_files[i];
	return NULL;
}

const struct debugfs_file *debugfs_lookup(const char *name, uint64_t *arg)
{
	size_t objdir_len = strlen(DEBUGFS_OBJDIR);
	size_t params_len = strlen(DEBUGFS_PARAMS_DIR);
	size_t render_len = strlen(DEBUGFS_RENDER_DIR);
	size_t errdir_len = strlen(DEBUGFS_ERRDIR);
	unsigned int i;

	*arg = 0;
	while (*name == '/')
		name++;
	if (!strncmp(name, DEBUGFS_RENDER_DIR, render_len) && name[render_len] == '/') {
		if (strcmp(name + render_len + 1, "name"))
			return NULL;
		name += render_len + 1;
	}
	name = strip_prefix(name);
	for (i = 0; i < debugfs_nfiles; i++)
		if (!strcmp(name, debugfs_files[i].name))
			return &debugfs_files[i];
	if (!strncmp(name, DEBUGFS_PARAMS_DIR, params_len) && name[params_len] == '/')
		return lookup_param(name + params_len + 1);
	if (!strncmp(name, DEBUGFS_EVENTS_SINCE, strlen(DEBUGFS_EVENTS_SINCE))) {
		if (parse_decimal(name + strlen(DEBUGFS_EVENTS_SINCE), arg))
			return NULL;
		for (i = 0; i < debugfs_nfiles; i++)
			if (debugfs_files[i].show == debugfs_show_gemkit_events)
				return &debugfs_files[i];
	}
	if (!strncmp(name, DEBUGFS_OBJDIR, objdir_len) && name[objdir_len] == '/') {
		if (parse_decimal(name + objdir_len + 1, arg) || *arg == 0 || *arg > UINT32_MAX)
			return NULL;
		return &debugfs_objdata_file;
	}
	if (!strncmp(name, DEBUGFS_ERRDIR, errdir_len) && name[errdir_len] == '/') {
		if (parse_decimal(name + errdir_len + 1, arg) || *arg == 0)
			return NULL;
		return &debugfs_errors_file;
	}
	return NULL;
}

/* Generate a show file, honouring the lookup's argument. */
int debugfs_generate(struct gem_device *dev, const struct debugfs_file *f,
			    uint64_t arg, struct strbuf *out)
{
	struct debugfs_snapshot snap;
	int ret;

	if (f->show == debugfs_show_gemkit_events && arg)
		return debugfs_events_since(dev, out, arg);
	if (f == &debugfs_errors_file)
		return f->show(dev, out, (const void *)(uintptr_t)arg);
	if (f->show)
		return f->show(dev, out, f->data);
	/* The lock is held only while the snapshot is taken. */
	ret = debugfs_snapshot_take(dev, f->snap, &snap);
	if (ret)
		return ret;
	ret = f->snap_show(&snap, out, f->data);
	debugfs_snapshot_release(&snap);
	return ret;
}

/* Read the whole of a raw file (object data: data = id). */
static int debugfs_read_raw(struct gem_device *dev, const struct debugfs_file *f,
			    const void *data, uint64_t max, struct strbuf *out)
{
	uint64_t size = f->raw_size(dev, data), off = 0;
	size_t oldlen = out->len;

	if (f == &debugfs_objdata_file && !size)
		return -ENOENT;
	if (size > SIZE_MAX / 2 || size > max)
		return -EFBIG;
	if (strbuf_grow(out, (size_t)size))
		return -ENOMEM;
	/* In 1 MiB steps, so the lock is never held for a whole large copy. */
	while (off < size) {
		size_t n = (size_t)MIN(size - off, (uint64_t)(1u << 20));
		ssize_t r = f->raw_read(dev, out->buf + out->len, n, off, data);

		if (r < 0) {
			strbuf_setlen(out, oldlen);
			return (int)r;
		}
		if (r == 0)
			break;
		strbuf_setlen(out, out->len + (size_t)r);
		off += (uint64_t)r;
	}
	return 0;
}

int gem_debugfs_read(struct gem_device *dev, const char *path, struct strbuf *out)
{
	return gem_debugfs_read_max(dev, path, UINT64_MAX, out);
}

int gem_debugfs_read_max(struct gem_device *dev, const char *path, uint64_t max,
			 struct strbuf *out)
{
	const struct debugfs_file *f;
	uint64_t arg;
	size_t oldlen = out->len;
	int ret;

	f = debugfs_lookup(path, &arg);
	if (!f)
		return -ENOENT;
	if (f->raw_read)
		return debugfs_read_raw(dev, f, (const void *)(uintptr_t)arg, max, out);
	ret = debugfs_generate(dev, f, arg, out);
	if (ret)
		strbuf_setlen(out, oldlen);
	return ret;
}

int gem_debugfs_read_range(struct gem_device *dev, const char *path, uint64_t off,
			   size_t len, struct strbuf *out)
{
	const struct debugfs_file *f;
	struct strbuf whole = STRBUF_INIT;
	uint64_t arg;
	int ret;

	f = debugfs_lookup(path, &arg);
	if (!f)
		return -ENOENT;
	if (f->raw_read) {
		uint64_t size = f->raw_size(dev, (const void *)(uintptr_t)arg);
		size_t oldlen = out->len, done = 0;

		if (f == &debugfs_objdata_file && !size)
			return -ENOENT;
		/* What is there to read, not what was asked: a range far
		 * past the end buffers nothing. */
		len = off < size ? (size_t)MIN((uint64_t)len, size - off) : 0;
		if (strbuf_grow(out, len))
			return -ENOMEM;
		while (done < len) {
			size_t n = MIN(len - done, (size_t)(1u << 20));
			ssize_t r = f->raw_read(dev, out->buf + out->len, n, off + done,
						(const void *)(uintptr_t)arg);

			if (r < 0) {
				strbuf_setlen(out, oldlen);
				return (int)r;
			}
			if (r == 0)
				break;
			strbuf_setlen(out, out->len + (size_t)r);
			done += (size_t)r;
		}
		return 0;
	}
	ret = debugfs_generate(dev, f, arg, &whole);
	if (!ret && off < whole.len)
		ret = strbuf_add(out, whole.buf + off, (size_t)MIN((uint64_t)len, whole.len - off));
	strbuf_release(&whole);
	return ret;
}

ssize_t gem_debugfs_write(struct gem_device *dev, const char *path,
			  const char *buf, size_t len)
{
	const struct debugfs_file *f;
	uint64_t arg;
	int ret;

	f = debugfs_lookup(path, &arg);
	if (!f)
		return -ENOENT;
	if (!f->write)
		return -EACCES;
	ret = f->write(dev, buf, len, f->data);
	return ret ? ret : (ssize_t)len;
}

int gem_debugfs_list(struct gem_device *dev, struct strbuf *out)
{
	uint64_t seqs[GEM_ERROR_RECORDS_MAX];
	unsigned int i, n;
	int ret = 0;

	for (i = 0; !ret && i < debugfs_nfiles; i++)
		ret = strbuf_addf(out, "%s\n", debugfs_files[i].name);
	if (!ret)
		ret = strbuf_addf(out, "%s\n%s\n%s\n", DEBUGFS_OBJDIR,
				  DEBUGFS_PARAMS_DIR, DEBUGFS_ERRDIR);
	/* The records are few: list them too, as gdfs_list does for a tree. */
	n = gem_error_records(dev, seqs, GEM_ERROR_RECORDS_MAX);
	for (i = 0; !ret && i < n; i++)
		ret = strbuf_addf(out, "%s/%llu\n", DEBUGFS_ERRDIR,
				  (unsigned long long)seqs[i]);
	return ret;
}
