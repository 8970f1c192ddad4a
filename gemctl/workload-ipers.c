/*
 * ipers: many small allocations and draws, as Mesa's ipers (and a
 * buffer cache under it) cause.  Each op creates an object of 4-64 KiB,
 * fills it with the blitter, and closes the oldest of the 64 it keeps
 * alive, so creation, binding and freeing run all the time.
 */
#include "batchbuffer.h"
#include "workload.h"

#define IPERS_LIVE	64

void workload_ipers(struct workload_client *c)
{
	uint32_t live[IPERS_LIVE] = { 0 }, batch = 0, h;
	struct gen3_surf s = { .cpp = 4 };
	struct gen3_batch b;
	uint64_t n = 0, size;
	unsigned int i;

	if (wl_create(c, 4096, &batch))
		return;
	while (!workload_done(c)) {
		size = 4096ull << (n % 5);		/* 4 KiB .. 64 KiB */
		if (wl_create(c, size, &h))
			break;
		s.handle = h;
		s.pitch = 256;
		s.size = size;
		gen3_batch_reset(&b);
		gen3_emit_color_blt(&b, &s, &(struct gen3_rect){ 0, 0, 64,
				  (int)(size / 256) }, (uint32_t)n);
		gen3_batch_end(&b);
		/* One batch object: the pwrite into it waits for the last
		 * draw, which keeps a single client from running away. */
		if (wl_submit(c, &b, batch, &h, 1)) {
			wl_close(c, h);
			break;
		}
		c->res.bytes += size;
		i = n % IPERS_LIVE;
		if (live[i])
			wl_close(c, live[i]);
		live[i] = h;
		n++;
	}
	for (i = 0; i < IPERS_LIVE; i++)
		if (live[i])
			wl_close(c, live[i]);
	wl_close(c, batch);
}
