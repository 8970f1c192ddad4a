/*
 * gemdump: the subcommand table, the global options and the helpers every
 * subcommand shares (messages, input files, the pager).
 *
 *   gemdump [-D SOCKET] [--debugfs DIR] [--color=WHEN] [--no-pager] CMD [ARGS]
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core.h"
#include "gemdump.h"
#include "objmap.h"
#include "toolopt.h"
#include "units.h"
#include "util.h"

static const struct gd_cmd *const gd_commands[] = {
	&gd_cmd_bo,
	&gd_cmd_capture,
	&gd_cmd_decode,
	&gd_cmd_diff,
	&gd_cmd_find,
	&gd_cmd_hang,
	&gd_cmd_info,
	&gd_cmd_list,
};

static const char global_options[] =
	"  -b, --bytes          raw numbers: sizes in bytes, times as the source has\n"
	"                       them (the default when stdout is not a terminal)\n"
	"      --human          sizes as 128K and times as local time and age\n"
	"                       (the default on a terminal)\n"
	"  -D, --device SOCKET  the gemd to read (default: $GEM_DEVICE, then\n"
	"                       <runtime dir>/gemkit/card0)\n"
	"      --debugfs DIR    read this debugfs tree instead (a live mount or a\n"
	"                       saved copy)\n"
	"      --color=WHEN     auto (default), always or never\n"
	"      --no-pager       never page output through less\n"
	"  -h, --help           this help (gemdump CMD --help: one command)\n"
	"  -V, --version        the version\n";

static void exit_codes(FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	gem_exit_describe(&sb);
	fputs(sb.buf, f);
	strbuf_release(&sb);
}

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: gemdump [OPTIONS] COMMAND [ARGS]\n\noptions:\n", f);
	fputs(global_options, f);
	fputs("\ncommands:\n", f);
	for (i = 0; i < ARRAY_SIZE(gd_commands); i++)
		fprintf(f, "  %-8s %s\n", gd_commands[i]->name, gd_commands[i]->summary);
	fputs("\n", f);
	exit_codes(f);
}

/* What the completions read: commands, then each one's options. */
static void complete(void)
{
	size_t i;

	printf("-b --bytes --human -D --device --debugfs --color= --no-pager --help --version\n");
	for (i = 0; i < ARRAY_SIZE(gd_commands); i++)
		printf("%s %s --help\n", gd_commands[i]->name, gd_commands[i]->complete);
}

void gd_cmd_help(const struct gd_cmd *cmd, FILE *f)
{
	fprintf(f, "usage: gemdump %s %s\n%s\n", cmd->name, cmd->args, cmd->summary);
	if (cmd->options && *cmd->options)
		fprintf(f, "\noptions:\n%s", cmd->options);
	fputs("\n", f);
	exit_codes(f);
}

bool gd_wants_help(const struct gd_cmd *cmd, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			gd_cmd_help(cmd, stdout);
			return true;
		}
	}
	return false;
}

static __attribute__((format(printf, 2, 0)))
void vmessage(const struct gd_ctx *ctx, const char *fmt, va_list ap)
{
	fflush(stdout);
	if (ctx && ctx->cmd)
		fprintf(stderr, "gemdump %s: ", ctx->cmd);
	else
		fputs("gemdump: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int gd_error(const struct gd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(ctx, fmt, ap);
	va_end(ap);
	return GD_EXIT_FAIL;
}

int gd_load_capture(const struct gd_ctx *ctx, const char *path, struct gd_capture *c)
{
	struct strbuf err = STRBUF_INIT;
	int ret = gd_capture_load(path, c, &err);

	if (ret)
		gd_error(ctx, "%s", err.buf);
	strbuf_release(&err);
	return ret;
}

static const struct gd_cmd *find_cmd(const char *name);

/* After a usage error: one usage line and where the rest is. */
static void usage_hint(const struct gd_ctx *ctx)
{
	const struct gd_cmd *cmd = ctx && ctx->cmd ? find_cmd(ctx->cmd) : NULL;

	if (cmd)
		fprintf(stderr, "usage: gemdump %s %s\n"
			"Try 'gemdump %s --help' for more information.\n",
			cmd->name, cmd->args, cmd->name);
	else
		fputs("usage: gemdump [OPTIONS] COMMAND [ARGS]\n"
		      "Try 'gemdump --help' for more information.\n", stderr);
}

int gd_usage_error(const struct gd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(ctx, fmt, ap);
	va_end(ap);
	usage_hint(ctx);
	return GD_EXIT_USAGE;
}

void gd_fmt_bytes(const struct gd_ctx *ctx, uint64_t bytes, char *out, size_t size)
{
	if (ctx && ctx->human)
		tool_fmt_size(out, size, bytes);
	else
		snprintf(out, size, "%" PRIu64 " bytes", bytes);
}

void gd_fmt_error_time(const struct gd_ctx *ctx, const char *text, char *out,
		       size_t size)
{
	unsigned long long s, us;
	char when[96];

	if (!ctx || !ctx->human || sscanf(text, "Time: %llu s %llu us", &s, &us) != 2) {
		snprintf(out, size, "%s", text);
		return;
	}
	tool_fmt_time(when, sizeof(when), s * 1000000000ull + us * 1000ull,
		      now_realtime_ns());
	snprintf(out, size, "%s = %s", text, when);
}

int gd_option_error(const struct gd_ctx *ctx, const struct option *longopts,
		    const char *shortopts, int argc, char **argv)
{
	char msg[160];

	tool_getopt_error(msg, sizeof(msg), longopts, shortopts, argc, argv);
	return gd_usage_error(ctx, "%s", msg);
}

static pid_t pager_pid;

void gd_output_begin(struct gd_ctx *ctx)
{
	int fds[2];
	pid_t pid;

	ctx->use_color = ctx->color == GD_COLOR_ALWAYS ||
		(ctx->color == GD_COLOR_AUTO && isatty(1) && !getenv("NO_COLOR"));
	if (ctx->no_pager || !isatty(1) || pager_pid)
		return;
	if (pipe(fds))
		return;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		dup2(fds[0], 0);
		close(fds[0]);
		close(fds[1]);
		execlp("less", "less", "-FRSi", (char *)NULL);
		/* No less: just copy, so the output is not lost. */
		execlp("cat", "cat", (char *)NULL);
		_exit(127);
	}
	dup2(fds[1], 1);
	close(fds[0]);
	close(fds[1]);
	/* The pager reads until we close; quitting it early is not an error. */
	signal(SIGPIPE, SIG_IGN);
	pager_pid = pid;
}

