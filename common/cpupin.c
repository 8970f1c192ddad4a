/* Pin a process's threads and give their masks back (cpupin.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpupin.h"

/* Append tid and its current mask; a thread that has exited is skipped. */
static int save_one(struct cpupin_saved *s, int tid)
{
	int *tids;
	cpu_set_t *masks;

	tids = realloc(s->tid, (s->n + 1) * sizeof(*tids));
	if (!tids)
		return -ENOMEM;
	s->tid = tids;
	masks = realloc(s->mask, (s->n + 1) * sizeof(*masks));
	if (!masks)
		return -ENOMEM;
	s->mask = masks;
	if (sched_getaffinity(tid, sizeof(masks[s->n]), &masks[s->n]))
		return errno == ESRCH ? 0 : -errno;
	tids[s->n++] = tid;
	return 0;
}

static const cpu_set_t *saved_mask(const struct cpupin_saved *s, int tid)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->tid[i] == tid)
			return &s->mask[i];
	return &s->main_mask;
}

/* Set every thread of pid to set, or with restore to the mask it had;
 * -errno of the first refusal (a thread that has exited is no refusal). */
static int for_each_task(int pid, const cpu_set_t *set,
			 const struct cpupin_saved *restore, int *failed_tid)
{
	char path[64];
	struct dirent *de;
	int ret = 0, tid;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		tid = atoi(de->d_name);
		if (restore)
			set = saved_mask(restore, tid);
		if (sched_setaffinity(tid, sizeof(*set), set) && errno != ESRCH &&
		    !ret) {
			ret = -errno;
			if (failed_tid)
				*failed_tid = tid;
		}
	}
	closedir(d);
	return ret;
}

int cpupin_process(int pid, const cpu_set_t *set, struct cpupin_saved *saved,
		   int *failed_tid)
{
	char path[64];
	struct dirent *de;
	int ret = 0;
	DIR *d;

	memset(saved, 0, sizeof(*saved));
	saved->pid = pid;
	*failed_tid = pid;
	if (sched_getaffinity(pid, sizeof(saved->main_mask), &saved->main_mask))
		return -errno;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return -errno;
	while (!ret && (de = readdir(d)))
		if (de->d_name[0] != '.')
			ret = save_one(saved, atoi(de->d_name));
	closedir(d);
	if (!ret)
		ret = for_each_task(pid, set, NULL, failed_tid);
	if (ret)
		cpupin_restore(saved);
	return ret;
}

void cpupin_restore(struct cpupin_saved *saved)
{
	if (saved->pid > 0)
		for_each_task(saved->pid, NULL, saved, NULL);
	free(saved->tid);
	free(saved->mask);
	memset(saved, 0, sizeof(*saved));
}
