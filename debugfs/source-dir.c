/*
 * A directory source: a live mount (gemd's or a real kernel's debugfs) or
 * a saved copy.  Files are read to EOF with large reads: debugfs files
 * report size 0, so st_size cannot size the buffer.  The files a tool
 * samples are kept open and read again from offset 0, which makes the
 * kernel's seq_file (and gemd's FUSE) generate them afresh.
 *
 * Nothing in the tree is trusted: only regular files are read (a FIFO in
 * place of a file would block, a device never end), at most
 * GDFS_MAX_FILE_SIZE bytes of each.  On a live FUSE mount every operation
 * runs on a thread of its own that the caller waits for at most the
 * source's timeout: a stopped or hung gemd blocks that thread, not the
 * tool, which gets -ETIMEDOUT and may give up.  (A thread left behind
 * finishes, frees its work and exits whenever the mount answers, or dies
 * with the process.)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "source.h"
#include "util.h"

#define READ_CHUNK		(256u << 10)

/* Read fd from offset 0 to EOF, appending to out; -EFBIG past max. */
static int pread_all(int fd, size_t max, struct strbuf *out)
{
	size_t start = out->len, chunk = READ_CHUNK;
	ssize_t n;

	for (;;) {
		if (out->len - start > max) {
			strbuf_setlen(out, start);
			return -EFBIG;
		}
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

/*
 * Open name under dirfd, only if it is a regular file: -ESPIPE for a
 * FIFO, socket or device (a debugfs file is read with pread from offset
 * 0), -EISDIR for a directory.  O_NONBLOCK keeps a FIFO's open from
 * waiting for a writer; it is cleared again for the reads.
 */
static int open_regular(int dirfd, const char *name, int flags)
{
	struct stat st;
	int fd, ret;

	fd = openat(dirfd, name, flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)	/* ENXIO: a FIFO nobody reads, opened for writing */
		return errno == ENXIO ? -ESPIPE : -errno;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -ESPIPE;
		goto out_close;
	}
	if (fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		ret = -errno;
		goto out_close;
	}
	return fd;

out_close:
	close(fd);
	return ret;
}

/* The names in directory sub of dirfd ("." for itself), each after prefix. */
static int list_dir(int dirfd, const char *sub, const char *prefix,
		    struct strbuf *out)
{
	struct dirent *de;
	DIR *d;
	int fd;

	fd = openat(dirfd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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

/* --- one operation, on the caller's thread or on a thread of its own --- */

enum dir_op { OP_READ, OP_READ_RANGE, OP_WRITE, OP_LIST, OP_OPEN_DIR };

/*
 * Everything an operation touches is the job's own (descriptors it
 * dup'ed, copies of the name and data), so that a job its caller gave up
 * on can finish, or block for ever, without touching the source.
 */
struct dir_job {
	enum dir_op op;
	int dirfd;		/* dup of the source's dri/0 (OP_OPEN_DIR: none) */
	int fd;			/* OP_READ: a dup of the kept file, or -1 */
	char *name;
	uint64_t off;		/* OP_READ_RANGE */
	size_t max;		/* OP_READ: the source's max_size */
	size_t len;		/* OP_READ_RANGE, OP_WRITE */
	void *data;		/* OP_WRITE: a copy */
	struct strbuf out;
	int opened;		/* OP_READ, OP_OPEN_DIR: the new descriptor */
	bool live;		/* OP_OPEN_DIR: a FUSE mount */
	dev_t dev;		/* OP_OPEN_DIR: its st_dev */
	ssize_t ret;

	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done, abandoned;
};

static ssize_t job_read(struct dir_job *j)
{
	int fd = j->fd, ret;

	if (fd < 0) {
		fd = open_regular(j->dirfd, j->name, O_RDONLY);
		if (fd < 0)
			return fd;
		j->opened = fd;
	}
	ret = pread_all(fd, j->max, &j->out);
	return ret;
}

static ssize_t job_read_range(struct dir_job *j)
{
	size_t got = 0;
	ssize_t n;
	int fd, ret = 0;

	fd = open_regular(j->dirfd, j->name, O_RDONLY);
	if (fd < 0)
		return fd;
	if (strbuf_grow(&j->out, j->len)) {
		ret = -ENOMEM;
		goto out_close;
	}
	while (got < j->len) {
		n = pread(fd, j->out.buf + got, j->len - got, (off_t)(j->off + got));
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
	strbuf_setlen(&j->out, got);
out_close:
	close(fd);
	return ret;
}

static ssize_t job_write(struct dir_job *j)
{
	ssize_t n;
	int fd;

	fd = open_regular(j->dirfd, j->name, O_WRONLY);
	if (fd < 0)
		return fd;
	n = write(fd, j->data, j->len);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

/* dri/0, and the few hang records of gemkit_errors/ (as gemd lists them
 * over the socket); not the object data, which can be thousands. */
static ssize_t job_list(struct dir_job *j)
{
	int ret = list_dir(j->dirfd, ".", "", &j->out);

	if (!ret && list_dir(j->dirfd, "gemkit_errors", "gemkit_errors/",
			     &j->out) == -ENOMEM)
		ret = -ENOMEM;
	return ret;
}

/* Is fd a dri/0 directory?  Every i915 debugfs has "name" (or, on later
 * kernels, "clients") and i915_* files; a saved copy has them too. */
static bool is_dri0(int fd)
{
	return !faccessat(fd, "name", F_OK, 0) ||
	       !faccessat(fd, "i915_capabilities", F_OK, 0) ||
	       !faccessat(fd, "gemkit_objects", F_OK, 0);
}

/* name is the directory given; out gets the suffix that held dri/0. */
static ssize_t job_open_dir(struct dir_job *j)
{
	static const char *const tries[] = { "dri/0", "0", "." };
	struct stat st;
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(tries); i++) {
		struct strbuf p = STRBUF_INIT;

		strbuf_addf(&p, "%s/%s", j->name, tries[i]);
		fd = open(p.buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		strbuf_release(&p);
		if (fd >= 0 && is_dri0(fd)) {
			j->opened = fd;
			j->live = fd_on_fuse(fd);
			j->dev = fstat(fd, &st) == 0 ? st.st_dev : 0;
			strbuf_addstr(&j->out, tries[i]);
			return 0;
		}
		if (fd >= 0)
			close(fd);
		/* A crashed gemd's mount: say so rather than "not found". */
		if (errno == ENOTCONN)
			return -ENOTCONN;
	}
	return access(j->name, F_OK) ? -errno : -ENOENT;
}

static void job_free(struct dir_job *j)
{
	if (j->opened >= 0)
		close(j->opened);
	if (j->fd >= 0)
		close(j->fd);
	if (j->dirfd >= 0)
		close(j->dirfd);
	free(j->name);
	free(j->data);
	strbuf_release(&j->out);
	pthread_cond_destroy(&j->cond);
	pthread_mutex_destroy(&j->lock);
	free(j);
}

static void job_run(struct dir_job *j)
{
	switch (j->op) {
	case OP_READ:
		j->ret = job_read(j);
		break;
	case OP_READ_RANGE:
		j->ret = job_read_range(j);
		break;
	case OP_WRITE:
		j->ret = job_write(j);
		break;
	case OP_LIST:
		j->ret = job_list(j);
		break;
	case OP_OPEN_DIR:
		j->ret = job_open_dir(j);
		break;
	}
}

static void *job_thread(void *arg)
{
	struct dir_job *j = arg;
	bool abandoned;

	job_run(j);
	pthread_mutex_lock(&j->lock);
	j->done = true;
	abandoned = j->abandoned;
	pthread_cond_signal(&j->cond);
	pthread_mutex_unlock(&j->lock);
	if (abandoned)
		job_free(j);
	return NULL;
}

static struct dir_job *job_new(enum dir_op op, int dirfd, const char *name)
{
	struct dir_job *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->op = op;
	j->fd = -1;
	j->opened = -1;
	j->dirfd = dirfd >= 0 ? fcntl(dirfd, F_DUPFD_CLOEXEC, 3) : -1;
	j->name = strdup(name ? name : "");
	strbuf_init(&j->out, 0);
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->cond, NULL);
	if (!j->name || (dirfd >= 0 && j->dirfd < 0)) {
		job_free(j);
		return NULL;
	}
	return j;
}

/*
 * Run j, on a thread of its own when live, waiting timeout_ns at most
 * (0: for ever).  Returns 0 with j still the caller's, or -ETIMEDOUT
 * (j is then the thread's to free) or -errno of starting it.
 */
static int job_wait(struct dir_job *j, bool live, uint64_t timeout_ns)
{
	struct timespec ts;
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t tid;
	uint64_t deadline;
	int ret;

	if (!live) {
		job_run(j);
		return 0;
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* Signals are the tool's main thread's (gemtop's SIGWINCH ...). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&tid, &attr, job_thread, j);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (ret)
		return -ret;
	clock_gettime(CLOCK_REALTIME, &ts);
	deadline = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec +
		   timeout_ns;
	ts.tv_sec = (time_t)(deadline / 1000000000ull);
	ts.tv_nsec = (long)(deadline % 1000000000ull);
	pthread_mutex_lock(&j->lock);
	while (!j->done) {
		if (!timeout_ns)
			pthread_cond_wait(&j->cond, &j->lock);
		else if (pthread_cond_timedwait(&j->cond, &j->lock, &ts) == ETIMEDOUT)
			break;
	}
	if (!j->done)
		j->abandoned = true;
	ret = j->done ? 0 : -ETIMEDOUT;
	pthread_mutex_unlock(&j->lock);
	return ret;
}

/* --- the source's operations ------------------------------------------ */

/* Names worth keeping open: plain files a tool samples again. */
static bool cacheable(const char *name)
{
	return !strchr(name, '/') && !strstr(name, ".since.") &&
	       strlen(name) < sizeof(((struct gdfs *)0)->open[0].name);
}

static int cache_find(struct gdfs *src, const char *name)
{
	unsigned int i;

	for (i = 0; i < src->nopen; i++)
		if (!strcmp(src->open[i].name, name))
			return src->open[i].fd;
	return -1;
}

/* Keep fd open as name (the source owns it from now). */
static void cache_add(struct gdfs *src, const char *name, int fd)
{
	unsigned int slot;

	if (src->nopen < GDFS_OPEN_FILES) {
		slot = src->nopen++;
	} else {
		slot = src->next_evict++ % GDFS_OPEN_FILES;
		close(src->open[slot].fd);
	}
	memcpy(src->open[slot].name, name, strlen(name) + 1);
	src->open[slot].fd = fd;
}

/* Run a job against src; its result, with j freed unless it timed out. */
static ssize_t dir_job_finish(struct gdfs *src, struct dir_job *j,
			      struct strbuf *out)
{
	ssize_t ret;
	int wait = job_wait(j, src->live, src->timeout_ns);

	if (wait)
		return wait;
	ret = j->ret;
	if (ret >= 0 && out && strbuf_add(out, j->out.buf, j->out.len))
		ret = -ENOMEM;
	if (ret >= 0 && j->op == OP_READ && j->opened >= 0 && cacheable(j->name)) {
		cache_add(src, j->name, j->opened);
		j->opened = -1;
	}
	job_free(j);
	return ret;
}

static int dir_read(struct gdfs *src, const char *name, struct strbuf *out)
{
	struct dir_job *j = job_new(OP_READ, src->fd, name);
	int fd = cacheable(name) ? cache_find(src, name) : -1;

	if (!j)
		return -ENOMEM;
	j->max = src->max_size;
	if (fd >= 0 && (j->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3)) < 0) {
		job_free(j);
		return -errno;
	}
	return (int)dir_job_finish(src, j, out);
}

static int dir_read_range(struct gdfs *src, const char *name, uint64_t off, size_t len,
			  struct strbuf *out)
{
	struct dir_job *j = job_new(OP_READ_RANGE, src->fd, name);

	if (!j)
		return -ENOMEM;
	j->off = off;
	j->len = len;
	return (int)dir_job_finish(src, j, out);
}

static ssize_t dir_write(struct gdfs *src, const char *name, const void *buf, size_t len)
{
	struct dir_job *j = job_new(OP_WRITE, src->fd, name);

	if (!j)
		return -ENOMEM;
	j->len = len;
	j->data = malloc(len ? len : 1);
	if (!j->data) {
		job_free(j);
		return -ENOMEM;
	}
	memcpy(j->data, buf, len);
	return dir_job_finish(src, j, NULL);
}

static int dir_list(struct gdfs *src, struct strbuf *out)
{
	struct dir_job *j = job_new(OP_LIST, src->fd, NULL);

	if (!j)
		return -ENOMEM;
	return (int)dir_job_finish(src, j, out);
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

/*
 * Whether the directory is a live mount is not known before it is
 * opened, and opening a hung FUSE mount blocks: so the open always runs
 * on a thread of its own, waited for the default timeout.
 */
int gdfs_open_dir(const char *dir, struct gdfs **out)
{
	struct dir_job *j = job_new(OP_OPEN_DIR, -1, dir);
	struct gdfs *src;
	int ret;

	if (!j)
		return -ENOMEM;
	ret = job_wait(j, true, gdfs_default_timeout_ns);
	if (ret)
		return ret;
	ret = (int)j->ret;
	if (ret)
		goto out_free;
	src = gdfs_alloc(&dir_ops, GDFS_DIR, j->opened);
	if (!src) {
		ret = -ENOMEM;
		goto out_free;
	}
	j->opened = -1;
	src->live = j->live;
	src->dev = j->dev;
	strbuf_addf(&src->desc, "%s/%s", dir, j->out.buf);
	*out = src;
out_free:
	job_free(j);
	return ret;
}
