/*
 * preload_copy_race: a pwrite copied by the client while another thread
 * of the file changes where the object lies.  Under the interposer the
 * copy of a pwrite is the client's own (fastpath.c): it reads where the
 * object lies, then writes there, and two things can come in between.
 *
 * A close of the handle: a pwrite racing it never reaches the next
 * object.  The kernel's
 * pwrite then goes to the old object or gets ENOENT, and a new object
 * always reads as zeros, so the freed range must not become the next
 * object's under the copy (gemd's status.c says how the two sides order
 * themselves).
 *
 * The closing thread takes the closed handle's number back at once (a
 * filler object, kept to the end, so that no number ever comes back to a
 * writer holding it) and then creates an object of the closed one's
 * size, which is the one that would get its range.  Before the fix, 78
 * to 173 of 2,000 such objects held the other thread's bytes (three runs;
 * with 4 KiB copies it was 2 or 3 in 10,000 and the test missed it); a
 * race still, but it cannot report one that did not happen.
 *
 * The object's first export (FLINK here), which moves its pages into
 * memory of their own (gemd's backing.c): a pwrite racing it lands in the
 * object, as the kernel's does whichever comes first.  Each round makes
 * an object, pwrites it once on the other thread and flinks it here at
 * about the same moment, then reads it back.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "preload-test.h"

/*
 * The copy is what the close must fall into, so it is made long: a
 * 256 KiB pwrite is tens of microseconds of copying against the few
 * round trips of close, filler and create.  Fillers are one page, a size
 * no new object has, so that they never take the closed object's range.
 */
#define ROUNDS	2000
#define SIZE	(256 * 1024)
#define FILLER	4096
#define EXPORT_ROUNDS	1000

struct race {
	int fd;
	_Atomic uint32_t target;
	_Atomic bool stop;
};

static void *writer_main(void *arg)
{
	struct race *r = arg;
	uint8_t *buf = malloc(SIZE);

	gt_assert(buf);
	memset(buf, 0xaa, SIZE);
	while (!atomic_load(&r->stop)) {
		struct drm_i915_gem_pwrite pw = {
			.handle = atomic_load(&r->target), .size = SIZE,
			.data_ptr = (uintptr_t)buf,
		};

		/* ENOENT when it lost the race to the close: fine. */
		ioctl(r->fd, DRM_IOCTL_I915_GEM_PWRITE, &pw);
	}
	free(buf);
	return NULL;
}

static void close_handle(int fd, uint32_t handle)
{
	struct drm_gem_close arg = { .handle = handle };

	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_GEM_CLOSE, &arg), 0);
}

/* Every byte of the object is v. */
static bool all_bytes(int fd, uint32_t handle, uint8_t v)
{
	static uint8_t buf[SIZE];
	struct drm_i915_gem_pread pr = {
		.handle = handle, .size = SIZE, .data_ptr = (uintptr_t)buf,
	};
	size_t i;

	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), 0);
	for (i = 0; i < SIZE; i++)
		if (buf[i] != v)
			return false;
	return true;
}

static void test_pwrite_racing_close(void)
{
	struct race r = { .fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC) };
	uint32_t *fillers = calloc(ROUNDS, sizeof(*fillers));
	unsigned int dirty = 0, checked = 0, i;
	uint32_t old, fresh;
	pthread_t thread;

	gt_assert(r.fd >= 0 && fillers);
	atomic_store(&r.target, pt_create(r.fd, SIZE));
	gt_assert_eq(pthread_create(&thread, NULL, writer_main, &r), 0);
	for (i = 0; i < ROUNDS; i++) {
		old = atomic_load(&r.target);
		close_handle(r.fd, old);
		fillers[i] = pt_create(r.fd, FILLER);
		fresh = pt_create(r.fd, SIZE);
		if (fillers[i] == old && fresh != old) {
			checked++;
			dirty += !all_bytes(r.fd, fresh, 0);
		}
		atomic_store(&r.target, fresh);
	}
	atomic_store(&r.stop, true);
	pthread_join(thread, NULL);
	close(r.fd);
	free(fillers);
	/* The lowest free number is the closed one's: every round counts. */
	gt_assert_eq(checked, ROUNDS);
	gt_assert_f(dirty == 0, "%u of %u new objects held the other thread's bytes",
		    dirty, checked);
}

struct export_race {
	int fd;
	_Atomic uint32_t handle;
	_Atomic unsigned int round;	/* the writer's next pwrite */
	_Atomic unsigned int done;	/* the last it made */
	_Atomic int error;		/* its errno, 0 */
	_Atomic bool stop;
};

static uint8_t round_byte(unsigned int round)
{
	return (uint8_t)(1 + round % 255);
}

static void *export_writer_main(void *arg)
{
	struct export_race *r = arg;
	uint8_t *buf = malloc(SIZE);
	unsigned int seen = 0, round;

	gt_assert(buf);
	while (!atomic_load(&r->stop)) {
		struct drm_i915_gem_pwrite pw = { .size = SIZE, .data_ptr = (uintptr_t)buf };

		round = atomic_load(&r->round);
		if (round == seen) {
			sched_yield();
			continue;
		}
		seen = round;
		memset(buf, round_byte(round), SIZE);
		pw.handle = atomic_load(&r->handle);
		atomic_store(&r->error, ioctl(r->fd, DRM_IOCTL_I915_GEM_PWRITE, &pw) ? errno : 0);
		atomic_store(&r->done, round);
	}
	free(buf);
	return NULL;
}

static void test_pwrite_racing_export(void)
{
	struct export_race r = { .fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC) };
	unsigned int lost = 0, i;
	volatile unsigned int spin;
	pthread_t thread;

	gt_assert(r.fd >= 0);
	gt_assert_eq(pthread_create(&thread, NULL, export_writer_main, &r), 0);
	for (i = 1; i <= EXPORT_ROUNDS; i++) {
		uint32_t h = pt_create(r.fd, SIZE);
		struct drm_gem_flink fl = { .handle = h };

		atomic_store(&r.handle, h);
		atomic_store(&r.round, i);
		/* A moment that differs from round to round, so that the
		 * move falls at different points of the copy. */
		for (spin = 0; spin < (i % 32) * 256; spin++)
			;
		gt_assert_eq(pt_ioctl_errno(r.fd, DRM_IOCTL_GEM_FLINK, &fl), 0);
		while (atomic_load(&r.done) != i)
			sched_yield();
		gt_assert_eq(atomic_load(&r.error), 0);
		lost += !all_bytes(r.fd, h, round_byte(i));
		close_handle(r.fd, h);
	}
	atomic_store(&r.stop, true);
	pthread_join(thread, NULL);
	close(r.fd);
	gt_assert_f(lost == 0, "%u of %u exported objects lack the pwrite that raced the export",
		    lost, EXPORT_ROUNDS);
}

int main(int argc, char **argv)
{
	preload_test_init(argc, argv);

	gemtest_subtest("pwrite-racing-close-never-reaches-next-object")
		test_pwrite_racing_close();
	gemtest_subtest("pwrite-racing-export-lands-in-object")
		test_pwrite_racing_export();

	return gemtest_exit();
}
