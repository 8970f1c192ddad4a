/*
 * gem-demo: a short tour of gemd through the i915 uAPI, printed step by
 * step with the figures a client can observe: objects and bytes, GTT
 * offsets written back by EXECBUFFER2, breadcrumbs (our own sequence
 * numbers, stored by each batch with MI_STORE_DWORD_IMM), and evictions
 * seen as objects coming back at a different offset.  run-demo drives it
 * against a private gemd with a small aperture.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm.h>
#include <i915_drm.h>

#include "batchbuffer.h"
#include "libgem.h"
#include "util.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

#define MiB		(1ull << 20)
#define SURF_W		512
#define SURF_H		256
#define MAX_EVICT_OBJS	48

static struct {
	unsigned int objects, batches, breadcrumbs, moves, failures;
	uint64_t bytes_up, bytes_down;
} stats;

static int fd = -1;
static uint32_t status_obj;
static uint32_t seqno;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("gem-demo: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void step(const char *title)
{
	static int n;

	printf("\n== step %d: %s\n", ++n, title);
}

static void check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("   %s ", ok ? "ok  " : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!ok)
		stats.failures++;
}

static void xioctl(unsigned long req, void *arg, const char *what)
{
	if (gem_ioctl(fd, req, arg))
		die("%s: %s", what, strerror(errno));
}

static uint32_t create(uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };

	xioctl(DRM_IOCTL_I915_GEM_CREATE, &c, "GEM_CREATE");
	stats.objects++;
	return c.handle;
}

static void destroy(uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	xioctl(DRM_IOCTL_GEM_CLOSE, &c, "GEM_CLOSE");
}

static void upload(uint32_t handle, uint64_t offset, const void *buf, uint64_t len)
{
	struct drm_i915_gem_pwrite pw = {
		.handle = handle, .offset = offset, .size = len,
		.data_ptr = (uint64_t)(uintptr_t)buf,
	};

	xioctl(DRM_IOCTL_I915_GEM_PWRITE, &pw, "GEM_PWRITE");
	stats.bytes_up += len;
}

static void download(uint32_t handle, uint64_t offset, void *buf, uint64_t len)
{
	struct drm_i915_gem_pread pr = {
		.handle = handle, .offset = offset, .size = len,
		.data_ptr = (uint64_t)(uintptr_t)buf,
	};

	xioctl(DRM_IOCTL_I915_GEM_PREAD, &pr, "GEM_PREAD");
	stats.bytes_down += len;
}

static void fill(uint8_t *buf, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (uint8_t)(seed >> 16);
	}
}

/*
 * Submit b over handles[] plus the status object, after appending a
 * breadcrumb store of the next sequence number.  offsets gets what the
 * kernel wrote back (n + 2 entries: handles, status, batch).
 */
/* EXECBUFFER2 of b in batch with handles[0..n); 0 or -errno. */
static int exec_batch(struct gen3_batch *b, uint32_t batch,
		      const uint32_t *handles, unsigned int n, uint64_t *offsets)
{
	const struct gen3_exec x = { .batch = batch, .handles = handles, .n = n };

	return gen3_batch_submit(gem_ioctl, fd, b, &x, offsets);
}

static int submit(struct gen3_batch *b, uint32_t batch, const uint32_t *handles,
		  unsigned int n, uint64_t *offsets, uint32_t *crumb)
{
	uint32_t list[MAX_EVICT_OBJS + 2];
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++)
		list[i] = handles[i];
	list[n] = status_obj;
	*crumb = ++seqno;
	/* Replace the trailing MI_BATCH_BUFFER_END (and padding). */
	while (b->len && b->dw[b->len - 1] != MI_BATCH_BUFFER_END)
		b->len--;
	if (b->len)
		b->len--;
	gen3_emit_store_dword(b, status_obj, 0, *crumb);
	gen3_batch_end(b);
	ret = exec_batch(b, batch, list, n + 1, offsets);
	if (ret == 0)
		stats.batches++;
	return ret;
}

static uint32_t read_breadcrumb(void)
{
	uint32_t v = 0;

	download(status_obj, 0, &v, 4);
	return v;
}

static void step_device(uint64_t *aperture)
{
	char name[16] = "";
	struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };
	struct drm_i915_gem_get_aperture ap = { 0 };
	int chip = 0;
	struct drm_i915_getparam gp = { .param = I915_PARAM_CHIPSET_ID, .value = &chip };

	step("the device");
	xioctl(DRM_IOCTL_VERSION, &v, "VERSION");
	xioctl(DRM_IOCTL_I915_GETPARAM, &gp, "GETPARAM");
	xioctl(DRM_IOCTL_I915_GEM_GET_APERTURE, &ap, "GET_APERTURE");
	printf("   driver \"%s\" %d.%d, PCI device 0x%04x (945G), aperture %llu MiB, "
	       "%llu KiB available\n", name, v.version_major, v.version_minor, chip,
	       (unsigned long long)(ap.aper_size >> 20),
	       (unsigned long long)(ap.aper_available_size >> 10));
	*aperture = ap.aper_size;
	status_obj = create(4096);
}

