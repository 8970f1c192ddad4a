/*
 * gemtop: options, then the interactive view or the batch loop.  One
 * option parser for both modes, so a flag means the same in each.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gemtop.h"
#include "toolopt.h"
#include "util.h"

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* The views from the view table, "1 objects, 2 GTT map, ...", wrapped
 * under the help column where the list always wrapped. */
#define VIEWS_WRAP 64

static void print_views(FILE *f)
{
	unsigned int i, n = gt_view_count();
	int col = 41;

	for (i = 0; i < n; i++) {
		char item[64];
		int len = snprintf(item, sizeof(item), "%u %s%s", i + 1, gt_view_help(i),
				   i + 1 < n ? "," : "");

		if (i && col + 1 + len > VIEWS_WRAP) {
			fputs("\n                        ", f);
			col = 24;
		} else if (i) {
			fputc(' ', f);
			col++;
		}
		fputs(item, f);
		col += len;
	}
}

static void usage(FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	fputs("usage: gemtop [options]\n"
	      "A live top-style view of GEM memory: objects, domains, GTT occupancy,\n"
	      "rings, clients and the driver's events, read through debugfs.\n"
	      "\n"
	      "  -D, --device PATH     gemd socket (default: $GEM_DEVICE, then the\n"
	      "                        runtime default)\n"
	      "      --debugfs DIR     read a debugfs tree instead: a live mount, a saved\n"
	      "                        snapshot or /sys/kernel/debug\n"
	      "  -d, --delay DUR       refresh interval: seconds, or 500ms (default 1)\n"
	      "  -b, --batch           no curses: print one record per sample\n"
	      "  -n, --iterations N    stop after N samples (0: never; default 0)\n"
	      "      --format FMT      batch output: text, json (JSON Lines) or csv\n"
	      "  -o, --output FILE     write batch output to FILE\n"
	      "      --bytes           batch text in bytes and ns (the default unless\n"
	      "                        stdout is a terminal: then 128K, 1m40s)\n"
	      "  -F, --filter TERMS    object filter: client:X list:L dom:D size>N\n"
	      "                        size<N pinned fenced id:N\n"
	      "  -v, --view N          start in view N (", f);
	print_views(f);
	fputs(")\n"
	      "  -C, --no-color        no colour (also when NO_COLOR is set)\n"
	      "  -U, --ascii           ASCII only: no line drawing or block characters\n"
	      "  -h, --help            this help\n"
	      "  -V, --version         version\n"
	      "\n", f);
	fprintf(f, "Keys: q quit, h/? help, Tab/1-%u views, / search, \\ filter, </> sort,\n",
		gt_view_count());
	fputs("I invert, Z pause, d delay, Enter detail, x export JSON.  See gemtop(1).\n"
	      "\n", f);
	gem_exit_describe(&sb);
	fputs(sb.buf, f);
	strbuf_release(&sb);
}

static void sleep_until(uint64_t deadline)
{
	uint64_t now = now_ns();
	struct timespec ts;

	if (now >= deadline)
		return;
	ts.tv_sec = (time_t)((deadline - now) / 1000000000ull);
	ts.tv_nsec = (long)((deadline - now) % 1000000000ull);
	nanosleep(&ts, NULL);
}

