/*
 * gem_exec: EXECBUFFER2 (and _WR, and the legacy EXECBUFFER): the order
 * of its checks (flags and count, then context, then ring, then handles,
 * as IGT's engine probing relies on), relocations and what is written
 * back, HANDLE_LUT, NO_RELOC as a hint only, batch_start_offset and
 * batch_len, and legacy GEM_PIN.
 */
#include <stdlib.h>
#include <sys/mman.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"
#include "util.h"

#define APERTURE	(256ull << 20)

static uint64_t ptr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static int execbuf(int fd, struct drm_i915_gem_exec_object2 *obj,
		   uint32_t count, uint64_t flags, uint32_t ctx)
{
	struct drm_i915_gem_execbuffer2 eb;

	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = ptr(obj);
	eb.buffer_count = count;
	eb.flags = flags;
	i915_execbuffer2_set_context_id(eb, ctx);
	return gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
}

static uint32_t bbe_batch(int fd)
{
	uint32_t h = gt_create(fd, 4096), bbe[2] = { MI_BATCH_BUFFER_END, MI_NOOP };

	gt_write(fd, h, 0, bbe, sizeof(bbe));
	return h;
}

static void test_count_zero(int fd)
{
	struct drm_i915_gem_exec_object2 obj = { .handle = bbe_batch(fd) };

	gt_assert_errno(execbuf(fd, &obj, 0, 0, 0), EINVAL);
	gt_assert_errno(execbuf(fd, &obj, 0, 0, 1), EINVAL);
	gt_assert_errno(execbuf(fd, &obj, 0, 7, 1), EINVAL);
	gt_assert_eq(execbuf(fd, &obj, 1, 0, 0), 0);
	gt_close(fd, obj.handle);
}

/* A 945G has one ring: DEFAULT (0) and RENDER (1) only. */
static void test_rings(int fd)
{
	struct drm_i915_gem_exec_object2 obj = { .handle = bbe_batch(fd) };
	uint64_t ring;

	gt_assert_eq(execbuf(fd, &obj, 1, I915_EXEC_DEFAULT, 0), 0);
	gt_assert_eq(execbuf(fd, &obj, 1, I915_EXEC_RENDER, 0), 0);
	for (ring = 2; ring <= I915_EXEC_RING_MASK; ring++)
		gt_assert_f(execbuf(fd, &obj, 1, ring, 0) == -1 && errno == EINVAL,
			    "ring %" PRIu64 ": expected EINVAL, got %s", ring,
			    strerror(errno));
	gt_sync(fd, obj.handle);
	gt_close(fd, obj.handle);
}

/* flags/count (EINVAL) -> context (ENOENT) -> ring (EINVAL) -> handles (ENOENT) */
static void test_check_order(int fd)
{
	struct drm_i915_gem_exec_object2 bad = { .handle = 0x7ffff };

	gt_assert_errno(execbuf(fd, &bad, 0, 5, 1), EINVAL);
	gt_assert_errno(execbuf(fd, &bad, 1, 1ull << 40 | 5, 1), EINVAL);
	gt_assert_errno(execbuf(fd, &bad, 1, 5, 1), ENOENT);
	gt_assert_errno(execbuf(fd, &bad, 1, 0, 1), ENOENT);
	gt_assert_errno(execbuf(fd, &bad, 1, 5, 0), EINVAL);
	gt_assert_errno(execbuf(fd, &bad, 1, I915_EXEC_BLT, 0), EINVAL);
	gt_assert_errno(execbuf(fd, &bad, 1, 0, 0), ENOENT);
	gt_assert_errno(execbuf(fd, &bad, 1, I915_EXEC_RENDER, 0), ENOENT);
}

/* One store through a relocation: [target, batch]. */
struct store {
	struct drm_i915_gem_exec_object2 obj[2];
	struct drm_i915_gem_relocation_entry reloc;
	uint32_t dw[8];
};

