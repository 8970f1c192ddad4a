/*
 * gem_basic: handles, the small ioctls and their errnos (i915_gem.c,
 * i915_getparam.c, drm_gem.c as a 945G kernel answers them).
 */
#include <stdlib.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

static void create_size(int fd, uint64_t asked, uint64_t expect)
{
	uint64_t size = asked;
	uint32_t handle = 0;

	gt_assert_eq(__gt_create(fd, &size, &handle), 0);
	gt_assert_eq_u64(size, expect);
	gt_assert(handle != 0);
	gt_close(fd, handle);
}

static void test_create_size(int fd)
{
	struct drm_i915_gem_create arg = { .size = 0 };

	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &arg), EINVAL);
	gt_assert_eq(arg.handle, 0);

	create_size(fd, 1, 4096);
	create_size(fd, 4095, 4096);
	create_size(fd, 4096, 4096);
	create_size(fd, 4097, 8192);
	create_size(fd, 3 * 4096 + 17, 4 * 4096);
	create_size(fd, 1 << 20, 1 << 20);
}

/* drm_gem_handle_create: idr_alloc(.., 1, 0): the lowest free id >= 1. */
static void test_lowest_free_handle(void)
{
	int fd = gt_open();
	uint32_t h[5];
	int i;

	for (i = 0; i < 5; i++) {
		h[i] = gt_create(fd, 4096);
		gt_assert_eq(h[i], i + 1);
	}
	gt_close(fd, 2);
	gt_assert_eq(gt_create(fd, 4096), 2);
	gt_close(fd, 1);
	gt_close(fd, 4);
	gt_assert_eq(gt_create(fd, 4096), 1);
	gt_assert_eq(gt_create(fd, 4096), 4);
	gt_assert_eq(gt_create(fd, 4096), 6);
	gem_close(fd);
}

static void test_handles_per_file(void)
{
	int a = gt_open(), b = gt_open();
	uint32_t ha, hb, va = 0xaaaa5555, vb = 0, got = 0;

	ha = gt_create(a, 8192);
	gt_assert_eq(ha, 1);
	gt_write(a, ha, 0, &va, sizeof(va));
	/* b has no objects at all: a's handle means nothing there. */
	gt_assert_errno(__gt_read(b, ha, 0, &got, sizeof(got)), ENOENT);
	gt_assert_errno(__gt_close(b, ha), EINVAL);

	/* b's first handle is 1 too, and a different object. */
	hb = gt_create(b, 4096);
	gt_assert_eq(hb, 1);
	gt_read(b, hb, 0, &got, sizeof(got));
	gt_assert_eq(got, 0);
	vb = 0x12345678;
	gt_write(b, hb, 0, &vb, sizeof(vb));
	gt_read(a, ha, 0, &got, sizeof(got));
	gt_assert_eq(got, va);
	/* The size tells them apart as well. */
	gt_assert_errno(__gt_read(b, hb, 4096, &got, sizeof(got)), EINVAL);
	gt_read(a, ha, 4096, &got, sizeof(got));

	gem_close(b);
	/* Closing b's file leaves a's object alone. */
	gt_read(a, ha, 0, &got, sizeof(got));
	gt_assert_eq(got, va);
	gem_close(a);
}

static void test_close_errors(int fd)
{
	uint32_t h = gt_create(fd, 4096);

	gt_assert_errno(__gt_close(fd, 0), EINVAL);
	gt_assert_errno(__gt_close(fd, 0x7fffffff), EINVAL);
	gt_assert_errno(__gt_close(fd, h + 1000), EINVAL);
	gt_close(fd, h);
	gt_assert_errno(__gt_close(fd, h), EINVAL);
	/* The object is gone for every other ioctl too. */
	gt_assert_errno(__gt_read(fd, h, 0, &h, sizeof(h)), ENOENT);
}

static int getparam(int fd, int param, int *value)
{
	struct drm_i915_getparam gp = { .param = param, .value = value };

	return gem_ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp);
}

