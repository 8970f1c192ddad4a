/*
 * The FUSE export of gemd's debugfs: DIR/dri/0/<file>, served by libfuse3
 * (high-level API) from a thread of its own and its workers.
 *
 * seq_file semantics: a file's whole text is generated at open from one
 * snapshot and kept with the open file; reads are served from it, so a
 * reader sees one consistent state however small its reads are.  Files
 * report size 0 as debugfs does (read to EOF); opens are direct_io so the
 * page cache never serves stale text.  Raw files (gemkit_aperture,
 * gemkit_object_data/<id>) are read in place at each read and report
 * their real size.
 *
 * Writing "since N" to an open gemkit_events regenerates that open file
 * with the events after N; read it again from offset 0 (pread).
 *
 * Shutdown must not hang: a copy of the mount in another mount namespace
 * (a program that unshared it) or a reader holding a file open keeps the
 * superblock, and with it the workers blocked in read(/dev/fuse), alive
 * after the detach.  So the connection is aborted through fusectl, which
 * is mounted for the moment on our own detached mount point when it is not
 * at /sys/fs/fuse/connections, and the loop thread is joined with a
 * deadline: if it does not come back (no fusectl for a user), gemd exits
 * without freeing what the workers might still touch.
 * At start, a mount whose daemon died (ENOTCONN) is detached first.
 */
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "debugfs_priv.h"
#include "error.h"
#include "log.h"
#include "util.h"

#define FUSECTL_DIR		"/sys/fs/fuse/connections"
/* How long gem_debugfs_stop waits for the FUSE threads. */
#define STOP_JOIN_MS		300

extern char **environ;

struct gem_debugfs {
	struct gem_device *dev;
	struct fuse *fuse;
	char *dir;
	dev_t mnt_dev;			/* st_dev of the mounted root */
	bool made_dir;			/* we created dir: removed at stop */
	pthread_t thread;
	bool thread_running;
	time_t start_time;
	/* Open files: an unmount can come before their release. */
	pthread_mutex_t handles_lock;
	struct dfs_handle *handles;
};

struct dfs_handle {
	struct dfs_handle *prev, *next;
	const struct debugfs_file *f;
	uint64_t arg;
	pthread_mutex_t lock;
	struct strbuf buf;		/* show files: the generated text */
	bool read_once;			/* a read since buf was generated */
};

static struct gem_debugfs *dfs_of_context(void)
{
	return fuse_get_context()->private_data;
}

/* Path kinds under the mount root. */
enum dfs_node {
	NODE_NONE, NODE_ROOT, NODE_DRI, NODE_MINOR, NODE_RENDER, NODE_OBJDIR,
	NODE_PARAMS, NODE_ERRDIR, NODE_FILE
};

static enum dfs_node classify(const char *path, const struct debugfs_file **f,
			      uint64_t *arg)
{
	*f = NULL;
	if (!strcmp(path, "/"))
		return NODE_ROOT;
	if (!strcmp(path, "/dri"))
		return NODE_DRI;
	if (!strcmp(path, "/dri/0"))
		return NODE_MINOR;
	if (!strcmp(path, "/" DEBUGFS_RENDER_DIR))
		return NODE_RENDER;
	if (!strcmp(path, "/dri/0/" DEBUGFS_OBJDIR))
		return NODE_OBJDIR;
	if (!strcmp(path, "/dri/0/" DEBUGFS_ERRDIR))
		return NODE_ERRDIR;
	if (!strcmp(path, "/dri/0/" DEBUGFS_PARAMS_DIR))
		return NODE_PARAMS;
	if (strncmp(path, "/dri/0/", 7) && strncmp(path, "/" DEBUGFS_RENDER_DIR "/",
						  strlen(DEBUGFS_RENDER_DIR) + 2))
		return NODE_NONE;
	*f = debugfs_lookup(path + 1, arg);
	return *f ? NODE_FILE : NODE_NONE;
}

static bool error_record_kept(struct gem_device *dev, uint64_t seq)
{
	uint64_t seqs[GEM_ERROR_RECORDS_MAX];
	unsigned int i, n = gem_error_records(dev, seqs, GEM_ERROR_RECORDS_MAX);

	for (i = 0; i < n; i++)
		if (seqs[i] == seq)
			return true;
	return false;
}

