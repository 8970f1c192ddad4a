/* gemd: the command line, daemonizing, signals and the pidfile. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <drm.h>

#include "connect.h"
#include "debugfs.h"
#include "gem.h"
#include "log.h"
#include "metrics-http.h"
#include "protocol.h"
#include "rundir.h"
#include "server.h"
#include "sockpath.h"
#include "strbuf.h"
#include "util.h"
#include "wire.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"	/* built without config.h */
#endif

#define EXIT_USAGE		2
#define APERTURE_MIN		(1ull << 20)
#define APERTURE_MAX		(512ull << 20)
#define APERTURE_DEFAULT	(256ull << 20)
#define HANGCHECK_DEFAULT_MS	1500	/* DRM_I915_HANGCHECK_PERIOD of 2.6.37+ */
#define BATCH_BUDGET_DEFAULT	4	/* hangcheck periods */
#define BATCH_BUDGET_MAX	1000
#define GPU_NICE_DEFAULT	(-10)	/* the GPU's thread; see gpu.h cs_nice */
#define ERROR_STATES_DEFAULT	4
#define STOP_TIMEOUT_MS		400	/* for the client threads to leave */

enum {
	OPT_DAEMON = 256,
	OPT_PIDFILE,
	OPT_APERTURE,
	OPT_GPU_RATE,
	OPT_SYSLOG,
	OPT_LOG_FILE,
	OPT_LOG_LEVEL,
	OPT_PING,
	OPT_DEBUGFS,
	OPT_NO_DEBUGFS,
	OPT_HANGCHECK,
	OPT_BATCH_BUDGET,
	OPT_GPU_NICE,
	OPT_ERROR_STATES,
	OPT_METRICS,
	OPT_GROUP,
	OPT_MODE,
	OPT_SHARE_NAMES,
	OPT_COMPLETE,
};

/* The options, their help and getopt's table all come from here. */
struct gemd_option {
	const char *name;
	int has_arg;
	int id;			/* short option character, or OPT_* */
	const char *argname;
	const char *kind;	/* what the argument is, for --complete */
	const char *help;	/* NULL: hidden */
};

static const struct gemd_option gemd_options[] = {
	{ "device", required_argument, 'D', "PATH", "socket",
	  "serve the device socket at PATH (default: see below)" },
	{ "daemon", no_argument, OPT_DAEMON, NULL, "none",
	  "run in the background; return once clients can connect" },
	{ "pidfile", required_argument, OPT_PIDFILE, "FILE", "file",
	  "write gemd's pid to FILE; refuse if FILE names a live process" },
	{ "aperture", required_argument, OPT_APERTURE, "SIZE", "size",
	  "GTT aperture size, a power of two from 1M to 512M (default 256M)" },
	{ "gpu-rate", required_argument, OPT_GPU_RATE, "BYTES_PER_SEC[,NS]", "rate",
	  "model blit throughput (e.g. 800M) and a per-command cost" },
	{ "gpu-nice", required_argument, OPT_GPU_NICE, "N", "number",
	  "the GPU thread's nice value, -20 to 0, when gemd may lower it "
	  "(default -10: a GPU does not wait for CPUs; 0: gemd's own)" },
	{ "hangcheck", required_argument, OPT_HANGCHECK, "DUR", "duration",
	  "declare the GPU hung after DUR without progress (default 1.5s, 0: off)" },
	{ "batch-budget", required_argument, OPT_BATCH_BUDGET, "N", "number",
	  "declare a batch runaway after N hangcheck periods of GPU time "
	  "in loops (default 4, 0: never)" },
	{ "error-states", required_argument, OPT_ERROR_STATES, "N", "number",
	  "keep the last N hang captures in gemkit_errors/ (default 4)" },
	{ "group", required_argument, OPT_GROUP, "GROUP", "group",
	  "let GROUP's members connect (the socket becomes 0660, group GROUP)" },
	{ "mode", required_argument, OPT_MODE, "MODE", "mode",
	  "the socket's mode, octal (default 0600: gemd's user only)" },
	{ "share-names", no_argument, OPT_SHARE_NAMES, NULL, "none",
	  "let every client open every flink name, as the kernel does "
	  "(default: only names of its own user's)" },
	{ "debugfs", required_argument, OPT_DEBUGFS, "DIR", "dir",
	  "mount the debugfs tree at DIR/dri/0 (default <socket path>.debugfs)" },
	{ "no-debugfs", no_argument, OPT_NO_DEBUGFS, NULL, "none",
	  "do not mount a debugfs tree" },
	{ "metrics", required_argument, OPT_METRICS, "[ADDR:]PORT", "port",
	  "serve GET /metrics for Prometheus over HTTP (ADDR default 127.0.0.1)" },
	{ "syslog", no_argument, OPT_SYSLOG, NULL, "none",
	  "log to syslog (with --daemon: if there is one, else to gemd.log "
	  "beside the socket)" },
	{ "log-file", required_argument, OPT_LOG_FILE, "FILE", "file",
	  "append the log to FILE instead" },
	{ "verbose", no_argument, 'v', NULL, "none",
	  "log more: info, then debug (repeatable)" },
	{ "quiet", no_argument, 'q', NULL, "none", "log errors only" },
	{ "log-level", required_argument, OPT_LOG_LEVEL, "LEVEL", "level",
	  "error, warning, notice (default), info or debug" },
	{ "help", no_argument, 'h', NULL, "none", "show this help and exit" },
	{ "version", no_argument, 'V', NULL, "none", "show the version and exit" },
	/* Connects to a running gemd and prints its driver name (tests). */
	{ "ping", no_argument, OPT_PING, NULL, "none", NULL },
	/* The option table for completions/gemd and completions/_gemd. */
	{ "complete", no_argument, OPT_COMPLETE, NULL, "none", NULL },
};

