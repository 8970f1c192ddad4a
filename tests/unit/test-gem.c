/*
 * Unit tests of the memory manager's internals, in process and without a
 * socket: lists, domains and their flush accounting, eviction order and
 * purging — the state the uAPI does not show directly.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd.h"
#include "gem_priv.h"
#include "gemtest-inproc.h"
#include "gemtest.h"

static unsigned int list_count(enum gem_list l)
{
	struct gem_object *obj;
	unsigned int n = 0;

	gem_lock(gti_dev);
	list_for_each_entry(obj, &gti_dev->lists[l], list_link)
		n++;
	gem_unlock(gti_dev);
	return n;
}

/*
 * gem_merge3 against a writer on the winning side, as the GPU model
 * writes an object's pages while an execbuffer merges its GTT view.  The
 * writer stores a new generation in every byte, then waits for two more
 * merges with the pages still: the pages must still hold its generation
 * then.  A merge that read the pages twice (once for the view, once for
 * base) while they were written left the two unequal, and the next one
 * took the view's stale bytes for a client's writes and copied them over
 * the writer's.
 */
#define MERGE_LEN	4096
#define MERGE_GENS	200

struct merge_writer {
	uint8_t *pages;
	unsigned int merges;		/* done by the main thread */
	unsigned int bad_gen;		/* 0, or the generation lost */
	size_t bad_byte;
	bool stop;
};

static void *merge_writer_main(void *arg)
{
	struct merge_writer *w = arg;
	unsigned int gen, target;
	size_t i;

	for (gen = 1; gen <= MERGE_GENS && !w->bad_gen; gen++) {
		for (i = 0; i < MERGE_LEN; i++)
			__atomic_store_n(&w->pages[i], (uint8_t)gen, __ATOMIC_RELAXED);
		target = __atomic_load_n(&w->merges, __ATOMIC_ACQUIRE) + 2;
		while (__atomic_load_n(&w->merges, __ATOMIC_ACQUIRE) < target)
			;
		for (i = 0; i < MERGE_LEN; i++)
			if (__atomic_load_n(&w->pages[i], __ATOMIC_RELAXED) != (uint8_t)gen) {
				w->bad_gen = gen;
				w->bad_byte = i;
				break;
			}
	}
	__atomic_store_n(&w->stop, true, __ATOMIC_RELEASE);
	return NULL;
}

static void test_merge3_concurrent_writer(void)
{
	static uint8_t pages[MERGE_LEN], view[MERGE_LEN], base[MERGE_LEN];
	struct merge_writer w = { .pages = pages };
	pthread_t t;

	gt_assert_eq(pthread_create(&t, NULL, merge_writer_main, &w), 0);
	while (!__atomic_load_n(&w.stop, __ATOMIC_ACQUIRE)) {
		gem_merge3(pages, view, base, MERGE_LEN);
		__atomic_add_fetch(&w.merges, 1, __ATOMIC_RELEASE);
	}
	gt_assert_eq(pthread_join(t, NULL), 0);
	gt_assert_f(!w.bad_gen, "generation %u of byte %zu overwritten by %u",
		    w.bad_gen, w.bad_byte, pages[w.bad_byte]);
	gem_merge3(pages, view, base, MERGE_LEN);
	gt_assert(!memcmp(view, pages, MERGE_LEN));
	gt_assert(!memcmp(base, pages, MERGE_LEN));
}

/*
 * A GTT view made while the GPU writes the object's pages (Mesa maps a
 * render target as the batch drawing it runs).  The writer flips every
 * byte between 0 and 1 while the view is made, then leaves 0, the value
 * the pages had before: a merge must then leave 0 everywhere.  A view
 * filled from the pages later than base was read would hold 1s that the
 * merge takes for the client's writes and copies over the pages.
 */
#define VIEW_SIZE	(64u << 10)
#define VIEW_ROUNDS	100

struct view_writer {
	uint8_t *pages;
	bool stop;
};

