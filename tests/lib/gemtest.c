/* gemtest: TAP subtests, a private gemd per test program, test patterns. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gemtest.h"
#include "sockpath.h"
#include "util.h"

jmp_buf __gemtest_jmp;

static const char *filter;
static int tests_run, tests_failed;
static const char *cur_name;
static bool in_subtest;
/* A failed assertion in another thread cannot longjmp; it lands here. */
static int thread_failed;
static pthread_t main_thread;
static pid_t main_pid;

static struct {
	char dir[PATH_MAX];
	char sock[PATH_MAX];
	char log[PATH_MAX];
	pid_t pid;
	bool cleanup_registered;
	bool log_shown;		/* already printed before a bail out */
} gemd;

static void diag_lines(const char *text)
{
	const char *p = text, *nl;

	flockfile(stdout);
	do {
		nl = strchr(p, '\n');
		if (nl) {
			printf("# %.*s\n", (int)(nl - p), p);
			p = nl + 1;
		} else if (*p) {
			printf("# %s\n", p);
		}
	} while (nl && *p);
	funlockfile(stdout);
}

static void vdiag(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));
static void vdiag(const char *fmt, va_list ap)
{
	char buf[4096];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	diag_lines(buf);
}

void gemtest_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(fmt, ap);
	va_end(ap);
}

void gemtest_init(int argc, char **argv)
{
	/* Line buffered, so TAP lines and gemd's log never arrive out of order. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	main_thread = pthread_self();
	main_pid = getpid();
	filter = argc > 1 && argv[1][0] ? argv[1] : NULL;
	/* Every driver the tests run, in process or the private gemd,
	 * checks its state after each ioctl and aborts on a violation
	 * (gemd(8); set GEMKIT_VERIFY=0 to measure without). */
	setenv("GEMKIT_VERIFY", "1", 0);
}

static void report(bool ok, const char *directive)
{
	tests_run++;
	if (!ok)
		tests_failed++;
	printf("%s %d - %s%s\n", ok ? "ok" : "not ok", tests_run, cur_name,
	       directive ? directive : "");
	fflush(stdout);
	in_subtest = false;
}

bool __gemtest_subtest_begin(const char *name)
{
	/* A body left with break never reached its end: it passed. */
	if (in_subtest)
		__gemtest_subtest_end();
	if (filter && !strstr(name, filter))
		return false;
	cur_name = name;
	in_subtest = true;
	__atomic_store_n(&thread_failed, 0, __ATOMIC_SEQ_CST);
	return true;
}

void __gemtest_subtest_end(void)
{
	if (!in_subtest)
		return;
	report(!__atomic_load_n(&thread_failed, __ATOMIC_SEQ_CST), NULL);
}

int gemtest_exit(void)
{
	if (in_subtest)
		__gemtest_subtest_end();
	printf("1..%d\n", tests_run);
	fflush(stdout);
	return tests_failed ? 1 : 0;
}

static void bail_out(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
static void bail_out(const char *fmt, ...)
{
	va_list ap;

	printf("Bail out! ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	tests_failed++;		/* so the exit handler shows gemd's log */
	exit(1);
}

/*
 * Where a failure cannot end a subtest by longjmp: in a forked child it
 * ends the child (the parent sees the status); in another thread it ends
 * the thread and fails the subtest when it finishes; outside any subtest
 * it ends the program.
 */
static void fail_elsewhere(void)
{
	if (getpid() != main_pid) {
		fflush(stdout);
		_exit(1);
	}
	if (!pthread_equal(pthread_self(), main_thread)) {
		__atomic_store_n(&thread_failed, 1, __ATOMIC_SEQ_CST);
		pthread_exit(NULL);
	}
	if (!in_subtest)
		bail_out("failure outside a subtest");
}

void __gemtest_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	gemtest_diag("%s:%d: %s", file, line, msg);

	fail_elsewhere();
	report(false, NULL);
	longjmp(__gemtest_jmp, 1);
}

void gemtest_skip(const char *why)
{
	char directive[512];

	if (getpid() == main_pid && pthread_equal(pthread_self(), main_thread) &&
	    !in_subtest) {
		/* Nothing can run at all (e.g. no gemd): skip the program. */
		if (tests_run == 0) {
			printf("1..0 # SKIP %s\n", why);
			fflush(stdout);
			exit(0);
		}
		gemtest_diag("skipping the rest: %s", why);
		exit(gemtest_exit());
	}
	if (getpid() != main_pid) {
		fflush(stdout);
		_exit(0);
	}
	if (!pthread_equal(pthread_self(), main_thread))
		pthread_exit(NULL);
	snprintf(directive, sizeof(directive), " # SKIP %s", why);
	report(true, directive);
	longjmp(__gemtest_jmp, 1);
}

/* --- the private gemd ------------------------------------------------- */

static int remove_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	remove(path);
	return 0;
}

