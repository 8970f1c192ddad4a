/* The guarded-copy cases (copyguard-cases.h). */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "copyguard-cases.h"
#include "gemtest.h"
#include "gemtest-dfs.h"

#define PAGE		4096
#define NTHREADS	4

static uint32_t cg_create(const struct cg_dev *d, uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };

	gt_assert_eq(d->ioctl(d->fd, DRM_IOCTL_I915_GEM_CREATE, &c), 0);
	return c.handle;
}

static void cg_close(const struct cg_dev *d, uint32_t h)
{
	struct drm_gem_close c = { .handle = h };

	gt_assert_eq(d->ioctl(d->fd, DRM_IOCTL_GEM_CLOSE, &c), 0);
}

/* pwrite (write) or pread of n bytes at off: 0 or -errno. */
static int cg_rw(const struct cg_dev *d, uint32_t h, uint64_t off, void *buf,
		 uint64_t n, bool write)
{
	struct drm_i915_gem_pwrite a = {
		.handle = h, .offset = off, .size = n, .data_ptr = (uintptr_t)buf,
	};

	return d->ioctl(d->fd, write ? DRM_IOCTL_I915_GEM_PWRITE :
			DRM_IOCTL_I915_GEM_PREAD, &a);
}

/* A request of this thread's: gemd has its notices after the answer. */
static void cg_settle(const struct cg_dev *d)
{
	int v = 0;
	struct drm_i915_getparam gp = { .param = I915_PARAM_CHIPSET_ID, .value = &v };

	gt_assert_eq(d->ioctl(d->fd, DRM_IOCTL_I915_GETPARAM, &gp), 0);
}

static uint64_t counter(const char *key)
{
	struct gdfs *src;
	uint64_t v;

	gt_assert_eq(gdfs_open_socket(NULL, &src), 0);
	v = gt_dfs_counter(src, key);
	gdfs_close(src);
	return v;
}

static void *map_pages(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	gt_assert(p != MAP_FAILED);
	return p;
}

void cg_bad_pointers(const struct cg_dev *d)
{
	size_t n = d->size;
	uint32_t h = cg_create(d, 2 * n);
	uint8_t *good = malloc(n), *back = malloc(n);
	uint8_t *gone = map_pages(n, PROT_READ | PROT_WRITE);
	uint8_t *none = map_pages(n, PROT_NONE);
	uint8_t *ro = map_pages(n, PROT_READ);
	uint8_t *cross = map_pages(n + PAGE, PROT_READ | PROT_WRITE);
	uint64_t pw0, pr0;
	size_t bad;

	gt_assert(good && back);
	gt_assert_eq(munmap(gone, n), 0);
	gt_assert_eq(munmap(cross + n, PAGE), 0);
	gt_fill_pattern(good, n, 7);
	cg_settle(d);
	pw0 = counter("pwrite_bytes");
	pr0 = counter("pread_bytes");

	gt_assert_eq(cg_rw(d, h, 0, good, n, true), 0);
	gt_assert_eq(cg_rw(d, h, n, gone, n, true), -EFAULT);
	gt_assert_eq(cg_rw(d, h, n, gone, n, false), -EFAULT);
	gt_assert_eq(cg_rw(d, h, n, none, n, true), -EFAULT);
	gt_assert_eq(cg_rw(d, h, n, none, n, false), -EFAULT);
	gt_assert_eq(cg_rw(d, h, 0, ro, n, false), -EFAULT);
	gt_assert_eq(cg_rw(d, h, n, ro, n, true), 0);	/* zeros: readable */
	/* A range that runs into an unmapped page. */
	gt_assert_eq(cg_rw(d, h, n, cross + PAGE, n, true), -EFAULT);
	gt_assert_eq(cg_rw(d, h, n, cross + PAGE, n, false), -EFAULT);

	/* The object holds what the good copy wrote. */
	gt_assert_eq(cg_rw(d, h, 0, back, n, false), 0);
	gt_assert_f(gt_check_pattern(back, n, 7, &bad), "byte %zu", bad);
	/* Every copy counted once: a fault goes to gemd, which counts the
	 * bytes before its client copies them (as it always has), and no
	 * owed notice is sent for it. */
	cg_settle(d);
	gt_assert_eq(counter("pwrite_bytes") - pw0, (2 + 3) * n);
	gt_assert_eq(counter("pread_bytes") - pr0, (1 + 4) * n);

	munmap(cross, n);
	munmap(ro, n);
	munmap(none, n);
	free(back);
	free(good);
	cg_close(d, h);
}

