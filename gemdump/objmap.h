/*
 * Which object holds a GTT address: built from a capture or from the live
 * driver's gemkit_gtt, for decode --summary, find and hang.
 */
#ifndef GEMKIT_GEMDUMP_OBJMAP_H
#define GEMKIT_GEMDUMP_OBJMAP_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "gemdump.h"

struct gd_objmap_ent {
	uint64_t start, size;
	uint32_t id;
};

struct gd_objmap {
	struct gd_objmap_ent *v;	/* sorted by start */
	size_t n;
};

int gd_objmap_from_capture(struct gd_objmap *m, const struct gd_capture *c);
/* From the driver gemdump's global options name; prints its own errors. */
int gd_objmap_from_live(struct gd_objmap *m, const struct gd_ctx *ctx);
void gd_objmap_release(struct gd_objmap *m);
/* The object holding addr, or NULL; *border (if set) gets the object
 * addr lies just past (the nearest one below), or NULL. */
const struct gd_objmap_ent *gd_objmap_find(const struct gd_objmap *m, uint64_t addr,
					   const struct gd_objmap_ent **border);

/* Open the live driver's debugfs per -D/--debugfs; prints the error. */
struct gdfs;
int gd_open_live(const struct gd_ctx *ctx, struct gdfs **src);
/* The exit code of the live source gd_open_live() could not open
 * (GEM_EXIT_NODEV, GEM_EXIT_TIMEOUT), else 0: main() returns it in place
 * of a plain failure, however deep the command met it. */
int gd_live_exit(void);

#endif
