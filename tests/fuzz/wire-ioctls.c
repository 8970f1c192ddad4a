/*
 * Print the ioctls gemd serves, "NAME 0xCODE" a line, from the one list
 * (lib/proto/ioctls.def), for scripts/gemd-livefuzz: a script cannot
 * compute the request codes, which hold the kernel's struct sizes.
 */
#include <stdio.h>
#include <sys/ioctl.h>

#include <drm.h>
#include <i915_drm.h>

int main(void)
{
#define IOCTL(name, kcmd, handler, flags, codec) \
	printf("%s %#x\n", #name, (unsigned int)(kcmd));
#include "ioctls.def"
#undef IOCTL
	return 0;
}