/* --log-level's names; --complete offers the first five. */
static const struct { const char *name; int level; } log_levels[] = {
	{ "error", LOG_ERR }, { "warning", LOG_WARNING },
	{ "notice", LOG_NOTICE }, { "info", LOG_INFO }, { "debug", LOG_DEBUG },
	{ "err", LOG_ERR }, { "warn", LOG_WARNING },
};
#define LOG_LEVELS_OFFERED	5

struct gemd_opts {
	const char *device;
	const char *pidfile;
	const char *log_file;
	const char *debugfs;
	bool no_debugfs;
	const char *metrics;		/* --metrics, as given */
	struct metrics_addr metrics_addr;
	struct gem_device_config dev;
	int level;
	bool daemon;
	bool use_syslog;
	bool ping;
	mode_t socket_mode;	/* 0: the server's default */
	bool has_group;
	gid_t group;
};

static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("gemd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'gemd --help' for more information.\n", stderr);
	exit(EXIT_USAGE);
}

static void show_help(void)
{
	size_t i;

	printf("Usage: gemd [OPTION]...\n"
	       "Serve a simulated Intel 945G through the i915 GEM ioctl interface.\n\n");
	for (i = 0; i < ARRAY_SIZE(gemd_options); i++) {
		const struct gemd_option *o = &gemd_options[i];
		const char *arg = o->argname ? o->argname : "";
		const char *sep = o->argname ? " " : "";
		char left[64];

		if (!o->help)
			continue;
		if (o->id < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->id,
				 o->name, sep, arg);
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name, sep, arg);
		if (strlen(left) > 32)	/* GNU style: help on the next line */
			printf("  %s\n  %-32s %s\n", left, "", o->help);
		else
			printf("  %-32s %s\n", left, o->help);
	}
	printf("\nThe device path is -D, else $GEM_DEVICE, else $XDG_RUNTIME_DIR/gemkit/card0,\n"
	       "else /run/gemkit/card0 for root and /tmp/gemkit-$UID/card0 for others.\n"
	       "SIGTERM, SIGINT and SIGHUP shut gemd down cleanly.\n"
	       "Exit status: 0 clean exit, 1 runtime failure, 2 usage error.\n");
}

static int parse_level(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(log_levels); i++)
		if (!strcasecmp(s, log_levels[i].name))
			return log_levels[i].level;
	if (s[0] >= '0' && s[0] <= '7' && !s[1])
		return s[0] - '0';
	return -1;
}