/* The process's read and write system calls so far (/proc/self/io). */
static void syscalls(uint64_t *r, uint64_t *w)
{
	char buf[512], *p;
	int fd = open("/proc/self/io", O_RDONLY);
	ssize_t len;

	gt_assert(fd >= 0);
	len = read(fd, buf, sizeof(buf) - 1);
	gt_assert(len > 0);
	close(fd);
	buf[len] = '\0';
	p = strstr(buf, "syscr:");
	gt_assert(p);
	*r = strtoull(p + 6, NULL, 10);
	p = strstr(buf, "syscw:");
	gt_assert(p);
	*w = strtoull(p + 6, NULL, 10);
}

/*
 * Without the interposer, a SIGSEGV handler the program put back over
 * libgem's is left to it and libgem copies by system call (copyguard.c):
 * under AddressSanitizer, whose handler is there from the start, that is
 * what own-handlers-before-first-copy leaves.  Which object holds the
 * handler tells which case this is.
 */
static bool guard_holds_segv(const struct cg_dev *d)
{
	struct sigaction cur;
	Dl_info info;
	const char *base;

	if (d->hooked)
		return true;
	gt_assert_eq(sigaction(SIGSEGV, NULL, &cur), 0);
	if (!(cur.sa_flags & SA_SIGINFO) ||
	    !dladdr((void *)cur.sa_sigaction, &info) || !info.dli_fname)
		return true;
	base = strrchr(info.dli_fname, '/');
	base = base ? base + 1 : info.dli_fname;
	if (!strncmp(base, "libgem.", 7))
		return true;
	gemtest_diag("SIGSEGV's handler is in %s", base);
	return false;
}

void cg_no_syscall(const struct cg_dev *d)
{
	enum { COPIES = 64 };
	size_t n = d->size;
	uint32_t h = cg_create(d, n);
	uint8_t *buf = malloc(n);
	uint64_t r0, w0, r1, w1;
	int i;

	gt_assert(buf);
	gt_fill_pattern(buf, n, 3);
	/* The first copy fetches and maps the arena. */
	gt_assert_eq(cg_rw(d, h, 0, buf, n, true), 0);
	if (!guard_holds_segv(d)) {
		free(buf);
		cg_close(d, h);
		gemtest_skip("a handler put back over libgem's: it copies by system call");
	}
	syscalls(&r0, &w0);
	for (i = 0; i < COPIES; i++) {
		gt_assert_eq(cg_rw(d, h, 0, buf, n, true), 0);
		gt_assert_eq(cg_rw(d, h, 0, buf, n, false), 0);
	}
	syscalls(&r1, &w1);
	gemtest_diag("%d copies each way: %llu reads, %llu writes", COPIES,
		     (unsigned long long)(r1 - r0), (unsigned long long)(w1 - w0));
	/* One read is syscalls()' own. */
	gt_assert_f(r1 - r0 < COPIES / 2, "%llu read system calls",
		    (unsigned long long)(r1 - r0));
	gt_assert_f(w1 - w0 < COPIES / 2, "%llu write system calls",
		    (unsigned long long)(w1 - w0));
	free(buf);
	cg_close(d, h);
}

/* The program's own handlers and what they saw. */
static volatile sig_atomic_t segv_seen, bus_seen;
static void *volatile segv_addr;
static uint8_t *volatile segv_page;	/* read by the handler */

static void own_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	segv_seen++;
	segv_addr = si->si_addr;
	/* Let the faulting store through on its retry. */
	mprotect(segv_page, PAGE, PROT_READ | PROT_WRITE);
}

static sigjmp_buf bus_env;

