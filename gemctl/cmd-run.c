/*
 * gemctl run [-D PATH] [--private] [--gemd-opt OPT]... [--] PROGRAM [ARGS]:
 * run an unmodified DRM program against gemd with the interposer
 * (libgemkit-preload.so) preloaded.
 *
 * With --private (or --gemd-opt), or if no gemd answers at the device
 * path, a private one is started for the run (in a fresh directory, with
 * its own debugfs tree) and stopped afterwards.  Joining a gemd that
 * answers is said in one line on stderr, and a gemd of another user (as
 * SO_PEERCRED says) is never joined: another rig's state, or another
 * user's, is not this run's.  IGT insists on a writable i915_gem_drop_caches under
 * /sys/kernel/debug/dri/0: as root the program gets a private mount
 * namespace where a tmpfs on /sys/kernel/debug holds gemd's debugfs tree
 * (or, without one, the two files IGT needs); otherwise the interposer
 * redirects /sys/kernel/debug to gemd's tree (GEMKIT_DEBUGFS).  That
 * namespace would hold a copy of every FUSE mount on the machine, and
 * keep other gemds' debugfs trees alive after they stop: every gemkit
 * mount but our gemd's is detached from it.
 *
 * What gemd saw during the run (hangs, bans, a wedged GPU) is said in one
 * line on stderr; when that happened or the program failed, a private
 * gemd's log and error states are kept and the line says where.
 *
 * The exit status is PROGRAM's, 128 + N if signal N killed it, 127 if it
 * could not be run (126: found but not executable).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "gemctl.h"
#include "gemdebugfs.h"
#include "libgem.h"
#include "locate.h"
#include "preload-paths.h"
#include "session.h"
#include "strbuf.h"
#include "util.h"

#define PRELOAD_NAME	GEMKIT_PRELOAD_NAME
#define DEBUGFS_ROOT	"/sys/kernel/debug"

struct run {
	const char *device;	/* the socket the program uses */
	char *own_device;	/* the private gemd's, to free */
	struct strbuf priv;	/* private gemd's directory, or empty */
	struct strbuf debugfs;	/* a dir holding dri/0, or empty */
	struct strbuf preload;
	struct strbuf gemd;
	struct strbuf fake;	/* our stand-in debugfs dir, or empty */
	pid_t gemd_pid;
	bool keep;		/* keep the private gemd's directory */
	bool private_gemd;	/* --private: never join one */
	const char **gemd_opts;	/* --gemd-opt, in order */
	size_t ngemd_opts;
};

/* What gemd counted, before and after the program. */
struct run_counts {
	bool valid;
	uint64_t hangs, bans, wedged;
};

enum { RUN_OPT_PRIVATE = 256, RUN_OPT_GEMD_OPT };

static const struct tool_opt run_opts[] = {
	{ "device", 'D', 'D', TOOL_ARG_FILE, "PATH",
	  "the gemd socket (default: the device path rule)" },
	{ "private", 0, RUN_OPT_PRIVATE, TOOL_ARG_NONE, NULL,
	  "start a gemd of its own even if one answers" },
	{ "gemd-opt", 0, RUN_OPT_GEMD_OPT, TOOL_ARG_VALUE, "OPT",
	  "one argument for the private gemd's command line\n"
	  "(repeatable, e.g. --gemd-opt=--aperture=64M); implies --private" },
	TOOL_OPT_END
};

static void run_usage(FILE *f)
{
	fputs("usage: gemctl run [-D PATH] [--private] [--gemd-opt OPT]... [--] PROGRAM [ARGS]...\n"
	      "Run PROGRAM with /dev/dri/card0 served by gemd (the gemkit interposer).\n"
	      "Joins the gemd that answers (said on stderr), never another user's;\n"
	      "starts a private one if none answers or with --private.  Exit status:\n"
	      "PROGRAM's, 128+N if killed by signal N, 127 if it cannot be run.\n", f);
}

/*
 * The build tree first (gemctl runs as gemctl/.libs/lt-gemctl there, next
 * to ../../gemd and ../../.libs/), then the install locations relative
 * to this gemctl (a DESTDIR or moved install), then the configured ones.
 */