/* What XY_COLOR_BLT leaves in a linear 32 bpp surface. */
static void expect_fill(uint8_t *mem, uint32_t pitch, const struct gen3_rect *r,
			uint32_t color)
{
	int x, y;

	for (y = r->y1; y < r->y2; y++)
		for (x = r->x1; x < r->x2; x++)
			memcpy(mem + (size_t)y * pitch + (size_t)x * 4, &color, 4);
}

static void step_blit(void)
{
	const uint32_t pitch = SURF_W * 4, size = pitch * SURF_H;
	struct gen3_surf a = { create(size), pitch, 4, I915_TILING_NONE, size };
	struct gen3_surf b = { create(size), pitch, 4, I915_TILING_NONE, size };
	struct gen3_rect r = { 64, 32, 448, 224 };
	uint8_t *ra = malloc(size), *rb = malloc(size), *got = malloc(size);
	uint32_t batch = create(4096), handles[2], crumb;
	uint64_t off[4], t0;
	struct gen3_batch bb;

	if (!ra || !rb || !got)
		die("out of memory");
	step("upload two 512x256 32 bpp surfaces, fill one, copy it");
	t0 = now_ns();
	fill(ra, size, 1);
	fill(rb, size, 2);
	upload(a.handle, 0, ra, size);
	upload(b.handle, 0, rb, size);
	printf("   2 objects of %u KiB uploaded with GEM_PWRITE in %.2f ms\n",
	       size >> 10, (double)(now_ns() - t0) / 1e6);

	gen3_batch_reset(&bb);
	gen3_emit_color_blt(&bb, &a, &r, 0xff3366cc);
	gen3_batch_end(&bb);
	handles[0] = a.handle;
	if (submit(&bb, batch, handles, 1, off, &crumb))
		die("EXECBUFFER2 (fill): %s", strerror(errno));
	expect_fill(ra, pitch, &r, 0xff3366cc);
	printf("   XY_COLOR_BLT %dx%d at (%d,%d): surface at GTT 0x%08llx, batch at "
	       "0x%08llx\n", r.x2 - r.x1, r.y2 - r.y1, r.x1, r.y1,
	       (unsigned long long)off[0], (unsigned long long)off[2]);

	gen3_batch_reset(&bb);
	gen3_emit_copy_blt(&bb, &b, 0, 0, &a, 0, 0, SURF_W, SURF_H);
	gen3_batch_end(&bb);
	handles[0] = b.handle;
	handles[1] = a.handle;
	if (submit(&bb, batch, handles, 2, off, &crumb))
		die("EXECBUFFER2 (copy): %s", strerror(errno));
	memcpy(rb, ra, size);		/* the whole surface, same layout */
	printf("   XY_SRC_COPY_BLT a -> b: b at 0x%08llx, a at 0x%08llx\n",
	       (unsigned long long)off[0], (unsigned long long)off[1]);

	download(b.handle, 0, got, size);
	check(!memcmp(got, rb, size), "every pixel of b matches the reference "
	      "(fill inside the rectangle, the upload outside)");
	check(read_breadcrumb() == crumb, "breadcrumb %u stored by the last batch",
	      crumb);
	stats.breadcrumbs++;
	free(ra);
	free(rb);
	free(got);
	destroy(a.handle);
	destroy(b.handle);
	destroy(batch);
}

