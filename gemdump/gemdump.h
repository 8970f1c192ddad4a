/*
 * gemdump: dump objects, decode batches and write up GPU hangs.
 *
 * How to add a subcommand: write gemdump/cmd-NAME.c exporting
 * "const struct gd_cmd gd_cmd_NAME", declare it below, list it in
 * gd_commands[] (main.c) and add the file to gemdump/Makefile.inc.  Its
 * usage and options strings feed --help and the shell completions
 * (gemdump --complete), so they are the one place to describe it.
 */
#ifndef GEMKIT_GEMDUMP_H
#define GEMKIT_GEMDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "exitcode.h"
#include "strbuf.h"
#include "util.h"

/* Exit codes: the three tools' table (common/exitcodes.def). */
enum {
	GD_EXIT_OK = GEM_EXIT_OK,
	GD_EXIT_FAIL = GEM_EXIT_FAILED,	/* bad input, I/O, captures differ */
	GD_EXIT_USAGE = GEM_EXIT_USAGE,
};

enum gd_color { GD_COLOR_AUTO, GD_COLOR_ALWAYS, GD_COLOR_NEVER };

/* Global options, shared by every subcommand. */
struct gd_ctx {
	const char *device;		/* -D: a gemd socket */
	const char *debugfs;		/* --debugfs DIR */
	enum gd_color color;
	bool no_pager;
	bool use_color;			/* resolved by gd_output_begin() */
	/* Sizes and times for people: a terminal, unless --bytes; --human
	 * forces it.  Raw for scripts (and always in --json). */
	bool human;
	const char *cmd;		/* the subcommand running, for messages */
};

struct gd_cmd {
	const char *name;
	const char *args;		/* "[FILE|-]" */
	const char *summary;		/* one line */
	const char *options;		/* --help text of its options */
	const char *complete;		/* its long options, space-separated */
	int (*run)(struct gd_ctx *ctx, int argc, char **argv);
};

extern const struct gd_cmd gd_cmd_bo, gd_cmd_decode, gd_cmd_hang, gd_cmd_capture,
	gd_cmd_info, gd_cmd_list, gd_cmd_find, gd_cmd_diff;

/* "gemdump CMD: message" on stderr; returns GD_EXIT_FAIL. */
int gd_error(const struct gd_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same for a usage error, plus a hint; returns GD_EXIT_USAGE. */
int gd_usage_error(const struct gd_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* getopt_long() (opterr is 0) returned '?' for argv: say what was wrong,
 * with a did-you-mean, the usage line and where help is; GD_EXIT_USAGE. */
struct option;
int gd_option_error(const struct gd_ctx *ctx, const struct option *longopts,
		    const char *shortopts, int argc, char **argv);
/* bytes as "256M" (human) or "268435456 bytes" (raw), for prose. */
void gd_fmt_bytes(const struct gd_ctx *ctx, uint64_t bytes, char *out, size_t size);
/* An error state's "Time: S s U us" with, for people, the local time and
 * its age: "Time: 1325376000 s 0 us = 2012-01-01 00:00:00 UTC (...ago)". */
void gd_fmt_error_time(const struct gd_ctx *ctx, const char *text, char *out,
		       size_t size);
/* Print the subcommand's help to f. */
void gd_cmd_help(const struct gd_cmd *cmd, FILE *f);
/* True for -h/--help as the first argument (after which run() returns). */
bool gd_wants_help(const struct gd_cmd *cmd, int argc, char **argv);

/* Numbers: parse_u64 of common/util.h. */

/* gd_capture_load, saying what is wrong with the file as ctx's error. */
struct gd_capture;
int gd_load_capture(const struct gd_ctx *ctx, const char *path, struct gd_capture *c);
/*
 * Read a whole file (or stdin for "-"/NULL) into out, refusing more than
 * max bytes (-EFBIG).  Returns 0 or -errno.
 */
int gd_read_file(const char *path, size_t max, struct strbuf *out);

/* Start output: the pager on a terminal (unless --no-pager) and colour. */
void gd_output_begin(struct gd_ctx *ctx);
/* Flush and wait for the pager.  Returns 0, or -EIO if stdout failed. */
int gd_output_end(struct gd_ctx *ctx);

/* Upper bound on any input gemdump reads into memory: 1 GiB. */
#define GD_MAX_INPUT (1ull << 30)

#endif