/*
 * --complete (hidden): the option table for the shell completions, as
 * gemtop and gemdump print theirs: the names of an option, then what its
 * argument is (none, socket, file, dir, group, level, or a kind the
 * completions leave to the user); then "=level ..." gives the log levels.
 */
static void print_complete(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gemd_options); i++) {
		const struct gemd_option *o = &gemd_options[i];

		if (!o->help)
			continue;
		if (o->id < 256)
			printf("-%c ", o->id);
		printf("--%s %s\n", o->name, o->kind);
	}
	printf("=level");
	for (i = 0; i < LOG_LEVELS_OFFERED; i++)
		printf(" %s", log_levels[i].name);
	printf("\n");
}

static void parse_aperture(const char *s, uint64_t *out)
{
	uint64_t v;

	if (parse_size(s, &v) || v < APERTURE_MIN || v > APERTURE_MAX ||
	    (v & (v - 1)))
		usage_error("invalid --aperture '%s': must be a power of two "
			    "from 1M to 512M", s);
	*out = v;
}

/* "800M" or "800M,2500": bytes per second, then nanoseconds per command
 * (a bare number; "2us" and the like are accepted too). */
static void parse_gpu_rate(const char *s, struct gem_device_config *cfg)
{
	char rate[64];
	const char *comma = strchr(s, ','), *ns;
	size_t n = comma ? (size_t)(comma - s) : strlen(s);
	char *end;

	if (n >= sizeof(rate))
		usage_error("invalid --gpu-rate '%s'", s);
	memcpy(rate, s, n);
	rate[n] = '\0';
	if (parse_size(rate, &cfg->blit_bytes_per_sec))
		usage_error("invalid --gpu-rate '%s': '%s' is not a rate in "
			    "bytes per second", s, rate);
	if (!comma)
		return;
	ns = comma + 1;
	if (*ns >= '0' && *ns <= '9') {
		errno = 0;
		cfg->cmd_cost_ns = strtoull(ns, &end, 10);
		if (!*end && !errno)
			return;
		if (!parse_duration_ns(ns, &cfg->cmd_cost_ns))
			return;
	}
	usage_error("invalid --gpu-rate '%s': '%s' is not a duration", s, ns);
}

/* A duration as every option takes one (a bare number is seconds),
 * kept in milliseconds as i915.enable_hangcheck's period was. */
static void parse_hangcheck(const char *s, uint32_t *out)
{
	uint64_t ns;

	if (parse_duration_ns(s, &ns) || ns > 3600000000000ull ||
	    (ns && ns < 1000000))
		usage_error("invalid --hangcheck '%s': a duration from 1ms to 1h "
			    "(e.g. 100ms, 1.5s), or 0 (off)", s);
	*out = (uint32_t)(ns / 1000000);
}

/* A count from 0 to max, for --batch-budget and --error-states. */
static uint32_t parse_count(const char *opt, const char *s, uint32_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-' || v > max)
		usage_error("invalid --%s '%s': must be a number from 0 to %u",
			    opt, s, max);
	return (uint32_t)v;
}

/* A nice value for --gpu-nice: only lower than gemd's own means anything. */
static int parse_nice(const char *s)
{
	long v;
	char *end;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < -20 || v > 0)
		usage_error("invalid --gpu-nice '%s': must be a number from -20 to 0", s);
	return (int)v;
}

static void parse_metrics(const char *s, struct gemd_opts *o)
{
	char err[512];

	if (metrics_addr_parse(s, &o->metrics_addr, err, sizeof(err)))
		usage_error("%s", err);
	o->metrics = s;
}

/* A group name or number. */
static void parse_group(const char *s, struct gemd_opts *o)
{
	struct group *gr = getgrnam(s);
	unsigned long long v;
	char *end;

	if (gr) {
		o->group = gr->gr_gid;
	} else {
		errno = 0;
		v = strtoull(s, &end, 10);
		if (!*s || *end || errno || s[0] == '-' || v >= (gid_t)-1)
			usage_error("invalid --group '%s': no such group", s);
		o->group = (gid_t)v;
	}
	o->has_group = true;
}

