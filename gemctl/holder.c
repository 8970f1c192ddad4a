/*
 * The session holder of `gemctl -S NAME` (holder.h): the client side,
 * which starts a holder when none answers and hands it one invocation,
 * and the holder's loop, which runs each invocation in its one session.
 *
 * One request a connection:
 *	client -> holder: struct hold_hdr with SCM_RIGHTS of the caller's
 *	                  stdin, stdout, stderr and working directory, then
 *	                  hdr.len bytes: struct hold_req and NUL-terminated
 *	                  strings (the device path, then the arguments)
 *	holder -> client: int32 HOLD_READY and int32 the holder's pid when
 *	                  the command's turn comes (the ones before it are
 *	                  done; SO_PEERCRED would name the process that
 *	                  listened, the first caller, not the holder it forked)
 *	client -> holder: int32 HOLD_GO: from then on the caller's Ctrl-C goes
 *	                  to that pid; a caller cancelled by Ctrl-C while it
 *	                  waited hangs up instead, and the command does not run
 *	holder -> client: int32 exit status, after the holder has let go of
 *	                  the caller's descriptors (so `$(gemctl -S s ...)`
 *	                  sees EOF when it is done)
 *
 * The caller says go rather than the holder saying it started: a Ctrl-C
 * that comes as the turn does is then either a cancel the holder sees (the
 * hang-up) or an interrupt of the command, never neither.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "holder.h"
#include "session.h"
#include "sockpath.h"
#include "util.h"

#define HOLD_MAGIC	0x32636d67u	/* "gmc2": the handshake with HOLD_GO */
#define HOLD_NFDS	4		/* stdin, stdout, stderr, cwd */
#define HOLD_MAX_REQ	(1u << 20)	/* a -c script, at most */
#define HOLD_READY	0x64616552	/* "Read": not an exit status */
#define HOLD_GO		0x21216f47	/* "Go!!" */
#define HOLD_WAIT_NOTICE_MS 1000	/* a caller that waited this long is told why */

enum {
	HOLD_JSON = 1u << 0,
	HOLD_QUIET = 1u << 1,
	HOLD_ERREXIT = 1u << 2,
	HOLD_XTRACE = 1u << 3,
	HOLD_BYTES = 1u << 4,
};

struct hold_hdr {
	uint32_t magic;
	uint32_t len;			/* bytes of struct hold_req and strings */
};

struct hold_req {
	uint32_t kind;			/* enum gemctl_holder_kind */
	uint32_t flags;			/* HOLD_* */
	uint64_t timeout_ns;
	uint32_t argc;
	uint32_t pad;
	/* then: device path, args[0..argc), each NUL-terminated */
};

bool gemctl_session_name_ok(const char *name)
{
	const char *p;

	if (!name || !*name || *name == '.' || strlen(name) > 64)
		return false;
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.'))
			return false;
	return true;
}

/* <runtime dir>/gemctl, made 0700 and checked to be ours and private:
 * another user's directory there could catch our commands. */
static int holder_dir(char *buf, size_t len)
{
	char base[PATH_MAX];
	struct stat st;
	int ret;

	ret = gem_runtime_dir(base, sizeof(base));
	if (ret)
		return ret;
	if (snprintf(buf, len, "%s/gemctl", base) >= (int)len)
		return -ENAMETOOLONG;
	ret = make_parent_dirs(buf, 0700);
	if (ret)
		return ret;
	if (mkdir(buf, 0700) && errno != EEXIST)
		return -errno;
	if (lstat(buf, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077))
		return -EPERM;
	return 0;
}

/* The session's socket path; any length (sockpath.h binds through the
 * directory when it passes sun_path). */
