/*
 * gen3 command names and lengths, for --summary, --json and the hang
 * report's instruction boundaries, from the command table gemd's GPU
 * model uses (lib/gen3/cmds.def).  Unlike gemd, a bad length is reported
 * rather than refused, so a corrupt batch still walks.
 */
#include "batch.h"
#include "cmdtab.h"

void gd_command_info(const uint32_t *dw, size_t avail, struct gd_cmdinfo *ci)
{
	struct gen3_dwords d = { dw, avail };
	uint32_t len;

	ci->cmd = gen3_cmd_lookup(dw[0]);
	ci->name = "UNKNOWN";
	ci->len = 1;
	ci->known = ci->bad_len = ci->end = false;
	if (!ci->cmd)
		return;
	ci->name = ci->cmd->name;
	ci->known = true;
	ci->end = ci->cmd->id == GEN3_MI_BATCH_BUFFER_END;
	ci->bad_len = gen3_cmd_length(ci->cmd, dw[0], gen3_fetch_dwords, &d, &len) !=
		      GEN3_LEN_OK;
	ci->len = len ? len : 1;
}

size_t gd_cmd_addresses(const uint32_t *dw, const struct gd_cmdinfo *ci,
			uint32_t *addr, uint32_t *index, size_t max)
{
	if (!ci->cmd)
		return 0;
	return gen3_cmd_addresses(ci->cmd, dw, ci->len, addr, index, max);
}
