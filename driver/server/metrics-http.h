/*
 * gemd --metrics ADDR:PORT: GET /metrics over HTTP for Prometheus, served
 * by libmicrohttpd from one thread of its own (metrics-http.c).  Each
 * scrape reads the debugfs file of the negotiated format, so it holds the
 * driver lock only for the snapshot every debugfs read takes.
 */
#ifndef GEMKIT_METRICS_HTTP_H
#define GEMKIT_METRICS_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

struct gem_device;
struct metrics_http;

/* Where to listen: "PORT" (loopback, 127.0.0.1), "ADDR:PORT" or
 * "[ADDR6]:PORT"; ADDR a numeric address or a host name, PORT 0 to 65535
 * (0: any free port, which gemd logs).  0, or -EINVAL with the reason. */
struct metrics_addr {
	struct sockaddr_storage ss;
	socklen_t len;
};
int metrics_addr_parse(const char *s, struct metrics_addr *out, char *err, size_t errlen);

/* Whether this gemd was built with libmicrohttpd. */
extern const bool metrics_http_available;

/* Listen and serve; 0, or -errno with the reason in err. */
int metrics_http_start(struct gem_device *dev, const struct metrics_addr *addr,
		       struct metrics_http **out, char *err, size_t errlen);
/* "ADDR:PORT" it listens on, for the log and the tests. */
const char *metrics_http_where(const struct metrics_http *mh);
/* Close every connection and stop the thread.  NULL is allowed. */
void metrics_http_stop(struct metrics_http *mh);

#endif
