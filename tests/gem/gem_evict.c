/*
 * gem_evict: a 16 MiB aperture (gemd --aperture 16M) and twice as much
 * memory in objects.  Execbuffers bind what they use and evict what they
 * must, and no byte is lost on the way; a set that cannot fit at once is
 * refused with ENOSPC, an object larger than the aperture with E2BIG;
 * legacy GEM_PIN takes space from aper_available_size and keeps its
 * object in place, and a client that fills the aperture with pinned
 * objects gets ENOSPC itself while every other client is still served.
 */
#include <stdlib.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"

#define MiB		(1ull << 20)
#define APERTURE	(16 * MiB)

static void get_aperture(int fd, uint64_t *size, uint64_t *avail)
{
	struct drm_i915_gem_get_aperture ap;

	memset(&ap, 0, sizeof(ap));
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_GET_APERTURE, &ap), 0);
	*size = ap.aper_size;
	*avail = ap.aper_available_size;
}

static int pin_aligned(int fd, uint32_t handle, uint64_t alignment,
		       uint64_t *offset)
{
	struct drm_i915_gem_pin arg = { .handle = handle, .alignment = alignment };
	int ret = gem_ioctl(fd, DRM_IOCTL_I915_GEM_PIN, &arg);

	*offset = arg.offset;
	return ret;
}

static int pin(int fd, uint32_t handle, uint64_t *offset)
{
	return pin_aligned(fd, handle, 0, offset);
}

static int unpin(int fd, uint32_t handle)
{
	struct drm_i915_gem_unpin arg = { .handle = handle };

	return gem_ioctl(fd, DRM_IOCTL_I915_GEM_UNPIN, &arg);
}

static void test_aperture(int fd)
{
	uint64_t size, avail;

	get_aperture(fd, &size, &avail);
	gt_assert_eq_u64(size, APERTURE);
	gt_assert(avail <= size && avail > size - MiB);
}

/* Offsets written back are page aligned, inside, and never overlap. */
static void check_placement(const uint64_t *off, const uint64_t *size, int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		gt_assert_f((off[i] & 4095) == 0, "offset 0x%" PRIx64, off[i]);
		gt_assert_f(off[i] + size[i] <= APERTURE, "offset 0x%" PRIx64
			    " size 0x%" PRIx64 " past the aperture", off[i], size[i]);
		for (j = 0; j < i; j++)
			gt_assert_f(off[i] + size[i] <= off[j] || off[j] + size[j] <= off[i],
				    "objects %d and %d overlap at 0x%" PRIx64 "/0x%" PRIx64,
				    i, j, off[i], off[j]);
	}
}

static void check_object(int fd, uint32_t handle, const uint8_t *ref, uint64_t size,
			 uint8_t *scratch, int idx)
{
	uint64_t i;

	gt_read(fd, handle, 0, scratch, size);
	if (!memcmp(scratch, ref, size))
		return;
	for (i = 0; i < size && scratch[i] == ref[i]; i++)
		;
	gt_assert_f(0, "object %d byte 0x%" PRIx64 ": got 0x%02x, expected 0x%02x",
		    idx, i, scratch[i], ref[i]);
}

#define NOBJ	32
#define PER	4
#define ROUNDS	3

/*
 * 32 objects of 1 MiB through a 16 MiB aperture, four per execbuffer,
 * each execbuffer storing a dword into each of its four: every object is
 * bound, evicted and bound again, and at the end each must hold its
 * pattern plus exactly the dwords stored into it.
 */
