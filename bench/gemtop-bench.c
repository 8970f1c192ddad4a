/*
 * gemtop-bench: gemtop's CPU at a 1 s interval, counting the gemd work it
 * causes, at 1,000 and 100,000 objects, against a floor measured in the
 * same run (issue 7: <= 1% of one CPU with 1,000 objects and <= 10% with
 * 100,000).
 *
 * It starts a private gemd (debugfs mounted next to its socket), creates
 * the objects through libgem, then runs gemtop -b -d 1 as a child for
 * RUN_S samples, in two shapes:
 *   objects view  --format text: every object read, parsed, filtered,
 *                 sorted, the top rows printed (what view 1 costs), with
 *                 gemtop's throttle of the objects reads (gt_objects_due);
 *   header only   --format csv: counters, ring, GTT and the era list
 *                 totals (what the other views cost, less their own files).
 * CPU is gemtop's (wait4 rusage) plus gemd's (/proc/PID/stat) over the
 * run, as % of one CPU over the wall time.
 *
 * The floor: pread of gemkit_objects from offset 0 on a kept-open fd of
 * the mount (gemd generating the text plus the copy to us), the least any
 * reader of every object pays per read; its %CPU is that read once a
 * second.  It is the best of REPEAT runs of FLOOR_READS reads.
 *
 *	gemtop-bench [--gemd PATH] [--gemtop PATH] [COUNTS...]
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtop.h"		/* GT_OBJECTS_DUTY, for the legend */
#include "libgem.h"
#include "strbuf.h"
#include "util.h"

#define RUN_S		20
#define FLOOR_READS	50
#define REPEAT		3

static char tmpdir[] = "/tmp/gemtop-bench.XXXXXX";
static char sock[128], pidfile[160], dfs[160];
static pid_t gemd_pid;
static bool tmpdir_made;

static void die(const char *what)
{
	fprintf(stderr, "gemtop-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* user + system seconds of a process, from /proc/PID/stat. */
static double proc_cpu_s(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut = 0, st = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* Fields after the ")" of comm: state is 3, utime 14, stime 15. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
			 &ut, &st) != 2)
		return 0;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static void start_gemd(const char *gemd)
{
	char buf[32];
	pid_t pid;
	int status, fd;
	ssize_t n;

	if (!mkdtemp(tmpdir))
		die("mkdtemp");
	tmpdir_made = true;
	snprintf(sock, sizeof(sock), "%s/card0", tmpdir);
	snprintf(pidfile, sizeof(pidfile), "%s/gemd.pid", tmpdir);
	snprintf(dfs, sizeof(dfs), "%s/debugfs", tmpdir);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		execl(gemd, gemd, "-D", sock, "--daemon", "--pidfile", pidfile, "--debugfs",
		      dfs, "--log-file", "/dev/null", "--aperture", "512M", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "gemtop-bench: '%s' did not start\n", gemd);
		exit(1);
	}
	fd = open(pidfile, O_RDONLY);
	if (fd < 0)
		die(pidfile);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	gemd_pid = (pid_t)atoi(buf);
}

static void stop_gemd(void)
{
	char cmd[256];

	if (gemd_pid > 0) {
		kill(gemd_pid, SIGTERM);
		while (kill(gemd_pid, 0) == 0)
			usleep(10000);
	}
	if (!tmpdir_made)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		fprintf(stderr, "gemtop-bench: could not remove %s\n", tmpdir);
}

static void create_objects(int fd, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		struct drm_i915_gem_create cr = { .size = 4096 };

		if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &cr))
			die("GEM_CREATE");
	}
}

/*
 * gemtop -b with format fmt at a 1 s interval for RUN_S samples: the CPU it
 * and gemd spent, as % of one CPU over the wall time.  This is the real
 * cost, the throttled objects reads (gt_objects_due) included.
 */
static double gemtop_pct(const char *gemtop, const char *fmt)
{
	struct rusage ru;
	uint64_t t0;
	double g0, cpu, wall;
	int status;
	pid_t pid;

	g0 = proc_cpu_s(gemd_pid);
	t0 = now_ns();
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		char n[16];

		snprintf(n, sizeof(n), "%d", RUN_S);
		execl(gemtop, gemtop, "-D", sock, "-b", "-n", n, "-d", "1",
		      "--format", fmt, "-o", "/dev/null", (char *)NULL);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "gemtop-bench: '%s' failed\n", gemtop);
		exit(1);
	}
	wall = (double)(now_ns() - t0) / 1e9;
	cpu = tv_s(ru.ru_utime) + tv_s(ru.ru_stime) + proc_cpu_s(gemd_pid) - g0;
	return 100.0 * cpu / wall;
}

