/*
 * The gemctl session: what lives as long as one gemctl process (the device
 * connection, the handles it made, script variables, output modes), and
 * the helpers every verb uses to report results and errors the same way.
 */
#ifndef GEMKIT_GEMCTL_SESSION_H
#define GEMKIT_GEMCTL_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gemctl.h"
#include "strbuf.h"

struct gdfs;
struct gdfs_control;

/* A CPU or GTT mapping made by `map`, kept until `unmap` or exit. */
struct gemctl_map {
	uint32_t handle;
	bool gtt;
	void *ptr;
	uint64_t size;
};

struct gemctl_handle {
	uint32_t handle;
	uint64_t size;
};

struct gemctl_var {
	char *name;
	char *value;
};

struct gemctl {
	const char *device_arg;		/* -D, or NULL for the rule */
	int fd;				/* the device, -1 until a verb needs it */
	struct gdfs *gdfs;		/* debugfs source, opened on first use */
	struct gdfs_control *control;	/* gemd's control requests, opened on first use */
	uint64_t hang_base;		/* hangs counted before `hang`, for wait-hang */
	bool hang_base_set;

	bool json, quiet, errexit, xtrace, interactive;
	bool no_errexit;		/* +e: a script goes on after a failure */
	bool bytes;			/* -b: sizes in bytes even on a terminal */
	/* The script file running and the line of the command in it, for
	 * messages ("rig.gemctl:3: gemctl fill: ..."); NULL outside one. */
	const char *script_name;
	unsigned int script_line;
	bool capture;			/* `name = verb`: keep the value, print nothing */
	uint64_t timeout_ns;		/* the default --timeout */

	/* Handles this process created or opened, in order, with their
	 * sizes (the uAPI has no "size of handle" query). */
	struct gemctl_handle *handles;
	size_t nhandles, handles_alloc;
	/* Flink names this process made or opened (completion). */
	uint32_t *names;
	size_t nnames, names_alloc;

	struct gemctl_map *maps;
	size_t nmaps, maps_alloc;

	struct gemctl_var *vars;
	size_t nvars, vars_alloc;

	/* The essential value of the last verb (what -q prints and what
	 * `name = verb ...` stores). */
	struct strbuf result;
	const char *verb;		/* the running verb, for messages */
	bool verb_said;			/* it has said what is wrong */
	struct tool_opt_parser opt_parser;	/* the running verb's options */
};

/* Set by SIGINT while a verb runs; blocking loops poll it. */
extern volatile sig_atomic_t gemctl_interrupted;
/* SIGINT sets gemctl_interrupted rather than killing; old (may be NULL)
 * gets what was there, for a verb that catches it only while it runs. */
struct sigaction;
void gemctl_catch_sigint(struct sigaction *old);

void gemctl_init(struct gemctl *ctl);
void gemctl_release(struct gemctl *ctl);

/* Connect to the device on first use.  Returns 0 or GEMCTL_NODEV (with a
 * message). */
int gemctl_connect(struct gemctl *ctl);
/* The debugfs source for the session's device. */
int gemctl_debugfs(struct gemctl *ctl, struct gdfs **out);
/* The control channel for the session's device (gemcontrol.h): 0 or
 * -errno, with no message (the verb says what it could not do). */
int gemctl_control(struct gemctl *ctl, struct gdfs_control **out);

/* Errors: "gemctl VERB: ...".  Each returns the exit code it is given so
 * verbs can `return gemctl_error(ctl, GEMCTL_USAGE, ...)`. */
