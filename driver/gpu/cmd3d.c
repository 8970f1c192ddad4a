/*
 * Gen3 3D commands (client 3).  Their opcodes, names and length rules are
 * the command table's (lib/gen3/cmds.def), which the command streamer
 * has already applied; the dwords go to the 3D pipeline (3d-*.c).
 */
#include <stdlib.h>

#include "3d-priv.h"

/* The command's dwords, copied out of the ring or batch, go to the 3D
 * pipeline (3d-state.c); the command streamer has applied the command
 * table's length rule (lib/gen3/cmds.def). */
enum cs_status cmd3d_exec(struct gpu *gpu, const struct gen3_cmd *cmd,
			  uint32_t len)
{
	struct r3d *r = gpu->r3d;
	enum cs_status st;
	uint32_t i, *dw;

	(void)cmd;
	st = cs_check_span(gpu, len);
	if (st != CS_OK)
		return st;
	if (len > r->cmd_cap) {
		dw = realloc(r->cmd, (size_t)len * sizeof(*dw));
		if (!dw)
			return CS_OK;	/* no memory to draw with: skipped */
		r->cmd = dw;
		r->cmd_cap = len;
	}
	for (i = 0; i < len; i++)
		if (!cs_fetch(gpu, i, &r->cmd[i]))
			return CS_FAULT;
	return r3d_exec(r, r->cmd, len);
}