static void store_init(struct store *s, uint32_t target, uint32_t batch,
		       uint32_t target_id, uint32_t delta, uint32_t value)
{
	memset(s, 0, sizeof(*s));
	s->dw[0] = MI_STORE_DWORD_IMM_GTT;
	s->dw[1] = 0;
	s->dw[2] = delta;		/* target at 0 + delta */
	s->dw[3] = value;
	s->dw[4] = MI_BATCH_BUFFER_END;
	s->dw[5] = MI_NOOP;
	s->reloc.target_handle = target_id;
	s->reloc.offset = 2 * 4;
	s->reloc.delta = delta;
	s->reloc.presumed_offset = 0;
	s->reloc.read_domains = I915_GEM_DOMAIN_RENDER;
	s->reloc.write_domain = I915_GEM_DOMAIN_RENDER;
	s->obj[0].handle = target;
	s->obj[1].handle = batch;
	s->obj[1].relocation_count = 1;
	s->obj[1].relocs_ptr = ptr(&s->reloc);
}

static int store_exec(int fd, struct store *s, uint64_t flags)
{
	gt_write(fd, s->obj[1].handle, 0, s->dw, sizeof(s->dw));
	return execbuf(fd, s->obj, 2, flags, 0);
}

static uint32_t read_u32(int fd, uint32_t handle, uint64_t offset)
{
	uint32_t v = 0;

	gt_read(fd, handle, offset, &v, 4);
	return v;
}

static void test_store(int fd)
{
	uint32_t target = gt_create(fd, 8192), batch = gt_create(fd, 4096), i;
	uint32_t buf[2048];
	struct store s;

	gt_fill_pattern(buf, sizeof(buf), 9);
	gt_write(fd, target, 0, buf, sizeof(buf));
	store_init(&s, target, batch, target, 4096 + 8, 0xdeadbeef);
	gt_assert_eq(store_exec(fd, &s, 0), 0);
	gt_sync(fd, target);
	buf[(4096 + 8) / 4] = 0xdeadbeef;
	for (i = 0; i < 2048; i++)
		gt_assert_f(read_u32(fd, target, i * 4) == buf[i],
			    "dword %u: 0x%x, expected 0x%x", i,
			    read_u32(fd, target, i * 4), buf[i]);
	gt_close(fd, target);
	gt_close(fd, batch);
}

static void check_offset(uint64_t off)
{
	gt_assert_f((off & 4095) == 0 && off < APERTURE, "offset 0x%" PRIx64, off);
}

/* Offsets and presumed offsets come back; the batch holds the address. */
static void test_writeback(int fd)
{
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 4096);
	struct store s;

	store_init(&s, target, batch, target, 0x100, 0x0ff5e7);
	s.obj[0].offset = 0xfff000;	/* stale guesses, corrected */
	s.obj[1].offset = 0xfff000;
	s.reloc.presumed_offset = 0xfff000;
	gt_assert_eq(store_exec(fd, &s, 0), 0);
	check_offset(s.obj[0].offset);
	check_offset(s.obj[1].offset);
	gt_assert(s.obj[0].offset != s.obj[1].offset);
	gt_assert_eq_u64(s.reloc.presumed_offset, s.obj[0].offset);
	gt_assert_eq(read_u32(fd, batch, 8), (uint32_t)s.obj[0].offset + 0x100);
	gt_assert_eq(read_u32(fd, target, 0x100), 0x0ff5e7);
	gt_assert_eq(read_u32(fd, target, 0), 0);
	gt_close(fd, target);
	gt_close(fd, batch);
}

static void test_handle_lut(int fd)
{
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 4096);
	struct store s;

	/* The target is exec object 0. */
	store_init(&s, target, batch, 0, 16, 0x1a7);
	gt_assert_eq(store_exec(fd, &s, I915_EXEC_HANDLE_LUT), 0);
	gt_assert_eq_u64(s.reloc.presumed_offset, s.obj[0].offset);
	gt_assert_eq(read_u32(fd, target, 16), 0x1a7);

	/* Index 2 does not exist in a list of two, whatever handle 2 is. */
	store_init(&s, target, batch, 2, 16, 1);
	gt_assert_errno(store_exec(fd, &s, I915_EXEC_HANDLE_LUT), ENOENT);
	/* Without LUT, 0 is not a handle. */
	store_init(&s, target, batch, 0, 16, 1);
	gt_assert_errno(store_exec(fd, &s, 0), ENOENT);
	gt_assert_eq(read_u32(fd, target, 16), 0x1a7);
	gt_close(fd, target);
	gt_close(fd, batch);
}

