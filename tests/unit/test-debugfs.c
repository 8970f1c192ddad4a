/*
 * Unit tests of gemd's debugfs, in process: a device, known operations,
 * then the files rendered through gem_debugfs_read (the socket path) and,
 * where /dev/fuse works, through a FUSE mount, compared byte for byte.
 * The era lines are checked against the Linux 3.2 format strings
 * themselves (snprintf with the kernel's format), so a formatting slip in
 * the fast formatters shows up as a diff.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "debugfs.h"
#include "debugfs_priv.h"
#include "gem_priv.h"
#include "gemtest-inproc.h"
#include "gemtest.h"
#include "strbuf.h"
#include "util.h"

/* The whole file, via the socket path; the caller frees. */
static char *render(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = gem_debugfs_read(gti_dev, name, &sb);

	gt_assert_f(ret == 0, "reading %s: %s", name, strerror(-ret));
	return strbuf_detach(&sb, NULL);
}

static unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Line n (0-based) of s, copied into buf without its newline. */
static const char *line_of(const char *s, unsigned int n, char *buf, size_t len)
{
	const char *e;

	while (n-- && s)
		s = (s = strchr(s, '\n')) ? s + 1 : NULL;
	gt_assert(s && *s);
	e = strchr(s, '\n');
	gt_assert(e);
	gt_assert((size_t)(e - s) < len);
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = '\0';
	return buf;
}

static void assert_line(const char *text, unsigned int n, const char *expect)
{
	char buf[1024];

	line_of(text, n, buf, sizeof(buf));
	gt_assert_f(!strcmp(buf, expect), "line %u:\n  got      '%s'\n  expected '%s'",
		    n, buf, expect);
}

/* describe_obj of Linux 3.2, printed with the kernel's own format. */
static void kernel_describe(char *buf, size_t len, struct gem_object *o,
			    bool on_ring, bool pin_mappable)
{
	char tail[256] = "";
	size_t t = 0;

	snprintf(buf, len, "%016llx: %s%s %8zd %04x %04x %d %d%s%s%s",
		 (unsigned long long)debugfs_obj_ptr(o->id),
		 o->user_pin_count ? "P" : o->pin_count ? "p" : " ",
		 o->tiling_mode == I915_TILING_X ? "X" : o->tiling_mode == I915_TILING_Y ? "Y" : " ",
		 (size_t)o->size, o->read_domains, o->write_domain,
		 on_ring ? (int)o->last_read_seqno : 0,
		 on_ring && o->fence_reg >= 0 ? (int)o->last_read_seqno : 0,
		 " uncached", o->dirty ? " dirty" : "",
		 o->madv == I915_MADV_DONTNEED ? " purgeable" : "");
	if (o->flink_name)
		t += (size_t)snprintf(tail + t, sizeof(tail) - t, " (name: %d)", (int)o->flink_name);
	if (o->fence_reg >= 0)
		t += (size_t)snprintf(tail + t, sizeof(tail) - t, " (fence: %d)", o->fence_reg);
	if (gem_object_bound(o))
		t += (size_t)snprintf(tail + t, sizeof(tail) - t, " (gtt offset: %08x, size: %08x)",
				      (unsigned int)o->gtt_node.start,
				      (unsigned int)o->gtt_node.size);
	if (pin_mappable)
		t += (size_t)snprintf(tail + t, sizeof(tail) - t, " (p mappable)");
	if (on_ring)
		t += (size_t)snprintf(tail + t, sizeof(tail) - t, " (render ring)");
	snprintf(buf + strlen(buf), len - strlen(buf), "%s", tail);
}

/* The number after "Total " in a list file's footer. */
static unsigned int list_total(const char *text)
{
	const char *t = strstr(text, "Total ");

	gt_assert(t);
	return (unsigned int)strtoul(t + 6, NULL, 10);
}

/* Value of key in the first record of text whose line contains match. */
static long long record_value(const char *text, const char *match, const char *key)
{
	const char *line = strstr(text, match), *end, *k;
	char pat[64];

	gt_assert_f(line, "no record with '%s'", match);
	while (line > text && line[-1] != '\n')
		line--;
	end = strchr(line, '\n');
	snprintf(pat, sizeof(pat), "%s=", key);
	if (!strncmp(line, pat, strlen(pat)))
		return strtoll(line + strlen(pat), NULL, 0);
	snprintf(pat, sizeof(pat), " %s=", key);
	k = strstr(line, pat);
	gt_assert_f(k && k < end, "no key %s in record", key);
	return strtoll(k + strlen(pat), NULL, 0);
}