static void show_log(void)
{
	FILE *f;
	char line[1024];

	if (gemd.log_shown || !gemd.log[0] || !(f = fopen(gemd.log, "r")))
		return;
	gemd.log_shown = true;
	gemtest_diag("--- %s ---", gemd.log);
	while (fgets(line, sizeof(line), f))
		gemtest_diag("%s", line);
	fclose(f);
}

static void cleanup_at_exit(void)
{
	/* Forked children run atexit too; only the test itself cleans up. */
	if (getpid() != main_pid)
		return;
	gemtest_stop_gemd();
	if (tests_failed)
		show_log();
	if (gemd.dir[0])
		nftw(gemd.dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	gemd.dir[0] = '\0';
}

pid_t gt_fork(void)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	gt_assert_f(pid >= 0, "fork: %s", strerror(errno));
	return pid;
}

void gt_wait_child(pid_t pid, int status)
{
	int st;

	gt_assert_eq(waitpid(pid, &st, 0), pid);
	if (status >= 0)
		gt_assert_f(WIFEXITED(st) && WEXITSTATUS(st) == status,
			    "child status 0x%x, want exit %d", st, status);
	else
		gt_assert_f(WIFSIGNALED(st) && WTERMSIG(st) == -status,
			    "child status 0x%x, want signal %d", st, -status);
}

const char *gemtest_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	int n;

	if (gemd.dir[0])
		return gemd.dir;
	if (!main_pid)
		main_pid = getpid();	/* used before gemtest_init */
	if (!base || !*base)
		base = "/tmp";
	n = snprintf(gemd.dir, sizeof(gemd.dir), "%s/gemtest.XXXXXX", base);
	if (n < 0 || (size_t)n >= sizeof(gemd.dir) || !mkdtemp(gemd.dir)) {
		gemd.dir[0] = '\0';
		bail_out("cannot create a temporary directory");
	}
	if (!gemd.cleanup_registered) {
		atexit(cleanup_at_exit);
		gemd.cleanup_registered = true;
	}
	return gemd.dir;
}

int gemtest_gemd_pid(void)
{
	return gemd.pid;
}

