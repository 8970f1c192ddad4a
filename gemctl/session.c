/* The gemctl session: device connection, handles, variables, messages. */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gemcontrol.h"
#include "gemdebugfs.h"
#include "libgem.h"
#include "session.h"
#include "units.h"
#include "util.h"

volatile sig_atomic_t gemctl_interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	gemctl_interrupted = 1;
}

void gemctl_catch_sigint(struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, old);
}

#define GEMCTL_DEFAULT_TIMEOUT_NS (10ull * 1000000000ull)

void gemctl_init(struct gemctl *ctl)
{
	memset(ctl, 0, sizeof(*ctl));
	ctl->fd = -1;
	ctl->timeout_ns = GEMCTL_DEFAULT_TIMEOUT_NS;
	strbuf_init(&ctl->result, 0);
}

void gemctl_release(struct gemctl *ctl)
{
	size_t i;

	for (i = 0; i < ctl->nmaps; i++)
		munmap(ctl->maps[i].ptr, ctl->maps[i].size);
	free(ctl->maps);
	if (ctl->fd >= 0)
		gem_close(ctl->fd);
	gdfs_control_close(ctl->control);
	if (ctl->gdfs)
		gdfs_close(ctl->gdfs);
	for (i = 0; i < ctl->nvars; i++) {
		free(ctl->vars[i].name);
		free(ctl->vars[i].value);
	}
	free(ctl->vars);
	free(ctl->handles);
	free(ctl->names);
	strbuf_release(&ctl->result);
}

const char *gemctl_device(const struct gemctl *ctl)
{
	return gem_device_path(ctl->device_arg);
}

int gemctl_connect(struct gemctl *ctl)
{
	if (ctl->fd >= 0)
		return 0;
	ctl->fd = gem_open(ctl->device_arg, O_RDWR | O_CLOEXEC);
	if (ctl->fd < 0)
		return gemctl_unreachable(ctl, errno);
	return 0;
}

int gemctl_debugfs(struct gemctl *ctl, struct gdfs **out)
{
	int ret;

	/* What this session did shows in what it reads: libgem may still
	 * owe gemd the books of a pwrite it did itself. */
	if (ctl->fd >= 0)
		gem_sync(ctl->fd);
	if (!ctl->gdfs) {
		/* -t bounds a gemd that does not answer, too. */
		gdfs_set_default_timeout(ctl->timeout_ns);
		ret = gdfs_open_auto(ctl->device_arg, NULL, &ctl->gdfs);
		if (ret < 0) {
			ctl->gdfs = NULL;
			return gemctl_unreachable(ctl, -ret);
		}
	}
	*out = ctl->gdfs;
	return 0;
}

int gemctl_control(struct gemctl *ctl, struct gdfs_control **out)
{
	int ret;

	if (!ctl->control) {
		ret = gdfs_control_open(ctl->device_arg, &ctl->control);
		if (ret) {
			ctl->control = NULL;
			return ret;
		}
	}
	*out = ctl->control;
	return 0;
}