static void test_rotate(int fd)
{
	static const int step[PER] = { 0, 5, 11, 19 };
	uint32_t h[NOBJ], batch[4];
	uint8_t *ref = malloc(NOBJ * MiB), *scratch = malloc(MiB);
	uint64_t last[NOBJ] = { 0 }, sizes[PER + 1];
	unsigned int moved = 0, execs = 0;
	int i, r, k;

	gt_assert(ref && scratch);
	for (i = 0; i < NOBJ; i++) {
		h[i] = gt_create(fd, MiB);
		gt_fill_pattern(ref + (size_t)i * MiB, MiB, 1000 + (uint32_t)i);
		gt_write(fd, h[i], 0, ref + (size_t)i * MiB, MiB);
	}
	for (i = 0; i < 4; i++)
		batch[i] = gt_create(fd, 4096);
	for (k = 0; k < PER; k++)
		sizes[k] = MiB;
	sizes[PER] = 4096;

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < NOBJ; i++) {
			uint32_t set[PER];
			uint64_t off[PER + 1];
			struct gen3_batch b;

			gen3_batch_reset(&b);
			for (k = 0; k < PER; k++) {
				int j = (i + step[k]) % NOBJ;
				uint32_t slot = (uint32_t)(r * NOBJ + i) * PER + (uint32_t)k;
				uint32_t value = 0xe0000000u | (uint32_t)r << 16 |
						 (uint32_t)i << 8 | (uint32_t)k;
				uint32_t where = 64 + slot * 4096 % (uint32_t)(MiB - 4096) +
						 (uint32_t)k * 4;

				set[k] = h[j];
				gen3_emit_store_dword(&b, h[j], where, value);
				memcpy(ref + (size_t)j * MiB + where, &value, 4);
			}
			gen3_batch_end(&b);
			gt_assert_eq(gt_execbuf(fd, &b, batch[execs % 4], set, NULL,
						     PER, 0, off), 0);
			execs++;
			check_placement(off, sizes, PER + 1);
			for (k = 0; k < PER; k++) {
				int j = (i + step[k]) % NOBJ;

				if (last[j] && last[j] != off[k] + 1)
					moved++;
				last[j] = off[k] + 1;
			}
		}
	}
	gemtest_diag("%u execbuffers, %u times an object came back elsewhere",
		     execs, moved);
	for (i = 0; i < NOBJ; i++)
		check_object(fd, h[i], ref + (size_t)i * MiB, MiB, scratch, i);

	for (i = 0; i < NOBJ; i++)
		gt_close(fd, h[i]);
	for (i = 0; i < 4; i++)
		gt_close(fd, batch[i]);
	free(ref);
	free(scratch);
}

/* Three 8 MiB objects in one execbuffer cannot fit a 16 MiB aperture. */
static void test_enospc(int fd)
{
	uint32_t h[3], batch = gt_create(fd, 4096), v;
	struct gen3_batch b;
	int i;

	for (i = 0; i < 3; i++) {
		h[i] = gt_create(fd, 8 * MiB);
		v = 0x1000u + (uint32_t)i;
		gt_write(fd, h[i], 8 * MiB - 4, &v, 4);
	}
	gen3_batch_reset(&b);
	gen3_batch_end(&b);
	gt_assert_errno(gt_execbuf(fd, &b, batch, h, NULL, 3, 0, NULL), ENOSPC);

	/* One at a time they fit, and nothing was lost. */
	for (i = 0; i < 3; i++) {
		gen3_batch_reset(&b);
		gen3_emit_store_dword(&b, h[i], 0, 0x2000u + (uint32_t)i);
		gen3_batch_end(&b);
		gt_assert_eq(gt_execbuf(fd, &b, batch, &h[i], NULL, 1, 0, NULL), 0);
	}
	for (i = 0; i < 3; i++) {
		gt_read(fd, h[i], 0, &v, 4);
		gt_assert_eq(v, 0x2000u + (uint32_t)i);
		gt_read(fd, h[i], 8 * MiB - 4, &v, 4);
		gt_assert_eq(v, 0x1000u + (uint32_t)i);
		gt_close(fd, h[i]);
	}
	gt_close(fd, batch);
}

/*
 * An object larger than the whole aperture can never be bound
 * (i915_gem_object_bind_to_gtt: "object is larger than the aperture",
 * -E2BIG).  It is still an object: pread and pwrite work.
 */
static void test_e2big(int fd)
{
	uint32_t big = gt_create(fd, 32 * MiB), batch = gt_create(fd, 4096), v = 0x99;
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, big, 0, 1);
	gen3_batch_end(&b);
	gt_assert_errno(gt_execbuf(fd, &b, batch, &big, NULL, 1, 0, NULL), E2BIG);
	gt_write(fd, big, 32 * MiB - 4, &v, 4);
	v = 0;
	gt_read(fd, big, 32 * MiB - 4, &v, 4);
	gt_assert_eq(v, 0x99);
	gt_read(fd, big, 0, &v, 4);
	gt_assert_eq(v, 0);
	gt_close(fd, big);
	gt_close(fd, batch);
}

static void test_pin_available(int fd)
{
	uint32_t a = gt_create(fd, MiB), b = gt_create(fd, 2 * MiB);
	uint64_t size, avail0, avail, oa = 0, ob = 0;

	get_aperture(fd, &size, &avail0);
	gt_assert_eq(pin(fd, a, &oa), 0);
	gt_assert_eq(oa & 4095, 0);
	gt_assert(oa + MiB <= APERTURE);
	get_aperture(fd, &size, &avail);
	gt_assert_eq_u64(avail, avail0 - MiB);

	gt_assert_eq(pin(fd, b, &ob), 0);
	gt_assert(ob + 2 * MiB <= oa || oa + MiB <= ob);
	get_aperture(fd, &size, &avail);
	gt_assert_eq_u64(avail, avail0 - 3 * MiB);
	gt_assert_eq_u64(size, APERTURE);

	gt_assert_eq(unpin(fd, a), 0);
	get_aperture(fd, &size, &avail);
	gt_assert_eq_u64(avail, avail0 - 2 * MiB);
	gt_assert_eq(unpin(fd, b), 0);
	get_aperture(fd, &size, &avail);
	gt_assert_eq_u64(avail, avail0);

	/* Closing a pinned object's last handle gives the space back. */
	gt_assert_eq(pin(fd, a, &oa), 0);
	gt_close(fd, a);
	get_aperture(fd, &size, &avail);
	gt_assert_eq_u64(avail, avail0);
	gt_close(fd, b);
}

