/* The gemd socket server: a thread per connection, one table of handlers. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* accept4, struct ucred (config.h has it in a real build) */
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "acct.h"
#include "budget.h"
#include "debugfs.h"
#include "gem.h"
#include "log.h"
#include "policy.h"
#include "protocol.h"
#include "ratelimit.h"
#include "regs.h"
#include "server.h"
#include "shm.h"
#include "shmring.h"
#include "sockpath.h"
#include "sockpeer.h"
#include "strbuf.h"
#include "token.h"
#include "util.h"
#include "wire.h"

#define CONN_STACK_SIZE		(256u << 10)
#define RBUF_SMALL		256		/* OPEN/HELLO, and file connections */
#define RBUF_INITIAL		(16u << 10)	/* channels */
#define RBUF_KEEP		(1u << 20)	/* shrink back after bigger messages */
#define FILE_HASH_SIZE		256
#define STOP_TIMEOUT_MS		5000
#define SOCKET_MODE		0600	/* gemd's user; --group, --mode open it */
#define PARENT_MODE		0755

_Static_assert(sizeof(struct gem_msg_hdr) % WIRE_ALIGN == 0,
	       "payloads must start aligned in the receive buffer");

enum conn_kind { CONN_NEW, CONN_FILE, CONN_CHANNEL };

static const char *const kind_names[] = {
	[CONN_NEW] = "new", [CONN_FILE] = "file", [CONN_CHANNEL] = "channel",
};

/*
 * A drm_file as the server tracks it.  The file connection holds one
 * reference until it sees EOF; each request on a channel holds one while
 * it runs, so drm_release (gem_file_release) happens when the last of
 * them lets go, never under a request.
 */
struct file_entry {
	struct file_entry *hnext;
	struct gem_token token;
	struct gem_file *file;
	unsigned int refs;	/* srv->lock */
	bool hashed;		/* srv->lock */
	uid_t uid;
	struct conn *conn;	/* its file connection: valid while hashed */
	ino_t conn_ino;		/* that connection's socket (gemd's end) */
};

struct conn {
	struct server *srv;
	struct conn *prev, *next;	/* srv->conns, under srv->lock */
	int fd;
	enum conn_kind kind;
	pid_t pid;
	uid_t uid;
	char comm[16];
	struct file_entry *file;	/* CONN_FILE */
	uint8_t *rbuf;			/* buffered input */
	size_t rlen, ralloc;		/* ralloc: taken from srv->budget */
	size_t msg_len;			/* the message being handled: the
					 * first msg_len bytes of rbuf */
	uint64_t read_deadline_ns;	/* a message begun: 0, or when it
					 * must be whole (SO_RCVTIMEO set) */
	struct strbuf out;		/* reply payload */
	struct strbuf mem;		/* the driver's argument */
	/* a channel that asked for shared memory (shm.c): where the
	 * message being handled came from and how it is answered */
	struct shm_chan *shm;
	bool from_ring;			/* its reply goes into the ring */
	bool ring_pending;		/* a ring entry awaits shm_chan_done */
	bool noreply;			/* GEM_MSG_F_NOREPLY: no reply at all */
	int rx_fd;			/* a descriptor that came with the
					 * bytes read, -1: none */
	size_t rx_fd_at;		/* ... with rbuf[rx_fd_at] (conn_fill) */
	struct gem_token granted;	/* a channel born of GEM_MSG_CHANNEL:
					 * its file's token, usable by any
					 * uid; zero for other channels */
};

struct server {
	char path[PATH_MAX];
	dev_t sock_dev;
	ino_t sock_ino;
	mode_t sock_mode;
	bool has_group;
	gid_t group;
	int listen_fd;
	int spare_fd;			/* given up to refuse a client at EMFILE */
	int path_dir_fd;		/* sockpath_bind's directory, or -1 */
	uid_t owner_uid;		/* gemd's user: policy.h's owner */
	struct budget budget;		/* connections and buffers held */
	struct ratelimit refusals;	/* budget refusals logged */
	struct ratelimit violations;	/* protocol violations logged */
	struct gem_device *dev;
	void (*unblock)(void *data);
	void *unblock_data;
	unsigned int stop_timeout_ms;
	pthread_t accept_thread;
	bool accepting;			/* accept_thread started */
	pthread_attr_t conn_attr;

	pthread_mutex_t lock;
	pthread_cond_t idle;		/* nconns dropped to 0 */
	pthread_cond_t unhashed;	/* a file entry left the hash, or
					 * lost a reference */
	struct conn *conns;
	unsigned int nconns;
	bool stopping;
	struct file_entry *files[FILE_HASH_SIZE];
	struct shm_watch *shm_watch;	/* fixed: the shared channels' watcher */
	char *mount_dir;		/* GEM_MSG_MOUNT's answer, under lock */
	uint64_t mount_dev;
};

/* --- files ------------------------------------------------------------ */

/* The bucket is chosen by a few bits of the token: its timing tells a
 * guesser at most those bits, and file_find_locked compares the whole
 * token in constant time. */
static struct file_entry **file_bucket(struct server *srv,
				       struct gem_token token)
{
	return &srv->files[token.lo % FILE_HASH_SIZE];
}

static void file_unhash_locked(struct server *srv, struct file_entry *fe)
{
	struct file_entry **pp;

	for (pp = file_bucket(srv, fe->token); *pp; pp = &(*pp)->hnext) {
		if (*pp == fe) {
			*pp = fe->hnext;
			break;
		}
	}
	fe->hashed = false;
	pthread_cond_broadcast(&srv->unhashed);
}

static struct file_entry *file_find_locked(struct server *srv,
					    struct gem_token token)
{
	struct file_entry *fe;

	for (fe = *file_bucket(srv, token); fe; fe = fe->hnext)
		if (gem_token_equal(fe->token, token))
			return fe;
	return NULL;
}

/*
 * Give fe a token of gemd's choosing, random and unused, and hash it.
 * Nothing a client picks (its socket's name was the token once: another
 * network namespace could bind the same name and unhash the victim's
 * file) names a file.
 */
static int file_hash(struct server *srv, struct file_entry *fe)
{
	struct file_entry **bucket;
	int tries;

	pthread_mutex_lock(&srv->lock);
	for (tries = 0; tries < 8; tries++) {
		if (getrandom(&fe->token, sizeof(fe->token), 0) !=
		    (ssize_t)sizeof(fe->token))
			break;
		if (!gem_token_is_none(fe->token) &&
		    !file_find_locked(srv, fe->token))
			goto hash;
	}
	pthread_mutex_unlock(&srv->lock);
	return -EAGAIN;
hash:
	bucket = file_bucket(srv, fe->token);
	fe->hnext = *bucket;
	*bucket = fe;
	fe->hashed = true;
	pthread_mutex_unlock(&srv->lock);
	return 0;
}

/*
 * Whether c may name fe.  A token only works for the user who opened the
 * file (or root): a token that leaks (a log, a core dump) gives another
 * user nothing, as a kernel fd would not.  A channel the
 * holder of the device fd asked for through it (GEM_MSG_CHANNEL) may use
 * that file whatever its user: holding the fd is the right, as with the
 * kernel's, also after the holder dropped root.
 */
static bool conn_may_use(const struct conn *c, const struct file_entry *fe)
{
	return c->uid == 0 || c->uid == fe->uid ||
	       (!gem_token_is_none(c->granted) &&
		gem_token_equal(c->granted, fe->token));
}

/* Look a token up for a request of c. */
static struct file_entry *file_get(struct conn *c, struct gem_token token)
{
	struct server *srv = c->srv;
	struct file_entry *fe;

	pthread_mutex_lock(&srv->lock);
	fe = file_find_locked(srv, token);
	if (fe && !conn_may_use(c, fe))
		fe = NULL;
	if (fe)
		fe->refs++;
	pthread_mutex_unlock(&srv->lock);
	return fe;
}

static void file_put(struct server *srv, struct file_entry *fe)
{
	bool last;

	pthread_mutex_lock(&srv->lock);
	last = --fe->refs == 0;
	if (!last)
		pthread_cond_broadcast(&srv->unhashed);	/* handle_release */
	pthread_mutex_unlock(&srv->lock);
	if (!last)
		return;
	gem_file_release(fe->file);
	free(fe);
}

/* --- connection I/O --------------------------------------------------- */

