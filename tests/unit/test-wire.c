/* Unit tests of the ioctl marshalling shared by libgem and gemd (wire.c). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* F_SEAL_* */
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "memfd.h"
#include "strbuf.h"
#include "token.h"
#include "util.h"
#include "wire.h"

/*
 * A stand-in for the driver: it sees the kernel-sized, pointer-rewritten
 * argument exactly as gem_ioctl_dispatch() would, and answers like the kernel.
 */
typedef int (*fake_driver)(unsigned int cmd, void *karg, struct gem_location *loc);

struct trip {
	struct wire_client_call cc;
	struct wire_server_call sc;
	struct strbuf extra, payload, mem, reply;
	bool has_loc;
	int result;		/* what the client saw */
};

static void trip_init(struct trip *t)
{
	memset(t, 0, sizeof(*t));
	strbuf_init(&t->extra, 0);
	strbuf_init(&t->payload, 0);
	strbuf_init(&t->mem, 0);
	strbuf_init(&t->reply, 0);
}

static void trip_release(struct trip *t)
{
	strbuf_release(&t->extra);
	strbuf_release(&t->payload);
	strbuf_release(&t->mem);
	strbuf_release(&t->reply);
}

/* Client pack, server unpack, driver, server pack, client unpack. */
static int roundtrip(struct trip *t, unsigned int cmd, void *arg, fake_driver fn)
{
	struct gem_location loc;
	int ret;

	ret = wire_client_pack(&t->cc, cmd, arg, &t->extra);
	if (ret)
		return ret;
	gt_assert_eq(wire_client_payload(&t->cc, &t->extra, &t->payload), 0);
	gt_assert_eq(t->payload.len, wire_client_payload_len(&t->cc, &t->extra));
	gt_assert_eq(t->payload.len % WIRE_ALIGN, 0);
	ret = wire_server_unpack(&t->sc, cmd, t->payload.buf, t->payload.len, &t->mem,
				 t->cc.ool_fd);
	if (ret) {
		t->result = ret;
	} else {
		memset(&loc, 0, sizeof(loc));
		t->has_loc = false;
		t->result = fn ? fn(cmd, t->sc.karg, &loc) : 0;
		t->has_loc = loc.size != 0 || loc.flags != 0;
		gt_assert_eq(wire_server_pack(&t->sc, t->result,
					      t->has_loc ? &loc : NULL, &t->reply), 0);
		wire_server_release(&t->sc);
	}
	gt_assert_eq(wire_client_unpack(&t->cc, t->result, t->reply.buf,
					t->reply.len), 0);
	wire_client_release(&t->cc);
	return t->result;
}

/* Server side only, on a hand-made payload. */
static int server_only(struct trip *t, unsigned int cmd, const void *data, size_t len)
{
	strbuf_reset(&t->payload);
	gt_assert_eq(strbuf_add(&t->payload, data, len), 0);
	return wire_server_unpack(&t->sc, cmd, t->payload.buf, t->payload.len, &t->mem, -1);
}

static void put(struct strbuf *sb, const void *data, size_t len)
{
	static const uint8_t zeros[WIRE_ALIGN];

	gt_assert_eq(strbuf_add(sb, data, len), 0);
	gt_assert_eq(strbuf_add(sb, zeros, ALIGN_UP(len, (size_t)WIRE_ALIGN) - len), 0);
}

/* --- fake drivers ------------------------------------------------------- */

static void copy_field(char *buf, __kernel_size_t *len, const char *value)
{
	size_t n = strlen(value);

	if (buf && *len)
		memcpy(buf, value, MIN(n, (size_t)*len));
	*len = n;
}

static int drv_version(unsigned int cmd, void *karg, struct gem_location *loc)
{
	struct drm_version *v = karg;

	v->version_major = 1;
	v->version_minor = 6;
	copy_field(v->name, &v->name_len, "i915");
	copy_field(v->date, &v->date_len, "20201103");
	copy_field(v->desc, &v->desc_len, "Intel Graphics");
	return 0;
}

static int drv_unique(unsigned int cmd, void *karg, struct gem_location *loc)
{
	struct drm_unique *u = karg;

	u->unique_len = 0;
	return 0;
}

static int drv_getparam(unsigned int cmd, void *karg, struct gem_location *loc)
{
	struct drm_i915_getparam *gp = karg;

	if (gp->param != I915_PARAM_CHIPSET_ID)
		return -EINVAL;
	if (!gp->value)
		return -EFAULT;
	*gp->value = 0x2772;
	return 0;
}

/* Offsets 0x10000 * (i + 1), presumed offsets 0xabc000 + reloc index. */
static int drv_exec2(unsigned int cmd, void *karg, struct gem_location *loc)
{
	struct drm_i915_gem_execbuffer2 *eb = karg;
	struct drm_i915_gem_exec_object2 *objs = (void *)(uintptr_t)eb->buffers_ptr;
	uint32_t i, j;

	for (i = 0; i < eb->buffer_count; i++) {
		struct drm_i915_gem_relocation_entry *r =
			(void *)(uintptr_t)objs[i].relocs_ptr;

		objs[i].offset = 0x10000ull * (i + 1);
		for (j = 0; j < objs[i].relocation_count; j++) {
			gt_assert_eq(r[j].target_handle, 100 + j);
			r[j].presumed_offset = 0xabc000 + j;
		}
	}
	eb->rsvd2 = 0x55;
	return 0;
}

static int drv_exec1(unsigned int cmd, void *karg, struct gem_location *loc)
{
	struct drm_i915_gem_execbuffer *eb = karg;
	struct drm_i915_gem_exec_object *objs = (void *)(uintptr_t)eb->buffers_ptr;
	uint32_t i, j;

	for (i = 0; i < eb->buffer_count; i++) {
		struct drm_i915_gem_relocation_entry *r =
			(void *)(uintptr_t)objs[i].relocs_ptr;

		objs[i].offset = 0x20000ull * (i + 1);
		for (j = 0; j < objs[i].relocation_count; j++)
			r[j].presumed_offset = 0xdef000 + j;
	}
	return 0;
}

static int drv_create_ext(unsigned int cmd, void *karg, struct gem_location *loc)
{
	struct drm_i915_gem_create_ext *args = karg;
	uint64_t next = args->extensions;
	int links = 0;

	while (next) {
		struct i915_user_extension *ext = (void *)(uintptr_t)next;

		if (ext->name == I915_GEM_CREATE_EXT_MEMORY_REGIONS) {
			struct drm_i915_gem_create_ext_memory_regions *mr = (void *)ext;
			struct drm_i915_gem_memory_class_instance *r =
				(void *)(uintptr_t)mr->regions;

			gt_assert_eq(mr->num_regions, 2);
			gt_assert_eq(r[0].memory_class, I915_MEMORY_CLASS_SYSTEM);
			gt_assert_eq(r[1].memory_instance, 7);
		}
		links++;
		next = ext->next_extension;
	}
	args->handle = (uint32_t)links;
	args->size = 8192;
	return 0;
}

/* A QUERY driver: item 0 answers 24 bytes of 0x11, item 1 asks its size,
 * item 2 says -ENODEV; it sees lent buffers, never the caller's. */
static int drv_query(unsigned int cmd, void *karg, struct gem_location *loc)
{
	struct drm_i915_query *q = karg;
	struct drm_i915_query_item *items = (void *)(uintptr_t)q->items_ptr;

	gt_assert_eq(q->num_items, 3);
	gt_assert_eq(items[0].length, 32);
	memset((void *)(uintptr_t)items[0].data_ptr, 0x11, 24);
	items[0].length = 24;
	gt_assert_eq_u64(items[1].data_ptr, 0);	/* nothing lent: length 0 */
	items[1].length = 100;
	items[2].length = -ENODEV;
	return 0;
}