static int run_batch(const struct gt_opts *o)
{
	struct gt_sampler s;
	struct gt_model m;
	struct gt_batch b;
	struct strbuf err = STRBUF_INIT;
	unsigned int need = GT_NEED_HEADER;
	uint64_t next;
	long done = 0;
	int ret, status = GT_EXIT_OK;
	bool reported = false;

	memset(&b, 0, sizeof(b));
	b.format = o->format;
	b.interval_ns = o->delay_ns;
	b.out = stdout;
	b.human = !o->bytes && !o->output && isatty(STDOUT_FILENO);
	if (o->output) {
		b.out = fopen(o->output, "w");
		if (!b.out) {
			fprintf(stderr, "gemtop: cannot open '%s': %s\n", o->output,
				strerror(errno));
			return GT_EXIT_FAIL;
		}
	}
	if (o->format != GT_FMT_CSV)
		need |= GT_NEED_OBJECTS | GT_NEED_CLIENTS;
	gt_model_init(&m);
	if (gt_filter_parse(o->filter, &m.filter, &err)) {
		fprintf(stderr, "gemtop: invalid filter '%s': %s\n", o->filter, err.buf);
		status = GT_EXIT_USAGE;
		goto out;
	}
	if (gt_sampler_init(&s, o->device, o->debugfs_dir)) {
		fprintf(stderr, "gemtop: out of memory\n");
		status = GT_EXIT_FAIL;
		goto out;
	}
	next = now_ns();
	while (!stop_requested && (!o->iterations || done < o->iterations)) {
		unsigned int now_need = need;

		if (need & GT_NEED_OBJECTS && !gt_objects_due(&s, now_ns(), o->delay_ns))
			now_need = (need & ~(unsigned int)GT_NEED_OBJECTS) | GT_KEEP_OBJECTS;
		ret = gt_sample(&s, now_need);
		if (ret) {
			/* Nothing read at all: a script wants to know now. */
			if (!s.count) {
				fprintf(stderr, "gemtop: %s\n", s.error);
				status = s.error_exit ? s.error_exit : GT_EXIT_FAIL;
				break;
			}
			/* Once per outage, not once per interval. */
			if (!reported)
				fprintf(stderr, "gemtop: %s; reconnecting every %.1f s\n",
					s.error, (double)o->delay_ns / 1e9);
			reported = true;
		} else {
			if (reported)
				fprintf(stderr, "gemtop: reconnected to %s\n",
					gdfs_origin(s.src));
			reported = false;
			if (s.cur->have & GT_NEED_OBJECTS && now_need & GT_NEED_OBJECTS)
				gt_model_update(&m, &s.cur->objs, s.cur->real_ns);
			m.now_real_ns = s.cur->real_ns;
			if (gt_batch_emit(&b, &s, &m)) {
				fprintf(stderr, "gemtop: write error: %s\n", strerror(errno));
				status = GT_EXIT_FAIL;
				break;
			}
			done++;
		}
		if (o->iterations && done >= o->iterations)
			break;
		next += o->delay_ns;
		sleep_until(next);
	}
	gt_sampler_release(&s);
out:
	gt_model_release(&m);
	strbuf_release(&err);
	if (b.out != stdout && fclose(b.out) && status == GT_EXIT_OK) {
		fprintf(stderr, "gemtop: '%s': %s\n", o->output, strerror(errno));
		status = GT_EXIT_FAIL;
	}
	return status;
}

/*
 * --complete (hidden): the option table for the shell completions, one
 * option a line with what its argument is (none, file, dir, socket,
 * format, view, number, filter), so completions/ never lists options of
 * its own; then "=KIND VALUES..." lines give the values of a kind (the
 * views' numbers, from the view table).
 */
static const struct { const char *opts, *arg; } complete_table[] = {
	{ "-D --device", "socket" }, { "--debugfs", "dir" }, { "-d --delay", "number" },
	{ "-b --batch", "none" }, { "-n --iterations", "number" },
	{ "--format", "format" }, { "-o --output", "file" }, { "--bytes", "none" },
	{ "-F --filter", "filter" },
	{ "-v --view", "view" }, { "-C --no-color", "none" }, { "-U --ascii", "none" },
	{ "-h --help", "none" }, { "-V --version", "none" },
};

static void print_complete(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(complete_table); i++)
		printf("%s %s\n", complete_table[i].opts, complete_table[i].arg);
	/* The values of an argument kind: the views of the view table. */
	printf("=view");
	for (i = 0; i < gt_view_count(); i++)
		printf(" %zu", i + 1);
	printf("\n");
}

#define SHORTOPTS "D:d:bn:o:F:v:CUhV"

