/* Gen3 (945G) tiling geometry: X and Y tiles, no bit-6 swizzling. */
#include "gpu.h"

/*
 * Both layouts use 4 KiB tiles placed row-major across the surface.
 * X: 512 bytes x 8 rows, each row contiguous.  Y: 128 bytes x 32 rows,
 * stored as eight 16-byte (OWord) columns of 32 rows each, so walking
 * down a column is contiguous.  The driver reports
 * I915_BIT_6_SWIZZLE_NONE, so no address bit is swizzled.
 */
uint32_t gpu_tile_width(enum gpu_tiling tiling)
{
	switch (tiling) {
	case GPU_TILING_X:
		return 512;
	case GPU_TILING_Y:
		return 128;
	default:
		return 0;
	}
}

uint32_t gpu_tile_height(enum gpu_tiling tiling)
{
	switch (tiling) {
	case GPU_TILING_X:
		return 8;
	case GPU_TILING_Y:
		return 32;
	default:
		return 0;
	}
}

uint32_t gpu_tiled_offset(enum gpu_tiling tiling, uint32_t stride,
			  uint32_t x, uint32_t y)
{
	uint32_t tw = gpu_tile_width(tiling);
	uint32_t th = gpu_tile_height(tiling);
	uint32_t tile, within;

	if (!tw)
		return y * stride + x;
	tile = (y / th) * (stride / tw) + x / tw;
	if (tiling == GPU_TILING_X)
		within = (y % th) * tw + x % tw;
	else
		within = (x % tw) / 16 * (th * 16) + (y % th) * 16 + x % 16;
	return tile * GTT_PAGE_SIZE + within;
}