static int find_files(struct run *r)
{
	static const char *const gemds[] = { "gemd", "../gemd", "../../gemd", NULL };
	static const char *const preloads[] = {
		".libs/" PRELOAD_NAME, "../.libs/" PRELOAD_NAME,
		"../../.libs/" PRELOAD_NAME,
		GEMKIT_BIN_TO_PKGLIBDIR "/" PRELOAD_NAME, NULL,
	};
	char exe[PATH_MAX];
	const char *env = getenv("GEMKIT_PRELOAD");

	if (!locate_self_dir(exe, sizeof(exe)))
		exe[0] = '\0';
	if (env && *env) {
		strbuf_addstr(&r->preload, env);
	} else if (!exe[0] || !locate_near(&r->preload, exe, preloads, false)) {
		strbuf_reset(&r->preload);
		strbuf_addstr(&r->preload, GEMKIT_PKGLIBDIR "/" PRELOAD_NAME);
	}
	if (!locate_is_file(r->preload.buf, false)) {
		fprintf(stderr, "gemctl run: %s: %s\n", r->preload.buf, strerror(ENOENT));
		return -ENOENT;
	}
	if (!exe[0] || !locate_near(&r->gemd, exe, gemds, true)) {
		strbuf_reset(&r->gemd);
		strbuf_addstr(&r->gemd, GEMKIT_BINDIR "/gemd");
	}
	return 0;
}

/*
 * The gemd answering at r->device, if any: *joined (said on stderr), or
 * not when none answers.  GEMCTL_NODEV when it is another user's.
 */
static int join_gemd(struct run *r, bool *joined)
{
	struct gdfs *src;
	pid_t pid = 0;
	uid_t uid = (uid_t)-1;

	*joined = false;
	if (gdfs_open_socket(r->device, &src))
		return GEMCTL_OK;
	gdfs_peer(src, &pid, &uid);
	gdfs_close(src);
	if (uid != geteuid()) {
		fprintf(stderr, "gemctl run: the gemd at %s (pid %d) is uid %d's, "
			"not yours (uid %d); refusing to join it (--private "
			"starts one of your own)\n", r->device, (int)pid,
			(int)uid, (int)geteuid());
		return GEMCTL_NODEV;
	}
	fprintf(stderr, "gemctl run: joining gemd %d at %s (--private for "
		"a gemd of its own)\n", (int)pid, r->device);
	*joined = true;
	return GEMCTL_OK;
}

/* gemd's debugfs tree, where that gemd says it is (and only if it is). */
static void find_debugfs(struct run *r)
{
	struct gdfs *src;

	if (gdfs_open_socket(r->device, &src))
		return;
	if (gdfs_mount_dir(src, &r->debugfs))
		strbuf_reset(&r->debugfs);
	gdfs_close(src);
}

/* 0 if unreadable: then the daemon cannot be stopped, only left. */
static pid_t read_pidfile(const char *path)
{
	FILE *f = fopen(path, "re");
	int pid = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%d", &pid) != 1 || pid < 0)
		pid = 0;
	fclose(f);
	return pid;
}

/*
 * A new directory for a private gemd or a stand-in debugfs, under
 * $TMPDIR as mkdtemp(3)'s callers do (a test rig keeps its runs' leftovers
 * in its own scratch), else /tmp: its path in dir, 0 or -errno.
 */
static int run_mkdtemp(struct strbuf *dir)
{
	const char *base = getenv("TMPDIR");

	if (!base || base[0] != '/')
		base = "/tmp";
	strbuf_reset(dir);
	if (strbuf_addf(dir, "%s/gemctl-run.XXXXXX", base))
		return -ENOMEM;
	return mkdtemp(dir->buf) ? 0 : -errno;
}

