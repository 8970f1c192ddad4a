/*
 * A drm_file's usage figures (debugfs/schema/fdinfo.def): the fields of
 * its gemkit_clients record, its block in gemkit_fdinfo, and its own
 * fdinfo for the interposer (gem_debugfs_fdinfo).  The blocks are in the
 * kernel's format (Documentation/gpu/drm-usage-stats.rst): "key:\tvalue"
 * or "key:\tvalue unit", one per line, as drm_show_fdinfo prints them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs_priv.h"
#include "util.h"

/* What the fdinfo keys' members are made of (acct.h, snapshot.c). */
static void client_figures(struct gdfs_client *r, const struct snap_file *f)
{
	const struct gem_acct_stats *a = &f->acct;
	unsigned int i;

	r->engine_render_ns = a->gpu_busy_ns;
	r->total_bytes = f->handle_bytes;
	r->resident_bytes = f->resident_bytes;
	r->purgeable_bytes = f->purgeable_bytes;
	r->active_bytes = f->active_bytes;
	r->cpu_mm_ns = a->cpu_ns[GEM_ACCT_MM];
	r->cpu_submit_ns = a->cpu_ns[GEM_ACCT_SUBMIT];
	r->cpu_wait_ns = a->cpu_ns[GEM_ACCT_WAIT];
	r->cpu_other_ns = a->cpu_ns[GEM_ACCT_OTHER];
	r->cpu_gpu_ns = a->cpu_ns[GEM_ACCT_GPU];
	r->cpu_retire_ns = a->cpu_ns[GEM_ACCT_RETIRE];
	r->cpu_ns = 0;
	for (i = 0; i < GEM_ACCT_CLASSES; i++)
		r->cpu_ns += a->cpu_ns[i];
	r->ioctls = a->ioctls_total;
	r->execbuffers = a->execbuffers;
	r->relocations = a->relocations;
	r->waits = a->waits;
	r->wait_ns = a->wait_ns;
	r->evictions_caused = a->evictions_caused;
	r->evictions_suffered = a->evictions_suffered;
}

void debugfs_client_record(struct gdfs_client *r, const struct snap_file *f)
{
	size_t n = strnlen(f->comm, sizeof(r->comm) - 1);

	memset(r, 0, sizeof(*r));
	r->file = f->id;
	r->pid = f->pid;
	memcpy(r->comm, f->comm, n);
	r->handles = f->handle_count;
	r->handle_bytes = f->handle_bytes;
	r->bound_bytes = f->bound_bytes;
	r->requests = f->requests;
	client_figures(r, f);
}

/* The fdinfo.def units. */
#define FDINFO_VALUE_NS(v)	(v), " ns"
#define FDINFO_VALUE_KIB(v)	(v) / 1024, " KiB"
#define FDINFO_VALUE_NONE(v)	(v), ""

/* "gemkit-ioctl-i915-gem-create" for I915_GEM_CREATE. */
static int ioctl_key(struct strbuf *sb, const char *name)
{
	int ret = strbuf_addstr(sb, "gemkit-ioctl-");

	for (; !ret && *name; name++)
		ret = strbuf_addch(sb, *name == '_' ? '-' :
				   *name >= 'A' && *name <= 'Z' ? *name - 'A' + 'a' : *name);
	return ret;
}

static int fdinfo_block(struct strbuf *sb, const struct snap_file *f)
{
	struct gdfs_client r;
	unsigned int nr;
	int ret;

	debugfs_client_record(&r, f);
	ret = strbuf_addf(sb, "drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\n"
			  "drm-client-id:\t%u\n", r.file);
#define FDINFO(field, name, unit) \
	if (!ret) \
		ret = strbuf_addf(sb, name ":\t%llu%s\n", \
				  (unsigned long long)FDINFO_VALUE_##unit(r.field));
#include "fdinfo.def"
#undef FDINFO
	for (nr = 0; !ret && nr < GEM_ACCT_IOCTLS; nr++) {
		const char *name = gem_ioctl_name_nr(nr);

		if (!f->acct.ioctls[nr] || !name)
			continue;
		ret = ioctl_key(sb, name);
		if (!ret)
			ret = strbuf_addf(sb, ":\t%llu\n",
					  (unsigned long long)f->acct.ioctls[nr]);
	}
	return ret;
}

/* Every file's block, in file order, each ended by an empty line. */
DEBUGFS_SNAP_SHOW(debugfs_show_gemkit_fdinfo)
{
	size_t i;
	int ret = 0;

	(void)data;
	for (i = 0; !ret && i < snap->nfiles; i++) {
		ret = fdinfo_block(sb, &snap->files[i]);
		if (!ret)
			ret = strbuf_addch(sb, '\n');
	}
	return ret;
}

int gem_debugfs_fdinfo(struct gem_file *file, struct strbuf *out)
{
	struct snap_file *sf = calloc(1, sizeof(*sf));
	int ret;

	if (!sf)
		return -ENOMEM;
	/* This thread's own requests, exact (acct.h). */
	gem_acct_flush();
	gem_lock(file->dev);
	snap_file_fill(sf, file, false);
	gem_unlock(file->dev);
	ret = fdinfo_block(out, sf);
	free(sf);
	/* Reading one's figures must not show up in them. */
	gem_acct_discard();
	return ret;
}