static int drv_location(unsigned int cmd, void *karg, struct gem_location *loc)
{
	loc->arena = 3;
	loc->offset = 0x40000;
	loc->size = 0x3000;
	return 0;
}

static int drv_mmap_offset(unsigned int cmd, void *karg, struct gem_location *loc)
{
	struct drm_i915_gem_mmap_offset *args = karg;

	/* A 16-byte MMAP_GTT caller arrives zero-extended to 32 bytes. */
	gt_assert_eq(args->flags, 0);
	gt_assert_eq(args->extensions, 0);
	args->offset = 0x500000000ull;
	return 0;
}

static int drv_context_create(unsigned int cmd, void *karg, struct gem_location *loc)
{
	struct drm_i915_gem_context_create_ext *args = karg;

	gt_assert_eq(args->flags, 0);
	gt_assert_eq(args->extensions, 0);
	args->ctx_id = 9;
	return 0;
}

static int drv_noarg(unsigned int cmd, void *karg, struct gem_location *loc)
{
	gt_assert(karg == NULL);
	return 0;
}

static int drv_wait_etime(unsigned int cmd, void *karg, struct gem_location *loc)
{
	struct drm_i915_gem_wait *w = karg;

	w->timeout_ns = 0;
	return -ETIME;
}

/* --- tests ---------------------------------------------------------------- */

static void test_version(void)
{
	struct trip t;
	char name[3] = "xx", date[64], desc[4] = "....";
	struct drm_version v = {
		.name_len = 2, .name = name,
		.date_len = sizeof(date), .date = date,
		.desc_len = 4, .desc = desc,
	};

	trip_init(&t);
	memset(date, 0, sizeof(date));
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_VERSION, &v, drv_version), 0);
	/* copied at most *_len bytes, then the full lengths, as the kernel */
	gt_assert(!memcmp(name, "i9", 2) && name[2] == '\0');
	gt_assert(!strcmp(date, "20201103"));
	gt_assert(!memcmp(desc, "Inte", 4));
	gt_assert_eq(v.name_len, 4);
	gt_assert_eq(v.date_len, 8);
	gt_assert_eq(v.desc_len, 14);
	gt_assert_eq(v.version_minor, 6);
	/* the caller's pointers, not gemd's */
	gt_assert(v.name == name && v.date == date && v.desc == desc);
	trip_release(&t);
}

static void test_version_null(void)
{
	struct trip t;
	struct drm_version v = { .name_len = 100 };

	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_VERSION, &v, drv_version), 0);
	gt_assert(v.name == NULL && v.date == NULL && v.desc == NULL);
	gt_assert_eq(v.name_len, 4);
	gt_assert_eq(v.desc_len, 14);
	trip_release(&t);
}

static void test_get_unique(void)
{
	struct trip t;
	char buf[8] = "keep";
	struct drm_unique u = { .unique_len = sizeof(buf), .unique = buf };

	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_GET_UNIQUE, &u, drv_unique), 0);
	gt_assert_eq(u.unique_len, 0);
	gt_assert(u.unique == buf);
	gt_assert(!strcmp(buf, "keep"));
	trip_release(&t);
}

static void test_getparam(void)
{
	struct trip t;
	int value = -1;
	struct drm_i915_getparam gp = { .param = I915_PARAM_CHIPSET_ID, .value = &value };

	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_GETPARAM, &gp, drv_getparam), 0);
	gt_assert_eq(value, 0x2772);
	gt_assert(gp.value == &value);
	trip_release(&t);

	/* a failed GETPARAM leaves *value alone */
	trip_init(&t);
	value = -1;
	gp.param = 12345;
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_GETPARAM, &gp, drv_getparam), -EINVAL);
	gt_assert_eq(value, -1);
	gt_assert(gp.value == &value);
	trip_release(&t);

	/* NULL value reaches the driver as NULL */
	trip_init(&t);
	gp.param = I915_PARAM_CHIPSET_ID;
	gp.value = NULL;
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_GETPARAM, &gp, drv_getparam), -EFAULT);
	trip_release(&t);
}

static void test_execbuffer2(unsigned long cmd)
{
	struct drm_i915_gem_relocation_entry r0[2] = {
		{ .target_handle = 100, .presumed_offset = 1 },
		{ .target_handle = 101, .presumed_offset = 1 },
	}, r2[3] = {
		{ .target_handle = 100 }, { .target_handle = 101 }, { .target_handle = 102 },
	};
	struct drm_i915_gem_exec_object2 objs[3] = {
		{ .handle = 1, .relocation_count = 2, .relocs_ptr = (uintptr_t)r0 },
		{ .handle = 2 },
		{ .handle = 3, .relocation_count = 3, .relocs_ptr = (uintptr_t)r2 },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)objs, .buffer_count = 3,
		.cliprects_ptr = 0x1234,	/* never dereferenced */
	};
	struct trip t;
	int i;

	trip_init(&t);
	gt_assert_eq(roundtrip(&t, (unsigned int)cmd, &eb, drv_exec2), 0);
	for (i = 0; i < 3; i++)
		gt_assert_eq_u64(objs[i].offset, 0x10000ull * (uint64_t)(i + 1));
	gt_assert_eq_u64(r0[0].presumed_offset, 0xabc000);
	gt_assert_eq_u64(r0[1].presumed_offset, 0xabc001);
	gt_assert_eq_u64(r2[2].presumed_offset, 0xabc002);
	gt_assert_eq_u64(eb.buffers_ptr, (uintptr_t)objs);
	gt_assert_eq_u64(eb.cliprects_ptr, 0x1234);
	gt_assert(objs[0].relocs_ptr == (uintptr_t)r0);
	/* only _WR copies the struct back (rsvd2: the out-fence) */
	gt_assert_eq(eb.rsvd2, cmd == DRM_IOCTL_I915_GEM_EXECBUFFER2_WR ? 0x55 : 0);
	trip_release(&t);
}

static void test_execbuffer1(void)
{
	struct drm_i915_gem_relocation_entry r[2] = {
		{ .target_handle = 1 }, { .target_handle = 2 },
	};
	struct drm_i915_gem_exec_object objs[2] = {
		{ .handle = 1 },
		{ .handle = 2, .relocation_count = 2, .relocs_ptr = (uintptr_t)r },
	};
	struct drm_i915_gem_execbuffer eb = { .buffers_ptr = (uintptr_t)objs, .buffer_count = 2 };
	struct trip t;

	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_GEM_EXECBUFFER, &eb, drv_exec1), 0);
	gt_assert_eq_u64(objs[0].offset, 0x20000);
	gt_assert_eq_u64(objs[1].offset, 0x40000);
	gt_assert_eq_u64(r[1].presumed_offset, 0xdef001);
	trip_release(&t);
}

static void test_create_ext(void)
{
	struct drm_i915_gem_memory_class_instance regions[2] = {
		{ I915_MEMORY_CLASS_SYSTEM, 0 }, { I915_MEMORY_CLASS_SYSTEM, 7 },
	};
	struct drm_i915_gem_create_ext_memory_regions mr = {
		.base = { .name = I915_GEM_CREATE_EXT_MEMORY_REGIONS },
		.num_regions = 2, .regions = (uintptr_t)regions,
	};
	struct i915_user_extension unknown = { .next_extension = (uintptr_t)&mr, .name = 77 };
	struct drm_i915_gem_create_ext ce = { .size = 4096, .extensions = (uintptr_t)&unknown };
	struct trip t;

	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_GEM_CREATE_EXT, &ce, drv_create_ext), 0);
	gt_assert_eq(ce.handle, 2);		/* the driver walked two links */
	gt_assert_eq(ce.size, 8192);
	gt_assert_eq_u64(ce.extensions, (uintptr_t)&unknown);
	/* the caller's chain is untouched */
	gt_assert_eq_u64(unknown.next_extension, (uintptr_t)&mr);
	gt_assert_eq_u64(mr.regions, (uintptr_t)regions);
	trip_release(&t);
}