static void conn_error(struct conn *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A peer broke the protocol: say who and what, then its connection goes.
 * Within the rate limit, as refusals are: a client reconnecting to break
 * it again wrote 60 MB of log an hour.
 */
static void conn_error(struct conn *c, const char *fmt, ...)
{
	unsigned long missed;
	char what[256];
	va_list ap;

	if (!ratelimit_allow(&c->srv->violations, &missed))
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (missed)
		log_warn("pid %d (%s): %s; closing its %s connection (%lu more "
			 "protocol violations since the last line)", (int)c->pid,
			 c->comm[0] ? c->comm : "?", what, kind_names[c->kind],
			 missed);
	else
		log_warn("pid %d (%s): %s; closing its %s connection", (int)c->pid,
			 c->comm[0] ? c->comm : "?", what, kind_names[c->kind]);
}

/*
 * read() that keeps a descriptor sent with the bytes (SCM_RIGHTS): the
 * first goes to c->rx_fd for the message's handler (PRIME import), any
 * other is closed at once.  Bytes read, 0 at EOF, or -errno.
 */
static ssize_t conn_recv(struct conn *c, void *buf, size_t len)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int) * 4)];
	} ctl;
	struct iovec iov = { buf, len };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	struct cmsghdr *cm;
	ssize_t n;

	do
		n = recvmsg(c->fd, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
		size_t i, nfds = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		for (i = 0; i < nfds; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
			if (c->rx_fd < 0)
				c->rx_fd = fd;
			else
				close(fd);
		}
	}
	return n;
}

static void conn_drop_fd(struct conn *c)
{
	if (c->rx_fd >= 0)
		close(c->rx_fd);
	c->rx_fd = -1;
}

/* A budget refusal: said once a second, not once per attempt. */
static void server_refusal(struct server *srv, uid_t uid, pid_t pid,
			   const char *what)
{
	unsigned long missed;

	if (ratelimit_allow(&srv->refusals, &missed))
		log_warn("uid %u pid %d: %s (%lu more such refusals since the "
			 "last line)", (unsigned int)uid, (int)pid, what, missed);
}

/* Grow c's buffer's share of the budget to size bytes. */
static int conn_budget_bytes(struct conn *c, size_t size)
{
	int ret = budget_bytes_get(&c->srv->budget, c->uid, size - c->ralloc);

	if (ret)
		server_refusal(c->srv, c->uid, c->pid, "request buffer refused: "
			       "ENOBUFS (buffered bytes cap); closing");
	return ret;
}

/*
 * Some of a message is in: the rest must come by the deadline.  The
 * socket's receive timeout is set to what is left of it before each
 * read, so a client trickling a byte at a time gains nothing.
 */