static void exec_gemd(const char *const *argv)
{
	int fd = open(gemd.log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	int null = open("/dev/null", O_RDONLY);

	/* If the test dies, gemd goes too. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (fd >= 0) {
		/* stdout too: stray output from gemd would corrupt the TAP stream. */
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
	if (null >= 0)
		dup2(null, STDIN_FILENO);
	execv(argv[0], (char *const *)argv);
	fprintf(stderr, "gemtest: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static bool gemd_accepts(const char *sock)
{
	int fd, ret;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	ret = sockpath_connect(fd, sock);
	close(fd);
	return ret == 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * Poll ready(arg) every 10 ms for up to ms; bail out with gemd's log if
 * gemd exits first or the time runs out, saying that it did not `what`.
 */
static void wait_for_gemd(bool (*ready)(const char *), const char *arg,
			  long ms, const char *what)
{
	int status;
	long i;

	for (i = 0; i < ms / 10; i++) {
		if (waitpid(gemd.pid, &status, WNOHANG) == gemd.pid) {
			gemd.pid = 0;
			show_log();
			if (WIFEXITED(status))
				gemtest_diag("gemd exited with status %d", WEXITSTATUS(status));
			else
				gemtest_diag("gemd killed by signal %d", WTERMSIG(status));
			bail_out("gemd exited before it could %s", what);
		}
		if (ready(arg))
			return;
		sleep_ms(10);
	}
	show_log();
	bail_out("gemd did not %s within %ld s", what, ms / 1000);
}

const char *gemtest_start_gemd(const char *const *extra_args)
{
	const char *debugfs = NULL;
	const char *build = getenv("GEMKIT_BUILD_DIR");
	const char *argv[64];
	char bin[PATH_MAX];
	const char *dir;
	size_t argc = 0, i;

	if (gemd.pid)
		return gemd.sock;
	dir = gemtest_tmpdir();
	if ((size_t)snprintf(gemd.sock, sizeof(gemd.sock), "%s/card0", dir) >= sizeof(gemd.sock) ||
	    (size_t)snprintf(gemd.log, sizeof(gemd.log), "%s/gemd.log", dir) >= sizeof(gemd.log))
		bail_out("temporary directory path too long");
	if (build && *build)
		snprintf(bin, sizeof(bin), "%s/gemd", build);
	else
		snprintf(bin, sizeof(bin), "./gemd");

	argv[argc++] = bin;
	argv[argc++] = "-D";
	argv[argc++] = gemd.sock;
	/* Most driver tests need no FUSE mount; those that do pass --debugfs. */
	for (i = 0; extra_args && extra_args[i]; i++)
		if (!strcmp(extra_args[i], "--debugfs")) {
			debugfs = extra_args[i + 1];
			break;
		}
	if (!debugfs)
		argv[argc++] = "--no-debugfs";
	while (extra_args && *extra_args && argc < sizeof(argv) / sizeof(argv[0]) - 1)
		argv[argc++] = *extra_args++;
	argv[argc] = NULL;

	fflush(NULL);	/* the child must not flush our buffers again */
	gemd.pid = fork();
	if (gemd.pid < 0) {
		gemd.pid = 0;
		bail_out("fork failed");
	}
	if (gemd.pid == 0)
		exec_gemd(argv);

	wait_for_gemd(gemd_accepts, gemd.sock, 10000, "accept connections");
	/*
	 * gemd mounts its debugfs tree after its socket accepts (driver/server
	 * main.c), so a test that asked for one waits for the mount as well,
	 * as the caller of gemd --daemon does; a busy machine made the test
	 * look before the mount and take it for a machine without FUSE.  No
	 * wait where there is no FUSE to mount with: the test decides what
	 * that means.
	 */
	if (debugfs && fuse_available())
		wait_for_gemd(path_on_fuse, debugfs, 30000, "mount its debugfs");
	setenv("GEM_DEVICE", gemd.sock, 1);
	return gemd.sock;
}

void gemtest_stop_gemd(void)
{
	int status, i, sent = SIGTERM;
	pid_t r = 0;

	if (!gemd.pid || getpid() != main_pid)
		return;
	kill(gemd.pid, SIGTERM);
	for (i = 0; i < 500; i++) {
		r = waitpid(gemd.pid, &status, WNOHANG);
		if (r != 0)
			break;
		sleep_ms(10);
	}
	if (r == 0) {
		gemtest_diag("gemd ignored SIGTERM for 5 s; killing it");
		sent = SIGKILL;
		kill(gemd.pid, SIGKILL);
		r = waitpid(gemd.pid, &status, 0);
	}
	/* A crash on the way out is worth knowing about (ASan reports land here). */
	if (r == gemd.pid) {
		if (WIFSIGNALED(status) && WTERMSIG(status) != sent)
			gemtest_diag("gemd killed by signal %d", WTERMSIG(status));
		else if (WIFEXITED(status) && WEXITSTATUS(status))
			gemtest_diag("gemd exited with status %d", WEXITSTATUS(status));
	}
	gemd.pid = 0;
}

/* --- deterministic data ------------------------------------------------ */

uint32_t gt_rand(uint32_t *state)
{
	uint32_t x = *state ? *state : 0x2545f491u;	/* 0 is a fixed point */

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

/* The dword at byte offset off (a multiple of 4): murmur3's finaliser. */
static uint32_t pattern_dword(uint32_t seed, size_t off)
{
	uint32_t x = seed * 0x9e3779b1u ^ (uint32_t)(off / 4) ^
		     (uint32_t)((uint64_t)off >> 34);

	x ^= x >> 16;
	x *= 0x85ebca6bu;
	x ^= x >> 13;
	x *= 0xc2b2ae35u;
	x ^= x >> 16;
	return x;
}

static uint8_t pattern_byte(uint32_t seed, size_t off)
{
	return (uint8_t)(pattern_dword(seed, off & ~(size_t)3) >> ((off & 3) * 8));
}

void gt_fill_pattern(void *buf, size_t len, uint32_t seed)
{
	uint8_t *p = buf;
	size_t off = 0;

	for (; off + 4 <= len; off += 4) {
		uint32_t v = pattern_dword(seed, off);

		/* Little-endian bytes, whatever the host, so the GPU sees the same. */
		p[off] = (uint8_t)v;
		p[off + 1] = (uint8_t)(v >> 8);
		p[off + 2] = (uint8_t)(v >> 16);
		p[off + 3] = (uint8_t)(v >> 24);
	}
	for (; off < len; off++)
		p[off] = pattern_byte(seed, off);
}

bool gt_check_pattern(const void *buf, size_t len, uint32_t seed, size_t *bad)
{
	const uint8_t *p = buf;
	size_t off, i;

	/* One hash per dword: objects of many megabytes get checked. */
	for (off = 0; off < len; off += 4) {
		uint32_t v = pattern_dword(seed, off);

		for (i = 0; i < 4 && off + i < len; i++) {
			if (p[off + i] == (uint8_t)(v >> (i * 8)))
				continue;
			if (bad)
				*bad = off + i;
			return false;
		}
	}
	return true;
}
