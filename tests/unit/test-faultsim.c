/*
 * Allocation failure, walked (SQLite's "sqlite3_memdebug_fail N" loops):
 * for each path a client can take — create (and each table and arena it
 * may have to grow), execbuffer with relocations (both interfaces), flink,
 * open, a new file, the mmap paths — fail the 1st, 2nd, 3rd ... allocation
 * the driver makes until the operation succeeds, and at each N check that
 * the ioctl returned exactly -ENOMEM, that nothing was left behind (the
 * counts, the descriptors, and in the sanitized build LeakSanitizer at
 * exit), that gem_verify_state finds the state consistent, and that the
 * driver still creates, executes and closes afterwards.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "gem_priv.h"
#include "gemtest-inproc.h"
#include "gemtest.h"

#define MI_BATCH_BUFFER_END	0x05000000
#define WALK_MAX		64	/* no path allocates more often */

/* What a failed ioctl must leave as it found it. */
struct counts {
	uint64_t objects, object_bytes, pinned_bytes;
	uint64_t list_count[GEM_LIST_COUNT];
	uint32_t arenas, names, handles, files, fds;
	uint64_t quarantine;
	bool requests;
};

static uint32_t open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	uint32_t n = 0;

	gt_assert(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void take_counts(struct counts *c)
{
	struct gem_device *dev = gti_dev;
	struct gem_file *file;

	memset(c, 0, sizeof(*c));
	gem_lock(dev);
	gt_assert_eq(gem_verify_state(dev), 0);
	c->objects = dev->object_count;
	c->object_bytes = dev->object_bytes;
	c->pinned_bytes = dev->pinned_bytes;
	memcpy(c->list_count, dev->list_count, sizeof(c->list_count));
	c->arenas = dev->arena_ids.count;
	c->names = dev->names.count;
	c->quarantine = dev->quarantine_bytes;
	c->requests = !list_empty(&dev->requests);
	list_for_each_entry(file, &dev->files, link) {
		c->handles += file->handle_count;
		c->files++;
	}
	gem_unlock(dev);
	c->fds = open_fds();
}

static void assert_same_counts(const struct counts *a, const struct counts *b,
			       bool binds, bool arenas)
{
	int l;

	gt_assert_eq_u64(b->objects, a->objects);
	gt_assert_eq_u64(b->object_bytes, a->object_bytes);
	gt_assert_eq_u64(b->pinned_bytes, a->pinned_bytes);
	for (l = 0; l < GEM_LIST_COUNT; l++)
		if (!binds || (l != GEM_LIST_UNBOUND && l != GEM_LIST_INACTIVE))
			gt_assert_eq_u64(b->list_count[l], a->list_count[l]);
	gt_assert_eq_u64(b->list_count[GEM_LIST_UNBOUND] + b->list_count[GEM_LIST_INACTIVE],
			 a->list_count[GEM_LIST_UNBOUND] + a->list_count[GEM_LIST_INACTIVE]);
	gt_assert_eq(b->arenas, a->arenas + (arenas && b->arenas > a->arenas));
	gt_assert_eq(b->names, a->names);
	gt_assert_eq(b->handles, a->handles);
	gt_assert_eq(b->files, a->files);
	gt_assert_eq(b->fds, a->fds + (b->arenas - a->arenas));
	gt_assert_eq_u64(b->quarantine, a->quarantine);
	gt_assert_eq(b->requests, a->requests);
}

/* The driver still works: a new object written by the GPU, and gone. */
static void assert_driver_works(void)
{
	uint32_t batch = gti_make_batch(), h = gti_create(4096);

	gt_assert_eq(gti_exec(batch, &h, 1, h), 0);
	gti_idle();
	gti_close(h);
	gti_close(batch);
}

/* One path a client can take: set up, the operation, clean up. */
struct path {
	const char *name;
	bool binds;			/* a failure may leave objects bound, as
					 * i915's does: binding is a cache */
	bool arenas;			/* a failure may leave the file's new
					 * arena (its memfd): the next object
					 * goes there */
	void (*prepare)(void *data);	/* on a fresh device; may be NULL */
	int (*op)(void *data);		/* 0 or -errno; a failure changes nothing */
	void (*finish)(void *data);	/* before teardown; may be NULL */
};

/* One try on a fresh device, the nth allocation failing: true when
 * nothing failed (the walk is over). */
static bool walk_one(const struct path *p, void *data, unsigned int n)
{
	struct counts before, after;
	unsigned long failed;
	int ret;

	gti_setup(16u << 20);
	if (p->prepare)
		p->prepare(data);
	gti_idle();
	take_counts(&before);
	gem_faultsim_arm(n, 0);
	ret = p->op(data);
	failed = gem_faultsim_injected();
	gem_faultsim_disarm();
	if (failed) {
		gt_assert_f(ret == -ENOMEM, "%s: allocation %u failed: returned %d",
			    p->name, n, ret);
		gti_idle();
		take_counts(&after);	/* and verifies */
		assert_same_counts(&before, &after, p->binds, p->arenas);
	} else {
		gt_assert_f(ret == 0, "%s: %s with no failure injected",
			    p->name, strerror(-ret));
	}
	assert_driver_works();
	take_counts(&after);
	if (p->finish)
		p->finish(data);
	gti_teardown();
	return !failed;
}

/* Fail allocation 1, 2, 3 ... until the path gets through: returns how
 * many allocations it makes. */
static unsigned int walk(const struct path *p, void *data)
{
	unsigned int n;

	for (n = 1; n <= WALK_MAX; n++)
		if (walk_one(p, data, n))
			return n - 1;
	gt_assert_f(false, "%s: still failing after %d allocations", p->name,
		    WALK_MAX);
	return 0;
}

static int op_create(void *data)
{
	struct drm_i915_gem_create c = { .size = *(uint64_t *)data };

	return gti_ioctl(DRM_IOCTL_I915_GEM_CREATE, &c);
}

/* A batch that relocates a target's address into its tail, and runs. */
struct exec_case {
	uint32_t batch, target;
	bool legacy;
};

static void exec_case_init(struct exec_case *e)
{
	uint32_t *p;

	e->target = gti_create(4096);
	e->batch = gti_create(4096);
	p = (uint32_t *)gti_obj(e->batch)->vaddr;
	p[0] = MI_BATCH_BUFFER_END;
	p[1] = 0;
	p[16] = 0xdeadbeef;		/* relocated: past the end, never run */
}

static int op_exec(void *data)
{
	struct exec_case *e = data;
	struct drm_i915_gem_relocation_entry reloc = {
		.target_handle = e->target, .offset = 64, .delta = 8,
		.presumed_offset = ~0ull,
		.read_domains = I915_GEM_DOMAIN_RENDER,
		.write_domain = I915_GEM_DOMAIN_RENDER,
	};
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = e->target, .flags = EXEC_OBJECT_WRITE },
		{ .handle = e->batch, .relocation_count = 1,
		  .relocs_ptr = (uintptr_t)&reloc },
	};
	struct drm_i915_gem_exec_object legacy[2] = {
		{ .handle = e->target },
		{ .handle = e->batch, .relocation_count = 1,
		  .relocs_ptr = (uintptr_t)&reloc },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)objs, .buffer_count = 2,
		.batch_len = 8, .flags = I915_EXEC_RENDER,
	};
	struct drm_i915_gem_execbuffer eb1 = {
		.buffers_ptr = (uintptr_t)legacy, .buffer_count = 2,
		.batch_len = 8,
	};
	int ret;

	ret = e->legacy ? gti_ioctl(DRM_IOCTL_I915_GEM_EXECBUFFER, &eb1) :
			  gti_ioctl(DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
	if (ret == 0) {
		uint32_t want = gem_object_gtt_offset(gti_obj(e->target)) + 8;

		gti_idle();
		gt_assert_eq(((uint32_t *)gti_obj(e->batch)->vaddr)[16], want);
	}
	return ret;
}

