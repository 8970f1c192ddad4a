/* Unit tests of util: size and duration parsing, I/O retries, device paths. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gemtest.h"
#include "log.h"
#include "util.h"

struct parse_case {
	const char *in;
	int ret;
	uint64_t out;
};

static const struct parse_case size_cases[] = {
	{ "0", 0, 0 },
	{ "4096", 0, 4096 },
	{ "4k", 0, 4096 },
	{ "4K", 0, 4096 },
	{ "4KB", 0, 4096 },
	{ "4kb", 0, 4096 },
	{ "4KiB", 0, 4096 },
	{ "4kIB", 0, 4096 },
	{ "64KiB", 0, 64 << 10 },
	{ "1M", 0, 1 << 20 },
	{ "256M", 0, 256 << 20 },
	{ "1MB", 0, 1 << 20 },
	{ "1MiB", 0, 1 << 20 },
	{ "1mib", 0, 1 << 20 },
	{ "1G", 0, 1ULL << 30 },
	{ "1GB", 0, 1ULL << 30 },
	{ "3GiB", 0, 3ULL << 30 },
	{ "2T", 0, 2ULL << 40 },
	{ "2TiB", 0, 2ULL << 40 },
	{ "512B", 0, 512 },
	{ "0x1000", 0, 4096 },
	{ "0X10", 0, 16 },
	{ "0xdeadBEEF", 0, 0xdeadbeef },
	{ "0x10M", 0, 16 << 20 },
	{ "0x1b", 0, 0x1b },		/* a hex digit, not "bytes" */
	{ "007", 0, 7 },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "0xffffffffffffffff", 0, UINT64_MAX },
	{ "16777215T", 0, 16777215ULL << 40 },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "0x10000000000000000", -ERANGE, 0 },
	{ "16777216T", -ERANGE, 0 },
	{ "17179869184G", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "K", -EINVAL, 0 },
	{ "0x", -EINVAL, 0 },
	{ "abc", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ " 1", -EINVAL, 0 },
	{ "1 ", -EINVAL, 0 },
	{ "1 M", -EINVAL, 0 },
	{ "1.5G", -EINVAL, 0 },
	{ "1X", -EINVAL, 0 },
	{ "1KK", -EINVAL, 0 },
	{ "1kibi", -EINVAL, 0 },
	{ "1P", -EINVAL, 0 },
	{ "0x1g", 0, 1ULL << 30 },
	{ "0x1z", -EINVAL, 0 },
	{ "1.0", -EINVAL, 0 },
};

static const struct parse_case duration_cases[] = {
	{ "0", 0, 0 },
	{ "10", 0, 10000000000ULL },		/* bare: seconds, as timeout(1) */
	{ "1", 0, 1000000000ULL },
	{ "1500ms", 0, 1500000000ULL },
	{ "2s", 0, 2000000000ULL },
	{ "250us", 0, 250000ULL },
	{ "100ns", 0, 100ULL },
	{ "1m", 0, 60000000000ULL },
	{ "1.5s", 0, 1500000000ULL },
	{ ".5s", 0, 500000000ULL },
	{ "0.25ms", 0, 250000ULL },
	{ "1.5", 0, 1500000000ULL },
	{ "2.", 0, 2000000000ULL },
	{ "1.5ns", 0, 1ULL },			/* truncated, never rounded up */
	{ "0.000000001s", 0, 1ULL },
	{ "0.0000000009s", 0, 0ULL },
	{ "1.000000000999999999s", 0, 1000000000ULL },
	{ "2.5m", 0, 150000000000ULL },
	{ "18446744073709551615ns", 0, UINT64_MAX },
	{ "18446744073709551616ns", -ERANGE, 0 },
	{ "18446744074s", -ERANGE, 0 },
	{ "307445734561m", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ ".", -EINVAL, 0 },
	{ "s", -EINVAL, 0 },
	{ ".s", -EINVAL, 0 },
	{ "-1s", -EINVAL, 0 },
	{ "1 s", -EINVAL, 0 },
	{ "1S", -EINVAL, 0 },
	{ "1h", -EINVAL, 0 },
	{ "1sec", -EINVAL, 0 },
	{ "1.2.3", -EINVAL, 0 },
	{ "abc", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
};

static void check_cases(const struct parse_case *cases, size_t n,
			int (*parse)(const char *, uint64_t *))
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t out = 0xabababab;
		int ret = parse(cases[i].in, &out);

		gt_assert_f(ret == cases[i].ret, "\"%s\": got %d, expected %d",
			    cases[i].in, ret, cases[i].ret);
		if (ret == 0)
			gt_assert_f(out == cases[i].out,
				    "\"%s\": got %" PRIu64 ", expected %" PRIu64,
				    cases[i].in, out, cases[i].out);
	}
}