/* A pinned object keeps its offset while everything around it is evicted. */
static void test_pinned_stays(int fd)
{
	uint32_t p = gt_create(fd, MiB), other[6], batch = gt_create(fd, 4096), v;
	uint64_t po = 0, off[3];
	struct gen3_batch b;
	int i;

	for (i = 0; i < 6; i++)
		other[i] = gt_create(fd, 3 * MiB);
	gt_assert_eq(pin(fd, p, &po), 0);
	for (i = 0; i < 12; i++) {
		uint32_t set[2] = { p, other[i % 6] };

		gen3_batch_reset(&b);
		gen3_emit_store_dword(&b, p, (uint32_t)i * 4, 0x9000u + (uint32_t)i);
		gen3_emit_store_dword(&b, other[i % 6], 0, (uint32_t)i);
		gen3_batch_end(&b);
		gt_assert_eq(gt_execbuf(fd, &b, batch, set, NULL, 2, 0, off), 0);
		gt_assert_eq_u64(off[0], po);
	}
	for (i = 0; i < 12; i++) {
		gt_read(fd, p, (uint64_t)i * 4, &v, 4);
		gt_assert_eq(v, 0x9000u + (uint32_t)i);
	}
	for (i = 0; i < 6; i++) {
		gt_read(fd, other[i], 0, &v, 4);
		gt_assert_eq(v, (uint32_t)i + 6);
		gt_close(fd, other[i]);
	}
	gt_assert_eq(unpin(fd, p), 0);
	gt_close(fd, p);
	gt_close(fd, batch);
}

/* Pinned space is not available to execbuffer; unpinning gives it back. */
static void test_pinned_no_room(int fd)
{
	uint32_t p = gt_create(fd, 12 * MiB), x = gt_create(fd, 4 * MiB);
	uint32_t batch = gt_create(fd, 4096);
	uint64_t po;
	struct gen3_batch b;

	gt_assert_eq(pin(fd, p, &po), 0);
	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, x, 0, 1);
	gen3_batch_end(&b);
	gt_assert_errno(gt_execbuf(fd, &b, batch, &x, NULL, 1, 0, NULL), ENOSPC);
	gt_assert_eq(unpin(fd, p), 0);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &x, NULL, 1, 0, NULL), 0);
	gt_close(fd, p);
	gt_close(fd, x);
	gt_close(fd, batch);
}

/*
 * Client A pins 1 MiB objects until the aperture is full: exactly the
 * pins that fit succeed, the next is ENOSPC.  Client B meanwhile creates,
 * reads and writes, runs a small batch in what is left, and gets ENOSPC
 * for a batch that needs more; none of its bytes change.  Once A goes
 * away, its pins go with it and B's big batch runs.
 */
static void test_aperture_full_of_pinned(int fd)
{
	enum { MAX_PINS = 16 };
	int a = gt_open();
	uint32_t pinned[MAX_PINS + 1], keep = gt_create(fd, 64 << 10);
	uint32_t small = gt_create(fd, 4096), big = gt_create(fd, MiB);
	uint32_t batch = gt_create(fd, 4096), fresh, v = 0;
	uint8_t *ref = gt_upload_pattern(fd, keep, 64 << 10, 0xfull), *now;
	uint64_t size, avail0, avail, off;
	unsigned int n = 0, fit;
	struct gen3_batch b;
	int ret;

	get_aperture(fd, &size, &avail0);
	fit = (unsigned int)(avail0 / MiB);
	gt_assert(fit < MAX_PINS);
	for (;;) {
		pinned[n] = gt_create(a, MiB);
		ret = pin(a, pinned[n], &off);
		if (ret)
			break;
		gt_assert(++n <= MAX_PINS);
	}
	gt_assert_eq(errno, ENOSPC);
	gt_assert_eq(n, fit);
	get_aperture(fd, &size, &avail);
	gt_assert_eq_u64(avail, avail0 - (uint64_t)fit * MiB);

	/* B: everything that needs no more aperture than is left works. */
	fresh = gt_create(fd, 8192);
	gt_write(fd, fresh, 4096, "hello", 5);
	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, small, 0, 0x5a11);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &small, NULL, 1, 0, NULL), 0);
	gt_read(fd, small, 0, &v, 4);
	gt_assert_eq(v, 0x5a11);
	/* ... and what needs more is ENOSPC, for B alone. */
	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, big, 0, 0xb16);
	gen3_batch_end(&b);
	gt_assert_errno(gt_execbuf(fd, &b, batch, &big, NULL, 1, 0, NULL), ENOSPC);
	now = malloc(64 << 10);
	gt_assert(now);
	gt_read(fd, keep, 0, now, 64 << 10);
	gt_assert_f(!memcmp(now, ref, 64 << 10), "B's object changed");

	/* A's pins die with its file (gemd sees the close at EOF, so poll
	 * for it); B's big batch runs. */
	gem_close(a);
	for (n = 0; n < 1000; n++) {
		get_aperture(fd, &size, &avail);
		if (avail == avail0)
			break;
		usleep(10000);
	}
	gt_assert_eq_u64(avail, avail0);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &big, NULL, 1, 0, NULL), 0);
	gt_read(fd, big, 0, &v, 4);
	gt_assert_eq(v, 0xb16);
	gt_read(fd, keep, 0, now, 64 << 10);
	gt_assert_f(!memcmp(now, ref, 64 << 10), "B's object changed");
	free(now);
	free(ref);
	gt_close(fd, fresh);
	gt_close(fd, keep);
	gt_close(fd, small);
	gt_close(fd, big);
	gt_close(fd, batch);
}

