/* libgem's answers without a round trip (fastpath.c). */
#ifndef GEMKIT_FASTPATH_H
#define GEMKIT_FASTPATH_H

#include <stdint.h>

struct gem_dev;
struct gem_channel;

#define LIBGEM_SLOW	1	/* ask gemd as usual */
#define LIBGEM_NOTIFY	2	/* done here: send it to gemd without a reply */

/*
 * Complete the ioctl request on the file token of dev in this process if
 * the status pages allow: 0 (answered, arg filled in), LIBGEM_NOTIFY
 * (done; gemd must still be told, with GEM_MSG_F_NOREPLY, on ch), or
 * LIBGEM_SLOW.  ch is this thread's channel to dev.
 */
int libgem_fast_ioctl(struct gem_dev *dev, uint64_t token,
		      struct gem_channel *ch, unsigned long request, void *arg);

#endif
