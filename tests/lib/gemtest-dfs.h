/*
 * gemtest-dfs: the debugfs reads the driver tests share (libgemdebugfs
 * against the private gemd), each asserting that it worked.
 */
#ifndef GEMKIT_GEMTEST_DFS_H
#define GEMKIT_GEMTEST_DFS_H

#include <stdint.h>

#include "gemdebugfs.h"

/* The gemkit_counters counter key, read from src now. */
uint64_t gt_dfs_counter(struct gdfs *src, const char *key);
/* The id (gemkit_objects) of the object this process holds as handle. */
uint32_t gt_dfs_object_id(struct gdfs *src, uint32_t handle);
/* File name of src reads exactly text. */
void gt_dfs_expect(struct gdfs *src, const char *name, const char *text);

#endif
