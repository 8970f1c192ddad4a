/*
 * gem_concurrent: a drm_file shared across fork, many threads in several
 * processes working at once with every byte checked, clients killed
 * mid-stream that leave nothing behind and harm nobody else, and two
 * clients' execbuffers sharing a flinked object while one of them waits
 * inside the driver.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"
#include "util.h"

static void sleep_ms_(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Wait for a child, killing it after timeout_s; returns its wait status. */
static int wait_child(pid_t pid, unsigned int timeout_s)
{
	unsigned int waited = 0;
	int status = 0;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return status;
		gt_assert(r == 0);
		if (waited >= timeout_s * 100) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			gt_assert_f(0, "child %d still running after %u s", (int)pid,
				    timeout_s);
		}
		sleep_ms_(10);
		waited++;
	}
}

static void assert_child_ok(int status)
{
	gt_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "child failed: %s %d", WIFEXITED(status) ? "exit" : "signal",
		    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

static void store(int fd, uint32_t target, uint32_t offset, uint32_t value)
{
	uint32_t batch = gt_create(fd, 4096);
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, target, offset, value);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, NULL), 0);
	gt_close(fd, batch);
}

/*
 * fork shares the drm_file: the child reads the parent's object by its
 * handle and makes one the parent then finds under the handle it is told.
 */
static void test_fork_shares_file(int fd)
{
	const size_t size = 64 << 10;
	uint32_t h = gt_create(fd, size), hc = 0, v = 0;
	uint8_t *buf = malloc(size);
	int p[2];
	size_t bad = 0;
	pid_t pid;

	gt_assert(buf);
	gt_fill_pattern(buf, size, 1);
	gt_write(fd, h, 0, buf, size);
	gt_assert_eq(pipe(p), 0);
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0) {
		memset(buf, 0, size);
		gt_read(fd, h, 0, buf, size);
		gt_assert_f(gt_check_pattern(buf, size, 1, &bad), "child: byte %zu", bad);
		hc = gt_create(fd, 8192);
		gt_fill_pattern(buf, 8192, 2);
		gt_write(fd, hc, 0, buf, 8192);
		store(fd, h, 0, 0xc41d);
		gt_sync(fd, h);
		gt_assert_eq(write(p[1], &hc, sizeof(hc)), (ssize_t)sizeof(hc));
		_exit(0);
	}
	close(p[1]);
	assert_child_ok(wait_child(pid, 60));
	gt_assert_eq(read(p[0], &hc, sizeof(hc)), (ssize_t)sizeof(hc));
	close(p[0]);

	gt_assert(hc != 0 && hc != h);
	memset(buf, 0, 8192);
	gt_read(fd, hc, 0, buf, 8192);
	gt_assert_f(gt_check_pattern(buf, 8192, 2, &bad), "parent: byte %zu", bad);
	gt_read(fd, h, 0, &v, 4);
	gt_assert_eq(v, 0xc41d);
	/* One handle space: the parent's next object does not reuse hc. */
	v = gt_create(fd, 4096);
	gt_assert(v != hc && v != h);
	gt_close(fd, v);
	gt_close(fd, hc);
	gt_close(fd, h);
	free(buf);
}

#define THREADS		8
#define PROCS		2
#define ITERATIONS	40

struct worker {
	int fd;
	uint32_t seed;
	pthread_t thread;
};