static int conn_read_deadline(struct conn *c)
{
	uint64_t now = now_ns(), left;
	struct timeval tv;

	if (!c->read_deadline_ns)
		c->read_deadline_ns = now + BUDGET_READ_DEADLINE_MS * 1000000ull;
	if (now >= c->read_deadline_ns)
		return -ETIMEDOUT;
	left = c->read_deadline_ns - now;
	tv.tv_sec = (time_t)(left / 1000000000ull);
	tv.tv_usec = (suseconds_t)(left % 1000000000ull / 1000u) + 1;
	if (setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		return -errno;
	return 0;
}

/* The message is whole: waiting for the next one has no deadline. */
static void conn_read_done(struct conn *c)
{
	struct timeval tv = { 0, 0 };

	if (!c->read_deadline_ns)
		return;
	c->read_deadline_ns = 0;
	setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

/*
 * Whether the descriptor came with the message at the head of rbuf.  One
 * read can bring a message, then the next one with its descriptor (the
 * kernel stops a read after the bytes a descriptor came with, not
 * before): the descriptor is the later message's.
 */
static bool conn_fd_is_this(const struct conn *c, const struct gem_msg_hdr *hdr)
{
	return c->rx_fd >= 0 && !c->from_ring &&
	       c->rx_fd_at < sizeof(*hdr) + (size_t)hdr->len;
}

/* The descriptor of this message for its handler to own, or -1. */
static int conn_take_fd(struct conn *c, const struct gem_msg_hdr *hdr)
{
	int fd = -1;

	if (conn_fd_is_this(c, hdr)) {
		fd = c->rx_fd;
		c->rx_fd = -1;
	}
	return fd;
}

/* The message is done: a descriptor of its that nobody took is not kept. */
static void conn_done_fd(struct conn *c, const struct gem_msg_hdr *hdr)
{
	if (conn_fd_is_this(c, hdr))
		conn_drop_fd(c);
}

/*
 * Buffer at least want bytes: 1, 0 at EOF, or -errno.  Each read takes
 * all the room there is, so a request's header and payload normally
 * arrive in one read().
 */
static int conn_fill(struct conn *c, size_t want)
{
	bool had_fd;

	while (c->rlen < want) {
		ssize_t n;
		int ret;

		if (want > c->ralloc) {
			size_t size = MAX(want, c->kind == CONN_CHANNEL ?
					  (size_t)RBUF_INITIAL : (size_t)RBUF_SMALL);
			uint8_t *p;

			ret = conn_budget_bytes(c, size);
			if (ret)
				return ret;
			p = realloc(c->rbuf, size);
			if (!p) {
				budget_bytes_put(&c->srv->budget, c->uid, size - c->ralloc);
				return -ENOMEM;
			}
			c->rbuf = p;
			c->ralloc = size;
		}
		if (c->rlen) {
			ret = conn_read_deadline(c);
			if (ret)
				return ret;
		}
		had_fd = c->rx_fd >= 0;
		n = conn_recv(c, c->rbuf + c->rlen, c->ralloc - c->rlen);
		if (n == -EAGAIN || n == -EWOULDBLOCK)
			n = -ETIMEDOUT;		/* SO_RCVTIMEO */
		if (n <= 0)
			return (int)n;
		if (!had_fd && c->rx_fd >= 0)
			c->rx_fd_at = c->rlen + (size_t)n - 1;
		c->rlen += (size_t)n;
	}
	return 1;
}

static void conn_consume(struct conn *c, size_t n)
{
	if (c->rx_fd >= 0)
		c->rx_fd_at -= n;	/* a later message's (conn_done_fd) */
	c->rlen -= n;
	if (c->rlen)
		memmove(c->rbuf, c->rbuf + n, c->rlen);
	if (c->ralloc > RBUF_KEEP && c->rlen <= RBUF_INITIAL) {
		uint8_t *p = realloc(c->rbuf, RBUF_INITIAL);

		if (p) {
			budget_bytes_put(&c->srv->budget, c->uid,
					 c->ralloc - RBUF_INITIAL);
			c->rbuf = p;
			c->ralloc = RBUF_INITIAL;
		}
	}
}

/* Only ioctls (and interrupts, which are never answered) may go
 * unanswered. */
static int conn_check_flags(struct conn *c, const struct gem_msg_hdr *hdr)
{
	if (hdr->flags & ~GEM_MSG_F_KNOWN) {
		conn_error(c, "unknown flags 0x%x", hdr->flags);
		return -EPROTO;
	}
	if ((hdr->flags & GEM_MSG_F_NOREPLY) && hdr->type != GEM_MSG_IOCTL &&
	    hdr->type != GEM_MSG_INTERRUPT) {
		conn_error(c, "NOREPLY on a message of type %u", hdr->type);
		return -EPROTO;
	}
	return 0;
}

/*
 * The next message, with its payload in c->rbuf.  Returns 1, 0 when the
 * peer closed between messages (the normal end), or -errno after logging
 * why the connection must go.
 */
static int conn_read_msg(struct conn *c, struct gem_msg_hdr *hdr, uint8_t **payload)
{
	int ret;

	ret = conn_fill(c, sizeof(*hdr));
	if (ret <= 0) {
		if (ret == -ETIMEDOUT)
			log_info("pid %d (%s): read deadline passed inside a "
				 "message header", (int)c->pid, c->comm);
		else if (ret == 0 && c->rlen)
			log_info("pid %d (%s): closed inside a message header",
				 (int)c->pid, c->comm);
		else if (ret < 0 && ret != -ECONNRESET)
			log_info("pid %d (%s): read: %s", (int)c->pid, c->comm,
				 strerror(-ret));
		return ret < 0 ? ret : 0;
	}
	memcpy(hdr, c->rbuf, sizeof(*hdr));
	if (hdr->magic != GEM_PROTOCOL_MAGIC) {
		conn_error(c, "bad magic 0x%08x", hdr->magic);
		return -EPROTO;
	}
	if (hdr->len > GEM_MSG_MAX_PAYLOAD) {
		conn_error(c, "%u-byte payload exceeds the %u-byte limit",
			   hdr->len, GEM_MSG_MAX_PAYLOAD);
		return -EPROTO;
	}
	ret = conn_check_flags(c, hdr);
	if (ret)
		return ret;
	ret = conn_fill(c, sizeof(*hdr) + hdr->len);
	if (ret <= 0) {
		/* A client that dies mid-request only loses its own request. */
		log_info("pid %d (%s): %s inside a %u-byte message",
			 (int)c->pid, c->comm, ret == -ETIMEDOUT ?
			 "read deadline passed" : "went away", hdr->len);
		return ret < 0 ? ret : -ECONNRESET;
	}
	conn_read_done(c);
	c->msg_len = sizeof(*hdr) + hdr->len;
	*payload = c->rbuf + sizeof(*hdr);
	return 1;
}

static int conn_reply(struct conn *c, int result, const void *data, size_t len,
		      int pass_fd)
{
	struct gem_reply_hdr rh = {
		.magic = GEM_PROTOCOL_MAGIC,
		.result = result,
		.len = (uint32_t)len,
		.nfds = pass_fd >= 0,
	};
	struct iovec iov[2] = {
		{ &rh, sizeof(rh) },
		{ (void *)data, len },
	};
	ssize_t n;

	if (c->noreply)
		return 0;
	/* A descriptor, or a reply too large for the ring, takes the socket. */
	if (c->from_ring) {
		if (pass_fd < 0 && !shm_chan_reply(c->shm, result, data, len))
			return 0;
		shm_chan_on_socket(c->shm);
	}
	n = wire_send(c->fd, iov, 2, pass_fd);
	if (n < 0) {
		log_debug("pid %d (%s): reply not delivered: %s", (int)c->pid,
			  c->comm, strerror((int)-n));
		return (int)n;
	}
	return 0;
}

/* --- message handlers ------------------------------------------------- */

/* May this peer make this request (policy.c)?  0, -EACCES or -ENOENT. */
static int conn_permit(struct conn *c, uint16_t type, uint32_t request,
		       const char *path, int mode)
{
	struct policy_peer peer = { .uid = c->uid, .pid = c->pid,
				    .comm = c->comm[0] ? c->comm : "?" };
	struct policy_request req = { .type = type, .request = request,
				      .path = path, .mode = mode };

	return policy_check(c->srv->owner_uid, &peer, &req);
}

static int hello_parse(struct conn *c, const struct gem_msg_hdr *hdr,
		       const uint8_t *payload, const char *what)
{
	struct gem_msg_hello hello;

	if (hdr->len != sizeof(hello)) {
		conn_error(c, "%s payload of %u bytes, expected %zu", what,
			   hdr->len, sizeof(hello));
		return -EPROTO;
	}
	memcpy(&hello, payload, sizeof(hello));
	memcpy(c->comm, hello.comm, sizeof(c->comm) - 1);
	c->comm[sizeof(c->comm) - 1] = '\0';
	if (hello.version != GEM_PROTOCOL_VERSION) {
		log_warn("pid %d (%s): protocol version %u, gemd speaks %u; refused",
			 (int)c->pid, c->comm, hello.version, GEM_PROTOCOL_VERSION);
		conn_reply(c, -EPROTO, NULL, 0, -1);
		return -EPROTO;
	}
	return 0;
}

static int handle_open(struct conn *c, const struct gem_msg_hdr *hdr,
		       uint8_t *payload)
{
	struct server *srv = c->srv;
	struct gem_open_reply rep = { .version = GEM_PROTOCOL_VERSION };
	struct file_entry *fe;
	struct stat st;
	int ret;

	ret = hello_parse(c, hdr, payload, "OPEN");
	if (ret)
		return ret;
	if (fstat(c->fd, &st) < 0) {
		ret = -errno;
		goto out_refuse;
	}
	fe = calloc(1, sizeof(*fe));
	if (!fe) {
		ret = -ENOMEM;
		goto out_refuse;
	}
	ret = gem_file_open(srv->dev, c->pid, c->comm, &fe->file);
	if (ret)
		goto out_free_entry;
	gem_file_set_admin(fe->file, c->uid == 0);
	fe->refs = 1;		/* this connection's */
	fe->uid = c->uid;
	fe->conn = c;
	fe->conn_ino = st.st_ino;
	ret = file_hash(srv, fe);
	if (ret)
		goto out_release;
	rep.file = fe->token;
	c->file = fe;
	c->kind = CONN_FILE;
	log_debug("pid %d (%s): opened file %04x...", (int)c->pid, c->comm,
		  gem_token_tag(rep.file));
	return conn_reply(c, 0, &rep, sizeof(rep), -1);

out_release:
	gem_file_release(fe->file);
out_free_entry:
	free(fe);
out_refuse:
	log_warn("pid %d (%s): cannot open a file: %s", (int)c->pid, c->comm,
		 strerror(-ret));
	conn_reply(c, ret, NULL, 0, -1);
	return ret;
}

static int handle_hello(struct conn *c, const struct gem_msg_hdr *hdr,
			uint8_t *payload)
{
	int ret = hello_parse(c, hdr, payload, "HELLO");

	if (ret)
		return ret;
	c->kind = CONN_CHANNEL;
	return conn_reply(c, 0, NULL, 0, -1);
}

/*
 * GEM_MSG_SHM: from now on this channel's requests come through a ring in
 * memory shared with the client (shm.c); the socket stays for what the
 * ring cannot carry and for noticing the client's death.
 */
static int handle_shm(struct conn *c, const struct gem_msg_hdr *hdr,
		      uint8_t *payload)
{
	struct gem_shm_reply rep = {
		.size = GEM_SHM_SIZE,
		.ring_size = GEM_SHM_RING_SIZE,
		.reply_size = GEM_SHM_REPLY_SIZE,
	};
	int fd, ret;

	(void)payload;
	if (hdr->len || c->shm) {
		conn_error(c, "SHM %s", c->shm ? "twice" : "with a payload");
		return -EPROTO;
	}
	ret = shm_chan_create(c->srv->shm_watch, c->fd, &c->shm, &fd);
	if (ret) {
		log_warn("pid %d (%s): no shared channel: %s", (int)c->pid,
			 c->comm, strerror(-ret));
		return conn_reply(c, ret, NULL, 0, -1);
	}
	ret = conn_reply(c, 0, &rep, sizeof(rep), fd);
	close(fd);
	return ret;
}

/* GEM_MSG_SYNC: the messages before it are handled, as this one is. */
static int handle_sync(struct conn *c, const struct gem_msg_hdr *hdr,
		       uint8_t *payload)
{
	(void)payload;
	if (hdr->len) {
		conn_error(c, "SYNC with a %u-byte payload", hdr->len);
		return -EPROTO;
	}
	return conn_reply(c, 0, NULL, 0, -1);
}

/* The gem core's answers in the wire's structs (the core has its own). */
static void loc_to_wire(const struct gem_backing_loc *in, struct gem_location *out)
{
	_Static_assert(GEM_LOC_SYNC_AFTER == (1u << 0) && GEM_LOC_REMAP == (1u << 1) &&
		       GEM_LOC_PURGED == (1u << 2),
		       "the core's location flags are the wire's");
	*out = (struct gem_location){
		.arena = in->arena, .flags = in->flags, .offset = in->offset,
		.size = in->size, .object = in->object,
	};
}

static void hang_to_wire(const struct gem_hang_info *in, struct gem_hang_event *out)
{
	*out = (struct gem_hang_event){
		.seq = in->seq, .time_ns = in->time_ns, .detect_ns = in->detect_ns,
		.seqno = in->seqno, .pid = in->pid, .file = in->file,
		.acthd = in->acthd, .ipehr = in->ipehr, .recovered = in->recovered,
	};
	_Static_assert(sizeof(out->kind) == sizeof(in->kind), "kind");
	memcpy(out->kind, in->kind, sizeof(out->kind));
}

/*
 * gem_signal_source's question for the request c is handling: did a
 * signal break the client's wait for it?  A channel with a ring says so
 * in it; one on the socket alone sends GEM_MSG_INTERRUPT, the only thing
 * it may send while it waits.  A client that is gone counts as killed.
 * The interrupt can be in rbuf already: conn_fill reads all there is, so
 * a client slower to be answered than to be signalled has its request
 * and its interrupt read at once, and a look at the socket alone would
 * wait for the GPU however long it takes.
 */
static bool conn_signal_pending(void *arg)
{
	struct conn *c = arg;
	struct gem_msg_hdr next;
	size_t have = 0;
	ssize_t n;

	if (c->shm)
		return shm_chan_interrupted(c->shm);
	if (c->rlen > c->msg_len) {
		have = MIN(c->rlen - c->msg_len, sizeof(next));
		memcpy(&next, c->rbuf + c->msg_len, have);
	}
	if (have < sizeof(next)) {
		n = recv(c->fd, (uint8_t *)&next + have, sizeof(next) - have,
			 MSG_PEEK | MSG_DONTWAIT);
		if (n == 0)
			return true;
		if (n != (ssize_t)(sizeof(next) - have))
			return false;
	}
	return next.magic == GEM_PROTOCOL_MAGIC && next.type == GEM_MSG_INTERRUPT;
}

/* Read by conn_signal_pending, after the request it was about. */
static int handle_interrupt(struct conn *c, const struct gem_msg_hdr *hdr,
			    uint8_t *payload)
{
	(void)payload;
	if (hdr->len || !(hdr->flags & GEM_MSG_F_NOREPLY)) {
		conn_error(c, "INTERRUPT with a payload or wanting a reply");
		return -EPROTO;
	}
	return 0;
}

static int handle_ioctl(struct conn *c, const struct gem_msg_hdr *hdr,
			uint8_t *payload)
{
	struct wire_server_call call;
	struct gem_call gc = {
		.caller_pid = c->pid, .caller_admin = c->uid == 0,
		.caller_uid = c->uid, .fd_in = -1, .fd_out = -1,
	};
	struct gem_location loc;
	struct file_entry *fe;
	int ret, pret, fd;

	strbuf_reset(&c->out);
	fe = file_get(c, hdr->file);
	if (!fe)
		return conn_reply(c, -EBADF, NULL, 0, -1);
	ret = conn_permit(c, GEM_MSG_IOCTL, hdr->request, NULL, -1);
	if (ret)
		goto out_put;
	/* The request's descriptor: the driver's for PRIME's import, the
	 * codec's otherwise (an execbuffer's relocations out of line). */
	fd = conn_take_fd(c, hdr);
	if (wire_ioctl_fds(hdr->request) & WIRE_FD_IN) {
		gc.fd_in = fd;
		fd = -1;
	}
	ret = wire_server_unpack(&call, hdr->request, payload, hdr->len, &c->mem, fd);
	if (fd >= 0)
		close(fd);	/* what it maps stays mapped */
	if (ret) {
		log_debug("pid %d (%s): ioctl %#x (%s): payload refused: %s",
			  (int)c->pid, c->comm, hdr->request,
			  wire_ioctl_name(hdr->request), strerror(-ret));
		goto out_close;
	}
	gem_signal_source(conn_signal_pending, c);
	ret = gem_ioctl_dispatch(fe->file, hdr->request, call.karg, &gc);
	gem_signal_source(NULL, NULL);
	if (gc.has_loc)
		loc_to_wire(&gc.loc, &loc);
	pret = wire_server_pack(&call, ret, gc.has_loc ? &loc : NULL, &c->out);
	wire_server_release(&call);
	if (pret) {
		/* The driver ran but its answer cannot be sent back. */
		strbuf_reset(&c->out);
		ret = pret;
	}
	if (ret < 0 && gc.fd_out >= 0) {
		close(gc.fd_out);
		gc.fd_out = -1;
	}
out_close:
	if (gc.fd_in >= 0)
		close(gc.fd_in);
out_put:
	file_put(c->srv, fe);
	/* A descriptor goes along with a success only; ours is closed. */
	pret = conn_reply(c, ret, c->out.buf, c->out.len, ret >= 0 ? gc.fd_out : -1);
	if (gc.fd_out >= 0)
		close(gc.fd_out);
	return pret;
}

static int handle_arena(struct conn *c, const struct gem_msg_hdr *hdr,
			uint8_t *payload)
{
	struct gem_arena_reply rep = { 0 };
	struct file_entry *fe;
	int fd, ret;

	if (hdr->len) {
		conn_error(c, "ARENA with a %u-byte payload", hdr->len);
		return -EPROTO;
	}
	/* Only a client holding a file may map object memory. */
	fe = file_get(c, hdr->file);
	if (!fe)
		return conn_reply(c, -EBADF, NULL, 0, -1);
	fd = gem_arena_fd(fe->file, hdr->request, &rep.size);
	file_put(c->srv, fe);
	if (fd < 0)
		return conn_reply(c, fd, NULL, 0, -1);
	ret = conn_reply(c, 0, &rep, sizeof(rep), fd);
	close(fd);
	return ret;
}

/*
 * The handle table the core writes is the one clients read (protocol.h),
 * byte for byte: the core keeps its own names, checked here.
 */
#define SAME_FIELD(f) \
	_Static_assert(offsetof(struct gem_handle_state, f) == \
		       offsetof(struct gem_handle_status, f), #f)
SAME_FIELD(seq);
SAME_FIELD(flags);
SAME_FIELD(read_seqno);
SAME_FIELD(write_seqno);
SAME_FIELD(arena);
SAME_FIELD(offset);
SAME_FIELD(size);
SAME_FIELD(object);
#undef SAME_FIELD
_Static_assert(sizeof(struct gem_handle_state) == sizeof(struct gem_handle_status) &&
	       GEM_HANDLE_STATE_MAX == GEM_STATUS_HANDLES_MAX &&
	       GEM_HANDLE_DIRECT == GEM_HS_DIRECT && GEM_HANDLE_ALIVE == GEM_HS_ALIVE &&
	       GEM_STATUS_SEQNO_DWORD == I915_GEM_HWS_INDEX &&
	       GEM_STATUS_COPIES_DWORD == GEM_STATUS_COPIES_AT,
	       "the status pages as the protocol describes them");

/*
 * GEM_MSG_STATUS: a descriptor of a status page: the hardware status page
 * for anyone, a file's handle table and its copies count (the one page
 * clients write) for a client holding the file, the register file for
 * root (sysfs's resource0 is 0600 root: the registers show where every
 * client's tiled objects are).
 */
static int handle_status(struct conn *c, const struct gem_msg_hdr *hdr,
			 uint8_t *payload)
{
	struct gem_status_reply rep = { 0 };
	struct file_entry *fe;
	int fd, ret;

	(void)payload;
	if (hdr->len) {
		conn_error(c, "STATUS with a %u-byte payload", hdr->len);
		return -EPROTO;
	}
	switch (hdr->request) {
	case GEM_STATUS_HWS:
		fd = gem_status_hws_fd(c->srv->dev, &rep.size);
		break;
	case GEM_STATUS_HANDLES:
	case GEM_STATUS_COPIES:
		fe = file_get(c, hdr->file);
		if (!fe)
			return conn_reply(c, -EBADF, NULL, 0, -1);
		fd = hdr->request == GEM_STATUS_HANDLES ?
			gem_status_handles_fd(fe->file, &rep.size) :
			gem_status_copies_fd(fe->file, &rep.size);
		file_put(c->srv, fe);
		break;
	case GEM_STATUS_MMIO:
		fd = c->uid == 0 ? gem_status_mmio_fd(c->srv->dev, &rep.size) : -EACCES;
		break;
	default:
		fd = -EINVAL;
		break;
	}
	if (fd < 0)
		return conn_reply(c, fd, NULL, 0, -1);
	ret = conn_reply(c, 0, &rep, sizeof(rep), fd);
	close(fd);
	return ret;
}

static int handle_mmap(struct conn *c, const struct gem_msg_hdr *hdr,
		       uint8_t *payload)
{
	struct gem_mmap_req req;
	struct gem_backing_loc bl;
	struct gem_location loc;
	struct file_entry *fe;
	int ret;

	if (hdr->len != sizeof(req)) {
		conn_error(c, "MMAP payload of %u bytes, expected %zu",
			   hdr->len, sizeof(req));
		return -EPROTO;
	}
	memcpy(&req, payload, sizeof(req));
	fe = file_get(c, hdr->file);
	if (!fe)
		return conn_reply(c, -EBADF, NULL, 0, -1);
	ret = gem_mmap_lookup(fe->file, req.offset, req.length, &bl);
	file_put(c->srv, fe);
	if (ret)
		return conn_reply(c, ret, NULL, 0, -1);
	loc_to_wire(&bl, &loc);
	return conn_reply(c, 0, &loc, sizeof(loc), -1);
}

/*
 * GEM_MSG_RELEASE: the client closed a device fd.  If that was the last
 * copy, the file connection reads EOF: wait until its thread has taken the
 * file out of the hash, then drop our reference, which releases the
 * drm_file here and now unless a request of the same client is still
 * running.  The kernel's drm_release is part of close(2); this makes
 * gemd's as good as that for the closer.
 */
static int handle_release(struct conn *c, const struct gem_msg_hdr *hdr,
			  uint8_t *payload)
{
	struct server *srv = c->srv;
	struct file_entry *fe;
	char byte;

	(void)payload;
	if (hdr->len) {
		conn_error(c, "RELEASE with a %u-byte payload", hdr->len);
		return -EPROTO;
	}
	pthread_mutex_lock(&srv->lock);
	fe = file_find_locked(srv, hdr->file);
	if (fe && !conn_may_use(c, fe))
		fe = NULL;
	/* Still open somewhere (a dup, a child): nothing to wait for. */
	if (fe && recv(fe->conn->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) != 0 &&
	    errno != ECONNRESET)
		fe = NULL;
	if (fe) {
		fe->refs++;
		/* Until ours is the last reference: the connection's own
		 * goes only after it unhashed the file, and the last put
		 * releases the drm_file and its DRM master, here, before the
		 * reply. */
		while ((fe->hashed || fe->refs > 1) && !srv->stopping)
			pthread_cond_wait(&srv->unhashed, &srv->lock);
	}
	pthread_mutex_unlock(&srv->lock);
	if (fe)
		file_put(srv, fe);
	return conn_reply(c, 0, NULL, 0, -1);
}

/*
 * The file a client's own end of a file connection stands for: the one
 * whose connection is its peer (unix_diag); without unix_diag in the
 * kernel, the one of the same user whose peer has the same autobound
 * name (names collide only across network namespaces).
 */
static struct file_entry *file_of_client_socket_locked(struct server *srv,
						       int fd, uid_t uid)
{
	struct sockaddr_un mine, theirs;
	socklen_t mlen = sizeof(mine), tlen;
	struct file_entry *fe;
	ino_t peer = 0;
	bool by_ino;
	size_t i;

	by_ino = sock_peer_ino(fd, &peer) == 0;
	if (!by_ino && getsockname(fd, (struct sockaddr *)&mine, &mlen) < 0)
		return NULL;
	for (i = 0; i < FILE_HASH_SIZE; i++) {
		for (fe = srv->files[i]; fe; fe = fe->hnext) {
			if (uid != 0 && uid != fe->uid)
				continue;
			if (by_ino) {
				if (fe->conn_ino == peer)
					return fe;
				continue;
			}
			tlen = sizeof(theirs);
			if (getpeername(fe->conn->fd, (struct sockaddr *)&theirs,
					&tlen) == 0 && tlen == mlen &&
			    !memcmp(&theirs, &mine, mlen))
				return fe;
		}
	}
	return NULL;
}

/*
 * GEM_MSG_TOKEN: which file a device fd is.  A process that got the fd
 * by fork, exec or SCM_RIGHTS sends it along to learn its token:
 * holding the fd is the right to use the file, as with the kernel's.
 */
static int handle_token(struct conn *c, const struct gem_msg_hdr *hdr,
			uint8_t *payload)
{
	struct gem_open_reply rep = { .version = GEM_PROTOCOL_VERSION };
	struct server *srv = c->srv;
	struct file_entry *fe;

	(void)payload;
	if (hdr->len) {
		conn_error(c, "TOKEN with a %u-byte payload", hdr->len);
		return -EPROTO;
	}
	if (c->rx_fd < 0)
		return conn_reply(c, -EBADF, NULL, 0, -1);
	pthread_mutex_lock(&srv->lock);
	/* A granted channel's user may differ from the file's: look among
	 * all, then judge as any request. */
	fe = file_of_client_socket_locked(srv, c->rx_fd,
					  gem_token_is_none(c->granted) ? c->uid : 0);
	if (fe && !conn_may_use(c, fe))
		fe = NULL;
	if (fe)
		rep.file = fe->token;
	pthread_mutex_unlock(&srv->lock);
	if (!fe)
		return conn_reply(c, -EBADF, NULL, 0, -1);
	return conn_reply(c, 0, &rep, sizeof(rep), -1);
}

static void conn_spawn(struct server *srv, int fd, struct gem_token granted);

/*
 * GEM_MSG_CHANNEL, on a file connection: serve the socket that came with
 * it as a channel that may use this file.  Its user is its creator's
 * (SO_PEERCRED of a socketpair), so privilege checks see who asks now.
 * Nothing is answered here: every copy of the device fd shares this
 * connection, and a reply would be read by whichever copy reads first.
 */
/*
 * Whether fd is one end of a socketpair: an unnamed AF_UNIX stream socket
 * with an unnamed peer.  SO_PEERCRED then names whoever made the pair, not
 * a daemon the sender happens to be connected to.
 */
static bool is_socketpair_end(int fd)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof(sa);
	int type = 0;
	socklen_t tlen = sizeof(type);

	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tlen) < 0 ||
	    type != SOCK_STREAM)
		return false;
	if (getsockname(fd, (struct sockaddr *)&sa, &len) < 0 ||
	    sa.sun_family != AF_UNIX || len != sizeof(sa_family_t))
		return false;
	len = sizeof(sa);
	return getpeername(fd, (struct sockaddr *)&sa, &len) == 0 &&
	       len == sizeof(sa_family_t);
}

