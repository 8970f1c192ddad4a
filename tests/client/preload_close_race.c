/*
 * preload_close_race: a pwrite racing a close of its handle on another
 * thread never reaches the next object.  Under the interposer the copy of
 * a pwrite is the client's own (fastpath.c): it reads where the object
 * lies, then writes there.  The close may come in between; the kernel's
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
 */
#include <fcntl.h>
#include <pthread.h>
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

static bool all_zero(int fd, uint32_t handle)
{
	static uint8_t buf[SIZE];
	struct drm_i915_gem_pread pr = {
		.handle = handle, .size = SIZE, .data_ptr = (uintptr_t)buf,
	};
	size_t i;

	gt_assert_eq(pt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), 0);
	for (i = 0; i < SIZE; i++)
		if (buf[i])
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
			dirty += !all_zero(r.fd, fresh);
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

int main(int argc, char **argv)
{
	preload_test_init(argc, argv);

	gemtest_subtest("pwrite-racing-close-never-reaches-next-object")
		test_pwrite_racing_close();

	return gemtest_exit();
}