static void test_create_ext_loop(void)
{
	struct i915_user_extension ext = { .name = 77 };
	struct drm_i915_gem_create_ext ce = { .size = 4096, .extensions = (uintptr_t)&ext };
	struct trip t;

	ext.next_extension = (uintptr_t)&ext;
	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_GEM_CREATE_EXT, &ce, drv_create_ext), -E2BIG);
	trip_release(&t);
}

static void test_query(void)
{
	uint8_t data0[32], data2[16];
	struct drm_i915_query_item items[3] = {
		{ .query_id = 2, .length = 32, .data_ptr = (uintptr_t)data0 },
		{ .query_id = 4, .length = 0, .data_ptr = (uintptr_t)0x1000 },
		{ .query_id = 5, .length = 16, .data_ptr = (uintptr_t)data2 },
	};
	struct drm_i915_query q = { .num_items = 3, .items_ptr = (uintptr_t)items };
	struct trip t;
	unsigned int i;

	memset(data0, 0xee, sizeof(data0));
	memset(data2, 0xee, sizeof(data2));
	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_QUERY, &q, drv_query), 0);
	gt_assert_eq_u64(q.items_ptr, (uintptr_t)items);
	gt_assert_eq(items[0].length, 24);
	for (i = 0; i < 24; i++)
		gt_assert_eq(data0[i], 0x11);
	gt_assert_eq(data0[24], 0xee);		/* past the answer: untouched */
	gt_assert_eq(items[1].length, 100);
	gt_assert_eq_u64(items[1].data_ptr, 0x1000);
	gt_assert_eq(items[2].length, -ENODEV);
	gt_assert_eq(data2[0], 0xee);		/* a failed item writes nothing */
	trip_release(&t);
}

static void test_location(void)
{
	struct drm_i915_gem_pread pr = { .handle = 1, .size = 10 };
	struct drm_i915_gem_mmap mm = { .handle = 1, .size = 4096 };
	struct trip t;

	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_GEM_PREAD, &pr, drv_location), 0);
	gt_assert(t.cc.has_loc);
	gt_assert_eq(t.cc.loc.arena, 3);
	gt_assert_eq_u64(t.cc.loc.offset, 0x40000);
	trip_release(&t);

	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_GEM_MMAP, &mm, drv_location), 0);
	gt_assert(t.cc.has_loc);
	gt_assert_eq_u64(t.cc.loc.size, 0x3000);
	trip_release(&t);

	/* no location (pread of 0 bytes): nothing after the struct */
	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_GEM_PWRITE, &pr, NULL), 0);
	gt_assert(!t.cc.has_loc);
	trip_release(&t);
}

static int drv_remap(unsigned int cmd, void *karg, struct gem_location *loc)
{
	loc->flags = GEM_LOC_REMAP;
	loc->object = 7ull << 34;
	return 0;
}

/*
 * PRIME: the descriptor travels beside the payload, so the codecs only
 * say which way; FLINK and SET_TILING may bring a remap notice.
 */
static void test_prime_and_remap(void)
{
	struct drm_prime_handle ph = { .handle = 4, .flags = DRM_CLOEXEC, .fd = 33 };
	struct drm_gem_flink fl = { .handle = 4 };
	struct wire_client_call cc;
	struct strbuf extra = STRBUF_INIT;
	struct trip t;

	gt_assert_eq(wire_ioctl_fds(DRM_IOCTL_PRIME_HANDLE_TO_FD), WIRE_FD_OUT);
	gt_assert_eq(wire_ioctl_fds(DRM_IOCTL_PRIME_FD_TO_HANDLE), WIRE_FD_IN);
	gt_assert_eq(wire_ioctl_fds(DRM_IOCTL_GEM_FLINK), 0);
	gt_assert_eq(wire_ioctl_fds(DRM_IOCTL_I915_GEM_CREATE), 0);

	gt_assert_eq(wire_client_pack(&cc, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph, &extra), 0);
	gt_assert_eq(cc.fd_in, 33);
	gt_assert(!cc.fd_out);
	gt_assert_eq(wire_client_pack(&cc, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph, &extra), 0);
	gt_assert_eq(cc.fd_in, -1);
	gt_assert(cc.fd_out);
	gt_assert_eq(cc.fd_off, offsetof(struct drm_prime_handle, fd));
	strbuf_release(&extra);

	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph, drv_remap), 0);
	gt_assert(t.cc.has_loc);
	gt_assert_eq(t.cc.loc.flags, GEM_LOC_REMAP);
	gt_assert_eq_u64(t.cc.loc.object, 7ull << 34);
	trip_release(&t);

	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_GEM_FLINK, &fl, drv_remap), 0);
	gt_assert(t.cc.has_loc);
	trip_release(&t);

	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_GEM_FLINK, &fl, NULL), 0);
	gt_assert(!t.cc.has_loc);
	trip_release(&t);
}

/* MMAP_GTT (16 bytes) and MMAP_OFFSET (32 bytes) share nr 0x64. */
static void test_zero_extend_mmap_gtt(void)
{
	struct {
		struct drm_i915_gem_mmap_gtt args;
		uint64_t canary;
	} s = { .args = { .handle = 5 }, .canary = 0xcafe };
	struct trip t;

	trip_init(&t);
	gt_assert_eq(_IOC_SIZE(DRM_IOCTL_I915_GEM_MMAP_GTT), 16);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_GEM_MMAP_GTT, &s.args, drv_mmap_offset), 0);
	gt_assert_eq(t.sc.ksize, 32);
	gt_assert_eq(t.sc.out_size, 16);
	gt_assert_eq_u64(s.args.offset, 0x500000000ull);
	gt_assert_eq_u64(s.canary, 0xcafe);	/* nothing past 16 bytes written */
	trip_release(&t);
}

/* CONTEXT_CREATE (8 bytes) and CONTEXT_CREATE_EXT (16 bytes) share 0x6d. */
static void test_zero_extend_context_create(void)
{
	struct {
		struct drm_i915_gem_context_create args;
		uint64_t canary;
	} s = { .canary = 0xbeef };
	struct trip t;

	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &s.args,
			       drv_context_create), 0);
	gt_assert_eq(t.sc.ksize, 16);
	gt_assert_eq(s.args.ctx_id, 9);
	gt_assert_eq_u64(s.canary, 0xbeef);
	trip_release(&t);
}

/* A caller struct longer than the kernel's: the driver sees its size and
 * the extra bytes come back as they went (drm_ioctl's ksize rule). */
static void test_longer_than_kernel(void)
{
	uint8_t buf[40];
	unsigned int cmd = DRM_IOWR(DRM_COMMAND_BASE + DRM_I915_GEM_WAIT, uint8_t[40]);
	struct trip t;

	memset(buf, 0x5a, sizeof(buf));
	trip_init(&t);
	gt_assert_eq(roundtrip(&t, cmd, buf, drv_wait_etime), -ETIME);
	gt_assert_eq(t.sc.ksize, 40);
	/* copied back on error too, as drm_ioctl does */
	gt_assert_eq_u64(((struct drm_i915_gem_wait *)buf)->timeout_ns, 0);
	gt_assert_eq(buf[39], 0x5a);
	trip_release(&t);
}

static void test_no_argument(void)
{
	struct trip t;

	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_GEM_THROTTLE, NULL, drv_noarg), 0);
	gt_assert_eq(t.payload.len, 0);
	gt_assert_eq(t.reply.len, 0);
	trip_release(&t);
}

