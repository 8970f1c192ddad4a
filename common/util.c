/* Small helpers: EINTR-safe I/O, size and duration parsing, clocks, paths. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "rundir.h"
#include "util.h"

/*
 * Some kernels and filesystems misbehave on huge single transfers, and
 * read(2) of more than SSIZE_MAX is implementation-defined; git caps its
 * transfers the same way (MAX_IO_SIZE).
 */
#define MAX_IO_SIZE	((size_t)1 << 30)

/* Wait until fd is ready instead of spinning on EAGAIN. */
static void wait_ready(int fd, short events)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
}

ssize_t xread(int fd, void *buf, size_t len)
{
	ssize_t r;

	if (len > MAX_IO_SIZE)
		len = MAX_IO_SIZE;
	for (;;) {
		r = read(fd, buf, len);
		if (r >= 0)
			return r;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			wait_ready(fd, POLLIN);
			continue;
		}
		return -errno;
	}
}

ssize_t xwrite(int fd, const void *buf, size_t len)
{
	ssize_t r;

	if (len > MAX_IO_SIZE)
		len = MAX_IO_SIZE;
	for (;;) {
		r = write(fd, buf, len);
		if (r >= 0)
			return r;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			wait_ready(fd, POLLOUT);
			continue;
		}
		return -errno;
	}
}

/* Returns len, a short count at EOF, 0 at EOF before any byte, or -errno. */
ssize_t read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t total = 0;

	while (total < len) {
		ssize_t r = xread(fd, p + total, len - total);

		if (r < 0)
			return r;
		if (r == 0)
			break;
		total += (size_t)r;
	}
	return (ssize_t)total;
}

ssize_t write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	size_t total = 0;

	while (total < len) {
		ssize_t r = xwrite(fd, p + total, len - total);

		if (r < 0)
			return r;
		if (r == 0)
			return -EIO;	/* no progress and no error: give up */
		total += (size_t)r;
	}
	return (ssize_t)total;
}

int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Digits in base 10 or 16; *end is set past them.  -EINVAL if none. */
static int parse_digits(const char *s, unsigned int base, uint64_t *out,
		     const char **end)
{
	uint64_t v = 0;
	const char *p = s;
	int d;

	for (; (d = hex_digit(*p)) >= 0 && (unsigned int)d < base; p++) {
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return -ERANGE;
		v = v * base + (uint64_t)d;
	}
	if (p == s)
		return -EINVAL;
	*out = v;
	*end = p;
	return 0;
}

struct unit {
	const char *name;
	uint64_t mult;
};

/* Sizes are binary whatever the spelling: "1MB" is 1 MiB, as in the kernel. */
static const struct unit size_units[] = {
	{ "", 1 }, { "b", 1 },
	{ "k", 1ULL << 10 }, { "kb", 1ULL << 10 }, { "kib", 1ULL << 10 },
	{ "m", 1ULL << 20 }, { "mb", 1ULL << 20 }, { "mib", 1ULL << 20 },
	{ "g", 1ULL << 30 }, { "gb", 1ULL << 30 }, { "gib", 1ULL << 30 },
	{ "t", 1ULL << 40 }, { "tb", 1ULL << 40 }, { "tib", 1ULL << 40 },
};

