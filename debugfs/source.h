/*
 * libgemdebugfs internals: a source is a table of operations (a directory
 * tree or a gemd socket) behind the gdfs_* calls of gemdebugfs.h.
 */
#ifndef GEMKIT_DEBUGFS_SOURCE_H
#define GEMKIT_DEBUGFS_SOURCE_H

#include "gemdebugfs.h"

struct gdfs_ops {
	int (*read)(struct gdfs *src, const char *name, struct strbuf *out);
	int (*read_range)(struct gdfs *src, const char *name, uint64_t off,
			  size_t len, struct strbuf *out);
	ssize_t (*write)(struct gdfs *src, const char *name, const void *buf, size_t len);
	int (*list)(struct gdfs *src, struct strbuf *out);
	void (*close)(struct gdfs *src);
};

/* Files a directory source keeps open, to pread them again from 0. */
#define GDFS_OPEN_FILES	32

struct gdfs {
	const struct gdfs_ops *ops;
	enum gdfs_kind kind;
	struct strbuf desc;
	int fd;				/* dri/0 (O_PATH) or the socket */
	uint64_t timeout_ns;		/* for each operation on a live source */
	size_t max_size;		/* of a file read whole */
	bool live;			/* a directory on a FUSE mount */
	dev_t dev;			/* a directory: st_dev of its dri/0 */
	pid_t peer_pid;			/* a socket: gemd's, from SO_PEERCRED */
	uid_t peer_uid;			/* (0 and -1 when unknown) */
	struct strbuf origin;		/* gdfs_origin's answer, if not desc */
	struct {
		char name[48];
		int fd;
	} open[GDFS_OPEN_FILES];
	unsigned int nopen, next_evict;
};

struct gdfs *gdfs_alloc(const struct gdfs_ops *ops, enum gdfs_kind kind, int fd);
/* A socket source: ask its gemd where its debugfs is mounted
 * (GEM_MSG_MOUNT): 0 with the directory in dir and the mount's st_dev in
 * *dev, or -errno (-ENOENT: no mount; -ENOTCONN: the connection was
 * dropped, by a gemd that does not know the message). */
int gdfs_socket_mount(struct gdfs *src, struct strbuf *dir, uint64_t *dev);
/* "gemd PATH (pid N)" onto sb, for origins. */
void gdfs_add_gemd(struct strbuf *sb, const char *path, pid_t pid);
/* What new sources, and opening them, wait at most. */
extern uint64_t gdfs_default_timeout_ns;

#endif
