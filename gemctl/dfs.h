/* Reading and parsing one structured debugfs file for a verb, with the
 * verb's error reporting (libgemdebugfs does the work). */
#ifndef GEMKIT_GEMCTL_DFS_H
#define GEMKIT_GEMCTL_DFS_H

#include "gemdebugfs.h"
#include "json.h"
#include "regs.h"		/* GEN3_NUM_FENCES */

struct gemctl;


int gemctl_read_objects(struct gemctl *ctl, struct gdfs_objects *out);
int gemctl_read_clients(struct gemctl *ctl, struct gdfs_clients *out);
int gemctl_read_gtt(struct gemctl *ctl, struct gdfs_gtt *out);
int gemctl_read_counters(struct gemctl *ctl, struct gdfs_counters *out);

/* This session's drm_file id (the gemkit_clients record with our pid), or
 * 0 when the session has not opened the device. */
uint32_t gemctl_my_file(struct gemctl *ctl);

/* One object as JSON / as the human block of `inspect`. */
gj *gemctl_object_json(const struct gdfs_object *o);

#endif