struct flink_case {
	uint32_t handle, name;
	struct gem_file *other;
};

static int op_flink(void *data)
{
	struct flink_case *f = data;
	struct drm_gem_flink fl = { .handle = f->handle };
	int ret = gti_ioctl(DRM_IOCTL_GEM_FLINK, &fl);

	f->name = fl.name;
	return ret;
}

static int op_open(void *data)
{
	struct flink_case *f = data;
	struct drm_gem_open op = { .name = f->name };
	struct gem_call call = { .caller_pid = 77, .fd_in = -1, .fd_out = -1 };

	return gem_ioctl_dispatch(f->other, DRM_IOCTL_GEM_OPEN, &op, &call);
}

/* PRIME: export from the test's file, import into another. */
struct prime_case {
	uint32_t handle;
	int fd;
	bool dead;		/* the object is gone when the import comes */
	struct gem_file *other;
};

static int op_prime_export(void *data)
{
	struct prime_case *pc = data;
	struct drm_prime_handle args = { .handle = pc->handle, .flags = DRM_RDWR };
	struct gem_call call = { .fd_in = -1 };
	int ret;

	ret = gem_ioctl_dispatch(gti_file, DRM_IOCTL_PRIME_HANDLE_TO_FD, &args, &call);
	pc->fd = call.fd_out;
	return ret;
}

