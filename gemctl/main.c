/*
 * gemctl: script the GEM driver from test rigs and drive it by hand.
 *
 *   gemctl [OPTIONS] VERB [ARGS]     one verb
 *   gemctl [OPTIONS] -c 'CMDS'       commands separated by ';' or newlines
 *   gemctl [OPTIONS] -f SCRIPT       a script file
 *   gemctl [OPTIONS] < SCRIPT        a script on stdin (not a terminal)
 *   gemctl [OPTIONS]                 the interactive shell (a terminal)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "holder.h"
#include "json.h"
#include "session.h"
#include "util.h"

/* The global options, before the verb: usage, parsing and completion
 * (complete.c) read this table. */
const struct tool_opt gemctl_global_opts[] = {
	{ "device", 'D', 'D', TOOL_ARG_VALUE, "PATH",
	  "the gemd socket (default: $GEM_DEVICE, then\n<runtime dir>/gemkit/card0)" },
	{ "command", 'c', 'c', TOOL_ARG_VALUE, "CMDS", "run CMDS (';' or newline separated)" },
	{ "file", 'f', 'f', TOOL_ARG_FILE, "SCRIPT", "run the commands in SCRIPT ('-': stdin)" },
	{ "errexit", 'e', 'e', TOOL_ARG_NONE, NULL,
	  "stop at the first command that fails (the default for\n-c, -f and a script on stdin; +e: go on)" },
	{ "xtrace", 'x', 'x', TOOL_ARG_NONE, NULL,
	  "echo each command to stderr before running it" },
	{ "json", 'j', 'j', TOOL_ARG_NONE, NULL, "one JSON document per verb on stdout" },
	{ "quiet", 'q', 'q', TOOL_ARG_NONE, NULL, "print only each verb's essential value" },
	{ "bytes", 'b', 'b', TOOL_ARG_NONE, NULL,
	  "sizes in bytes (the default unless stdout is a terminal)" },
	{ "timeout", 't', 't', TOOL_ARG_VALUE, "DUR",
	  "default timeout of blocking verbs (10s)" },
	{ "help", 'h', 'h', TOOL_ARG_NONE, NULL, "this help (gemctl help VERB: one verb)" },
	{ "session", 'S', 'S', TOOL_ARG_VALUE, "NAME",
	  "run in session NAME, whose handles and variables\nlast across gemctl runs (`gemctl -S NAME exit` ends it)" },
	{ "session-idle", 0, 'I', TOOL_ARG_VALUE, "DUR",
	  "a new session ends after DUR unused (15m)" },
	{ "version", 'V', 'V', TOOL_ARG_NONE, NULL, "the version" },
	/* Hidden: the candidates for the shell completions (complete.c). */
	{ "complete", 0, 'C', TOOL_ARG_NONE, NULL, NULL },
	TOOL_OPT_END
};

static void usage(FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	fputs("usage: gemctl [OPTIONS] VERB [ARGS]...\n"
	      "       gemctl [OPTIONS] -c 'VERB ARGS; ...' | -f SCRIPT | < SCRIPT\n"
	      "       gemctl [OPTIONS] [shell]  (a shell, when stdin is a terminal)\n"
	      "       gemctl -S NAME [shell]    (the shell on session NAME's handles)\n"
	      "\n"
	      "options:\n", f);
	tool_opt_print_help(f, gemctl_global_opts, 22);
	fputs("\n"
	      "verbs:\n", f);
	gemctl_print_help(f);
	gem_exit_describe(&sb);
	fprintf(f, "\n%s", sb.buf);
	fputs("In a script, the status of the last command (with -e, of the\n"
	      "command that stopped it).\n", f);
	strbuf_release(&sb);
}

/* -S NAME: the same modes, run by the session's holder (holder.h). */
static int run_in_session(struct gemctl *ctl, const char *name, uint64_t idle_ns,
			  const char *command, const char *file, int argc,
			  char **argv)
{
	struct gemctl_holder_req req = { .idle_ns = idle_ns };
	char *one[1];

	if (argc == 1 && !strcmp(argv[0], "exit")) {
		req.kind = GEMCTL_HOLD_EXIT;
	} else if (argc == 1 && !strcmp(argv[0], "shell")) {
		req.kind = GEMCTL_HOLD_SHELL;
	} else if (argc) {
		req.kind = GEMCTL_HOLD_ARGV;
		req.argc = argc;
		req.args = argv;
	} else if (command || (file && strcmp(file, "-"))) {
		req.kind = command ? GEMCTL_HOLD_COMMAND : GEMCTL_HOLD_FILE;
		one[0] = (char *)(command ? command : file);
		req.argc = 1;
		req.args = one;
	} else if (file || !isatty(STDIN_FILENO)) {
		req.kind = GEMCTL_HOLD_STDIN;
	} else {
		req.kind = GEMCTL_HOLD_SHELL;	/* a terminal: the shell */
	}
	return gemctl_holder_run(ctl, name, &req);
}