/* create, pwrite, a GPU store, pread and check, close; again and again. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	uint8_t *buf = malloc(64 << 10), *expect = malloc(64 << 10);
	int i;

	gt_assert(buf && expect);
	for (i = 0; i < ITERATIONS; i++) {
		uint32_t pages = 1 + gt_rand(&w->seed) % 16, size = pages * 4096;
		uint32_t seed = gt_rand(&w->seed), value = gt_rand(&w->seed);
		uint32_t where = gt_rand(&w->seed) % (size / 4) * 4;
		uint32_t h = gt_create(w->fd, size);

		gt_fill_pattern(expect, size, seed);
		gt_write(w->fd, h, 0, expect, size);
		store(w->fd, h, where, value);
		memcpy(expect + where, &value, 4);
		gt_read(w->fd, h, 0, buf, size);
		gt_assert_f(!memcmp(buf, expect, size),
			    "thread seed 0x%x iteration %d: contents differ", w->seed, i);
		gt_close(w->fd, h);
	}
	free(buf);
	free(expect);
	return NULL;
}

/* THREADS threads over one fd; a failed assertion ends the process. */
static void run_workers(int fd, uint32_t seed)
{
	struct worker w[THREADS];
	int i;

	for (i = 0; i < THREADS; i++) {
		w[i].fd = fd;
		w[i].seed = seed * 131 + (uint32_t)i + 1;
		gt_assert_eq(pthread_create(&w[i].thread, NULL, worker_main, &w[i]), 0);
	}
	for (i = 0; i < THREADS; i++)
		pthread_join(w[i].thread, NULL);
}

/*
 * PROCS processes of THREADS threads: the first shares the parent's
 * drm_file, the second opens its own.
 */
static void test_threads_and_processes(int fd)
{
	pid_t pid[PROCS];
	int i;

	for (i = 0; i < PROCS; i++) {
		pid[i] = fork();
		gt_assert(pid[i] >= 0);
		if (pid[i] == 0) {
			int cfd = i == 0 ? fd : gt_open();

			run_workers(cfd, (uint32_t)i + 1);
			_exit(0);
		}
	}
	for (i = 0; i < PROCS; i++)
		assert_child_ok(wait_child(pid[i], 180));
}

static int count_fds(int pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	d = opendir(path);
	gt_assert_f(d, "%s: %s", path, strerror(errno));
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static long vm_rss_kib(int pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static uint64_t aperture_available(int fd)
{
	struct drm_i915_gem_get_aperture ap;

	memset(&ap, 0, sizeof(ap));
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_GET_APERTURE, &ap), 0);
	return ap.aper_available_size;
}

static bool name_exists(int fd, uint32_t name)
{
	struct drm_gem_open arg = { .name = name };

	if (gem_ioctl(fd, DRM_IOCTL_GEM_OPEN, &arg) < 0) {
		gt_assert_eq(errno, ENOENT);
		return false;
	}
	gt_close(fd, arg.handle);
	return true;
}

/* The victim: its own file, a flinked object, a pin, then busy work. */
static void __attribute__((noreturn)) victim(int wfd)
{
	int fd = gt_open();
	uint32_t h = gt_create(fd, 4096), pinned = gt_create(fd, 1 << 20);
	struct drm_gem_flink fl = { .handle = h };
	struct drm_i915_gem_pin pin = { .handle = pinned };
	uint8_t buf[16384];
	uint32_t n = 0;

	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_GEM_FLINK, &fl), 0);
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_PIN, &pin), 0);
	gt_assert_eq(write(wfd, &fl.name, 4), 4);
	close(wfd);
	memset(buf, 0x5a, sizeof(buf));
	for (;;) {
		uint32_t o = gt_create(fd, 64 << 10);

		gt_write(fd, o, (n % 4) * 16384, buf, sizeof(buf));
		store(fd, o, 0, n);
		if (n++ & 1)
			gt_close(fd, o);	/* keep every other one alive */
	}
}

#define KILLS	20