/*
 * NO_RELOC promises the offsets are right.  When they are not, the kernel
 * relocates anyway: the store must land in the target, not at the stale
 * address the batch was written with.
 */
static void test_no_reloc(int fd)
{
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 4096);
	uint64_t real;
	struct store s;

	store_init(&s, target, batch, target, 0, 1);
	gt_assert_eq(store_exec(fd, &s, 0), 0);
	real = s.obj[0].offset;

	/* Honest: offsets and batch are right. */
	store_init(&s, target, batch, target, 32, 0x600d);
	s.obj[0].offset = real;
	s.reloc.presumed_offset = real;
	s.dw[2] = (uint32_t)real + 32;
	gt_assert_eq(store_exec(fd, &s, I915_EXEC_NO_RELOC), 0);
	gt_assert_eq(read_u32(fd, target, 32), 0x600d);

	/* Stale: everything claims the target sits 1 MiB further on. */
	store_init(&s, target, batch, target, 64, 0xbadc0de);
	s.obj[0].offset = real + (1 << 20);
	s.reloc.presumed_offset = real + (1 << 20);
	s.dw[2] = (uint32_t)(real + (1 << 20)) + 64;
	gt_assert_eq(store_exec(fd, &s, I915_EXEC_NO_RELOC), 0);
	gt_assert_eq(read_u32(fd, target, 64), 0xbadc0de);
	gt_assert_eq_u64(s.obj[0].offset, real);
	gt_assert_eq_u64(s.reloc.presumed_offset, real);
	gt_assert_eq(read_u32(fd, batch, 8), (uint32_t)real + 64);

	/* Same with HANDLE_LUT, as gem_exec_nop and the benchmarks submit. */
	store_init(&s, target, batch, 0, 96, 0x1a70);
	s.obj[0].offset = real ^ (2 << 20);
	s.reloc.presumed_offset = real ^ (2 << 20);
	s.dw[2] = (uint32_t)(real ^ (2 << 20)) + 96;
	gt_assert_eq(store_exec(fd, &s, I915_EXEC_NO_RELOC | I915_EXEC_HANDLE_LUT), 0);
	gt_assert_eq(read_u32(fd, target, 96), 0x1a70);
	gt_close(fd, target);
	gt_close(fd, batch);
}

static void test_reloc_errors(int fd)
{
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 4096);
	struct store s;

	/* Outside the object holding the relocation, or misaligned.  The
	 * batch does nothing, so the one that is accepted stores nowhere. */
	store_init(&s, target, batch, target, 0, 1);
	s.dw[0] = MI_BATCH_BUFFER_END;
	s.dw[1] = MI_NOOP;
	s.reloc.offset = 4096;
	gt_assert_errno(store_exec(fd, &s, 0), EINVAL);
	s.reloc.offset = 4094;
	gt_assert_errno(store_exec(fd, &s, 0), EINVAL);
	s.reloc.offset = 1ull << 32;
	gt_assert_errno(store_exec(fd, &s, 0), EINVAL);
	s.reloc.offset = 10;
	gt_assert_errno(store_exec(fd, &s, 0), EINVAL);
	s.reloc.offset = 4092;		/* the last dword: fine */
	gt_assert_eq(store_exec(fd, &s, 0), 0);

	store_init(&s, target, batch, 0x7ffff, 0, 1);
	gt_assert_errno(store_exec(fd, &s, 0), ENOENT);

	/* GPU domains only, and at most one write domain. */
	store_init(&s, target, batch, target, 0, 1);
	s.reloc.read_domains = I915_GEM_DOMAIN_CPU;
	s.reloc.write_domain = 0;
	gt_assert_errno(store_exec(fd, &s, 0), EINVAL);
	s.reloc.read_domains = I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_CPU;
	gt_assert_errno(store_exec(fd, &s, 0), EINVAL);
	s.reloc.read_domains = I915_GEM_DOMAIN_CPU;
	s.reloc.write_domain = I915_GEM_DOMAIN_CPU;
	gt_assert_errno(store_exec(fd, &s, 0), EINVAL);
	s.reloc.read_domains = I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER;
	s.reloc.write_domain = I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER;
	gt_assert_errno(store_exec(fd, &s, 0), EINVAL);
	gt_sync(fd, target);
	gt_close(fd, target);
	gt_close(fd, batch);
}

