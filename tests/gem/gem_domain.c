/*
 * gem_domain: SET_DOMAIN's rules (only CPU-side domains, a writer reads
 * only what it writes) and its waits: moving an object the GPU is writing
 * to the CPU or GTT domain returns only once the GPU is done.  A GTT
 * mapping does not: gemd reports MMAP_GTT_VERSION 4, and since version 3
 * the kernel's GTT fault takes no implicit set-domain and no wait.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"
#include "util.h"

#define GPU_DOMAINS (I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER | \
		     I915_GEM_DOMAIN_COMMAND | I915_GEM_DOMAIN_INSTRUCTION | \
		     I915_GEM_DOMAIN_VERTEX)

static void test_valid(int fd)
{
	static const uint32_t ok[][2] = {
		{ I915_GEM_DOMAIN_CPU, 0 },
		{ I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU },
		{ I915_GEM_DOMAIN_GTT, 0 },
		{ I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT },
		{ I915_GEM_DOMAIN_CPU | I915_GEM_DOMAIN_GTT, 0 },
		{ I915_GEM_DOMAIN_WC, I915_GEM_DOMAIN_WC },
	};
	uint32_t h = gt_create(fd, 4096);
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		gt_assert_f(__gt_set_domain(fd, h, ok[i][0], ok[i][1]) == 0,
			    "read 0x%x write 0x%x refused", ok[i][0], ok[i][1]);
	gt_close(fd, h);
}

static void test_gpu_domains(int fd)
{
	uint32_t h = gt_create(fd, 4096);
	uint32_t d;

	for (d = I915_GEM_DOMAIN_RENDER; d & GPU_DOMAINS; d <<= 1) {
		gt_assert_errno(__gt_set_domain(fd, h, d, 0), EINVAL);
		gt_assert_errno(__gt_set_domain(fd, h, d, d), EINVAL);
		gt_assert_errno(__gt_set_domain(fd, h, d | I915_GEM_DOMAIN_CPU, 0), EINVAL);
		gt_assert_errno(__gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT | d,
						I915_GEM_DOMAIN_GTT), EINVAL);
	}
	gt_close(fd, h);
}

/* A write domain implies exactly that read domain. */
static void test_write_not_read(int fd)
{
	uint32_t h = gt_create(fd, 4096);

	gt_assert_errno(__gt_set_domain(fd, h, I915_GEM_DOMAIN_CPU | I915_GEM_DOMAIN_GTT,
					I915_GEM_DOMAIN_CPU), EINVAL);
	gt_assert_errno(__gt_set_domain(fd, h, I915_GEM_DOMAIN_CPU,
					I915_GEM_DOMAIN_GTT), EINVAL);
	gt_assert_errno(__gt_set_domain(fd, h, I915_GEM_DOMAIN_GTT,
					I915_GEM_DOMAIN_CPU), EINVAL);
	gt_assert_errno(__gt_set_domain(fd, h, 0, I915_GEM_DOMAIN_CPU), EINVAL);
	gt_assert_errno(__gt_set_domain(fd, h, 0, I915_GEM_DOMAIN_GTT), EINVAL);
	gt_close(fd, h);
}

/* The domains are checked before the handle is looked up. */
static void test_unknown_handle(int fd)
{
	uint32_t h = gt_create(fd, 4096);

	gt_assert_errno(__gt_set_domain(fd, h + 50, I915_GEM_DOMAIN_CPU, 0), ENOENT);
	gt_assert_errno(__gt_set_domain(fd, h + 50, I915_GEM_DOMAIN_GTT,
					I915_GEM_DOMAIN_GTT), ENOENT);
	gt_assert_errno(__gt_set_domain(fd, h + 50, I915_GEM_DOMAIN_RENDER, 0), EINVAL);
	gt_assert_errno(__gt_set_domain(fd, h + 50, I915_GEM_DOMAIN_CPU,
					I915_GEM_DOMAIN_GTT), EINVAL);
	gt_close(fd, h);
}

/* CPU writes in the CPU domain are what the GPU reads next. */
static void test_cpu_write_gpu_read(int fd)
{
	const uint32_t w = 256, hgt = 64, pitch = w * 4, size = pitch * hgt;
	struct gen3_surf src = { gt_create(fd, size), pitch, 4, I915_TILING_NONE, size };
	struct gen3_surf dst = { gt_create(fd, size), pitch, 4, I915_TILING_NONE, size };
	uint32_t batch = gt_create(fd, 4096), handles[2] = { dst.handle, src.handle };
	uint8_t *map, *buf = malloc(size);
	struct gen3_batch b;
	size_t bad = 0;

	gt_assert(buf);
	map = gt_mmap_cpu(fd, src.handle, 0, size);
	gt_set_domain(fd, src.handle, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU);
	gt_fill_pattern(map, size, 31);

	gen3_batch_reset(&b);
	gen3_emit_copy_blt(&b, &dst, 0, 0, &src, 0, 0, (int)w, (int)hgt);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, handles, NULL, 2, 0, NULL), 0);
	gt_read(fd, dst.handle, 0, buf, size);
	gt_assert_f(gt_check_pattern(buf, size, 31, &bad), "byte %zu differs", bad);

	munmap(map, size);
	free(buf);
	gt_close(fd, batch);
	gt_close(fd, src.handle);
	gt_close(fd, dst.handle);
}

struct redirect {
	uint32_t *dw1;		/* the spinning batch's address dword */
	uint32_t value;
	unsigned int ms;
};