static int handle_channel(struct conn *c, const struct gem_msg_hdr *hdr,
			  uint8_t *payload)
{
	int fd;

	(void)payload;
	if (hdr->len) {
		conn_error(c, "CHANNEL with a %u-byte payload", hdr->len);
		return -EPROTO;
	}
	fd = conn_take_fd(c, hdr);
	if (fd < 0 || !is_socketpair_end(fd)) {
		conn_error(c, "CHANNEL without a socketpair's end");
		if (fd >= 0)
			close(fd);
		return -EPROTO;
	}
	conn_spawn(c->srv, fd, c->file->token);
	return 0;
}

/* GEM_MSG_SYNCFILE: sync_file ioctls on gemd's out-fences (syncfile.c). */
static int handle_syncfile(struct conn *c, const struct gem_msg_hdr *hdr,
			   uint8_t *payload)
{
	struct gem_syncfile_req req;
	struct gem_syncfile_info info = { .status = 0 };
	int ret, status;

	if (hdr->len != sizeof(req)) {
		conn_error(c, "SYNCFILE payload of %u bytes, expected %zu",
			   hdr->len, sizeof(req));
		return -EPROTO;
	}
	memcpy(&req, payload, sizeof(req));
	switch (hdr->request) {
	case GEM_SYNCFILE_INFO:
		ret = gem_syncfile_info(c->srv->dev, req.ino[0], &status,
					&info.signal_ns);
		if (ret)
			return conn_reply(c, ret, NULL, 0, -1);
		info.status = status;
		return conn_reply(c, 0, &info, sizeof(info), -1);
	case GEM_SYNCFILE_MERGE:
		ret = gem_syncfile_merge(c->srv->dev, req.ino[0], req.ino[1]);
		if (ret < 0)
			return conn_reply(c, ret, NULL, 0, -1);
		status = conn_reply(c, 0, NULL, 0, ret);
		close(ret);
		return status;
	default:
		return conn_reply(c, -EINVAL, NULL, 0, -1);
	}
}