static void test_killed_clients(int fd)
{
	const int gemd = gemtest_gemd_pid();
	uint32_t h[8], names[KILLS], i;
	uint8_t *buf = malloc(256 << 10);
	int fds0, fds = 0, k, tries;
	uint64_t avail0, avail = 0;
	long rss0, rss;
	size_t bad = 0;
	bool gone = false;

	gt_assert(buf && gemd > 0);
	for (i = 0; i < 8; i++) {
		h[i] = gt_create(fd, 256 << 10);
		gt_fill_pattern(buf, 256 << 10, 50 + i);
		gt_write(fd, h[i], 0, buf, 256 << 10);
	}
	fds0 = count_fds(gemd);
	avail0 = aperture_available(fd);
	rss0 = vm_rss_kib(gemd);

	for (k = 0; k < KILLS; k++) {
		int p[2], status;
		pid_t pid;

		gt_assert_eq(pipe(p), 0);
		pid = fork();
		gt_assert(pid >= 0);
		if (pid == 0) {
			close(p[0]);
			victim(p[1]);
		}
		close(p[1]);
		gt_assert_f(read(p[0], &names[k], 4) == 4, "victim %d did not start", k);
		close(p[0]);
		sleep_ms_(10 + (unsigned int)(k % 5) * 10);
		kill(pid, SIGKILL);
		status = wait_child(pid, 30);
		gt_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
		/* Others are served all along. */
		store(fd, h[k % 8], 0, 0x4b000000u | (uint32_t)k);
	}

	/* gemd releases each file once it sees the socket close. */
	for (tries = 0; tries < 500 && !gone; tries++) {
		gone = true;
		for (k = 0; k < KILLS && gone; k++)
			gone = !name_exists(fd, names[k]);
		avail = aperture_available(fd);
		fds = count_fds(gemd);
		gone = gone && avail == avail0 && fds <= fds0 + 2;
		if (!gone)
			sleep_ms_(10);
	}
	rss = vm_rss_kib(gemd);
	gemtest_diag("gemd: %d fds before, %d after; VmRSS %ld KiB before, %ld after",
		     fds0, fds, rss0, rss);
	for (k = 0; k < KILLS; k++)
		gt_assert_f(!name_exists(fd, names[k]), "victim %d's object still has a name", k);
	gt_assert_eq_u64(avail, avail0);
	gt_assert_f(fds <= fds0 + 2, "gemd holds %d fds, %d before", fds, fds0);

	for (i = 0; i < 8; i++) {
		/* The last store into h[i] came from the last k with k % 8 == i. */
		uint32_t last_k = i + 8 * ((KILLS - 1 - i) / 8);
		uint32_t expect_dw0 = 0x4b000000u | last_k;

		gt_read(fd, h[i], 0, buf, 256 << 10);
		gt_assert_eq(((uint32_t *)buf)[0], expect_dw0);
		gt_fill_pattern(buf, 4, 50 + i);	/* dword 0 is the store */
		gt_assert_f(gt_check_pattern(buf, 256 << 10, 50 + i, &bad),
			    "object %u byte %zu", i, bad);
		gt_close(fd, h[i]);
	}
	free(buf);
}

/* --- execbuffers sharing an object ------------------------------------ */

#define SHARED_A_ROUNDS		100
#define FILL_BYTES		(4u << 20)

struct sharer {
	int fd;
	uint32_t shared, batch;
	unsigned int ok, einval, other;
	int other_err;
	volatile bool *done;
};

/*
 * Client A: one batch that fills 4 MiB and stores into the shared object
 * at an offset that alternates, submitted again and again without
 * rewriting it.  Each submission must relocate the store's address in a
 * batch the GPU is still running: the execbuffer waits for it with the
 * lock dropped, the shared object listed, as i915 did in relocate_slow.
 */
