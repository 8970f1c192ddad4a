/*
 * gem_busy: GEM_BUSY and GEM_WAIT, with a batch that keeps the GPU busy
 * by jumping to itself (MI_BATCH_BUFFER_START, gen<4 non-secure bit, as
 * IGT's gem_busy) until the CPU writes MI_BATCH_BUFFER_END over it through
 * a GTT or CPU mapping.  Execution is asynchronous: EXECBUFFER2 returns
 * while the batch runs.
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

#define MS	INT64_C(1000000)

static void sleep_ms_(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int busy_ioctl(int fd, uint32_t handle)
{
	struct drm_i915_gem_busy arg = { .handle = handle };

	return gem_ioctl(fd, DRM_IOCTL_I915_GEM_BUSY, &arg);
}

static int wait_ioctl(int fd, uint32_t handle, uint32_t flags, int64_t timeout)
{
	struct drm_i915_gem_wait arg = {
		.bo_handle = handle, .flags = flags, .timeout_ns = timeout,
	};

	return gem_ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &arg);
}

static void test_errors(int fd)
{
	uint32_t h = gt_create(fd, 4096);

	gt_assert_errno(busy_ioctl(fd, h + 100), ENOENT);
	gt_assert_errno(busy_ioctl(fd, 0), ENOENT);
	gt_assert_errno(wait_ioctl(fd, h + 100, 0, 0), ENOENT);
	gt_assert_errno(wait_ioctl(fd, h + 100, 0, 1000 * MS), ENOENT);
	gt_assert_errno(wait_ioctl(fd, h, 1, 0), EINVAL);
	gt_assert_errno(wait_ioctl(fd, h, 0x80000000u, 1000 * MS), EINVAL);
	/* flags are checked before the handle */
	gt_assert_errno(wait_ioctl(fd, h + 100, 1, 0), EINVAL);
	gt_close(fd, h);
}

static void test_idle(int fd)
{
	uint32_t h = gt_create(fd, 4096);
	int64_t timeout;
	uint64_t t0;

	gt_assert(!gt_busy(fd, h));
	timeout = 0;
	gt_assert_eq(__gt_wait(fd, h, &timeout), 0);
	t0 = now_ns();
	timeout = 1000 * MS;
	gt_assert_eq(__gt_wait(fd, h, &timeout), 0);
	gt_assert_f(now_ns() - t0 < 100 * MS, "an idle wait took %" PRIu64 " ms",
		    (now_ns() - t0) / 1000000);
	gt_assert(timeout > 0 && timeout <= 1000 * MS);
	timeout = -1;
	gt_assert_eq(__gt_wait(fd, h, &timeout), 0);
	gt_close(fd, h);
}

/* A batch that finishes: idle once waited for, and its target too. */
static void test_completed(int fd)
{
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 4096), v = 0;
	struct gen3_batch b;
	int64_t timeout = 2000 * MS;

	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, target, 0, 0x12344321);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, NULL), 0);
	gt_assert_eq(__gt_wait(fd, target, &timeout), 0);
	gt_assert(timeout > 0);
	gt_assert(!gt_busy(fd, target));
	gt_assert(!gt_busy(fd, batch));
	timeout = 0;
	gt_assert_eq(__gt_wait(fd, batch, &timeout), 0);
	gt_read(fd, target, 0, &v, 4);
	gt_assert_eq(v, 0x12344321);
	gt_close(fd, target);
	gt_close(fd, batch);
}

struct spin {
	uint32_t batch, target;
};

static struct spin spin_start(int fd)
{
	struct spin s = { gt_create(fd, 4096), gt_create(fd, 4096) };
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_emit_spin(&b, s.batch);
	gen3_batch_pad_to(&b, GEN3_SPIN_TAIL / 4);
	gen3_emit_store_dword(&b, s.target, 0, 1);	/* never reached */
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, s.batch, &s.target, NULL, 1, 0, NULL), 0);
	gt_assert_eq(gt_spin_watchdog(fd, s.batch, 10000), 0);
	return s;
}

/* While it spins: busy all along, waits time out. */
static void check_spinning(int fd, const struct spin *s)
{
	int64_t timeout;
	uint64_t t0, elapsed;
	int i;

	for (i = 0; i < 10; i++) {
		gt_assert_f(gt_busy(fd, s->batch), "idle after %d ms", i * 10);
		gt_assert(gt_busy(fd, s->target));
		sleep_ms_(10);
	}
	timeout = 0;
	gt_assert_errno(__gt_wait(fd, s->batch, &timeout), ETIME);
	gt_assert_eq(timeout, 0);

	timeout = 10 * MS;
	t0 = now_ns();
	gt_assert_errno(__gt_wait(fd, s->target, &timeout), ETIME);
	elapsed = now_ns() - t0;
	gt_assert_eq(timeout, 0);
	gt_assert_f(elapsed >= 9 * MS, "a 10 ms wait gave up after %" PRIu64 " us",
		    elapsed / 1000);
	gt_assert(gt_busy(fd, s->batch));
}

