/* Making captures: from the live driver, or from an error-state text. */
#ifndef GEMKIT_GEMDUMP_CAPTURE_H
#define GEMKIT_GEMDUMP_CAPTURE_H

#include "core.h"
#include "gemdump.h"
#include "objmap.h"

struct gdfs;
struct gdfs_error_state;

struct gd_live_opts {
	bool contents;		/* read each object's bytes */
	const uint32_t *ids;	/* only these objects (NULL: all) */
	size_t nids;
};

/* Snapshot the driver -D/--debugfs names; prints its own errors. */
int gd_capture_live(const struct gd_ctx *ctx, struct gd_capture *c,
		    const struct gd_live_opts *o);

/* The device record (PCI id, gen, fences, the aperture from
 * gemkit_counters) of the gemd src reaches; sb is scratch. */
void gd_capture_add_live_device(struct gdfs *src, struct gd_capture *c, struct strbuf *sb);

/* A capture from error-state text (any layout gdfs_parse_error_state
 * reads, plus the ascii85 forms); err names the line. */
int gd_capture_from_error_state(const char *buf, size_t len, const char *source,
				struct gd_capture *c, struct strbuf *err);

/* Add an error state's registers, fences and hang verdict to c. */
int gd_capture_add_error_regs(struct gd_capture *c, const struct gdfs_error_state *es);
/* And its dumped buffers as objects, numbered from next_id when new
 * ones are needed: every buffer merged into the object at its address
 * (a capture made of the error state alone), or only the batches, as
 * objects of their own beside the live ones (a live capture). */
int gd_capture_add_error_buffers(struct gd_capture *c, const struct gdfs_error_state *es,
				 bool batches_only, uint32_t next_id);

uint64_t gd_fence_value(uint64_t start, uint64_t size, uint32_t stride, bool y_tiled);

#endif