static void own_bus(int sig)
{
	(void)sig;
	bus_seen++;
	siglongjmp(bus_env, 1);
}

/* A fault of the program's own: SIGSEGV at a known address. */
static void own_segv_fault(void)
{
	segv_page = map_pages(PAGE, PROT_READ);
	segv_seen = 0;
	segv_addr = NULL;
	((volatile uint8_t *)segv_page)[100] = 1;
	gt_assert_eq(segv_seen, 1);
	gt_assert(segv_addr == segv_page + 100);
	gt_assert_eq(segv_page[100], 1);
	munmap(segv_page, PAGE);
}

/* SIGBUS: a page past the end of a shared file. */
static void own_bus_fault(void)
{
	char path[] = "/tmp/gemkit-cg-XXXXXX";
	int fd = mkstemp(path);
	volatile uint8_t *p;

	gt_assert(fd >= 0);
	unlink(path);
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	gt_assert(p != MAP_FAILED);
	bus_seen = 0;
	if (!sigsetjmp(bus_env, 1))
		(void)p[0];
	gt_assert_eq(bus_seen, 1);
	munmap((void *)p, PAGE);
	close(fd);
}

void cg_own_handlers(const struct cg_dev *d)
{
	struct sigaction sa = { .sa_sigaction = own_segv, .sa_flags = SA_SIGINFO };
	struct sigaction old_segv, now;
	void (*old_bus)(int);
	size_t n = d->size;
	uint32_t h = cg_create(d, n);
	uint8_t *buf = malloc(n), *none = map_pages(n, PROT_NONE);

	gt_assert(buf);
	sigemptyset(&sa.sa_mask);
	gt_assert_eq(sigaction(SIGSEGV, &sa, &old_segv), 0);
	old_bus = signal(SIGBUS, own_bus);
	gt_assert(old_bus != SIG_ERR);
	/* The program sees the handler it installed. */
	gt_assert_eq(sigaction(SIGSEGV, NULL, &now), 0);
	gt_assert(now.sa_flags & SA_SIGINFO);
	gt_assert(now.sa_sigaction == own_segv);

	own_segv_fault();
	own_bus_fault();
	gt_assert_eq(cg_rw(d, h, 0, none, n, true), -EFAULT);
	gt_assert_eq(cg_rw(d, h, 0, none, n, false), -EFAULT);
	gt_assert_eq(segv_seen, 1);	/* the copies' faults were not its */
	gt_assert_eq(cg_rw(d, h, 0, buf, n, true), 0);
	gt_assert_eq(cg_rw(d, h, 0, buf, n, false), 0);
	own_segv_fault();
	own_bus_fault();

	/* Put back; under the interposer it reports the program's own. */
	gt_assert_eq(sigaction(SIGSEGV, &old_segv, &now), 0);
	gt_assert(signal(SIGBUS, old_bus) == own_bus || !d->hooked);
	if (d->hooked)
		gt_assert(now.sa_sigaction == own_segv);
	munmap(none, n);
	free(buf);
	cg_close(d, h);
}

void cg_default_kills(const struct cg_dev *d)
{
	pid_t pid = gt_fork();

	if (pid == 0) {
		size_t n = d->size;
		uint8_t *buf = malloc(n), *none = map_pages(n, PROT_NONE);
		uint32_t h = cg_create(d, n);

		signal(SIGSEGV, SIG_DFL);
		if (!buf || cg_rw(d, h, 0, buf, n, true) ||
		    cg_rw(d, h, 0, none, n, true) != -EFAULT)
			_exit(1);
		((volatile uint8_t *)none)[0] = 1;
		_exit(2);
	}
	gt_wait_child(pid, -SIGSEGV);
}

struct cg_thread {
	const struct cg_dev *d;
	uint32_t seed;
	int failed;
};

