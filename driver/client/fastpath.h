/* libgem's answers without a round trip (fastpath.c). */
#ifndef GEMKIT_FASTPATH_H
#define GEMKIT_FASTPATH_H

#include <stdbool.h>
#include <stdint.h>

#include "token.h"

struct gem_dev;
struct gem_channel;

#define LIBGEM_SLOW	1	/* ask gemd as usual */

/*
 * Complete the ioctl request on the file token of dev in this process if
 * the status pages allow: 0 (answered, arg filled in; what gemd is owed
 * is noted on ch, this thread's channel to dev), LIBGEM_SLOW, or -errno
 * (the channel broke while sending what was owed before).
 */
int libgem_fast_ioctl(struct gem_dev *dev, struct gem_token token,
		      struct gem_channel *ch, unsigned long request, void *arg);

/*
 * Where handle h of the file token on dev has its pages, as gemd keeps it
 * in the status table for a handle only this file holds: true and *arena,
 * *offset, *size, or false (not known without asking).
 */
bool libgem_handle_where(struct gem_dev *dev, struct gem_token token, uint32_t h,
			 uint32_t *arena, uint64_t *offset, uint64_t *size);

#endif