static void step_evict(uint64_t aperture)
{
	unsigned int n = (unsigned int)(aperture * 3 / 2 / MiB), i, j, round;
	uint64_t *last, off[8];
	uint32_t *h, batch[2], crumb = 0;
	uint8_t *expect, *got;
	unsigned int mismatches = 0;

	step("more objects than the aperture holds");
	if (n > MAX_EVICT_OBJS) {
		n = MAX_EVICT_OBJS;
		printf("   (aperture of %llu MiB: using %u MiB, which will not fill it; "
		       "start gemd with --aperture 16M to see evictions)\n",
		       (unsigned long long)(aperture >> 20), n);
	}
	h = calloc(n, sizeof(*h));
	last = calloc(n, sizeof(*last));
	expect = malloc((size_t)n * MiB);
	got = malloc(MiB);
	if (!h || !last || !expect || !got)
		die("out of memory");
	for (i = 0; i < n; i++) {
		h[i] = create(MiB);
		fill(expect + (size_t)i * MiB, MiB, 100 + i);
		upload(h[i], 0, expect + (size_t)i * MiB, MiB);
	}
	batch[0] = create(4096);
	batch[1] = create(4096);
	printf("   %u objects of 1 MiB (%u MiB) against a %llu MiB aperture\n", n, n,
	       (unsigned long long)(aperture >> 20));

	for (round = 0; round < 2; round++) {
		unsigned int moved = 0;

		for (i = 0; i < n; i += 4) {
			uint32_t set[4];
			unsigned int k = 0;
			struct gen3_batch b;

			gen3_batch_reset(&b);
			for (j = i; j < i + 4 && j < n; j++, k++) {
				uint32_t v = 0xd0000000u | round << 16 | j;

				set[k] = h[j];
				gen3_emit_store_dword(&b, h[j], 4096 * (round + 1), v);
				memcpy(expect + (size_t)j * MiB + 4096 * (round + 1), &v, 4);
			}
			gen3_batch_end(&b);
			if (submit(&b, batch[(i / 4) & 1], set, k, off, &crumb))
				die("EXECBUFFER2: %s", strerror(errno));
			for (j = 0; j < k; j++) {
				if (last[i + j] && last[i + j] != off[j] + 1)
					moved++;
				last[i + j] = off[j] + 1;
			}
		}
		stats.moves += moved;
		printf("   round %u: %u execbuffers of 4 objects, breadcrumb now %u, "
		       "%u objects came back at a new offset (evicted and rebound)\n",
		       round + 1, (n + 3) / 4, crumb, moved);
	}
	check(read_breadcrumb() == crumb, "breadcrumb %u stored by the last batch",
	      crumb);
	stats.breadcrumbs++;
	for (i = 0; i < n; i++) {
		download(h[i], 0, got, MiB);
		if (memcmp(got, expect + (size_t)i * MiB, MiB))
			mismatches++;
	}
	check(mismatches == 0, "%u of %u objects read back byte for byte "
	      "(upload plus the GPU's stores)", n - mismatches, n);

	/* Three 8 MiB objects at once cannot fit a 16 MiB aperture. */
	if (aperture <= 16 * MiB) {
		uint32_t big[3];
		struct gen3_batch b;
		int ret;

		for (i = 0; i < 3; i++)
			big[i] = create(8 * MiB);
		gen3_batch_reset(&b);
		gen3_batch_end(&b);
		ret = exec_batch(&b, batch[0], big, 3, NULL);
		check(ret == -ENOSPC, "3 x 8 MiB in one execbuffer refused: %s",
		      ret ? strerror(-ret) : "accepted?");
		for (i = 0; i < 3; i++)
			destroy(big[i]);
	}
	for (i = 0; i < n; i++)
		destroy(h[i]);
	destroy(batch[0]);
	destroy(batch[1]);
	free(h);
	free(last);
	free(expect);
	free(got);
}

static const char *parse_device(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *device = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "D:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'D':
			device = optarg;
			break;
		case 'h':
			printf("Usage: gem-demo [-D PATH]\n"
			       "A step-by-step tour of a running gemd: objects, uploads,\n"
			       "blits, breadcrumbs and evictions as the i915 uAPI shows them.\n"
			       "The device path is -D, else $GEM_DEVICE, else the default\n"
			       "(see gemd --help).  Exit status 0 if every check passed.\n");
			exit(0);
		case 'V':
			printf("gem-demo (gemkit) %s\n", PACKAGE_VERSION);
			exit(0);
		default:
			fputs("Try 'gem-demo --help' for more information.\n", stderr);
			exit(2);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "gem-demo: unexpected argument '%s'\n", argv[optind]);
		exit(2);
	}
	return device;
}

int main(int argc, char **argv)
{
	const char *device = parse_device(argc, argv);
	uint64_t aperture = 0, t0 = now_ns();

	fd = gem_open(device, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die("cannot open '%s': %s (is gemd running?)",
		    device ? device : gem_default_device(), strerror(errno));
	setvbuf(stdout, NULL, _IOLBF, 0);
	step_device(&aperture);
	step_blit();
	step_evict(aperture);
	destroy(status_obj);
	gem_close(fd);

	printf("\n== summary\n"
	       "   %u objects created, %.1f MiB uploaded, %.1f MiB read back\n"
	       "   %u batches submitted, last breadcrumb %u\n"
	       "   %u evictions observed (objects rebound at a new GTT offset)\n"
	       "   %u failed checks, %.2f s\n",
	       stats.objects, (double)stats.bytes_up / MiB,
	       (double)stats.bytes_down / MiB, stats.batches, seqno, stats.moves,
	       stats.failures, (double)(now_ns() - t0) / 1e9);
	return stats.failures ? 1 : 0;
}