/* Octal permission bits; no set-id or sticky bits on a socket. */
static void parse_mode(const char *s, mode_t *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 8);
	if (!*s || *end || errno || s[0] == '-' || v > 0777 || !(v & 0600))
		usage_error("invalid --mode '%s': must be octal permissions "
			    "from 0600 to 0777 that let gemd's user in", s);
	*out = (mode_t)v;
}

static void parse_options(int argc, char **argv, struct gemd_opts *o)
{
	struct option longopts[ARRAY_SIZE(gemd_options) + 1];
	char shortopts[3 * ARRAY_SIZE(gemd_options) + 2], *sp = shortopts;
	int verbose = 0, c, level = -1;
	bool quiet = false;
	size_t i;

	*sp++ = ':';	/* report a missing argument as ':' */
	for (i = 0; i < ARRAY_SIZE(gemd_options); i++) {
		const struct gemd_option *g = &gemd_options[i];

		longopts[i] = (struct option){ g->name, g->has_arg, NULL, g->id };
		if (g->id < 256) {
			*sp++ = (char)g->id;
			if (g->has_arg == required_argument)
				*sp++ = ':';
		}
	}
	longopts[i] = (struct option){ NULL, 0, NULL, 0 };
	*sp = '\0';

	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'D':
			o->device = optarg;
			break;
		case OPT_DAEMON:
			o->daemon = true;
			break;
		case OPT_PIDFILE:
			o->pidfile = optarg;
			break;
		case OPT_APERTURE:
			parse_aperture(optarg, &o->dev.aperture_size);
			break;
		case OPT_GPU_RATE:
			parse_gpu_rate(optarg, &o->dev);
			break;
		case OPT_SYSLOG:
			o->use_syslog = true;
			break;
		case OPT_LOG_FILE:
			o->log_file = optarg;
			break;
		case 'v':
			verbose++;
			break;
		case 'q':
			quiet = true;
			break;
		case OPT_LOG_LEVEL:
			level = parse_level(optarg);
			if (level < 0)
				usage_error("invalid --log-level '%s'", optarg);
			break;
		case 'h':
			show_help();
			exit(0);
		case 'V':
			printf("gemd (gemkit) %s\n", PACKAGE_VERSION);
			exit(0);
		case OPT_PING:
			o->ping = true;
			break;
		case OPT_COMPLETE:
			print_complete();
			exit(0);
		case OPT_DEBUGFS:
			o->debugfs = optarg;
			break;
		case OPT_NO_DEBUGFS:
			o->no_debugfs = true;
			break;
		case OPT_METRICS:
			parse_metrics(optarg, o);
			break;
		case OPT_GROUP:
			parse_group(optarg, o);
			break;
		case OPT_MODE:
			parse_mode(optarg, &o->socket_mode);
			break;
		case OPT_SHARE_NAMES:
			o->dev.share_names = true;
			break;
		case OPT_HANGCHECK:
			parse_hangcheck(optarg, &o->dev.hangcheck_ms);
			break;
		case OPT_GPU_NICE:
			o->dev.gpu_nice = parse_nice(optarg);
			break;
		case OPT_BATCH_BUDGET:
			o->dev.batch_budget = parse_count("batch-budget", optarg,
							  BATCH_BUDGET_MAX);
			break;
		case OPT_ERROR_STATES:
			o->dev.error_states = parse_count("error-states", optarg,
							  GEM_ERROR_RECORDS_MAX);
			break;
		case ':':
			usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			if (optopt && optopt < 256)
				usage_error("unknown option '-%c'", optopt);
			usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (o->has_group && !o->socket_mode)
		o->socket_mode = 0660;
	o->level = level >= 0 ? level : quiet ? LOG_ERR :
		   MIN(LOG_NOTICE + verbose, LOG_DEBUG);
}

/* --- --ping: OPEN, HELLO and VERSION, without libgem ------------------ */