static void *view_writer_main(void *arg)
{
	struct view_writer *w = arg;
	uint8_t gen = 1;
	size_t i;

	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
		for (i = 0; i < VIEW_SIZE; i++)
			__atomic_store_n(&w->pages[i], gen, __ATOMIC_RELAXED);
		gen ^= 1;
	}
	for (i = 0; i < VIEW_SIZE; i++)
		__atomic_store_n(&w->pages[i], 0, __ATOMIC_RELAXED);
	return NULL;
}

static void test_view_made_under_gpu_writes(void)
{
	struct drm_i915_gem_set_tiling st = { 0 };
	struct gem_object *obj;
	unsigned int round;
	pthread_t t;
	size_t i;

	gti_setup(16u << 20);
	st.handle = gti_create(VIEW_SIZE);
	st.tiling_mode = I915_TILING_X;
	st.stride = 512;
	gt_assert_eq(gti_ioctl(DRM_IOCTL_I915_GEM_SET_TILING, &st), 0);
	obj = gti_obj(st.handle);
	for (round = 0; round < VIEW_ROUNDS; round++) {
		struct view_writer w = { .pages = obj->vaddr };

		memset(obj->vaddr, 0, VIEW_SIZE);
		gt_assert_eq(pthread_create(&t, NULL, view_writer_main, &w), 0);
		gem_lock(gti_dev);
		gem_view_free(obj);
		gt_assert_eq(gem_view_get(obj), 0);
		gem_unlock(gti_dev);
		__atomic_store_n(&w.stop, true, __ATOMIC_RELEASE);
		gt_assert_eq(pthread_join(t, NULL), 0);
		gem_lock(gti_dev);
		gem_view_sync(obj);
		gem_unlock(gti_dev);
		for (i = 0; i < VIEW_SIZE; i++)
			gt_assert_f(!((uint8_t *)obj->vaddr)[i] && !obj->view->vaddr[i],
				    "round %u byte %zu: pages %u view %u, both should be 0",
				    round, i, ((uint8_t *)obj->vaddr)[i], obj->view->vaddr[i]);
	}
	gti_teardown();
}

static struct gem_backing_loc where(uint32_t handle)
{
	struct gem_object *obj = gti_obj(handle);	/* takes the lock */
	struct gem_backing_loc loc;

	gem_lock(gti_dev);
	gem_object_location(obj, &loc);
	gem_unlock(gti_dev);
	return loc;
}

/*
 * A freed range goes to the next object of its size, unless the file's
 * clients count a direct copy in flight (status.c): then it is kept out
 * of reuse, as a range a client mapped is, since the copy may have read
 * the freed handle's entry and still be writing there.
 */
static void test_copy_in_flight_keeps_range(void)
{
	struct gem_backing_loc a_loc, b_loc, c_loc;
	uint64_t size;
	uint32_t *count, a, b, c;
	int fd;

	gti_setup(16u << 20);
	fd = gem_status_copies_fd(gti_file, &size);
	gt_assert(fd >= 0);
	gt_assert_eq(size, 4096);
	count = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	gt_assert(count != MAP_FAILED);
	close(fd);

	/* Nothing in flight: the range is the next object's. */
	a = gti_create(8192);
	a_loc = where(a);
	gti_close(a);
	b = gti_create(8192);
	b_loc = where(b);
	gt_assert_eq(b_loc.arena, a_loc.arena);
	gt_assert_eq(b_loc.offset, a_loc.offset);

	/* A copy in flight: b's range stays out of reuse. */
	__atomic_store_n(&count[GEM_STATUS_COPIES_AT], 1, __ATOMIC_SEQ_CST);
	gti_close(b);
	c = gti_create(8192);
	c_loc = where(c);
	gt_assert(c_loc.arena != b_loc.arena || c_loc.offset != b_loc.offset);
	__atomic_store_n(&count[GEM_STATUS_COPIES_AT], 0, __ATOMIC_SEQ_CST);
	gti_close(c);
	munmap(count, size);
	gti_teardown();
}

/*
 * A handle's entry names its object whatever else it says, and the first
 * export rewrites it twice: once before gemd copies the pages (not
 * direct: a client's pwrite copying meanwhile sees the change and sends
 * the pwrite to gemd, protocol.h), once where they are now.
 */