static int dfs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	struct gem_debugfs *dfs = dfs_of_context();
	const struct debugfs_file *f;
	uint64_t arg;
	enum dfs_node node = classify(path, &f, &arg);

	memset(st, 0, sizeof(*st));
	st->st_uid = getuid();
	st->st_gid = getgid();
	st->st_atime = st->st_mtime = st->st_ctime = dfs->start_time;
	switch (node) {
	case NODE_NONE:
		return -ENOENT;
	case NODE_FILE:
		st->st_mode = S_IFREG | debugfs_file_mode(f);
		if (f->raw_read) {
			st->st_size = (off_t)f->raw_size(dfs->dev, (const void *)(uintptr_t)arg);
			if (f == &debugfs_objdata_file && st->st_size == 0)
				return -ENOENT;
		} else if (f == &debugfs_errors_file) {
			if (!error_record_kept(dfs->dev, arg))
				return -ENOENT;
		}
		st->st_nlink = 1;
		return 0;
	default:
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
}

/* The ids of the objects alive now, for readdir of the object directory. */
static int object_ids(struct gem_device *dev, uint32_t **ids, size_t *n)
{
	struct gem_object *obj;
	size_t i = 0;
	int l;

	gem_lock(dev);
	*ids = malloc((dev->object_count + 1) * sizeof(**ids));
	if (!*ids) {
		gem_unlock(dev);
		return -ENOMEM;
	}
	for (l = 0; l < GEM_LIST_COUNT; l++)
		list_for_each_entry(obj, &dev->lists[l], list_link)
			if (i < dev->object_count)
				(*ids)[i++] = obj->id;
	gem_unlock(dev);
	*n = i;
	return 0;
}

static int dfs_readdir(const char *path, void *buf, fuse_fill_dir_t filler, off_t off,
		       struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	struct gem_debugfs *dfs = dfs_of_context();
	const struct debugfs_file *f;
	uint64_t arg;
	unsigned int i;

	filler(buf, ".", NULL, 0, 0);
	filler(buf, "..", NULL, 0, 0);
	switch (classify(path, &f, &arg)) {
	case NODE_ROOT:
		filler(buf, "dri", NULL, 0, 0);
		return 0;
	case NODE_DRI:
		filler(buf, "0", NULL, 0, 0);
		filler(buf, strrchr(DEBUGFS_RENDER_DIR, '/') + 1, NULL, 0, 0);
		return 0;
	case NODE_MINOR:
		for (i = 0; i < debugfs_nfiles; i++)
			filler(buf, debugfs_files[i].name, NULL, 0, 0);
		filler(buf, DEBUGFS_OBJDIR, NULL, 0, 0);
		filler(buf, DEBUGFS_PARAMS_DIR, NULL, 0, 0);
		filler(buf, DEBUGFS_ERRDIR, NULL, 0, 0);
		return 0;
	case NODE_RENDER:
		filler(buf, "name", NULL, 0, 0);
		return 0;
	case NODE_PARAMS:
		for (i = 0; i < debugfs_nparams; i++)
			if (debugfs_param_files[i].mode)
				filler(buf, debugfs_param_files[i].name, NULL, 0, 0);
		return 0;
	case NODE_ERRDIR: {
		uint64_t seqs[GEM_ERROR_RECORDS_MAX];
		unsigned int k, n = gem_error_records(dfs->dev, seqs,
						      GEM_ERROR_RECORDS_MAX);

		for (k = 0; k < n; k++) {
			char name[24];

			snprintf(name, sizeof(name), "%llu",
				 (unsigned long long)seqs[k]);
			if (filler(buf, name, NULL, 0, 0))
				break;
		}
		return 0;
	}
	case NODE_OBJDIR: {
		uint32_t *ids;
		size_t n, k;
		int ret = object_ids(dfs->dev, &ids, &n);

		if (ret)
			return ret;
		for (k = 0; k < n; k++) {
			char name[16];

			snprintf(name, sizeof(name), "%u", ids[k]);
			if (filler(buf, name, NULL, 0, 0))
				break;
		}
		free(ids);
		return 0;
	}
	default:
		return -ENOTDIR;
	}
}