/*
 * GEM_MSG_DMABUF: poll() and DMA_BUF_IOCTL_SYNC on a dma-buf.  The fd
 * that came with the request is the object and the right to ask; the
 * wait blocks this connection's thread only.
 */
static int handle_dmabuf(struct conn *c, const struct gem_msg_hdr *hdr,
			 uint8_t *payload)
{
	struct gem_dmabuf_req req;
	int ret;

	_Static_assert(GEM_DMABUF_WRITE == (1u << 0) && GEM_DMABUF_READ == (1u << 1),
		       "the core's dma-buf bits are the wire's");
	if (hdr->len != sizeof(req)) {
		conn_error(c, "DMABUF payload of %u bytes, expected %zu",
			   hdr->len, sizeof(req));
		return -EPROTO;
	}
	memcpy(&req, payload, sizeof(req));
	if (!conn_fd_is_this(c, hdr))
		return conn_reply(c, -EBADF, NULL, 0, -1);
	switch (hdr->request) {
	case GEM_DMABUF_BUSY:
		ret = (int)gem_dmabuf_busy(c->srv->dev, c->rx_fd);
		break;
	case GEM_DMABUF_WAIT:
		ret = gem_dmabuf_wait(c->srv->dev, c->rx_fd, req.write != 0,
				      req.timeout_ms ?
				      (int64_t)req.timeout_ms * 1000000 : -1);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return conn_reply(c, ret, NULL, 0, -1);
}

/* GEM_DEBUGFS_READ of GEM_DEBUGFS_FDINFO with a file: that file's
 * fdinfo block, as /proc/self/fdinfo shows it (the interposer's). */
static int handle_fdinfo(struct conn *c, struct gem_token token,
			 const char *path)
{
	struct file_entry *fe;
	int ret;

	if (strcmp(path, GEM_DEBUGFS_FDINFO))
		return -ENOENT;
	fe = file_get(c, token);
	if (!fe)
		return -EBADF;
	ret = gem_debugfs_fdinfo(fe->file, &c->out);
	file_put(c->srv, fe);
	return ret;
}

/*
 * GEM_MSG_DEBUGFS: the debugfs files without FUSE, byte-identical to a
 * read through the mount (both go through gem_debugfs_*).  No drm_file is
 * needed: tools that only look at the driver open none.
 */
static int handle_debugfs(struct conn *c, const struct gem_msg_hdr *hdr,
			  uint8_t *payload)
{
	const char *path = (const char *)payload;
	const uint8_t *nul = hdr->len ? memchr(payload, '\0', hdr->len) : NULL;
	const uint8_t *extra;
	struct gem_debugfs_range r;
	size_t extralen;
	ssize_t n;
	int ret;

	if (!nul) {
		conn_error(c, "DEBUGFS without a NUL-terminated path");
		return -EPROTO;
	}
	extra = nul + 1;
	extralen = hdr->len - (size_t)(extra - payload);
	strbuf_reset(&c->out);
	ret = conn_permit(c, GEM_MSG_DEBUGFS, hdr->request, path,
			  gem_debugfs_mode(path));
	if (ret)
		return conn_reply(c, ret, NULL, 0, -1);
	switch (hdr->request) {
	case GEM_DEBUGFS_READ:
		if (!gem_token_is_none(hdr->file)) {	/* the channel's own file: its fdinfo */
			ret = handle_fdinfo(c, hdr->file, path);
			break;
		}
		/* Raw files larger than a message are refused before a
		 * byte is buffered: use GEM_DEBUGFS_RANGE. */
		ret = gem_debugfs_read_max(c->srv->dev, path, GEM_MSG_MAX_PAYLOAD,
					   &c->out);
		if (!ret && c->out.len > GEM_MSG_MAX_PAYLOAD)
			ret = -EFBIG;
		break;
	case GEM_DEBUGFS_RANGE:
		if (extralen != sizeof(r)) {
			conn_error(c, "DEBUGFS range of %zu bytes", extralen);
			return -EPROTO;
		}
		memcpy(&r, extra, sizeof(r));
		ret = r.length > GEM_MSG_MAX_PAYLOAD ? -EINVAL :
		      gem_debugfs_read_range(c->srv->dev, path, r.offset, r.length, &c->out);
		break;
	case GEM_DEBUGFS_WRITE:
		n = gem_debugfs_write(c->srv->dev, path, (const char *)extra, extralen);
		ret = n < 0 ? (int)n : (int)MIN((size_t)n, (size_t)INT_MAX);
		break;
	case GEM_DEBUGFS_LIST:
		ret = gem_debugfs_list(c->srv->dev, &c->out);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	if (ret < 0)
		strbuf_reset(&c->out);
	ret = conn_reply(c, ret, c->out.buf, c->out.len, -1);
	/* A big read's buffer is not kept by an idle connection. */
	if (c->out.alloc > RBUF_KEEP)
		strbuf_release(&c->out);
	return ret;
}

/*
 * GEM_MSG_HANG_WAIT: block this connection's thread (only) until a hang
 * capture newer than 'after' exists.  The wait goes in 100 ms slices so
 * that a client that goes away, or gemd stopping (which shuts every
 * connection down), ends it.  No drm_file is needed.
 */
static int handle_hang_wait(struct conn *c, const struct gem_msg_hdr *hdr,
			    uint8_t *payload)
{
	struct gem_hang_wait req;
	struct gem_hang_event ev;
	struct gem_hang_info info;
	uint64_t deadline = 0, now;
	uint32_t slice;
	char byte;
	int ret;

	if (hdr->len != sizeof(req)) {
		conn_error(c, "HANG_WAIT payload of %u bytes, expected %zu",
			   hdr->len, sizeof(req));
		return -EPROTO;
	}
	memcpy(&req, payload, sizeof(req));
	if (req.after == GEM_HANG_NEXT)
		req.after = gem_hang_seq(c->srv->dev);
	if (req.timeout_ms)
		deadline = now_ns() + (uint64_t)req.timeout_ms * 1000000ull;
	for (;;) {
		slice = 100;
		if (deadline) {
			now = now_ns();
			if (now >= deadline) {
				ret = -ETIMEDOUT;
				break;
			}
			slice = (uint32_t)MIN((uint64_t)slice,
					      (deadline - now + 999999) / 1000000);
		}
		ret = gem_hang_wait(c->srv->dev, req.after, slice, &info);
		if (ret != -ETIMEDOUT)
			break;
		if (recv(c->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0)
			return -ECONNRESET;	/* EOF: nobody to answer */
	}
	if (ret)
		return conn_reply(c, ret, NULL, 0, -1);
	hang_to_wire(&info, &ev);
	return conn_reply(c, 0, &ev, sizeof(ev), -1);
}

/*
 * GEM_MSG_CONTROL: suspend or resume the device (driver/gem/suspend.c),
 * unbind or bind the driver (driver/gem/unbind.c).
 * Suspend blocks this connection's thread until the GPU is idle.  No
 * drm_file is needed.
 */
static int handle_control(struct conn *c, const struct gem_msg_hdr *hdr,
			  uint8_t *payload)
{
	int ret;

	(void)payload;
	if (hdr->len) {
		conn_error(c, "CONTROL with a %u-byte payload", hdr->len);
		return -EPROTO;
	}
	ret = conn_permit(c, GEM_MSG_CONTROL, hdr->request, NULL, -1);
	if (ret)
		return conn_reply(c, ret, NULL, 0, -1);
	switch (hdr->request) {
	case GEM_CONTROL_SUSPEND:
		ret = gem_device_suspend(c->srv->dev);
		break;
	case GEM_CONTROL_RESUME:
		ret = gem_device_resume(c->srv->dev);
		break;
	case GEM_CONTROL_UNBIND:
		ret = gem_device_unbind(c->srv->dev);
		break;
	case GEM_CONTROL_BIND:
		ret = gem_device_bind(c->srv->dev);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return conn_reply(c, ret, NULL, 0, -1);
}

/* GEM_MSG_MOUNT: where this gemd's debugfs tree is (server_set_mount). */
static int handle_mount(struct conn *c, const struct gem_msg_hdr *hdr,
			uint8_t *payload)
{
	struct gem_mount_reply r = { 0 };
	int ret = -ENOENT;

	(void)payload;
	if (hdr->len) {
		conn_error(c, "MOUNT with a %u-byte payload", hdr->len);
		return -EPROTO;
	}
	strbuf_reset(&c->out);
	pthread_mutex_lock(&c->srv->lock);
	if (c->srv->mount_dir) {
		r.dev = c->srv->mount_dev;
		strbuf_add(&c->out, &r, sizeof(r));
		strbuf_add(&c->out, c->srv->mount_dir, strlen(c->srv->mount_dir) + 1);
		ret = 0;
	}
	pthread_mutex_unlock(&c->srv->lock);
	return conn_reply(c, ret, c->out.buf, c->out.len, -1);
}

/*
 * Every message gemd understands, and the connection kind it is valid on:
 * OPEN and HELLO only as the first message, requests only on channels.
 * A handler returns 0 to keep the connection, -errno to close it.
 */
struct msg_handler {
	uint16_t type;
	const char *name;
	enum conn_kind on;
	int (*fn)(struct conn *c, const struct gem_msg_hdr *hdr, uint8_t *payload);
};

static const struct msg_handler msg_handlers[] = {
	{ GEM_MSG_OPEN,  "OPEN",  CONN_NEW,     handle_open },
	{ GEM_MSG_HELLO, "HELLO", CONN_NEW,     handle_hello },
	{ GEM_MSG_SHM,   "SHM",   CONN_CHANNEL, handle_shm },
	{ GEM_MSG_SYNC,  "SYNC",  CONN_CHANNEL, handle_sync },
	{ GEM_MSG_IOCTL, "IOCTL", CONN_CHANNEL, handle_ioctl },
	{ GEM_MSG_ARENA, "ARENA", CONN_CHANNEL, handle_arena },
	{ GEM_MSG_MMAP,  "MMAP",  CONN_CHANNEL, handle_mmap },
	{ GEM_MSG_STATUS, "STATUS", CONN_CHANNEL, handle_status },
	{ GEM_MSG_RELEASE, "RELEASE", CONN_CHANNEL, handle_release },
	{ GEM_MSG_SYNCFILE, "SYNCFILE", CONN_CHANNEL, handle_syncfile },
	{ GEM_MSG_DMABUF, "DMABUF", CONN_CHANNEL, handle_dmabuf },
	{ GEM_MSG_TOKEN, "TOKEN", CONN_CHANNEL, handle_token },
	{ GEM_MSG_CHANNEL, "CHANNEL", CONN_FILE, handle_channel },
	{ GEM_MSG_INTERRUPT, "INTERRUPT", CONN_CHANNEL, handle_interrupt },
	{ GEM_MSG_DEBUGFS, "DEBUGFS", CONN_CHANNEL, handle_debugfs },
	{ GEM_MSG_HANG_WAIT, "HANG_WAIT", CONN_CHANNEL, handle_hang_wait },
	{ GEM_MSG_CONTROL, "CONTROL", CONN_CHANNEL, handle_control },
	{ GEM_MSG_MOUNT, "MOUNT", CONN_CHANNEL, handle_mount },
};

static const struct msg_handler *msg_handler_find(uint16_t type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(msg_handlers); i++)
		if (msg_handlers[i].type == type)
			return &msg_handlers[i];
	return NULL;
}

/* --- connection threads ---------------------------------------------- */

static void conn_destroy(struct conn *c)
{
	struct server *srv = c->srv;

	/* Off the list before close(), so server_stop never shuts down a
	 * descriptor number that has been reused. */
	pthread_mutex_lock(&srv->lock);
	if (c->prev)
		c->prev->next = c->next;
	else
		srv->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	if (c->file && c->file->hashed)
		file_unhash_locked(srv, c->file);
	pthread_mutex_unlock(&srv->lock);

	if (c->file) {
		log_debug("pid %d (%s): file %04x... closed", (int)c->pid,
			  c->comm, gem_token_tag(c->file->token));
		file_put(srv, c->file);
	}
	shm_chan_destroy(c->shm);
	conn_drop_fd(c);
	close(c->fd);
	budget_bytes_put(&srv->budget, c->uid, c->ralloc);
	budget_conn_put(&srv->budget, c->uid);
	free(c->rbuf);
	strbuf_release(&c->out);
	strbuf_release(&c->mem);
	free(c);

	/* Last: server_stop may free srv as soon as nconns reaches 0. */
	pthread_mutex_lock(&srv->lock);
	if (--srv->nconns == 0)
		pthread_cond_broadcast(&srv->idle);
	pthread_mutex_unlock(&srv->lock);
}

/*
 * The next message of a channel with shared memory: from the ring, or,
 * where the ring says so, from the socket.  As conn_read_msg.
 */
static int conn_read_ring(struct conn *c, struct gem_msg_hdr *hdr,
			  uint8_t **payload)
{
	int ret = shm_chan_next(c->shm, hdr, payload);

	if (ret < 0)
		conn_error(c, "its shared ring holds garbage");
	if (ret <= 0)
		return ret;
	c->ring_pending = true;
	if (hdr->type == GEM_MSG_SOCKET) {
		if (hdr->len || hdr->flags) {
			conn_error(c, "SOCKET with a payload or flags");
			return -EPROTO;
		}
		return conn_read_msg(c, hdr, payload);
	}
	c->from_ring = true;
	return conn_check_flags(c, hdr) ? -EPROTO : 1;
}

static int conn_next_msg(struct conn *c, struct gem_msg_hdr *hdr,
			 uint8_t **payload)
{
	int ret;

	c->from_ring = false;
	c->ring_pending = false;
	ret = c->shm ? conn_read_ring(c, hdr, payload) :
		       conn_read_msg(c, hdr, payload);
	c->noreply = ret > 0 && (hdr->flags & GEM_MSG_F_NOREPLY);
	return ret;
}

static void *conn_main(void *arg)
{
	struct conn *c = arg;
	const struct msg_handler *h;
	struct gem_msg_hdr hdr;
	uint8_t *payload;

	while (conn_next_msg(c, &hdr, &payload) > 0) {
		h = msg_handler_find(hdr.type);
		if (!h) {
			conn_error(c, "unknown message type %u", hdr.type);
			break;
		}
		if (h->on != c->kind) {
			conn_error(c, "%s message on a %s connection", h->name,
				   kind_names[c->kind]);
			break;
		}
		if (h->fn(c, &hdr, payload))
			break;
		conn_done_fd(c, &hdr);
		if (!c->from_ring)
			conn_consume(c, sizeof(hdr) + hdr.len);
		if (c->ring_pending)
			shm_chan_done(c->shm);
	}
	conn_destroy(c);
	return NULL;
}

static void conn_spawn(struct server *srv, int fd, struct gem_token granted)
{
	struct ucred cred = { .pid = 0, .uid = (uid_t)-1 };
	socklen_t len = sizeof(cred);
	struct conn *c;
	pthread_t tid;
	int ret;

	c = calloc(1, sizeof(*c));
	if (!c) {
		log_warn("out of memory for a new connection");
		close(fd);
		return;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		log_warn("SO_PEERCRED: %m");
	/* Before its thread exists: a flood of connections meets a cap. */
	if (budget_conn_get(&srv->budget, cred.uid)) {
		server_refusal(srv, cred.uid, cred.pid, "connection refused: "
			       "EUSERS (connections cap)");
		close(fd);
		free(c);
		return;
	}
	c->srv = srv;
	c->fd = fd;
	c->rx_fd = -1;
	c->kind = CONN_NEW;
	c->pid = cred.pid;
	c->uid = cred.uid;
	c->granted = granted;
	strbuf_init(&c->out, 0);
	strbuf_init(&c->mem, 0);

	pthread_mutex_lock(&srv->lock);
	if (srv->stopping) {
		pthread_mutex_unlock(&srv->lock);
		goto out_free;
	}
	c->next = srv->conns;
	if (srv->conns)
		srv->conns->prev = c;
	srv->conns = c;
	srv->nconns++;
	pthread_mutex_unlock(&srv->lock);

	ret = pthread_create(&tid, &srv->conn_attr, conn_main, c);
	if (ret) {
		log_warn("pid %d: no thread for its connection: %s",
			 (int)c->pid, strerror(ret));
		conn_destroy(c);
	}
	return;

out_free:
	budget_conn_put(&srv->budget, c->uid);
	close(fd);
	free(c);
}

static bool server_stopping(struct server *srv)
{
	bool stopping;

	pthread_mutex_lock(&srv->lock);
	stopping = srv->stopping;
	pthread_mutex_unlock(&srv->lock);
	return stopping;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * Out of descriptors, a client waiting in the listen queue would wait
 * for its handshake forever: give up the spare descriptor, accept it,
 * close it (the client sees the connection end and fails at once) and
 * take the spare again.  The refusal is logged within the rate limit.
 */
static void refuse_at_emfile(struct server *srv, int err)
{
	struct ucred cred = { .pid = 0, .uid = (uid_t)-1 };
	socklen_t len = sizeof(cred);
	int fd;

	if (srv->spare_fd < 0) {
		sleep_ms(100);	/* nothing to spare: back off instead of spinning */
		srv->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		return;
	}
	close(srv->spare_fd);
	fd = accept4(srv->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd >= 0) {
		getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len);
		server_refusal(srv, cred.uid, cred.pid, err == EMFILE ?
			       "connection refused: EMFILE (gemd is out of descriptors)" :
			       "connection refused: ENFILE (the system is out of descriptors)");
		close(fd);
	}
	srv->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static void *accept_main(void *arg)
{
	struct server *srv = arg;
	int fd;

	for (;;) {
		fd = accept4(srv->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0) {
			conn_spawn(srv, fd, GEM_TOKEN_NONE);
			continue;
		}
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		/* server_stop's shutdown() makes accept fail with EINVAL. */
		if (server_stopping(srv))
			break;
		if (errno == EMFILE || errno == ENFILE) {
			refuse_at_emfile(srv, errno);
			continue;
		}
		if (errno == ENOBUFS || errno == ENOMEM) {
			/* Out of memory: back off instead of spinning. */
			server_refusal(srv, (uid_t)-1, 0, "accept: out of memory; "
				       "retrying in 100 ms");
			sleep_ms(100);
			continue;
		}
		log_err("accept: %m; no longer accepting clients");
		break;
	}
	return NULL;
}

/* --- start and stop ----------------------------------------------------- */

/* gemd chdirs to / as a daemon and clients find it by getpeername(). */
static int absolute_path(const char *path, char *buf, size_t len)
{
	char cwd[PATH_MAX];
	int n;

	if (path[0] == '/') {
		n = snprintf(buf, len, "%s", path);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return -errno;
		n = snprintf(buf, len, "%s/%s", cwd, path);
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/*
 * If something is at path: a live gemd (connect succeeds) is an error,
 * a socket nobody listens on (ECONNREFUSED, left by a killed gemd) is
 * removed, anything else is not ours to touch.
 */
static int take_over_stale(const char *path, char *err, size_t errlen)
{
	struct ucred cred = { .pid = 0 };
	socklen_t credlen = sizeof(cred);
	struct stat st;
	int fd, ret;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		ret = -errno;
		snprintf(err, errlen, "cannot stat %s: %s", path, strerror(-ret));
		return ret;
	}
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(err, errlen, "%s exists and is not a socket", path);
		return -EEXIST;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "socket: %s", strerror(-ret));
		return ret;
	}
	ret = sockpath_connect(fd, path);
	if (ret == 0) {
		getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &credlen);
		close(fd);
		if (cred.pid > 0)
			snprintf(err, errlen, "another gemd is already serving %s (pid %d)",
				 path, (int)cred.pid);
		else
			snprintf(err, errlen, "another gemd is already serving %s", path);
		return -EADDRINUSE;
	}
	close(fd);
	if (ret != -ECONNREFUSED) {
		struct strbuf why = STRBUF_INIT;

		sockpath_strerror(&why, path, ret);
		snprintf(err, errlen, "cannot probe %s", why.buf);
		strbuf_release(&why);
		return ret;
	}
	if (unlink(path) < 0 && errno != ENOENT) {
		ret = -errno;
		snprintf(err, errlen, "cannot remove stale socket %s: %s", path,
			 strerror(-ret));
		return ret;
	}
	log_notice("removed stale socket %s (no gemd was listening on it)", path);
	return 0;
}

/*
 * bind() creates the socket with 0777 & ~umask: set the umask so that it
 * is born with its final mode (with a group to give it, 0600 until it
 * has that group).  Nothing else runs yet that creates files.
 */
static int bind_with_mode(struct server *srv, int fd)
{
	mode_t born = srv->has_group ? 0600 : srv->sock_mode;
	mode_t old = umask(~born & 0777);
	int ret = sockpath_bind(fd, srv->path, &srv->path_dir_fd);

	umask(old);
	return ret;
}

/*
 * --group: hand the socket to the group, then open it to the group.
 * Neither call follows a symlink put in the socket's place.
 */
static int socket_give_group(struct server *srv, char *err, size_t errlen)
{
	int ret;

	if (!srv->has_group)
		return 0;
	if (fchownat(AT_FDCWD, srv->path, (uid_t)-1, srv->group,
		     AT_SYMLINK_NOFOLLOW) < 0 ||
	    fchmodat(AT_FDCWD, srv->path, srv->sock_mode, AT_SYMLINK_NOFOLLOW) < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot give %s to group %u: %s", srv->path,
			 (unsigned int)srv->group, strerror(-ret));
		return ret;
	}
	return 0;
}

static int server_listen(struct server *srv, char *err, size_t errlen)
{
	struct strbuf why = STRBUF_INIT;
	struct stat st;
	int fd, ret;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "socket: %s", strerror(-ret));
		return ret;
	}
	ret = bind_with_mode(srv, fd);
	if (ret < 0) {
		sockpath_strerror(&why, srv->path, ret);
		if (ret == -EADDRINUSE)	/* lost a start-up race */
			snprintf(err, errlen, "another gemd is already serving %s",
				 srv->path);
		else
			snprintf(err, errlen, "cannot bind %s", why.buf);
		strbuf_release(&why);
		goto out_close;
	}
	ret = socket_give_group(srv, err, errlen);
	if (ret)
		goto out_unlink;
	if (lstat(srv->path, &st) < 0 || listen(fd, SOMAXCONN) < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot listen on %s: %s", srv->path,
			 strerror(-ret));
		goto out_unlink;
	}
	srv->sock_dev = st.st_dev;
	srv->sock_ino = st.st_ino;
	srv->listen_fd = fd;
	return 0;