static int start_gemd(struct run *r)
{
	struct strbuf dev = STRBUF_INIT, pid = STRBUF_INIT, log = STRBUF_INIT;
	struct strbuf tmp = STRBUF_INIT;
	const char *tmpl;
	const char **args = NULL;
	size_t n = 0, i;
	int status, ret = -EIO;
	pid_t child;

	ret = run_mkdtemp(&tmp);
	if (ret) {
		fprintf(stderr, "gemctl run: mkdtemp %s: %s\n", tmp.buf, strerror(-ret));
		strbuf_release(&tmp);
		return ret;
	}
	tmpl = tmp.buf;
	ret = -EIO;
	/* Reachable by every user, as /dev/dri/card0 is: a program that
	 * drops root (IGT's igt_drop_root) still opens the device. */
	chmod(tmpl, 0755);
	strbuf_addstr(&r->priv, tmpl);
	strbuf_addf(&dev, "%s/card0", tmpl);
	strbuf_addf(&pid, "%s/gemd.pid", tmpl);
	strbuf_addf(&log, "%s/gemd.log", tmpl);
	/* Its debugfs goes to the default, card0.debugfs beside the socket,
	 * unless --gemd-opt says otherwise. */
	args = calloc(r->ngemd_opts + 10, sizeof(*args));
	if (!args) {
		ret = -ENOMEM;
		goto out;
	}
	args[n++] = "gemd";
	args[n++] = "--daemon";
	args[n++] = "-D";
	args[n++] = dev.buf;
	args[n++] = "--pidfile";
	args[n++] = pid.buf;
	args[n++] = "--log-file";
	args[n++] = log.buf;
	for (i = 0; i < r->ngemd_opts; i++)
		args[n++] = r->gemd_opts[i];
	args[n] = NULL;
	child = fork();
	if (child < 0) {
		ret = -errno;
		goto out;
	}
	if (child == 0) {
		execv(r->gemd.buf, (char *const *)args);
		fprintf(stderr, "gemctl run: %s: %s\n", r->gemd.buf, strerror(errno));
		_exit(127);
	}
	/* gemd --daemon returns once its socket accepts clients. */
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "gemctl run: %s could not start (log: %s)\n",
			r->gemd.buf, log.buf);
		goto out;
	}
	r->gemd_pid = read_pidfile(pid.buf);
	r->own_device = strbuf_detach(&dev, NULL);
	r->device = r->own_device;
	ret = 0;
out:
	free(args);
	strbuf_release(&dev);
	strbuf_release(&pid);
	strbuf_release(&log);
	strbuf_release(&tmp);
	return ret;
}

static void stop_gemd(struct run *r)
{
	struct strbuf p = STRBUF_INIT;
	int i;

	if (r->gemd_pid > 0 && kill(r->gemd_pid, SIGTERM) == 0) {
		/* Not our child (it daemonized): poll until it has gone. */
		for (i = 0; i < 500 && process_running(r->gemd_pid); i++)
			usleep(10000);
	}
	if (!r->priv.len)
		return;
	/* The interposer's sysfs tree for the private gemd: no evidence. */
	strbuf_addf(&p, "%s/shadow", r->priv.buf);
	(void)remove_recursive(p.buf);
	strbuf_reset(&p);
	if (r->keep) {
		strbuf_release(&p);
		return;
	}
	strbuf_addf(&p, "%s/gemd.log", r->priv.buf);
	unlink(p.buf);
	rmdir(r->priv.buf);	/* gemd removed its debugfs directory */
	strbuf_release(&p);
}

