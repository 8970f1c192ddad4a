/*
 * The one list of ioctls (lib/proto/ioctls.def) and the two tables built
 * from it: the driver's dispatch table (driver/gem/ioctl.c) and the wire
 * codec's (lib/proto/wire.c).  gemd used to compare them at start-up and
 * log a warning; this is that check, run by make check instead.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <drm.h>
#include <i915_drm.h>

#include "gem.h"
#include "gemtest.h"
#include "util.h"
#include "wire.h"

struct entry {
	const char *name;
	unsigned int kcmd;
};

/* The list itself, expanded once more: the columns both tables share. */
#define IOCTL(name_, kcmd_, handler, flags, codec) { #name_, kcmd_ },
static const struct entry entries[] = {
#include "ioctls.def"
};
#undef IOCTL

/* Every line of the list is in both tables, under its name and with the
 * kernel's size for its number. */
static void test_each_entry(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(entries); i++) {
		const struct entry *e = &entries[i];
		const char *gname = gem_ioctl_name(e->kcmd);

		gt_assert_f(gname && !strcmp(gname, e->name),
			    "%s: the driver calls it %s", e->name, gname ? gname : "nothing");
		gt_assert_f(!strcmp(wire_ioctl_name(e->kcmd), e->name),
			    "%s: the wire calls it %s", e->name, wire_ioctl_name(e->kcmd));
		gt_assert_eq(gem_ioctl_size(e->kcmd), (int)_IOC_SIZE(e->kcmd));
		gt_assert_eq(wire_ioctl_size(e->kcmd), (int)_IOC_SIZE(e->kcmd));
	}
}

/* Over all 256 numbers the tables agree, and know exactly the list's
 * numbers: two lines with one number would leave one table short. */
static void test_tables_agree(void)
{
	unsigned int nr, known = 0;

	for (nr = 0; nr < 256; nr++) {
		unsigned int cmd = _IO(DRM_IOCTL_BASE, nr);
		int wsize = wire_ioctl_size(cmd), gsize = gem_ioctl_size(cmd);
		const char *gname = gem_ioctl_name(cmd);

		gt_assert_f(wsize == gsize, "ioctl %#x (%s): wire carries %d bytes, "
			    "the driver expects %d", nr, wire_ioctl_name(cmd), wsize, gsize);
		if (gsize < 0) {
			gt_assert(gname == NULL);
			gt_assert(!strcmp(wire_ioctl_name(cmd), "?"));
			continue;
		}
		gt_assert_f(gname && !strcmp(gname, wire_ioctl_name(cmd)),
			    "ioctl %#x: %s in the driver, %s on the wire", nr,
			    gname ? gname : "nothing", wire_ioctl_name(cmd));
		known++;
	}
	gt_assert_eq(known, ARRAY_SIZE(entries));
}

/* A few numbers pinned, so that the list cannot lose them unnoticed. */
static void test_known_numbers(void)
{
	gt_assert(!strcmp(gem_ioctl_name(DRM_IOCTL_I915_GEM_EXECBUFFER2),
			  "I915_GEM_EXECBUFFER2"));
	/* the widest code of a number: MMAP_GTT grew into MMAP_OFFSET */
	gt_assert_eq(gem_ioctl_size(DRM_IOCTL_I915_GEM_MMAP_GTT),
		     (int)sizeof(struct drm_i915_gem_mmap_offset));
	gt_assert_eq(gem_ioctl_size(DRM_IOCTL_I915_GEM_CONTEXT_CREATE),
		     (int)sizeof(struct drm_i915_gem_context_create_ext));
	gt_assert_eq(gem_ioctl_size(DRM_IOCTL_I915_GEM_THROTTLE), 0);
	gt_assert_eq(gem_ioctl_size(DRM_IO(0xff)), -EINVAL);
	gt_assert(gem_ioctl_name(DRM_IO(0xff)) == NULL);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);
	gemtest_subtest("each-entry-in-both-tables")
		test_each_entry();
	gemtest_subtest("tables-agree-on-all-numbers")
		test_tables_agree();
	gemtest_subtest("known-numbers")
		test_known_numbers();
	return gemtest_exit();
}