static void test_getparam(int fd)
{
	int value;

	gt_assert_eq(gt_getparam(fd, I915_PARAM_CHIPSET_ID), 0x2772);
	gt_assert_eq(gt_getparam(fd, I915_PARAM_HAS_EXECBUF2), 1);
	gt_assert_eq(gt_getparam(fd, I915_PARAM_NUM_FENCES_AVAIL), 16);
	gt_assert_eq(gt_getparam(fd, I915_PARAM_MMAP_GTT_VERSION), 4);
	/* Rings a 945G does not have: success with 0, not an error. */
	value = -1;
	gt_assert_eq(getparam(fd, I915_PARAM_HAS_BSD, &value), 0);
	gt_assert_eq(value, 0);
	value = -1;
	gt_assert_eq(getparam(fd, I915_PARAM_HAS_BLT, &value), 0);
	gt_assert_eq(value, 0);
	value = -1;
	gt_assert_eq(getparam(fd, I915_PARAM_HAS_LLC, &value), 0);
	gt_assert_eq(value, 0);

	value = 0x5a5a;
	gt_assert_errno(getparam(fd, 9999, &value), EINVAL);
	gt_assert_eq(value, 0x5a5a);
	gt_assert_errno(getparam(fd, -1, &value), EINVAL);
}

/* drm_copy_field: copy what fits, always report the full length. */
static void test_version(int fd)
{
	char name[32], date[64], desc[64], small[2];
	struct drm_version v;

	memset(&v, 0, sizeof(v));
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_VERSION, &v), 0);
	gt_assert_eq(v.name_len, 4);
	gt_assert(v.date_len > 0);
	gt_assert(v.desc_len > 0);
	gt_assert_eq(v.version_major, 1);

	memset(name, 0, sizeof(name));
	memset(date, 0, sizeof(date));
	memset(desc, 0, sizeof(desc));
	memset(&v, 0, sizeof(v));
	v.name = name;
	v.name_len = sizeof(name) - 1;
	v.date = date;
	v.date_len = sizeof(date) - 1;
	v.desc = desc;
	v.desc_len = sizeof(desc) - 1;
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_VERSION, &v), 0);
	gt_assert_eq(v.name_len, 4);
	gt_assert_f(!strcmp(name, "i915"), "name '%s', expected 'i915'", name);
	gt_assert_eq(strlen(date), v.date_len);
	gt_assert_eq(strlen(desc), v.desc_len);

	/* A short buffer gets a prefix, the length stays the full one. */
	memset(&v, 0, sizeof(v));
	memset(small, 'x', sizeof(small));
	v.name = small;
	v.name_len = sizeof(small);
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_VERSION, &v), 0);
	gt_assert_eq(v.name_len, 4);
	gt_assert(small[0] == 'i' && small[1] == '9');
}

static void test_get_unique(int fd)
{
	char buf[64];
	struct drm_unique u = { .unique_len = sizeof(buf), .unique = buf };

	memset(buf, 'x', sizeof(buf));
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_GET_UNIQUE, &u), 0);
	gt_assert_eq(u.unique_len, 0);
}

static void test_aperture(int fd)
{
	struct drm_i915_gem_get_aperture ap;

	memset(&ap, 0xff, sizeof(ap));
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_GET_APERTURE, &ap), 0);
	gt_assert_eq_u64(ap.aper_size, 256ull << 20);
	/* Only the kernel's own pins (the ring) may be missing. */
	gt_assert(ap.aper_available_size <= ap.aper_size);
	gt_assert(ap.aper_available_size >= ap.aper_size - (1u << 20));
}

static int create_ext(int fd, uint64_t size, uint16_t class, uint16_t instance,
		      struct drm_i915_gem_create_ext *out)
{
	struct drm_i915_gem_memory_class_instance region = {
		.memory_class = class, .memory_instance = instance,
	};
	struct drm_i915_gem_create_ext_memory_regions ext = {
		.base = { .name = I915_GEM_CREATE_EXT_MEMORY_REGIONS },
		.num_regions = 1,
		.regions = (uint64_t)(uintptr_t)&region,
	};

	memset(out, 0, sizeof(*out));
	out->size = size;
	out->extensions = (uint64_t)(uintptr_t)&ext;
	return gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE_EXT, out);
}

static void test_create_ext(int fd)
{
	struct drm_i915_gem_create_ext arg;
	uint32_t v = 0xfeedf00d, got = 0;

	gt_assert_eq(create_ext(fd, 5000, I915_MEMORY_CLASS_SYSTEM, 0, &arg), 0);
	gt_assert(arg.handle != 0);
	gt_assert_eq_u64(arg.size, 8192);
	gt_write(fd, arg.handle, 8188, &v, sizeof(v));
	gt_read(fd, arg.handle, 8188, &got, sizeof(got));
	gt_assert_eq(got, v);
	gt_close(fd, arg.handle);

	/* No extension at all is plain GEM_CREATE. */
	memset(&arg, 0, sizeof(arg));
	arg.size = 4096;
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE_EXT, &arg), 0);
	gt_assert(arg.handle != 0);
	gt_close(fd, arg.handle);
}