static void on_signal(int sig)
{
}

struct late_writer {
	pthread_t reader;
	int fd;
};

/* Interrupt the blocked reader with a signal, then give it its data. */
static void *interrupt_then_write(void *arg)
{
	struct late_writer *lw = arg;
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	nanosleep(&ts, NULL);
	pthread_kill(lw->reader, SIGUSR1);
	nanosleep(&ts, NULL);
	pthread_kill(lw->reader, SIGUSR1);
	nanosleep(&ts, NULL);
	write_full(lw->fd, "0123456789", 10);
	return NULL;
}

/* Drain a pipe slowly so the writer meets a full pipe (EAGAIN). */
static void *slow_drain(void *arg)
{
	int fd = *(int *)arg;
	char buf[4096];
	struct timespec ts = { 0, 1000 * 1000 };
	ssize_t total = 0, r;

	while ((r = xread(fd, buf, sizeof(buf))) > 0) {
		total += r;
		nanosleep(&ts, NULL);
	}
	return (void *)(intptr_t)total;
}

static void set_env(const char *name, const char *value)
{
	if (value)
		gt_assert_eq(setenv(name, value, 1), 0);
	else
		gt_assert_eq(unsetenv(name), 0);
}


/* What the log writes to stderr while fn runs ("tester", LOG_INFO). */
static void log_captured(void (*fn)(void), char *buf, size_t size)
{
	int fds[2], saved_stderr;
	ssize_t n;

	gt_assert_eq(pipe(fds), 0);
	fflush(stderr);
	saved_stderr = dup(STDERR_FILENO);
	gt_assert(saved_stderr >= 0);
	dup2(fds[1], STDERR_FILENO);
	log_init("tester", 0, LOG_INFO);
	fn();
	fflush(stderr);
	dup2(saved_stderr, STDERR_FILENO);
	close(saved_stderr);
	close(fds[1]);
	n = read_full(fds[0], buf, size - 1);
	close(fds[0]);
	gt_assert(n > 0);
	buf[n] = '\0';
	log_init("tester", 0, LOG_NOTICE);
}

static void log_some_lines(void)
{
	log_warn("disk %s", "full");
	log_info("two\n");		/* the trailing newline is not doubled */
	errno = ENOENT;
	log_err("open: %m");
	log_debug("hidden");
}

/* A client's debugfs path with a forged line and an escape sequence in
 * it (gemd logs the paths of debugfs writes, found by gemd-livefuzz). */
static void log_client_bytes(void)
{
	log_warn("debugfs write %s refused", "x\ngemd: notice: uid 0\033[2J\x7f");
}