static void *sharer_a_main(void *arg)
{
	struct sharer *a = arg;
	struct gen3_surf dst = { .pitch = 4096, .cpp = 4, .size = FILL_BYTES };
	struct gen3_rect r = { 0, 0, 1024, FILL_BYTES / 4096 };
	struct drm_i915_gem_exec_object2 obj[3];
	struct drm_i915_gem_execbuffer2 eb;
	struct gen3_batch *b = malloc(sizeof(*b));
	uint32_t handles[2];
	unsigned int i, store;
	int ret;

	gt_assert(b);
	dst.handle = gt_create(a->fd, FILL_BYTES);
	handles[0] = dst.handle;
	handles[1] = a->shared;
	gen3_batch_reset(b);
	gen3_emit_color_blt(b, &dst, &r, 0x5a5a5a5a);
	store = b->nreloc;
	gen3_emit_store_dword(b, a->shared, 0, 0xa);
	gen3_batch_end(b);
	gt_assert_eq(gt_execbuf(a->fd, b, a->batch, handles, NULL, 2, 0, NULL), 0);
	for (i = 0; i < SHARED_A_ROUNDS; i++) {
		const struct gen3_exec x = {
			.batch = a->batch, .handles = handles, .n = 2,
		};

		/* A new value at the same place: the relocation must write. */
		b->reloc[store].delta = 4 * (i & 1);
		b->reloc[store].presumed_offset = 0;
		gen3_batch_execbuf(b, &x, obj, &eb);
		ret = gem_ioctl(a->fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb) ? -errno : 0;
		if (ret == 0)
			a->ok++;
		else
			a->other++, a->other_err = ret;
	}
	gt_sync(a->fd, a->batch);
	gt_close(a->fd, dst.handle);
	free(b);
	__atomic_store_n(a->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/* Client B: tiny batches listing the shared object, as fast as it can,
 * until A is done. */
static void *sharer_b_main(void *arg)
{
	struct sharer *s = arg;
	struct gen3_batch *b = malloc(sizeof(*b));
	int ret;

	gt_assert(b);
	do {
		gen3_batch_reset(b);
		gen3_batch_emit(b, MI_NOOP);
		gen3_batch_end(b);
		ret = gt_execbuf(s->fd, b, s->batch, &s->shared, NULL, 1, 0, NULL);
		if (ret == 0)
			s->ok++;
		else if (ret == -EINVAL)
			s->einval++;
		else
			s->other++, s->other_err = ret;
	} while (!__atomic_load_n(s->done, __ATOMIC_ACQUIRE));
	free(b);
	return NULL;
}

/*
 * Duplicate detection belongs to the execbuffer, not to the object: B's
 * execbuffers never fail because A's, listing the same flinked object,
 * sleeps inside the driver; and one execbuffer that lists an object
 * twice still fails with EINVAL.
 */
static void test_shared_object_execbuffers(void)
{
	struct drm_gem_flink flink = { 0 };
	struct drm_gem_open op = { 0 };
	volatile bool done = false;
	struct sharer a = { .done = &done }, sb = { .done = &done };
	struct gen3_batch *b = malloc(sizeof(*b));
	pthread_t ta, tb;
	uint32_t twice[2];
	uint32_t v;

	gt_assert(b);
	a.fd = gt_open();
	sb.fd = gt_open();
	a.shared = gt_create(a.fd, 4096);
	a.batch = gt_create(a.fd, 4096);
	flink.handle = a.shared;
	gt_assert_eq(gt_ioctl_errno(a.fd, DRM_IOCTL_GEM_FLINK, &flink), 0);
	op.name = flink.name;
	gt_assert_eq(gt_ioctl_errno(sb.fd, DRM_IOCTL_GEM_OPEN, &op), 0);
	sb.shared = op.handle;
	sb.batch = gt_create(sb.fd, 4096);

	gt_assert_eq(pthread_create(&ta, NULL, sharer_a_main, &a), 0);
	gt_assert_eq(pthread_create(&tb, NULL, sharer_b_main, &sb), 0);
	gt_assert_eq(pthread_join(ta, NULL), 0);
	gt_assert_eq(pthread_join(tb, NULL), 0);
	gemtest_diag("A: %u execbuffers; B: %u ok, %u EINVAL, %u other",
		     a.ok, sb.ok, sb.einval, sb.other);
	gt_assert_f(a.other == 0, "A failed %u times (last %d)", a.other, a.other_err);
	gt_assert_eq(a.ok, SHARED_A_ROUNDS);
	gt_assert_f(sb.einval == 0, "B got EINVAL %u times of %u", sb.einval,
		    sb.ok + sb.einval + sb.other);
	gt_assert_f(sb.other == 0, "B failed %u times (last %d)", sb.other, sb.other_err);
	gt_assert(sb.ok > 0);
	/* A's last store went to dword (ROUNDS - 1) & 1. */
	gt_sync(sb.fd, sb.shared);
	gt_read(sb.fd, sb.shared, 4 * ((SHARED_A_ROUNDS - 1) & 1), &v, 4);
	gt_assert_eq(v, 0xa);

	/* A genuine duplicate in one execbuffer is still refused. */
	twice[0] = twice[1] = sb.shared;
	gen3_batch_reset(b);
	gen3_batch_end(b);
	gt_assert_eq(gt_execbuf(sb.fd, b, sb.batch, twice, NULL, 2, 0, NULL), -EINVAL);
	twice[1] = sb.batch;	/* the batch listed again, as the last */
	gt_assert_eq(gt_execbuf(sb.fd, b, sb.batch, twice, NULL, 2, 0, NULL), -EINVAL);
	free(b);
	gem_close(a.fd);
	gem_close(sb.fd);
}

/*
 * More files open at once than the 1024 a service's soft limit allows
 * and gemd's old connection cap: IGT's gem_exec_parallel opens a file in
 * each of 1024 threads.  Children hold FILES_PER_CHILD files each, all at
 * once, each with an object, then close them.
 */
#define FILE_CHILDREN	6
#define FILES_PER_CHILD	250

/* Says 1 on ready_fd when it holds its files, 0 when it cannot. */
static int hold_files_child(int ready_fd, int release_fd)
{
	int fds[FILES_PER_CHILD];
	char byte = 0;
	int i;

	for (i = 0; i < FILES_PER_CHILD; i++) {
		struct drm_i915_gem_create c = { .size = 4096 };

		fds[i] = gem_open(NULL, O_RDWR | O_CLOEXEC);
		if (fds[i] < 0 || gem_ioctl(fds[i], DRM_IOCTL_I915_GEM_CREATE, &c))
			return write(ready_fd, &byte, 1) == 1 ? 1 : 2;
	}
	byte = 1;
	if (write(ready_fd, &byte, 1) != 1 || read(release_fd, &byte, 1) < 0)
		return 1;
	for (i = 0; i < FILES_PER_CHILD; i++)
		gem_close(fds[i]);
	return 0;
}

static void test_files_beyond_1024(void)
{
	int ready[2], release[2], st, i, n = 0;
	pid_t pids[FILE_CHILDREN];
	char byte;

	gt_assert_eq(pipe(ready), 0);
	gt_assert_eq(pipe(release), 0);
	for (i = 0; i < FILE_CHILDREN; i++) {
		pids[i] = fork();
		gt_assert(pids[i] >= 0);
		if (!pids[i]) {
			close(ready[0]);
			close(release[1]);
			_exit(hold_files_child(ready[1], release[0]));
		}
	}
	close(ready[1]);
	close(release[0]);
	/* Every child says whether it holds its files. */
	for (i = 0; i < FILE_CHILDREN && read(ready[0], &byte, 1) == 1; i++)
		n += byte;
	close(release[1]);
	close(ready[0]);
	for (i = 0; i < FILE_CHILDREN; i++) {
		gt_assert_eq(waitpid(pids[i], &st, 0), pids[i]);
		gt_assert_f(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			    "child %d of %d could not hold %d files", i,
			    FILE_CHILDREN, FILES_PER_CHILD);
	}
	gt_assert_eq(n, FILE_CHILDREN);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 300);

	gemtest_subtest("fork-shares-file")
		test_fork_shares_file(fd);
	gemtest_subtest("threads-and-processes")
		test_threads_and_processes(fd);
	gemtest_subtest("killed-clients")
		test_killed_clients(fd);
	gemtest_subtest("shared-object-execbuffers")
		test_shared_object_execbuffers();
	gemtest_subtest("files-beyond-1024")
		test_files_beyond_1024();

	gem_close(fd);
	return gemtest_exit();
}
