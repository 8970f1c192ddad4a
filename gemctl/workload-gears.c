/*
 * gears: what glxgears does to a driver on gen3.  Every frame uploads a
 * small "vertex" buffer (pwrite of 4 KiB), clears a 256x256 render target
 * and draws a few rectangles into it with the blitter, in one small
 * batch.  Batches rotate through a few objects, so reusing the oldest
 * waits for it as a driver's batch pool would.  An op is a frame.
 */
#include <string.h>

#include "batchbuffer.h"
#include "workload.h"

#define GEARS_W		256
#define GEARS_H		256
#define GEARS_BATCHES	4

void workload_gears(struct workload_client *c)
{
	uint32_t rt = 0, vb = 0, batch[GEARS_BATCHES] = { 0 }, handles[2];
	struct gen3_surf s = { .pitch = GEARS_W * 4, .cpp = 4 };
	static const uint32_t colors[3] = { 0xffcc2222, 0xff22cc22, 0xff2222cc };
	uint32_t verts[1024];
	struct gen3_batch b;
	uint64_t frame = 0;
	unsigned int i;

	if (wl_create(c, GEARS_W * GEARS_H * 4, &rt) || wl_create(c, 4096, &vb))
		goto out;
	for (i = 0; i < GEARS_BATCHES; i++)
		if (wl_create(c, 4096, &batch[i]))
			goto out;
	s.handle = rt;
	s.size = GEARS_W * GEARS_H * 4;
	handles[0] = rt;
	handles[1] = vb;
	while (!workload_done(c)) {
		for (i = 0; i < sizeof(verts) / sizeof(verts[0]); i++)
			verts[i] = (uint32_t)(frame * 2654435761u + i);
		if (wl_pwrite(c, vb, 0, verts, sizeof(verts)))
			break;
		gen3_batch_reset(&b);
		gen3_emit_color_blt(&b, &s, &(struct gen3_rect){ 0, 0, GEARS_W, GEARS_H },
				  0xff000000);
		for (i = 0; i < 3; i++) {
			int x = (int)((frame * 7 + i * 80) % (GEARS_W - 64));

			gen3_emit_color_blt(&b, &s, &(struct gen3_rect){ x, 40 * (int)i + 20,
					  x + 64, 40 * (int)i + 84 }, colors[i]);
		}
		gen3_batch_end(&b);
		if (wl_submit(c, &b, batch[frame % GEARS_BATCHES], handles, 2))
			break;
		c->res.bytes += (uint64_t)GEARS_W * GEARS_H * 4 + 3 * 64 * 64 * 4;
		frame++;
	}
	if (!c->res.error)
		wl_wait(c, rt);
out:
	for (i = 0; i < GEARS_BATCHES; i++)
		if (batch[i])
			wl_close(c, batch[i]);
	if (vb)
		wl_close(c, vb);
	if (rt)
		wl_close(c, rt);
}
