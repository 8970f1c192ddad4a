/*
 * gem_debugfs_reader: driver -> debugfs -> libgemdebugfs, end to end,
 * against a private gemd with its FUSE mount.  Known operations (create,
 * flink, madvise, exec, eviction) are read back through both sources --
 * the mount and the socket fallback -- and parsed to exact values; the two
 * sources return the same bytes; a saved copy reads like the live tree;
 * intel_dump_decode decodes i915_batchbuffers while a batch runs.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemdebugfs.h"
#include "gemtest.h"
#include "gemtest-batch.h"
#include "gemtest-dfs.h"
#include "libgem.h"
#include "strbuf.h"
#include "util.h"

#define APERTURE	(4u << 20)

static struct gdfs *fuse_src, *sock_src;

/* Read and parse gemkit_objects from src. */
static void read_objects(struct gdfs *src, struct gdfs_objects *objs)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;

	gt_assert_eq(gdfs_read(src, "gemkit_objects", &sb), 0);
	gt_assert_f(gdfs_parse_objects(sb.buf, sb.len, objs, &err) == 0, "%s", err.buf);
	strbuf_release(&sb);
	strbuf_release(&err);
}

/* The object this process holds as handle h. */
static const struct gdfs_object *mine(const struct gdfs_objects *objs, uint32_t h)
{
	size_t i, k;

	for (i = 0; i < objs->n; i++)
		for (k = 0; k < objs->v[i].nowners; k++)
			if (objs->v[i].owners[k].pid == getpid() &&
			    objs->v[i].owners[k].handle == h)
				return &objs->v[i];
	return NULL;
}

static uint32_t flink(int fd, uint32_t h)
{
	struct drm_gem_flink f = { .handle = h };

	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_GEM_FLINK, &f), 0);
	return f.name;
}

/* Written first: an object without pages would be purged at once. */
static void madvise_dontneed(int fd, uint32_t h)
{
	struct drm_i915_gem_madvise m = { .handle = h, .madv = I915_MADV_DONTNEED };
	uint32_t v = 1;

	gt_write(fd, h, 0, &v, sizeof(v));
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_MADVISE, &m), 0);
}

/* A batch storing value into target at 0; returns when it retired. */
static void store(int fd, uint32_t target, uint32_t value)
{
	uint32_t batch = gt_create(fd, 4096);
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, target, 0, value);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, NULL), 0);
	gt_sync(fd, target);
	gt_close(fd, batch);
}

static void test_objects(int fd)
{
	uint32_t a = gt_create(fd, 4096), b = gt_create(fd, 8192), c = gt_create(fd, 65536);
	uint32_t name = flink(fd, b);
	struct gdfs_objects objs;
	const struct gdfs_object *o;
	struct gdfs *srcs[2] = { fuse_src, sock_src };
	int s;

	madvise_dontneed(fd, c);
	for (s = 0; s < 2; s++) {
		read_objects(srcs[s], &objs);
		o = mine(&objs, a);
		gt_assert(o);
		gt_assert_eq(o->size, 4096);
		gt_assert_eq(o->list, GDFS_LIST_UNBOUND);
		gt_assert_eq(o->gtt_size, 0);
		gt_assert_eq(o->name, 0);
		gt_assert_eq(o->handles, 1);
		gt_assert_eq(o->creator_pid, getpid());
		gt_assert_eq(o->madv, GDFS_MADV_WILLNEED);
		gt_assert_eq(o->nowners, 1);
		gt_assert(!strcmp(o->owners[0].comm, "gem_debugfs_rea"));
		o = mine(&objs, b);
		gt_assert(o && o->size == 8192 && o->name == name);
		o = mine(&objs, c);
		gt_assert(o && o->size == 65536 && o->madv == GDFS_MADV_DONTNEED);
		gdfs_objects_release(&objs);
	}
	gt_close(fd, a);
	gt_close(fd, b);
	gt_close(fd, c);
}

