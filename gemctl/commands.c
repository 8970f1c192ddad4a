/*
 * The verb table: dispatch, `help`, `--help`, the shell's completion and
 * the generated bash/zsh completions all read it.  Keep it sorted by
 * group, then the order `help` lists them.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "session.h"
#include "util.h"

#define OPTS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define NOOPTS ((const char *const[]){ NULL })

const struct gemctl_cmd gemctl_cmds[] = {
	/* session */
	{ "help", "[VERB]", "list the verbs, or show one verb's usage",
	  NOOPTS, GEMCTL_COMPLETE_VERB, cmd_help, true },
	{ "set", "json|quiet|errexit|xtrace on|off | timeout DUR",
	  "change a session setting", NOOPTS, 0, cmd_set, true },
	{ "source", "FILE", "run the commands in FILE in this session",
	  NOOPTS, GEMCTL_COMPLETE_FILE, cmd_source, true },
	{ "echo", "[WORD]...", "print the words (after $variable expansion)",
	  NOOPTS, 0, cmd_echo, true },
	{ "handles", "", "list the handles this session holds",
	  NOOPTS, 0, cmd_handles, true },

	/* inspection */
	{ "info", "", "device, aperture, fences, seqnos and counters",
	  NOOPTS, 0, cmd_info, true },
	{ "list", "[--client PID|COMM] [--list LIST] [--domain D] [--min-size N] [--max-size N] [--mine]",
	  "list objects, filtered", OPTS("--client=", "--list=", "--domain=",
	  "--min-size=", "--max-size=", "--mine"), 0, cmd_list, true },
	{ "inspect", "H | --id N", "everything the driver says about one object",
	  OPTS("--id="), GEMCTL_COMPLETE_HANDLE, cmd_inspect, true },
	{ "gtt", "[--holes]", "the aperture map and its summary",
	  OPTS("--holes"), 0, cmd_gtt, true },
	{ "seqno", "", "emitted, completed and waited-for seqnos",
	  NOOPTS, 0, cmd_seqno, true },
	{ "requests", "", "outstanding requests and the ring registers",
	  NOOPTS, 0, cmd_requests, true },
	{ "clients", "", "open drm files", NOOPTS, 0, cmd_clients, true },
	{ "events", "[--since N] [--follow] [--timeout DUR]",
	  "the memory manager's events", OPTS("--since=", "--follow", "--timeout="),
	  0, cmd_events, true },

	/* objects */
	{ "create", "SIZE", "create an object; its handle is the value",
	  NOOPTS, 0, cmd_create, false },
	{ "close", "H", "close a handle", NOOPTS, GEMCTL_COMPLETE_HANDLE,
	  cmd_close, false },
	{ "flink", "H", "give an object a global name (the value)",
	  NOOPTS, GEMCTL_COMPLETE_HANDLE, cmd_flink, false },
	{ "open", "NAME", "open a flink name; the new handle is the value",
	  NOOPTS, GEMCTL_COMPLETE_FLINK, cmd_open, false },
	{ "write", "H [--offset N] [--length N] (FILE|-|--pattern HEX|--fill BYTE)",
	  "write bytes into an object (pwrite)",
	  OPTS("--offset=", "--length=", "--pattern=", "--fill="),
	  GEMCTL_COMPLETE_HANDLE | GEMCTL_COMPLETE_FILE, cmd_write, false },
	{ "read", "H [--offset N] [--length N] [-o FILE|--hex]",
	  "read bytes from an object (pread)",
	  OPTS("--offset=", "--length=", "--output=", "--hex"),
	  GEMCTL_COMPLETE_HANDLE, cmd_read, false },
	{ "map", "H [--gtt|--cpu] [--length N]",
	  "keep a CPU or GTT mapping of an object open",
	  OPTS("--gtt", "--cpu", "--length="), GEMCTL_COMPLETE_HANDLE, cmd_map, false },
	{ "unmap", "H", "drop the mapping map made", NOOPTS,
	  GEMCTL_COMPLETE_HANDLE, cmd_unmap, false },
	{ "set-domain", "H READ[,WRITE]",
	  "move an object to domains (cpu, gtt, render, sampler, ...)",
	  NOOPTS, GEMCTL_COMPLETE_HANDLE, cmd_set_domain, false },
	{ "tiling", "H none|x|y [STRIDE]", "set an object's tiling",
	  NOOPTS, GEMCTL_COMPLETE_HANDLE, cmd_tiling, false },
	{ "madvise", "H willneed|dontneed", "advise whether the pages are needed",
	  NOOPTS, GEMCTL_COMPLETE_HANDLE, cmd_madvise, false },
	{ "caching", "H [none|cached]", "show or set an object's caching level",
	  NOOPTS, GEMCTL_COMPLETE_HANDLE, cmd_caching, false },

	/* work */
	{ "exec", "BATCH-FILE [--reloc OFFSET:H[+DELTA][:write]]... [--object H]...",
	  "submit a batch from a file; the batch handle is the value",
	  OPTS("--reloc=", "--object="), GEMCTL_COMPLETE_FILE, cmd_exec, false },
	{ "fill", "H X1 Y1 X2 Y2 COLOR [--pitch P] [--bpp 8|16|32]",
	  "fill a rectangle with the blitter (XY_COLOR_BLT)",
	  OPTS("--pitch=", "--bpp="), GEMCTL_COMPLETE_HANDLE, cmd_fill, false },
	{ "copy", "SRC DST WIDTH HEIGHT [--from X,Y] [--to X,Y] [--src-pitch P] [--pitch P] [--bpp N]",
	  "copy a rectangle with the blitter (XY_SRC_COPY_BLT)",
	  OPTS("--from=", "--to=", "--src-pitch=", "--pitch=", "--dst-pitch=", "--bpp="),
	  GEMCTL_COMPLETE_HANDLE, cmd_copy, false },
	{ "wait", "H | --seqno N | --idle [--timeout DUR]",
	  "wait for an object, a seqno or an idle GPU",
	  OPTS("--seqno=", "--idle", "--timeout="), GEMCTL_COMPLETE_HANDLE,
	  cmd_wait, false },
	{ "busy", "H", "is the GPU still using the object? (value 1 or 0)",
	  NOOPTS, GEMCTL_COMPLETE_HANDLE, cmd_busy, false },
	{ "throttle", "", "wait for this client's older work (GEM_THROTTLE)",
	  NOOPTS, 0, cmd_throttle, false },

	/* faults and driver control */
	{ "hang", "[--kind loop|wait|badop|fault]",
	  "submit a batch that hangs the GPU that way",
	  OPTS("--kind="), 0, cmd_hang, false },
	{ "wait-hang", "[--timeout DUR] [--after N]",
	  "wait for gemd to report a hang; print where the capture is",
	  OPTS("--timeout=", "--after="), 0, cmd_wait_hang, true },
	{ "clear-error", "", "free the error capture (write i915_error_state)",
	  NOOPTS, 0, cmd_clear_error, true },
	{ "drop-caches", "[FLAGS]", "write i915_gem_drop_caches (default: all)",
	  NOOPTS, 0, cmd_drop_caches, true },
	{ "suspend", "[--timeout DUR]",
	  "idle the GPU, unbind everything, refuse work until resume",
	  OPTS("--timeout="), 0, cmd_suspend, true },
	{ "resume", "[--timeout DUR]", "accept work again after suspend",
	  OPTS("--timeout="), 0, cmd_resume, true },
	{ "wedged", "[--inject]", "is the GPU wedged? (--inject: force error handling)",
	  OPTS("--inject"), 0, cmd_wedged, true },

	/* workloads */
	{ "workload", "gears|texdown|ipers|thrash [--duration DUR] [--clients N]",
	  "run a synthetic workload and report ops and bytes",
	  OPTS("--duration=", "--clients="), GEMCTL_COMPLETE_WORKLOAD, cmd_workload, true },
	{ "bench", "[all|seed|micro|WORKLOAD]... [--strategy LIST] [--repeat N] [--duration DUR] [--placement same|cross|any] [--json] [-o FILE] | --compare A.json B.json",
	  "benchmark workloads x buffer strategies against same-run floors",
	  OPTS("--strategy=", "--repeat=", "--duration=", "--placement=", "--json",
	  "--output=", "--compare"), GEMCTL_COMPLETE_WORKLOAD | GEMCTL_COMPLETE_FILE,
	  cmd_bench, true },

	/* programs */
	{ "run", "[--] PROGRAM [ARGS]...",
	  "run PROGRAM with the gemkit interposer against the device",
	  NOOPTS, GEMCTL_COMPLETE_COMMAND, cmd_run, true },
};
const unsigned int gemctl_ncmds = ARRAY_SIZE(gemctl_cmds);

