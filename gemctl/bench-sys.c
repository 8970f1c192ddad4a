/*
 * What the benchmark asks of the system: gemd's pid (the peer of its
 * socket) and CPU time, this thread's CPU time, CPU placement, and a
 * description of the machine for the JSON document.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench.h"
#include "cpupin.h"
#include "sockpath.h"
#include "util.h"

const char *const bench_placement_names[3] = { "any", "same", "cross" };

int bench_gemd_pid(const char *device)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int fd, ret;

	if (!device)
		return -ENOENT;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ret = sockpath_connect(fd, device);
	if (!ret && getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		ret = -errno;
	else if (!ret)
		ret = cred.pid > 0 ? cred.pid : -ESRCH;
	close(fd);
	return ret;
}

static int read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/*
 * utime + stime of the whole process (/proc/PID/stat fields 14 and 15,
 * dead threads included).  They tick at USER_HZ, too coarse for short
 * runs, so when the per-thread scheduler statistics are readable their
 * nanosecond run times are summed instead.
 */
static uint64_t stat_cpu_ns(int pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_small(path, buf, sizeof(buf)))
		return 0;
	p = strrchr(buf, ')');		/* comm may hold spaces */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		return 0;
	return (ut + st) * (1000000000ull / (uint64_t)sysconf(_SC_CLK_TCK));
}

uint64_t bench_gemd_cpu_ns(int pid)
{
	char path[64], file[384], buf[128];
	unsigned long long run;
	uint64_t sum = 0;
	struct dirent *de;
	DIR *d;

	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return stat_cpu_ns(pid);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s/schedstat", path, de->d_name);
		if (read_small(file, buf, sizeof(buf)) ||
		    sscanf(buf, "%llu", &run) != 1) {
			closedir(d);
			return stat_cpu_ns(pid);
		}
		sum += run;
	}
	closedir(d);
	return sum;
}

void bench_thread_cpu(uint64_t *user_ns, uint64_t *sys_ns)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru)) {
		*user_ns = *sys_ns = 0;
		return;
	}
	*user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000ull +
		   (uint64_t)ru.ru_utime.tv_usec * 1000ull;
	*sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000ull +
		  (uint64_t)ru.ru_stime.tv_usec * 1000ull;
}

/* What bench_place changed, for bench_unplace to give back. */
static struct cpupin_saved gemd_saved;
static cpu_set_t own_saved;
static bool own_pinned;

enum bench_placement bench_place(int gemd_pid, enum bench_placement want,
				 const char **why)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t me, it;
	int ret, tid;

	*why = NULL;
	if (want == BENCH_ANY)
		return BENCH_ANY;
	if (gemd_pid <= 0) {
		*why = "gemd's pid is unknown";
		return BENCH_ANY;
	}
	if (want == BENCH_CROSS && ncpu < 2) {
		*why = "one CPU online";
		return BENCH_ANY;
	}
	CPU_ZERO(&me);
	CPU_ZERO(&it);
	CPU_SET(0, &me);
	CPU_SET(want == BENCH_SAME ? 0 : 1, &it);
	if (sched_getaffinity(0, sizeof(own_saved), &own_saved)) {
		*why = "cannot read this thread's affinity";
		return BENCH_ANY;
	}
	ret = cpupin_process(gemd_pid, &it, &gemd_saved, &tid);
	if (ret) {
		*why = ret == -EPERM ? "not allowed to set gemd's affinity"
				     : "cannot set gemd's affinity";
		return BENCH_ANY;
	}
	own_pinned = true;
	if (sched_setaffinity(0, sizeof(me), &me)) {
		*why = "cannot set this thread's affinity";
		bench_unplace(gemd_pid);
		return BENCH_ANY;
	}
	return want;
}

void bench_unplace(int gemd_pid)
{
	(void)gemd_pid;		/* the one bench_place saved */
	cpupin_restore(&gemd_saved);
	if (own_pinned)
		sched_setaffinity(0, sizeof(own_saved), &own_saved);
	own_pinned = false;
}

void bench_machine(struct bench_machine *m)
{
	struct utsname u;
	char line[256];
	FILE *f;

	memset(m, 0, sizeof(*m));
	snprintf(m->cpu_model, sizeof(m->cpu_model), "unknown");
	f = fopen("/proc/cpuinfo", "re");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(m->cpu_model, sizeof(m->cpu_model), "%s", colon);
		break;
	}
	if (f)
		fclose(f);
	m->cores = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	if (!uname(&u))
		snprintf(m->kernel, sizeof(m->kernel), "%s %s %s", u.sysname,
			 u.release, u.machine);
}