int gd_output_end(struct gd_ctx *ctx)
{
	int ret = 0;

	(void)ctx;
	errno = 0;
	if (fflush(stdout) || ferror(stdout))
		ret = pager_pid ? 0 : errno ? -errno : -EIO;
	if (pager_pid) {
		fclose(stdout);
		close(1);
		while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
			;
		pager_pid = 0;
	}
	return ret;
}

static const struct gd_cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gd_commands); i++)
		if (!strcmp(gd_commands[i]->name, name))
			return gd_commands[i];
	return NULL;
}

static int unknown_command(const char *word)
{
	const char *names[ARRAY_SIZE(gd_commands)], *guess;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gd_commands); i++)
		names[i] = gd_commands[i]->name;
	guess = tool_suggest(word, names, ARRAY_SIZE(names));
	if (guess)
		return gd_usage_error(NULL, "unknown command '%s' (did you mean '%s'?)",
				      word, guess);
	return gd_usage_error(NULL, "unknown command '%s'", word);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'D' },
		{ "debugfs", required_argument, NULL, 'd' },
		{ "color", required_argument, NULL, 'c' },
		{ "colour", required_argument, NULL, 'c' },
		{ "no-pager", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "complete", no_argument, NULL, 'C' },
		{ "bytes", no_argument, NULL, 'b' },
		{ "human", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	int units = -1;		/* -1: as stdout is; 0 raw; 1 human */
	struct gd_ctx ctx = { .color = GD_COLOR_AUTO };
	const struct gd_cmd *cmd;
	int opt, ret, err;

	/* '+': options after the command belong to the command. */
	/* Every parser of gemdump says what is wrong itself
	 * (gd_option_error), with the command's name. */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+bD:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'D':
			ctx.device = optarg;
			break;
		case 'd':
			ctx.debugfs = optarg;
			break;
		case 'c':
			if (!strcmp(optarg, "auto"))
				ctx.color = GD_COLOR_AUTO;
			else if (!strcmp(optarg, "always"))
				ctx.color = GD_COLOR_ALWAYS;
			else if (!strcmp(optarg, "never"))
				ctx.color = GD_COLOR_NEVER;
			else
				return gd_usage_error(NULL, "invalid --color '%s': auto, always or never",
						      optarg);
			break;
		case 'P':
			ctx.no_pager = true;
			break;
		case 'b':
			units = 0;
			break;
		case 'H':
			units = 1;
			break;
		case 'h':
			usage(stdout);
			return GD_EXIT_OK;
		case 'V':
			printf("gemdump (gemkit) %s\n", PACKAGE_VERSION);
			return GD_EXIT_OK;
		case 'C':
			complete();
			return GD_EXIT_OK;
		default:
			return gd_option_error(NULL, longopts, "+bD:hV", argc, argv);
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return GD_EXIT_USAGE;
	}
	cmd = find_cmd(argv[optind]);
	if (!cmd)
		return unknown_command(argv[optind]);
	ctx.human = units < 0 ? isatty(STDOUT_FILENO) : units;
	ctx.cmd = cmd->name;
	argc -= optind;
	argv += optind;
	optind = 0;	/* 0: glibc starts a fresh scan (permuting again) */
	if (gd_wants_help(cmd, argc, argv))
		return GD_EXIT_OK;
	ret = cmd->run(&ctx, argc, argv);
	if (ret == GD_EXIT_FAIL && gd_live_exit())
		ret = gd_live_exit();
	err = gd_output_end(&ctx);
	if (err && ret == GD_EXIT_OK)
		ret = gd_error(&ctx, "writing standard output: %s", strerror(-err));
	return ret;
}
