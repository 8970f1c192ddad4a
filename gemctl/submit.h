/* Submitting batches gemctl assembles (fill, copy, hang, workloads). */
#ifndef GEMKIT_GEMCTL_SUBMIT_H
#define GEMKIT_GEMCTL_SUBMIT_H

#include <stdint.h>

#include "batchbuffer.h"

struct gemctl;

/*
 * Put b in a new 4 KiB batch object and EXECBUFFER2 it (the bufmgr's
 * bm_exec) with handles[0..n) and their obj_flags (may be NULL); the
 * batch goes last.  *batch_out (may be NULL) receives the batch
 * handle, which the caller then owns; with NULL it is closed after
 * submission (the driver keeps it alive until it retires).  Relocations
 * whose target is handle 0 name the batch itself.  Reports errors
 * naming the ioctl; returns a gemctl exit code.
 */
int gemctl_submit(struct gemctl *ctl, struct gen3_batch *b, const uint32_t *handles,
		  const uint64_t *obj_flags, unsigned int n, uint32_t *batch_out);
/* The exec object flags a surface needs: on gen3 only a fence detiles a
 * blit, so tiled surfaces ask for one (EXEC_OBJECT_NEEDS_FENCE). */
uint64_t gemctl_surface_flags(const struct gen3_surf *s);

/* A 2D surface for handle, its tiling from GET_TILING; pitch 0 means
 * width * cpp rounded up to 64 bytes (tiled objects need their stride). */
int gemctl_surface(struct gemctl *ctl, uint32_t handle, uint32_t pitch,
		   uint32_t bpp, uint32_t width, struct gen3_surf *out);

/* --pitch/--dst-pitch, --src-pitch, --bpp, --from X,Y, --to X,Y (copy.c);
 * NULL for what a verb does not take. */
int gemctl_parse_blit_opts(struct gemctl *ctl, int argc, char **argv,
			   uint32_t *pitch, uint32_t *src_pitch, uint32_t *bpp,
			   int *sx, int *sy, int *dx, int *dy);

#endif
