/*
 * process_*: gemd's own CPU time, memory, descriptors and start time, read
 * from /proc/self as Prometheus' client libraries read them, so the
 * families mean what every other exporter's do.  A value that cannot be
 * read is 0; none of this takes the driver lock.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "metrics.h"
#include "metrics_priv.h"

static uint64_t start_ns;
static pthread_once_t start_once = PTHREAD_ONCE_INIT;

/* The boot time (/proc/stat's btime) plus field 22 of /proc/self/stat,
 * the start in clock ticks after boot.  Never changes: read once. */
static void read_start(void)
{
	char buf[1024], *p;
	unsigned long long ticks = 0, btime = 0;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f;
	int i;

	f = fopen("/proc/self/stat", "re");
	if (!f)
		return;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	/* After the ')' that ends comm (which may hold spaces): field 3. */
	p = p ? strrchr(buf, ')') : NULL;
	if (!p || hz <= 0)
		return;
	for (i = 2; i < 22 && p; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %llu", &ticks) != 1)
		return;
	f = fopen("/proc/stat", "re");
	if (!f)
		return;
	while (fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "btime %llu", &btime) == 1)
			break;
	fclose(f);
	if (btime)
		start_ns = btime * 1000000000ull +
			   ticks * (1000000000ull / (unsigned long long)hz);
}

static uint64_t count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	uint64_t n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n ? n - 1 : 0;	/* not the one reading the directory */
}

void metrics_read_process(struct metrics_process *p)
{
	unsigned long long vm_pages = 0, rss_pages = 0;
	long page = sysconf(_SC_PAGESIZE);
	struct rusage ru;
	struct rlimit rl;
	FILE *f;

	memset(p, 0, sizeof(*p));
	if (!getrusage(RUSAGE_SELF, &ru))
		p->cpu_ns = ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) *
			    1000000000ull +
			    ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000;
	f = fopen("/proc/self/statm", "re");
	if (f) {
		if (fscanf(f, "%llu %llu", &vm_pages, &rss_pages) == 2 && page > 0) {
			p->vm_bytes = vm_pages * (uint64_t)page;
			p->rss_bytes = rss_pages * (uint64_t)page;
		}
		fclose(f);
	}
	p->open_fds = count_fds();
	if (!getrlimit(RLIMIT_NOFILE, &rl))
		p->max_fds = rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : rl.rlim_cur;
	pthread_once(&start_once, read_start);
	p->start_ns = start_ns;
}