/* An exec binds, writes and retires; every file agrees on it. */
static void test_exec(int fd)
{
	uint32_t target = gt_create(fd, 4096);
	uint64_t execs = gt_dfs_counter(sock_src, "execbuffers");
	uint64_t relocs = gt_dfs_counter(sock_src, "relocations");
	struct strbuf sb = STRBUF_INIT;
	struct gdfs_objects objs;
	const struct gdfs_object *o;
	const struct gdfs_gtt_range *r;
	struct gdfs_gtt gtt;
	struct gdfs_ring ring;
	struct gdfs_era_obj era;
	char *line, *nl;
	size_t inactive = 0, era_inactive = 0, i;

	store(fd, target, 0xc0ffee);
	gt_assert_eq(gt_dfs_counter(fuse_src, "execbuffers"), execs + 1);
	gt_assert_eq(gt_dfs_counter(fuse_src, "relocations"), relocs + 1);

	read_objects(fuse_src, &objs);
	o = mine(&objs, target);
	gt_assert(o);
	gt_assert_eq(o->list, GDFS_LIST_INACTIVE);
	gt_assert_eq(o->gtt_size, 4096);
	gt_assert_eq(o->binds, 1);
	gt_assert(!o->active);
	gt_assert(o->last_write_seqno > 0);

	gt_assert_eq(gdfs_read(fuse_src, "gemkit_ring", &sb), 0);
	gt_assert_eq(gdfs_parse_ring(sb.buf, sb.len, &ring, NULL), 0);
	gt_assert_eq(ring.completed_seqno, ring.emitted_seqno);
	gt_assert_eq(o->last_write_seqno, ring.emitted_seqno);
	gt_assert_eq(ring.nrequests, 0);
	gdfs_ring_release(&ring);

	strbuf_reset(&sb);
	gt_assert_eq(gdfs_read(fuse_src, "gemkit_gtt", &sb), 0);
	gt_assert_eq(gdfs_parse_gtt(sb.buf, sb.len, &gtt, NULL), 0);
	r = gdfs_gtt_lookup(&gtt, o->gtt_offset + 100);
	gt_assert(r && !r->hole && r->obj == o->id && r->list == GDFS_LIST_INACTIVE);
	gt_assert_eq(gtt.total, APERTURE);
	gt_assert_eq(gtt.used + gtt.free, gtt.total);
	gdfs_gtt_release(&gtt);

	/* The era list holds exactly the inactive objects, by id. */
	strbuf_reset(&sb);
	gt_assert_eq(gdfs_read(fuse_src, "i915_gem_inactive", &sb), 0);
	for (line = sb.buf; (nl = strchr(line, '\n')); line = nl + 1) {
		if (gdfs_parse_era_obj(line, (size_t)(nl - line), &era))
			continue;	/* the header and the total */
		o = gdfs_objects_find(&objs, gdfs_era_obj_id(era.ptr));
		gt_assert_f(o && o->list == GDFS_LIST_INACTIVE, "era line %.40s", line);
		gt_assert_eq(era.size, o->size);
		gt_assert_eq(era.gtt_offset, o->gtt_offset);
		era_inactive++;
	}
	for (i = 0; i < objs.n; i++)
		inactive += objs.v[i].list == GDFS_LIST_INACTIVE;
	gt_assert_eq(era_inactive, inactive);
	gt_assert(inactive >= 1);

	/* gemkit_counters' per-list totals agree with the records. */
	{
		static const char *const lists[] = {
			"unbound", "inactive", "active", "flushing", "pinned",
		};
		char key[32];
		int l;

		for (l = 0; l < GDFS_LIST_COUNT; l++) {
			uint64_t count = 0, bytes = 0;

			for (i = 0; i < objs.n; i++)
				if (objs.v[i].list == (enum gdfs_list)l) {
					count++;
					bytes += objs.v[i].size;
				}
			snprintf(key, sizeof(key), "%s_objects", lists[l]);
			gt_assert_eq(gt_dfs_counter(fuse_src, key), count);
			snprintf(key, sizeof(key), "%s_bytes", lists[l]);
			gt_assert_eq(gt_dfs_counter(fuse_src, key), bytes);
		}
	}

	/* i915_gem_objects' total agrees with the record count. */
	strbuf_reset(&sb);
	gt_assert_eq(gdfs_read(fuse_src, "i915_gem_objects", &sb), 0);
	gt_assert_eq(strtoul(sb.buf, NULL, 10), objs.n);
	gdfs_objects_release(&objs);
	strbuf_release(&sb);
	gt_close(fd, target);
}