/* Everything a client does first: a file, a channel, DRM_IOCTL_VERSION. */
static int ping(const char *path)
{
	struct strbuf reply = STRBUF_INIT, extra = STRBUF_INIT, payload = STRBUF_INIT;
	char name[64] = "";
	struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };
	struct wire_client_call call;
	struct gem_open_reply open_rep;
	struct iovec iov;
	struct wire_call wc = {
		.type = GEM_MSG_IOCTL, .request = DRM_IOCTL_VERSION,
		.iov = &iov, .iovcnt = 1, .reply = &reply,
	};
	int file_fd = -1, ch_fd = -1, ret;
	const char *step = "open";

	file_fd = channel_connect(path, GEM_MSG_OPEN, true, true, &open_rep,
				  sizeof(open_rep));
	if (file_fd < 0) {
		ret = file_fd;
		goto out;
	}
	step = "channel";
	ch_fd = channel_connect(path, GEM_MSG_HELLO, false, true, NULL, 0);
	if (ch_fd < 0) {
		ret = ch_fd;
		goto out;
	}
	step = "DRM_IOCTL_VERSION";
	ret = wire_client_pack(&call, DRM_IOCTL_VERSION, &v, &extra);
	if (!ret)
		ret = wire_client_payload(&call, &extra, &payload);
	if (ret)
		goto out;
	iov = (struct iovec){ payload.buf, payload.len };
	wc.file = open_rep.file;
	ret = wire_call(ch_fd, &wc);
	if (!ret)
		ret = wc.result;
	if (ret >= 0)
		ret = wire_client_unpack(&call, ret, reply.buf, reply.len);
	if (ret)
		goto out;
	printf("%s\n", name);
out:
	if (ret)
		fprintf(stderr, "gemd: ping %s: %s: %s\n", path, step, strerror(-ret));
	if (ch_fd >= 0)
		close(ch_fd);
	if (file_fd >= 0)
		close(file_fd);
	strbuf_release(&reply);
	strbuf_release(&extra);
	strbuf_release(&payload);
	return ret ? 1 : 0;
}

/* --- start-up failure reporting ---------------------------------------- */

/*
 * With --daemon the parent waits on a pipe: the child writes "ok" once
 * clients can connect, or the reason it could not start.  Without it the
 * reason goes to the stderr gemd was started with (user_fd), and to the
 * log too when the log goes elsewhere.
 */
static int notify_fd = -1;
static int user_fd = STDERR_FILENO;
static bool log_elsewhere;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void fail(const char *fmt, ...)
{
	/* Whole, however long: an error naming a deep path must not lose
	 * its end (the reason). */
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (log_elsewhere)
		log_err("%s", msg.buf);
	if (notify_fd >= 0) {
		write_full(notify_fd, msg.buf, msg.len);
	} else {
		strbuf_addch(&msg, '\n');
		write_full(user_fd, "gemd: ", 6);
		write_full(user_fd, msg.buf, msg.len);
	}
	strbuf_release(&msg);
	exit(1);
}

static void notify_ready(void)
{
	if (notify_fd < 0)
		return;
	write_full(notify_fd, "ok", 2);
	close(notify_fd);
	notify_fd = -1;
}

/* Fork; the parent returns only as the child's exit status says. */
static void daemonize(void)
{
	struct strbuf msg = STRBUF_INIT;
	int p[2], null;
	long n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0) {
		fprintf(stderr, "gemd: pipe: %s\n", strerror(errno));
		exit(1);
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "gemd: fork: %s\n", strerror(errno));
		exit(1);
	}
	if (pid > 0) {
		close(p[1]);
		n = strbuf_read_fd(&msg, p[0]);
		if (n == 2 && !memcmp(msg.buf, "ok", 2))
			exit(0);
		if (n <= 0)
			fprintf(stderr, "gemd: the daemon exited before it could "
				"serve (see its log)\n");
		else
			fprintf(stderr, "gemd: %s\n", msg.buf);
		exit(1);
	}
	close(p[0]);
	notify_fd = p[1];
	setsid();
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);	/* --log-file replaces it later */
		if (null > STDERR_FILENO)
			close(null);
	}
}

/* --- pidfile ------------------------------------------------------------ */

#define PIDFILE_FLAGS	(O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC)

static char pidfile_path[PATH_MAX];