/* A 945G has no device-local memory: a region the device lacks is
 * -EINVAL (set_placements of Linux 6.1), as is a second instance. */
static void test_create_ext_device(int fd)
{
	struct drm_i915_gem_create_ext arg;

	gt_assert_errno(create_ext(fd, 4096, I915_MEMORY_CLASS_DEVICE, 0, &arg),
			EINVAL);
	gt_assert_eq(arg.handle, 0);
	gt_assert_errno(create_ext(fd, 4096, I915_MEMORY_CLASS_SYSTEM, 1, &arg),
			EINVAL);
}

/* No PXP on a 945G: a protected object is -ENODEV (ext_set_protected of
 * Linux 6.1; IGT gem_pxp hw-rejects-pxp-buffer), a bad flag -EINVAL. */
static void test_create_ext_protected(int fd)
{
	struct drm_i915_gem_create_ext_protected_content ext = {
		.base = { .name = I915_GEM_CREATE_EXT_PROTECTED_CONTENT },
	};
	struct drm_i915_gem_create_ext arg = {
		.size = 4096, .extensions = (uintptr_t)&ext,
	};

	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE_EXT, &arg), ENODEV);
	gt_assert_eq(arg.handle, 0);
	ext.flags = 1;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE_EXT, &arg), EINVAL);
	ext.base.name = 2;	/* no such extension */
	ext.flags = 0;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE_EXT, &arg), EINVAL);
}

static void test_context_create(int fd)
{
	struct drm_i915_gem_context_create arg = { .ctx_id = 0x1234 };

	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &arg),
			ENODEV);
}

static void test_reset_stats(int fd)
{
	struct drm_i915_reset_stats rs;

	memset(&rs, 0, sizeof(rs));
	rs.reset_count = 0xdead;
	rs.batch_active = 0xbeef;
	rs.batch_pending = 0xf00d;
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	gt_assert_eq(rs.reset_count, 0);
	gt_assert_eq(rs.batch_active, 0);
	gt_assert_eq(rs.batch_pending, 0);

	memset(&rs, 0, sizeof(rs));
	rs.ctx_id = 1;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GET_RESET_STATS, &rs), ENOENT);
}

static void test_throttle(int fd)
{
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_THROTTLE, NULL), 0);
}

static void test_sw_finish(int fd)
{
	uint32_t h = gt_create(fd, 4096);
	struct drm_i915_gem_sw_finish arg = { .handle = h };

	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_SW_FINISH, &arg), 0);
	arg.handle = h + 777;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_SW_FINISH, &arg), ENOENT);
	gt_close(fd, h);
}

static int get_caching(int fd, uint32_t handle, uint32_t *caching)
{
	struct drm_i915_gem_caching arg = { .handle = handle, .caching = 0xff };
	int ret = gem_ioctl(fd, DRM_IOCTL_I915_GEM_GET_CACHING, &arg);

	*caching = arg.caching;
	return ret;
}

static int set_caching(int fd, uint32_t handle, uint32_t caching)
{
	struct drm_i915_gem_caching arg = { .handle = handle, .caching = caching };

	return gem_ioctl(fd, DRM_IOCTL_I915_GEM_SET_CACHING, &arg);
}

static void test_caching(int fd)
{
	uint32_t h = gt_create(fd, 4096), c;

	/* gen3 has no LLC: objects start uncached. */
	gt_assert_eq(get_caching(fd, h, &c), 0);
	gt_assert_eq(c, I915_CACHING_NONE);
	gt_assert_eq(set_caching(fd, h, I915_CACHING_CACHED), 0);
	gt_assert_eq(get_caching(fd, h, &c), 0);
	gt_assert_eq(c, I915_CACHING_CACHED);
	gt_assert_eq(set_caching(fd, h, I915_CACHING_NONE), 0);
	gt_assert_eq(get_caching(fd, h, &c), 0);
	gt_assert_eq(c, I915_CACHING_NONE);

	gt_assert_errno(set_caching(fd, h, 42), EINVAL);
	gt_assert_eq(get_caching(fd, h, &c), 0);
	gt_assert_eq(c, I915_CACHING_NONE);
	gt_assert_errno(set_caching(fd, h + 99, I915_CACHING_CACHED), ENOENT);
	gt_assert_errno(get_caching(fd, h + 99, &c), ENOENT);
	gt_close(fd, h);
}

