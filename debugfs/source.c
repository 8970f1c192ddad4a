/*
 * Sources: the public entry points, which source the tools use by default,
 * and saving a snapshot of a whole tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source.h"
#include "util.h"

#define GDFS_STR_(x)	#x
#define GDFS_STR(x)	GDFS_STR_(x)

uint64_t gdfs_default_timeout_ns = GDFS_TIMEOUT_MS * 1000000ull;

void gdfs_set_default_timeout(uint64_t timeout_ns)
{
	gdfs_default_timeout_ns = timeout_ns;
}

struct gdfs *gdfs_alloc(const struct gdfs_ops *ops, enum gdfs_kind kind, int fd)
{
	struct gdfs *src = calloc(1, sizeof(*src));

	if (!src)
		return NULL;
	src->ops = ops;
	src->kind = kind;
	src->fd = fd;
	src->timeout_ns = gdfs_default_timeout_ns;
	src->max_size = GDFS_MAX_FILE_SIZE;
	strbuf_init(&src->desc, 0);
	strbuf_init(&src->origin, 0);
	return src;
}

void gdfs_set_timeout(struct gdfs *src, uint64_t timeout_ns)
{
	src->timeout_ns = timeout_ns;
}

void gdfs_set_max_size(struct gdfs *src, size_t max_size)
{
	src->max_size = max_size;
}

void gdfs_close(struct gdfs *src)
{
	if (!src)
		return;
	src->ops->close(src);
	strbuf_release(&src->desc);
	strbuf_release(&src->origin);
	free(src);
}

const char *gdfs_strerror(int err)
{
	switch (err) {
	case -ESPIPE:
		return "not a regular file";
	case -EFBIG:
		return "larger than a debugfs file may be (" GDFS_STR(GDFS_MAX_FILE_MIB) " MiB)";
	case -ETIMEDOUT:
		return "no answer within the timeout (is gemd stopped or hung?)";
	default:
		return strerror(err < 0 ? -err : err);
	}
}

enum gdfs_kind gdfs_kind(const struct gdfs *src)
{
	return src->kind;
}

const char *gdfs_describe(const struct gdfs *src)
{
	return src->desc.buf ? src->desc.buf : "";
}

const char *gdfs_origin(const struct gdfs *src)
{
	return src->origin.len ? src->origin.buf : gdfs_describe(src);
}

int gdfs_peer(const struct gdfs *src, pid_t *pid, uid_t *uid)
{
	if (src->kind != GDFS_SOCKET && !src->origin.len)
		return -ENOENT;
	*pid = src->peer_pid;
	*uid = src->peer_uid;
	return 0;
}

void gdfs_add_gemd(struct strbuf *sb, const char *path, pid_t pid)
{
	strbuf_addf(sb, "gemd %s", path);
	if (pid > 0)
		strbuf_addf(sb, " (pid %d)", (int)pid);
}

int gdfs_read(struct gdfs *src, const char *name, struct strbuf *out)
{
	return src->ops->read(src, name, out);
}

int gdfs_read_range(struct gdfs *src, const char *name, uint64_t off, size_t len,
		    struct strbuf *out)
{
	return src->ops->read_range(src, name, off, len, out);
}

ssize_t gdfs_write(struct gdfs *src, const char *name, const void *buf, size_t len)
{
	return src->ops->write(src, name, buf, len);
}

int gdfs_list(struct gdfs *src, struct strbuf *out)
{
	return src->ops->list(src, out);
}

bool gdfs_has(struct gdfs *src, const char *name)
{
	struct strbuf names;
	size_t n = strlen(name);
	const char *p;
	bool found = false;

	strbuf_init(&names, 0);
	if (gdfs_list(src, &names) >= 0) {
		for (p = names.buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
			if (!strncmp(p, name, n) && (p[n] == '\n' || !p[n])) {
				found = true;
				break;
			}
		}
	}
	strbuf_release(&names);
	return found;
}

/*
 * The tree of the gemd behind sock, where it says it mounted it, if the
 * directory found there is that very mount (a live FUSE tree with the
 * st_dev gemd gave): never another gemd's tree, nor whatever took the
 * place of a mount that went away.  The mount point goes to dir.
 */
static int open_own_mount(struct gdfs *sock, struct strbuf *dir, struct gdfs **out)
{
	uint64_t dev;
	int ret = gdfs_socket_mount(sock, dir, &dev);

	if (!ret)
		ret = gdfs_open_dir(dir->buf, out);
	if (!ret && (!(*out)->live || (uint64_t)(*out)->dev != dev)) {
		gdfs_close(*out);
		ret = -ESTALE;
	}
	return ret;
}

int gdfs_mount_dir(struct gdfs *sock, struct strbuf *dir)
{
	struct strbuf found = STRBUF_INIT;
	struct gdfs *mnt;
	int ret = open_own_mount(sock, &found, &mnt);

	if (!ret) {
		gdfs_close(mnt);
		strbuf_addstr(dir, found.buf);
	}
	strbuf_release(&found);
	return ret;
}

