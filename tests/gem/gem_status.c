/*
 * gem_status: what libgem answers without gemd, from the status pages it
 * maps read-only (the hardware status page and the file's handle table):
 * BUSY and WAIT of an idle object, and the copy of a pread or pwrite of
 * one.  The proof that no round trip is needed is gemd stopped (SIGSTOP)
 * while they run: a call that asked gemd would never return and the
 * program timeout fails the test.  And where an answer needs gemd (a
 * busy object, one another file shares), it still gets the kernel's.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemdebugfs.h"
#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

#define MS	INT64_C(1000000)

static void gemd_stop(void)
{
	int status;

	gt_assert_eq(kill(gemtest_gemd_pid(), SIGSTOP), 0);
	gt_assert_eq(waitpid(gemtest_gemd_pid(), &status, WUNTRACED),
		     gemtest_gemd_pid());
	gt_assert(WIFSTOPPED(status));
}

static void gemd_continue(void)
{
	gt_assert_eq(kill(gemtest_gemd_pid(), SIGCONT), 0);
}

static uint64_t counter(const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	struct gdfs_counters c;
	struct gdfs *src;
	uint64_t v = 0;

	gt_assert_eq(gdfs_open_socket(NULL, &src), 0);
	gt_assert_eq(gdfs_read(src, "gemkit_counters", &sb), 0);
	gt_assert_eq(gdfs_parse_counters(sb.buf, sb.len, &c, NULL), 0);
	gt_assert(gdfs_counter(&c, key, &v));
	gdfs_counters_release(&c);
	strbuf_release(&sb);
	gdfs_close(src);
	return v;
}

static int busy_ioctl(int fd, uint32_t handle, uint32_t *busy)
{
	struct drm_i915_gem_busy arg = { .handle = handle };
	int ret = gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_BUSY, &arg);

	*busy = arg.busy;
	return ret;
}

/* A batch that stores v at target's offset 0, waited for. */
static void store_and_wait(int fd, uint32_t batch, uint32_t target, uint32_t v)
{
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, target, 0, v);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, NULL), 0);
	gt_sync(fd, target);
}

struct spin {
	uint32_t batch;
	uint32_t *map;
};

/* A batch that jumps to itself while it writes target (never reached). */
static struct spin spin_on(int fd, uint32_t target)
{
	struct spin s = { gt_create(fd, 4096), NULL };
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_emit_spin(&b, s.batch);
	gen3_batch_pad_to(&b, GEN3_SPIN_TAIL / 4);
	gen3_emit_store_dword(&b, target, 0, 1);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, s.batch, &target, NULL, 1, 0, NULL), 0);
	gt_assert_eq(gt_spin_watchdog(fd, s.batch, 10000), 0);
	s.map = gt_mmap_cpu(fd, s.batch, 0, 4096);
	return s;
}

static void spin_end(int fd, struct spin *s)
{
	int64_t timeout = 5000 * MS;

	__atomic_store_n(&s->map[0], MI_BATCH_BUFFER_END, __ATOMIC_SEQ_CST);
	gt_assert_eq(__gt_wait(fd, s->batch, &timeout), 0);
	munmap(s->map, 4096);
}

