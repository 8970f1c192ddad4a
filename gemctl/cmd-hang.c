/*
 * hang [--kind loop|runaway|wait|badop|fault] [--at ADDR]: submit a batch that hangs
 * the GPU that way, for rigs that test hang handling (catch it with
 * wait-hang):
 *   loop   MI_BATCH_BUFFER_START jumping to itself (hangcheck finds it);
 *   runaway  MI_NOOPs jumping back to their start: ACTHD keeps moving,
 *          so only the batch budget (gemd --batch-budget) ends it;
 *   wait   MI_WAIT_FOR_EVENT for an event that never comes (no display),
 *          again after hangcheck's kick;
 *   badop  an MI opcode the 945G does not have (the CS stops at once);
 *   fault  MI_STORE_DWORD_IMM to a GTT address past the aperture, or to
 *          --at ADDR (a page-table error there if it is past the aperture:
 *          the error state's FADDR and gemdump hang's "fault" line name
 *          it; an unbound page inside the aperture is the scratch page,
 *          as on a 945G, and the store lands there without a hang).
 * The batch handle is the value.
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "gemdebugfs.h"
#include "json.h"
#include "session.h"
#include "submit.h"

#define MI_BAD_OPCODE		MI_INSTR(0x3f, 0)	/* MI client, opcode 0x3f: none */
#define HANG_FAULT_ADDR		0xfffff000u	/* beyond any 945G aperture */
#define RUNAWAY_NOOPS		1000		/* and the jump: one page */

/* Hangs counted so far (gemkit_counters), so wait-hang can wait for the
 * one this submission causes even if it is caught first. */
static void note_hang_base(struct gemctl *ctl)
{
	struct strbuf buf = STRBUF_INIT;
	struct gdfs_counters c;
	struct gdfs *src;
	uint64_t hangs;

	ctl->hang_base_set = false;
	if (gemctl_debugfs(ctl, &src))
		return;
	memset(&c, 0, sizeof(c));
	if (gdfs_read(src, "gemkit_counters", &buf) >= 0 &&
	    gdfs_parse_counters(buf.buf, buf.len, &c, NULL) >= 0 &&
	    gdfs_counter(&c, "hangs", &hangs)) {
		ctl->hang_base = hangs;
		ctl->hang_base_set = true;
	}
	gdfs_counters_release(&c);
	strbuf_release(&buf);
}

static const struct tool_opt hang_opts[] = {
	{ "kind", 0, 'k', TOOL_ARG_VALUE, "KIND",
	  "loop (default), runaway, wait, badop or fault" },
	{ "at", 0, 'a', TOOL_ARG_VALUE, "ADDR",
	  "the GTT address a fault stores to (default 0xfffff000)" },
	TOOL_OPT_END
};

static int cmd_hang(struct gemctl *ctl, int argc, char **argv)
{
	const char *kind = "loop";
	uint64_t at = HANG_FAULT_ADDR;
	struct gen3_batch *b;
	uint32_t batch;
	int opt, ret;
	gj *doc;

	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		if (opt == 'k')
			kind = optarg;
		else if (opt != 'a')
			return gemctl_usage(ctl);
		else if ((ret = gemctl_parse_size(ctl, "address", optarg, &at)))
			return ret;
	}
	if (optind != argc)
		return gemctl_usage(ctl);
	if (strcmp(kind, "loop") && strcmp(kind, "runaway") && strcmp(kind, "wait") &&
	    strcmp(kind, "badop") && strcmp(kind, "fault"))
		return gemctl_error(ctl, GEMCTL_USAGE, "kind '%s' is not loop, "
				    "runaway, wait, badop or fault", kind);
	if (at > UINT32_MAX - 3 || (at & 3))
		return gemctl_error(ctl, GEMCTL_USAGE, "address 0x%llx is not a "
				    "dword-aligned 32-bit GTT address", (unsigned long long)at);
	b = malloc(sizeof(*b));
	if (!b)
		return gemctl_error(ctl, GEMCTL_FAILED, "out of memory");
	gen3_batch_reset(b);
	if (!strcmp(kind, "loop")) {
		/* Handle 0: the batch itself (gemctl_submit). */
		gen3_emit_spin(b, 0);
	} else if (!strcmp(kind, "runaway")) {
		unsigned int i;

		for (i = 0; i < RUNAWAY_NOOPS; i++)
			gen3_batch_emit(b, MI_NOOP);
		gen3_batch_emit(b, MI_BATCH_BUFFER_START_GTT);
		gen3_batch_emit_reloc(b, 0, MI_BATCH_NON_SECURE, I915_GEM_DOMAIN_COMMAND, 0);
	} else if (!strcmp(kind, "wait")) {
		/* Hangcheck kicks a stuck wait once, as i915 did; waiting
		 * again at the same place after the kick is the hang. */
		gen3_batch_emit(b, MI_WAIT_FOR_EVENT);
		gen3_batch_emit(b, MI_BATCH_BUFFER_START_GTT);
		gen3_batch_emit_reloc(b, 0, MI_BATCH_NON_SECURE, I915_GEM_DOMAIN_COMMAND, 0);
	} else if (!strcmp(kind, "badop")) {
		gen3_batch_emit(b, MI_BAD_OPCODE);
	} else {
		gen3_batch_emit(b, MI_STORE_DWORD_IMM_GTT);
		gen3_batch_emit(b, 0);
		gen3_batch_emit(b, (uint32_t)at);
		gen3_batch_emit(b, 0xdeadbeef);
	}
	gen3_batch_end(b);
	note_hang_base(ctl);
	ret = gemctl_submit(ctl, b, NULL, NULL, 0, &batch);
	free(b);
	if (ret)
		return ret;
	gemctl_result(ctl, "%u", batch);
	gemctl_say(ctl, "submitted a '%s' hang in batch handle %u\n", kind, batch);
	doc = gemctl_json_begin(ctl);
	gj_str(doc, "kind", kind);
	gj_uint(doc, "batch", batch);
	gemctl_json_end(ctl, doc);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_hang_entry = {
	.name = "hang",
	.args = "[--kind loop|runaway|wait|badop|fault] [--at ADDR]",
	.summary = "submit a batch that hangs the GPU that way",
	.opts = hang_opts,
	.fn = cmd_hang,
};