/* Eviction: per-object evict counts add up to the driver's counter, and
 * the event log holds one evict per eviction, in order. */
static void test_evict(int fd)
{
	enum { N = 8 };
	uint32_t h[N];
	uint64_t evictions0 = gt_dfs_counter(fuse_src, "evictions"), evictions, sum = 0;
	uint64_t since, nevict = 0;
	struct gdfs_events ev;
	struct gdfs_objects objs;
	const struct gdfs_object *o;
	int i;
	size_t k;

	gt_assert_eq(gdfs_read_events(fuse_src, 0, &ev, NULL), 0);
	since = ev.next_seq - 1;
	gdfs_events_release(&ev);
	/* 8 x 1 MiB through a 4 MiB aperture. */
	for (i = 0; i < N; i++) {
		h[i] = gt_create(fd, 1u << 20);
		store(fd, h[i], (uint32_t)i);
	}
	evictions = gt_dfs_counter(fuse_src, "evictions") - evictions0;
	gt_assert(evictions >= N - 3);
	read_objects(sock_src, &objs);
	for (i = 0; i < N; i++) {
		o = mine(&objs, h[i]);
		gt_assert(o);
		sum += o->evicts;
	}
	gdfs_objects_release(&objs);
	gt_assert_eq(sum, evictions);

	gt_assert_eq(gdfs_read_events(sock_src, since, &ev, NULL), 0);
	gt_assert_eq(ev.since, since);
	gt_assert_eq(ev.dropped, 0);
	gt_assert(ev.n > 0);
	gt_assert_eq(ev.v[0].seq, since + 1);
	for (k = 0; k < ev.n; k++) {
		if (k)
			gt_assert_eq(ev.v[k].seq, ev.v[k - 1].seq + 1);
		if (k)
			gt_assert(ev.v[k].ts_ns >= ev.v[k - 1].ts_ns);
		if (ev.v[k].type == GDFS_EV_EVICT) {
			/* right after its unbind and the move to the CPU domain */
			gt_assert(k > 1 && ev.v[k - 2].type == GDFS_EV_UNBIND &&
				  ev.v[k - 2].obj == ev.v[k].obj &&
				  ev.v[k - 1].type == GDFS_EV_DOMAIN &&
				  ev.v[k - 1].obj == ev.v[k].obj);
			nevict++;
		}
	}
	gt_assert_eq(ev.v[ev.n - 1].seq, ev.next_seq - 1);
	gt_assert_eq(nevict, evictions);
	gdfs_events_release(&ev);
	for (i = 0; i < N; i++)
		gt_close(fd, h[i]);
}

static bool time_dependent(const char *name)
{
	/* (and the two directories) */
	/* (the metrics: times, and gemd's own CPU time and descriptors) */
	return !strcmp(name, "gemkit_counters") || !strcmp(name, "gemkit_aperture") ||
	       !strcmp(name, GDFS_FILE_METRICS) || !strcmp(name, GDFS_FILE_OPENMETRICS) ||
	       !strcmp(name, "gemkit_object_data") || !strcmp(name, "i915_params") ||
	       !strcmp(name, "gemkit_errors");
}