static void *copier(void *p)
{
	struct cg_thread *t = p;
	size_t n = t->d->size, bad;
	uint8_t *buf = malloc(n), *back = malloc(n);
	uint8_t *none = map_pages(n, PROT_NONE);
	uint32_t h = cg_create(t->d, n);
	int i;

	if (!buf || !back)
		goto out;
	for (i = 0; i < 40 && !t->failed; i++) {
		gt_fill_pattern(buf, n, t->seed + (uint32_t)i);
		if (cg_rw(t->d, h, 0, buf, n, true) ||
		    cg_rw(t->d, h, 0, none, n, i & 1) != -EFAULT ||
		    cg_rw(t->d, h, 0, back, n, false) ||
		    !gt_check_pattern(back, n, t->seed + (uint32_t)i, &bad))
			t->failed = i + 1;
	}
	cg_settle(t->d);
out:
	munmap(none, n);
	free(back);
	free(buf);
	cg_close(t->d, h);
	return NULL;
}

void cg_threads(const struct cg_dev *d)
{
	struct cg_thread t[NTHREADS];
	pthread_t tid[NTHREADS];
	uint64_t pw0, pr0;
	int i;

	cg_settle(d);
	pw0 = counter("pwrite_bytes");
	pr0 = counter("pread_bytes");
	for (i = 0; i < NTHREADS; i++) {
		t[i] = (struct cg_thread){ .d = d, .seed = 100u * (uint32_t)i };
		gt_assert_eq(pthread_create(&tid[i], NULL, copier, &t[i]), 0);
	}
	for (i = 0; i < NTHREADS; i++) {
		gt_assert_eq(pthread_join(tid[i], NULL), 0);
		gt_assert_f(!t[i].failed, "thread %d, round %d", i, t[i].failed);
	}
	/* 40 good copies each way, 20 faults each way (cg_bad_pointers). */
	gt_assert_eq(counter("pwrite_bytes") - pw0, (uint64_t)NTHREADS * 60 * d->size);
	gt_assert_eq(counter("pread_bytes") - pr0, (uint64_t)NTHREADS * 60 * d->size);
}

void cg_fork(const struct cg_dev *d)
{
	size_t n = d->size, bad;
	uint32_t h = cg_create(d, n);
	uint8_t *buf = malloc(n), *none = map_pages(n, PROT_NONE);
	pid_t pid;

	gt_assert(buf);
	gt_fill_pattern(buf, n, 11);
	gt_assert_eq(cg_rw(d, h, 0, buf, n, true), 0);
	pid = gt_fork();
	if (pid == 0) {
		/* The same file: the parent's object, read and rewritten. */
		if (cg_rw(d, h, 0, buf, n, false) ||
		    !gt_check_pattern(buf, n, 11, &bad) ||
		    cg_rw(d, h, 0, none, n, false) != -EFAULT)
			_exit(1);
		gt_fill_pattern(buf, n, 12);
		if (cg_rw(d, h, 0, buf, n, true))
			_exit(2);
		cg_settle(d);
		_exit(0);
	}
	gt_wait_child(pid, 0);
	gt_assert_eq(cg_rw(d, h, 0, buf, n, false), 0);
	gt_assert_f(gt_check_pattern(buf, n, 12, &bad), "byte %zu", bad);
	gt_assert_eq(cg_rw(d, h, 0, none, n, true), -EFAULT);
	munmap(none, n);
	free(buf);
	cg_close(d, h);
}

void cg_run_all(const struct cg_dev *d, const struct cg_dev *small)
{
	/* First: no copy has installed libgem's handler yet. */
	gemtest_subtest("own-handlers-before-first-copy")
		cg_own_handlers(d);
	gemtest_subtest("no-syscall-per-copy")
		cg_no_syscall(d);
	if (small)
		gemtest_subtest("no-syscall-per-small-copy")
			cg_no_syscall(small);
	gemtest_subtest("bad-pointers-efault")
		cg_bad_pointers(d);
	if (small)
		gemtest_subtest("bad-pointers-efault-small")
			cg_bad_pointers(small);
	gemtest_subtest("threads")
		cg_threads(d);
	gemtest_subtest("fork")
		cg_fork(d);
	gemtest_subtest("own-handlers-after-first-copy")
		cg_own_handlers(d);
	gemtest_subtest("default-kills")
		cg_default_kills(d);
}