static int dfs_open(const char *path, struct fuse_file_info *fi)
{
	struct gem_debugfs *dfs = dfs_of_context();
	const struct debugfs_file *f;
	struct dfs_handle *h;
	uint64_t arg;
	int acc = fi->flags & O_ACCMODE;
	int ret;

	if (classify(path, &f, &arg) != NODE_FILE)
		return -ENOENT;
	if (acc != O_RDONLY && !f->write && f->show != debugfs_show_gemkit_events)
		return -EACCES;
	if (acc != O_WRONLY && f->raw_read == NULL && !debugfs_is_text(f))
		return -EACCES;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->f = f;
	h->arg = arg;
	pthread_mutex_init(&h->lock, NULL);
	strbuf_init(&h->buf, 0);
	if (acc != O_WRONLY && debugfs_is_text(f)) {
		ret = debugfs_generate(dfs->dev, f, arg, &h->buf);
		if (ret) {
			strbuf_release(&h->buf);
			pthread_mutex_destroy(&h->lock);
			free(h);
			return ret;
		}
	}
	pthread_mutex_lock(&dfs->handles_lock);
	h->next = dfs->handles;
	if (h->next)
		h->next->prev = h;
	dfs->handles = h;
	pthread_mutex_unlock(&dfs->handles_lock);
	fi->fh = (uintptr_t)h;
	fi->direct_io = 1;
	fi->keep_cache = 0;
	return 0;
}

static int dfs_read(const char *path, char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct gem_debugfs *dfs = dfs_of_context();
	struct dfs_handle *h = (struct dfs_handle *)(uintptr_t)fi->fh;
	size_t n;

	if (!h || off < 0)
		return -EINVAL;
	if (h->f->raw_read) {
		ssize_t r = h->f->raw_read(dfs->dev, buf, size, (uint64_t)off,
					   (const void *)(uintptr_t)h->arg);

		return r < 0 ? (int)r : (int)r;
	}
	/*
	 * Reading from offset 0 again regenerates the file, as the kernel's
	 * seq_file does: a tool keeps the file open and preads it each
	 * refresh instead of opening it anew.
	 */
	if (off == 0 && h->read_once) {
		struct strbuf fresh = STRBUF_INIT;
		int ret = debugfs_generate(dfs->dev, h->f, h->arg, &fresh);

		if (ret) {
			strbuf_release(&fresh);
			return ret;
		}
		pthread_mutex_lock(&h->lock);
		strbuf_release(&h->buf);
		h->buf = fresh;
		pthread_mutex_unlock(&h->lock);
	}
	pthread_mutex_lock(&h->lock);
	h->read_once = true;
	if ((uint64_t)off >= h->buf.len) {
		n = 0;
	} else {
		n = MIN(size, h->buf.len - (size_t)off);
		memcpy(buf, h->buf.buf + off, n);
	}
	pthread_mutex_unlock(&h->lock);
	return (int)n;
}

/* "since N" on gemkit_events: regenerate this open file's text. */
static int events_since_write(struct gem_device *dev, struct dfs_handle *h,
			      const char *buf, size_t size)
{
	char tmp[40], *end;
	unsigned long long n;
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (size >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, buf, size);
	tmp[size] = '\0';
	while (size && (tmp[size - 1] == '\n' || tmp[size - 1] == ' '))
		tmp[--size] = '\0';
	if (strncmp(tmp, "since ", 6) || !tmp[6] || tmp[6] == '-')
		return -EINVAL;
	errno = 0;
	n = strtoull(tmp + 6, &end, 10);
	if (errno || *end)
		return -EINVAL;
	ret = debugfs_events_since(dev, &sb, n);
	if (ret) {
		strbuf_release(&sb);
		return ret;
	}
	pthread_mutex_lock(&h->lock);
	strbuf_release(&h->buf);
	h->buf = sb;
	h->arg = n;		/* later regenerations keep "since N" */
	h->read_once = false;
	pthread_mutex_unlock(&h->lock);
	return 0;
}

static int dfs_write(const char *path, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	struct gem_debugfs *dfs = dfs_of_context();
	struct dfs_handle *h = (struct dfs_handle *)(uintptr_t)fi->fh;
	int ret;

	if (!h)
		return -EINVAL;
	if (h->f->show == debugfs_show_gemkit_events)
		ret = events_since_write(dfs->dev, h, buf, size);
	else if (h->f->write)
		ret = h->f->write(dfs->dev, buf, size, h->f->data);
	else
		ret = -EACCES;
	return ret ? ret : (int)size;
}

