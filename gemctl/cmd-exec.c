/*
 * exec BATCH-FILE [--reloc OFFSET:H[+DELTA][:write]]... [--object H]...
 *
 * The file's bytes (little-endian dwords, ending in MI_BATCH_BUFFER_END)
 * go into a new batch object, which is submitted last with every --object
 * and relocation target.  Each --reloc patches the dword at OFFSET in the
 * batch with H's GTT address + DELTA (render domain; :write makes it the
 * write domain).  The batch handle is the verb's value, so `wait $b`
 * waits for the batch.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "commands.h"
#include "json.h"
#include "session.h"
#include "util.h"

#define EXEC_MAX_OBJECTS 64
#define EXEC_MAX_RELOCS 256

struct exec_args {
	uint32_t objects[EXEC_MAX_OBJECTS];
	unsigned int nobjects;
	struct drm_i915_gem_relocation_entry relocs[EXEC_MAX_RELOCS];
	unsigned int nrelocs;
};

static int add_object(struct gemctl *ctl, struct exec_args *a, uint32_t h)
{
	unsigned int i;

	for (i = 0; i < a->nobjects; i++)
		if (a->objects[i] == h)
			return 0;
	if (a->nobjects == EXEC_MAX_OBJECTS)
		return gemctl_error(ctl, GEMCTL_USAGE, "more than %d objects",
				    EXEC_MAX_OBJECTS);
	a->objects[a->nobjects++] = h;
	return 0;
}

static int parse_reloc(struct gemctl *ctl, struct exec_args *a, const char *s)
{
	struct drm_i915_gem_relocation_entry *r;
	unsigned long long off, h, delta = 0;
	char *end;

	if (a->nrelocs == EXEC_MAX_RELOCS)
		return gemctl_error(ctl, GEMCTL_USAGE, "more than %d relocations",
				    EXEC_MAX_RELOCS);
	r = &a->relocs[a->nrelocs];
	memset(r, 0, sizeof(*r));
	errno = 0;
	off = strtoull(s, &end, 0);
	if (errno || end == s || *end != ':' || off % 4 || off > UINT32_MAX)
		goto bad;
	s = end + 1;
	h = strtoull(s, &end, 0);
	if (errno || end == s || h > UINT32_MAX)
		goto bad;
	if (*end == '+') {
		s = end + 1;
		delta = strtoull(s, &end, 0);
		if (errno || end == s || delta > UINT32_MAX)
			goto bad;
	}
	r->read_domains = I915_GEM_DOMAIN_RENDER;
	if (*end == ':') {
		if (strcmp(end + 1, "write") && strcmp(end + 1, "w"))
			goto bad;
		r->write_domain = I915_GEM_DOMAIN_RENDER;
	} else if (*end) {
		goto bad;
	}
	r->offset = off;
	r->target_handle = (uint32_t)h;
	r->delta = (uint32_t)delta;
	/* No presumed address: the driver must always write this one. */
	r->presumed_offset = ~0ull;
	a->nrelocs++;
	return add_object(ctl, a, (uint32_t)h);
bad:
	return gemctl_error(ctl, GEMCTL_USAGE, "bad relocation '%s' (OFFSET:H[+DELTA][:write])",
			    s);
}

static int load_batch(struct gemctl *ctl, const char *path, struct strbuf *sb)
{
	int ret = gemctl_read_input(ctl, path, sb);

	if (ret)
		return ret;
	if (!sb->len || sb->len % 4)
		return gemctl_error(ctl, GEMCTL_USAGE,
				    "%s: %zu bytes is not a whole number of dwords",
				    path, sb->len);
	return 0;
}

static const struct tool_opt exec_opts[] = {
	{ "reloc", 0, 'r', TOOL_ARG_VALUE, "OFFSET:H[+DELTA][:write]",
	  "patch the dword at OFFSET with H's address + DELTA\n(repeatable; :write: H is written)" },
	{ "object", 0, 'o', TOOL_ARG_VALUE, "H",
	  "submit H with the batch (repeatable)" },
	TOOL_OPT_END
};