int parse_size(const char *s, uint64_t *out)
{
	const char *end;
	uint64_t v;
	size_t i;
	int ret;

	if (!s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		ret = parse_digits(s + 2, 16, &v, &end);
	else
		ret = parse_digits(s, 10, &v, &end);
	if (ret)
		return ret;

	for (i = 0; i < ARRAY_SIZE(size_units); i++) {
		if (strcasecmp(end, size_units[i].name))
			continue;
		if (v > UINT64_MAX / size_units[i].mult)
			return -ERANGE;
		*out = v * size_units[i].mult;
		return 0;
	}
	return -EINVAL;
}

/* Case matters here: "m" is minutes and "ms" milliseconds. */
static const struct unit duration_units[] = {
	/* A bare number is seconds, as timeout(1) and sleep(1) read it. */
	{ "", 1000000000ULL },
	{ "ns", 1ULL },
	{ "us", 1000ULL },
	{ "ms", 1000000ULL },
	{ "s", 1000000000ULL },
	{ "m", 60000000000ULL },
};

/* Fraction digits past this are below a nanosecond even for minutes. */
#define MAX_FRAC_DIGITS 12

int parse_duration_ns(const char *s, uint64_t *out)
{
	uint64_t ipart = 0, frac = 0, frac_scale = 1;
	unsigned __int128 ns;
	const char *p;
	bool digits = false;
	size_t i;
	int ret;

	if (!s)
		return -EINVAL;
	p = s;
	if (*p >= '0' && *p <= '9') {
		ret = parse_digits(p, 10, &ipart, &p);
		if (ret)
			return ret;
		digits = true;
	}
	if (*p == '.') {
		unsigned int n = 0;

		for (p++; *p >= '0' && *p <= '9'; p++, digits = true) {
			if (n++ >= MAX_FRAC_DIGITS)
				continue;	/* truncate, never round up */
			frac = frac * 10 + (uint64_t)(*p - '0');
			frac_scale *= 10;
		}
	}
	if (!digits)
		return -EINVAL;

	for (i = 0; i < ARRAY_SIZE(duration_units); i++) {
		uint64_t mult = duration_units[i].mult;

		if (strcmp(p, duration_units[i].name))
			continue;
		ns = (unsigned __int128)ipart * mult +
		     (unsigned __int128)frac * mult / frac_scale;
		if (ns > UINT64_MAX)
			return -ERANGE;
		*out = (uint64_t)ns;
		return 0;
	}
	return -EINVAL;
}

static uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t thread_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

uint64_t now_realtime_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

/*
 * The runtime directory: $XDG_RUNTIME_DIR/gemkit for a session user,
 * /run/gemkit for root (a system gemd), else a per-uid directory in /tmp.
 * Returns 0, or -ENAMETOOLONG if it does not fit in buf.
 */
static int remove_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if ((type == FTW_DP ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

int remove_recursive(const char *path)
{
	int ret = nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);

	if (ret < 0)
		return errno == ENOENT ? 0 : -errno;
	return ret;
}

int gem_runtime_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int n;

	if (xdg && *xdg)
		n = snprintf(buf, len, "%s/gemkit", xdg);
	else if (geteuid() == 0)
		n = snprintf(buf, len, "/run/gemkit");
	else
		n = snprintf(buf, len, "/tmp/gemkit-%u", (unsigned int)getuid());
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * The device path rule: an explicit -D, else $GEM_DEVICE, else card0 in
 * the runtime directory.  The default is rebuilt on every call (tests
 * change the environment) in a per-thread buffer, so concurrent callers
 * do not overwrite each other.  NULL with errno ENAMETOOLONG only if the
 * runtime directory is absurdly long.
 */
const char *gem_device_path(const char *override)
{
	static __thread char path[PATH_MAX];
	const char *env;
	size_t n;

	if (override && *override)
		return override;
	env = getenv("GEM_DEVICE");
	if (env && *env)
		return env;
	if (gem_runtime_dir(path, sizeof(path)))
		goto out_toolong;
	/* Never a gemd that another user put where ours is looked for. */
	if (!rundir_trusted(path)) {
		errno = EPERM;
		return NULL;
	}
	n = strlen(path);
	if (snprintf(path + n, sizeof(path) - n, "/card0") >= (int)(sizeof(path) - n))
		goto out_toolong;
	return path;

out_toolong:
	errno = ENAMETOOLONG;
	return NULL;
}

int parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

#define FUSE_SUPER_MAGIC	0x65735546	/* linux/magic.h */

bool fuse_available(void)
{
	return access("/dev/fuse", R_OK | W_OK) == 0;
}

bool fd_on_fuse(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 && sf.f_type == FUSE_SUPER_MAGIC;
}

bool path_on_fuse(const char *dir)
{
	struct statfs sf;

	return statfs(dir, &sf) == 0 && sf.f_type == FUSE_SUPER_MAGIC;
}

bool process_running(pid_t pid)
{
	char path[64], buf[512], *paren;
	ssize_t n;
	int fd;

	if (pid <= 0 || (kill(pid, 0) != 0 && errno != EPERM))
		return false;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;	/* no /proc: trust kill() */
	n = read_full(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = 0;
	/* "pid (comm) S ...": comm may hold spaces and parentheses. */
	paren = strrchr(buf, ')');
	return !(paren && paren[1] == ' ' && paren[2] == 'Z');
}

int make_parent_dirs(const char *path, mode_t mode)
{
	char dir[PATH_MAX];
	char *p, *last;
	int n = snprintf(dir, sizeof(dir), "%s", path);

	if (n < 0 || (size_t)n >= sizeof(dir))
		return -ENAMETOOLONG;
	last = strrchr(dir, '/');
	if (!last || last == dir)
		return 0;
	*last = '\0';
	for (p = dir + 1; ; p++) {
		bool end = *p == '\0';

		if (*p != '/' && !end)
			continue;
		*p = '\0';
		if (mkdir(dir, mode) < 0 && errno != EEXIST)
			return -errno;
		if (end)
			return 0;
		*p = '/';
	}
}

int array_grow(void **arr, size_t *alloc, size_t n, size_t size, size_t first)
{
	size_t na;
	void *p;

	if (n < *alloc)
		return 0;
	na = *alloc ? *alloc * 2 : first;
	p = realloc(*arr, na * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*alloc = na;
	return 0;
}

/* --- the kernel's number parsing (lib/kstrtox.c) ------------------------ */

/* A digit's value, 16 (no digit in any base we take) for anything else. */
static int digit_value(char c)
{
	int v = hex_digit(c);

	return v < 0 ? 16 : v;
}

/* _kstrtoull with base 0: 0x hex, 0 octal, else decimal; one trailing
 * newline allowed.  -EINVAL, -ERANGE on overflow, or 0. */
int kstrtoull0(const char *s, unsigned long long *res)
{
	unsigned int base = 10, n = 0;
	unsigned long long v = 0;
	bool overflow = false;
	int d;

	if (s[0] == '0') {
		if ((s[1] == 'x' || s[1] == 'X') && digit_value(s[2]) < 16) {
			base = 16;
			s += 2;
		} else {
			base = 8;
		}
	}
	for (; (d = digit_value(*s)) < (int)base; s++, n++) {
		if (v > (ULLONG_MAX - (unsigned int)d) / base)
			overflow = true;
		v = v * base + (unsigned int)d;
	}
	if (overflow)
		return -ERANGE;
	if (!n)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}