/* Absolute, because the daemon leaves its working directory. */
static int pidfile_set(const char *path)
{
	char cwd[PATH_MAX];
	int n;

	if (path[0] == '/') {
		n = snprintf(pidfile_path, sizeof(pidfile_path), "%s", path);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return -errno;
		n = snprintf(pidfile_path, sizeof(pidfile_path), "%s/%s", cwd, path);
	}
	return n < 0 || (size_t)n >= sizeof(pidfile_path) ? -ENAMETOOLONG : 0;
}

static pid_t pidfile_read(void)
{
	char buf[32];
	ssize_t n;
	long pid;
	char *end;
	int fd = open(pidfile_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return 0;
	n = read_full(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, &end, 10);
	if (end == buf || pid <= 0 || pid > INT_MAX)
		return 0;
	return (pid_t)pid;
}

/* 0, or -errno with the reason in err. */
static int pidfile_write(char *err, size_t errlen)
{
	pid_t pid = pidfile_read();
	char buf[32];
	int fd, n, ret;

	if (pid > 0 && pid != getpid() && process_running(pid)) {
		snprintf(err, errlen, "pidfile %s names a running process (pid %d)",
			 pidfile_path, (int)pid);
		return -EEXIST;
	}
	/* Created afresh, never through a symlink or into a file someone
	 * else left: a stale pidfile (its process is gone) is removed first,
	 * which in a sticky directory works only for our own. */
	fd = open(pidfile_path, PIDFILE_FLAGS, 0644);
	if (fd < 0 && errno == EEXIST && unlink(pidfile_path) == 0)
		fd = open(pidfile_path, PIDFILE_FLAGS, 0644);
	if (fd < 0) {
		ret = -errno;
		goto out_err;
	}
	n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
	ret = (int)write_full(fd, buf, (size_t)n);
	close(fd);
	if (ret >= 0)
		return 0;
out_err:
	snprintf(err, errlen, "cannot write pidfile %s: %s", pidfile_path,
		 strerror(-ret));
	return ret;
}

/* Only our own: a successor may already have written its pid. */
static void pidfile_remove(void)
{
	if (pidfile_path[0] && pidfile_read() == getpid())
		unlink(pidfile_path);
}

/* --- main ---------------------------------------------------------------- */

/* Is a syslog daemon listening on /dev/log? */
static bool syslog_available(void)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	bool ok;

	if (fd < 0)
		return false;
	ok = sockpath_connect(fd, "/dev/log") == 0;
	close(fd);
	return ok;
}

/*
 * Where a daemon logs unless told: syslog if there is one, else a file a
 * user finds, gemd.log beside the socket (the runtime directory for the
 * default socket).  NULL: syslog.
 */
static const char *daemon_log_file(const char *socket_path)
{
	static char path[PATH_MAX];
	const char *slash = strrchr(socket_path, '/');
	int n;

	if (syslog_available())
		return NULL;
	if (!slash)
		n = snprintf(path, sizeof(path), "gemd.log");
	else
		n = snprintf(path, sizeof(path), "%.*s/gemd.log",
			     (int)(slash - socket_path), socket_path);
	return n > 0 && (size_t)n < sizeof(path) ? path : NULL;
}

/*
 * Append to our own regular file only: not through a symlink, and not to
 * a file another user left in a shared directory for us to write.  A
 * character device (/dev/null, a terminal) is no such trap: its
 * permissions already decide who may write it.
 */
static int log_file_open(const char *path)
{
	struct stat st;
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW,
		      0644);

	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	if (fstat(fd, &st) < 0 ||
	    !(S_ISCHR(st.st_mode) || (S_ISREG(st.st_mode) && st.st_uid == geteuid()))) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* log.c writes to stderr or syslog, so a log file becomes stderr. */
