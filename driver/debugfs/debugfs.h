/*
 * gemd's debugfs: the kernel's dri/0 files (i915_debugfs.c of Linux
 * 3.2, see shared/reference/i915-debugfs-formats.md) plus gemkit's own
 * structured files (debugfs/FORMAT.md), served over FUSE at DIR/dri/0
 * and, for containers without /dev/fuse, through gem_debugfs_read/write
 * on the gemd socket.
 *
 * Every file is generated from one snapshot taken under dev->lock, then
 * formatted with the lock released (seq_file semantics: contents are
 * fixed at open).  All functions return 0 (or a count) or -errno.
 */
#ifndef GEMKIT_DEBUGFS_H
#define GEMKIT_DEBUGFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct gem_device;
struct gem_debugfs;
struct strbuf;

/*
 * Mount the tree at dir (created if missing; the files appear under
 * dir/dri/0/) and serve it from a thread of its own.  A stale mount left
 * at dir by a crashed gemd is detached first; a live one is -EBUSY.
 * Returns -ENODEV when /dev/fuse is unusable (gemd then goes on without
 * a mount: the socket fallback still works).
 */
int gem_debugfs_start(struct gem_device *dev, const char *dir,
		      struct gem_debugfs **out);
/*
 * Unmount, abort the FUSE connection (however the mount is pinned) and
 * join the thread, waiting at most 300 ms.  NULL is allowed.  Call before
 * gem_device_destroy.  Returns 0, or -ETIMEDOUT when the threads did not
 * stop (no way to abort the connection): they may still be inside a
 * request, so the caller must exit without destroying the device.
 */
int gem_debugfs_stop(struct gem_debugfs *dfs);
/* The mount point (absolute; it holds dri/0) and the mount's st_dev, for
 * GEM_MSG_MOUNT.  The directory is removed at stop if start created it. */
const char *gem_debugfs_dir(const struct gem_debugfs *dfs);
dev_t gem_debugfs_dev(const struct gem_debugfs *dfs);
/* Detach a stale (or any) FUSE mount at dir: 0 if nothing was mounted
 * or the mount was removed, else -errno. */
int gem_debugfs_cleanup_stale(const char *dir);

/*
 * The socket fallback.  path names a file relative to dri/0 ("i915_gem_objects",
 * "gemkit_events.since.42", "gemkit_object_data/17"); a leading "dri/0/" or
 * "/" is accepted.  read appends the whole file to out (byte-identical to
 * what a read through FUSE returns); write hands buf to the file's write
 * handler (i915_wedged, i915_gem_drop_caches) and returns len or -errno.
 * -ENOENT: no such file; -EACCES: not writable / not readable.
 */
int gem_debugfs_read(struct gem_device *dev, const char *path, struct strbuf *out);
/* The same, -EFBIG without buffering anything for a raw file (memory)
 * larger than max bytes. */
int gem_debugfs_read_max(struct gem_device *dev, const char *path, uint64_t max,
			 struct strbuf *out);
/* Bytes [off, off + len) of the file (fewer at EOF): for raw files larger
 * than one socket message (gemkit_aperture, big objects). */
int gem_debugfs_read_range(struct gem_device *dev, const char *path, uint64_t off,
			   size_t len, struct strbuf *out);
ssize_t gem_debugfs_write(struct gem_device *dev, const char *path,
			  const char *buf, size_t len);
/* The fdinfo block of one file (gemkit_fdinfo's, debugfs/FORMAT.md),
 * as the kernel answers /proc/<pid>/fdinfo/<fd>; 0 or -ENOMEM. */
struct gem_file;
int gem_debugfs_fdinfo(struct gem_file *file, struct strbuf *out);
/* The file's permission bits as the FUSE tree shows them (the owner is
 * gemd's user), or -ENOENT. */
int gem_debugfs_mode(const char *path);
/* One name per line: every file of dri/0 (what readdir shows). */
int gem_debugfs_list(struct gem_device *dev, struct strbuf *out);

#endif
