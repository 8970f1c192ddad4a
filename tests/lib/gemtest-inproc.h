/*
 * An in-process driver for unit tests of driver/gem and driver/debugfs:
 * one device and one drm_file, with ioctls called directly (no socket),
 * and direct access to the objects behind handles.
 */
#ifndef GEMKIT_GEMTEST_INPROC_H
#define GEMKIT_GEMTEST_INPROC_H

#include <stdint.h>

#include "gem_priv.h"

#define GTI_PID 4242			/* the pid the test file claims */

extern struct gem_device *gti_dev;
extern struct gem_file *gti_file;

void gti_setup_cfg(uint64_t aperture, uint64_t cmd_cost_ns);
void gti_setup(uint64_t aperture);
void gti_teardown(void);
int gti_ioctl(unsigned long cmd, void *arg);
uint32_t gti_create(uint64_t size);
void gti_close(uint32_t handle);
/* The object behind a handle of gti_file (the handle keeps it alive). */
struct gem_object *gti_obj(uint32_t handle);
/* Execute batch after handles[0..n); write_handle gets EXEC_OBJECT_WRITE,
 * every object extra_flags. */
int gti_exec_flags(uint32_t batch, const uint32_t *handles, unsigned int n,
		   uint32_t write_handle, uint64_t extra_flags);
int gti_exec(uint32_t batch, const uint32_t *handles, unsigned int n,
	     uint32_t write_handle);
/* A 4 KiB batch: noops MI_NOOPs, then MI_BATCH_BUFFER_END. */
uint32_t gti_make_batch_n(unsigned int noops);
uint32_t gti_make_batch(void);
void gti_idle(void);		/* wait for the GPU and retire */

#endif
