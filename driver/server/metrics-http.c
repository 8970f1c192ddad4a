/*
 * gemd --metrics: the HTTP end of the metrics, on libmicrohttpd.
 *
 * What a port open to a network must survive, and how:
 *   - one thread polls every connection (MHD's internal epoll/poll loop),
 *     so a thousand connections cost descriptors, not threads;
 *   - at most conn_limit() connections are open at once, a quarter of
 *     gemd's descriptor limit at most, so the metrics port can never take
 *     the descriptors the device socket needs; the next ones wait in the
 *     listen backlog (or are refused by the kernel) until a slot frees;
 *   - a client that sends slowly or not at all is dropped after
 *     CONN_TIMEOUT_S, short because a scrape sends its request at once;
 *     the others are served meanwhile, from the same loop;
 *   - a request's headers get CONN_MEMORY bytes: larger ones are answered
 *     with an HTTP error by MHD (431, or 414 for a long URL);
 *   - only GET and HEAD of /metrics are served: 405 (with Allow) for other
 *     methods, 404 for other paths.
 * A scrape reads the debugfs file of the format the Accept header asks
 * for (metrics_negotiate), so the driver lock is held for one snapshot,
 * as for any debugfs read, never while a client is slow to read.
 *
 * Built without libmicrohttpd, gemd still parses --metrics (a usage error
 * stays one) and refuses to start with a message that says why.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "debugfs.h"
#include "log.h"
#include "metrics-http.h"
#include "metrics.h"
#include "strbuf.h"
#include "util.h"

#define LOOPBACK	"127.0.0.1"

static int addr_error(char *err, size_t errlen, const char *s, const char *why)
{
	snprintf(err, errlen, "invalid --metrics '%s': %s", s, why);
	return -EINVAL;
}

int metrics_addr_parse(const char *s, struct metrics_addr *out, char *err, size_t errlen)
{
	char host[256], port[16];
	const char *colon, *h = s;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *ai = NULL;
	unsigned long p;
	size_t hl;
	char *end;
	int ret;

	if (s[0] == '[') {
		const char *close = strchr(s, ']');

		if (!close || close[1] != ':')
			return addr_error(err, errlen, s, "expected [ADDR]:PORT");
		h = s + 1;
		hl = (size_t)(close - h);
		colon = close + 1;
		hints.ai_family = AF_INET6;
	} else if ((colon = strrchr(s, ':'))) {
		if (strchr(s, ':') != colon)
			return addr_error(err, errlen, s, "an IPv6 address goes in brackets");
		hl = (size_t)(colon - s);
	} else {
		/* A bare port: loopback, as nothing else is asked for. */
		h = LOOPBACK;
		hl = strlen(LOOPBACK);
		colon = s - 1;
	}
	if (!hl)
		return addr_error(err, errlen, s, "no address (0.0.0.0:PORT listens "
				  "on every interface)");
	if (hl >= sizeof(host))
		return addr_error(err, errlen, s, "address too long");
	memcpy(host, h, hl);
	host[hl] = '\0';
	errno = 0;
	p = strtoul(colon + 1, &end, 10);
	if (!colon[1] || *end || errno || p > 65535 || colon[1] == '-' || colon[1] == '+')
		return addr_error(err, errlen, s, "the port must be a number from 0 to 65535");
	snprintf(port, sizeof(port), "%lu", p);
	ret = getaddrinfo(host, port, &hints, &ai);
	if (ret || !ai || ai->ai_addrlen > sizeof(out->ss)) {
		if (ai)
			freeaddrinfo(ai);
		return addr_error(err, errlen, s, ret ? gai_strerror(ret) : "no address");
	}
	memcpy(&out->ss, ai->ai_addr, ai->ai_addrlen);
	out->len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

#ifdef HAVE_MICROHTTPD

#include <microhttpd.h>

/* "ADDR:PORT" (IPv6 in brackets) of a socket address. */
static void addr_format(const struct sockaddr *sa, socklen_t len, char *buf, size_t n)
{
	char host[NI_MAXHOST], port[NI_MAXSERV];

	if (getnameinfo(sa, len, host, sizeof(host), port, sizeof(port),
			NI_NUMERICHOST | NI_NUMERICSERV)) {
		snprintf(buf, n, "?");
		return;
	}
	snprintf(buf, n, sa->sa_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, port);
}

#define CONN_LIMIT_MAX	256		/* connections served at once */
#define CONN_TIMEOUT_S	5		/* idle or slow clients are dropped */
#define CONN_MEMORY	(16u << 10)	/* a request's headers and their parsing */
#define LISTEN_BACKLOG	1024		/* a flood waits here, not in SYN retries */

const bool metrics_http_available = true;