static void test_unknown(void)
{
	struct trip t;
	uint64_t junk = 0;

	trip_init(&t);
	/* not a DRM request at all */
	gt_assert_eq(server_only(&t, _IOWR('x', 1, uint64_t), &junk, 8), -ENOTTY);
	/* a DRM number no table has */
	gt_assert_eq(server_only(&t, DRM_IOWR(0xff, uint64_t), &junk, 8), -EINVAL);
	gt_assert_eq(server_only(&t, DRM_IOWR(0x30, uint64_t), &junk, 8), -EINVAL);
	gt_assert_eq(wire_ioctl_size(DRM_IOCTL_I915_GEM_MMAP_GTT), 32);
	gt_assert_eq(wire_ioctl_size(DRM_IO(0xff)), -EINVAL);
	gt_assert(!strcmp(wire_ioctl_name(DRM_IOCTL_I915_GEM_EXECBUFFER2_WR),
			  "I915_GEM_EXECBUFFER2"));
	/* unknown to the client: sent without payload for gemd to refuse */
	gt_assert_eq(wire_client_pack(&t.cc, DRM_IOWR(0xff, uint64_t), &junk, &t.extra), 0);
	gt_assert_eq(wire_client_payload_len(&t.cc, &t.extra), 0);
	trip_release(&t);
}

/* Requests the client refuses itself, as the kernel would refuse them. */
static void test_client_refusals(void)
{
	/* one readable page of relocations, and nothing mapped after it */
	uint8_t *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct drm_i915_gem_exec_object2 obj = { .relocation_count = WIRE_MAX_RELOCS + 1,
						 .relocs_ptr = (uintptr_t)page };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)&obj, .buffer_count = 1 };
	struct trip t;

	gt_assert(page != MAP_FAILED);
	gt_assert_eq(munmap(page + 4096, 4096), 0);
	trip_init(&t);
	gt_assert_eq(wire_client_pack(&t.cc, DRM_IOCTL_I915_GEM_CREATE, NULL, &t.extra), -EFAULT);
	/* no bound on the count but what can be read (out of line here) */
	gt_assert_eq(wire_client_pack(&t.cc, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb, &t.extra), -EFAULT);
	gt_assert_eq(t.cc.ool_fd, -1);
	strbuf_reset(&t.extra);
	obj.relocation_count = 129;	/* inline, one entry past the page */
	gt_assert_eq(wire_client_pack(&t.cc, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb, &t.extra), -EFAULT);
	strbuf_reset(&t.extra);
	obj.relocation_count = 128;
	gt_assert_eq(wire_client_pack(&t.cc, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb, &t.extra), 0);
	gt_assert_eq(t.cc.ool_fd, -1);
	strbuf_reset(&t.extra);
	eb.buffer_count = WIRE_MAX_BUFFERS + 1;
	gt_assert_eq(wire_client_pack(&t.cc, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb, &t.extra), -EINVAL);
	strbuf_reset(&t.extra);
	eb.buffer_count = 1;
	obj.relocation_count = 1;
	obj.relocs_ptr = 0;
	gt_assert_eq(wire_client_pack(&t.cc, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb, &t.extra), -EFAULT);
	trip_release(&t);
	munmap(page, 4096);
}

/* Moves object 1 and retargets relocation 1; leaves the rest alone. */
static int drv_exec_move_one(unsigned int cmd, void *karg, struct gem_location *loc)
{
	struct drm_i915_gem_execbuffer2 *eb = karg;
	struct drm_i915_gem_exec_object2 *objs = (void *)(uintptr_t)eb->buffers_ptr;
	struct drm_i915_gem_relocation_entry *r = (void *)(uintptr_t)objs[0].relocs_ptr;

	objs[1].offset = 0x7000;
	r[1].presumed_offset = 0x7000;
	return 0;
}

/*
 * Only what the driver changed is written back, as the kernel writes only
 * moved offsets and rewritten relocations: a value the caller changed
 * meanwhile (here, between the request and the reply) stays as it is.
 */
static void test_exec_writes_only_changes(void)
{
	struct drm_i915_gem_relocation_entry r[2] = {
		{ .target_handle = 2, .presumed_offset = 0x1000 },
		{ .target_handle = 2, .presumed_offset = 0x2000 },
	};
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = 1, .relocation_count = 2, .relocs_ptr = (uintptr_t)r, .offset = 0x3000 },
		{ .handle = 2, .offset = 0x4000 },
	};
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)objs, .buffer_count = 2 };
	const unsigned int EB2 = DRM_IOCTL_I915_GEM_EXECBUFFER2;
	struct trip t;

	trip_init(&t);
	gt_assert_eq(wire_client_pack(&t.cc, EB2, &eb, &t.extra), 0);
	gt_assert_eq(wire_client_payload(&t.cc, &t.extra, &t.payload), 0);
	gt_assert_eq(wire_server_unpack(&t.sc, EB2, t.payload.buf, t.payload.len, &t.mem, -1), 0);
	gt_assert_eq(drv_exec_move_one(EB2, t.sc.karg, NULL), 0);
	gt_assert_eq(wire_server_pack(&t.sc, 0, NULL, &t.reply), 0);
	wire_server_release(&t.sc);
	objs[0].offset = 0x5555;
	r[0].presumed_offset = 0x6666;
	gt_assert_eq(wire_client_unpack(&t.cc, 0, t.reply.buf, t.reply.len), 0);
	wire_client_release(&t.cc);
	gt_assert_eq_u64(objs[0].offset, 0x5555);	/* unchanged by the driver */
	gt_assert_eq_u64(objs[1].offset, 0x7000);
	gt_assert_eq_u64(r[0].presumed_offset, 0x6666);
	gt_assert_eq_u64(r[1].presumed_offset, 0x7000);
	trip_release(&t);
}

/* --- relocations out of line ------------------------------------------- */

static void exec2_head(struct strbuf *sb, uint32_t count)
{
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = 0x1000, .buffer_count = count };

	put(sb, &eb, sizeof(eb));
}

#define OOL_RELOCS	(WIRE_RELOC_INLINE_MAX / sizeof(struct drm_i915_gem_relocation_entry) + 1)

/* As drv_exec2 expects them: target 100 + index. */
static void ool_fill(struct drm_i915_gem_relocation_entry *r, uint32_t n)
{
	uint32_t j;

	for (j = 0; j < n; j++) {
		r[j].target_handle = 100 + j;
		r[j].presumed_offset = 7;
	}
}

static struct drm_i915_gem_relocation_entry *ool_relocs(uint32_t n)
{
	struct drm_i915_gem_relocation_entry *r = calloc(n, sizeof(*r));

	gt_assert(r);
	ool_fill(r, n);
	return r;
}

/*
 * Over WIRE_RELOC_INLINE_MAX bytes of relocations: the payload carries the
 * objects alone, the relocations go in a sealed memfd, the driver sees
 * them in object order and what it writes comes back to every array.
 */