static int holder_path(const char *name, char *path, size_t size)
{
	char dir[PATH_MAX];
	int ret = holder_dir(dir, sizeof(dir));

	if (ret)
		return ret;
	if (snprintf(path, size, "%s/%s", dir, name) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

static int connect_addr(const char *path)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), ret;

	if (fd < 0)
		return -errno;
	ret = sockpath_connect(fd, path);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

/* The listening socket of a new holder, 0600; -EADDRINUSE when another
 * holder answers there (two first invocations at once). */
static int listen_addr(const char *path)
{
	int fd, ret, tries, dirfd;
	mode_t old;

	for (tries = 0; tries < 2; tries++) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -errno;
		old = umask(0177);
		ret = sockpath_bind(fd, path, &dirfd);
		umask(old);
		/* Nobody resolves the name through the directory later. */
		if (!ret && dirfd >= 0)
			close(dirfd);
		if (ret == 0 && listen(fd, 8) == 0)
			return fd;
		if (ret == 0)
			ret = -errno;
		close(fd);
		if (ret != -EADDRINUSE)
			return ret;
		/* A socket nobody answers is a holder that died: replace it. */
		fd = connect_addr(path);
		if (fd >= 0) {
			close(fd);
			return -EADDRINUSE;
		}
		if (fd != -ECONNREFUSED || unlink(path))
			return -EADDRINUSE;
	}
	return -EADDRINUSE;
}

/* --- the holder ------------------------------------------------------- */

static volatile sig_atomic_t holder_quit;

static void holder_on_term(int sig)
{
	(void)sig;
	holder_quit = 1;
}

/* Receive the header and the caller's descriptors (fds[], -1 when not
 * sent).  0 or -errno. */
static int recv_hdr(int fd, struct hold_hdr *h, int fds[HOLD_NFDS])
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int) * HOLD_NFDS)];
	} cbuf;
	struct iovec iov = { h, sizeof(*h) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf.buf, .msg_controllen = sizeof(cbuf.buf),
	};
	struct cmsghdr *cm;
	ssize_t n;
	size_t i;

	for (i = 0; i < HOLD_NFDS; i++)
		fds[i] = -1;
	do
		n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC | MSG_WAITALL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
		size_t nfds = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		for (i = 0; i < nfds; i++) {
			int rfd;

			memcpy(&rfd, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
			if (i < HOLD_NFDS && fds[i] < 0)
				fds[i] = rfd;
			else
				close(rfd);
		}
	}
	if ((size_t)n != sizeof(*h) || h->magic != HOLD_MAGIC || h->len < sizeof(struct hold_req) ||
	    h->len > HOLD_MAX_REQ)
		return -EPROTO;
	for (i = 0; i < HOLD_NFDS; i++)
		if (fds[i] < 0)
			return -EPROTO;
	return 0;
}

/* Split the strings after the fixed part: device, then argc args. */
static int parse_strings(char *p, char *end, uint32_t argc, const char **device,
			 char **args)
{
	uint32_t i;

	for (i = 0; i <= argc; i++) {
		char *nul = memchr(p, '\0', (size_t)(end - p));

		if (!nul)
			return -EPROTO;
		if (i == 0)
			*device = p;
		else
			args[i - 1] = p;
		p = nul + 1;
	}
	args[argc] = NULL;
	return 0;
}

static int run_request(struct gemctl *ctl, const struct hold_req *r, char **args,
		       const char *device)
{
	const char *mine = gemctl_device(ctl);

	if (!mine || strcmp(mine, device))
		return gemctl_error(ctl, GEMCTL_USAGE,
				    "this session holds %s, not %s (one device a session)",
				    mine ? mine : "?", device);
	ctl->json = r->flags & HOLD_JSON;
	ctl->quiet = r->flags & HOLD_QUIET;
	ctl->errexit = r->flags & HOLD_ERREXIT;
	ctl->xtrace = r->flags & HOLD_XTRACE;
	ctl->bytes = r->flags & HOLD_BYTES;
	ctl->timeout_ns = r->timeout_ns;
	switch (r->kind) {
	case GEMCTL_HOLD_ARGV:
		return r->argc ? gemctl_run_argv(ctl, (int)r->argc, args) : GEMCTL_USAGE;
	case GEMCTL_HOLD_COMMAND:
		return r->argc == 1 ? gemctl_run_script(ctl, args[0]) : GEMCTL_USAGE;
	case GEMCTL_HOLD_FILE:
		return r->argc == 1 ? gemctl_run_file(ctl, args[0]) : GEMCTL_USAGE;
	case GEMCTL_HOLD_STDIN:
		return gemctl_run_stdin(ctl);
	case GEMCTL_HOLD_SHELL:
		return gemctl_run_shell(ctl);
	default:
		return GEMCTL_USAGE;
	}
}

/* The command's turn: whether its caller still wants it run.  From
 * HOLD_READY on, a SIGINT is that caller's Ctrl-C for this command, so
 * the flag starts clean here, before the caller can forward one. */
