/*
 * map H [--gtt] [--length N] / unmap H: keep a CPU (I915_GEM_MMAP) or GTT
 * (MMAP_GTT + mmap) mapping open in this session, for domain experiments:
 * the driver sees the mapping as a real client's.  `map` touches the
 * first byte so a GTT mapping faults in (binding the object).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <drm.h>
#include <i915_drm.h>

#include "commands.h"
#include "json.h"
#include "libgem.h"
#include "session.h"

static struct gemctl_map *find_map(struct gemctl *ctl, uint32_t handle)
{
	size_t i;

	for (i = 0; i < ctl->nmaps; i++)
		if (ctl->maps[i].handle == handle)
			return &ctl->maps[i];
	return NULL;
}

static int map_gtt(struct gemctl *ctl, uint32_t handle, uint64_t len, void **out)
{
	struct drm_i915_gem_mmap_gtt arg = { .handle = handle };
	void *p;
	int ret;

	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_MMAP_GTT, &arg);
	if (ret)
		return gemctl_handle_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_MMAP_GTT", -ret, handle,
					  "handle %u", handle);
	p = gem_mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, ctl->fd,
		     (off_t)arg.offset);
	if (p == MAP_FAILED)
		return gemctl_error(ctl, GEMCTL_FAILED, "mmap of handle %u (GTT): %s",
				    handle, strerror(errno));
	*out = p;
	return 0;
}

static int map_cpu(struct gemctl *ctl, uint32_t handle, uint64_t len, void **out)
{
	struct drm_i915_gem_mmap arg = { .handle = handle, .size = len };
	int ret;

	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_MMAP, &arg);
	if (ret)
		return gemctl_handle_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_MMAP", -ret, handle,
					  "handle %u length %llu", handle,
					  (unsigned long long)len);
	*out = (void *)(uintptr_t)arg.addr_ptr;
	return 0;
}

static const struct tool_opt map_opts[] = {
	{ "gtt", 0, 'g', TOOL_ARG_NONE, NULL,
	  "map through the GTT (MMAP_GTT)" },
	{ "cpu", 0, 'c', TOOL_ARG_NONE, NULL,
	  "map the pages (I915_GEM_MMAP, the default)" },
	{ "length", 0, 'l', TOOL_ARG_VALUE, "N",
	  "map N bytes (default: the whole object)" },
	TOOL_OPT_END
};

static int cmd_map(struct gemctl *ctl, int argc, char **argv)
{
	struct gemctl_map *m;
	bool gtt = false;
	uint64_t len = 0;
	uint32_t handle;
	void *p = NULL;
	int opt, ret;
	gj *doc;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		switch (opt) {
		case 'g':
			gtt = true;
			break;
		case 'c':
			gtt = false;
			break;
		case 'l':
			if ((ret = gemctl_parse_size(ctl, "length", optarg, &len)))
				return ret;
			break;
		default:
			return gemctl_usage(ctl);
		}
	}
	if (argc - optind != 1)
		return gemctl_usage(ctl);
	if ((ret = gemctl_parse_handle(ctl, argv[optind], &handle)))
		return ret;
	if (find_map(ctl, handle))
		return gemctl_error(ctl, GEMCTL_FAILED, "handle %u is already mapped",
				    handle);
	if (!len)
		len = gemctl_handle_size(ctl, handle);
	if (!len)
		return gemctl_error(ctl, GEMCTL_USAGE,
				    "give --length: the size of handle %u is not known to this session",
				    handle);
	ret = gtt ? map_gtt(ctl, handle, len, &p) : map_cpu(ctl, handle, len, &p);
	if (ret)
		return ret;
	/* Fault the mapping in now, so the driver state shows it. */
	(void)*(volatile uint8_t *)p;
	if (ctl->nmaps == ctl->maps_alloc) {
		size_t na = ctl->maps_alloc ? ctl->maps_alloc * 2 : 8;

		m = realloc(ctl->maps, na * sizeof(*m));
		if (!m) {
			munmap(p, len);
			return gemctl_error(ctl, GEMCTL_FAILED, "%s", strerror(ENOMEM));
		}
		ctl->maps = m;
		ctl->maps_alloc = na;
	}
	m = &ctl->maps[ctl->nmaps++];
	m->handle = handle;
	m->gtt = gtt;
	m->ptr = p;
	m->size = len;
	gemctl_result(ctl, "%p", p);
	gemctl_say(ctl, "handle %u mapped %s at %p length %llu\n", handle,
		   gtt ? "gtt" : "cpu", p, (unsigned long long)len);
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "handle", handle);
	gj_str(doc, "kind", gtt ? "gtt" : "cpu");
	gj_uint(doc, "address", (uintptr_t)p);
	gj_uint(doc, "length", len);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

static int cmd_unmap(struct gemctl *ctl, int argc, char **argv)
{
	struct gemctl_map *m;
	uint32_t handle;
	int ret;
	gj *doc;

	if (argc != 2)
		return gemctl_usage(ctl);
	if ((ret = gemctl_parse_handle(ctl, argv[1], &handle)))
		return ret;
	m = find_map(ctl, handle);
	if (!m)
		return gemctl_error(ctl, GEMCTL_FAILED, "handle %u is not mapped",
				    handle);
	munmap(m->ptr, m->size);
	*m = ctl->maps[--ctl->nmaps];
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "handle", handle);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_map_entry = {
	.name = "map",
	.args = "H [--gtt|--cpu] [--length N]",
	.summary = "keep a CPU or GTT mapping of an object open",
	.opts = map_opts,
	.complete = GEMCTL_COMPLETE_HANDLE,
	.fn = cmd_map,
};

const struct gemctl_cmd cmd_unmap_entry = {
	.name = "unmap",
	.args = "H",
	.summary = "drop the mapping map made",
	.complete = GEMCTL_COMPLETE_HANDLE,
	.fn = cmd_unmap,
};