static void test_exec_out_of_line(void)
{
	struct drm_i915_gem_relocation_entry *r0 = ool_relocs(OOL_RELOCS);
	struct drm_i915_gem_relocation_entry *r2 = ool_relocs(5);
	struct drm_i915_gem_exec_object2 objs[3] = {
		{ .handle = 1, .relocation_count = OOL_RELOCS, .relocs_ptr = (uintptr_t)r0 },
		{ .handle = 2, .relocs_ptr = (uintptr_t)r2 },	/* none, pointer or not */
		{ .handle = 3, .relocation_count = 5, .relocs_ptr = (uintptr_t)r2 },
	};
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)objs, .buffer_count = 3 };
	struct trip t;
	uint32_t j;

	trip_init(&t);
	gt_assert_eq(wire_client_pack(&t.cc, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb, &t.extra), 0);
	gt_assert(t.cc.ool_fd >= 0);
	gt_assert_eq(t.cc.ool_len, (OOL_RELOCS + 5) * sizeof(*r0));
	gt_assert_eq(t.extra.len, sizeof(objs));
	gt_assert_eq(fcntl(t.cc.ool_fd, F_GET_SEALS),
		     F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	wire_client_release(&t.cc);
	gt_assert_eq(t.cc.ool_fd, -1);
	strbuf_reset(&t.extra);

	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb, drv_exec2), 0);
	gt_assert_eq(t.payload.len, sizeof(eb) + sizeof(objs));
	gt_assert_eq(t.reply.len, 3 * sizeof(uint64_t));	/* offsets alone */
	gt_assert_eq_u64(objs[2].offset, 0x30000);
	for (j = 0; j < OOL_RELOCS; j++)
		gt_assert_eq_u64(r0[j].presumed_offset, 0xabc000 + j);
	for (j = 0; j < 5; j++)
		gt_assert_eq_u64(r2[j].presumed_offset, 0xabc000 + j);
	gt_assert(t.sc.ool == NULL);	/* unmapped after the pack */
	trip_release(&t);
	free(r0);
	free(r2);
}

/* A read-only relocation array out of line: the call succeeds and writes
 * nothing there, as the kernel's failed __put_user leaves it. */
static void test_exec_out_of_line_readonly(void)
{
	size_t bytes = OOL_RELOCS * sizeof(struct drm_i915_gem_relocation_entry);
	struct drm_i915_gem_relocation_entry *r = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
						       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct drm_i915_gem_exec_object2 obj = { .handle = 1, .relocation_count = OOL_RELOCS };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)&obj, .buffer_count = 1 };
	struct trip t;
	uint32_t j;

	gt_assert(r != MAP_FAILED);
	ool_fill(r, OOL_RELOCS);
	obj.relocs_ptr = (uintptr_t)r;
	gt_assert_eq(mprotect(r, bytes, PROT_READ), 0);
	trip_init(&t);
	gt_assert_eq(roundtrip(&t, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb, drv_exec2), 0);
	gt_assert_eq_u64(obj.offset, 0x10000);
	for (j = 0; j < OOL_RELOCS; j++)
		gt_assert_eq_u64(r[j].presumed_offset, 7);
	trip_release(&t);
	munmap(r, bytes);
}