static int cmd_exec(struct gemctl *ctl, int argc, char **argv)
{
	struct drm_i915_gem_exec_object2 obj[EXEC_MAX_OBJECTS + 1];
	struct drm_i915_gem_create create = { 0 };
	struct drm_i915_gem_execbuffer2 eb;
	struct drm_i915_gem_pwrite pw;
	struct drm_gem_close cl = { 0 };
	struct strbuf batch = STRBUF_INIT;
	struct exec_args *a;
	unsigned int i;
	uint32_t h;
	int opt, ret;
	gj *doc, *arr;

	a = calloc(1, sizeof(*a));
	if (!a)
		return gemctl_error(ctl, GEMCTL_FAILED, "out of memory");
	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		switch (opt) {
		case 'r':
			ret = parse_reloc(ctl, a, optarg);
			break;
		case 'o':
			ret = gemctl_parse_handle(ctl, optarg, &h);
			if (!ret)
				ret = add_object(ctl, a, h);
			break;
		default:
			ret = gemctl_usage(ctl);
			break;
		}
		if (ret)
			goto out;
	}
	if (argc - optind != 1) {
		ret = gemctl_usage(ctl);
		goto out;
	}
	if ((ret = load_batch(ctl, argv[optind], &batch)))
		goto out;
	for (i = 0; i < a->nrelocs; i++) {
		if (a->relocs[i].offset + 4 > batch.len) {
			ret = gemctl_error(ctl, GEMCTL_USAGE,
					   "relocation at %llu is past the batch's %zu bytes",
					   (unsigned long long)a->relocs[i].offset, batch.len);
			goto out;
		}
	}
	create.size = ALIGN_UP((uint64_t)batch.len, 4096u);
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_CREATE, &create);
	if (ret) {
		ret = gemctl_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_CREATE", -ret, "batch");
		goto out;
	}
	pw = (struct drm_i915_gem_pwrite){ .handle = create.handle, .size = batch.len,
					   .data_ptr = (uintptr_t)batch.buf };
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_PWRITE, &pw);
	if (ret) {
		ret = gemctl_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_PWRITE", -ret, "batch");
		goto close_batch;
	}
	memset(obj, 0, sizeof(obj));
	for (i = 0; i < a->nobjects; i++)
		obj[i].handle = a->objects[i];
	obj[i].handle = create.handle;
	obj[i].relocation_count = a->nrelocs;
	obj[i].relocs_ptr = (uintptr_t)a->relocs;
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = (uintptr_t)obj;
	eb.buffer_count = a->nobjects + 1;
	eb.batch_len = ALIGN_UP((uint32_t)batch.len, 8u);
	ret = gemctl_ioctl(ctl, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
	if (ret) {
		ret = gemctl_ioctl_error(ctl, "DRM_IOCTL_I915_GEM_EXECBUFFER2", -ret,
					 "%s (%u objects, %u relocations)", argv[optind],
					 eb.buffer_count, a->nrelocs);
		goto close_batch;
	}
	gemctl_handle_add(ctl, create.handle, create.size);
	gemctl_result(ctl, "%u", create.handle);
	gemctl_say(ctl, "batch handle %u at 0x%08llx\n", create.handle,
		   (unsigned long long)obj[a->nobjects].offset);
	for (i = 0; i < a->nobjects; i++)
		gemctl_say(ctl, "handle %u at 0x%08llx\n", obj[i].handle,
			   (unsigned long long)obj[i].offset);
	doc = gemctl_json_begin(ctl);
	gj_uint(doc, "batch", create.handle);
	arr = gj_array();
	for (i = 0; i <= a->nobjects; i++) {
		gj *o = gj_object();

		gj_uint(o, "handle", obj[i].handle);
		gj_uint(o, "offset", obj[i].offset);
		gj_push(arr, o);
	}
	gj_set(doc, "objects", arr);
	gemctl_json_end(ctl, doc);
	ret = GEMCTL_OK;
	goto out;
close_batch:
	cl.handle = create.handle;
	gemctl_ioctl(ctl, DRM_IOCTL_GEM_CLOSE, &cl);
out:
	strbuf_release(&batch);
	free(a);
	return ret;
}

const struct gemctl_cmd cmd_exec_entry = {
	.name = "exec",
	.args = "BATCH-FILE [--reloc OFFSET:H[+DELTA][:write]]... [--object H]...",
	.summary = "submit a batch from a file; the batch handle is the value",
	.opts = exec_opts,
	.complete = GEMCTL_COMPLETE_FILE,
	.fn = cmd_exec,
};