static void test_export_rewrites_entry_first(void)
{
	struct drm_gem_flink fl;
	struct gem_handle_state *e;
	uint32_t a, seq;
	uint64_t size;
	int fd;

	gti_setup(16u << 20);
	fd = gem_status_handles_fd(gti_file, &size);
	gt_assert(fd >= 0);
	close(fd);
	a = gti_create(8192);
	e = &gti_file->status[a];
	gt_assert_eq(e->object, gti_obj(a)->id);
	gt_assert_eq(e->flags, GEM_HANDLE_DIRECT);
	gt_assert_eq(e->arena, where(a).arena);
	seq = e->seq;

	fl = (struct drm_gem_flink){ .handle = a };
	gt_assert_eq(gti_ioctl(DRM_IOCTL_GEM_FLINK, &fl), 0);
	gt_assert_eq(e->seq, seq + 4);
	gt_assert_eq(e->object, gti_obj(a)->id);
	gt_assert_eq(e->flags, GEM_HANDLE_DIRECT);
	gt_assert_eq(e->arena, where(a).arena);
	gt_assert(gti_obj(a)->arena->dedicated);
	gt_assert(!gti_obj(a)->moving);

	gti_close(a);
	gt_assert_eq(e->object, 0);
	gt_assert_eq(e->flags, 0);
	gti_teardown();
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);

	gemtest_subtest("copy-in-flight-keeps-freed-range")
		test_copy_in_flight_keeps_range();
	gemtest_subtest("export-rewrites-entry-first")
		test_export_rewrites_entry_first();

	gemtest_subtest("merge3-concurrent-writer")
		test_merge3_concurrent_writer();
	gemtest_subtest("view-made-under-gpu-writes")
		test_view_made_under_gpu_writes();
	gemtest_subtest("lists-follow-execution") {
		uint32_t batch, a;

		gti_setup(16u << 20);
		batch = gti_make_batch();
		a = gti_create(8192);
		gt_assert_eq(gti_obj(a)->list, GEM_LIST_UNBOUND);
		gt_assert_eq(gti_exec(batch, &a, 1, a), 0);
		gti_idle();
		gt_assert_eq(gti_obj(a)->list, GEM_LIST_INACTIVE);
		gt_assert(gem_object_bound(gti_obj(a)));
		gt_assert_eq(gti_obj(a)->read_domains, I915_GEM_DOMAIN_RENDER);
		gt_assert_eq(gti_obj(a)->write_domain, 0);
		/* ring + batch + a were bound once each */
		gt_assert_eq(gti_dev->stats.binds, 3);
		gt_assert_eq(list_count(GEM_LIST_PINNED), 1);	/* the ring */
		gti_teardown();
	}

	gemtest_subtest("clflush-accounted-on-cpu-to-gpu") {
		uint32_t batch, a;
		uint64_t before;

		gti_setup(16u << 20);
		batch = gti_make_batch();
		a = gti_create(65536);
		before = gti_dev->stats.clflush_bytes;
		/* Fresh objects are in the CPU write domain: the batch and a are
		 * flushed on their way to the GPU. */
		gt_assert_eq(gti_exec(batch, &a, 1, 0), 0);
		gt_assert_eq(gti_dev->stats.clflush_bytes - before, 65536 + 4096);
		gti_idle();
		before = gti_dev->stats.clflush_bytes;
		gt_assert_eq(gti_exec(batch, &a, 1, 0), 0);
		gt_assert_eq(gti_dev->stats.clflush_bytes - before, 0);
		gti_teardown();
	}

	gemtest_subtest("set-domain-cpu-invalidates") {
		struct drm_i915_gem_set_domain sd = { 0 };
		uint32_t batch, a;
		uint64_t before;

		gti_setup(16u << 20);
		batch = gti_make_batch();
		a = gti_create(4096);
		gt_assert_eq(gti_exec(batch, &a, 1, a), 0);
		sd.handle = a;
		sd.read_domains = I915_GEM_DOMAIN_CPU;
		before = gti_dev->stats.clflush_bytes;
		gt_assert_eq(gti_ioctl(DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd), 0);
		gt_assert(!gem_object_busy(gti_obj(a)));
		gt_assert_eq(gti_dev->stats.clflush_bytes - before, 4096);
		gt_assert_eq(gti_obj(a)->read_domains,
			     I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_CPU);
		gt_assert_eq(gti_obj(a)->write_domain, 0);
		gti_teardown();
	}

	gemtest_subtest("lru-eviction-keeps-contents") {
		uint32_t batch, h[12];
		unsigned int i, round;

		gti_setup(4u << 20);	/* ring 128K: room for three 1 MiB objects */
		batch = gti_make_batch();
		for (i = 0; i < 12; i++) {
			h[i] = gti_create(1u << 20);
			memset(gti_obj(h[i])->vaddr, 0x40 + i, 1u << 20);
		}
		for (round = 0; round < 2; round++)
			for (i = 0; i < 12; i++)
				gt_assert_eq(gti_exec(batch, &h[i], 1, 0), 0);
		gti_idle();
		gt_assert(gti_dev->stats.evictions >= 20);
		for (i = 0; i < 12; i++) {
			uint8_t *p = gti_obj(h[i])->vaddr;

			gt_assert_eq(p[0], 0x40 + i);
			gt_assert_eq(p[(1u << 20) - 1], 0x40 + i);
		}
		/* The most recently used objects are the ones still bound. */
		gt_assert(gem_object_bound(gti_obj(h[11])));
		gt_assert(!gem_object_bound(gti_obj(h[0])));
		gti_teardown();
	}

	gemtest_subtest("purgeable-evicted-first-and-purged") {
		struct drm_i915_gem_madvise madv = { 0 };
		uint32_t batch, keep, junk, big;

		gti_setup(4u << 20);
		batch = gti_make_batch();
		junk = gti_create(1u << 20);
		keep = gti_create(1u << 20);
		memset(gti_obj(keep)->vaddr, 0x5a, 1u << 20);
		memset(gti_obj(junk)->vaddr, 0xa5, 1u << 20);
		/* junk is used first, so plain LRU would keep it longer... */
		gt_assert_eq(gti_exec(batch, &keep, 1, 0), 0);
		gt_assert_eq(gti_exec(batch, &junk, 1, 0), 0);
		gti_idle();
		madv.handle = junk;
		madv.madv = I915_MADV_DONTNEED;
		gt_assert_eq(gti_ioctl(DRM_IOCTL_I915_GEM_MADVISE, &madv), 0);
		gt_assert_eq(madv.retained, 1);
		/* ...but it is purgeable: it goes first. */
		big = gti_create(2u << 20);
		gt_assert_eq(gti_exec(batch, &big, 1, 0), 0);
		gti_idle();
		gt_assert(!gem_object_bound(gti_obj(junk)));
		gt_assert(gem_object_bound(gti_obj(keep)));
		gt_assert_eq(gti_obj(junk)->madv, GEM_MADV_PURGED);
		gt_assert_eq(((uint8_t *)gti_obj(junk)->vaddr)[4096], 0);
		madv.madv = I915_MADV_WILLNEED;
		gt_assert_eq(gti_ioctl(DRM_IOCTL_I915_GEM_MADVISE, &madv), 0);
		gt_assert_eq(madv.retained, 0);
		/* i915_gem_object_get_pages of a purged object, as Linux 6.1 */
		gt_assert_eq(gti_exec(batch, &junk, 1, 0), -EFAULT);
		gti_teardown();
	}

	gemtest_subtest("enospc-and-e2big") {
		uint32_t batch, h[3], huge;

		gti_setup(4u << 20);
		batch = gti_make_batch();
		h[0] = gti_create(2u << 20);
		h[1] = gti_create(2u << 20);
		h[2] = gti_create(1u << 20);
		gt_assert_eq(gti_exec(batch, h, 3, 0), -ENOSPC);
		huge = gti_create(8u << 20);
		gt_assert_eq(gti_exec(batch, &huge, 1, 0), -E2BIG);
		/* Nothing is left pinned by the failures. */
		gt_assert_eq(gti_dev->pinned_bytes, GEM_RING_SIZE);
		gti_teardown();
	}

	gemtest_subtest("fence-for-tiled-blit-target") {
		struct drm_i915_gem_set_tiling st = { 0 };
		struct drm_i915_gem_exec_object2 objs[2];
		struct drm_i915_gem_execbuffer2 eb;
		uint32_t batch, t;
		struct gem_object *obj;

		gti_setup(16u << 20);
		batch = gti_make_batch();
		t = gti_create(256u << 10);
		st.handle = t;
		st.tiling_mode = I915_TILING_X;
		st.stride = 2048;
		gt_assert_eq(gti_ioctl(DRM_IOCTL_I915_GEM_SET_TILING, &st), 0);
		memset(objs, 0, sizeof(objs));
		objs[0].handle = t;
		objs[0].flags = EXEC_OBJECT_NEEDS_FENCE;
		objs[1].handle = batch;
		memset(&eb, 0, sizeof(eb));
		eb.buffers_ptr = (uintptr_t)objs;
		eb.buffer_count = 2;
		gt_assert_eq(gti_ioctl(DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
		obj = gti_obj(t);
		gt_assert(obj->fence_reg >= 0);
		/* 1 MiB fence region, aligned to its size */
		gt_assert_eq(obj->gtt_node.size, 1u << 20);
		gt_assert_eq(obj->gtt_node.start & ((1u << 20) - 1), 0);
		gt_assert_eq(objs[0].offset, obj->gtt_node.start);
		/* X tiling, 2048 = 512 << 2, 1 MiB, valid */
		gt_assert_eq_u64(gpu_read(gti_dev->gpu, fence_reg_offset(obj->fence_reg)),
				 (uint32_t)obj->gtt_node.start | (2u << 4) | 1u);
		gti_teardown();
	}

	/*
	 * Who may fetch which arena (GEM_MSG_ARENA: the attacker asks for
	 * ids it was never told): only the file whose objects fill a shared
	 * arena, only a holder of the object of a dedicated one, nobody the
	 * kernel's.
	 */
	gemtest_subtest("arena-fetch-rules") {
		struct gem_file *other;
		struct drm_prime_handle ph = { .flags = DRM_RDWR };
		struct gem_call call = { .fd_in = -1 };
		struct drm_gem_close cl = { 0 };
		uint32_t a, shared_id, dedicated_id, kernel_id;
		uint64_t size;
		int fd;

		gti_setup(16u << 20);
		a = gti_create(4096);
		gt_assert_eq(gem_file_open(gti_dev, 2, "other", &other), 0);
		shared_id = gti_obj(a)->arena->id;
		kernel_id = gti_dev->ring->arena->id;
		fd = gem_arena_fd(gti_file, shared_id, &size);
		gt_assert(fd >= 0);
		gt_assert_eq_u64(size, GEM_ARENA_SIZE);
		close(fd);
		gt_assert_eq(gem_arena_fd(other, shared_id, &size), -EACCES);
		gt_assert_eq(gem_arena_fd(gti_file, kernel_id, &size), -EACCES);
		gt_assert_eq(gem_arena_fd(other, 9999, &size), -ENOENT);

		/* Exported: an arena of its own, for holders only. */
		ph.handle = a;
		gt_assert_eq(gem_ioctl_dispatch(gti_file, DRM_IOCTL_PRIME_HANDLE_TO_FD,
						&ph, &call), 0);
		dedicated_id = gti_obj(a)->arena->id;
		gt_assert(dedicated_id != shared_id);
		gt_assert_eq(gem_arena_fd(other, dedicated_id, &size), -EACCES);
		ph.fd = call.fd_out;
		call.fd_in = call.fd_out;
		gt_assert_eq(gem_ioctl_dispatch(other, DRM_IOCTL_PRIME_FD_TO_HANDLE,
						&ph, &call), 0);
		fd = gem_arena_fd(other, dedicated_id, &size);
		gt_assert(fd >= 0);
		gt_assert_eq_u64(size, 4096);
		close(fd);
		cl.handle = ph.handle;
		gt_assert_eq(gem_ioctl_dispatch(other, DRM_IOCTL_GEM_CLOSE, &cl, &call), 0);
		gt_assert_eq(gem_arena_fd(other, dedicated_id, &size), -EACCES);
		close(call.fd_in);
		gem_file_release(other);
		gti_teardown();
	}

	return gemtest_exit();
}
