/* Small helpers: EINTR-safe I/O, size and duration parsing, clocks. */
#ifndef GEMKIT_UTIL_H
#define GEMKIT_UTIL_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* A switch case that goes on into the next, as gcc and clang both see. */
#define fallthrough __attribute__((__fallthrough__))
#define ALIGN_UP(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define UNUSED __attribute__((unused))

/* In a spin: let the other hyperthread run (and save power). */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/*
 * The one place interrupted system calls are retried (as libdrm's drmIoctl
 * does).  read_full/write_full loop until all bytes moved; they return the
 * byte count, 0 on EOF before any byte (read_full), or -errno.
 */
ssize_t xread(int fd, void *buf, size_t len);
ssize_t xwrite(int fd, const void *buf, size_t len);
ssize_t read_full(int fd, void *buf, size_t len);
ssize_t write_full(int fd, const void *buf, size_t len);

/* "256M", "64KiB", "4096", "0x1000", "1G": returns 0 or -EINVAL / -ERANGE.
 * The one size parser of gemd and the tools. */
int parse_size(const char *s, uint64_t *out);
/* A whole unsigned number, decimal, 0x hex or 0 octal, nothing else (no
 * sign, no spaces, no suffix): 0 or -EINVAL. */
int parse_u64(const char *s, uint64_t *out);
/* "1500ms", "2s", "1.5s", "250us", "1m", "10" (a bare number is seconds,
 * as for timeout(1)): nanoseconds.  The one duration parser of gemd and
 * the tools. */
int parse_duration_ns(const char *s, uint64_t *out);

uint64_t now_ns(void);			/* CLOCK_MONOTONIC */
/* This thread's CPU time (CLOCK_THREAD_CPUTIME_ID): a system call on
 * most machines, so callers share one reading.  0 if it cannot be had. */
uint64_t thread_cpu_ns(void);

/*
 * Room for one more entry in an array of *alloc entries of size bytes
 * of which n are used: doubled (from first) when full.  0, or -ENOMEM
 * with the array as it was.
 */
int array_grow(void **arr, size_t *alloc, size_t n, size_t size, size_t first);
uint64_t now_realtime_ns(void);		/* CLOCK_REALTIME */

/* The value of a hex digit (either case), or -1. */
int hex_digit(char c);
/* The kernel's _kstrtoull(s, 0): 0x hex, 0 octal, else decimal, one
 * trailing newline allowed (no sign: callers take '+' as kstrtoull does).
 * 0, -EINVAL, or -ERANGE on overflow. */
int kstrtoull0(const char *s, unsigned long long *res);

/*
 * Whether process pid is running: it exists (or exists and is not ours)
 * and is not a zombie.  A daemon that exited is reparented to PID 1, which
 * may take seconds to reap it on a busy machine; by then it holds nothing.
 */
bool process_running(pid_t pid);

/* Whether this process may mount FUSE file systems (/dev/fuse, read and
 * write): without it gemd has no debugfs mount and serves its files
 * through the socket only. */
bool fuse_available(void);
/* Whether the directory fd, or dir, is on a live FUSE mount (gemd's
 * debugfs): a mount whose server died answers statfs with an error. */
bool fd_on_fuse(int fd);
bool path_on_fuse(const char *dir);

/* mkdir -p of the directory that will hold path (its last component is
 * not made): existing components are left alone, new ones get mode.
 * 0 or -errno. */
int make_parent_dirs(const char *path, mode_t mode);

/* The device path rule of DEVELOPERS.md: -D, $GEM_DEVICE, else the default;
 * NULL with errno EPERM (and why on stderr) when the default's runtime
 * directory is not the user's alone (rundir.h). */
const char *gem_device_path(const char *override);
/* <runtime dir> of the rule, e.g. /run/gemkit; writes into buf. */
int gem_runtime_dir(char *buf, size_t len);
/* rm -r path, never following a link: 0, or the first -errno (what can
 * be removed is). */
int remove_recursive(const char *path);

#endif