/* Poll for idle with a bounded wait, as gem_busy's sync does. */
static void wait_idle(int fd, uint32_t handle)
{
	int64_t timeout = 5000 * MS;

	gt_assert_eq(__gt_wait(fd, handle, &timeout), 0);
	gt_assert(timeout > 0 && timeout <= 5000 * MS);
	gt_assert(!gt_busy(fd, handle));
}

static void test_spin_gtt(int fd)
{
	struct spin s = spin_start(fd);
	uint32_t *map = gt_mmap_gtt(fd, s.batch, 4096), v = 0xffffffff;

	check_spinning(fd, &s);
	/* No SET_DOMAIN first: moving a busy object to a write domain waits. */
	__atomic_store_n(&map[0], MI_BATCH_BUFFER_END, __ATOMIC_SEQ_CST);
	wait_idle(fd, s.batch);
	wait_idle(fd, s.target);
	gt_read(fd, s.target, 0, &v, 4);
	gt_assert_eq(v, 0);	/* the loop never reached its tail */
	munmap(map, 4096);
	gt_close(fd, s.batch);
	gt_close(fd, s.target);
}

struct ender {
	uint32_t *dw0;
	unsigned int ms;
};

static void *end_later(void *arg)
{
	struct ender *e = arg;

	sleep_ms_(e->ms);
	__atomic_store_n(e->dw0, MI_BATCH_BUFFER_END, __ATOMIC_SEQ_CST);
	free(e);
	return NULL;
}

/* Ended through a CPU map by another thread while we wait without limit. */
static void test_spin_cpu(int fd)
{
	struct spin s = spin_start(fd);
	uint32_t *map = gt_mmap_cpu(fd, s.batch, 0, 4096);
	struct ender *e = malloc(sizeof(*e));
	int64_t timeout = -1;
	pthread_t thread;
	uint64_t t0;

	gt_assert(e);
	check_spinning(fd, &s);
	e->dw0 = &map[0];
	e->ms = 50;
	t0 = now_ns();
	gt_assert_eq(pthread_create(&thread, NULL, end_later, e), 0);
	gt_assert_eq(__gt_wait(fd, s.target, &timeout), 0);
	gt_assert(now_ns() - t0 >= 40 * MS);
	pthread_join(thread, NULL);
	gt_assert(!gt_busy(fd, s.target));
	wait_idle(fd, s.batch);
	munmap(map, 4096);
	gt_close(fd, s.batch);
	gt_close(fd, s.target);
}

/* A timed wait that succeeds reports the time it had left. */
static void test_wait_remaining(int fd)
{
	struct spin s = spin_start(fd);
	uint32_t *map = gt_mmap_cpu(fd, s.batch, 0, 4096);
	struct ender *e = malloc(sizeof(*e));
	int64_t timeout = 5000 * MS;
	pthread_t thread;

	gt_assert(e);
	e->dw0 = &map[0];
	e->ms = 100;
	gt_assert_eq(pthread_create(&thread, NULL, end_later, e), 0);
	gt_assert_eq(__gt_wait(fd, s.batch, &timeout), 0);
	pthread_join(thread, NULL);
	gt_assert_f(timeout > 0 && timeout <= 4910 * MS,
		    "%" PRId64 " ns left of 5 s after ~100 ms", timeout);
	munmap(map, 4096);
	gt_close(fd, s.batch);
	gt_close(fd, s.target);
}

/* Closing the handles of a busy batch does not stop it or lose it. */
static void test_close_while_busy(int fd)
{
	struct spin s = spin_start(fd);
	uint32_t *map = gt_mmap_cpu(fd, s.batch, 0, 4096);
	uint32_t probe = gt_create(fd, 4096), pbatch = gt_create(fd, 4096), v = 0;
	struct gen3_batch b;

	gt_close(fd, s.target);
	gt_close(fd, s.batch);
	/* Work queued behind the spinner waits for it. */
	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, probe, 0, 0xabc);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, pbatch, &probe, NULL, 1, 0, NULL), 0);
	sleep_ms_(30);
	gt_assert(gt_busy(fd, probe));
	__atomic_store_n(&map[0], MI_BATCH_BUFFER_END, __ATOMIC_SEQ_CST);
	wait_idle(fd, probe);
	gt_read(fd, probe, 0, &v, 4);
	gt_assert_eq(v, 0xabc);
	munmap(map, 4096);
	gt_close(fd, probe);
	gt_close(fd, pbatch);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 120);

	gemtest_subtest("busy-wait-errors")
		test_errors(fd);
	gemtest_subtest("idle-object")
		test_idle(fd);
	gemtest_subtest("completed-batch")
		test_completed(fd);
	gemtest_subtest("spin-ended-through-gtt-map")
		test_spin_gtt(fd);
	gemtest_subtest("spin-ended-through-cpu-map")
		test_spin_cpu(fd);
	gemtest_subtest("wait-reports-time-left")
		test_wait_remaining(fd);
	gemtest_subtest("close-while-busy")
		test_close_while_busy(fd);

	gem_close(fd);
	return gemtest_exit();
}