static void test_object_errors(int fd)
{
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 4096);
	struct store s;

	store_init(&s, target, batch, target, 0, 1);
	s.obj[0].handle = batch;	/* listed twice */
	gt_assert_errno(store_exec(fd, &s, 0), EINVAL);

	store_init(&s, target, batch, target, 0, 1);
	s.obj[0].flags = 1ull << 20;	/* no such exec object flag */
	gt_assert_errno(store_exec(fd, &s, 0), EINVAL);

	store_init(&s, target, batch, target, 0, 1);
	s.obj[0].alignment = 3 * 4096;	/* not a power of two */
	gt_assert_errno(store_exec(fd, &s, 0), EINVAL);
	gt_close(fd, target);
	gt_close(fd, batch);
}

static void test_exec_wr(int fd)
{
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 4096);
	struct drm_i915_gem_execbuffer2 eb;
	struct store s;

	store_init(&s, target, batch, target, 200, 0x3232);
	gt_write(fd, batch, 0, s.dw, sizeof(s.dw));
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = ptr(s.obj);
	eb.buffer_count = 2;
	eb.flags = I915_EXEC_RENDER;
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
	check_offset(s.obj[0].offset);
	gt_assert_eq_u64(s.reloc.presumed_offset, s.obj[0].offset);
	gt_assert_eq(read_u32(fd, target, 200), 0x3232);

	eb.flags = 3;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), EINVAL);
	gt_close(fd, target);
	gt_close(fd, batch);
}

/* The 2008 interface: drm_i915_gem_exec_object, no flags, no rings. */
static void test_legacy_execbuffer(int fd)
{
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 4096);
	struct drm_i915_gem_exec_object obj[2];
	struct drm_i915_gem_execbuffer eb;
	struct store s;

	store_init(&s, target, batch, target, 300, 0x1e9ac7);
	gt_write(fd, batch, 0, s.dw, sizeof(s.dw));
	memset(obj, 0, sizeof(obj));
	obj[0].handle = target;
	obj[1].handle = batch;
	obj[1].relocation_count = 1;
	obj[1].relocs_ptr = ptr(&s.reloc);
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = ptr(obj);
	eb.buffer_count = 2;
	eb.batch_len = 24;
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER, &eb), 0);
	check_offset(obj[0].offset);
	check_offset(obj[1].offset);
	gt_assert_eq_u64(s.reloc.presumed_offset, obj[0].offset);
	gt_assert_eq(read_u32(fd, target, 300), 0x1e9ac7);
	gt_assert_eq(read_u32(fd, batch, 8), (uint32_t)obj[0].offset + 300);

	eb.buffer_count = 0;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER, &eb), EINVAL);
	obj[0].handle = 0x7ffff;
	eb.buffer_count = 2;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER, &eb), ENOENT);
	gt_close(fd, target);
	gt_close(fd, batch);
}

/* Legacy GEM_PIN: an offset, kept across executions, until UNPIN. */
static void test_pin(int fd)
{
	uint32_t target = gt_create(fd, 64 << 10), batch = gt_create(fd, 4096), i;
	struct drm_i915_gem_pin pin = { .handle = target };
	struct drm_i915_gem_unpin unpin = { .handle = target };
	struct store s;

	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_PIN, &pin), 0);
	check_offset(pin.offset);
	for (i = 0; i < 4; i++) {
		store_init(&s, target, batch, target, i * 4096, 0x9190 + i);
		gt_assert_eq(store_exec(fd, &s, 0), 0);
		gt_assert_eq_u64(s.obj[0].offset, pin.offset);
		gt_assert_eq(read_u32(fd, batch, 8), (uint32_t)pin.offset + i * 4096);
		gt_assert_eq(read_u32(fd, target, i * 4096), 0x9190 + i);
	}
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_UNPIN, &unpin), 0);
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_UNPIN, &unpin), EINVAL);
	pin.handle = 0x7ffff;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_PIN, &pin), ENOENT);
	gt_close(fd, target);
	gt_close(fd, batch);
}

/*
 * batch_start_offset picks where execution starts, batch_len how much is
 * the batch; both must be qword aligned and inside the object.
 */
