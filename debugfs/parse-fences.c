/* gemkit_fences: one record per fence register (fences.def). */
#include <stdlib.h>
#include <string.h>

#include "gemdebugfs.h"
#include "record.h"
#include "util.h"

static const struct gdfs_field fence_fields[] = {
#define FIELD(k, K, t, a)	GDFS_TAB_##K(struct gdfs_fence, k, a)
#include "fences.def"
#undef FIELD
};

static const struct gdfs_array_desc fences_desc = {
	.schema = "gemkit_fences",
	.tab = fence_fields,
	.ntab = ARRAY_SIZE(fence_fields),
	.size = sizeof(struct gdfs_fence),
};

int gdfs_parse_fences(const char *buf, size_t len, struct gdfs_fences *out,
		      struct strbuf *err)
{
	memset(out, 0, sizeof(*out));
	return gdfs_parse_records(buf, len, &fences_desc, &out->schema, (void **)&out->v,
				  &out->n, err);
}

void gdfs_fences_release(struct gdfs_fences *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}