static int context_getparam(int fd, uint32_t ctx, uint64_t param,
			    struct drm_i915_gem_context_param *p)
{
	*p = (struct drm_i915_gem_context_param){
		.ctx_id = ctx, .size = 99, .param = param, .value = 77,
	};
	return gem_ioctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, p) ? -errno : 0;
}

/* The default context, as Linux 4.14 describes it on a 945G (IGT's
 * gem_context_require_bannable asks for BANNABLE on context 0). */
static void test_context_getparam(int fd)
{
	struct drm_i915_gem_context_param p;

	gt_assert_eq(context_getparam(fd, 0, I915_CONTEXT_PARAM_BANNABLE, &p), 0);
	gt_assert_eq_u64(p.value, 1);
	gt_assert_eq(p.size, 0);
	gt_assert_eq(p.ctx_id, 0);
	gt_assert_eq(context_getparam(fd, 0, I915_CONTEXT_PARAM_NO_ERROR_CAPTURE, &p), 0);
	gt_assert_eq_u64(p.value, 0);
	gt_assert_eq(p.size, 0);
	/* no PPGTT on gen3: the global GTT, the whole aperture */
	gt_assert_eq(context_getparam(fd, 0, I915_CONTEXT_PARAM_GTT_SIZE, &p), 0);
	gt_assert_eq_u64(p.value, 256ull << 20);
	gt_assert_eq(p.size, 0);
	gt_assert_eq(context_getparam(fd, 0, I915_CONTEXT_PARAM_NO_ZEROMAP, &p), 0);
	gt_assert_eq_u64(p.value, 0);
}

static void test_context_getparam_errors(int fd)
{
	struct drm_i915_gem_context_param p;

	/* no context but the default one: the struct is left alone */
	gt_assert_eq(context_getparam(fd, 1, I915_CONTEXT_PARAM_BANNABLE, &p), -ENOENT);
	gt_assert_eq(p.size, 99);
	gt_assert_eq_u64(p.value, 77);
	gt_assert_eq(context_getparam(fd, 0xffffffffu, I915_CONTEXT_PARAM_GTT_SIZE, &p),
		     -ENOENT);
	/* a parameter 4.14 does not know, or no longer answers: EINVAL
	 * with size cleared and value kept */
	gt_assert_eq(context_getparam(fd, 0, I915_CONTEXT_PARAM_BAN_PERIOD, &p), -EINVAL);
	gt_assert_eq(p.size, 0);
	gt_assert_eq_u64(p.value, 77);
	gt_assert_eq(context_getparam(fd, 0, I915_CONTEXT_PARAM_PRIORITY, &p), -EINVAL);
	gt_assert_eq(context_getparam(fd, 0, 0x7777, &p), -EINVAL);
	gt_assert_eq(context_getparam(fd, 0, 0, &p), -EINVAL);
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, NULL), EFAULT);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 120);

	gemtest_subtest("create-size-zero-and-rounding")
		test_create_size(fd);
	gemtest_subtest("create-lowest-free-handle")
		test_lowest_free_handle();
	gemtest_subtest("handles-per-file")
		test_handles_per_file();
	gemtest_subtest("close-unknown-handle")
		test_close_errors(fd);
	gemtest_subtest("getparam")
		test_getparam(fd);
	gemtest_subtest("version")
		test_version(fd);
	gemtest_subtest("get-unique-empty")
		test_get_unique(fd);
	gemtest_subtest("get-aperture-default")
		test_aperture(fd);
	gemtest_subtest("create-ext-system")
		test_create_ext(fd);
	gemtest_subtest("create-ext-protected-enodev")
		test_create_ext_protected(fd);
	gemtest_subtest("create-ext-missing-region-einval")
		test_create_ext_device(fd);
	gemtest_subtest("context-create-enodev")
		test_context_create(fd);
	gemtest_subtest("context-getparam-default")
		test_context_getparam(fd);
	gemtest_subtest("context-getparam-errors")
		test_context_getparam_errors(fd);
	gemtest_subtest("reset-stats")
		test_reset_stats(fd);
	gemtest_subtest("throttle")
		test_throttle(fd);
	gemtest_subtest("sw-finish")
		test_sw_finish(fd);
	gemtest_subtest("caching")
		test_caching(fd);

	gem_close(fd);
	return gemtest_exit();
}