int main(int argc, char **argv)
{
	const char *command = NULL, *file = NULL, *session = NULL;
	uint64_t idle_ns = GEMCTL_HOLDER_IDLE_NS;
	struct gemctl ctl;
	struct tool_opt_parser p;
	bool complete = false;
	int opt, ret;

	gemctl_init(&ctl);
	/* Stop at the verb: options after it belong to the verb. */
	tool_opt_parser_init(&p, gemctl_global_opts, true);
	for (;;) {
		opt = tool_opt_next(&p, argc, argv);
		if (opt == -1) {
			/* +e, as sh's: getopt stops at it as at a verb. */
			if (optind < argc && !strcmp(argv[optind], "+e")) {
				ctl.no_errexit = true;
				ctl.errexit = false;
				optind++;
				continue;
			}
			break;
		}
		switch (opt) {
		case 'D':
			ctl.device_arg = optarg;
			break;
		case 'c':
			command = optarg;
			break;
		case 'f':
			file = optarg;
			break;
		case 'e':
			ctl.errexit = true;
			ctl.no_errexit = false;
			break;
		case 'x':
			ctl.xtrace = true;
			break;
		case 'j':
			ctl.json = true;
			break;
		case 'q':
			ctl.quiet = true;
			break;
		case 'b':
			ctl.bytes = true;
			break;
		case 't':
			if (gemctl_parse_timeout(&ctl, optarg, &ctl.timeout_ns))
				return GEMCTL_USAGE;
			break;
		case 'S':
			if (!gemctl_session_name_ok(optarg)) {
				fprintf(stderr, "gemctl: bad session name '%s' (letters, "
					"digits, '_', '-', '.')\n", optarg);
				return GEMCTL_USAGE;
			}
			session = optarg;
			break;
		case 'I':
			if (gemctl_parse_timeout(&ctl, optarg, &idle_ns) || !idle_ns)
				return GEMCTL_USAGE;
			break;
		case 'h':
			usage(stdout);
			return GEMCTL_OK;
		case 'V':
			printf("gemctl (gemkit) %s\n", PACKAGE_VERSION);
			return GEMCTL_OK;
		case 'C':
			complete = true;
			break;
		default:
			/* One line, not the 70 of --help. */
			fprintf(stderr, "gemctl: %s\n"
				"usage: gemctl [OPTIONS] VERB [ARGS]...\n"
				"Try 'gemctl --help' for more information.\n",
				p.error);
			return GEMCTL_USAGE;
		}
	}
	if (complete) {
		ret = gemctl_complete_main(&ctl, argc - optind, argv + optind);
		goto out;
	}

	/* SIGINT interrupts a blocking verb in the shell; blocking loops
	 * poll the flag.  Outside it, SIGINT kills, but for verbs that
	 * report what they did (workload catches it while it runs). */
	signal(SIGPIPE, SIG_IGN);

	/* A script that runs on its own stops at the first failure (a rig
	 * must not go on after a banned client's EIO); +e goes on. */
	if ((command || file || (optind == argc && !isatty(STDIN_FILENO))) &&
	    !ctl.no_errexit)
		ctl.errexit = true;
	if (optind < argc && (command || file)) {
		fputs("gemctl: a verb and -c/-f are exclusive\n", stderr);
		ret = GEMCTL_USAGE;
	} else if (session) {
		ret = run_in_session(&ctl, session, idle_ns, command, file,
				     argc - optind, argv + optind);
	} else if (optind < argc) {
		ret = gemctl_run_argv(&ctl, argc - optind, argv + optind);
	} else if (command) {
		ret = gemctl_run_script(&ctl, command);
	} else if (file) {
		ret = strcmp(file, "-") ? gemctl_run_file(&ctl, file)
					: gemctl_run_stdin(&ctl);
	} else if (!isatty(STDIN_FILENO)) {
		ret = gemctl_run_stdin(&ctl);
	} else {
		gemctl_catch_sigint(NULL);
		ctl.interactive = true;
		ret = gemctl_shell(&ctl);
	}
out:
	gemctl_release(&ctl);
	return ret;
}