/* O_TRUNC on open ("echo 1 > i915_wedged") arrives as a truncate. */
static int dfs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	const struct debugfs_file *f;
	uint64_t arg;

	if (classify(path, &f, &arg) != NODE_FILE)
		return -ENOENT;
	return f->write || f->show == debugfs_show_gemkit_events ? 0 : -EACCES;
}

static void handle_free(struct gem_debugfs *dfs, struct dfs_handle *h)
{
	pthread_mutex_lock(&dfs->handles_lock);
	if (h->prev)
		h->prev->next = h->next;
	else
		dfs->handles = h->next;
	if (h->next)
		h->next->prev = h->prev;
	pthread_mutex_unlock(&dfs->handles_lock);
	strbuf_release(&h->buf);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

static int dfs_release(const char *path, struct fuse_file_info *fi)
{
	struct dfs_handle *h = (struct dfs_handle *)(uintptr_t)fi->fh;

	if (h)
		handle_free(dfs_of_context(), h);
	return 0;
}

static void *dfs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->use_ino = 0;
	cfg->attr_timeout = 0;
	cfg->entry_timeout = 0;
	cfg->negative_timeout = 0;
	return fuse_get_context()->private_data;
}

static const struct fuse_operations dfs_ops = {
	.init = dfs_init,
	.getattr = dfs_getattr,
	.readdir = dfs_readdir,
	.open = dfs_open,
	.read = dfs_read,
	.write = dfs_write,
	.truncate = dfs_truncate,
	.release = dfs_release,
};

static void *dfs_thread(void *arg)
{
	struct gem_debugfs *dfs = arg;
	sigset_t all;

	/* Signals are gemd's main thread's business; the workers inherit this. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	fuse_loop_mt(dfs->fuse, 0);
	return NULL;
}

/* umount2(MNT_DETACH), or fusermount3 -u -z when not allowed to. */
static int detach_mount(const char *dir)
{
	char prog[] = "fusermount3", u[] = "-u", z[] = "-z", q[] = "-q";
	char *const argv[] = { prog, u, z, q, (char *)dir, NULL };
	pid_t pid;
	int status;

	if (umount2(dir, MNT_DETACH) == 0)
		return 0;
	if (errno != EPERM)
		return -errno;
	if (posix_spawnp(&pid, prog, NULL, NULL, argv, environ))
		return -EPERM;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EPERM;
}

/* Write to fusectl's abort file of the connection behind st_dev. */
static int write_abort(const char *fusectl, dev_t dev)
{
	char path[PATH_MAX];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%u/abort", fusectl, minor(dev));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "1", 1) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * Abort the connection behind st_dev: the workers' reads fail at once,
 * whoever still holds the superblock.  dir is our mount point, already
 * detached here: if fusectl is not mounted where it usually is, it is
 * mounted there for the moment (root only).
 */
static void abort_connection(const char *dir, dev_t dev)
{
	int ret = write_abort(FUSECTL_DIR, dev);

	if (ret != -ENOENT)
		goto out;
	if (mount("fusectl", dir, "fusectl", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL) < 0) {
		ret = -errno;
		goto out;
	}
	ret = write_abort(dir, dev);
	umount2(dir, MNT_DETACH);
out:
	if (ret)
		log_debug("debugfs: cannot abort the FUSE connection: %s",
			  strerror(-ret));
}

int gem_debugfs_cleanup_stale(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) == 0)
		return 0;
	if (errno != ENOTCONN)
		return errno == ENOENT ? 0 : -errno;
	log_notice("debugfs: removing the stale mount at %s", dir);
	return detach_mount(dir);
}

/* *made: the last component was created here (not found). */
static int mkdir_p(const char *dir, bool *made)
{
	char path[PATH_MAX];
	size_t len = strlen(dir), i;

	if (len == 0 || len >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, len + 1);
	for (i = 1; i <= len; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0755) == 0)
			*made = i == len;
		else if (errno != EEXIST)
			return -errno;
		path[i] = dir[i];
	}
	return 0;
}