static bool caller_says_go(int cfd)
{
	int32_t ready[2] = { HOLD_READY, (int32_t)getpid() }, go;

	gemctl_interrupted = 0;
	return write_full(cfd, ready, sizeof(ready)) >= 0 &&
	       read_full(cfd, &go, sizeof(go)) == (ssize_t)sizeof(go) && go == HOLD_GO;
}

/* One connection: 1 when the holder is to exit, else 0. */
static int serve_one(struct gemctl *ctl, int cfd, int devnull)
{
	struct hold_hdr h;
	struct hold_req r;
	struct strbuf buf = STRBUF_INIT;
	const char *device = NULL;
	char **args = NULL;
	int fds[HOLD_NFDS], i, quit = 0;
	int32_t status = GEMCTL_FAILED;
	ssize_t n;

	if (recv_hdr(cfd, &h, fds))
		goto close_fds;
	if (strbuf_grow(&buf, h.len + 1))
		goto close_fds;
	n = read_full(cfd, buf.buf, h.len);
	if (n != (ssize_t)h.len)
		goto close_fds;
	buf.buf[h.len] = '\0';
	memcpy(&r, buf.buf, sizeof(r));
	if (r.argc > h.len)
		goto close_fds;
	args = calloc((size_t)r.argc + 1, sizeof(*args));
	if (!args || parse_strings(buf.buf + sizeof(r), buf.buf + h.len, r.argc,
				   &device, args))
		goto close_fds;
	if (r.kind == GEMCTL_HOLD_EXIT) {
		status = GEMCTL_OK;
		quit = 1;
		goto close_fds;
	}
	/* A caller that hung up while it waited its turn (Ctrl-C): nothing
	 * to run. */
	if (!caller_says_go(cfd))
		goto close_fds;
	/* The caller's terminal or pipes and directory, for this command. */
	for (i = 0; i < 3; i++)
		dup2(fds[i], i);
	if (fchdir(fds[3]))
		status = GEMCTL_FAILED;
	else
		status = run_request(ctl, &r, args, device);
	fflush(stdout);
	fflush(stderr);
	/* Let go of them before answering: the caller's $(...) waits for EOF. */
	for (i = 0; i < 3; i++)
		dup2(devnull, i);
close_fds:
	for (i = 0; i < HOLD_NFDS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	write_full(cfd, &status, sizeof(status));
	free(args);
	strbuf_release(&buf);
	return quit;
}

/* The peer is this user (the socket is 0600 in a 0700 directory; this
 * says so again, whatever the directory turns out to be). */
static bool peer_is_me(int fd)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);

	return !getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) &&
	       cr.uid == geteuid();
}

static void __attribute__((noreturn))
holder_main(struct gemctl *ctl, int lfd, const char *path, uint64_t idle_ns)
{
	struct sigaction act;
	struct stat mine, now;
	int devnull, i;
	bool have_ino;

	setsid();
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull < 0)
		_exit(GEMCTL_FAILED);
	for (i = 0; i < 3; i++)
		dup2(devnull, i);
	/* Nothing of the first caller's: a pipe kept open here would keep
	 * its reader (a test harness, $(...)) waiting for the holder. */
	for (i = 3; i < 1024; i++)
		if (i != lfd && i != devnull)
			close(i);
	setvbuf(stdout, NULL, _IOLBF, 0);
	gemctl_catch_sigint(NULL);	/* the caller's Ctrl-C, forwarded */
	memset(&act, 0, sizeof(act));
	sigemptyset(&act.sa_mask);
	act.sa_handler = holder_on_term;
	sigaction(SIGTERM, &act, NULL);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	have_ino = !stat(path, &mine);

	while (!holder_quit) {
		struct pollfd pfd = { .fd = lfd, .events = POLLIN };
		int ms = idle_ns / 1000000 > INT_MAX ? INT_MAX : (int)(idle_ns / 1000000);
		int cfd, ret;

		ret = poll(&pfd, 1, ms);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0)
			break;		/* idle for idle_ns: the session ends */
		cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (cfd < 0)
			continue;
		if (peer_is_me(cfd) && serve_one(ctl, cfd, devnull))
			holder_quit = 1;
		close(cfd);
	}
	/* Only our socket: a holder that replaced a dead one may be there. */
	if (have_ino && !stat(path, &now) && now.st_ino == mine.st_ino &&
	    now.st_dev == mine.st_dev)
		unlink(path);
	close(lfd);
	gemctl_release(ctl);
	_exit(GEMCTL_OK);
}