static void test_batch_start(int fd)
{
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 4096);
	struct drm_i915_gem_exec_object2 obj[2];
	struct drm_i915_gem_execbuffer2 eb;
	struct gen3_batch b;
	uint32_t zero[2] = { 0, 0 };

	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, target, 0, 0xaaaa);
	gen3_batch_end(&b);
	gen3_batch_pad_to(&b, 16);		/* second batch at byte 64 */
	gen3_emit_store_dword(&b, target, 4, 0xbbbb);
	gen3_batch_end(&b);
	gt_assert_eq(gen3_batch_bytes(&b), 64 + 24);
	gt_write(fd, batch, 0, b.dw, gen3_batch_bytes(&b));

	memset(obj, 0, sizeof(obj));
	obj[0].handle = target;
	obj[1].handle = batch;
	obj[1].relocation_count = b.nreloc;
	obj[1].relocs_ptr = ptr(b.reloc);
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = ptr(obj);
	eb.buffer_count = 2;

	eb.batch_start_offset = 64;
	eb.batch_len = 24;
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
	gt_assert_eq(read_u32(fd, target, 0), 0);
	gt_assert_eq(read_u32(fd, target, 4), 0xbbbb);

	gt_write(fd, target, 0, zero, sizeof(zero));
	eb.batch_start_offset = 0;
	eb.batch_len = 0;			/* the whole object */
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
	gt_assert_eq(read_u32(fd, target, 0), 0xaaaa);
	gt_assert_eq(read_u32(fd, target, 4), 0);

	eb.batch_start_offset = 64;
	eb.batch_len = 0;
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
	gt_assert_eq(read_u32(fd, target, 4), 0xbbbb);

	eb.batch_start_offset = 4;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), EINVAL);
	eb.batch_start_offset = 0;
	eb.batch_len = 12;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), EINVAL);
	eb.batch_start_offset = 8192;
	eb.batch_len = 0;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), EINVAL);
	eb.batch_start_offset = 4000;
	eb.batch_len = 200;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), EINVAL);
	eb.batch_start_offset = 0;
	eb.batch_len = 8192;
	gt_assert_errno(gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), EINVAL);
	gt_close(fd, target);
	gt_close(fd, batch);
}

/* Relocations in an object that is not the batch are applied as well. */
static void test_reloc_other_object(int fd)
{
	uint32_t state = gt_create(fd, 4096), target = gt_create(fd, 8192);
	uint32_t batch = bbe_batch(fd);
	struct drm_i915_gem_relocation_entry r;
	struct drm_i915_gem_exec_object2 obj[3];

	memset(&r, 0, sizeof(r));
	r.target_handle = target;
	r.offset = 40;
	r.delta = 4096 + 12;
	r.read_domains = I915_GEM_DOMAIN_SAMPLER;
	memset(obj, 0, sizeof(obj));
	obj[0].handle = target;
	obj[1].handle = state;
	obj[1].relocation_count = 1;
	obj[1].relocs_ptr = ptr(&r);
	obj[2].handle = batch;
	gt_assert_eq(execbuf(fd, obj, 3, 0, 0), 0);
	gt_assert_eq(read_u32(fd, state, 40), (uint32_t)obj[0].offset + 4096 + 12);
	gt_assert_eq(read_u32(fd, state, 36), 0);
	gt_assert_eq(read_u32(fd, state, 44), 0);
	gt_assert_eq_u64(r.presumed_offset, obj[0].offset);
	gt_close(fd, state);
	gt_close(fd, target);
	gt_close(fd, batch);
}

/* MI_ARB_CHECK, which IGT's spinners emit between commands: with one ring
 * there is nothing to switch to, and the batch runs on to its end. */
static void test_arb_check(int fd)
{
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 4096);
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_batch_emit(&b, MI_ARB_CHECK);
	gen3_emit_store_dword(&b, target, 0, 0xc0ffee);
	gen3_batch_emit(&b, MI_ARB_CHECK);
	gen3_emit_store_dword(&b, target, 4, 0xdecade);
	gen3_batch_emit(&b, MI_ARB_CHECK);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, NULL), 0);
	gt_sync(fd, target);
	gt_assert_eq(read_u32(fd, target, 0), 0xc0ffee);
	gt_assert_eq(read_u32(fd, target, 4), 0xdecade);
	gt_assert(!gt_busy(fd, batch));
	gt_close(fd, batch);
	gt_close(fd, target);
}