/* Idle, the mount and the socket give the same bytes for every file. */
static void test_socket_identical(int fd)
{
	struct strbuf names = STRBUF_INIT, fuse_names = STRBUF_INIT;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	uint32_t h = gt_create(fd, 8192);
	uint8_t *pattern = gt_upload_pattern(fd, h, 8192, 7);
	struct gdfs_objects objs;
	const struct gdfs_object *o;
	char *name, *nl, path[64];
	unsigned int compared = 0;

	store(fd, h, 0x5a5a5a5a);
	memcpy(pattern, "\x5a\x5a\x5a\x5a", 4);
	gt_assert_eq(gdfs_list(fuse_src, &fuse_names), 0);
	gt_assert_eq(gdfs_list(sock_src, &names), 0);
	gt_assert_eq(fuse_names.len, names.len);
	for (name = names.buf; (nl = strchr(name, '\n')); name = nl + 1) {
		*nl = '\0';
		gt_assert_f(strstr(fuse_names.buf, name), "%s missing from the mount", name);
		if (time_dependent(name))
			continue;
		strbuf_reset(&a);
		strbuf_reset(&b);
		gt_assert_eq(gdfs_read(fuse_src, name, &a), 0);
		gt_assert_eq(gdfs_read(sock_src, name, &b), 0);
		gt_assert_f(a.len == b.len && !memcmp(a.buf, b.buf, a.len),
			    "%s: %zu bytes through FUSE, %zu through the socket", name,
			    a.len, b.len);
		compared++;
	}
	gt_assert(compared >= 25);

	/* Raw object data: the same bytes, which are the object's. */
	read_objects(sock_src, &objs);
	o = mine(&objs, h);
	gt_assert(o);
	snprintf(path, sizeof(path), "gemkit_object_data/%u", o->id);
	gdfs_objects_release(&objs);
	strbuf_reset(&a);
	strbuf_reset(&b);
	gt_assert_eq(gdfs_read_range(fuse_src, path, 0, 8192, &a), 0);
	gt_assert_eq(gdfs_read_range(sock_src, path, 0, 8192, &b), 0);
	gt_assert_eq(a.len, 8192);
	gt_assert_eq(b.len, 8192);
	gt_assert(!memcmp(a.buf, pattern, 8192));
	gt_assert(!memcmp(b.buf, pattern, 8192));
	strbuf_reset(&b);
	gt_assert_eq(gdfs_read_range(sock_src, path, 8000, 4096, &b), 0);
	gt_assert_eq(b.len, 192);	/* short at EOF */
	gt_assert_errno(gdfs_read(sock_src, "no_such_file", &b), ENOENT);
	gt_assert_errno(gdfs_read(fuse_src, "no_such_file", &b), ENOENT);
	gt_assert_errno(gdfs_write(sock_src, "name", "x", 1), EACCES);
	free(pattern);
	gt_close(fd, h);
	strbuf_release(&names);
	strbuf_release(&fuse_names);
	strbuf_release(&a);
	strbuf_release(&b);
}

/* A kept-open file read again from 0 shows the driver as it is now. */
static void test_sampling(int fd)
{
	struct gdfs_objects objs;
	size_t before;
	uint32_t h;

	read_objects(fuse_src, &objs);
	before = objs.n;
	gdfs_objects_release(&objs);
	h = gt_create(fd, 4096);
	read_objects(fuse_src, &objs);
	gt_assert_eq(objs.n, before + 1);
	gt_assert(mine(&objs, h));
	gdfs_objects_release(&objs);
	gt_close(fd, h);
	read_objects(fuse_src, &objs);
	gt_assert_eq(objs.n, before);
	gdfs_objects_release(&objs);
}

/* drop_caches through each source: BOUND unbinds every unpinned object. */
static void test_drop_caches(int fd)
{
	struct gdfs *srcs[2] = { fuse_src, sock_src };
	struct gdfs_objects objs;
	uint32_t h = gt_create(fd, 4096);
	size_t i;
	int s;

	for (s = 0; s < 2; s++) {
		store(fd, h, 1);
		gt_assert_eq(gdfs_write(srcs[s], "i915_gem_drop_caches", "0x2", 3), 3);
		read_objects(srcs[s], &objs);
		for (i = 0; i < objs.n; i++)
			if (!objs.v[i].pin)
				gt_assert_f(objs.v[i].gtt_size == 0, "object %u still bound",
					    objs.v[i].id);
		gt_assert_eq(mine(&objs, h)->list, GDFS_LIST_UNBOUND);
		gdfs_objects_release(&objs);
		gt_assert_errno(gdfs_write(srcs[s], "i915_gem_drop_caches", "junk", 4), EINVAL);
	}
	gt_close(fd, h);
}

