/*
 * The verb table, made from verbs.def: dispatch, `help`, `VERB --help`,
 * option parsing, the shell's completion and the bash/zsh completions
 * (through `gemctl --complete`) all read it.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "session.h"
#include "util.h"

const struct gemctl_cmd *const gemctl_cmds[] = {
#define GEMCTL_VERB(entry) &entry,
#include "verbs.def"
#undef GEMCTL_VERB
};
const unsigned int gemctl_ncmds = ARRAY_SIZE(gemctl_cmds);

#define VERB_HELP_WIDTH 24	/* where an option's help text starts */

const struct gemctl_cmd *gemctl_cmd_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < gemctl_ncmds; i++)
		if (!strcmp(gemctl_cmds[i]->name, name))
			return gemctl_cmds[i];
	return NULL;
}

void gemctl_print_verb_help(FILE *f, const struct gemctl_cmd *cmd)
{
	fprintf(f, "usage: gemctl %s%s%s\n  %s\n", cmd->name,
		*cmd->args ? " " : "", cmd->args, cmd->summary);
	if (tool_opt_count(cmd->opts)) {
		fputs("options:\n", f);
		tool_opt_print_help(f, cmd->opts, VERB_HELP_WIDTH);
	}
}

void gemctl_print_help(FILE *f)
{
	unsigned int i;

	for (i = 0; i < gemctl_ncmds; i++)
		fprintf(f, "  %-12s %s\n", gemctl_cmds[i]->name,
			gemctl_cmds[i]->summary);
}

int gemctl_getopt(struct gemctl *ctl, int argc, char **argv)
{
	int opt = tool_opt_next(&ctl->opt_parser, argc, argv);

	/* The verb adds its usage line (gemctl_usage) after this. */
	if (opt == '?')
		gemctl_error(ctl, GEMCTL_USAGE, "%s", ctl->opt_parser.error);
	return opt;
}

static bool wants_help(const struct gemctl_cmd *cmd, int argc, char **argv)
{
	int i;

	/* run passes everything after its own options to PROGRAM. */
	if (cmd->complete & GEMCTL_COMPLETE_COMMAND)
		argc = argc > 2 ? 2 : argc;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	}
	return false;
}

int gemctl_run_argv(struct gemctl *ctl, int argc, char **argv)
{
	const struct gemctl_cmd *cmd = gemctl_cmd_find(argv[0]);
	const char *saved = ctl->verb;
	int ret;

	if (!cmd) {
		const char *names[128], *guess;
		unsigned int i, n = 0;

		for (i = 0; i < gemctl_ncmds && n < ARRAY_SIZE(names); i++)
			names[n++] = gemctl_cmds[i]->name;
		guess = tool_suggest(argv[0], names, n);
		ctl->verb = NULL;
		if (guess)
			ret = gemctl_error(ctl, GEMCTL_USAGE,
					   "unknown verb '%s' (did you mean '%s'?)",
					   argv[0], guess);
		else
			ret = gemctl_error(ctl, GEMCTL_USAGE,
					   "unknown verb '%s' (try 'gemctl help')", argv[0]);
		ctl->verb = saved;
		return ret;
	}
	if (wants_help(cmd, argc, argv)) {
		gemctl_print_verb_help(stdout, cmd);
		return GEMCTL_OK;
	}
	ctl->verb = cmd->name;
	ctl->verb_said = false;
	strbuf_reset(&ctl->result);
	/* A typo in an option is a usage error before anything else, with
	 * or without a gemd to reach (run's options end at PROGRAM). */
	if (cmd->opts && !(cmd->complete & GEMCTL_COMPLETE_COMMAND)) {
		tool_opt_parser_init(&ctl->opt_parser, cmd->opts, false);
		while ((ret = gemctl_getopt(ctl, argc, argv)) != -1) {
			if (ret == '?') {
				ret = gemctl_usage(ctl);
				goto out;
			}
		}
	}
	if (!cmd->no_device) {
		ret = gemctl_connect(ctl);
		if (ret)
			goto out;
	}
	/* Each verb parses its own argv from the start, with its own table. */
	tool_opt_parser_init(&ctl->opt_parser, cmd->opts, false);
	ret = cmd->fn(ctl, argc, argv);
	if (ret == GEMCTL_OK && ctl->quiet && !ctl->capture && ctl->result.len &&
	    !ctl->json)
		printf("%s\n", ctl->result.buf);
	fflush(stdout);
out:
	ctl->verb = saved;
	return ret;
}
