/*
 * The instruction text comes from libdrm_intel's decoder, so gemdump and
 * intel_dump_decode print the same words for the same dwords.
 */
#include <errno.h>

#include "batch.h"

#ifdef HAVE_DRM_INTEL
#include <intel_bufmgr.h>

int gd_decode_text(FILE *out, const uint32_t *v, size_t n, uint32_t base,
		   uint32_t head, uint32_t devid, bool past_end)
{
	struct drm_intel_decode *ctx;

	if (n > UINT32_MAX / 4)
		return -EFBIG;
	ctx = drm_intel_decode_context_alloc(devid);
	if (!ctx)
		return -ENODEV;
	drm_intel_decode_set_output_file(ctx, out);
	drm_intel_decode_set_dump_past_end(ctx, past_end);
	/* The decoder does not write through the pointer. */
	drm_intel_decode_set_batch_pointer(ctx, (void *)v, base, (int)n);
	drm_intel_decode_set_head_tail(ctx, head, 0xffffffff);
	drm_intel_decode(ctx);
	drm_intel_decode_context_free(ctx);
	return 0;
}
#else
int gd_decode_text(FILE *out, const uint32_t *v, size_t n, uint32_t base,
		   uint32_t head, uint32_t devid, bool past_end)
{
	return -ENOTSUP;
}
#endif