/* A saved copy reads like the live tree. */
static void test_save(int fd)
{
	char dir[512];
	struct strbuf live = STRBUF_INIT, saved = STRBUF_INIT;
	struct gdfs *copy;
	struct gdfs_objects objs;
	unsigned int skipped = 99;
	uint32_t h = gt_create(fd, 4096);
	int n;

	snprintf(dir, sizeof(dir), "%s/saved", gemtest_tmpdir());
	n = gdfs_save(sock_src, dir, true, &skipped);
	gt_assert_f(n >= 28, "saved %d files", n);
	gt_assert_eq(skipped, 0);
	gt_assert_eq(gdfs_open_dir(dir, &copy), 0);
	gt_assert_eq(gdfs_kind(copy), GDFS_DIR);
	gt_assert_eq(gdfs_read(copy, "gemkit_objects", &saved), 0);
	gt_assert_eq(gdfs_read(sock_src, "gemkit_objects", &live), 0);
	gt_assert(saved.len == live.len && !memcmp(saved.buf, live.buf, live.len));
	read_objects(copy, &objs);
	gt_assert(mine(&objs, h));
	gdfs_objects_release(&objs);
	strbuf_reset(&saved);
	gt_assert_eq(gdfs_read(copy, "name", &saved), 0);
	gt_assert(!strcmp(saved.buf, "i915 dev=0000:00:02.0 unique=0000:00:02.0\n"));
	gdfs_close(copy);
	/* dri/0 itself and the root both open the same tree */
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/dri/0");
	gt_assert_eq(gdfs_open_dir(dir, &copy), 0);
	gdfs_close(copy);
	gt_assert_errno(gdfs_open_dir("/nonexistent-gemkit", &copy), ENOENT);
	gt_close(fd, h);
	strbuf_release(&live);
	strbuf_release(&saved);
}

/*
 * Run intel_dump_decode -d 0x2772 on text; every string of want must
 * appear in its output, and no line may be ignored but a buffer header.
 */
static void peer_decodes(const struct strbuf *text, const char *what,
			 const char *const *want)
{
	char file[512], cmd[1200], line[512];
	struct strbuf output = STRBUF_INIT;
	FILE *f;
	int i;

	snprintf(file, sizeof(file), "%s/%s.txt", gemtest_tmpdir(), what);
	f = fopen(file, "w");
	gt_assert(f);
	gt_assert_eq(fwrite(text->buf, 1, text->len, f), text->len);
	gt_assert_eq(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "intel_dump_decode -d 0x2772 %s 2>&1", file);
	f = popen(cmd, "r");
	gt_assert(f);
	while (fgets(line, sizeof(line), f)) {
		gt_assert_f(!strstr(line, "ignoring line") || strstr(line, "gtt_offset"),
			    "%s: %s", what, line);
		strbuf_addstr(&output, line);
	}
	gt_assert_eq(WEXITSTATUS(pclose(f)), 0);
	for (i = 0; want[i]; i++)
		gt_assert_f(output.buf && strstr(output.buf, want[i]),
			    "%s: no %s in the decode of:\n%.2000s", what, want[i], text->buf);
	strbuf_release(&output);
}

/* intel_dump_decode, the real peer, decodes i915_batchbuffers mid-batch,
 * and the ring that started it. */