int gem_debugfs_start(struct gem_device *dev, const char *dir, struct gem_debugfs **out)
{
	char name[] = "gemd", opt[] = "-o";
	char root_opts[] = "fsname=gemd,subtype=gemd-debugfs,allow_other,default_permissions";
	char user_opts[] = "fsname=gemd,subtype=gemd-debugfs";
	char *argv[4];
	struct fuse_args args;
	struct gem_debugfs *dfs;
	struct stat st;
	bool made = false;
	int argc = 0, ret;

	if (!fuse_available())
		return -ENODEV;
	ret = gem_debugfs_cleanup_stale(dir);
	if (ret)
		return ret;
	ret = mkdir_p(dir, &made);
	if (ret)
		return ret;
	if (path_on_fuse(dir))
		return -EBUSY;		/* another gemd serves it */

	dfs = calloc(1, sizeof(*dfs));
	if (!dfs) {
		ret = -ENOMEM;
		goto out_rmdir;
	}
	dfs->made_dir = made;
	dfs->dev = dev;
	pthread_mutex_init(&dfs->handles_lock, NULL);
	dfs->start_time = time(NULL);
	dfs->dir = realpath(dir, NULL);
	if (!dfs->dir) {
		ret = -errno;
		goto out_free;
	}
	argv[argc++] = name;
	argv[argc++] = opt;
	/* Root may let every user read it (IGT runs as anyone); modes apply. */
	argv[argc++] = geteuid() == 0 ? root_opts : user_opts;
	argv[argc] = NULL;
	args = (struct fuse_args)FUSE_ARGS_INIT(argc, argv);
	dfs->fuse = fuse_new(&args, &dfs_ops, sizeof(dfs_ops), dfs);
	fuse_opt_free_args(&args);
	if (!dfs->fuse) {
		ret = -EINVAL;
		goto out_free;
	}
	if (fuse_mount(dfs->fuse, dfs->dir)) {
		ret = -ENODEV;
		goto out_destroy;
	}
	ret = -pthread_create(&dfs->thread, NULL, dfs_thread, dfs);
	if (ret)
		goto out_unmount;
	dfs->thread_running = true;
	/* Only now: stat() on the mount needs the loop to answer. */
	if (stat(dfs->dir, &st) == 0)
		dfs->mnt_dev = st.st_dev;
	log_info("debugfs: mounted at %s/dri/0", dfs->dir);
	*out = dfs;
	return 0;

out_unmount:
	fuse_unmount(dfs->fuse);
out_destroy:
	fuse_destroy(dfs->fuse);
out_free:
	free(dfs->dir);
	free(dfs);
out_rmdir:
	if (made)
		rmdir(dir);
	return ret;
}

const char *gem_debugfs_dir(const struct gem_debugfs *dfs)
{
	return dfs->dir;
}

dev_t gem_debugfs_dev(const struct gem_debugfs *dfs)
{
	return dfs->mnt_dev;
}

int gem_debugfs_stop(struct gem_debugfs *dfs)
{
	struct timespec deadline;
	int ret;

	if (!dfs)
		return 0;
	fuse_exit(dfs->fuse);
	/* Detach, then abort: a reader holding a file open, or a mount
	 * namespace holding a copy, cannot keep the workers alive. */
	ret = detach_mount(dfs->dir);
	if (ret)
		log_warn("debugfs: could not unmount %s: %s", dfs->dir,
			 strerror(-ret));
	else if (dfs->mnt_dev)
		abort_connection(dfs->dir, dfs->mnt_dev);
	if (dfs->thread_running) {
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_nsec += STOP_JOIN_MS * 1000000L;
		deadline.tv_sec += deadline.tv_nsec / 1000000000L;
		deadline.tv_nsec %= 1000000000L;
		ret = pthread_timedjoin_np(dfs->thread, NULL, &deadline);
		if (ret) {
			/* Left as it is: the workers may still be in a request. */
			log_warn("debugfs: the FUSE workers did not stop within "
				 "%u ms (no fusectl to abort the connection); "
				 "exiting without them", STOP_JOIN_MS);
			return -ETIMEDOUT;
		}
	}
	fuse_unmount(dfs->fuse);	/* closes /dev/fuse; the mount is gone */
	fuse_destroy(dfs->fuse);
	while (dfs->handles)
		handle_free(dfs, dfs->handles);
	pthread_mutex_destroy(&dfs->handles_lock);
	log_info("debugfs: unmounted %s", dfs->dir);
	/* Ours: nothing is left where the tools, or the next gemd, look. */
	if (dfs->made_dir && rmdir(dfs->dir) < 0)
		log_debug("debugfs: rmdir %s: %m", dfs->dir);
	free(dfs->dir);
	free(dfs);
	return 0;
}