static void *redirect_later(void *arg)
{
	struct redirect *r = arg;
	struct timespec ts = { 0, (long)r->ms * 1000000L };

	nanosleep(&ts, NULL);
	__atomic_store_n(r->dw1, r->value, __ATOMIC_SEQ_CST);
	free(r);		/* ours: the test may have failed and gone */
	return NULL;
}

/*
 * A batch that spins on itself until its loop is pointed at its tail (at
 * GEN3_SPIN_TAIL), or for 5 s at most; the tail stores magic at byte 128
 * of target.  offsets[1] is the batch's GTT address.
 */
static void submit_spin_store(int fd, uint32_t batch, uint32_t target,
			      uint32_t magic, uint64_t offsets[2])
{
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_emit_spin(&b, batch);
	gen3_batch_pad_to(&b, GEN3_SPIN_TAIL / 4);
	gen3_emit_store_dword(&b, target, 128, magic);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, offsets), 0);
	gt_assert_eq(gt_spin_watchdog(fd, batch, 5000), 0);
	gt_assert(gt_busy(fd, target));
}

enum wait_how { WAIT_CPU, WAIT_GTT, WAIT_PREAD };

/*
 * The batch spins on itself; its tail (at GEN3_SPIN_TAIL) stores a value
 * into target.  100 ms later another thread points the loop's jump at the
 * tail.  A wait that returns early finds the value missing.
 */
static void test_waits(int fd, enum wait_how how)
{
	const uint32_t magic = 0x5eed0000u | how;
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 4096);
	uint32_t *tmap, *bmap, got = 0;
	uint64_t offsets[2], t0, elapsed;
	struct redirect *r = malloc(sizeof(*r));
	pthread_t thread;

	tmap = gt_mmap_cpu(fd, target, 0, 4096);
	bmap = gt_mmap_cpu(fd, batch, 0, 4096);

	submit_spin_store(fd, batch, target, magic, offsets);

	gt_assert(r);
	r->dw1 = &bmap[1];
	r->value = (uint32_t)offsets[1] + GEN3_SPIN_TAIL + MI_BATCH_NON_SECURE;
	r->ms = 100;
	gt_assert_eq(pthread_create(&thread, NULL, redirect_later, r), 0);

	t0 = now_ns();
	switch (how) {
	case WAIT_CPU:
		gt_set_domain(fd, target, I915_GEM_DOMAIN_CPU, 0);
		got = tmap[128 / 4];
		break;
	case WAIT_GTT:
		gt_set_domain(fd, target, I915_GEM_DOMAIN_GTT, 0);
		got = tmap[128 / 4];
		break;
	case WAIT_PREAD:
		gt_read(fd, target, 128, &got, sizeof(got));
		break;
	}
	elapsed = now_ns() - t0;
	pthread_join(thread, NULL);

	gt_assert_f(elapsed >= 80 * 1000000ull,
		    "returned after %" PRIu64 " us, before the batch ended",
		    elapsed / 1000);
	gt_assert_eq(got, magic);
	gt_assert(!gt_busy(fd, target));
	gt_assert(!gt_busy(fd, batch));

	munmap(tmap, 4096);
	munmap(bmap, 4096);
	gt_close(fd, target);
	gt_close(fd, batch);
}

/*
 * MMAP_GTT_VERSION >= 3: "Remove implicit set-domain(GTT) and
 * synchronisation on initial pagefault" (i915_gem_mman.c).  A GTT map of
 * an object a spinning batch is to write is made, read and written while
 * the object stays busy (IGT's gem_mmap_gtt pf-nonblock).  The batch only
 * ends when we point its loop at its tail, or by its 5 s watchdog, after
 * which the busy assertion would fail: no timing is measured.
 */
static void test_gtt_map_does_not_wait(int fd)
{
	const uint32_t magic = 0x5eed0bu, mine = 0xc0ffee5u;
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 4096);
	uint32_t *gmap, *bmap, got;
	uint64_t offsets[2];

	bmap = gt_mmap_cpu(fd, batch, 0, 4096);
	submit_spin_store(fd, batch, target, magic, offsets);

	gmap = gt_mmap_gtt(fd, target, 4096);
	got = ((volatile uint32_t *)gmap)[128 / 4];
	((volatile uint32_t *)gmap)[0] = mine;
	gt_assert(gt_busy(fd, target));
	gt_assert_eq(got, 0);

	bmap[1] = (uint32_t)offsets[1] + GEN3_SPIN_TAIL + MI_BATCH_NON_SECURE;
	gt_sync(fd, target);
	gt_assert_eq(gmap[128 / 4], magic);
	gt_assert_eq(gmap[0], mine);

	munmap(gmap, 4096);
	munmap(bmap, 4096);
	gt_close(fd, target);
	gt_close(fd, batch);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 120);

	gemtest_subtest("set-domain-valid")
		test_valid(fd);
	gemtest_subtest("set-domain-gpu-domains-einval")
		test_gpu_domains(fd);
	gemtest_subtest("set-domain-write-not-read-einval")
		test_write_not_read(fd);
	gemtest_subtest("set-domain-unknown-handle")
		test_unknown_handle(fd);
	gemtest_subtest("cpu-write-gpu-read")
		test_cpu_write_gpu_read(fd);
	gemtest_subtest("set-domain-cpu-waits-for-gpu")
		test_waits(fd, WAIT_CPU);
	gemtest_subtest("set-domain-gtt-waits-for-gpu")
		test_waits(fd, WAIT_GTT);
	gemtest_subtest("pread-waits-for-gpu")
		test_waits(fd, WAIT_PREAD);
	gemtest_subtest("gtt-map-of-busy-object-does-not-wait")
		test_gtt_map_does_not_wait(fd);

	gem_close(fd);
	return gemtest_exit();
}
