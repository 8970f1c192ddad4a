/*
 * Gen3 3D commands (client 3).  Their opcodes, names and length rules are
 * the command table's (lib/gen3/cmds.def), which the command streamer
 * has already applied; the model has no rasteriser yet, so a 3D command
 * is parsed, its dwords checked to be fetchable, and skipped.
 */
#include "gpu_priv.h"

enum cs_status cmd3d_exec(struct gpu *gpu, const struct gen3_cmd *cmd,
			  uint32_t len)
{
	return cs_check_span(gpu, len);
}