static int op_prime_import(void *data)
{
	struct prime_case *pc = data;
	struct drm_prime_handle args = { .fd = pc->fd };
	struct gem_call call = { .fd_in = pc->fd };

	return gem_ioctl_dispatch(pc->other, DRM_IOCTL_PRIME_FD_TO_HANDLE, &args,
				  &call);
}

static void prepare_prime_export(void *data)
{
	struct prime_case *pc = data;

	pc->handle = gti_create(4096);
	pc->fd = -1;
	gt_assert_eq(gem_file_open(gti_dev, 77, "other", &pc->other), 0);
}

static void prepare_prime_import(void *data)
{
	struct prime_case *pc = data;

	prepare_prime_export(pc);
	gt_assert_eq(op_prime_export(pc), 0);
	if (pc->dead)
		gti_close(pc->handle);
}

static void finish_prime(void *data)
{
	struct prime_case *pc = data;

	gem_file_release(pc->other);
	if (pc->fd >= 0)
		close(pc->fd);
}

static int op_file_open(void *data)
{
	struct gem_file **file = data;

	return gem_file_open(gti_dev, 77, "second", file);
}

static int op_mmap(void *data)
{
	uint32_t handle = *(uint32_t *)data;
	struct drm_i915_gem_mmap mm = { .handle = handle, .size = 4096 };
	struct drm_i915_gem_mmap_offset mo = { .handle = handle,
					       .flags = I915_MMAP_OFFSET_GTT };
	struct gem_backing_loc loc;
	int ret;

	ret = gti_ioctl(DRM_IOCTL_I915_GEM_MMAP, &mm);
	if (!ret)
		ret = gti_ioctl(DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo);
	if (!ret)
		ret = gem_mmap_lookup(gti_file, mo.offset, 4096, &loc);
	return ret;
}

/* Preloads: objects, so the next create crosses a table's boundary. */
static unsigned int preload_count;
static uint64_t preload_size;

static void prepare_preload(void *data)
{
	unsigned int i;

	for (i = 0; i < preload_count; i++)
		gti_create(preload_size);
}

static void prepare_exec(void *data)
{
	exec_case_init(data);
}

static void prepare_flink(void *data)
{
	struct flink_case *f = data;

	f->handle = gti_create(4096);
	gt_assert_eq(gem_file_open(gti_dev, 77, "other", &f->other), 0);
}

static void prepare_open(void *data)
{
	struct flink_case *f = data;

	prepare_flink(f);
	gt_assert_eq(op_flink(f), 0);
}

static void finish_flink(void *data)
{
	struct flink_case *f = data;

	gem_file_release(f->other);
}

static void finish_file_open(void *data)
{
	struct gem_file **file = data;

	if (*file)
		gem_file_release(*file);
	*file = NULL;
}

static void prepare_mmap(void *data)
{
	*(uint32_t *)data = gti_create(4096);
}