static __attribute__((format(printf, 2, 0)))
void verror(struct gemctl *ctl, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	if (ctl->script_name)
		strbuf_addf(&sb, "%s:%u: ", ctl->script_name, ctl->script_line);
	strbuf_addstr(&sb, "gemctl");
	if (ctl->verb)
		strbuf_addf(&sb, " %s", ctl->verb);
	strbuf_addstr(&sb, ": ");
	strbuf_vaddf(&sb, fmt, ap);
	strbuf_addch(&sb, '\n');
	ctl->verb_said = true;
	fflush(stdout);
	fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

int gemctl_error(struct gemctl *ctl, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(ctl, fmt, ap);
	va_end(ap);
	return code;
}

int gemctl_ioctl_error(struct gemctl *ctl, const char *ioctl, int err,
		       const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	int code;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	code = gem_exit_for_errno(err);
	gemctl_error(ctl, code, "%s%s%s: %s", ioctl, sb.len ? " " : "", sb.buf,
		     strerror(err));
	strbuf_release(&sb);
	return code;
}

int gemctl_no_handle(struct gemctl *ctl, uint32_t handle, const char *reason)
{
	return gemctl_error(ctl, GEMCTL_FAILED, "no object with handle %u%s%s%s",
			    handle, reason ? " (" : "", reason ? reason : "",
			    reason ? ")" : "");
}

int gemctl_handle_ioctl_error(struct gemctl *ctl, const char *ioctl, int err,
			      uint32_t handle, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	int code;

	if (err == ENOENT || (err == EINVAL && !strcmp(ioctl, "DRM_IOCTL_GEM_CLOSE"))) {
		strbuf_addf(&sb, "%s: %s", ioctl, strerror(err));
		code = gemctl_no_handle(ctl, handle, sb.buf);
		strbuf_release(&sb);
		return code;
	}
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	code = gemctl_ioctl_error(ctl, ioctl, err, "%s", sb.buf);
	strbuf_release(&sb);
	return code;
}

int gemctl_usage(struct gemctl *ctl)
{
	const struct gemctl_cmd *cmd = ctl->verb ? gemctl_cmd_find(ctl->verb) : NULL;

	/* A usage line alone does not say which word was wrong. */
	if (cmd && !ctl->verb_said)
		gemctl_error(ctl, GEMCTL_USAGE, "missing or extra arguments");
	if (cmd)
		fprintf(stderr, "usage: gemctl %s %s\n"
			"Try 'gemctl %s --help' for more information.\n",
			cmd->name, cmd->args, cmd->name);
	return GEMCTL_USAGE;
}

int gemctl_unreachable(struct gemctl *ctl, int err)
{
	struct strbuf sb = STRBUF_INIT;
	int code = gem_unreachable(&sb, gemctl_device(ctl), err);

	gemctl_error(ctl, code, "%s", sb.buf);
	strbuf_release(&sb);
	return code;
}

int gemctl_ioctl(struct gemctl *ctl, unsigned long req, void *arg)
{
	if (gem_ioctl(ctl->fd, req, arg) == 0)
		return 0;
	return -errno;
}

void gemctl_result(struct gemctl *ctl, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(&ctl->result);
	va_start(ap, fmt);
	strbuf_vaddf(&ctl->result, fmt, ap);
	va_end(ap);
}

const char *gemctl_size(const struct gemctl *ctl, uint64_t bytes, char *buf)
{
	if (!ctl->bytes && isatty(STDOUT_FILENO))
		tool_fmt_size(buf, 24, bytes);
	else
		snprintf(buf, 24, "%llu", (unsigned long long)bytes);
	return buf;
}

void gemctl_say(struct gemctl *ctl, const char *fmt, ...)
{
	va_list ap;

	if (ctl->quiet || ctl->json)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static int u32_push(uint32_t **v, size_t *n, size_t *alloc, uint32_t x)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*v)[i] == x)
			return 0;
	if (*n == *alloc) {
		size_t na = *alloc ? *alloc * 2 : 16;
		uint32_t *nv = realloc(*v, na * sizeof(**v));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*alloc = na;
	}
	(*v)[(*n)++] = x;
	return 0;
}

void gemctl_handle_add(struct gemctl *ctl, uint32_t handle, uint64_t size)
{
	size_t i;

	for (i = 0; i < ctl->nhandles; i++) {
		if (ctl->handles[i].handle == handle) {
			ctl->handles[i].size = size;
			return;
		}
	}
	if (ctl->nhandles == ctl->handles_alloc) {
		size_t na = ctl->handles_alloc ? ctl->handles_alloc * 2 : 16;
		struct gemctl_handle *nv = realloc(ctl->handles, na * sizeof(*nv));

		if (!nv)
			return;
		ctl->handles = nv;
		ctl->handles_alloc = na;
	}
	ctl->handles[ctl->nhandles].handle = handle;
	ctl->handles[ctl->nhandles++].size = size;
}

uint64_t gemctl_handle_size(const struct gemctl *ctl, uint32_t handle)
{
	size_t i;

	for (i = 0; i < ctl->nhandles; i++)
		if (ctl->handles[i].handle == handle)
			return ctl->handles[i].size;
	return 0;
}

