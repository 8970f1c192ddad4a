/*
 * gemtest: a small TAP test library for gemkit's C tests (after igt's
 * igt_subtest and git's test-lib).  A test program is a list of subtests;
 * each prints "ok N - name" or "not ok N - name" and a failed assertion
 * ends only the current subtest (it longjmps back), so one failure never
 * hides the others.  The plan line "1..N" is printed at the end.
 *
 *	int main(int argc, char **argv)
 *	{
 *		gemtest_init(argc, argv);
 *		gemtest_subtest("create-close") {
 *			...
 *			gt_assert_eq(x, 4096);
 *		}
 *		return gemtest_exit();
 *	}
 *
 * Tests that talk to the driver call gemtest_start_gemd() first: it starts
 * a private gemd (from $GEMKIT_BUILD_DIR/gemd, else ./gemd) on a socket in
 * a fresh temporary directory, waits until it accepts clients, exports
 * GEM_DEVICE, and kills it and removes the directory at exit.
 */
#ifndef GEMKIT_GEMTEST_H
#define GEMKIT_GEMTEST_H

#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

void gemtest_init(int argc, char **argv);
int gemtest_exit(void);		/* prints the plan; returns the exit code */

/* Subtests: the body runs only if the name matches the optional filter
 * given as argv[1] (a substring).  Use as a statement with a block. */
bool __gemtest_subtest_begin(const char *name);
void __gemtest_subtest_end(void);
extern jmp_buf __gemtest_jmp;
#define gemtest_subtest(name) \
	for (bool __once = __gemtest_subtest_begin(name) && \
	     setjmp(__gemtest_jmp) == 0; __once; \
	     __once = false, __gemtest_subtest_end())

void gemtest_skip(const char *why) __attribute__((noreturn));
void __gemtest_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
void gemtest_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define gt_assert(cond) do { if (!(cond)) \
	__gemtest_fail(__FILE__, __LINE__, "assertion failed: %s", #cond); } while (0)
#define gt_assert_f(cond, ...) do { if (!(cond)) \
	__gemtest_fail(__FILE__, __LINE__, __VA_ARGS__); } while (0)
#define gt_assert_eq(a, b) do { long long __a = (long long)(a), __b = (long long)(b); \
	if (__a != __b) __gemtest_fail(__FILE__, __LINE__, \
		"%s == %s: got %lld (0x%llx), expected %lld (0x%llx)", #a, #b, \
		__a, (unsigned long long)__a, __b, (unsigned long long)__b); } while (0)
#define gt_assert_eq_u64(a, b) do { uint64_t __a = (uint64_t)(a), __b = (uint64_t)(b); \
	if (__a != __b) __gemtest_fail(__FILE__, __LINE__, \
		"%s == %s: got 0x%" PRIx64 ", expected 0x%" PRIx64, #a, #b, __a, __b); } while (0)
/* Assert that expr (a call returning -1/errno or -errno) fails with err. */
#define gt_assert_errno(expr, err) do { errno = 0; long __r = (long)(expr); \
	int __e = __r < 0 && __r != -1 ? (int)-__r : errno; \
	if (__r >= 0 || __e != (err)) __gemtest_fail(__FILE__, __LINE__, \
		"%s: expected error %s, got ret %ld errno %s", #expr, \
		strerror(err), __r, strerror(__e)); } while (0)

/* Private daemon.  extra_args: NULL-terminated list added to gemd's
 * command line (e.g. "--aperture", "16M", NULL).  Returns the socket path. */
const char *gemtest_start_gemd(const char *const *extra_args);
void gemtest_stop_gemd(void);
int gemtest_gemd_pid(void);
const char *gemtest_tmpdir(void);

/* Wrappers over libgem that assert success (second tier: __ versions
 * return -errno). */
int gt_open(void);			/* gem_open on the private gemd */
uint32_t gt_create(int fd, uint64_t size);
int __gt_create(int fd, uint64_t *size, uint32_t *handle);
void gt_close(int fd, uint32_t handle);
int __gt_close(int fd, uint32_t handle);
void gt_write(int fd, uint32_t handle, uint64_t offset, const void *buf, uint64_t len);
int __gt_write(int fd, uint32_t handle, uint64_t offset, const void *buf, uint64_t len);
void gt_read(int fd, uint32_t handle, uint64_t offset, void *buf, uint64_t len);
int __gt_read(int fd, uint32_t handle, uint64_t offset, void *buf, uint64_t len);
void gt_set_domain(int fd, uint32_t handle, uint32_t read, uint32_t write);
int __gt_set_domain(int fd, uint32_t handle, uint32_t read, uint32_t write);
void *gt_mmap_cpu(int fd, uint32_t handle, uint64_t offset, uint64_t size);
void *gt_mmap_gtt(int fd, uint32_t handle, uint64_t size);
bool gt_busy(int fd, uint32_t handle);
int __gt_wait(int fd, uint32_t handle, int64_t *timeout_ns);
void gt_sync(int fd, uint32_t handle);	/* set_domain GTT: waits for the GPU */
int gt_getparam(int fd, int param);
/* Submit a batch object (whole object) with no relocations, ring 0. */
void gt_exec_batch(int fd, uint32_t batch, const uint32_t *extra_handles, int n);

/* Fill the first size bytes of an object with gt_fill_pattern(seed) and
 * return a malloc'd copy of what was written (the reference). */
uint8_t *gt_upload_pattern(int fd, uint32_t handle, uint64_t size, uint32_t seed);

/* fork(), stdio flushed first (the child must not print the parent's
 * buffered output again): 0 in the child, its pid in the parent. */
pid_t gt_fork(void);
/* Wait for child pid, which must end with status (>= 0) or be killed
 * by signal -status. */
void gt_wait_child(pid_t pid, int status);

/* Deterministic pseudo random data. */
uint32_t gt_rand(uint32_t *state);
void gt_fill_pattern(void *buf, size_t len, uint32_t seed);
bool gt_check_pattern(const void *buf, size_t len, uint32_t seed, size_t *bad);

#endif