/* gemd's side: what it takes as out-of-line relocations, and what not. */
static void test_exec_out_of_line_refusals(void)
{
	struct drm_i915_gem_exec_object2 obj = { .relocation_count = 128, .relocs_ptr = 0x2000 };
	struct drm_i915_getparam gp = { .param = 4 };
	const size_t bytes = 128 * sizeof(struct drm_i915_gem_relocation_entry);
	const unsigned int EB2 = DRM_IOCTL_I915_GEM_EXECBUFFER2;
	struct strbuf sb = STRBUF_INIT;
	struct trip t;
	int fd, p[2];

	trip_init(&t);
	exec2_head(&sb, 1);
	put(&sb, &obj, sizeof(obj));
#define UNPACK(fd_) wire_server_unpack(&t.sc, EB2, sb.buf, sb.len, &t.mem, (fd_))
	/* sealed as the client seals it, the right size: taken */
	fd = memfd_create_sealed("t", bytes, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	gt_assert(fd >= 0);
	gt_assert_eq(UNPACK(fd), 0);
	gt_assert(t.sc.ool != NULL);
	wire_server_release(&t.sc);
	/* shrinking allowed would let a client SIGBUS gemd */
	close(fd);
	fd = memfd_create_sealed("t", bytes, F_SEAL_GROW);
	gt_assert_eq(UNPACK(fd), -EINVAL);
	close(fd);
	/* one entry short, one too many */
	fd = memfd_create_sealed("t", bytes - 32, F_SEAL_SHRINK);
	gt_assert_eq(UNPACK(fd), -EINVAL);
	close(fd);
	fd = memfd_create_sealed("t", bytes + 32, F_SEAL_SHRINK);
	gt_assert_eq(UNPACK(fd), -EINVAL);
	close(fd);
	/* nothing gemd could write the presumed offsets to */
	fd = memfd_create_sealed("t", bytes, F_SEAL_SHRINK | F_SEAL_WRITE);
	gt_assert_eq(UNPACK(fd), -EINVAL);
	close(fd);
	/* not shmem at all */
	gt_assert_eq(pipe(p), 0);
	gt_assert_eq(UNPACK(p[0]), -EINVAL);
	close(p[0]);
	close(p[1]);
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	gt_assert_eq(UNPACK(fd), -EINVAL);
	close(fd);
	/* a descriptor where none belongs: no relocations, or not an execbuffer */
	fd = memfd_create_sealed("t", bytes, F_SEAL_SHRINK);
	obj.relocation_count = 0;
	strbuf_reset(&sb);
	exec2_head(&sb, 1);
	put(&sb, &obj, sizeof(obj));
	gt_assert_eq(UNPACK(fd), -EINVAL);
	gt_assert_eq(UNPACK(-1), 0);
	wire_server_release(&t.sc);
	strbuf_reset(&sb);
	put(&sb, &gp, sizeof(gp));
	gt_assert_eq(wire_server_unpack(&t.sc, DRM_IOCTL_I915_GETPARAM, sb.buf, sb.len,
					&t.mem, fd), -EINVAL);
	close(fd);
#undef UNPACK
	gt_assert(t.sc.ool == NULL);
	strbuf_release(&sb);
	trip_release(&t);
}

/* Payloads a client could forge: never a crash, always the exact errno. */
static void test_malformed(void)
{
	struct drm_i915_gem_exec_object2 obj = { .relocation_count = 4, .relocs_ptr = 0x2000 };
	struct drm_i915_gem_create_ext ce = { .size = 4096, .extensions = 0x3000 };
	struct i915_user_extension ext = { .next_extension = 0x3000, .name = 77 };
	struct drm_i915_gem_create_ext_memory_regions mr = {
		.base = { .name = I915_GEM_CREATE_EXT_MEMORY_REGIONS },
		.num_regions = 3, .regions = 0x4000,
	};
	struct drm_i915_getparam gp = { .param = 4 };
	const unsigned int EB2 = DRM_IOCTL_I915_GEM_EXECBUFFER2;
	const unsigned int CE = DRM_IOCTL_I915_GEM_CREATE_EXT;
	struct strbuf sb = STRBUF_INIT;
	struct trip t;
	int i;

	trip_init(&t);
	/* truncated struct */
	gt_assert_eq(server_only(&t, DRM_IOCTL_I915_GETPARAM, &gp, 8), -EFAULT);
	gt_assert_eq(server_only(&t, DRM_IOCTL_I915_GETPARAM, &gp, 0), -EFAULT);
	/* bytes nobody asked for */
	put(&sb, &gp, sizeof(gp));
	put(&sb, &gp, sizeof(gp));
	gt_assert_eq(server_only(&t, DRM_IOCTL_I915_GETPARAM, sb.buf, sb.len), -EINVAL);

	/* buffer_count larger than the payload */
	strbuf_reset(&sb);
	exec2_head(&sb, 10);
	put(&sb, &obj, sizeof(obj));
	gt_assert_eq(server_only(&t, EB2, sb.buf, sb.len), -EFAULT);
	/* absurd buffer_count */
	strbuf_reset(&sb);
	exec2_head(&sb, WIRE_MAX_BUFFERS + 1);
	gt_assert_eq(server_only(&t, EB2, sb.buf, sb.len), -EINVAL);
	/* relocation_count larger than the payload */
	strbuf_reset(&sb);
	exec2_head(&sb, 1);
	put(&sb, &obj, sizeof(obj));
	gt_assert_eq(server_only(&t, EB2, sb.buf, sb.len), -EFAULT);
	/* relocation_count that would overflow a 32-bit byte count */
	obj.relocation_count = 0xffffffffu;
	strbuf_reset(&sb);
	exec2_head(&sb, 1);
	put(&sb, &obj, sizeof(obj));
	gt_assert_eq(server_only(&t, EB2, sb.buf, sb.len), -EINVAL);
	obj.relocation_count = WIRE_MAX_RELOCS + 1;
	strbuf_reset(&sb);
	exec2_head(&sb, 1);
	put(&sb, &obj, sizeof(obj));
	gt_assert_eq(server_only(&t, EB2, sb.buf, sb.len), -EINVAL);
	/* relocations without a pointer */
	obj.relocation_count = 1;
	obj.relocs_ptr = 0;
	strbuf_reset(&sb);
	exec2_head(&sb, 1);
	put(&sb, &obj, sizeof(obj));
	gt_assert_eq(server_only(&t, EB2, sb.buf, sb.len), -EFAULT);

	/* extension chain that promises a link it does not carry */
	strbuf_reset(&sb);
	put(&sb, &ce, sizeof(ce));
	gt_assert_eq(server_only(&t, CE, sb.buf, sb.len), -EFAULT);
	/* a link cut short */
	gt_assert_eq(strbuf_add(&sb, &ext, 16), 0);
	gt_assert_eq(server_only(&t, CE, sb.buf, sb.len), -EFAULT);
	/* 17 links */
	strbuf_reset(&sb);
	put(&sb, &ce, sizeof(ce));
	for (i = 0; i < WIRE_MAX_EXTENSIONS + 1; i++)
		put(&sb, &ext, sizeof(ext));
	gt_assert_eq(server_only(&t, CE, sb.buf, sb.len), -E2BIG);
	/* regions array missing */
	strbuf_reset(&sb);
	put(&sb, &ce, sizeof(ce));
	put(&sb, &mr, sizeof(mr));
	gt_assert_eq(server_only(&t, CE, sb.buf, sb.len), -EFAULT);
	/* absurd num_regions */
	mr.num_regions = WIRE_MAX_REGIONS + 1;
	strbuf_reset(&sb);
	put(&sb, &ce, sizeof(ce));
	put(&sb, &mr, sizeof(mr));
	gt_assert_eq(server_only(&t, CE, sb.buf, sb.len), -EINVAL);

	strbuf_release(&sb);
	trip_release(&t);
}

/* Replies that do not match the request are refused, not trusted. */
static void test_bad_replies(void)
{
	int value = 7;
	struct drm_i915_getparam gp = { .param = 4, .value = &value };
	uint8_t reply[64] = { 0 };
	struct trip t;

	trip_init(&t);
	gt_assert_eq(wire_client_pack(&t.cc, DRM_IOCTL_I915_GETPARAM, &gp, &t.extra), 0);
	/* short: struct without the value */
	gt_assert_eq(wire_client_unpack(&t.cc, 0, reply, 16), -EIO);
	/* long: bytes after the value */
	gt_assert_eq(wire_client_unpack(&t.cc, 0, reply, 32), -EIO);
	/* an early failure (empty reply) leaves the caller's struct alone */
	gp.value = &value;
	value = 7;
	gt_assert_eq(wire_client_unpack(&t.cc, -EINVAL, reply, 0), 0);
	gt_assert(gp.value == &value && value == 7);
	trip_release(&t);
}

/* Equal only when all 128 bits are; zero is "no file". */
static void test_token_equal(void)
{
	struct gem_token a = { .lo = 0x0123456789abcdefull, .hi = 0xfedcba9876543210ull };
	struct gem_token b = a;

	gt_assert(gem_token_equal(a, b));
	b.hi ^= 1ull << 63;		/* the low 64 bits alone are not enough */
	gt_assert(!gem_token_equal(a, b));
	b = a;
	b.lo ^= 1;
	gt_assert(!gem_token_equal(a, b));
	b = (struct gem_token){ .lo = a.lo };
	gt_assert(!gem_token_equal(a, b));
	gt_assert(!gem_token_is_none(a));
	gt_assert(!gem_token_is_none(b));
	gt_assert(gem_token_is_none(GEM_TOKEN_NONE));
	gt_assert(!gem_token_is_none((struct gem_token){ .hi = 1 }));
}

static void test_token(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	socklen_t base = offsetof(struct sockaddr_un, sun_path);
	uint64_t token = 0;
	int fd;

	memcpy(sa.sun_path, "\0001f0a3", 6);
	gt_assert_eq(wire_token_from_addr(&sa, base + 6, &token), 0);
	gt_assert_eq_u64(token, 0x1f0a3 + 1);
	memcpy(sa.sun_path, "\00000000", 6);
	gt_assert_eq(wire_token_from_addr(&sa, base + 6, &token), 0);
	gt_assert_eq_u64(token, 1);		/* never 0 */
	gt_assert_eq(wire_token_from_addr(&sa, base + 5, &token), -EINVAL);
	memcpy(sa.sun_path, "\0001F0A3", 6);
	gt_assert_eq(wire_token_from_addr(&sa, base + 6, &token), -EINVAL);
	memcpy(sa.sun_path, "/tmp/x", 7);
	gt_assert_eq(wire_token_from_addr(&sa, base + 7, &token), -EINVAL);
	gt_assert_eq(wire_token_from_addr(&sa, sizeof(sa_family_t), &token), -EINVAL);

	/* what the kernel really hands out */
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	gt_assert(fd >= 0);
	gt_assert_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa_family_t)), 0);
	base = sizeof(sa);
	gt_assert_eq(getsockname(fd, (struct sockaddr *)&sa, &base), 0);
	gt_assert_eq(wire_token_from_addr(&sa, base, &token), 0);
	close(fd);
}

/*
 * Random payloads for every ioctl number: unpack either refuses with an
 * errno or yields something the reply path can walk.  Under ASan (CI)
 * this also proves no read strays outside the payload.
 */
static void test_fuzz(void)
{
	static const unsigned int cmds[] = {
		DRM_IOCTL_VERSION, DRM_IOCTL_GET_UNIQUE, DRM_IOCTL_I915_GETPARAM,
		DRM_IOCTL_I915_GEM_EXECBUFFER, DRM_IOCTL_I915_GEM_EXECBUFFER2,
		DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, DRM_IOCTL_I915_GEM_CREATE_EXT,
		DRM_IOCTL_I915_GEM_PREAD, DRM_IOCTL_I915_GEM_MMAP,
		DRM_IOCTL_I915_GEM_MMAP_GTT, DRM_IOCTL_I915_GEM_THROTTLE,
		DRM_IOCTL_I915_GEM_CONTEXT_CREATE,
	};
	struct gem_location loc = { 1, 0, 0, 4096 };
	uint32_t seed = 42, words[64];
	struct trip t;
	int i, ret;

	trip_init(&t);
	for (i = 0; i < 20000; i++) {
		unsigned int cmd = cmds[gt_rand(&seed) % ARRAY_SIZE(cmds)];
		size_t len = (gt_rand(&seed) % 33) * 8, j;

		for (j = 0; j < ARRAY_SIZE(words); j++) {
			words[j] = gt_rand(&seed);
			/* small counts and NULL pointers often, or nothing parses */
			if (gt_rand(&seed) % 2)
				words[j] %= 3;
		}
		ret = server_only(&t, cmd, words, len);
		gt_assert_f(ret == 0 || ret == -EFAULT || ret == -EINVAL ||
			    ret == -E2BIG, "unpack: %d", ret);
		if (ret)
			continue;
		strbuf_reset(&t.reply);
		gt_assert_eq(wire_server_pack(&t.sc, 0, &loc, &t.reply), 0);
	}
	trip_release(&t);
}