void gemctl_handle_del(struct gemctl *ctl, uint32_t handle)
{
	size_t i;

	for (i = 0; i < ctl->nhandles; i++) {
		if (ctl->handles[i].handle == handle) {
			memmove(&ctl->handles[i], &ctl->handles[i + 1],
				(ctl->nhandles - i - 1) * sizeof(*ctl->handles));
			ctl->nhandles--;
			return;
		}
	}
}

void gemctl_name_add(struct gemctl *ctl, uint32_t name)
{
	u32_push(&ctl->names, &ctl->nnames, &ctl->names_alloc, name);
}

int gemctl_parse_u64(struct gemctl *ctl, const char *what, const char *arg,
		     uint64_t *out)
{
	if (parse_u64(arg, out) < 0)
		return gemctl_error(ctl, GEMCTL_USAGE, "bad %s '%s'", what,
				    arg ? arg : "");
	return 0;
}

int gemctl_parse_u32(struct gemctl *ctl, const char *what, const char *arg,
		     uint32_t *out)
{
	uint64_t v;

	if (parse_u64(arg, &v) < 0 || v > UINT32_MAX)
		return gemctl_error(ctl, GEMCTL_USAGE, "bad %s '%s'", what,
				    arg ? arg : "");
	*out = v;
	return 0;
}

int gemctl_parse_handle(struct gemctl *ctl, const char *arg, uint32_t *out)
{
	return gemctl_parse_u32(ctl, "handle", arg, out);
}

int gemctl_parse_size(struct gemctl *ctl, const char *what, const char *arg,
		      uint64_t *out)
{
	if (!arg || *arg == '-' || parse_size(arg, out) < 0)
		return gemctl_error(ctl, GEMCTL_USAGE, "bad %s '%s'", what,
				    arg ? arg : "");
	return 0;
}

int gemctl_parse_timeout(struct gemctl *ctl, const char *arg, uint64_t *out)
{
	if (!arg || *arg == '-' || parse_duration_ns(arg, out) < 0)
		return gemctl_error(ctl, GEMCTL_USAGE, "bad timeout '%s'",
				    arg ? arg : "");
	return 0;
}

int gemctl_var_set(struct gemctl *ctl, const char *name, const char *value)
{
	char *v = strdup(value);
	size_t i;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < ctl->nvars; i++) {
		if (!strcmp(ctl->vars[i].name, name)) {
			free(ctl->vars[i].value);
			ctl->vars[i].value = v;
			return 0;
		}
	}
	if (ctl->nvars == ctl->vars_alloc) {
		size_t na = ctl->vars_alloc ? ctl->vars_alloc * 2 : 8;
		struct gemctl_var *nv = realloc(ctl->vars, na * sizeof(*nv));

		if (!nv)
			goto free_v;
		ctl->vars = nv;
		ctl->vars_alloc = na;
	}
	ctl->vars[ctl->nvars].name = strdup(name);
	if (!ctl->vars[ctl->nvars].name)
		goto free_v;
	ctl->vars[ctl->nvars++].value = v;
	return 0;
free_v:
	free(v);
	return -ENOMEM;
}

const char *gemctl_var_get(const struct gemctl *ctl, const char *name)
{
	size_t i;

	for (i = 0; i < ctl->nvars; i++)
		if (!strcmp(ctl->vars[i].name, name))
			return ctl->vars[i].value;
	return NULL;
}

uint64_t gemctl_deadline(uint64_t timeout_ns)
{
	return now_ns() + timeout_ns;
}

bool gemctl_expired(uint64_t deadline)
{
	return now_ns() >= deadline;
}

int gemctl_read_input(struct gemctl *ctl, const char *path, struct strbuf *sb)
{
	int fd = STDIN_FILENO;
	long n;

	if (strcmp(path, "-")) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return gemctl_error(ctl, GEMCTL_FAILED, "cannot open %s: %s",
					    path, strerror(errno));
	}
	n = strbuf_read_fd(sb, fd);
	if (fd != STDIN_FILENO)
		close(fd);
	if (n < 0)
		return gemctl_error(ctl, GEMCTL_FAILED, "cannot read %s: %s", path,
				    strerror((int)-n));
	return 0;
}