static int write_file(const char *dir, const char *name, const char *text)
{
	struct strbuf p = STRBUF_INIT;
	int fd, ret = 0;

	strbuf_addf(&p, "%s/%s", dir, name);
	fd = open(p.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write_full(fd, text, strlen(text)) < 0)
		ret = -errno;
	if (fd >= 0)
		close(fd);
	strbuf_release(&p);
	return ret;
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape_mountinfo(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
					(s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/*
 * In the program's new mount namespace: detach every gemd debugfs mount
 * but the one of our gemd (r->debugfs).  A copy left here would keep that
 * gemd's tree alive, and its shutdown waiting, as long as the program
 * runs.  Detaching here does nothing to the host's mounts.
 */
static void detach_other_gemds(const struct run *r)
{
	char *line = NULL, *ours = NULL, mnt[PATH_MAX], type[64];
	size_t cap = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return;
	if (r->debugfs.len)
		ours = realpath(r->debugfs.buf, NULL);
	while (getline(&line, &cap, f) > 0) {
		const char *dash = strstr(line, " - ");

		/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS... - TYPE SOURCE ..." */
		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(dash, " - %63s", type) != 1)
			continue;
		if (strcmp(type, "fuse.gemd-debugfs"))
			continue;
		unescape_mountinfo(mnt);
		if (ours && !strcmp(mnt, ours))
			continue;
		umount2(mnt, MNT_DETACH);
	}
	free(line);
	free(ours);
	fclose(f);
}

/*
 * In the child, as root: a private mount namespace in which
 * /sys/kernel/debug/dri is gemd's debugfs.  Returns false if that is
 * impossible (then the interposer redirects instead).
 */
static bool private_debugfs(const struct run *r)
{
	const char *dri = DEBUGFS_ROOT "/dri", *dri0 = DEBUGFS_ROOT "/dri/0";
	struct strbuf src = STRBUF_INIT;
	bool ok = false;

	if (geteuid() != 0 || unshare(CLONE_NEWNS) < 0)
		return false;
	/* Nothing we mount may leak back to the host. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		goto out;
	detach_other_gemds(r);
	if (mount("gemkit", DEBUGFS_ROOT, "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=0755") < 0 ||
	    mkdir(dri, 0755) < 0)
		goto out;
	/* gemd's dri holds the primary node's 0 and the render node's 128. */
	if (r->debugfs.len) {
		strbuf_addf(&src, "%s/dri", r->debugfs.buf);
		if (mount(src.buf, dri, NULL, MS_BIND, NULL) == 0) {
			ok = true;
			goto out;
		}
	}
	if (mkdir(dri0, 0755) < 0)
		goto out;
	/* No debugfs from gemd: the files IGT cannot do without. */
	ok = !write_file(dri0, "name", "i915 dev=0000:00:02.0 unique=0000:00:02.0\n") &&
	     !write_file(dri0, "i915_gem_drop_caches", "0x000001ff\n");
out:
	strbuf_release(&src);
	return ok;
}

/*
 * Without root and without gemd's tree (no FUSE for this user): a
 * directory with the two files IGT cannot do without, for the interposer
 * to redirect /sys/kernel/debug to.
 */
static void fake_debugfs(struct run *r)
{
	struct strbuf p = STRBUF_INIT;

	if (geteuid() == 0 || r->debugfs.len || run_mkdtemp(&r->fake)) {
		strbuf_reset(&r->fake);
		return;
	}
	strbuf_addf(&p, "%s/dri", r->fake.buf);
	mkdir(p.buf, 0755);
	strbuf_addstr(&p, "/0");
	if (mkdir(p.buf, 0755) == 0 &&
	    !write_file(p.buf, "name", "i915 dev=0000:00:02.0 unique=0000:00:02.0\n") &&
	    !write_file(p.buf, "i915_gem_drop_caches", "0x000001ff\n"))
		strbuf_addstr(&r->debugfs, r->fake.buf);
	strbuf_release(&p);
}

static void remove_fake_debugfs(struct run *r)
{
	static const char *const paths[] = {
		"dri/0/name", "dri/0/i915_gem_drop_caches", "dri/0", "dri", NULL,
	};
	struct strbuf p = STRBUF_INIT;
	unsigned int i;

	if (!r->fake.len)
		return;
	for (i = 0; paths[i]; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", r->fake.buf, paths[i]);
		if (unlink(p.buf) < 0)
			rmdir(p.buf);
	}
	rmdir(r->fake.buf);
	strbuf_release(&p);
}

static void exec_program(const struct run *r, char **argv)
{
	struct strbuf pre = STRBUF_INIT;
	const char *old = getenv("LD_PRELOAD");

	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	if (!private_debugfs(r) && r->debugfs.len)
		setenv("GEMKIT_DEBUGFS", r->debugfs.buf, 1);
	strbuf_addstr(&pre, r->preload.buf);
	if (old && *old)
		strbuf_addf(&pre, ":%s", old);
	setenv("LD_PRELOAD", pre.buf, 1);
	setenv("GEM_DEVICE", r->device, 1);
	/* The private gemd's sysfs is the interposer's to make beside it. */
	if (r->priv.len) {
		strbuf_reset(&pre);
		strbuf_addf(&pre, "%s/shadow", r->priv.buf);
		setenv("GEMKIT_SHADOW", pre.buf, 1);
	} else {
		unsetenv("GEMKIT_SHADOW");
	}
	execvp(argv[0], argv);
	fprintf(stderr, "gemctl run: %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/* hangs, bans and wedged from gemd's gemkit_counters (over its socket). */
static void read_counts(const struct run *r, struct run_counts *out)
{
	struct strbuf buf = STRBUF_INIT;
	struct gdfs_counters c;
	struct gdfs *src;

	memset(out, 0, sizeof(*out));
	if (gdfs_open_socket(r->device, &src))
		return;
	if (gdfs_read(src, "gemkit_counters", &buf) == 0 &&
	    gdfs_parse_counters(buf.buf, buf.len, &c, NULL) == 0) {
		out->valid = gdfs_counter(&c, "hangs", &out->hangs);
		gdfs_counter(&c, "bans", &out->bans);
		gdfs_counter(&c, "wedged", &out->wedged);
		gdfs_counters_release(&c);
	}
	strbuf_release(&buf);
	gdfs_close(src);
}

/* Save i915_error_state and the gemkit_errors records into dir. */
static void keep_error_states(const struct run *r, const char *dir)
{
	struct strbuf names = STRBUF_INIT, text = STRBUF_INIT, path = STRBUF_INIT;
	char *line, *next;
	struct gdfs *src;

	if (gdfs_open_socket(r->device, &src))
		return;
	strbuf_addstr(&names, "i915_error_state\n");
	gdfs_list(src, &names);
	for (line = names.buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strcmp(line, "i915_error_state") &&
		    strncmp(line, "gemkit_errors/", 14))
			continue;
		strbuf_reset(&text);
		if (gdfs_read(src, line, &text) || !strncmp(text.buf, "no error", 8))
			continue;
		if (line[0] == 'g') {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/gemkit_errors", dir);
			mkdir(path.buf, 0755);
		}
		write_file(dir, line, text.buf);
	}
	strbuf_release(&names);
	strbuf_release(&text);
	strbuf_release(&path);
	gdfs_close(src);
}

/*
 * One line on stderr if the run saw hangs, bans or a wedged GPU; with a
 * private gemd, keep its log and error states when that happened or the
 * program failed, and say where.
 */
static void report_run(struct run *r, const struct run_counts *before,
		       const char *program, int status)
{
	struct run_counts after;
	struct strbuf line = STRBUF_INIT;
	uint64_t hangs, bans;

	read_counts(r, &after);
	hangs = after.valid && before->valid ? after.hangs - before->hangs : 0;
	bans = after.valid && before->valid ? after.bans - before->bans : 0;
	if (hangs)
		strbuf_addf(&line, "%llu GPU hang%s", (unsigned long long)hangs,
			    hangs == 1 ? "" : "s");
	if (bans)
		strbuf_addf(&line, "%s%llu client%s banned", line.len ? ", " : "",
			    (unsigned long long)bans, bans == 1 ? "" : "s");
	if (after.wedged)
		strbuf_addf(&line, "%sthe GPU is wedged", line.len ? ", " : "");
	/* 126 and 127: the program did not run; gemd has nothing to say. */
	r->keep = r->priv.len &&
		  (line.len || (status != 0 && status != 126 && status != 127));
	if (r->keep)
		keep_error_states(r, r->priv.buf);
	if (line.len && r->priv.len)
		fprintf(stderr, "gemctl run: %s during the run; gemd's log and "
			"error states kept in %s\n", line.buf, r->priv.buf);
	else if (line.len)
		fprintf(stderr, "gemctl run: %s during the run (gemd at %s: see "
			"its log, and gemdump hang)\n", line.buf, r->device);
	else if (r->keep)
		fprintf(stderr, "gemctl run: %s exited with status %d; gemd's log "
			"kept in %s/gemd.log\n", program, status, r->priv.buf);
	strbuf_release(&line);
}

static pid_t program_pid;

static void forward_signal(int sig)
{
	if (program_pid > 0)
		kill(program_pid, sig);
}

static int run_program(const struct run *r, char **argv)
{
	struct sigaction sa = { .sa_handler = forward_signal };
	int status;

	/* The terminal's ^C reaches the program; we stay to clean up. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	fflush(NULL);
	program_pid = fork();
	if (program_pid < 0) {
		fprintf(stderr, "gemctl run: fork: %s\n", strerror(errno));
		return GEMCTL_FAILED;
	}
	if (program_pid == 0)
		exec_program(r, argv);
	while (waitpid(program_pid, &status, 0) < 0) {
		if (errno != EINTR)
			return GEMCTL_FAILED;
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static int cmd_run(struct gemctl *ctl, int argc, char **argv)
{
	struct run r = { .priv = STRBUF_INIT, .debugfs = STRBUF_INIT,
			 .preload = STRBUF_INIT, .gemd = STRBUF_INIT,
			 .fake = STRBUF_INIT };
	struct run_counts before;
	const char *device = NULL;
	bool joined = false;
	int i, ret, opt;

	/* PROGRAM's options are its own: ours end at the first operand. */
	tool_opt_parser_init(&ctl->opt_parser, run_opts, true);
	while ((opt = gemctl_getopt(ctl, argc, argv)) != -1) {
		const char **more;

		switch (opt) {
		case 'D':
			device = optarg;
			break;
		case RUN_OPT_PRIVATE:
			r.private_gemd = true;
			break;
		case RUN_OPT_GEMD_OPT:
			more = realloc(r.gemd_opts, (r.ngemd_opts + 1) * sizeof(*more));
			if (!more) {
				ret = gemctl_error(ctl, GEMCTL_FAILED, "%s", strerror(ENOMEM));
				goto out;
			}
			r.gemd_opts = more;
			r.gemd_opts[r.ngemd_opts++] = optarg;
			r.private_gemd = true;
			break;
		default:
			goto usage;
		}
	}
	i = optind;
	if (i >= argc)
		goto usage;
	r.device = device ? device : gemctl_device(ctl);
	if (!r.device) {
		fprintf(stderr, "gemctl run: no device path: %s\n", strerror(errno));
		ret = GEMCTL_NODEV;
		goto out;
	}
	if (find_files(&r)) {
		ret = GEMCTL_FAILED;
		goto out;
	}
	if (!r.private_gemd && (ret = join_gemd(&r, &joined)))
		goto out;	/* another user's gemd */
	if (!joined && start_gemd(&r)) {
		ret = GEMCTL_NODEV;
		goto out;
	}
	find_debugfs(&r);
	fake_debugfs(&r);
	read_counts(&r, &before);
	ret = run_program(&r, argv + i);
	report_run(&r, &before, argv[i], ret);
	remove_fake_debugfs(&r);
	stop_gemd(&r);
	goto out;
usage:
	run_usage(stderr);
	ret = GEMCTL_USAGE;
out:
	strbuf_release(&r.priv);
	strbuf_release(&r.debugfs);
	strbuf_release(&r.preload);
	strbuf_release(&r.gemd);
	strbuf_release(&r.fake);
	free(r.own_device);
	free(r.gemd_opts);
	return ret;
}

const struct gemctl_cmd cmd_run_entry = {
	.name = "run",
	.args = "[-D PATH] [--private] [--gemd-opt OPT]... [--] PROGRAM [ARGS]...",
	.opts = run_opts,
	.summary = "run PROGRAM with the gemkit interposer against the device",
	.complete = GEMCTL_COMPLETE_COMMAND,
	.fn = cmd_run,
	.no_device = true,
};