/* With gemd stopped: BUSY, WAIT, pwrite and pread of idle objects. */
static void test_without_gemd(void)
{
	int fd = gt_open();
	uint32_t obj = gt_create(fd, 64 << 10), batch = gt_create(fd, 4096);
	uint8_t *data = malloc(64 << 10), *back = malloc(64 << 10);
	uint64_t pw0;
	int64_t timeout;
	uint32_t busy = 7, v = 0;

	gt_assert(data && back);
	store_and_wait(fd, batch, obj, 0x5eed);
	/* The pages mapped: the first answers may ask gemd. */
	gt_assert(!gt_busy(fd, obj));
	gt_write(fd, obj, 4096, "x", 1);
	gt_getparam(fd, I915_PARAM_CHIPSET_ID);	/* after the books of that */
	pw0 = counter("pwrite_bytes");

	gt_fill_pattern(data, 64 << 10, 17);
	gemd_stop();
	gt_assert_eq(busy_ioctl(fd, obj, &busy), 0);
	gt_assert_eq(busy, 0);
	gt_assert_eq(busy_ioctl(fd, batch, &busy), 0);
	gt_assert_eq(busy, 0);
	timeout = 0;
	gt_assert_eq(__gt_wait(fd, obj, &timeout), 0);
	gt_assert_eq(timeout, 0);
	timeout = 5000 * MS;
	gt_assert_eq(__gt_wait(fd, obj, &timeout), 0);
	gt_assert_eq(timeout, 5000 * MS);	/* idle: left alone, as gemd does */
	gt_read(fd, obj, 0, &v, 4);
	gt_assert_eq(v, 0x5eed);		/* what the GPU wrote */
	gt_write(fd, obj, 4, data + 4, (64 << 10) - 4);
	gt_read(fd, obj, 0, back, 64 << 10);
	gemd_continue();

	gt_assert_eq(*(uint32_t *)back, 0x5eed);
	gt_assert(!memcmp(back + 4, data + 4, (64 << 10) - 4));
	/* gemd kept its books once it ran again, before the next answer. */
	gt_assert_eq(gt_getparam(fd, I915_PARAM_CHIPSET_ID) != 0, 1);
	gt_assert_eq(counter("pwrite_bytes") - pw0, (64 << 10) - 4);
	free(data);
	free(back);
	gt_close(fd, obj);
	gt_close(fd, batch);
	gem_close(fd);
}

/* Busy objects, and the errors, are gemd's answers. */
static void test_busy_asks(void)
{
	int fd = gt_open();
	uint32_t obj = gt_create(fd, 4096), busy = 0, v = 0;
	struct spin s;
	int64_t timeout = 0;

	gt_assert(!gt_busy(fd, obj));
	s = spin_on(fd, obj);
	gt_assert_eq(busy_ioctl(fd, obj, &busy), 0);
	gt_assert_eq(busy, (1u << 16) | 1);	/* read and written by render */
	gt_assert_errno(__gt_wait(fd, obj, &timeout), ETIME);
	spin_end(fd, &s);
	gt_assert(!gt_busy(fd, obj));
	gt_read(fd, obj, 0, &v, 4);
	gt_assert_eq(v, 0);
	gt_assert_errno(busy_ioctl(fd, obj + 100, &busy), ENOENT);
	gt_assert_errno(__gt_read(fd, obj, 4090, &v, 8), EINVAL);
	gt_assert_errno(__gt_write(fd, obj, 4096, &v, 1), EINVAL);
	gt_close(fd, s.batch);
	gt_close(fd, obj);
	gem_close(fd);
}

/*
 * An object another file holds too can turn busy through that file's
 * requests, which this file's table does not follow: its handle stops
 * being answered locally the moment the other file opens it.
 */
static void test_shared_object(void)
{
	int a = gt_open(), b = gt_open();
	uint32_t obj = gt_create(a, 4096), in_b, busy = 0;
	struct drm_gem_flink fl = { .handle = obj };
	struct drm_gem_open op = { .name = 0 };
	struct spin s;

	gt_assert(!gt_busy(a, obj));		/* answered from a's table */
	gt_assert_eq(gt_ioctl_errno(a, DRM_IOCTL_GEM_FLINK, &fl), 0);
	gt_assert(!gt_busy(a, obj));		/* named, still a's only */
	op.name = fl.name;
	gt_assert_eq(gt_ioctl_errno(b, DRM_IOCTL_GEM_OPEN, &op), 0);
	in_b = op.handle;
	s = spin_on(b, in_b);
	gt_assert_eq(busy_ioctl(a, obj, &busy), 0);
	gt_assert_eq(busy, (1u << 16) | 1);
	spin_end(b, &s);
	gt_assert(!gt_busy(a, obj));
	/* b lets go: a's handle is the only one, but gemd does not know
	 * which; it stays answered by gemd, and correctly. */
	gt_close(b, in_b);
	s = spin_on(b, gt_create(b, 4096));
	gt_assert(!gt_busy(a, obj));
	spin_end(b, &s);
	gt_close(a, obj);
	gem_close(a);
	gem_close(b);
}

/* A handle number used again names the new object, in a table fetched
 * again for a new file. */