out_unlink:
	unlink(srv->path);
	if (srv->path_dir_fd >= 0)
		close(srv->path_dir_fd);
	srv->path_dir_fd = -1;
out_close:
	close(fd);
	return ret;
}

/* Server threads never take signals: main() handles them. */
static int start_thread_nosignals(pthread_t *tid, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int ret;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(tid, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return -ret;
}

int server_start(const struct server_config *cfg, struct server **out,
		 char *err, size_t errlen)
{
	pthread_condattr_t ca;
	struct server *srv;
	int ret;

	srv = calloc(1, sizeof(*srv));
	if (!srv) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	srv->listen_fd = -1;
	srv->path_dir_fd = -1;
	srv->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	srv->owner_uid = geteuid();
	budget_init(&srv->budget, srv->owner_uid);
	srv->dev = cfg->dev;
	srv->sock_mode = cfg->socket_mode ? cfg->socket_mode : SOCKET_MODE;
	srv->has_group = cfg->has_group;
	srv->group = cfg->group;
	srv->unblock = cfg->unblock;
	srv->unblock_data = cfg->unblock_data;
	srv->stop_timeout_ms = cfg->stop_timeout_ms ? cfg->stop_timeout_ms :
				STOP_TIMEOUT_MS;
	ret = absolute_path(cfg->path, srv->path, sizeof(srv->path));
	if (ret) {
		snprintf(err, errlen, "socket path too long: %s", cfg->path);
		goto out_free;
	}
	ret = make_parent_dirs(srv->path, PARENT_MODE);
	if (ret) {
		snprintf(err, errlen, "cannot create the directory of %s: %s",
			 srv->path, strerror(-ret));
		goto out_free;
	}
	ret = take_over_stale(srv->path, err, errlen);
	if (ret)
		goto out_free;
	ret = shm_watch_start(&srv->shm_watch);
	if (ret) {
		snprintf(err, errlen, "cannot watch shared channels: %s",
			 strerror(-ret));
		goto out_free;
	}
	ret = server_listen(srv, err, errlen);
	if (ret)
		goto out_watch;

	pthread_mutex_init(&srv->lock, NULL);
	/* server_stop's deadline must not move with the wall clock. */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&srv->idle, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&srv->unhashed, NULL);
	pthread_attr_init(&srv->conn_attr);
	pthread_attr_setstacksize(&srv->conn_attr, CONN_STACK_SIZE);
	pthread_attr_setdetachstate(&srv->conn_attr, PTHREAD_CREATE_DETACHED);
	log_info("listening on %s", srv->path);
	*out = srv;
	return 0;

out_watch:
	shm_watch_stop(srv->shm_watch);
out_free:
	if (srv->spare_fd >= 0)
		close(srv->spare_fd);
	free(srv);
	return ret;
}