int gemctl_error(struct gemctl *ctl, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Read the whole of file path ("-": standard input) into sb, or say why
 * not (naming the file) and return GEMCTL_FAILED. */
int gemctl_read_input(struct gemctl *ctl, const char *path, struct strbuf *sb);
/* An ioctl failed with errno: maps EIO to GEMCTL_HUNG, ETIME/ETIMEDOUT to
 * GEMCTL_TIMEOUT, the rest to GEMCTL_FAILED. */
int gemctl_ioctl_error(struct gemctl *ctl, const char *ioctl, int err,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/*
 * An ioctl on handle failed.  A handle the drm_file does not have (ENOENT,
 * or EINVAL from GEM_CLOSE, which is how the kernel says it) is said in
 * the user's terms first, the ioctl after, the same for every verb:
 *	"no object with handle 99 (DRM_IOCTL_GEM_CLOSE: Invalid argument)"
 * Any other errno as gemctl_ioctl_error(ioctl, err, fmt, ...).
 */
int gemctl_handle_ioctl_error(struct gemctl *ctl, const char *ioctl, int err,
			      uint32_t handle, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* "no object with handle H" and why gemctl knows (reason, or NULL):
 * GEMCTL_FAILED. */
int gemctl_no_handle(struct gemctl *ctl, uint32_t handle, const char *reason);
int gemctl_usage(struct gemctl *ctl);
/* The device could not be reached (err: positive errno): the tools'
 * shared wording (exitcode.h) and its exit code. */
int gemctl_unreachable(struct gemctl *ctl, int err);

/* Ioctl on the session's device; 0 or -errno. */
int gemctl_ioctl(struct gemctl *ctl, unsigned long req, void *arg);

/* Set the verb's essential value. */
void gemctl_result(struct gemctl *ctl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A size for the text output: 128K on a terminal, bytes in a pipe or
 * with -b (JSON and -q are always raw).  Returns buf (24 bytes). */
const char *gemctl_size(const struct gemctl *ctl, uint64_t bytes, char *buf);
/* Print human text to stdout unless -q or --json. */
void gemctl_say(struct gemctl *ctl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Handles. */
void gemctl_handle_add(struct gemctl *ctl, uint32_t handle, uint64_t size);
/* The size of a handle this session knows, else 0. */
uint64_t gemctl_handle_size(const struct gemctl *ctl, uint32_t handle);
void gemctl_handle_del(struct gemctl *ctl, uint32_t handle);
void gemctl_name_add(struct gemctl *ctl, uint32_t name);
/* Parse a handle argument ("3"); usage error on junk. */
int gemctl_parse_handle(struct gemctl *ctl, const char *arg, uint32_t *out);
int gemctl_parse_u64(struct gemctl *ctl, const char *what, const char *arg,
		     uint64_t *out);
int gemctl_parse_u32(struct gemctl *ctl, const char *what, const char *arg,
		     uint32_t *out);
int gemctl_parse_size(struct gemctl *ctl, const char *what, const char *arg,
		      uint64_t *out);
int gemctl_parse_timeout(struct gemctl *ctl, const char *arg, uint64_t *out);

/* Variables. */
int gemctl_var_set(struct gemctl *ctl, const char *name, const char *value);
const char *gemctl_var_get(const struct gemctl *ctl, const char *name);

/* Run one command line: split, expand $vars, handle `name = verb ...`,
 * dispatch.  Returns the verb's exit code. */
int gemctl_run_line(struct gemctl *ctl, const char *line);
/* Run argv as one verb. */
int gemctl_run_argv(struct gemctl *ctl, int argc, char **argv);
/* Run a script (lines and ';'), honouring -e.  Returns the last status
 * (with -e, the status that stopped it). */
int gemctl_run_script(struct gemctl *ctl, const char *text);
int gemctl_run_file(struct gemctl *ctl, const char *path);
int gemctl_run_fd(struct gemctl *ctl, int fd);
/* A script on standard input; messages name it "<stdin>". */
int gemctl_run_stdin(struct gemctl *ctl);

/* The readline shell (shell.c). */
int gemctl_shell(struct gemctl *ctl);
/* The shell as a verb runs it (cmd-shell.c): refused inside the shell. */
int gemctl_run_shell(struct gemctl *ctl);

/* Print the verb table for --help, or one verb's usage. */
void gemctl_print_help(FILE *f);
void gemctl_print_verb_help(FILE *f, const struct gemctl_cmd *cmd);

/* Hidden `gemctl --complete`: one candidate per line (complete.c). */
int gemctl_complete_main(struct gemctl *ctl, int argc, char **argv);

/*
 * A verb's options: the next option of argv by the running verb's table
 * (struct gemctl_cmd.opts), as tool_opt_next() returns it: the option's
 * id, '?' (getopt has said what is wrong) or -1 after the last, with
 * optarg and optind set.  Help and completion read the same table.
 */
int gemctl_getopt(struct gemctl *ctl, int argc, char **argv);

/* When the evidence after a timeout matters: print ring and seqno state to
 * stderr. */
void gemctl_print_evidence(struct gemctl *ctl);

struct gdfs_ring;
/* Read and parse gemkit_ring (release with gdfs_ring_release); an exit
 * code, with a message. */
int gemctl_read_ring(struct gemctl *ctl, struct gdfs_ring *ring);

/* Deadline helpers for blocking verbs. */
uint64_t gemctl_deadline(uint64_t timeout_ns);
bool gemctl_expired(uint64_t deadline);

#endif
