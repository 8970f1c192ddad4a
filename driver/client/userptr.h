/* libgem internals: GEM_USERPTR's client half (userptr.c). */
#ifndef GEMKIT_USERPTR_H
#define GEMKIT_USERPTR_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

struct gem_dev;
struct drm_i915_gem_userptr;

/* Before request goes to gemd with karg (the copied-in struct): the
 * address-space checks of GEM_USERPTR, and the first use of a userptr
 * object whose range is not taken over yet.  0, or -errno for the
 * caller. */
int libgem_userptr_before(struct gem_dev *dev, struct gem_token token,
			  unsigned long request, const void *karg);
/* gemd made the object and said where (loc): take the range over. */
void libgem_userptr_created(struct gem_dev *dev, struct gem_token token,
			    const struct drm_i915_gem_userptr *args,
			    const struct gem_location *loc);
/* The program unmapped or remapped [addr, addr + len) (maps.c). */
void libgem_userptr_forget(void *addr, size_t len);

#endif