int server_accept(struct server *srv, char *err, size_t errlen)
{
	int ret;

	ret = start_thread_nosignals(&srv->accept_thread, accept_main, srv);
	if (ret) {
		snprintf(err, errlen, "cannot start the accept thread: %s",
			 strerror(-ret));
		return ret;
	}
	srv->accepting = true;
	return 0;
}

/* Remove the socket only if it is still ours (not a successor's). */
static void unlink_own_socket(struct server *srv)
{
	struct stat st;

	if (stat(srv->path, &st) == 0 && st.st_dev == srv->sock_dev &&
	    st.st_ino == srv->sock_ino)
		unlink(srv->path);
}

static void deadline_after(struct timespec *ts, unsigned int ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

int server_stop(struct server *srv)
{
	struct timespec deadline;
	struct conn *c;
	unsigned int left;
	int ret = 0;

	pthread_mutex_lock(&srv->lock);
	srv->stopping = true;
	pthread_cond_broadcast(&srv->unhashed);	/* RELEASE waits end */
	pthread_mutex_unlock(&srv->lock);

	shutdown(srv->listen_fd, SHUT_RDWR);
	if (srv->accepting)
		pthread_join(srv->accept_thread, NULL);
	close(srv->listen_fd);
	if (srv->spare_fd >= 0)
		close(srv->spare_fd);
	srv->spare_fd = -1;
	unlink_own_socket(srv);
	if (srv->path_dir_fd >= 0)
		close(srv->path_dir_fd);

	/* Wakes every thread blocked in read(); clients see EOF. */
	pthread_mutex_lock(&srv->lock);
	for (c = srv->conns; c; c = c->next)
		shutdown(c->fd, SHUT_RDWR);
	pthread_mutex_unlock(&srv->lock);
	if (srv->unblock)
		srv->unblock(srv->unblock_data);

	deadline_after(&deadline, srv->stop_timeout_ms);

	pthread_mutex_lock(&srv->lock);
	while (srv->nconns &&
	       pthread_cond_timedwait(&srv->idle, &srv->lock, &deadline) != ETIMEDOUT)
		;
	left = srv->nconns;
	pthread_mutex_unlock(&srv->lock);
	if (left) {
		log_warn("%u connection(s) still inside the driver after %u ms; "
			 "exiting without waiting for them", left,
			 srv->stop_timeout_ms);
		return -EBUSY;
	}

	shm_watch_stop(srv->shm_watch);
	pthread_attr_destroy(&srv->conn_attr);
	pthread_cond_destroy(&srv->unhashed);
	pthread_cond_destroy(&srv->idle);
	pthread_mutex_destroy(&srv->lock);
	free(srv->mount_dir);
	free(srv);
	return ret;
}

const char *server_path(const struct server *srv)
{
	return srv->path;
}

int server_set_mount(struct server *srv, const char *dir, uint64_t dev)
{
	char *copy = dir ? strdup(dir) : NULL;

	if (dir && !copy)
		return -ENOMEM;
	pthread_mutex_lock(&srv->lock);
	free(srv->mount_dir);
	srv->mount_dir = copy;
	srv->mount_dev = dev;
	pthread_mutex_unlock(&srv->lock);
	return 0;
}