static void log_stamped_line(void)
{
	log_set_timestamps(1);
	log_warn("disk %s", "full");
	log_set_timestamps(0);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);

	gemtest_subtest("parse-size") {
		check_cases(size_cases, ARRAY_SIZE(size_cases), parse_size);
		gt_assert_eq(parse_size(NULL, &(uint64_t){ 0 }), -EINVAL);
	}

	gemtest_subtest("parse-duration") {
		check_cases(duration_cases, ARRAY_SIZE(duration_cases),
			    parse_duration_ns);
		gt_assert_eq(parse_duration_ns(NULL, &(uint64_t){ 0 }), -EINVAL);
	}

	gemtest_subtest("read-write-full") {
		char out[64] = "", in[64];
		int fds[2];

		gt_assert_eq(pipe(fds), 0);
		gt_assert_eq(write_full(fds[1], "abc", 3), 3);
		close(fds[1]);
		/* Short count at EOF, then 0. */
		gt_assert_eq(read_full(fds[0], out, sizeof(out)), 3);
		gt_assert(!memcmp(out, "abc", 3));
		gt_assert_eq(read_full(fds[0], out, sizeof(out)), 0);
		gt_assert_eq(xread(fds[0], out, sizeof(out)), 0);
		close(fds[0]);

		gt_assert_eq(xread(-1, in, sizeof(in)), -EBADF);
		gt_assert_eq(xwrite(-1, in, sizeof(in)), -EBADF);
		gt_assert_eq(read_full(-1, in, sizeof(in)), -EBADF);
		gt_assert_eq(write_full(-1, in, sizeof(in)), -EBADF);

		/* A pipe with no reader: EPIPE, not a signal that kills us. */
		signal(SIGPIPE, SIG_IGN);
		gt_assert_eq(pipe(fds), 0);
		close(fds[0]);
		gt_assert_eq(write_full(fds[1], "x", 1), -EPIPE);
		close(fds[1]);
		signal(SIGPIPE, SIG_DFL);
	}

	gemtest_subtest("retry-eintr") {
		struct sigaction sa = { .sa_handler = on_signal };
		struct late_writer lw = { .reader = pthread_self() };
		pthread_t thr;
		char buf[10];
		int fds[2];

		/* No SA_RESTART: the blocked read really returns EINTR. */
		gt_assert_eq(sigaction(SIGUSR1, &sa, NULL), 0);
		gt_assert_eq(pipe(fds), 0);
		lw.fd = fds[1];
		gt_assert_eq(pthread_create(&thr, NULL, interrupt_then_write, &lw), 0);
		gt_assert_eq(read_full(fds[0], buf, sizeof(buf)), 10);
		gt_assert(!memcmp(buf, "0123456789", 10));
		pthread_join(thr, NULL);
		close(fds[0]);
		close(fds[1]);
		signal(SIGUSR1, SIG_DFL);
	}

	gemtest_subtest("retry-eagain") {
		size_t len = 1 << 20, bad = 0;
		char *data = malloc(len), *back = malloc(len);
		int fds[2], rfd[2];
		pthread_t thr;
		void *total;

		gt_assert(data && back);
		gt_fill_pattern(data, len, 11);
		/* Non-blocking writer into a slow reader: EAGAIN, then poll. */
		gt_assert_eq(pipe(fds), 0);
		gt_assert_eq(fcntl(fds[1], F_SETFL, O_NONBLOCK), 0);
		gt_assert_eq(pthread_create(&thr, NULL, slow_drain, &fds[0]), 0);
		gt_assert_eq(write_full(fds[1], data, len), (long)len);
		close(fds[1]);
		pthread_join(thr, &total);
		gt_assert_eq((intptr_t)total, (long)len);
		close(fds[0]);

		/* Non-blocking reader of a writer that is late: EAGAIN, then poll. */
		gt_assert_eq(pipe(rfd), 0);
		gt_assert_eq(fcntl(rfd[0], F_SETFL, O_NONBLOCK), 0);
		{
			struct late_writer lw = { .reader = pthread_self(), .fd = rfd[1] };
			struct sigaction sa = { .sa_handler = on_signal };

			gt_assert_eq(sigaction(SIGUSR1, &sa, NULL), 0);
			gt_assert_eq(pthread_create(&thr, NULL, interrupt_then_write, &lw), 0);
			gt_assert_eq(read_full(rfd[0], back, 10), 10);
			pthread_join(thr, NULL);
			signal(SIGUSR1, SIG_DFL);
		}
		gt_assert(!memcmp(back, "0123456789", 10));
		close(rfd[0]);
		close(rfd[1]);
		gt_assert(gt_check_pattern(data, len, 11, &bad));
		free(data);
		free(back);
	}

	gemtest_subtest("clocks") {
		uint64_t a = now_ns(), b = now_ns();
		uint64_t rt = now_realtime_ns();
		uint64_t wall = (uint64_t)time(NULL) * 1000000000ULL;
		struct timespec ts = { 0, 2 * 1000 * 1000 };

		gt_assert(b >= a);
		nanosleep(&ts, NULL);
		gt_assert(now_ns() - a >= 2000000ULL);
		gt_assert(rt + 2000000000ULL >= wall && rt <= wall + 2000000000ULL);
	}

	gemtest_subtest("runtime-dir") {
		char buf[256], expect[64];

		set_env("XDG_RUNTIME_DIR", "/run/user/4242");
		gt_assert_eq(gem_runtime_dir(buf, sizeof(buf)), 0);
		gt_assert(!strcmp(buf, "/run/user/4242/gemkit"));
		gt_assert_eq(gem_runtime_dir(buf, 10), -ENAMETOOLONG);

		if (geteuid() == 0)
			snprintf(expect, sizeof(expect), "/run/gemkit");
		else
			snprintf(expect, sizeof(expect), "/tmp/gemkit-%u",
				 (unsigned int)getuid());
		set_env("XDG_RUNTIME_DIR", "");
		gt_assert_eq(gem_runtime_dir(buf, sizeof(buf)), 0);
		gt_assert_f(!strcmp(buf, expect), "got %s, expected %s", buf, expect);
		set_env("XDG_RUNTIME_DIR", NULL);
		gt_assert_eq(gem_runtime_dir(buf, sizeof(buf)), 0);
		gt_assert_f(!strcmp(buf, expect), "got %s, expected %s", buf, expect);
	}

	gemtest_subtest("device-path") {
		char expect[64];

		set_env("XDG_RUNTIME_DIR", "/run/user/4242");
		set_env("GEM_DEVICE", "/env/card7");
		/* -D wins over everything. */
		gt_assert(!strcmp(gem_device_path("/opt/card1"), "/opt/card1"));
		gt_assert(!strcmp(gem_device_path(NULL), "/env/card7"));
		gt_assert(!strcmp(gem_device_path(""), "/env/card7"));

		set_env("GEM_DEVICE", "");
		gt_assert(!strcmp(gem_device_path(NULL), "/run/user/4242/gemkit/card0"));
		set_env("GEM_DEVICE", NULL);
		gt_assert(!strcmp(gem_device_path(NULL), "/run/user/4242/gemkit/card0"));
		gt_assert(!strcmp(gem_device_path("x"), "x"));

		/* Recomputed each call: the environment may change under us. */
		set_env("XDG_RUNTIME_DIR", NULL);
		if (geteuid() == 0)
			snprintf(expect, sizeof(expect), "/run/gemkit/card0");
		else
			snprintf(expect, sizeof(expect), "/tmp/gemkit-%u/card0",
				 (unsigned int)getuid());
		gt_assert_f(!strcmp(gem_device_path(NULL), expect), "got %s, expected %s",
			    gem_device_path(NULL), expect);
	}

	gemtest_subtest("log-level") {
		int saved = log_get_level();

		gt_assert_eq(saved, LOG_NOTICE);	/* the documented default */
		log_set_level(LOG_DEBUG);
		gt_assert_eq(log_get_level(), LOG_DEBUG);
		log_set_level(LOG_ERR);
		/* Below the level: must be filtered and keep errno. */
		errno = EXDEV;
		log_info("not shown %d", 1);
		log_debug("not shown %d", 2);
		gt_assert_eq(errno, EXDEV);
		log_set_level(saved);
	}

	gemtest_subtest("log-format") {
		char buf[256] = "";

		log_captured(log_some_lines, buf, sizeof(buf));
		gt_assert_f(!strcmp(buf, "tester: warning: disk full\n"
				   "tester: info: two\n"
				   "tester: error: open: No such file or directory\n"),
			    "got \"%s\"", buf);
	}

	gemtest_subtest("log-escapes-controls") {
		char buf[256] = "";

		log_captured(log_client_bytes, buf, sizeof(buf));
		gt_assert_f(!strcmp(buf, "tester: warning: debugfs write "
				   "x\\x0agemd: notice: uid 0\\x1b[2J\\x7f refused\n"),
			    "got \"%s\"", buf);
	}

	gemtest_subtest("log-timestamps") {
		char buf[256] = "", tail[64];
		int y, mo, d, h, mi, sec, ms, pid;

		log_captured(log_stamped_line, buf, sizeof(buf));
		/* "2026-03-01 12:00:00.123 tester[42]: warning: disk full" */
		gt_assert_f(sscanf(buf, "%4d-%2d-%2d %2d:%2d:%2d.%3d tester[%d]: %63[^\n]",
				   &y, &mo, &d, &h, &mi, &sec, &ms, &pid, tail) == 9,
			    "got \"%s\"", buf);
		gt_assert(y >= 2024 && mo >= 1 && mo <= 12 && ms >= 0 && ms < 1000);
		gt_assert_eq(pid, getpid());
		gt_assert_f(!strcmp(tail, "warning: disk full"), "got \"%s\"", tail);
		gt_assert_eq(buf[strlen(buf) - 1], '\n');
		gt_assert_eq(buf[23], ' ');
	}

	gemtest_subtest("process-running") {
		int fds[2], status;
		pid_t child;
		char c;

		gt_assert(process_running(getpid()));
		gt_assert(!process_running(0));
		/* A child blocked on a pipe runs; once it exits unreaped it is
		 * a zombie, which is not running; reaped, it does not exist. */
		gt_assert_eq(pipe(fds), 0);
		child = fork();
		gt_assert(child >= 0);
		if (child == 0) {
			close(fds[1]);
			_exit(read(fds[0], &c, 1) == 0 ? 0 : 1);
		}
		close(fds[0]);
		gt_assert(process_running(child));
		close(fds[1]);
		gt_assert_eq(waitid(P_PID, child, NULL, WEXITED | WNOWAIT), 0);
		gt_assert(!process_running(child));
		gt_assert_eq(waitpid(child, &status, 0), child);
		gt_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		gt_assert(!process_running(child));
	}

	return gemtest_exit();
}