int gdfs_open_auto(const char *device, const char *debugfs_dir, struct gdfs **out)
{
	struct strbuf dir = STRBUF_INIT;
	struct gdfs *sock, *mnt;
	const char *path;
	int ret;

	if (debugfs_dir)
		return gdfs_open_dir(debugfs_dir, out);
	path = gem_device_path(device);
	if (!path)
		return -ENOENT;
	/* The gemd first: it says where its tree is, and whose it is. */
	ret = gdfs_open_socket(path, &sock);
	if (ret)
		return ret;
	ret = open_own_mount(sock, &dir, &mnt);
	strbuf_release(&dir);
	/* A mount that does not answer: its gemd would not either. */
	if (ret == -ETIMEDOUT) {
		gdfs_close(sock);
		return ret;
	}
	if (!ret) {
		mnt->peer_pid = sock->peer_pid;
		mnt->peer_uid = sock->peer_uid;
		gdfs_add_gemd(&mnt->origin, path, sock->peer_pid);
		strbuf_addf(&mnt->origin, ", mount %s", mnt->desc.buf);
		gdfs_close(sock);
		*out = mnt;
		return 0;
	}
	if (sock->fd < 0) {
		/* Dropped by a gemd that knows no GEM_MSG_MOUNT: again. */
		gdfs_close(sock);
		return gdfs_open_socket(path, out);
	}
	*out = sock;
	return 0;
}

/* --- saving a tree ------------------------------------------------------ */

static int mkdir_p(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/* Write data to dir/name through dir/.name.tmp and a rename. */
static int save_file(const char *dir, const char *name, const struct strbuf *data)
{
	struct strbuf tmp, dst;
	int fd, ret = 0;

	strbuf_init(&tmp, 0);
	strbuf_init(&dst, 0);
	strbuf_addf(&dst, "%s/%s", dir, name);
	strbuf_addf(&tmp, "%s.tmp", dst.buf);
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	if (write_full(fd, data->buf ? data->buf : "", data->len) < 0 || fsync(fd) < 0)
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp.buf, dst.buf))
		ret = -errno;
	if (ret)
		unlink(tmp.buf);
out:
	strbuf_release(&tmp);
	strbuf_release(&dst);
	return ret;
}

/* Big raw files are read in pieces of this size. */
#define SAVE_CHUNK	(8u << 20)

static int read_whole(struct gdfs *src, const char *name, bool raw, struct strbuf *out)
{
	uint64_t off = 0;
	size_t before;
	int ret;

	if (!raw)
		return gdfs_read(src, name, out);
	for (;;) {
		before = out->len;
		ret = gdfs_read_range(src, name, off, SAVE_CHUNK, out);
		if (ret < 0)
			return ret;
		if (out->len - before < SAVE_CHUNK)
			return 0;
		off += SAVE_CHUNK;
	}
}

static bool is_raw(const char *name)
{
	return !strcmp(name, "gemkit_aperture") || !strncmp(name, "gemkit_object_data/", 19);
}

int gdfs_save(struct gdfs *src, const char *dir, bool with_data, unsigned int *skipped)
{
	struct strbuf names, path, data, objdir, errdir;
	unsigned int nskipped = 0;
	char *line, *next;
	int saved = 0, ret;

	strbuf_init(&names, 0);
	strbuf_init(&path, 0);
	strbuf_init(&data, 0);
	strbuf_init(&objdir, 0);
	strbuf_init(&errdir, 0);
	strbuf_addf(&path, "%s/dri/0", dir);
	ret = mkdir_p(path.buf);
	if (ret)
		goto out;
	ret = gdfs_list(src, &names);
	if (ret < 0)
		goto out;
	if (with_data) {
		/* Object files live one level down: list the ids from gemkit_objects. */
		struct gdfs_objects objs;
		size_t i;

		strbuf_reset(&data);
		if (!gdfs_read(src, "gemkit_objects", &data) &&
		    !gdfs_parse_objects(data.buf, data.len, &objs, NULL)) {
			strbuf_addf(&objdir, "%s/gemkit_object_data", path.buf);
			ret = mkdir_p(objdir.buf);
			if (ret) {
				gdfs_objects_release(&objs);
				goto out;
			}
			for (i = 0; i < objs.n; i++)
				strbuf_addf(&names, "gemkit_object_data/%u\n", objs.v[i].id);
			gdfs_objects_release(&objs);
		}
	}
	for (line = names.buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		/* Raw memory is saved only on request; directories are not files. */
		if (!strcmp(line, "gemkit_object_data") || !strcmp(line, "i915_params") ||
		    !strcmp(line, "gemkit_errors") ||
		    (!with_data && !strcmp(line, "gemkit_aperture")))
			continue;
		if (!strncmp(line, "gemkit_errors/", 14) && !errdir.len) {
			strbuf_addf(&errdir, "%s/gemkit_errors", path.buf);
			ret = mkdir_p(errdir.buf);
			if (ret)
				goto out;
		}
		strbuf_reset(&data);
		if (read_whole(src, line, is_raw(line), &data) < 0) {
			nskipped++;
			continue;
		}
		ret = save_file(path.buf, line, &data);
		if (ret)
			goto out;
		saved++;
	}
	ret = saved;
	if (skipped)
		*skipped = nskipped;
out:
	strbuf_release(&names);
	strbuf_release(&path);
	strbuf_release(&data);
	strbuf_release(&objdir);
	strbuf_release(&errdir);
	return ret;
}

int gdfs_read_events(struct gdfs *src, uint64_t since, struct gdfs_events *out,
		     struct strbuf *err)
{
	struct strbuf buf, name;
	int ret;

	strbuf_init(&buf, 0);
	strbuf_init(&name, 0);
	if (since)
		strbuf_addf(&name, "gemkit_events.since.%llu", (unsigned long long)since);
	else
		strbuf_addstr(&name, "gemkit_events");
	ret = gdfs_read(src, name.buf, &buf);
	if (!ret)
		ret = gdfs_parse_events(buf.buf, buf.len, out, err);
	strbuf_release(&buf);
	strbuf_release(&name);
	return ret;
}