static void test_reuse(void)
{
	uint32_t h1, h2, v = 0;
	int fd, round;

	for (round = 0; round < 3; round++) {
		fd = gt_open();
		h1 = gt_create(fd, 4096);
		v = 0x1000 + (uint32_t)round;
		gt_write(fd, h1, 0, &v, 4);
		gt_assert(!gt_busy(fd, h1));
		gt_close(fd, h1);
		h2 = gt_create(fd, 8192);
		gt_assert_eq(h2, h1);
		gt_read(fd, h2, 0, &v, 4);
		gt_assert_eq(v, 0);
		gt_assert_errno(__gt_read(fd, h2, 8192, &v, 4), EINVAL);
		gt_close(fd, h2);
		gem_close(fd);
	}
}

/*
 * Small copies into one object are told to gemd as one, never as more
 * than the object: 100 writes of 100 bytes into 4 KiB, reads between
 * them, and two objects in turn, all counted exactly.
 */
static void test_books_add_up(void)
{
	int fd = gt_open();
	uint32_t a = gt_create(fd, 4096), b = gt_create(fd, 4096);
	uint64_t pw0, pr0;
	uint8_t buf[100];
	int i;

	gt_assert(!gt_busy(fd, a));
	gt_getparam(fd, I915_PARAM_CHIPSET_ID);
	pw0 = counter("pwrite_bytes");
	pr0 = counter("pread_bytes");
	for (i = 0; i < 100; i++) {
		memset(buf, i, sizeof(buf));
		gt_write(fd, a, (uint64_t)(i * 37) % 3996, buf, sizeof(buf));
	}
	for (i = 0; i < 10; i++) {
		gt_write(fd, i & 1 ? b : a, 0, buf, 10);
		gt_read(fd, a, 0, buf, 7);
	}
	gt_assert_eq(gem_sync(fd), 0);
	gt_assert_eq(counter("pwrite_bytes") - pw0, 100 * 100 + 10 * 10);
	gt_assert_eq(counter("pread_bytes") - pr0, 10 * 7);
	gt_close(fd, a);
	gt_close(fd, b);
	gem_close(fd);
}

/* A process that copied directly and exited: gemd kept the books first. */
static void test_exit_keeps_books(void)
{
	static uint8_t data[3 << 12];
	uint64_t pw0 = counter("pwrite_bytes");
	pid_t pid = gt_fork();

	if (pid == 0) {
		int fd = gt_open();
		uint32_t h = gt_create(fd, sizeof(data));

		gt_assert(!gt_busy(fd, h));
		gt_write(fd, h, 0, data, sizeof(data));
		exit(0);
	}
	gt_wait_child(pid, 0);
	gt_assert_eq(counter("pwrite_bytes") - pw0, sizeof(data));
}

/* Writes of len bytes into a and b in turn: each switch tells gemd of
 * the copies before it (a notice), the last is still owed. */
static void write_in_turn(int fd, uint32_t a, uint32_t b, int n, uint64_t len)
{
	static const uint8_t buf[64];
	int i;

	for (i = 0; i < n; i++)
		gt_write(fd, i & 1 ? b : a, (uint64_t)i, buf, len);
}

/* Two idle objects whose pages and status entries are in place. */
static void two_idle(int fd, uint32_t *a, uint32_t *b)
{
	*a = gt_create(fd, 4096);
	*b = gt_create(fd, 4096);
	gt_write(fd, *a, 0, "a", 1);
	gt_write(fd, *b, 0, "b", 1);
	gt_assert(!gt_busy(fd, *a) && !gt_busy(fd, *b));
	gt_getparam(fd, I915_PARAM_CHIPSET_ID);	/* the books of those */
}

/*
 * Notices do not wake gemd: with gemd stopped they wait in the ring, and
 * the next call that needs an answer wakes gemd, which handles them
 * first (a call that did not wake it would never return: the program
 * timeout).  The books are exact without gem_sync.
 */
static void test_notices_wait_for_a_call(void)
{
	int fd = gt_open();
	uint32_t a, b;
	uint64_t pw0;

	two_idle(fd, &a, &b);
	pw0 = counter("pwrite_bytes");
	gemd_stop();
	write_in_turn(fd, a, b, 40, 32);
	gemd_continue();
	gt_getparam(fd, I915_PARAM_CHIPSET_ID);
	gt_assert_eq(counter("pwrite_bytes") - pw0, 40 * 32);
	gt_close(fd, a);
	gt_close(fd, b);
	gem_close(fd);
}