/* The floor: pread gemkit_objects whole on a kept-open fd. */
static double floor_cpu(size_t *bytes)
{
	char path[256];
	struct strbuf sb = STRBUF_INIT;
	double best = 1e9;
	int fd, r, i;

	snprintf(path, sizeof(path), "%s/dri/0/gemkit_objects", dfs);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	strbuf_grow(&sb, 1 << 20);
	for (r = 0; r < REPEAT; r++) {
		struct rusage a, b;
		double g0 = proc_cpu_s(gemd_pid), cpu;

		getrusage(RUSAGE_SELF, &a);
		for (i = 0; i < FLOOR_READS; i++) {
			off_t off = 0;
			ssize_t n;

			strbuf_reset(&sb);
			for (;;) {
				if (strbuf_grow(&sb, 1 << 20))
					die("strbuf_grow");
				n = pread(fd, sb.buf + sb.len, sb.alloc - sb.len - 1, off);
				if (n < 0 && errno == EINTR)
					continue;
				if (n <= 0)
					break;
				sb.len += (size_t)n;
				off += n;
			}
		}
		getrusage(RUSAGE_SELF, &b);
		cpu = tv_s(b.ru_utime) - tv_s(a.ru_utime) + tv_s(b.ru_stime) -
		      tv_s(a.ru_stime) + proc_cpu_s(gemd_pid) - g0;
		if (cpu < best)
			best = cpu;
	}
	*bytes = sb.len;
	close(fd);
	strbuf_release(&sb);
	return best / FLOOR_READS;
}

int main(int argc, char **argv)
{
	static const unsigned long def_counts[] = { 1000, 100000 };
	char gemd_buf[4200], gemtop_buf[4200], self[4096], dir[4096];
	const char *gemd = NULL, *gemtop = NULL;
	unsigned long counts[8], have = 0, ncounts = 0;
	size_t i;
	int fd, a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--gemd") && a + 1 < argc) {
			gemd = argv[++a];
		} else if (!strcmp(argv[a], "--gemtop") && a + 1 < argc) {
			gemtop = argv[++a];
		} else if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			printf("usage: gemtop-bench [--gemd PATH] [--gemtop PATH] [COUNTS...]\n"
			       "gemtop's CPU per refresh (gemd's work included) at each object\n"
			       "count (default 1000 100000) against the same-run floor.\n");
			return 0;
		} else if (ncounts < ARRAY_SIZE(counts)) {
			counts[ncounts++] = strtoul(argv[a], NULL, 0);
		}
	}
	if (!ncounts)
		for (i = 0; i < ARRAY_SIZE(def_counts); i++)
			counts[ncounts++] = def_counts[i];
	/* The build directory: ours, or its parent when libtool ran us
	 * from .libs/. */
	snprintf(self, sizeof(self), "%s", argv[0]);
	snprintf(dir, sizeof(dir), "%s", dirname(self));
	if (strlen(dir) >= 6 && !strcmp(dir + strlen(dir) - 6, "/.libs"))
		dir[strlen(dir) - 6] = '\0';
	else if (!strcmp(dir, ".libs"))
		snprintf(dir, sizeof(dir), ".");
	if (!gemd) {
		snprintf(gemd_buf, sizeof(gemd_buf), "%s/gemd", dir);
		gemd = gemd_buf;
	}
	if (!gemtop) {
		snprintf(gemtop_buf, sizeof(gemtop_buf), "%s/gemtop/gemtop", dir);
		gemtop = gemtop_buf;
	}
	/* First, so a gemd that fails to start leaves no directory behind. */
	atexit(stop_gemd);
	start_gemd(gemd);
	fd = gem_open(sock, 0);
	if (fd < 0)
		die(sock);
	printf("gemtop-bench: %% of one CPU at a 1 s interval over %d s, gemtop plus the "
	       "gemd work it causes\n", RUN_S);
	printf("%9s %10s %12s %14s %12s %6s\n", "objects", "floor ms", "floor %CPU",
	       "objects view", "header only", "goal");
	for (i = 0; i < ncounts; i++) {
		double fl, obj, hdr, goal = counts[i] > 10000 ? 10 : 1;
		size_t bytes = 0;

		create_objects(fd, counts[i] - have);
		have = counts[i];
		fl = floor_cpu(&bytes);
		obj = gemtop_pct(gemtop, "text");
		hdr = gemtop_pct(gemtop, "csv");
		printf("%9lu %10.2f %11.2f%% %13.2f%% %11.2f%% %5.0f%% %s\n", counts[i],
		       fl * 1e3, fl * 100, obj, hdr, goal, obj <= goal ? "ok" : "OVER");
		fflush(stdout);
	}
	printf("floor: one pread of gemkit_objects (%s), gemd's generation and the copy; "
	       "floor %%CPU: that read every second.\n"
	       "objects view: gemtop -b --format text (every object parsed, filtered, "
	       "sorted, top rows printed), objects re-read at most 1/%d of the time.\n",
	       "the least any reader of every object pays", GT_OBJECTS_DUTY);
	gem_close(fd);
	return 0;
}