static unsigned int walk_create(unsigned int count, uint64_t size, uint64_t new_size)
{
	const struct path p = { "create", false, true, prepare_preload, op_create,
				NULL };

	preload_count = count;
	preload_size = size;
	return walk(&p, &new_size);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);

	/* The object, the file's first arena (its record, sized memfd and
	 * mapping), then the file's first handle table. */
	gemtest_subtest("create")
		gt_assert_eq(walk_create(0, 0, 4096), 5);

	/* The 33rd object makes the id map grow (the ring is the 1st): the
	 * object, then the map's keys and values. */
	gemtest_subtest("create-grows-id-map")
		gt_assert_eq(walk_create(31, 4096, 4096), 3);

	/* Handle 64 needs a bigger table. */
	gemtest_subtest("create-grows-handle-table")
		gt_assert_eq(walk_create(63, 4096, 4096), 2);

	/* Objects of 16 MiB and more get one of their own: its record,
	 * sized memfd, mapping and id. */
	gemtest_subtest("create-dedicated-arena")
		gt_assert_eq(walk_create(1, 4096, GEM_DEDICATED_SIZE), 4);

	/* A full shared arena (68 objects of 15 MiB): the next object opens
	 * a new one. */
	gemtest_subtest("create-new-arena")
		gt_assert_eq(walk_create(68, 15u << 20, 15u << 20), 4);

	/* The execbuffer's object table, then the request. */
	gemtest_subtest("execbuffer2-relocations") {
		const struct path p = { "execbuffer2", true, false, prepare_exec,
					op_exec, NULL };
		struct exec_case e = { .legacy = false };

		gt_assert_eq(walk(&p, &e), 2);
	}

	/* The legacy interface converts the list first. */
	gemtest_subtest("execbuffer-legacy-relocations") {
		const struct path p = { "execbuffer", true, false, prepare_exec,
					op_exec, NULL };
		struct exec_case e = { .legacy = true };

		gt_assert_eq(walk(&p, &e), 3);
	}

	/* The name map (its keys and values), then the first export's arena
	 * of the object's own: record, sized memfd, mapping. */
	gemtest_subtest("flink") {
		const struct path p = { "flink", false, false, prepare_flink,
					op_flink, finish_flink };
		struct flink_case f = { 0 };

		gt_assert_eq(walk(&p, &f), 5);
	}

	/* The other file's first handle table, the object's list of files. */
	gemtest_subtest("open") {
		const struct path p = { "open", false, false, prepare_open, op_open,
					finish_flink };
		struct flink_case f = { 0 };

		gt_assert_eq(walk(&p, &f), 2);
	}

	/* The first export: the object's own arena (record, sized memfd,
	 * mapping); the descriptor is a dup, which is no allocation. */
	gemtest_subtest("prime-export") {
		const struct path p = { "prime export", false, false,
					prepare_prime_export, op_prime_export,
					finish_prime };
		struct prime_case pc = { .dead = false };

		gt_assert_eq(walk(&p, &pc), 3);
	}

	/* Import of a live object: the other file's handle table, the
	 * object's list of files. */
	gemtest_subtest("prime-import") {
		const struct path p = { "prime import", false, false,
					prepare_prime_import, op_prime_import,
					finish_prime };
		struct prime_case pc = { .dead = false };

		gt_assert_eq(walk(&p, &pc), 2);
	}

	/* Import of a memfd whose object is gone: a new object (its record,
	 * the memfd's dup, the arena's record and mapping), the handle
	 * table. */
	gemtest_subtest("prime-import-adopts") {
		const struct path p = { "prime adopt", false, false,
					prepare_prime_import, op_prime_import,
					finish_prime };
		struct prime_case pc = { .dead = true };

		gt_assert_eq(walk(&p, &pc), 5);
	}

	/* A client connecting: its drm_file. */
	gemtest_subtest("file-open") {
		const struct path p = { "file open", false, false, NULL,
					op_file_open, finish_file_open };
		struct gem_file *file = NULL;

		gt_assert_eq(walk(&p, &file), 1);
	}

	/* Mapping allocates nothing: it cannot fail for want of memory. */
	gemtest_subtest("mmap-allocates-nothing") {
		const struct path p = { "mmap", false, false, prepare_mmap, op_mmap,
					NULL };
		uint32_t handle;

		gt_assert_eq(walk(&p, &handle), 0);
	}

	return gemtest_exit();
}
