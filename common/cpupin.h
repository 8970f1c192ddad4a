/*
 * Pin every thread of a process to a CPU set, and give each back the mask
 * it had: a benchmark that places gemd (same CPU as its client, or
 * another) must leave gemd as it found it.
 */
#ifndef GEMKIT_CPUPIN_H
#define GEMKIT_CPUPIN_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stddef.h>

/* The masks a process's threads had before cpupin_process. */
struct cpupin_saved {
	int pid;
	size_t n;
	int *tid;
	cpu_set_t *mask;
	cpu_set_t main_mask;	/* the process's own: for threads born since */
};

/*
 * Set every thread of pid (/proc/<pid>/task) to set, saving what each had
 * in *saved.  Threads the process starts later inherit their creator's
 * mask, which is then set too.  Returns 0, or -errno of the first
 * refusal with *failed_tid naming the thread; everything is then given
 * back already and *saved is empty.
 */
int cpupin_process(int pid, const cpu_set_t *set, struct cpupin_saved *saved,
		   int *failed_tid);

/*
 * Give every thread of saved->pid its mask back: a thread born since the
 * pinning gets the mask the process's main thread had.  Frees *saved.
 */
void cpupin_restore(struct cpupin_saved *saved);

#endif