/* --- wire_call: one round trip, the reply judged the same for all ------ */

/* A connected pair: [0] is the client's end, [1] plays gemd. */
static void pair(int sv[2])
{
	gt_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
}

static void unpair(int sv[2])
{
	if (sv[0] >= 0)
		close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
}

/* What "gemd" answers: a reply header saying len and nfds, then body
 * (which need not be len bytes), pass_fd riding along if >= 0. */
static void answer(int sock, uint32_t magic, int32_t result, uint32_t len,
		   uint32_t nfds, const void *body, size_t bodylen, int pass_fd)
{
	struct gem_reply_hdr rh = { magic, result, len, nfds };
	struct iovec iov[2] = { { &rh, sizeof(rh) }, { (void *)body, bodylen } };

	gt_assert_eq(wire_send(sock, iov, 2, pass_fd), (ssize_t)(sizeof(rh) + bodylen));
}

static void answer_ok(int sock, int32_t result, const void *body, uint32_t len)
{
	answer(sock, GEM_PROTOCOL_MAGIC, result, len, 0, body, len, -1);
}

/* A HELLO-style call with an 8-byte payload, its reply into sb. */
static int call8(int sock, struct strbuf *sb, size_t min, size_t max,
		 struct wire_call *out)
{
	static uint64_t word = 0x1122334455667788ull;
	struct iovec iov = { &word, sizeof(word) };

	*out = (struct wire_call){
		.type = GEM_MSG_DEBUGFS, .request = 7,
		.file = { .lo = 0x42, .hi = 0x8877665544332211ull },
		.iov = &iov, .iovcnt = 1, .reply = sb,
		.min_len = min, .max_len = max,
	};
	return wire_call(sock, out);
}

static void test_call_reply(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct gem_msg_hdr hdr;
	struct wire_call c;
	uint64_t word;
	int sv[2];

	pair(sv);
	gt_assert_eq(strbuf_addstr(&sb, "abc"), 0);
	answer_ok(sv[1], 5, "hello", 5);
	gt_assert_eq(call8(sv[0], &sb, 5, 5, &c), 0);
	gt_assert_eq(c.result, 5);
	gt_assert_eq(c.fd, -1);
	/* appended, and still a string */
	gt_assert_eq(sb.len, 8);
	gt_assert(!strcmp(sb.buf, "abchello"));
	/* what went out: the header wire_call made, then the payload */
	gt_assert_eq(read_full(sv[1], &hdr, sizeof(hdr)), (ssize_t)sizeof(hdr));
	gt_assert_eq(hdr.magic, GEM_PROTOCOL_MAGIC);
	gt_assert_eq(hdr.type, GEM_MSG_DEBUGFS);
	gt_assert_eq(hdr.flags, 0);
	gt_assert_eq(hdr.len, 8);
	gt_assert_eq(hdr.request, 7);
	gt_assert_eq_u64(hdr.file.lo, 0x42);
	gt_assert_eq_u64(hdr.file.hi, 0x8877665544332211ull);
	/* where protocol.h says: lo at byte 16, hi at byte 24 */
	gt_assert_eq(((const uint8_t *)&hdr)[16], 0x42);
	gt_assert_eq(((const uint8_t *)&hdr)[24], 0x11);
	gt_assert_eq(((const uint8_t *)&hdr)[31], 0x88);
	gt_assert_eq(read_full(sv[1], &word, sizeof(word)), 8);
	gt_assert_eq_u64(word, 0x1122334455667788ull);

	/* a refusal may be shorter than a success must be */
	answer_ok(sv[1], -ENOENT, NULL, 0);
	gt_assert_eq(call8(sv[0], &sb, 5, 5, &c), 0);
	gt_assert_eq(c.result, -ENOENT);
	gt_assert_eq(sb.len, 8);
	strbuf_release(&sb);
	unpair(sv);
}

static void test_call_bad_magic(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct wire_call c;
	int sv[2];

	pair(sv);
	gt_assert_eq(strbuf_addstr(&sb, "kept"), 0);
	answer(sv[1], GEM_PROTOCOL_MAGIC ^ 1, 0, 4, 0, "abcd", 4, -1);
	gt_assert_eq(call8(sv[0], &sb, 0, 0, &c), -EPROTO);
	/* the caller's buffer as it was */
	gt_assert_eq(sb.len, 4);
	gt_assert(!strcmp(sb.buf, "kept"));
	strbuf_release(&sb);
	unpair(sv);
}

static void test_call_short_reply(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct wire_call c;
	int sv[2];

	pair(sv);
	answer_ok(sv[1], 0, "abc", 3);
	gt_assert_eq(call8(sv[0], &sb, 4, 16, &c), -EBADMSG);
	gt_assert_eq(sb.len, 0);
	strbuf_release(&sb);
	unpair(sv);
}

static void test_call_oversize(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct iovec big = { NULL, (size_t)GEM_MSG_MAX_PAYLOAD + 1 };
	struct wire_call c = { .type = GEM_MSG_DEBUGFS, .iov = &big, .iovcnt = 1 };
	int sv[2];

	pair(sv);
	/* over the caller's bound */
	answer_ok(sv[1], 0, "abcde", 5);
	gt_assert_eq(call8(sv[0], &sb, 0, 4, &c), -EMSGSIZE);
	unpair(sv);
	/* over the protocol's (the header alone says so) */
	pair(sv);
	answer(sv[1], GEM_PROTOCOL_MAGIC, 0, GEM_MSG_MAX_PAYLOAD + 1, 0, NULL, 0, -1);
	gt_assert_eq(call8(sv[0], &sb, 0, 0, &c), -EMSGSIZE);
	unpair(sv);
	/* any payload for a call that wants none */
	pair(sv);
	answer_ok(sv[1], 0, "a", 1);
	gt_assert_eq(call8(sv[0], NULL, 0, 0, &c), -EMSGSIZE);
	/* a request over the protocol's bound is not sent */
	c = (struct wire_call){ .type = GEM_MSG_DEBUGFS, .iov = &big, .iovcnt = 1 };
	gt_assert_eq(wire_call(sv[0], &c), -EMSGSIZE);
	/* nor one in too many pieces */
	c.iovcnt = WIRE_CALL_MAX_IOV + 1;
	gt_assert_eq(wire_call(sv[0], &c), -EINVAL);
	gt_assert_eq(sb.len, 0);
	strbuf_release(&sb);
	unpair(sv);
}

/* The read end of a pipe whose write end went to the peer: EOF once the
 * received copy is closed too. */
static bool write_end_closed(int rfd)
{
	char byte;

	return read(rfd, &byte, 1) == 0;
}

