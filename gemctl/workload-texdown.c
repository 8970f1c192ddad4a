/*
 * texdown: Mesa's texture-download benchmark as a driver sees it.  Each
 * op uploads a 1024x1024 32 bpp texture (4 MiB pwrite) into one of two
 * textures and blits it into a render target, so the upload of one
 * overlaps the GPU's copy of the other.  bytes counts uploaded bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "batchbuffer.h"
#include "workload.h"

#define TEX_W		1024
#define TEX_H		1024
#define TEX_BYTES	((uint64_t)TEX_W * TEX_H * 4)

void workload_texdown(struct workload_client *c)
{
	uint32_t tex[2] = { 0 }, rt = 0, batch[2] = { 0 }, handles[2];
	struct gen3_surf src = { .pitch = TEX_W * 4, .cpp = 4, .size = TEX_BYTES };
	struct gen3_surf dst = { .pitch = TEX_W * 4, .cpp = 4, .size = TEX_BYTES };
	struct gen3_batch b;
	uint8_t *pixels;
	uint64_t n = 0;
	unsigned int i;

	pixels = malloc(TEX_BYTES);
	if (!pixels) {
		workload_fail(c, "malloc", -12);
		return;
	}
	memset(pixels, 0x5a, TEX_BYTES);
	if (wl_create(c, TEX_BYTES, &tex[0]) || wl_create(c, TEX_BYTES, &tex[1]) ||
	    wl_create(c, TEX_BYTES, &rt) || wl_create(c, 4096, &batch[0]) ||
	    wl_create(c, 4096, &batch[1]))
		goto out;
	dst.handle = rt;
	while (!workload_done(c)) {
		i = n & 1;
		pixels[n % TEX_BYTES] = (uint8_t)n;
		/* The pwrite waits for the blit still reading this texture. */
		if (wl_pwrite(c, tex[i], 0, pixels, TEX_BYTES))
			break;
		src.handle = tex[i];
		gen3_batch_reset(&b);
		gen3_emit_copy_blt(&b, &dst, 0, 0, &src, 0, 0, TEX_W, TEX_H);
		gen3_batch_end(&b);
		handles[0] = tex[i];
		handles[1] = rt;
		if (wl_submit(c, &b, batch[i], handles, 2))
			break;
		n++;
	}
	if (!c->res.error)
		wl_wait(c, rt);
out:
	for (i = 0; i < 2; i++) {
		if (tex[i])
			wl_close(c, tex[i]);
		if (batch[i])
			wl_close(c, batch[i]);
	}
	if (rt)
		wl_close(c, rt);
	free(pixels);
}
