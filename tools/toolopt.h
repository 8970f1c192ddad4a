/*
 * Option tables: a program or a verb declares each option once, and its
 * help, its parser and its completion read that declaration (git's
 * parse-options idea on top of getopt_long).
 *
 *	static const struct tool_opt read_opts[] = {
 *		{ "offset", 0, 'f', TOOL_ARG_VALUE, "N", "start at byte N" },
 *		{ "output", 'o', 'o', TOOL_ARG_FILE, "FILE", "write to FILE" },
 *		{ "hex", 0, 'x', TOOL_ARG_NONE, NULL, "print a hex dump" },
 *		TOOL_OPT_END
 *	};
 *
 * A table ends with TOOL_OPT_END.  The parser returns an option's id (a letter, or an enum from 256 for
 * long-only options), '?' for an unknown option or a missing value, and
 * -1 after the last option, with optind and optarg as getopt_long leaves
 * them.  Short options return their id too, so one switch serves both
 * spellings.
 */
#ifndef GEMKIT_TOOLS_TOOLOPT_H
#define GEMKIT_TOOLS_TOOLOPT_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* What the option's argument is: completion offers file names for FILE. */
enum tool_arg {
	TOOL_ARG_NONE,		/* a flag */
	TOOL_ARG_VALUE,		/* a value the next word or --opt=VALUE gives */
	TOOL_ARG_FILE,		/* a file name */
};

struct tool_opt {
	const char *name;	/* long name without "--"; NULL ends the table */
	int short_name;		/* 'o' for -o, 0 for none */
	int id;			/* what the parser returns for it */
	enum tool_arg arg;
	const char *argname;	/* the argument in help ("N", "FILE") */
	/* Lower case, no full stop; '\n' starts another line of it.  NULL:
	 * hidden (parsed, but neither listed in help nor offered). */
	const char *help;
};

#define TOOL_OPT_END { NULL, 0, 0, TOOL_ARG_NONE, NULL, NULL }
#define TOOL_OPT_MAX 32		/* options in one table */

/* getopt_long's arrays, built from a table. */
struct tool_opt_parser {
	const struct tool_opt *opts;
	struct option longopts[TOOL_OPT_MAX + 1];
	char shortopts[2 * TOOL_OPT_MAX + 3];
	/* After '?': what was wrong, in words (tool_getopt_error()). */
	char error[160];
};

/* Build the parser for opts (NULL: no options).  stop_at_operand: stop
 * at the first non-option word (getopt's '+', for a command line whose
 * first operand starts another command's options).  Restarts getopt's
 * scan.  0, or -E2BIG past TOOL_OPT_MAX options. */
int tool_opt_parser_init(struct tool_opt_parser *p, const struct tool_opt *opts,
			 bool stop_at_operand);
/* The next option's id, '?' or -1 (see above).  getopt prints nothing:
 * after '?', p->error says what was wrong, for the caller to print with
 * its own prefix. */
int tool_opt_next(struct tool_opt_parser *p, int argc, char **argv);

/*
 * Say what was wrong after getopt_long() (with opterr = 0) returned '?'
 * or ':' for argv, in words, into out (NUL-terminated):
 *	"unknown option '--tmeout' (did you mean '--timeout'?)"
 *	"option '--timeout' needs a value"
 *	"unknown option '-Z'"
 * For the tools whose options are a struct option table of their own.
 */
void tool_getopt_error(char *out, size_t size, const struct option *longopts,
		       const char *shortopts, int argc, char **argv);

/* The edit distance of a and b (insertions, deletions, substitutions and
 * swaps of neighbours cost 1). */
size_t tool_edit_distance(const char *a, const char *b);
/* The candidate closest to word, if close enough to be what was meant (a
 * distance of at most a third of its length, at least 1), else NULL.  For
 * "did you mean" on verbs, commands and options. */
const char *tool_suggest(const char *word, const char *const *cands, size_t n);

/* The option whose long name ("--offset" or "offset") or short name
 * ("-o") is word, or NULL. */
const struct tool_opt *tool_opt_find(const struct tool_opt *opts, const char *word);
size_t tool_opt_count(const struct tool_opt *opts);

/*
 * Help: one line an option, the names in a column then the help text:
 *	"  -o, --output FILE     write to FILE"
 *	"      --hex             print a hex dump"
 * width is the column the help text starts at.
 */
void tool_opt_print_help(FILE *f, const struct tool_opt *opts, int width);

#endif