static void setup_logging(const struct gemd_opts *o, const char *socket_path)
{
	const char *log_file = o->log_file;
	bool use_syslog = o->use_syslog;

	if (o->daemon && !log_file && !use_syslog) {
		log_file = daemon_log_file(socket_path);
		use_syslog = !log_file;
	}
	if (log_file) {
		int fd = log_file_open(log_file);

		/* The socket's directory, made before the socket is (with
		 * the mode server_start would give it). */
		if (fd == -ENOENT && log_file != o->log_file &&
		    make_parent_dirs(log_file, 0755) == 0)
			fd = log_file_open(log_file);
		if (fd == -EPERM)
			fail("log file %s is not a file of gemd's user; refusing "
			     "to append to it", log_file);
		if (fd < 0)
			fail("cannot open log file %s: %s", log_file, strerror(-fd));
		user_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	log_elsewhere = use_syslog || log_file;
	log_init("gemd", use_syslog, o->level);
	/* Every line of a file (or of a terminal) says when. */
	log_set_timestamps(!use_syslog);
}

/*
 * The default socket's directory: made 0700 (0711 when --group or --mode
 * let others connect: they may reach the socket, not list or write), and
 * refused unless it is ours alone (rundir.h).
 */
static int prepare_rundir(const struct gemd_opts *o)
{
	struct strbuf why = STRBUF_INIT;
	char rt[PATH_MAX];
	int ret;

	ret = gem_runtime_dir(rt, sizeof(rt));
	if (!ret)
		ret = make_parent_dirs(rt, 0755);
	if (!ret)
		ret = rundir_prepare(rt, o->socket_mode & 0077 ? 0711 : 0700, &why);
	if (ret)
		fprintf(stderr, "gemd: %s\n", why.len ? why.buf : strerror(-ret));
	strbuf_release(&why);
	return ret;
}

/*
 * The debugfs mount is a convenience: gemd serves its device without it.
 * By default it is named after the socket (<socket path>.debugfs), so two
 * gemds never share one; the tools ask gemd where it is (GEM_MSG_MOUNT).
 */
static struct gem_debugfs *start_debugfs(const struct gemd_opts *o,
					 struct gem_device *dev, struct server *srv)
{
	struct gem_debugfs *dfs = NULL;
	struct strbuf dir = STRBUF_INIT;
	int ret;

	if (o->no_debugfs)
		return NULL;
	if (o->debugfs)
		strbuf_addstr(&dir, o->debugfs);
	else
		strbuf_addf(&dir, "%s.debugfs", server_path(srv));
	ret = gem_debugfs_start(dev, dir.buf, &dfs);
	if (ret == -ENODEV)
		log_notice("debugfs: FUSE unavailable; not mounted at %s", dir.buf);
	else if (ret)
		log_err("debugfs: cannot mount at %s: %s", dir.buf, strerror(-ret));
	else
		log_info("debugfs mounted at %s/dri/0", dir.buf);
	strbuf_release(&dir);
	if (!ret && server_set_mount(srv, gem_debugfs_dir(dfs),
				     (uint64_t)gem_debugfs_dev(dfs)))
		log_warn("debugfs: the tools will read over the socket: %s",
			 strerror(ENOMEM));
	return ret ? NULL : dfs;
}

static void unblock_device(void *data)
{
	gem_device_unblock(data);
}

/* Signals are taken synchronously from a signalfd, never in a handler. */
static int block_signals(void)
{
	sigset_t set;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	/* Before any thread exists, so every thread inherits the mask. */
	sigprocmask(SIG_BLOCK, &set, NULL);
	return signalfd(-1, &set, SFD_CLOEXEC);
}

static int wait_for_signal(int sfd)
{
	struct signalfd_siginfo si;
	ssize_t n = read_full(sfd, &si, sizeof(si));

	return n == (ssize_t)sizeof(si) ? (int)si.ssi_signo : 0;
}

/*
 * Each connection is a descriptor (budget.h allows BUDGET_CONNS), and the
 * soft limit a service starts with is often 1024: take the hard limit, as
 * daemons that serve many clients do.  gemd never uses select().
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		log_warn("cannot raise the open-file limit: %s", strerror(errno));
}

int main(int argc, char **argv)
{
	struct gemd_opts o = { .dev.aperture_size = APERTURE_DEFAULT,
			       .dev.hangcheck_ms = HANGCHECK_DEFAULT_MS,
			       .dev.batch_budget = BATCH_BUDGET_DEFAULT,
			       .dev.gpu_nice = GPU_NICE_DEFAULT,
			       .dev.error_states = ERROR_STATES_DEFAULT };
	struct server_config scfg = { 0 };
	struct metrics_http *mh = NULL;
	struct gem_debugfs *dfs;
	struct gem_device *dev;
	struct server *srv;
	char err[PATH_MAX + 256];
	int sfd, sig, ret;
	bool busy, default_path;

	parse_options(argc, argv, &o);
	default_path = !(o.device && *o.device) && !(getenv("GEM_DEVICE") &&
						      *getenv("GEM_DEVICE"));
	scfg.path = gem_device_path(o.device);
	if (!scfg.path) {
		fprintf(stderr, "gemd: cannot work out the device path: %s\n",
			strerror(errno));
		return 1;
	}
	if (o.ping)
		return ping(scfg.path);
	if (o.pidfile && pidfile_set(o.pidfile)) {
		fprintf(stderr, "gemd: pidfile path too long: %s\n", o.pidfile);
		return 1;
	}

	sfd = block_signals();
	if (sfd < 0) {
		fprintf(stderr, "gemd: signalfd: %s\n", strerror(errno));
		return 1;
	}
	if (default_path && prepare_rundir(&o))
		return 1;
	if (o.daemon)
		daemonize();
	setup_logging(&o, scfg.path);
	raise_fd_limit();

	ret = gem_device_create(&o.dev, &dev);
	if (ret)
		fail("cannot create the device: %s", strerror(-ret));
	scfg.dev = dev;
	/* Shutdown is bounded (about half a second): waits inside the
	 * driver end at once, and a thread that does not come back in time
	 * is not waited for. */
	scfg.unblock = unblock_device;
	scfg.unblock_data = dev;
	scfg.stop_timeout_ms = STOP_TIMEOUT_MS;
	scfg.socket_mode = o.socket_mode;
	scfg.has_group = o.has_group;
	scfg.group = o.group;
	ret = server_start(&scfg, &srv, err, sizeof(err));
	if (ret)
		fail("%s", err);
	dfs = start_debugfs(&o, dev, srv);
	/* Asked for, so a port that cannot be had stops gemd. */
	if (o.metrics && metrics_http_start(dev, &o.metrics_addr, &mh, err, sizeof(err))) {
		gem_debugfs_stop(dfs);
		if (server_stop(srv) == 0)
			gem_device_destroy(dev);
		fail("%s", err);
	}
	/* After the socket, whose error says more when both would fail. */
	if (o.pidfile && pidfile_write(err, sizeof(err))) {
		metrics_http_stop(mh);
		gem_debugfs_stop(dfs);
		if (server_stop(srv) == 0)
			gem_device_destroy(dev);
		fail("%s", err);
	}
	/* Clients are served only now, the debugfs mount in place: a tool
	 * that got an answer finds the tree it is sent to. */
	if (server_accept(srv, err, sizeof(err))) {
		pidfile_remove();
		metrics_http_stop(mh);
		gem_debugfs_stop(dfs);
		if (server_stop(srv) == 0)
			gem_device_destroy(dev);
		fail("%s", err);
	}
	if (o.daemon && chdir("/") < 0)
		log_warn("chdir /: %m");
	log_notice("gemkit %s serving %s (aperture %llu MiB)", PACKAGE_VERSION,
		   server_path(srv), (unsigned long long)(o.dev.aperture_size >> 20));
	if (mh)
		log_notice("metrics at http://%s/metrics", metrics_http_where(mh));
	notify_ready();

	sig = wait_for_signal(sfd);
	log_notice("%s: shutting down", sig ? strsignal(sig) : "signalfd");
	metrics_http_stop(mh);
	server_set_mount(srv, NULL, 0);		/* no tool is sent there now */
	busy = gem_debugfs_stop(dfs) < 0;
	ret = server_stop(srv);
	pidfile_remove();
	if (busy || ret == -EBUSY)
		_exit(0);	/* threads still in the driver: no teardown under them */
	gem_device_destroy(dev);
	close(sfd);
	return 0;
}