struct turn_job {
	int fd;
	uint32_t a, b;
	bool call;		/* end with a call that needs an answer */
};

static void *turn_thread(void *arg)
{
	struct turn_job *j = arg;

	write_in_turn(j->fd, j->a, j->b, 25, 16);
	if (j->call)
		gt_getparam(j->fd, I915_PARAM_CHIPSET_ID);
	return NULL;
}

/*
 * A thread's notices, then its call (or its exit): by then gemd has
 * its books, as another thread of the file reads them.
 */
static void test_thread_books(bool call)
{
	struct turn_job j = { .fd = gt_open(), .call = call };
	uint64_t pw0;
	pthread_t t;

	two_idle(j.fd, &j.a, &j.b);
	pw0 = counter("pwrite_bytes");
	gt_assert_eq(pthread_create(&t, NULL, turn_thread, &j), 0);
	gt_assert_eq(pthread_join(t, NULL), 0);
	gt_assert_eq(counter("pwrite_bytes") - pw0, 25 * 16);
	gt_close(j.fd, j.a);
	gt_close(j.fd, j.b);
	gem_close(j.fd);
}

/*
 * A client killed with notices unread (gemd stopped meanwhile): gemd
 * reads what the dead client sent, or drops it with the client's file
 * (whichever goes first in gemd), but never counts more than was sent
 * and never the copy still owed; it stays up, and another client's
 * copies and books are its own.
 */
static void test_killed_with_notices(void)
{
	int other = gt_open(), ready[2], go[2];
	uint32_t oa, ob;
	uint64_t pw0, objects0, got;
	uint8_t back[8];
	char c = 0;
	pid_t pid;

	two_idle(other, &oa, &ob);
	pw0 = counter("pwrite_bytes");
	objects0 = counter("objects");
	gt_assert_eq(pipe(ready), 0);
	gt_assert_eq(pipe(go), 0);
	pid = gt_fork();
	if (pid == 0) {
		int fd = gt_open();
		uint32_t a, b;

		two_idle(fd, &a, &b);
		gt_assert_eq(write(ready[1], &c, 1), 1);
		gt_assert_eq(read(go[0], &c, 1), 1);	/* gemd stopped */
		write_in_turn(fd, a, b, 20, 8);
		kill(getpid(), SIGKILL);
		_exit(1);
	}
	gt_assert_eq(read(ready[0], &c, 1), 1);
	gemd_stop();
	gt_assert_eq(write(go[1], &c, 1), 1);
	gt_wait_child(pid, -SIGKILL);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	gemd_continue();
	/* Its file goes in gemd's time: once its objects are gone, nothing
	 * of it can be counted any more. */
	while (counter("objects") != objects0)
		usleep(1000);
	got = counter("pwrite_bytes") - pw0;
	/* Its setup's 2 bytes, then some of the 19 notices of 8 bytes. */
	gt_assert(got >= 2 && got <= 2 + 19 * 8 && (got - 2) % 8 == 0);
	gt_write(other, oa, 0, "other!!", 8);
	gt_read(other, oa, 0, back, 8);
	gt_assert(!memcmp(back, "other!!", 8));
	gt_getparam(other, I915_PARAM_CHIPSET_ID);
	gt_assert_eq(counter("pwrite_bytes") - pw0, got + 8);
	gt_close(other, oa);
	gt_close(other, ob);
	gem_close(other);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);
	gemtest_start_gemd(NULL);
	gt_program_timeout(120, gemtest_gemd_pid());

	gemtest_subtest("answers-without-gemd")
		test_without_gemd();
	gemtest_subtest("busy-object-asks-gemd")
		test_busy_asks();
	gemtest_subtest("shared-object-asks-gemd")
		test_shared_object();
	gemtest_subtest("handle-and-file-reuse")
		test_reuse();
	gemtest_subtest("books-add-up")
		test_books_add_up();
	gemtest_subtest("exit-keeps-books")
		test_exit_keeps_books();
	gemtest_subtest("notices-wait-for-a-call")
		test_notices_wait_for_a_call();
	gemtest_subtest("thread-notices-then-call")
		test_thread_books(true);
	gemtest_subtest("thread-notices-then-exit")
		test_thread_books(false);
	gemtest_subtest("killed-with-notices-unread")
		test_killed_with_notices();
	return gemtest_exit();
}