/* One usage line, not the whole help, after a bad option. */
static int option_error(const struct option *longopts, int argc, char **argv)
{
	char msg[160];

	tool_getopt_error(msg, sizeof(msg), longopts, SHORTOPTS, argc, argv);
	fprintf(stderr, "gemtop: %s\n"
		"usage: gemtop [options]\n"
		"Try 'gemtop --help' for more information.\n", msg);
	return GT_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	enum { OPT_DEBUGFS = 256, OPT_FORMAT, OPT_COMPLETE, OPT_BYTES };
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'D' },
		{ "debugfs", required_argument, NULL, OPT_DEBUGFS },
		{ "delay", required_argument, NULL, 'd' },
		{ "batch", no_argument, NULL, 'b' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "output", required_argument, NULL, 'o' },
		{ "filter", required_argument, NULL, 'F' },
		{ "view", required_argument, NULL, 'v' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "ascii", no_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "complete", no_argument, NULL, OPT_COMPLETE },
		{ "bytes", no_argument, NULL, OPT_BYTES },
		{ NULL, 0, NULL, 0 },
	};
	struct gt_opts o = {
		.delay_ns = 1000000000ull,
		.format = GT_FMT_TEXT,
		.color = true,
		.filter = "",
		.view = 1,
	};
	struct sigaction sa;
	const char *nc = getenv("NO_COLOR"), *term;
	static struct gt_rc rc;		/* o.filter may point into it */
	enum { GIVEN_DELAY = 1, GIVEN_FILTER = 2, GIVEN_VIEW = 4, GIVEN_COLOR = 8,
	       GIVEN_ASCII = 16 };
	unsigned int given = 0;
	struct strbuf rcerr = STRBUF_INIT;
	char rcpath[4096];
	char *end;
	int c;

	if (nc && *nc)
		o.color = false;
	opterr = 0;	/* said below, in one line with a did-you-mean */
	while ((c = getopt_long(argc, argv, SHORTOPTS, longopts, NULL)) != -1) {
		switch (c) {
		case 'D':
			o.device = optarg;
			break;
		case OPT_DEBUGFS:
			o.debugfs_dir = optarg;
			break;
		case 'd':
			given |= GIVEN_DELAY;
			if (gt_parse_delay(optarg, &o.delay_ns)) {
				fprintf(stderr, "gemtop: invalid --delay '%s': expected "
					"a duration from 50ms to 1 day (1.5, 500ms)\n", optarg);
				return GT_EXIT_USAGE;
			}
			break;
		case 'b':
			o.batch = true;
			break;
		case 'n':
			errno = 0;
			o.iterations = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || o.iterations < 0) {
				fprintf(stderr, "gemtop: invalid --iterations '%s': expected "
					"a number >= 0\n", optarg);
				return GT_EXIT_USAGE;
			}
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "text")) {
				o.format = GT_FMT_TEXT;
			} else if (!strcmp(optarg, "json")) {
				o.format = GT_FMT_JSON;
			} else if (!strcmp(optarg, "csv")) {
				o.format = GT_FMT_CSV;
			} else {
				fprintf(stderr, "gemtop: invalid --format '%s': expected "
					"text, json or csv\n", optarg);
				return GT_EXIT_USAGE;
			}
			break;
		case 'o':
			o.output = optarg;
			break;
		case 'F':
			given |= GIVEN_FILTER;
			o.filter = optarg;
			break;
		case 'v':
			given |= GIVEN_VIEW;
			o.view = atoi(optarg);
			if (o.view < 1 || (unsigned int)o.view > gt_view_count()) {
				fprintf(stderr, "gemtop: invalid --view '%s': expected 1-%u\n",
					optarg, gt_view_count());
				return GT_EXIT_USAGE;
			}
			break;
		case 'C':
			given |= GIVEN_COLOR;
			o.color = false;
			break;
		case 'U':
			given |= GIVEN_ASCII;
			o.ascii = true;
			break;
		case 'h':
			usage(stdout);
			return GT_EXIT_OK;
		case 'V':
			printf("gemtop (gemkit) %s\n", PACKAGE_VERSION);
			return GT_EXIT_OK;
		case OPT_COMPLETE:
			print_complete();
			return GT_EXIT_OK;
		case OPT_BYTES:
			o.bytes = true;
			break;
		default:
			return option_error(longopts, argc, argv);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "gemtop: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return GT_EXIT_USAGE;
	}
	if (o.debugfs_dir && o.device) {
		fprintf(stderr, "gemtop: --device and --debugfs name two sources; "
			"give one\n");
		return GT_EXIT_USAGE;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	/* Leave through the loop, so curses restores the terminal. */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (o.batch) {
		setvbuf(stdout, NULL, _IOLBF, 0);
		return run_batch(&o);
	}
	/* gemtoprc (F2) for the interactive view, under the command line;
	 * batch output for scripts never depends on it. */
	gt_rc_defaults(&rc);
	if (gt_rc_path(rcpath, sizeof(rcpath)) == 0 &&
	    gt_rc_load(rcpath, &rc, &rcerr)) {
		fprintf(stderr, "gemtop: %s: %s\n", rcpath,
			rcerr.len ? rcerr.buf : strerror(errno));
		strbuf_release(&rcerr);
		return GT_EXIT_USAGE;
	}
	strbuf_release(&rcerr);
	if (!(given & GIVEN_DELAY))
		o.delay_ns = rc.delay_ns;
	if (!(given & GIVEN_COLOR) && !(nc && *nc))
		o.color = rc.color;
	if (!(given & GIVEN_ASCII))
		o.ascii = rc.ascii;
	if (!(given & GIVEN_VIEW))
		o.view = rc.view;
	if (!(given & GIVEN_FILTER))
		o.filter = rc.filter;
	o.sort = rc.sort;
	o.invert = rc.invert;
	if (o.output || o.format != GT_FMT_TEXT) {
		fprintf(stderr, "gemtop: --format and --output need -b\n");
		return GT_EXIT_USAGE;
	}
	/* A terminal that cannot move the cursor (an editor's shell, a
	 * serial console): the batch text, not escape codes. */
	term = getenv("TERM");
	if (term && !strcmp(term, "dumb")) {
		setvbuf(stdout, NULL, _IOLBF, 0);
		return run_batch(&o);
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "gemtop: not a terminal; use -b for batch output\n");
		return GT_EXIT_USAGE;
	}
	return gt_tui_run(&o);
}

/* The TUI polls this to leave on SIGINT, SIGTERM or SIGHUP. */
int gt_stop_requested(void)
{
	return stop_requested;
}
