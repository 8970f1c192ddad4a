/* The gemd socket server: accepts clients and dispatches their messages. */
#ifndef GEMKIT_SERVER_H
#define GEMKIT_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct gem_device;
struct server;

struct server_config {
	const char *path;		/* socket path; made absolute */
	struct gem_device *dev;
	/*
	 * Called by server_stop() once every socket is shut down and before
	 * it waits for the connection threads: the place to wake requests
	 * sleeping inside the driver (an endless GEM_WAIT).  May be NULL.
	 */
	void (*unblock)(void *data);
	void *unblock_data;
	unsigned int stop_timeout_ms;	/* 0: 5000 */
	/* Who may connect: the socket's mode (0: 0600) and group
	 * (has_group false: gemd's own). */
	mode_t socket_mode;
	bool has_group;
	gid_t group;
};

/*
 * Listen on cfg->path (mode cfg->socket_mode from its creation, no chmod
 * of a path that could be swapped; parent directories created 0755),
 * replacing a stale socket that nobody accepts on.  Clients that connect
 * wait in the backlog until server_accept().  When the socket is live, or
 * anything else fails, returns -errno with a message for the user in err
 * (without a "gemd: " prefix).
 */
int server_start(const struct server_config *cfg, struct server **out,
		 char *err, size_t errlen);
/*
 * Start serving the clients: called once what they may be sent to (the
 * debugfs mount that GEM_MSG_MOUNT names) is in place.  0 or -errno with
 * a message in err; server_stop() cleans up either way.
 */
int server_accept(struct server *srv, char *err, size_t errlen);
/*
 * Stop accepting, remove the socket, shut every connection down (each
 * client's next request fails with ENODEV), then wait for the connection
 * threads, each of which releases its drm_file on the way out.  Returns 0,
 * or -EBUSY if a thread is still inside the driver after the timeout: the
 * server is then left allocated and the device must not be destroyed.
 */
int server_stop(struct server *srv);
/* The absolute socket path being served. */
const char *server_path(const struct server *srv);
/* What GEM_MSG_MOUNT answers: the debugfs mount point (holding dri/0)
 * and its st_dev; dir NULL: none.  0 or -ENOMEM. */
int server_set_mount(struct server *srv, const char *dir, uint64_t dev);

#endif