/* --- the client --------------------------------------------------------- */

static volatile sig_atomic_t holder_pid;
static volatile sig_atomic_t client_started, client_cancelled;

/* Ctrl-C is for our command once we said go; until then it cancels it
 * (the read it interrupts gives up). */
static void client_on_sigint(int sig)
{
	(void)sig;
	if (client_started && holder_pid > 0)
		kill((pid_t)holder_pid, SIGINT);
	else if (!client_started)
		client_cancelled = 1;
}

/* One int32 from the holder; -EINTR when Ctrl-C cancelled a waiting
 * command.  0 or -errno (-EPIPE: the holder went away). */
static int client_read32(int fd, int32_t *v)
{
	size_t got = 0;
	ssize_t n;

	while (got < sizeof(*v)) {
		if (client_cancelled)
			return -EINTR;
		n = read(fd, (char *)v + got, sizeof(*v) - got);
		if (n < 0 && errno == EINTR) {
			if (client_cancelled)
				return -EINTR;
			continue;
		}
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		got += (size_t)n;
	}
	return 0;
}

/* The holder is ready: say go, unless Ctrl-C came first.  SIGINT is held
 * off while we decide, so that it is either the cancel or, once
 * client_started is set, forwarded to the command. */
static int client_go(int fd, int32_t pid)
{
	int32_t go = HOLD_GO;
	sigset_t intr, old;
	int ret = 0;

	sigemptyset(&intr);
	sigaddset(&intr, SIGINT);
	sigprocmask(SIG_BLOCK, &intr, &old);
	if (client_cancelled) {
		ret = -EINTR;
	} else {
		holder_pid = pid;
		client_started = 1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!ret && write_full(fd, &go, sizeof(go)) < 0)
		ret = -EPIPE;
	return ret;
}

static int send_request(int fd, const struct gemctl *ctl,
			const struct gemctl_holder_req *req, const char *device)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int) * HOLD_NFDS)];
	} cbuf;
	struct strbuf body = STRBUF_INIT;
	struct hold_req r = {
		.kind = req->kind,
		.flags = (ctl->json ? HOLD_JSON : 0) | (ctl->quiet ? HOLD_QUIET : 0) |
			 (ctl->errexit ? HOLD_ERREXIT : 0) | (ctl->xtrace ? HOLD_XTRACE : 0) |
			 (ctl->bytes ? HOLD_BYTES : 0),
		.timeout_ns = ctl->timeout_ns,
		.argc = (uint32_t)req->argc,
	};
	struct hold_hdr h = { .magic = HOLD_MAGIC };
	struct iovec iov = { &h, sizeof(h) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf.buf, .msg_controllen = sizeof(cbuf.buf),
	};
	struct cmsghdr *cm;
	int fds[HOLD_NFDS] = { STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO, -1 };
	int i, ret = 0;

	fds[3] = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fds[3] < 0)
		return -errno;
	strbuf_add(&body, &r, sizeof(r));
	strbuf_add(&body, device, strlen(device) + 1);
	for (i = 0; i < req->argc; i++)
		strbuf_add(&body, req->args[i], strlen(req->args[i]) + 1);
	if (body.len > HOLD_MAX_REQ) {
		ret = -E2BIG;
		goto out;
	}
	h.len = (uint32_t)body.len;
	memset(&cbuf, 0, sizeof(cbuf));
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(cm), fds, sizeof(fds));
	if (sendmsg(fd, &msg, MSG_NOSIGNAL) != (ssize_t)sizeof(h))
		ret = -errno;
	else if (write_full(fd, body.buf, body.len) < 0)
		ret = -EPIPE;
out:
	close(fds[3]);
	strbuf_release(&body);
	return ret;
}

/* Connect to session name's holder, starting one from ctl if none
 * answers (not for EXIT).  The socket, or an exit status < 0 negated. */
