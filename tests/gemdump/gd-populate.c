/*
 * A client that leaves known state in a gemd for gemdump's tests: a
 * 64 KiB pattern object with a flink name, a blit target filled by a
 * batch, an X-tiled object, then it waits (keeping its handles, so the
 * objects live) until killed.  With "hang", the last batch it submits
 * runs into an invalid command; with "hang-shader", into a pixel shader
 * program whose third instruction is invalid.  Prints "ready" when done.
 *
 *   gd-populate SOCKET [hang|hang-shader]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <i915_drm.h>

#include "cmd.h"
#include "libgem.h"

static int fd;

static void die(const char *what)
{
	fprintf(stderr, "gd-populate: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint32_t create(uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };

	if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c))
		die("GEM_CREATE");
	return c.handle;
}

static void pwrite_(uint32_t h, const void *data, uint64_t len)
{
	struct drm_i915_gem_pwrite p = {
		.handle = h, .size = len, .data_ptr = (uintptr_t)data,
	};

	if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &p))
		die("GEM_PWRITE");
}

static void exec(uint32_t batch, uint32_t target, uint32_t len, uint32_t reloc_at)
{
	struct drm_i915_gem_relocation_entry r = {
		.target_handle = target, .offset = reloc_at,
		.read_domains = I915_GEM_DOMAIN_RENDER, .write_domain = I915_GEM_DOMAIN_RENDER,
		.presumed_offset = ~0ull,
	};
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = target },
		{ .handle = batch, .relocation_count = 1, .relocs_ptr = (uintptr_t)&r },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)obj, .buffer_count = 2, .batch_len = len,
	};

	if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb))
		die("EXECBUFFER2");
}

static void wait_idle(uint32_t h)
{
	struct drm_i915_gem_set_domain sd = {
		.handle = h, .read_domains = I915_GEM_DOMAIN_CPU,
	};

	if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd))
		die("SET_DOMAIN");
}

int main(int argc, char **argv)
{
	static uint32_t pattern[16384];
	struct drm_gem_flink fl = { 0 };
	struct drm_i915_gem_set_tiling st = { 0 };
	uint32_t a, dst, tiled, batch, i;
	uint32_t bb[16] = {
		XY_COLOR_BLT_CMD | XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, 0x03f01000,
		0x00000000, 0x00100100, 0x00000000, 0xcafef00d,
		MI_FLUSH, MI_BATCH_BUFFER_END,
	};

	if (argc < 2)
		return 2;
	fd = gem_open(argv[1], O_RDWR);
	if (fd < 0)
		die("gem_open");
	for (i = 0; i < 16384; i++)
		pattern[i] = 0xa0000000u + i;
	a = create(sizeof(pattern));
	pwrite_(a, pattern, sizeof(pattern));
	fl.handle = a;
	if (gem_ioctl(fd, DRM_IOCTL_GEM_FLINK, &fl))
		die("GEM_FLINK");

	dst = create(1 << 20);
	batch = create(4096);
	pwrite_(batch, bb, sizeof(bb));
	exec(batch, dst, 32, 16);	/* dword 4: the destination */
	wait_idle(dst);

	tiled = create(1 << 20);
	st.handle = tiled;
	st.tiling_mode = I915_TILING_X;
	st.stride = 4096;
	if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st))
		die("SET_TILING");

	if (argc > 2 && !strcmp(argv[2], "hang")) {
		/* An XY_COLOR_BLT, then a command gen3 does not have. */
		uint32_t bad[16] = {
			XY_COLOR_BLT_CMD | XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, 0x03f01000,
			0x00000000, 0x00100100, 0x00000000, 0x0badf00d,
			MI_NOOP, MI_INSTR(0x3f, 0), MI_BATCH_BUFFER_END,
		};
		uint32_t hb = create(4096);

		pwrite_(hb, bad, sizeof(bad));
		exec(hb, dst, 40, 16);
	}
	if (argc > 2 && !strcmp(argv[2], "hang-shader")) {
		/* 3DSTATE_PIXEL_SHADER_PROGRAM: DCL t0.xyzw, DCL s0 2D, then
		 * opcode 0x1a, which the 915 does not have. */
		uint32_t bad[16] = {
			0x7d050008, 0x19083c00, 0, 0, 0x19180000, 0, 0,
			0x1a000000, 0, 0, 0x05000000, 0,
		};
		uint32_t hb = create(4096);

		pwrite_(hb, bad, sizeof(bad));
		exec(hb, dst, 48, 44);	/* the reloc lands in the padding */
	}
	printf("ready %u\n", fl.name);
	fflush(stdout);
	for (;;)
		pause();
}
