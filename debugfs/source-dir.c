/*
 * A directory source: a live mount (gemd's or a real kernel's debugfs) or
 * a saved copy.  Files are read to EOF with large reads: debugfs files
 * report size 0, so st_size cannot size the buffer.  The files a tool
 * samples are kept open and read again from offset 0, which makes the
 * kernel's seq_file (and gemd's FUSE) generate them afresh.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source.h"
#include "util.h"

#define READ_CHUNK	(256u << 10)

/* Read fd from offset 0 to EOF, appending to out. */
static int pread_all(int fd, struct strbuf *out)
{
	size_t start = out->len, chunk = READ_CHUNK;
	ssize_t n;

	for (;;) {
		if (strbuf_grow(out, chunk))
			return -ENOMEM;
		n = pread(fd, out->buf + out->len, out->alloc - out->len - 1,
			  (off_t)(out->len - start));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		strbuf_setlen(out, out->len + (size_t)n);
		if (chunk < (16u << 20))
			chunk *= 2;	/* fewer, larger reads for big files */
	}
	return 0;
}

/* Names worth keeping open: plain files a tool samples again. */
static bool cacheable(const char *name)
{
	return !strchr(name, '/') && !strstr(name, ".since.") &&
	       strlen(name) < sizeof(((struct gdfs *)0)->open[0].name);
}

static int cached_fd(struct gdfs *src, const char *name, bool *fresh)
{
	unsigned int i, slot;
	int fd;

	*fresh = false;
	if (cacheable(name))
		for (i = 0; i < src->nopen; i++)
			if (!strcmp(src->open[i].name, name))
				return src->open[i].fd;
	fd = openat(src->fd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*fresh = true;
	if (!cacheable(name))
		return fd;
	if (src->nopen < GDFS_OPEN_FILES) {
		slot = src->nopen++;
	} else {
		slot = src->next_evict++ % GDFS_OPEN_FILES;
		close(src->open[slot].fd);
	}
	memcpy(src->open[slot].name, name, strlen(name) + 1);
	src->open[slot].fd = fd;
	*fresh = false;		/* owned by the cache now */
	return fd;
}

static int dir_read(struct gdfs *src, const char *name, struct strbuf *out)
{
	bool fresh;
	int fd = cached_fd(src, name, &fresh), ret;

	if (fd < 0)
		return fd;
	ret = pread_all(fd, out);
	if (fresh)
		close(fd);
	return ret;
}

static int dir_read_range(struct gdfs *src, const char *name, uint64_t off, size_t len,
			  struct strbuf *out)
{
	size_t got = 0;
	ssize_t n;
	int fd, ret = 0;

	fd = openat(src->fd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (strbuf_grow(out, len)) {
		ret = -ENOMEM;
		goto out_close;
	}
	while (got < len) {
		n = pread(fd, out->buf + out->len + got, len - got, (off_t)(off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto out_close;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	strbuf_setlen(out, out->len + got);
out_close:
	close(fd);
	return ret;
}

static ssize_t dir_write(struct gdfs *src, const char *name, const void *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = openat(src->fd, name, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

/* The names in directory sub of dri/0 ("." for dri/0), each after prefix. */
static int list_dir(struct gdfs *src, const char *sub, const char *prefix,
		    struct strbuf *out)
{
	struct dirent *de;
	DIR *d;
	int fd;

	fd = openat(src->fd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		strbuf_addf(out, "%s%s\n", prefix, de->d_name);
	}
	closedir(d);
	return 0;
}

/* dri/0, and the few hang records of gemkit_errors/ (as gemd lists them
 * over the socket); not the object data, which can be thousands. */
static int dir_list(struct gdfs *src, struct strbuf *out)
{
	int ret = list_dir(src, ".", "", out);

	if (!ret && list_dir(src, "gemkit_errors", "gemkit_errors/", out) == -ENOMEM)
		ret = -ENOMEM;
	return ret;
}

static void dir_close(struct gdfs *src)
{
	unsigned int i;

	for (i = 0; i < src->nopen; i++)
		close(src->open[i].fd);
	close(src->fd);
}

static const struct gdfs_ops dir_ops = {
	.read = dir_read,
	.read_range = dir_read_range,
	.write = dir_write,
	.list = dir_list,
	.close = dir_close,
};

/* Is fd a dri/0 directory?  Every i915 debugfs has "name" (or, on later
 * kernels, "clients") and i915_* files; a saved copy has them too. */
static bool is_dri0(int fd)
{
	return !faccessat(fd, "name", F_OK, 0) ||
	       !faccessat(fd, "i915_capabilities", F_OK, 0) ||
	       !faccessat(fd, "gemkit_objects", F_OK, 0);
}

int gdfs_open_dir(const char *dir, struct gdfs **out)
{
	static const char *const tries[] = { "dri/0", "0", "." };
	struct gdfs *src;
	unsigned int i;
	int fd = -1, ret;

	for (i = 0; i < ARRAY_SIZE(tries); i++) {
		struct strbuf p;

		strbuf_init(&p, 0);
		strbuf_addf(&p, "%s/%s", dir, tries[i]);
		fd = open(p.buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		strbuf_release(&p);
		if (fd >= 0 && is_dri0(fd))
			break;
		if (fd >= 0)
			close(fd);
		fd = -1;
		/* A crashed gemd's mount: say so rather than "not found". */
		if (errno == ENOTCONN)
			return -ENOTCONN;
	}
	if (fd < 0) {
		ret = access(dir, F_OK) ? -errno : -ENOENT;
		return ret;
	}
	src = gdfs_alloc(&dir_ops, GDFS_DIR, fd);
	if (!src) {
		close(fd);
		return -ENOMEM;
	}
	strbuf_addf(&src->desc, "%s/%s", dir, tries[i]);
	*out = src;
	return 0;
}