static int holder_connect(struct gemctl *ctl, const char *name,
			  const struct gemctl_holder_req *req)
{
	char path[PATH_MAX];
	int fd, lfd, ret;
	pid_t pid;

	ret = holder_path(name, path, sizeof(path));
	if (ret)
		return -gemctl_error(ctl, GEMCTL_FAILED, "session '%s': %s%s", name,
				     strerror(-ret), ret == -EPERM ?
				     " (its directory is not yours alone)" : "");
	fd = connect_addr(path);
	if (fd >= 0)
		return fd;
	if (req->kind == GEMCTL_HOLD_EXIT)
		return -gemctl_error(ctl, GEMCTL_FAILED, "no session '%s'", name);
	lfd = listen_addr(path);
	if (lfd == -EADDRINUSE) {
		fd = connect_addr(path);
		return fd >= 0 ? fd : -gemctl_error(ctl, GEMCTL_FAILED,
						     "session '%s': %s", name,
						     strerror(-fd));
	}
	if (lfd < 0)
		return -gemctl_error(ctl, GEMCTL_FAILED, "session '%s': cannot listen on %s: %s",
				     name, path, strerror(-lfd));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		ret = errno;
		close(lfd);
		unlink(path);
		return -gemctl_error(ctl, GEMCTL_FAILED, "session '%s': fork: %s", name,
				     strerror(ret));
	}
	if (pid == 0)
		holder_main(ctl, lfd, path, req->idle_ns);
	close(lfd);
	/* The socket listens already: the connection waits for the holder. */
	fd = connect_addr(path);
	if (fd < 0)
		return -gemctl_error(ctl, GEMCTL_FAILED, "session '%s': %s", name,
				     strerror(-fd));
	return fd;
}

int gemctl_holder_run(struct gemctl *ctl, const char *name,
		      const struct gemctl_holder_req *req)
{
	const char *device = gemctl_device(ctl);
	struct sigaction act, old;
	int32_t status;
	int fd, ret;

	if (!device)
		return gemctl_error(ctl, GEMCTL_USAGE, "no device path: %s",
				    strerror(ENAMETOOLONG));
	fd = holder_connect(ctl, name, req);
	if (fd < 0)
		return -fd;
	ret = send_request(fd, ctl, req, device);
	if (ret) {
		close(fd);
		return gemctl_error(ctl, GEMCTL_FAILED, "session '%s': %s", name,
				    strerror(-ret));
	}
	/* Ctrl-C here interrupts the command the holder runs, not the holder. */
	holder_pid = 0;
	client_started = 0;
	client_cancelled = 0;
	memset(&act, 0, sizeof(act));
	sigemptyset(&act.sa_mask);
	act.sa_handler = client_on_sigint;	/* no SA_RESTART: read sees it */
	sigaction(SIGINT, &act, &old);
	/* Not started within a second: another command holds the session.
	 * Say so once, so nobody takes the wait for a hang. */
	do
		ret = poll(&(struct pollfd){ .fd = fd, .events = POLLIN }, 1,
			   HOLD_WAIT_NOTICE_MS);
	while (ret < 0 && errno == EINTR && !client_cancelled);
	if (ret == 0)
		fprintf(stderr, "gemctl: session '%s' runs another command; this one "
			"waits its turn (Ctrl-C cancels it)\n", name);
	ret = client_read32(fd, &status);
	if (!ret && status == HOLD_READY) {
		int32_t pid;

		ret = client_read32(fd, &pid);
		if (!ret)
			ret = client_go(fd, pid);
		if (!ret)
			ret = client_read32(fd, &status);
	} else if (!ret && (req->kind != GEMCTL_HOLD_EXIT || status != GEMCTL_OK)) {
		/* Only a request it cannot read has neither: a holder of
		 * another gemctl (HOLD_MAGIC). */
		ret = -EPROTO;
	}
	sigaction(SIGINT, &old, NULL);
	close(fd);
	if (ret == -EINTR)
		return gemctl_error(ctl, GEMCTL_INTERRUPTED, "session '%s': cancelled "
				    "while it waited for the command before it", name);
	if (ret == -EPROTO)
		return gemctl_error(ctl, GEMCTL_FAILED, "session '%s' is held by another "
				    "gemctl version, which refused the request (it ends "
				    "after its idle time)", name);
	if (ret)
		return gemctl_error(ctl, GEMCTL_FAILED,
				    "session '%s' ended during the command", name);
	return status;
}
