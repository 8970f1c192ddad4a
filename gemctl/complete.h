/* Completion candidates from the verb table, for `gemctl --complete`
 * (the bash and zsh completions) and the shell's readline. */
#ifndef GEMKIT_GEMCTL_COMPLETE_H
#define GEMKIT_GEMCTL_COMPLETE_H

#include <stdbool.h>

struct gemctl;

#define GEMCTL_COMPLETE_WANT_FILES	(1u << 0)	/* also complete file names */
#define GEMCTL_COMPLETE_WANT_COMMANDS	(1u << 1)	/* also complete programs */

typedef void (*gemctl_emit_fn)(const char *candidate, void *arg);

/*
 * words[0..n) are the words of the command line after "gemctl" (global
 * options included, or a shell line), the last one being the partial
 * word to complete (possibly empty).  Emits every candidate that starts
 * with it; returns GEMCTL_COMPLETE_WANT_* flags.  in_shell: also handle
 * names of this session and the shell's own words.
 */
unsigned int gemctl_complete(struct gemctl *ctl, int n, char **words, bool in_shell,
			     gemctl_emit_fn emit, void *arg);

#endif