static void test_call_fds(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct wire_call c;
	int sv[2], p[2];

	/* a descriptor nobody asked for: refused, and closed */
	pair(sv);
	gt_assert_eq(pipe2(p, O_CLOEXEC | O_NONBLOCK), 0);
	answer(sv[1], GEM_PROTOCOL_MAGIC, 0, 1, 1, "x", 1, p[1]);
	close(p[1]);
	gt_assert_eq(call8(sv[0], &sb, 0, 0, &c), -EPROTO);
	gt_assert_eq(c.fd, -1);
	gt_assert(write_end_closed(p[0]));
	close(p[0]);
	unpair(sv);
	/* the same with the header not owning up to it */
	pair(sv);
	gt_assert_eq(pipe2(p, O_CLOEXEC | O_NONBLOCK), 0);
	answer(sv[1], GEM_PROTOCOL_MAGIC, 0, 1, 0, "x", 1, p[1]);
	close(p[1]);
	gt_assert_eq(call8(sv[0], &sb, 0, 0, &c), -EPROTO);
	gt_assert(write_end_closed(p[0]));
	close(p[0]);
	unpair(sv);
	/* promised in the header, never sent */
	pair(sv);
	answer(sv[1], GEM_PROTOCOL_MAGIC, 0, 1, 1, "x", 1, -1);
	gt_assert_eq(call8(sv[0], &sb, 0, 0, &c), -EPROTO);
	unpair(sv);
	/* a success that owes one and has none */
	pair(sv);
	answer_ok(sv[1], 0, "x", 1);
	c = (struct wire_call){ .type = GEM_MSG_ARENA, .reply = &sb, .want_fd = true };
	gt_assert_eq(wire_call(sv[0], &c), -EPROTO);
	unpair(sv);
	/* and one that has it */
	pair(sv);
	gt_assert_eq(pipe2(p, O_CLOEXEC | O_NONBLOCK), 0);
	answer(sv[1], GEM_PROTOCOL_MAGIC, 0, 1, 1, "x", 1, p[1]);
	close(p[1]);
	c = (struct wire_call){ .type = GEM_MSG_ARENA, .reply = &sb, .want_fd = true };
	gt_assert_eq(wire_call(sv[0], &c), 0);
	gt_assert(c.fd >= 0);
	gt_assert_eq(write(c.fd, "y", 1), 1);
	close(c.fd);
	gt_assert_eq(sb.len, 1);
	close(p[0]);
	unpair(sv);
	strbuf_release(&sb);
}

static void test_call_eof(void)
{
	struct gem_reply_hdr rh = { GEM_PROTOCOL_MAGIC, 0, 8, 0 };
	struct strbuf sb = STRBUF_INIT;
	struct wire_call c;
	int sv[2];

	/* before any byte */
	pair(sv);
	gt_assert_eq(shutdown(sv[1], SHUT_WR), 0);
	gt_assert_eq(call8(sv[0], &sb, 0, 0, &c), -ECONNRESET);
	unpair(sv);
	/* inside the header */
	pair(sv);
	gt_assert_eq(write_full(sv[1], &rh, 6), 6);
	gt_assert_eq(shutdown(sv[1], SHUT_WR), 0);
	gt_assert_eq(call8(sv[0], &sb, 0, 0, &c), -ECONNRESET);
	unpair(sv);
	/* inside the payload */
	pair(sv);
	gt_assert_eq(strbuf_addstr(&sb, "kept"), 0);
	answer(sv[1], GEM_PROTOCOL_MAGIC, 0, 8, 0, "abc", 3, -1);
	gt_assert_eq(shutdown(sv[1], SHUT_WR), 0);
	gt_assert_eq(call8(sv[0], &sb, 0, 0, &c), -ECONNRESET);
	gt_assert_eq(sb.len, 4);
	gt_assert(!strcmp(sb.buf, "kept"));
	unpair(sv);
	/* the request cannot go: gemd is gone */
	pair(sv);
	close(sv[1]);
	sv[1] = -1;
	gt_assert_eq(call8(sv[0], &sb, 0, 0, &c), -EPIPE);
	unpair(sv);
	strbuf_release(&sb);
}

/* More bytes than the reply: a second answer nobody asked for. */
static void test_call_trailing(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct wire_call c;
	int sv[2];

	pair(sv);
	answer(sv[1], GEM_PROTOCOL_MAGIC, 0, 2, 0, "abcd", 4, -1);
	gt_assert_eq(call8(sv[0], &sb, 0, 0, &c), -EPROTO);
	gt_assert_eq(sb.len, 0);
	strbuf_release(&sb);
	unpair(sv);
}

/* Giving up on a reply that does not come: deadline and stop flag. */
static void test_call_wait(void)
{
	volatile sig_atomic_t stop = 1;
	struct wire_call c = { .type = GEM_MSG_CONTROL, .deadline_ns = 1 };
	int sv[2];

	pair(sv);
	gt_assert_eq(wire_call(sv[0], &c), -ETIMEDOUT);
	c = (struct wire_call){ .type = GEM_MSG_CONTROL, .stop = &stop };
	gt_assert_eq(wire_call(sv[0], &c), -EINTR);
	/* a reply already there is taken whatever the clock says */
	stop = 0;
	answer_ok(sv[1], -EALREADY, NULL, 0);
	c = (struct wire_call){ .type = GEM_MSG_CONTROL, .stop = &stop,
				.deadline_ns = now_ns() + 60000000000ull };
	gt_assert_eq(wire_call(sv[0], &c), 0);
	gt_assert_eq(c.result, -EALREADY);
	unpair(sv);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);
	gemtest_subtest("version-short-buffers")
		test_version();
	gemtest_subtest("version-null-buffers")
		test_version_null();
	gemtest_subtest("get-unique-empty")
		test_get_unique();
	gemtest_subtest("getparam-value")
		test_getparam();
	gemtest_subtest("execbuffer2-writeback")
		test_execbuffer2(DRM_IOCTL_I915_GEM_EXECBUFFER2);
	gemtest_subtest("execbuffer2-wr-writeback")
		test_execbuffer2(DRM_IOCTL_I915_GEM_EXECBUFFER2_WR);
	gemtest_subtest("execbuffer-v1-writeback")
		test_execbuffer1();
	gemtest_subtest("create-ext-chain")
		test_create_ext();
	gemtest_subtest("create-ext-loop")
		test_create_ext_loop();
	gemtest_subtest("query-items")
		test_query();
	gemtest_subtest("pread-pwrite-mmap-location")
		test_location();
	gemtest_subtest("prime-and-remap")
		test_prime_and_remap();
	gemtest_subtest("zero-extend-mmap-gtt")
		test_zero_extend_mmap_gtt();
	gemtest_subtest("zero-extend-context-create")
		test_zero_extend_context_create();
	gemtest_subtest("longer-than-kernel")
		test_longer_than_kernel();
	gemtest_subtest("throttle-no-argument")
		test_no_argument();
	gemtest_subtest("unknown-ioctls")
		test_unknown();
	gemtest_subtest("client-refusals")
		test_client_refusals();
	gemtest_subtest("execbuffer2-writes-only-changes")
		test_exec_writes_only_changes();
	gemtest_subtest("execbuffer2-relocs-out-of-line")
		test_exec_out_of_line();
	gemtest_subtest("execbuffer2-relocs-out-of-line-readonly")
		test_exec_out_of_line_readonly();
	gemtest_subtest("execbuffer2-relocs-out-of-line-refusals")
		test_exec_out_of_line_refusals();
	gemtest_subtest("malformed-payloads")
		test_malformed();
	gemtest_subtest("bad-replies")
		test_bad_replies();
	gemtest_subtest("file-token")
		test_token();
	gemtest_subtest("file-token-equal")
		test_token_equal();
	gemtest_subtest("fuzz-unpack")
		test_fuzz();
	gemtest_subtest("call-reply")
		test_call_reply();
	gemtest_subtest("call-bad-magic")
		test_call_bad_magic();
	gemtest_subtest("call-short-reply")
		test_call_short_reply();
	gemtest_subtest("call-oversize")
		test_call_oversize();
	gemtest_subtest("call-fds")
		test_call_fds();
	gemtest_subtest("call-eof")
		test_call_eof();
	gemtest_subtest("call-trailing-bytes")
		test_call_trailing();
	gemtest_subtest("call-deadline-and-stop")
		test_call_wait();
	return gemtest_exit();
}
