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
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "session.h"
#include "util.h"

static void usage(FILE *f)
{
	fputs("usage: gemctl [OPTIONS] VERB [ARGS]...\n"
	      "       gemctl [OPTIONS] -c 'VERB ARGS; ...' | -f SCRIPT | < SCRIPT\n"
	      "       gemctl [OPTIONS]          (a shell, when stdin is a terminal)\n"
	      "\n"
	      "options:\n"
	      "  -D, --device PATH   the gemd socket (default: $GEM_DEVICE, then\n"
	      "                      <runtime dir>/gemkit/card0)\n"
	      "  -c, --command CMDS  run CMDS (';' or newline separated)\n"
	      "  -f, --file SCRIPT   run the commands in SCRIPT ('-': stdin)\n"
	      "  -e, --errexit       stop at the first command that fails\n"
	      "  -x, --xtrace        echo each command to stderr before running it\n"
	      "  -j, --json          one JSON document per verb on stdout\n"
	      "  -q, --quiet         print only each verb's essential value\n"
	      "  -t, --timeout DUR   default timeout of blocking verbs (10s)\n"
	      "  -h, --help          this help (gemctl help VERB: one verb)\n"
	      "  -V, --version       the version\n"
	      "\n"
	      "verbs:\n", f);
	gemctl_print_help(f);
	fputs("\n"
	      "exit status: 0 ok, 1 the operation failed, 2 usage error,\n"
	      "3 device unreachable, 4 GPU hung or wedged (EIO), 124 timeout;\n"
	      "in a script, the status of the last command (with -e, of the\n"
	      "command that stopped it).\n", f);
}

static void on_sigint(int sig)
{
	(void)sig;
	gemctl_interrupted = 1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'D' },
		{ "command", required_argument, NULL, 'c' },
		{ "file", required_argument, NULL, 'f' },
		{ "errexit", no_argument, NULL, 'e' },
		{ "xtrace", no_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "complete", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	const char *command = NULL, *file = NULL;
	struct sigaction sa;
	struct gemctl ctl;
	bool complete = false;
	int opt, ret;

	gemctl_init(&ctl);
	/* '+': options after the verb belong to the verb. */
	while ((opt = getopt_long(argc, argv, "+D:c:f:exjqt:hV", longopts, NULL)) != -1) {
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
		case 't':
			if (gemctl_parse_timeout(&ctl, optarg, &ctl.timeout_ns))
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
			usage(stderr);
			return GEMCTL_USAGE;
		}
	}
	if (complete) {
		ret = gemctl_complete_main(&ctl, argc - optind, argv + optind);
		goto out;
	}

	/* SIGINT interrupts a blocking verb; blocking loops poll the flag.
	 * A single verb outside the shell keeps the default (die). */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	signal(SIGPIPE, SIG_IGN);

	if (optind < argc && (command || file)) {
		fputs("gemctl: a verb and -c/-f are exclusive\n", stderr);
		ret = GEMCTL_USAGE;
	} else if (optind < argc) {
		ret = gemctl_run_argv(&ctl, argc - optind, argv + optind);
	} else if (command) {
		ret = gemctl_run_script(&ctl, command);
	} else if (file) {
		ret = strcmp(file, "-") ? gemctl_run_file(&ctl, file)
					: gemctl_run_fd(&ctl, STDIN_FILENO);
	} else if (!isatty(STDIN_FILENO)) {
		ret = gemctl_run_fd(&ctl, STDIN_FILENO);
	} else {
		sigaction(SIGINT, &sa, NULL);
		ctl.interactive = true;
		ret = gemctl_shell(&ctl);
	}
out:
	gemctl_release(&ctl);
	return ret;
}