static ssize_t write_file(const char *name, const char *s)
{
	return gem_debugfs_write(gti_dev, name, s, strlen(s));
}

static char *read_path(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int fd = open(path, O_RDONLY);

	gt_assert_f(fd >= 0, "open %s: %s", path, strerror(errno));
	gt_assert(strbuf_read_fd(&sb, fd) >= 0);
	close(fd);
	return strbuf_detach(&sb, NULL);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);

	gemtest_subtest("era-object-files") {
		char expect[512], *objects, *inactive, *gtt, *pinned;
		uint32_t batch, a;
		struct gem_object *oa, *ob, *ring;

		gti_setup(16u << 20);
		batch = gti_make_batch();
		a = gti_create(8192);
		gt_assert_eq(gti_exec(batch, &a, 1, a), 0);
		gti_idle();
		oa = gti_obj(a);
		ob = gti_obj(batch);
		ring = gti_dev->ring;

		objects = render("i915_gem_objects");
		gt_assert_eq(count_lines(objects), 9);
		assert_line(objects, 0, "3 objects, 143360 bytes");
		assert_line(objects, 1, "3 [3] objects, 143360 [143360] bytes in gtt");
		assert_line(objects, 2, "  0 [0] active objects, 0 [0] bytes");
		assert_line(objects, 3, "  1 [1] pinned objects, 131072 [131072] bytes");
		assert_line(objects, 4, "  2 [2] inactive objects, 12288 [12288] bytes");
		assert_line(objects, 5, "  0 [0] freed objects, 0 [0] bytes");
		assert_line(objects, 6, "1 pinned mappable objects, 131072 bytes");
		assert_line(objects, 7, "0 fault mappable objects, 0 bytes");
		assert_line(objects, 8, "16777216 [16777216] gtt total");

		inactive = render("i915_gem_inactive");
		gt_assert_eq(count_lines(inactive), 4);
		assert_line(inactive, 0, "Inactive:");
		/* LRU order: the batch went inactive before a? both retired
		 * together, in submission (execbuffer list) order: a, batch. */
		kernel_describe(expect, sizeof(expect), oa, false, false);
		gt_assert(strstr(inactive, expect));
		gt_assert(strstr(expect, " 0002 0000 0 0 uncached dirty (gtt offset: "));
		kernel_describe(expect, sizeof(expect), ob, false, false);
		gt_assert(strstr(inactive, expect));
		assert_line(inactive, 3, "Total 2 objects, 12288 bytes, 12288 GTT size");

		pinned = render("i915_gem_pinned");
		assert_line(pinned, 0, "Pinned:");
		kernel_describe(expect, sizeof(expect), ring, false, true);
		{
			char want[600];

			snprintf(want, sizeof(want), "   %s", expect);
			assert_line(pinned, 1, want);
		}
		assert_line(pinned, 2, "Total 1 objects, 131072 bytes, 131072 GTT size");

		gtt = render("i915_gem_gtt");
		gt_assert_eq(count_lines(gtt), 4);
		assert_line(gtt, 3, "Total 3 objects, 143360 bytes, 143360 GTT size");
		free(objects);
		free(inactive);
		free(pinned);
		free(gtt);
		gti_teardown();
	}

	gemtest_subtest("counts-agree-across-files") {
		uint32_t batch, h[8];
		unsigned int i, in_lists = 0, unbound;
		char *f, *objs;
		static const char *const lists[] = {
			"i915_gem_active", "i915_gem_flushing", "i915_gem_inactive",
			"i915_gem_pinned",
		};

		gti_setup(16u << 20);
		batch = gti_make_batch();
		for (i = 0; i < 8; i++)
			h[i] = gti_create(4096 * (i + 1));
		gt_assert_eq(gti_exec(batch, h, 5, h[0]), 0);	/* 3 stay unbound */
		/* Each file is a snapshot of its own: read while the batch
		 * retires, an object counts in active and again in inactive. */
		gti_idle();
		for (i = 0; i < ARRAY_SIZE(lists); i++) {
			f = render(lists[i]);
			/* header + objects + footer */
			gt_assert_eq(count_lines(f), list_total(f) + 2);
			in_lists += list_total(f);
			free(f);
		}
		f = render("i915_gem_objects");
		gt_assert_eq(strtoul(f, NULL, 10), 10);
		{
			const char *l2 = strchr(f, '\n') + 1;

			gt_assert_eq(strtoul(l2, NULL, 10), in_lists);
		}
		objs = render("gemkit_objects");
		gt_assert_eq(count_lines(objs), 1 + 10);
		unbound = 0;
		for (const char *p = objs; (p = strstr(p, " list=unbound")); p++)
			unbound++;
		gt_assert_eq(unbound, 3);
		gt_assert_eq(in_lists + unbound, 10);
		free(f);
		f = render("i915_gem_gtt");
		gt_assert_eq(list_total(f), in_lists);
		free(f);
		free(objs);
		gti_teardown();
	}

	gemtest_subtest("active-request-and-batchbuffers") {
		uint32_t batch, a;
		char *active, *req, *bb, *seq, expect[512];
		struct gem_object *ob;

		/* 2 ms per command: the batch stays busy while we look. */
		gti_setup_cfg(16u << 20, 2000000);
		batch = gti_make_batch_n(200);
		a = gti_create(4096);
		gt_assert_eq(gti_exec(batch, &a, 1, 0), 0);
		ob = gti_obj(batch);
		active = render("i915_gem_active");
		req = render("i915_gem_request");
		bb = render("i915_batchbuffers");
		seq = render("i915_gem_seqno");
		gt_assert(strstr(active, " (render ring)\n"));
		gt_assert_eq(list_total(active), 2);
		kernel_describe(expect, sizeof(expect), ob, true, false);
		gt_assert_f(strstr(active, expect), "%s not in\n%s", expect, active);
		assert_line(req, 0, "Render requests:");
		gt_assert(!strncmp(strchr(req, '\n') + 1, "    1 @ ", 8));
		snprintf(expect, sizeof(expect), "--- gtt_offset = 0x%08x",
			 (unsigned int)ob->gtt_node.start);
		assert_line(bb, 0, expect);
		assert_line(bb, 1, "00000000 :  00000000");
		assert_line(bb, 201, "00000320 :  05000000");
		gt_assert_eq(count_lines(bb), 1 + 1024);
		assert_line(seq, 1, "Waiter sequence (render ring):  0");
		if (access("/usr/bin/intel_dump_decode", X_OK) == 0) {
			char path[] = "/tmp/gemkit-bb-XXXXXX", cmd[256];
			int fd = mkstemp(path);
			FILE *p;
			bool found = false;
			char line[512];

			gt_assert(fd >= 0);
			gt_assert_eq(write(fd, bb, strlen(bb)), (long)strlen(bb));
			close(fd);
			snprintf(cmd, sizeof(cmd), "intel_dump_decode -d 0x2772 %s 2>&1", path);
			p = popen(cmd, "r");
			gt_assert(p);
			while (fgets(line, sizeof(line), p))
				if (strstr(line, "0x00000320:      0x05000000: MI_BATCH_BUFFER_END"))
					found = true;
			pclose(p);
			unlink(path);
			gt_assert_f(found, "intel_dump_decode did not decode the batch");
		}
		free(active);
		free(req);
		free(bb);
		free(seq);
		gti_idle();
		req = render("i915_gem_request");
		gt_assert(!strcmp(req, "No requests\n"));
		free(req);
		gti_teardown();
	}

	gemtest_subtest("seqno-interrupt-hws-ring") {
		uint32_t batch;
		char *seq, *irq, *hws, *info, *data, expect[128];
		int i;

		gti_setup(16u << 20);
		batch = gti_make_batch();
		for (i = 0; i < 5; i++)
			gt_assert_eq(gti_exec(batch, NULL, 0, 0), 0);
		gti_idle();
		seq = render("i915_gem_seqno");
		gt_assert_eq(count_lines(seq), 3);
		assert_line(seq, 0, "Current sequence (render ring): 5");
		assert_line(seq, 1, "Waiter sequence (render ring):  0");
		assert_line(seq, 2, "IRQ sequence (render ring):     5");
		irq = render("i915_gem_interrupt");
		gt_assert_eq(count_lines(irq), 9);
		gt_assert(!strncmp(irq, "Interrupt enable:    ", 21));
		gt_assert(strstr(irq, "\nPipe A stat:         00000000\nPipe B stat:         00000000\n"));
		gt_assert(strstr(irq, "\nCurrent sequence (render ring): 5\n"));
		hws = render("i915_gem_hws");
		gt_assert_eq(count_lines(hws), 64);
		assert_line(hws, 8, "0x00000080: 0x00000005 0x00000000 0x00000000 0x00000000");
		info = render("i915_ringbuffer_info");
		assert_line(info, 0, "Ring render ring:");
		snprintf(expect, sizeof(expect), "  Tail :    %08x", gti_dev->ring_tail);
		assert_line(info, 2, expect);
		assert_line(info, 3, "  Size :    00020000");
		gt_assert_eq(count_lines(info), 8);
		data = render("i915_ringbuffer_data");
		gt_assert_eq(count_lines(data), GEM_RING_SIZE / 4);
		assert_line(data, 0, "00000000 :  18800080");	/* MI_BATCH_BUFFER_START */
		free(seq);
		free(irq);
		free(hws);
		free(info);
		free(data);
		gti_teardown();
	}

	gemtest_subtest("fence-regs") {
		struct drm_i915_gem_set_tiling st = { 0 };
		struct gem_object *obj;
		uint32_t batch, t;
		char *f, expect[600], want[700];

		gti_setup(16u << 20);
		batch = gti_make_batch();
		t = gti_create(256u << 10);
		st.handle = t;
		st.tiling_mode = I915_TILING_X;
		st.stride = 2048;
		gt_assert_eq(gti_ioctl(DRM_IOCTL_I915_GEM_SET_TILING, &st), 0);
		gt_assert_eq(gti_exec_flags(batch, &t, 1, 0, EXEC_OBJECT_NEEDS_FENCE), 0);
		gti_idle();
		obj = gti_obj(t);
		gt_assert(obj->fence_reg >= 0);
		f = render("i915_gem_fence_regs");
		gt_assert_eq(count_lines(f), 2 + 16);
		assert_line(f, 0, "Reserved fences = 0");
		assert_line(f, 1, "Total fences = 16");
		kernel_describe(expect, sizeof(expect), obj, false, false);
		gt_assert(strstr(expect, ":  X   262144 "));
		gt_assert(strstr(expect, " (fence: "));
		snprintf(want, sizeof(want), "Fenced object[%2d] = %s", obj->fence_reg, expect);
		assert_line(f, 2 + (unsigned int)obj->fence_reg, want);
		assert_line(f, obj->fence_reg == 0 ? 3 : 2,
			    obj->fence_reg == 0 ? "Fenced object[ 1] = unused" :
						  "Fenced object[ 0] = unused");
		assert_line(f, 17, "Fenced object[15] = unused");
		free(f);
		gti_teardown();
	}

	gemtest_subtest("gemkit-fences") {
		struct drm_i915_gem_set_tiling st = { 0 };
		struct drm_i915_gem_pin pin = { 0 };
		struct gem_object *obj;
		uint32_t batch, t;
		unsigned int i;
		char *f, want[200];

		gti_setup(16u << 20);
		batch = gti_make_batch();
		t = gti_create(256u << 10);
		st.handle = t;
		st.tiling_mode = I915_TILING_Y;
		st.stride = 1024;
		gt_assert_eq(gti_ioctl(DRM_IOCTL_I915_GEM_SET_TILING, &st), 0);
		gt_assert_eq(gti_exec_flags(batch, &t, 1, 0, EXEC_OBJECT_NEEDS_FENCE), 0);
		gti_idle();
		pin.handle = t;
		gt_assert_eq(gti_ioctl(DRM_IOCTL_I915_GEM_PIN, &pin), 0);
		obj = gti_obj(t);
		gt_assert(obj->fence_reg >= 0);
		f = render("gemkit_fences");
		gt_assert_eq(count_lines(f), 1 + 16);
		assert_line(f, 0, "schema=gemkit_fences version=1 count=16 "
			    "fields=index,obj,start,size,obj_size,pitch,tiling,pin");
		for (i = 0; i < 16; i++) {
			if ((int)i == obj->fence_reg)
				/* a fence covers a 1 MiB region at least */
				snprintf(want, sizeof(want), "index=%u obj=%u start=0x%08x "
					 "size=1048576 obj_size=262144 pitch=1024 tiling=y pin=1",
					 i, obj->id,
					 (unsigned int)obj->gtt_node.start);
			else
				snprintf(want, sizeof(want), "index=%u obj=0 start=0x00000000 "
					 "size=0 obj_size=0 pitch=0 tiling=none pin=0", i);
			assert_line(f, 1 + i, want);
		}
		free(f);
		gti_teardown();
	}

	gemtest_subtest("drop-caches") {
		struct drm_i915_gem_madvise madv = { 0 };
		uint32_t batch, a, junk;
		char *f;

		gti_setup(16u << 20);
		f = render("i915_gem_drop_caches");
		gt_assert(!strcmp(f, "0x000003ff\n"));
		free(f);
		batch = gti_make_batch();
		a = gti_create(8192);
		junk = gti_create(4096);
		gt_assert_eq(gti_exec(batch, &a, 1, 0), 0);
		/* IGT's gem_quiescent_gpu: ACTIVE | RETIRE | IDLE | FREED */
		gt_assert_eq(write_file("i915_gem_drop_caches", "0x5c\n"), 5);
		f = render("i915_gem_request");
		gt_assert(!strcmp(f, "No requests\n"));
		free(f);
		gt_assert(gem_object_bound(gti_obj(a)));
		/* DROP_BOUND: everything unpinned leaves the GTT */
		gt_assert_eq(write_file("i915_gem_drop_caches", "0x2"), 3);
		gt_assert(!gem_object_bound(gti_obj(a)));
		gt_assert(!gem_object_bound(gti_obj(batch)));
		f = render("i915_gem_objects");
		assert_line(f, 1, "1 [1] objects, 131072 [131072] bytes in gtt");
		free(f);
		/* DROP_UNBOUND: unbound purgeable objects lose their pages */
		memset(gti_obj(junk)->vaddr, 0x77, 4096);
		madv.handle = junk;
		madv.madv = I915_MADV_DONTNEED;
		gt_assert_eq(gti_ioctl(DRM_IOCTL_I915_GEM_MADVISE, &madv), 0);
		f = render("gemkit_objects");
		gt_assert(strstr(f, " madv=dontneed "));
		free(f);
		gt_assert_eq(write_file("i915_gem_drop_caches", "1"), 1);
		gt_assert_eq(gti_obj(junk)->madv, GEM_MADV_PURGED);
		gt_assert_eq(((uint8_t *)gti_obj(junk)->vaddr)[100], 0);
		gt_assert_eq(gti_obj(a)->madv, I915_MADV_WILLNEED);
		/* malformed and out-of-range masks */
		gt_assert_eq(write_file("i915_gem_drop_caches", "bogus"), -EINVAL);
		gt_assert_eq(write_file("i915_gem_drop_caches", "0x400"), -EINVAL);
		gt_assert_eq(write_file("i915_gem_drop_caches", ""), -EINVAL);
		gti_teardown();
	}

	gemtest_subtest("wedged-read-write") {
		uint32_t batch;
		char *f;

		gti_setup(16u << 20);
		batch = gti_make_batch();
		f = render("i915_wedged");
		gt_assert(!strcmp(f, "wedged :  0\n"));
		free(f);
		f = render("i915_error_state");
		gt_assert(!strcmp(f, "no error state collected\n"));
		free(f);
		/* As 3.x, a write forces error handling: a capture and a ring
		 * reset, after which the device carries on (issue 5). */
		gt_assert_eq(write_file("i915_wedged", "1\n"), 2);
		f = render("i915_wedged");
		gt_assert(!strcmp(f, "wedged :  0\n"));
		free(f);
		f = render("i915_error_state");
		gt_assert(!strncmp(f, "Time: ", 6));
		gt_assert(strstr(f, "\ngemd hang kind: wedged\n"));
		free(f);
		gt_assert_eq(gti_exec(batch, NULL, 0, 0), 0);
		/* Any write clears the capture. */
		gt_assert_eq(write_file("i915_error_state", "0"), 1);
		f = render("i915_error_state");
		gt_assert(!strcmp(f, "no error state collected\n"));
		free(f);
		gt_assert_eq(write_file("i915_wedged", "bogus"), -EINVAL);
		gt_assert_eq(write_file("i915_gem_objects", "1"), -EACCES);
		gt_assert_eq(write_file("no_such_file", "1"), -ENOENT);
		gti_teardown();
	}

	gemtest_subtest("name-and-capabilities") {
		char *f;

		gti_setup(16u << 20);
		f = render("name");
		gt_assert(!strcmp(f, "i915 dev=0000:00:02.0 unique=0000:00:02.0\n"));
		free(f);
		f = render("dri/0/i915_capabilities");
		assert_line(f, 0, "gen: 3");
		assert_line(f, 1, "is_mobile: no");
		gt_assert(strstr(f, "\nhas_overlay: yes\n"));
		assert_line(f, 19, "has_blt_ring: no");
		gt_assert_eq(count_lines(f), 20);
		free(f);
		gti_teardown();
	}

	gemtest_subtest("structured-objects-clients-gtt") {
		struct drm_gem_flink fl = { 0 };
		uint32_t batch, a;
		char *objs, *clients, *gtt, *counters, match[64], line[1024];
		struct gem_object *oa;

		gti_setup(16u << 20);
		batch = gti_make_batch();
		a = gti_create(8192);
		fl.handle = a;
		gt_assert_eq(gti_ioctl(DRM_IOCTL_GEM_FLINK, &fl), 0);
		gt_assert_eq(gti_exec(batch, &a, 1, a), 0);
		gti_idle();
		oa = gti_obj(a);
		objs = render("gemkit_objects");
		gt_assert(!strncmp(objs, "schema=gemkit_objects version=1 count=3 fields=id,size,", 55));
		snprintf(match, sizeof(match), "id=%u size=8192 ", oa->id);
		gt_assert_eq(record_value(objs, match, "gtt_offset"), (long long)oa->gtt_node.start);
		gt_assert(strstr(objs, " list=inactive gtt_offset="));
		gt_assert_eq(record_value(objs, match, "read"), 2);
		gt_assert_eq(record_value(objs, match, "write"), 0);
		gt_assert_eq(record_value(objs, match, "name"), fl.name);
		gt_assert_eq(record_value(objs, match, "binds"), 1);
		gt_assert_eq(record_value(objs, match, "last_write_seqno"), 1);
		gt_assert_eq(record_value(objs, match, "creator_pid"), 4242);
		snprintf(match, sizeof(match), " owners=%u:4242:test:%u\n", gti_file->id, a);
		gt_assert_f(strstr(objs, match), "no '%s'", match);
		clients = render("gemkit_clients");
		gt_assert(!strncmp(line_of(clients, 1, line, sizeof(line)),
				   "file=1 pid=4242 comm=test handles=2 handle_bytes=12288 "
				   "bound_bytes=12288 requests=0 engine_render_ns=", 91));
		/* the usage figures (fdinfo.def) that do not depend on timing */
		gt_assert_eq(record_value(clients, "file=1 ", "total_bytes"), 12288);
		gt_assert_eq(record_value(clients, "file=1 ", "resident_bytes"), 12288);
		gt_assert_eq(record_value(clients, "file=1 ", "purgeable_bytes"), 0);
		gt_assert_eq(record_value(clients, "file=1 ", "active_bytes"), 0);
		gt_assert_eq(record_value(clients, "file=1 ", "ioctls"), 4);
		gt_assert_eq(record_value(clients, "file=1 ", "execbuffers"), 1);
		gt_assert_eq(record_value(clients, "file=1 ", "relocations"), 0);
		gt_assert_eq(record_value(clients, "file=1 ", "evictions_caused"), 0);
		gt_assert(record_value(clients, "file=1 ", "cpu_ns") > 0);
		gt_assert(record_value(clients, "file=1 ", "cpu_mm_ns") > 0);
		gt_assert(record_value(clients, "file=1 ", "engine_render_ns") > 0);
		gtt = render("gemkit_gtt");
		gt_assert_eq(record_value(gtt, "kind=summary total=", "used"), 131072 + 4096 + 8192);
		gt_assert_eq(record_value(gtt, "kind=summary total=", "pinned"), 131072);
		gt_assert_eq(record_value(gtt, "kind=summary total=", "ranges"), 3);
		gt_assert_eq(record_value(gtt, "kind=summary total=", "free"),
			     (16u << 20) - 131072 - 4096 - 8192);
		counters = render("gemkit_counters");
		gt_assert_eq(record_value(counters, "execbuffers=", "execbuffers"), 1);
		gt_assert_eq(record_value(counters, "execbuffers=", "binds"), 3);
		gt_assert_eq(record_value(counters, "execbuffers=", "objects"), 3);
		free(objs);
		free(clients);
		free(gtt);
		free(counters);
		gti_teardown();
	}

	gemtest_subtest("event-log-order-and-incremental") {
		uint32_t batch, a;
		char *ev, *ev2, name[128];
		long long next, last_seq = 0;
		const char *p;

		gti_setup(16u << 20);
		batch = gti_make_batch();
		a = gti_create(8192);
		gt_assert_eq(gti_exec(batch, &a, 1, a), 0);
		gti_idle();
		ev = render("gemkit_events");
		gt_assert(!strncmp(ev, "schema=gemkit_events version=1 first_seq=1 ", 43));
		next = record_value(ev, "schema=", "next_seq");
		gt_assert_eq(record_value(ev, "schema=", "count"), next - 1);
		/* sequence numbers strictly increase, timestamps never go back */
		for (p = strstr(ev, "\nseq="); p; p = strstr(p + 1, "\nseq=")) {
			long long s = strtoll(p + 5, NULL, 10);

			gt_assert_eq(s, last_seq + 1);
			last_seq = s;
		}
		gt_assert_eq(last_seq, next - 1);
		/* the ring's bind, then the exec: binds, domains, submit, wait, retire */
		gt_assert(strstr(ev, " type=bind obj=1 offset=0x"));
		{
			const char *bind_a, *dom_a, *submit, *retire;

			snprintf(name, sizeof(name), " type=bind obj=%u ", gti_obj(a)->id);
			bind_a = strstr(ev, name);
			snprintf(name, sizeof(name), " type=domain obj=%u old_read=0x01 "
				 "old_write=0x01 read=0x02 write=0x02", gti_obj(a)->id);
			dom_a = strstr(ev, name);
			submit = strstr(ev, " type=submit seqno=1 file=1\n");
			retire = strstr(ev, " type=retire seqno=1\n");
			gt_assert_f(bind_a && dom_a && submit && retire, "events:\n%s", ev);
			gt_assert(bind_a < dom_a && dom_a < submit && submit < retire);
		}
		/* incremental: nothing new yet, then only the new events */
		snprintf(name, sizeof(name), "gemkit_events.since.%lld", next - 1);
		ev2 = render(name);
		gt_assert_eq(count_lines(ev2), 1);
		gt_assert_eq(record_value(ev2, "schema=", "dropped"), 0);
		free(ev2);
		gt_assert_eq(write_file("i915_gem_drop_caches", "0x2"), 3);
		ev2 = render(name);
		gt_assert(count_lines(ev2) >= 3);
		snprintf(name, sizeof(name), "\nseq=%lld ", next);
		gt_assert(strstr(ev2, name));
		gt_assert(strstr(ev2, " type=unbind obj="));
		gt_assert(strstr(ev2, " type=evict obj="));
		gt_assert(!strstr(ev2, " type=submit"));
		free(ev2);
		free(ev);
		gti_teardown();
	}

	gemtest_subtest("raw-object-and-aperture") {
		struct strbuf sb = STRBUF_INIT;
		uint32_t batch, a;
		struct gem_object *oa;
		char name[64];
		uint64_t off;

		gti_setup(16u << 20);
		batch = gti_make_batch();
		a = gti_create(8192);
		oa = gti_obj(a);
		gt_fill_pattern(oa->vaddr, 8192, 7);
		snprintf(name, sizeof(name), "gemkit_object_data/%u", oa->id);
		gt_assert_eq(gem_debugfs_read(gti_dev, name, &sb), 0);
		gt_assert_eq(sb.len, 8192);
		gt_assert(!memcmp(sb.buf, oa->vaddr, 8192));
		strbuf_release(&sb);
		gt_assert_eq(gem_debugfs_read_range(gti_dev, name, 4096, 100, &sb), 0);
		gt_assert_eq(sb.len, 100);
		gt_assert(!memcmp(sb.buf, oa->vaddr + 4096, 100));
		strbuf_release(&sb);
		gt_assert_eq(gem_debugfs_read_range(gti_dev, "name", 5, 100, &sb), 0);
		gt_assert(!strcmp(sb.buf, "dev=0000:00:02.0 unique=0000:00:02.0\n"));
		strbuf_release(&sb);
		gt_assert_eq(gem_debugfs_read(gti_dev, "gemkit_object_data/999999", &sb), -ENOENT);
		gt_assert_eq(gem_debugfs_read(gti_dev, "gemkit_object_data/x", &sb), -ENOENT);
		gt_assert_eq(gti_exec(batch, &a, 1, 0), 0);
		gti_idle();
		off = oa->gtt_node.start;
		{
			uint8_t buf[8192];

			gt_assert_eq(debugfs_aperture_read(gti_dev, buf, sizeof(buf), off, NULL), 8192);
			gt_assert(!memcmp(buf, oa->vaddr, 8192));
			/* an unbound page reads as zeros */
			gt_assert_eq(debugfs_aperture_read(gti_dev, buf, 4096, (15u << 20), NULL), 4096);
			gt_assert_eq(buf[0] | buf[4095], 0);
		}
		gti_teardown();
	}

	gemtest_subtest("fuse-round-trip") {
		char dir[] = "/tmp/gemkit-dfs-XXXXXX", path[256], sincebuf[512];
		struct gem_debugfs *dfs = NULL;
		uint32_t batch, a;
		unsigned int i;
		int ret, fd;
		struct stat st;

		if (!fuse_available())
			gemtest_skip("no usable /dev/fuse");
		gti_setup(16u << 20);
		batch = gti_make_batch();
		a = gti_create(8192);
		gt_assert_eq(gti_exec(batch, &a, 1, a), 0);
		gti_idle();
		gt_assert(mkdtemp(dir));
		ret = gem_debugfs_start(gti_dev, dir, &dfs);
		if (ret == -ENODEV) {
			gti_teardown();
			rmdir(dir);
			gemtest_skip("FUSE mount not permitted here");
		}
		gt_assert_eq(ret, 0);
		/* byte-identical with the socket path for every stable file */
		for (i = 0; i < debugfs_nfiles; i++) {
			const char *name = debugfs_files[i].name;
			char *via_fuse, *direct;

			/* Not stable: times, and gemd's CPU time and descriptors. */
			if (!debugfs_is_text(&debugfs_files[i]) || !strcmp(name, "gemkit_counters") ||
			    !strcmp(name, GDFS_FILE_METRICS) || !strcmp(name, GDFS_FILE_OPENMETRICS))
				continue;
			snprintf(path, sizeof(path), "%s/dri/0/%s", dir, name);
			via_fuse = read_path(path);
			direct = render(name);
			gt_assert_f(!strcmp(via_fuse, direct), "%s differs via FUSE", name);
			free(via_fuse);
			free(direct);
		}
		/* a write through FUSE (IGT opens O_WRONLY and writes "0x...") */
		snprintf(path, sizeof(path), "%s/dri/0/i915_gem_drop_caches", dir);
		fd = open(path, O_WRONLY);
		gt_assert(fd >= 0);
		gt_assert_eq(write(fd, "0x1ff", 5), 5);
		close(fd);
		gt_assert(!gem_object_bound(gti_obj(a)));
		snprintf(path, sizeof(path), "%s/dri/0/i915_gem_objects", dir);
		fd = open(path, O_WRONLY);
		gt_assert_eq(fd, -1);
		gt_assert_eq(errno, EACCES);
		/* "since N" on an open gemkit_events */
		snprintf(path, sizeof(path), "%s/dri/0/gemkit_events", dir);
		fd = open(path, O_RDWR);
		gt_assert(fd >= 0);
		gt_assert_eq(write(fd, "since 1000000", 13), 13);
		{
			ssize_t n = pread(fd, sincebuf, sizeof(sincebuf) - 1, 0);

			gt_assert(n > 0);
			sincebuf[n] = '\0';
			gt_assert(strstr(sincebuf, " since=1000000 "));
			gt_assert_eq(count_lines(sincebuf), 1);
		}
		gt_assert_eq(write(fd, "since x", 7), -1);
		close(fd);
		/* raw object data */
		snprintf(path, sizeof(path), "%s/dri/0/gemkit_object_data/%u", dir, gti_obj(a)->id);
		gt_assert_eq(stat(path, &st), 0);
		gt_assert_eq(st.st_size, 8192);
		{
			char *data = read_path(path);

			gt_assert(!memcmp(data, gti_obj(a)->vaddr, 8192));
			free(data);
		}
		gem_debugfs_stop(dfs);
		snprintf(path, sizeof(path), "%s/dri", dir);
		gt_assert_eq(stat(path, &st), -1);	/* unmounted */
		gt_assert_eq(rmdir(dir), 0);
		gti_teardown();
	}

	/* 100,000 objects: every one is listed.  The timings against their
	 * floors are tests/bench/debugfs-bench.c's. */
	gemtest_subtest("generation-100k-objects") {
		struct strbuf sb = STRBUF_INIT;
		unsigned int i, n = 100000;

		gti_setup(256u << 20);
		for (i = 0; i < n; i++)
			(void)gti_create(4096);
		gt_assert_eq(gem_debugfs_read(gti_dev, "gemkit_objects", &sb), 0);
		gt_assert_eq(count_lines(sb.buf), n + 2);
		strbuf_release(&sb);
		gti_teardown();
	}

	return gemtest_exit();
}