static void test_peer_decode(int fd)
{
	static const char *const batch_cmds[] = {
		"MI_STORE_DATA_IMM", "MI_BATCH_BUFFER_START", NULL,
	};
	static const char *const ring_cmds[] = {
		"MI_BATCH_BUFFER_START", "MI_FLUSH", "MI_STORE_DATA_INDEX",
		"MI_USER_INTERRUPT", NULL,
	};
	uint32_t batch = gt_create(fd, 4096), target = gt_create(fd, 4096);
	struct strbuf bb = STRBUF_INIT, ring = STRBUF_INIT;
	struct gen3_batch b;
	uint32_t *map;

	if (access("/usr/bin/intel_dump_decode", X_OK))
		gemtest_skip("intel_dump_decode is not installed (intel-gpu-tools)");
	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, target, 0, 0x1234);
	gen3_batch_pad_to(&b, 8);
	gen3_emit_spin(&b, batch);	/* loops at dword 8 */
	gen3_batch_pad_to(&b, GEN3_SPIN_TAIL / 4);
	gen3_batch_end(&b);
	map = gt_mmap_gtt(fd, batch, 4096);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, NULL), 0);
	gt_assert_eq(gt_spin_watchdog(fd, batch, 10000), 0);
	gt_assert(gt_busy(fd, batch));
	gt_assert_eq(gdfs_read(fuse_src, "i915_batchbuffers", &bb), 0);
	gt_assert_eq(gdfs_read(fuse_src, "i915_ringbuffer_data", &ring), 0);
	__atomic_store_n(&map[8], MI_BATCH_BUFFER_END, __ATOMIC_SEQ_CST);
	gt_sync(fd, batch);

	peer_decodes(&bb, "i915_batchbuffers", batch_cmds);
	peer_decodes(&ring, "i915_ringbuffer_data", ring_cmds);
	munmap(map, 4096);
	gt_close(fd, batch);
	gt_close(fd, target);
	strbuf_release(&bb);
	strbuf_release(&ring);
}

int main(int argc, char **argv)
{
	char dfs[512], aperture[16];
	const char *args[] = { "--debugfs", dfs, "--aperture", aperture, NULL };
	struct gdfs *auto_src;
	int fd;

	gemtest_init(argc, argv);
	snprintf(dfs, sizeof(dfs), "%s/debugfs", gemtest_tmpdir());
	snprintf(aperture, sizeof(aperture), "%uM", APERTURE >> 20);
	gemtest_start_gemd(args);
	/* Only a machine without FUSE skips: gemtest_start_gemd waited for
	 * the mount wherever there is one to make. */
	if (!fuse_available())
		gemtest_skip("no /dev/fuse here: gemd cannot mount its debugfs");
	gt_assert_eq(gdfs_open_dir(dfs, &fuse_src), 0);
	gt_assert_eq(gdfs_open_socket(NULL, &sock_src), 0);
	gt_assert_eq(gdfs_kind(sock_src), GDFS_SOCKET);
	/* By default a tool takes the live mount next to the socket. */
	gt_assert_eq(gdfs_open_auto(NULL, NULL, &auto_src), 0);
	gt_assert_eq(gdfs_kind(auto_src), GDFS_DIR);
	gdfs_close(auto_src);
	gt_assert(strstr(gdfs_describe(sock_src), "socket "));
	fd = gt_open();

	gemtest_subtest("objects-through-both-sources")
		test_objects(fd);
	gemtest_subtest("exec-binds-and-files-agree")
		test_exec(fd);
	gemtest_subtest("evictions-counted-and-logged")
		test_evict(fd);
	gemtest_subtest("socket-fallback-byte-identical")
		test_socket_identical(fd);
	gemtest_subtest("kept-open-file-resamples")
		test_sampling(fd);
	gemtest_subtest("drop-caches-through-both-sources")
		test_drop_caches(fd);
	gemtest_subtest("save-and-read-offline")
		test_save(fd);
	gemtest_subtest("intel_dump_decode-reads-batchbuffers-and-ring")
		test_peer_decode(fd);

	gem_close(fd);
	gdfs_close(fuse_src);
	gdfs_close(sock_src);
	return gemtest_exit();
}