struct metrics_http {
	struct gem_device *dev;
	struct MHD_Daemon *mhd;
	int fd;
	char where[NI_MAXHOST + NI_MAXSERV + 4];
};

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status,
			     const char *type, const char *body, size_t len,
			     const char *allow)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_text(struct MHD_Connection *conn, unsigned int status,
				  const char *text, const char *allow)
{
	return reply(conn, status, "text/plain; charset=utf-8", text, strlen(text), allow);
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version,
			      const char *upload_data, size_t *upload_data_size,
			      void **req_cls)
{
	struct metrics_http *mh = cls;
	const struct metrics_format *fmt;
	struct strbuf sb = STRBUF_INIT;
	enum MHD_Result ret;
	int err;

	(void)version;
	(void)upload_data;
	(void)req_cls;
	*upload_data_size = 0;	/* a body is never read: answered at once */
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
				  "only GET and HEAD\n", "GET, HEAD");
	if (strcmp(url, "/metrics"))
		return reply_text(conn, MHD_HTTP_NOT_FOUND, "not found: try /metrics\n", NULL);
	fmt = &metrics_formats[metrics_negotiate(
		MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT))];
	err = gem_debugfs_read(mh->dev, fmt->file, &sb);
	if (err) {
		log_warn("metrics: cannot read %s: %s", fmt->file, strerror(-err));
		ret = reply_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
				 "cannot read the metrics\n", NULL);
	} else {
		ret = reply(conn, MHD_HTTP_OK, fmt->content_type, sb.buf, sb.len, NULL);
	}
	strbuf_release(&sb);
	return ret;
}

/* MHD's complaints (a client's bad request, mostly): debug, not errors. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[256];
	size_t n;

	(void)cls;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = strlen(msg);
	while (n && msg[n - 1] == '\n')
		msg[--n] = '\0';
	log_debug("metrics: %s", msg);
}

static unsigned int conn_limit(void)
{
	struct rlimit rl;
	rlim_t quarter;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return CONN_LIMIT_MAX;
	quarter = rl.rlim_cur / 4;
	return quarter < 4 ? 4 : quarter < CONN_LIMIT_MAX ? (unsigned int)quarter :
	       CONN_LIMIT_MAX;
}

static int listen_on(const struct metrics_addr *addr, char *err, size_t errlen)
{
	int fd, one = 1;

	fd = socket(addr->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		goto out_err;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)&addr->ss, addr->len) < 0 ||
	    listen(fd, LISTEN_BACKLOG) < 0)
		goto out_close;
	return fd;
out_close:
	close(fd);
out_err:
	fd = -errno;
	{
		char where[NI_MAXHOST + NI_MAXSERV + 4];

		addr_format((const struct sockaddr *)&addr->ss, addr->len, where, sizeof(where));
		snprintf(err, errlen, "metrics: cannot listen on %s: %s", where, strerror(-fd));
	}
	return fd;
}

int metrics_http_start(struct gem_device *dev, const struct metrics_addr *addr,
		       struct metrics_http **out, char *err, size_t errlen)
{
	struct sockaddr_storage bound;
	socklen_t blen = sizeof(bound);
	struct metrics_http *mh;
	int ret;

	mh = calloc(1, sizeof(*mh));
	if (!mh) {
		snprintf(err, errlen, "metrics: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	mh->dev = dev;
	mh->fd = listen_on(addr, err, errlen);
	if (mh->fd < 0) {
		ret = mh->fd;
		goto out_free;
	}
	if (getsockname(mh->fd, (struct sockaddr *)&bound, &blen) == 0)
		addr_format((struct sockaddr *)&bound, blen, mh->where, sizeof(mh->where));
	/* ITC: so MHD_quiesce_daemon can hand the socket back at stop. */
	mh->mhd = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG |
				   MHD_USE_ITC,
				   0, NULL, NULL, answer, mh,
				   MHD_OPTION_LISTEN_SOCKET, mh->fd,
				   MHD_OPTION_CONNECTION_LIMIT, conn_limit(),
				   MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)CONN_TIMEOUT_S,
				   MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONN_MEMORY,
				   MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				   MHD_OPTION_END);
	if (!mh->mhd) {
		ret = -EIO;
		snprintf(err, errlen, "metrics: cannot start the HTTP server on %s",
			 mh->where);
		goto out_close;
	}
	*out = mh;
	return 0;
out_close:
	close(mh->fd);
out_free:
	free(mh);
	return ret;
}

const char *metrics_http_where(const struct metrics_http *mh)
{
	return mh->where;
}

void metrics_http_stop(struct metrics_http *mh)
{
	if (!mh)
		return;
	/* The listening socket is ours: taken back, then closed once. */
	if (MHD_quiesce_daemon(mh->mhd) == MHD_INVALID_SOCKET)
		mh->fd = -1;	/* MHD kept it and closes it */
	MHD_stop_daemon(mh->mhd);
	if (mh->fd >= 0)
		close(mh->fd);
	free(mh);
}

#else /* !HAVE_MICROHTTPD */

const bool metrics_http_available = false;

int metrics_http_start(struct gem_device *dev, const struct metrics_addr *addr,
		       struct metrics_http **out, char *err, size_t errlen)
{
	(void)dev;
	(void)addr;
	(void)out;
	snprintf(err, errlen, "--metrics: gemd was built without libmicrohttpd "
		 "(gemctl metrics prints the same exposition)");
	return -ENOTSUP;
}

const char *metrics_http_where(const struct metrics_http *mh)
{
	(void)mh;
	return "";
}

void metrics_http_stop(struct metrics_http *mh)
{
	(void)mh;
}

#endif
