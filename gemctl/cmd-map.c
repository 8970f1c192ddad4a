/*
 * map H [--gtt] [--length N] / unmap H: keep a CPU (I915_GEM_MMAP) or GTT
 * (MMAP_GTT + mmap) mapping open in this session, for domain experiments:
 * the driver sees the mapping as a real client's.  `map` touches the
 * first byte so a GTT mapping faults in (binding the object).
 */
#include <errno.h>
#include <getopt.h>
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
		return gemctl_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_MMAP_GTT", -ret,
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
		return gemctl_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_MMAP", -ret,
					  "handle %u length %llu", handle,
					  (unsigned long long)len);
	*out = (void *)(uintptr_t)arg.addr_ptr;
	return 0;
}

int cmd_map(struct gemctl *ctl, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "gtt", no_argument, NULL, 'g' },
		{ "cpu", no_argument, NULL, 'c' },
		{ "length", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	struct gemctl_map *m;
	bool gtt = false;
	uint64_t len = 0;
	uint32_t handle;
	void *p = NULL;
	int opt, ret;
	gj *doc;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
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

int cmd_unmap(struct gemctl *ctl, int argc, char **argv)
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