const struct gemctl_cmd *gemctl_cmd_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < gemctl_ncmds; i++)
		if (!strcmp(gemctl_cmds[i].name, name))
			return &gemctl_cmds[i];
	return NULL;
}

void gemctl_print_verb_help(FILE *f, const struct gemctl_cmd *cmd)
{
	const char *const *o;

	fprintf(f, "usage: gemctl %s%s%s\n  %s\n", cmd->name,
		*cmd->args ? " " : "", cmd->args, cmd->summary);
	if (cmd->options[0]) {
		fputs("options:", f);
		for (o = cmd->options; *o; o++) {
			size_t len = strlen(*o);

			if (len && (*o)[len - 1] == '=')
				fprintf(f, " %.*s VALUE", (int)(len - 1), *o);
			else
				fprintf(f, " %s", *o);
		}
		fputc('\n', f);
	}
}

void gemctl_print_help(FILE *f)
{
	unsigned int i;

	for (i = 0; i < gemctl_ncmds; i++)
		fprintf(f, "  %-12s %s\n", gemctl_cmds[i].name,
			gemctl_cmds[i].summary);
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
		ctl->verb = NULL;
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
	strbuf_reset(&ctl->result);
	if (!cmd->no_device) {
		ret = gemctl_connect(ctl);
		if (ret)
			goto out;
	}
	/* Each verb parses its own argv with getopt_long from the start. */
	optind = 0;
	opterr = 1;
	gemctl_interrupted = 0;
	ret = cmd->fn(ctl, argc, argv);
	if (ret == GEMCTL_OK && ctl->quiet && !ctl->capture && ctl->result.len &&
	    !ctl->json)
		printf("%s\n", ctl->result.buf);
	fflush(stdout);
out:
	ctl->verb = saved;
	return ret;
}