static void test_pin_errors(int fd)
{
	uint32_t h = gt_create(fd, 4096);
	uint64_t off;

	gt_assert_errno(pin(fd, h + 100, &off), ENOENT);
	gt_assert_errno(unpin(fd, h + 100), ENOENT);
	/* Not pinned (by this file): "Not pinned by caller". */
	gt_assert_errno(unpin(fd, h), EINVAL);
	gt_close(fd, h);
}

/*
 * Linux 3.x's rule for a pin: an alignment is a multiple of what the
 * object's fence needs (a page untiled, the fence's size tiled), else
 * EINVAL, and nothing is bound.  Any such multiple goes, a power of two
 * or not.  (A fuzzed 0x1002 was once bound off a page boundary.)
 */
static void test_pin_alignment(int fd)
{
	struct drm_i915_gem_set_tiling st;
	uint32_t h = gt_create(fd, 4096), t = gt_create(fd, 256 << 10);
	uint64_t size, avail, avail0, off;

	get_aperture(fd, &size, &avail0);
	gt_assert_errno(pin_aligned(fd, h, 0x1002, &off), EINVAL);
	gt_assert_errno(pin_aligned(fd, h, 0x800, &off), EINVAL);
	gt_assert_errno(pin_aligned(fd, h, 1, &off), EINVAL);
	get_aperture(fd, &size, &avail);
	gt_assert_eq_u64(avail, avail0);

	gt_assert_eq(pin_aligned(fd, h, 0x3000, &off), 0);
	gt_assert_eq_u64(off % 0x3000, 0);
	gt_assert_eq(unpin(fd, h), 0);

	/* X-tiled, 256 KiB: gen3's smallest fence is 1 MiB. */
	memset(&st, 0, sizeof(st));
	st.handle = t;
	st.tiling_mode = I915_TILING_X;
	st.stride = 512;
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st), 0);
	gt_assert_errno(pin_aligned(fd, t, 0x40000, &off), EINVAL);
	gt_assert_eq(pin_aligned(fd, t, 2 * MiB, &off), 0);
	gt_assert_eq_u64(off % (2 * MiB), 0);
	gt_assert_eq(unpin(fd, t), 0);
	gt_close(fd, t);
	gt_close(fd, h);
}

int main(int argc, char **argv)
{
	static const char *const args[] = { "--aperture", "16M", NULL };
	int fd;

	fd = gt_start(argc, argv, args, 120);

	gemtest_subtest("aperture-16m")
		test_aperture(fd);
	gemtest_subtest("evict-rotate-32-objects")
		test_rotate(fd);
	gemtest_subtest("enospc-set-larger-than-aperture")
		test_enospc(fd);
	gemtest_subtest("e2big-object-larger-than-aperture")
		test_e2big(fd);
	gemtest_subtest("pin-reduces-available")
		test_pin_available(fd);
	gemtest_subtest("pinned-stays-under-pressure")
		test_pinned_stays(fd);
	gemtest_subtest("pinned-space-unavailable")
		test_pinned_no_room(fd);
	gemtest_subtest("pin-errors")
		test_pin_errors(fd);
	gemtest_subtest("pin-alignment")
		test_pin_alignment(fd);
	gemtest_subtest("aperture-full-of-pinned")
		test_aperture_full_of_pinned(fd);

	gem_close(fd);
	return gemtest_exit();
}
