/* The verbs, one per cmd-*.c file; the table is in commands.c. */
#ifndef GEMKIT_GEMCTL_COMMANDS_H
#define GEMKIT_GEMCTL_COMMANDS_H

#include <stdbool.h>

struct gemctl;

#define GEMCTL_VERB(name) int name(struct gemctl *ctl, int argc, char **argv)

/* cmd-builtin.c: session verbs */
GEMCTL_VERB(cmd_help);
GEMCTL_VERB(cmd_set);
GEMCTL_VERB(cmd_source);
GEMCTL_VERB(cmd_echo);
GEMCTL_VERB(cmd_handles);

/* objects */
GEMCTL_VERB(cmd_create);
GEMCTL_VERB(cmd_close);
GEMCTL_VERB(cmd_flink);
GEMCTL_VERB(cmd_open);
GEMCTL_VERB(cmd_write);
GEMCTL_VERB(cmd_read);
GEMCTL_VERB(cmd_map);
GEMCTL_VERB(cmd_unmap);
GEMCTL_VERB(cmd_set_domain);
GEMCTL_VERB(cmd_tiling);
GEMCTL_VERB(cmd_madvise);
GEMCTL_VERB(cmd_caching);

/* work */
GEMCTL_VERB(cmd_exec);
GEMCTL_VERB(cmd_fill);
GEMCTL_VERB(cmd_copy);
GEMCTL_VERB(cmd_wait);
GEMCTL_VERB(cmd_busy);
GEMCTL_VERB(cmd_throttle);

/* inspection (libgemdebugfs) */
GEMCTL_VERB(cmd_info);
GEMCTL_VERB(cmd_list);
GEMCTL_VERB(cmd_inspect);
GEMCTL_VERB(cmd_gtt);
GEMCTL_VERB(cmd_seqno);
GEMCTL_VERB(cmd_requests);
GEMCTL_VERB(cmd_clients);
GEMCTL_VERB(cmd_events);

/* workloads */
GEMCTL_VERB(cmd_workload);
GEMCTL_VERB(cmd_bench);

/* faults and driver control */
GEMCTL_VERB(cmd_hang);
GEMCTL_VERB(cmd_wait_hang);
GEMCTL_VERB(cmd_clear_error);
GEMCTL_VERB(cmd_drop_caches);
GEMCTL_VERB(cmd_suspend);
GEMCTL_VERB(cmd_resume);
GEMCTL_VERB(cmd_wedged);
/* cmd-suspend.c: suspend (true) or resume (false), reported as a verb */
int gemctl_control_verb(struct gemctl *ctl, int argc, char **argv, bool suspend);

#endif