/*
 * More relocations than one message carries (gem_exec_reloc mmap-26 and
 * up: the kernel reads the array in chunks with no bound but memory), all
 * rewriting one dword of the batch itself, the last one winning.  With
 * the array read-only the call still succeeds and writes nothing back to
 * it; with its end unmapped it is -EFAULT and the batch is left alone.
 */
/* 64 MiB and one entry: more than a message's payload, more per object
 * than the payload allows (lib/proto/wire.h) */
#define MANY_RELOCS	((2u << 20) + 1)
#define MANY_BYTES	((size_t)MANY_RELOCS * sizeof(struct drm_i915_gem_relocation_entry))

static void test_many_relocs(int fd, bool readonly)
{
	struct drm_i915_gem_exec_object2 obj = { .handle = bbe_batch(fd) };
	struct drm_i915_gem_relocation_entry *r;
	size_t map = ALIGN_UP(MANY_BYTES, (size_t)4096) + 4096;
	uint32_t i;

	r = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	gt_assert(r != MAP_FAILED);
	for (i = 0; i < MANY_RELOCS; i++) {
		r[i].target_handle = obj.handle;
		r[i].presumed_offset = ~0ull;
		r[i].offset = 1024;
		r[i].delta = i;
		r[i].read_domains = I915_GEM_DOMAIN_INSTRUCTION;
	}
	obj.relocation_count = MANY_RELOCS;
	obj.relocs_ptr = ptr(r);
	if (readonly)
		gt_assert_eq(mprotect(r, map, PROT_READ), 0);
	gt_assert_eq(execbuf(fd, &obj, 1, 0, 0), 0);
	check_offset(obj.offset);
	gt_assert_eq(read_u32(fd, obj.handle, 1024), (uint32_t)obj.offset + MANY_RELOCS - 1);
	for (i = 0; i < MANY_RELOCS; i++)
		gt_assert_f(r[i].presumed_offset == (readonly ? ~0ull : obj.offset),
			    "relocation %u: presumed_offset 0x%" PRIx64, i,
			    (uint64_t)r[i].presumed_offset);

	/* The array's last page gone: nothing is relocated. */
	gt_write(fd, obj.handle, 1024, "\0\0\0\0", 4);
	gt_assert_eq(munmap((uint8_t *)r + map - 4096, 4096), 0);
	obj.relocation_count = (uint32_t)((map - 4096) / sizeof(*r)) + 1;
	gt_assert_errno(execbuf(fd, &obj, 1, 0, 0), EFAULT);
	gt_assert_eq(read_u32(fd, obj.handle, 1024), 0);
	munmap(r, map - 4096);
	gt_close(fd, obj.handle);
}

int main(int argc, char **argv)
{
	int fd;

	fd = gt_start(argc, argv, NULL, 120);

	gemtest_subtest("buffer-count-zero-einval")
		test_count_zero(fd);
	gemtest_subtest("rings")
		test_rings(fd);
	gemtest_subtest("check-order")
		test_check_order(fd);
	gemtest_subtest("store-dword")
		test_store(fd);
	gemtest_subtest("reloc-writeback")
		test_writeback(fd);
	gemtest_subtest("handle-lut")
		test_handle_lut(fd);
	gemtest_subtest("no-reloc-is-a-hint")
		test_no_reloc(fd);
	gemtest_subtest("reloc-errors")
		test_reloc_errors(fd);
	gemtest_subtest("exec-object-errors")
		test_object_errors(fd);
	gemtest_subtest("execbuffer2-wr")
		test_exec_wr(fd);
	gemtest_subtest("legacy-execbuffer")
		test_legacy_execbuffer(fd);
	gemtest_subtest("pin-unpin")
		test_pin(fd);
	gemtest_subtest("batch-start-offset-and-len")
		test_batch_start(fd);
	gemtest_subtest("arb-check")
		test_arb_check(fd);
	gemtest_subtest("reloc-in-other-object")
		test_reloc_other_object(fd);
	gemtest_subtest("many-relocations")
		test_many_relocs(fd, false);
	gemtest_subtest("many-relocations-readonly")
		test_many_relocs(fd, true);

	gem_close(fd);
	return gemtest_exit();
}
