/* libgem: the i915 ioctl interface over gemd's socket (see libgem.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>
#include <linux/sync_file.h>

#include "channel.h"
#include "fastpath.h"
#include "libgem.h"
#include "maps.h"
#include "sockpath.h"
#include "strbuf.h"
#include "token.h"
#include "usercopy.h"
#include "userptr.h"
#include "util.h"
#include "vouch.h"
#include "wire.h"

#define GEM_PAGE_SIZE	4096u

/*
 * What a device fd stands for: its drm_file's token and its gemd.  Kept
 * per process and keyed by fd number, so the hot path costs one fstat()
 * (which catches an fd closed and reused behind our back) and a lock, or
 * only the lock when the interposer vouches for the fd (vouch.h).  On
 * a miss gemd's path is read off the socket and gemd is asked which file
 * the fd is (GEM_MSG_TOKEN), which is what makes dup'ed fds and fds
 * inherited across fork and exec work.
 */
struct fd_entry {
	bool valid;
	dev_t st_dev;
	ino_t st_ino;
	struct gem_token token;
	struct gem_dev *dev;
};

static pthread_mutex_t fds_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fd_entry *fds;
static size_t nfds;
static pthread_once_t fds_once = PTHREAD_ONCE_INIT;

static void fds_lock_take(void)
{
	pthread_mutex_lock(&fds_lock);
}

static void fds_lock_drop(void)
{
	pthread_mutex_unlock(&fds_lock);
}

static void fds_init_once(void)
{
	pthread_atfork(fds_lock_take, fds_lock_drop, fds_lock_drop);
}

static void fd_remember(int fd, const struct fd_entry *e)
{
	pthread_once(&fds_once, fds_init_once);
	pthread_mutex_lock(&fds_lock);
	if ((size_t)fd >= nfds) {
		size_t n = MAX((size_t)fd + 1, nfds * 2);
		struct fd_entry *p = realloc(fds, n * sizeof(*p));

		if (!p)
			goto out_unlock;	/* only a cache */
		memset(p + nfds, 0, (n - nfds) * sizeof(*p));
		fds = p;
		nfds = n;
	}
	fds[fd] = *e;
out_unlock:
	pthread_mutex_unlock(&fds_lock);
}

static void fd_forget(int fd)
{
	pthread_mutex_lock(&fds_lock);
	if (fd >= 0 && (size_t)fd < nfds)
		fds[fd].valid = false;
	pthread_mutex_unlock(&fds_lock);
}

/*
 * Ask gemd which file fd is, sending the fd itself (GEM_MSG_TOKEN): the
 * token is gemd's secret, and holding the fd is the right to learn it.
 */
static int fd_ask_token(struct gem_dev *dev, int fd, struct gem_token *token)
{
	struct gem_open_reply rep;
	struct wire_call wc = {
		.type = GEM_MSG_TOKEN, .pass_fd = &fd,
		.min_len = sizeof(rep), .max_len = sizeof(rep),
	};
	struct gem_channel *ch;
	int ret;

	ret = channel_get_for(dev, fd, &ch);
	if (!ret)
		ret = channel_call(ch, &wc);
	if (!ret && wc.result < 0)
		ret = wc.result;
	if (!ret) {
		/* channel_call puts the reply in the channel's buffer. */
		memcpy(&rep, wc.reply->buf, sizeof(rep));
		*token = rep.file;
	}
	return ret;
}

/* gemd of a socket that looks like a device fd (an autobound client
 * socket connected to a path), or -ENOTTY. */
static int fd_recover_dev(int fd, struct fd_entry *e)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof(sa);
	struct strbuf peer = STRBUF_INIT;
	uint64_t unused;
	int ret;

	if (getsockname(fd, (struct sockaddr *)&sa, &len) < 0)
		return errno == ENOTSOCK ? -ENOTTY : -errno;
	if (wire_token_from_addr(&sa, len, &unused))
		return -ENOTTY;
	ret = sockpath_peer(fd, &peer);
	if (ret == 0) {
		e->dev = libgem_dev_get(peer.buf);
		ret = e->dev ? 0 : -errno;
	} else if (ret == -ENOTCONN || ret == -ENAMETOOLONG) {
		ret = -ENOTTY;
	}
	strbuf_release(&peer);
	return ret;
}

/* Read gemd off the socket, then ask it for the token.  A socket gemd
 * does not know as a file is no device: -ENOTTY. */
static int fd_recover(int fd, struct fd_entry *e)
{
	int ret = fd_recover_dev(fd, e);

	if (ret)
		return ret;
	ret = fd_ask_token(e->dev, fd, &e->token);
	return ret == -EBADF ? -ENOTTY : ret;
}

static void fd_keep(int fd, const struct stat *st, struct fd_entry *e)
{
	e->valid = true;
	e->st_dev = st->st_dev;
	e->st_ino = st->st_ino;
	fd_remember(fd, e);
}

static int fd_learn(int fd, const struct stat *st, struct fd_entry *e)
{
	int ret = fd_recover(fd, e);

	if (ret)
		return ret;
	fd_keep(fd, st, e);
	return 0;
}

/*
 * fstat by system call: under the interposer (libgemkit-preload) fstat()
 * says a device fd is a char device, and libgem must still see the socket.
 */
static int raw_fstat(int fd, struct stat *st)
{
	return (int)syscall(SYS_fstat, fd, st);
}

/* The entry of an fd the caller vouches for (vouch.h), if we have one. */
static bool fd_cached(int fd, struct fd_entry *e)
{
	bool hit = false;

	pthread_mutex_lock(&fds_lock);
	if (fd >= 0 && (size_t)fd < nfds && fds[fd].valid) {
		*e = fds[fd];
		hit = true;
	}
	pthread_mutex_unlock(&fds_lock);
	return hit;
}

void libgem_fd_copy(int oldfd, int newfd)
{
	struct fd_entry e = { .valid = false };

	if (oldfd == newfd || newfd < 0)
		return;
	if (fd_cached(oldfd, &e))
		fd_remember(newfd, &e);
	else
		fd_forget(newfd);
}

/*
 * 0 and e filled, -EBADF for a closed fd, -ENOTTY for one that is not a
 * gemd device (what ioctl(2) says about a file without the request).
 */
static int fd_lookup(int fd, struct fd_entry *e)
{
	struct stat st;
	bool hit = false;

	if (raw_fstat(fd, &st) < 0)
		return -errno;
	pthread_mutex_lock(&fds_lock);
	if ((size_t)fd < nfds && fds[fd].valid && fds[fd].st_ino == st.st_ino &&
	    fds[fd].st_dev == st.st_dev) {
		*e = fds[fd];
		hit = true;
	}
	pthread_mutex_unlock(&fds_lock);
	if (hit)
		return 0;
	if (!S_ISSOCK(st.st_mode))
		return -ENOTTY;
	return fd_learn(fd, &st, e);
}

int gem_open(const char *path, int flags)
{
	struct gem_open_reply rep;
	struct fd_entry e;
	struct stat st;
	int fd, ret;

	if (!path)
		path = gem_device_path(NULL);
	if (!path)
		return -1;	/* errno set */
	fd = channel_connect(path, GEM_MSG_OPEN, true, flags & O_CLOEXEC,
			     &rep, sizeof(rep));
	if (fd < 0) {
		errno = -fd;
		return -1;
	}
	/* Name gemd by the path it bound, as a later recovery will. */
	if (raw_fstat(fd, &st) < 0) {
		ret = -errno;
		goto out_close;
	}
	ret = fd_recover_dev(fd, &e);
	if (ret)
		goto out_close;
	e.token = rep.file;
	fd_keep(fd, &st, &e);
	return fd;

out_close:
	close(fd);
	errno = -ret;
	return -1;
}

/*
 * Close, then tell gemd (GEM_MSG_RELEASE): if this was the last copy of the
 * fd, the drm_file is released before we return, as close(2) releases a
 * kernel drm_file.  A failure of that message changes nothing for the
 * caller: the file is released a moment later anyway.
 */
int gem_close(int fd)
{
	struct wire_call wc = { .type = GEM_MSG_RELEASE };
	struct gem_channel *ch;
	struct fd_entry e;
	bool known = fd_lookup(fd, &e) == 0;
	int ret, err;

	/* What this thread left unanswered is done before the file may go. */
	if (known && (ch = channel_peek(e.dev)))
		channel_flush(ch);
	fd_forget(fd);
	ret = close(fd);
	err = errno;
	if (ret == 0 && known && channel_get(e.dev, &ch) == 0) {
		wc.file = e.token;
		(void)channel_call(ch, &wc);
	}
	errno = err;
	return ret;
}

int gem_sync(int fd)
{
	struct gem_channel *ch;
	struct fd_entry e;
	int ret;

	ret = fd_lookup(fd, &e);
	if (!ret && (ch = channel_peek(e.dev)))
		ret = channel_flush(ch);
	if (ret) {
		errno = -ret;
		return -1;
	}
	return 0;
}

/* At exit, the main thread's unanswered messages (thread exits flush
 * their own channels). */
__attribute__((destructor)) static void libgem_exit_flush(void)
{
	channel_flush_all();
}

bool gem_is_device_fd(int fd)
{
	struct fd_entry e;

	return fd_lookup(fd, &e) == 0;
}

const char *gem_default_device(void)
{
	return gem_device_path(NULL);
}

/* The gemd at path (NULL: the default device), or NULL and errno. */
static struct gem_dev *dev_at_path(const char *path)
{
	if (!path)
		path = gem_device_path(NULL);
	return path ? libgem_dev_get(path) : NULL;
}

int libgem_control(const char *path, uint32_t op)
{
	struct wire_call call = { .type = GEM_MSG_CONTROL, .request = op };
	struct gem_dev *dev = dev_at_path(path);
	struct gem_channel *ch;
	int ret;

	if (!dev)
		return -errno;
	ret = channel_get(dev, &ch);
	if (!ret)
		ret = channel_call(ch, &call);
	return ret ? ret : call.result;
}

int gem_mmio_fd(const char *path, uint64_t *size)
{
	struct gem_dev *dev = dev_at_path(path);
	int ret, fd;

	if (!dev)
		return -1;	/* errno set */
	ret = channel_fetch_fd(dev, GEM_MSG_STATUS, GEM_STATUS_MMIO, GEM_TOKEN_NONE,
			       &fd, size);
	if (ret) {
		errno = -ret;
		return -1;
	}
	return fd;
}

/* --- the ioctl's client half: copies and maps -------------------------- */

/* All of an object's bytes, or -errno (-EFAULT for a bad user buffer). */
static int rw_all(int fd, void *user, uint64_t size, uint64_t off, bool write)
{
	uint8_t *p = user;

	while (size) {
		ssize_t n = write ? pwrite(fd, p, size, (off_t)off) :
				    pread(fd, p, size, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;	/* past the arena's end: gemd lied */
		p += n;
		off += (uint64_t)n;
		size -= (uint64_t)n;
	}
	return 0;
}

/*
 * PREAD/PWRITE: gemd checked and waited; the bytes go between the caller's
 * buffer and the arena by pread(2)/pwrite(2), so a bad buffer is EFAULT
 * as in the kernel, never a crash.
 */
static int finish_rw(int fd, const struct fd_entry *e,
		     struct wire_client_call *c, bool write)
{
	const struct drm_i915_gem_pread *args = (const void *)c->kx;
	struct drm_i915_gem_sw_finish sf = { .handle = args->handle };
	struct gem_arena_ref a;
	int ret;

	_Static_assert(sizeof(struct drm_i915_gem_pread) ==
		       sizeof(struct drm_i915_gem_pwrite), "same layout");
	ret = libgem_arena_get(e->dev, e->token, c->loc.arena, &a);
	if (ret)
		return ret;
	/* gemd checked the range; a reply that disagrees is not trusted. */
	if (c->loc.offset > a.size || c->loc.size > a.size - c->loc.offset ||
	    args->offset > c->loc.size || args->size > c->loc.size - args->offset)
		ret = -EIO;
	else
		ret = rw_all(a.fd, (void *)(uintptr_t)args->data_ptr, args->size,
			     c->loc.offset + args->offset, write);
	libgem_arena_put(e->dev, &a);
	/* The object has a GTT view: gemd merges what we wrote into it. */
	if (!ret && (c->loc.flags & GEM_LOC_SYNC_AFTER) &&
	    gem_ioctl(fd, DRM_IOCTL_I915_GEM_SW_FINISH, &sf) < 0)
		ret = -errno;
	return ret;
}

/* Map loc (offset bytes in) and record it for remapping as fake. */
static void *map_location(const struct fd_entry *e, const struct gem_location *loc,
			  void *addr, size_t len, int prot, int flags,
			  uint64_t fake, int *err)
{
	struct gem_arena_ref a;
	void *p;

	if (loc->flags & GEM_LOC_PURGED) {
		struct gem_location none = *loc;

		none.arena = GEM_ARENA_PURGED;
		none.offset = 0;
		p = libgem_map_purged(addr, len, prot, flags, &a, err);
		if (p != MAP_FAILED)
			libgem_maps_add(e->dev, e->token, p, len, prot, flags,
					fake, &none, &a);
		return p;
	}
	*err = libgem_arena_get(e->dev, e->token, loc->arena, &a);
	if (*err)
		return MAP_FAILED;
	p = mmap(addr, len, prot, flags, a.fd, (off_t)loc->offset);
	if (p == MAP_FAILED)
		*err = -errno;
	else
		libgem_maps_add(e->dev, e->token, p, len, prot, flags, fake, loc, &a);
	libgem_arena_put(e->dev, &a);
	return p;
}

/* GEM_MMAP: a fresh mapping of the object's pages on every call. */
static int finish_mmap(const struct fd_entry *e, struct wire_client_call *c)
{
	const struct drm_i915_gem_mmap *args = (const void *)c->kx;
	const size_t addr_off = offsetof(struct drm_i915_gem_mmap, addr_ptr);
	struct gem_location loc = c->loc;
	uint64_t addr;
	void *p;
	int ret;

	if (args->offset & (GEM_PAGE_SIZE - 1))
		return -EINVAL;		/* vm_mmap() refuses it */
	if (args->offset > c->loc.size || args->size > c->loc.size - args->offset)
		return -EIO;
	loc.offset += args->offset;
	/* Mapped again, should the object move, as an mmap of its CPU
	 * (write-back) offset would be. */
	p = map_location(e, &loc, NULL, args->size, PROT_READ | PROT_WRITE,
			 MAP_SHARED, c->loc.object |
			 (uint64_t)I915_MMAP_OFFSET_WB << 32 | args->offset, &ret);
	if (p == MAP_FAILED)
		return ret;
	addr = (uint64_t)(uintptr_t)p;
	if (c->out_size >= addr_off + sizeof(addr))
		memcpy((uint8_t *)c->arg + addr_off, &addr, sizeof(addr));
	return 0;
}

static int finish_call(int fd, const struct fd_entry *e,
		       struct wire_client_call *c)
{
	if (c->loc.flags & GEM_LOC_REMAP) {
		libgem_maps_remap(e->dev, c->loc.object);
		return 0;
	}
	switch (_IOC_NR(c->cmd)) {
	case DRM_COMMAND_BASE + DRM_I915_GEM_PREAD:
		return finish_rw(fd, e, c, false);
	case DRM_COMMAND_BASE + DRM_I915_GEM_PWRITE:
		return finish_rw(fd, e, c, true);
	case DRM_COMMAND_BASE + DRM_I915_GEM_MMAP:
		return finish_mmap(e, c);
	case DRM_COMMAND_BASE + DRM_I915_GEM_USERPTR:
		libgem_userptr_created(e->dev, e->token, (const void *)c->arg,
				       &c->loc);
		return 0;
	default:
		return 0;
	}
}

/*
 * drm_ioctl's copy in: the caller's struct into ch->arg, zero-extended
 * for a request that does not write it.  -EFAULT if unreadable; karg is
 * NULL for a NULL arg (the wire refuses it where the kernel would).
 */
static int copy_arg_in(struct gem_channel *ch, unsigned long request, void *arg,
		       void **karg)
{
	size_t size = _IOC_SIZE(request);

	*karg = arg;
	if (!arg || !size)
		return 0;
	strbuf_reset(&ch->arg);
	if (strbuf_grow(&ch->arg, size))
		return -ENOMEM;
	*karg = ch->arg.buf;
	if (_IOC_DIR(request) & _IOC_WRITE)
		return copy_from_user(*karg, arg, size);
	memset(*karg, 0, size);
	return 0;
}

/*
 * Explicit fences of EXECBUFFER2 (I915_EXEC_FENCE_IN/OUT): an in-fence is
 * a descriptor of ours, which gemd cannot see, so its inode goes in the
 * low half of rsvd2 instead (and the caller's number comes back there);
 * an out-fence arrives with the reply, and its number goes in the high
 * half, as the kernel installs it.
 */
static bool is_execbuffer2(unsigned long request)
{
	return _IOC_TYPE(request) == DRM_IOCTL_BASE &&
	       _IOC_NR(request) == DRM_COMMAND_BASE + DRM_I915_GEM_EXECBUFFER2 &&
	       _IOC_SIZE(request) >= sizeof(struct drm_i915_gem_execbuffer2);
}

static uint32_t fence_ino(int fd)
{
	struct stat st;

	if (raw_fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode))
		return 0;
	return (uint32_t)st.st_ino;
}

/*
 * PRIME_HANDLE_TO_FD: the descriptor came with the reply (close-on-exec,
 * as recvmsg gave it); the caller's struct gets its number, and keeps
 * FD_CLOEXEC only if it asked for DRM_CLOEXEC.
 */
static int finish_fd_out(struct wire_client_call *c, int fd)
{
	const struct drm_prime_handle *args = (const void *)c->arg;

	if (!(args->flags & DRM_CLOEXEC) && fcntl(fd, F_SETFD, 0) < 0) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	memcpy((uint8_t *)c->arg + c->fd_off, &fd, sizeof(fd));
	return 0;
}

static int do_ioctl(int fd, unsigned long request, void *arg, bool vouched);

int gem_ioctl(int fd, unsigned long request, void *arg)
{
	return do_ioctl(fd, request, arg, false);
}

int libgem_ioctl_vouched(int fd, unsigned long request, void *arg)
{
	return do_ioctl(fd, request, arg, true);
}

static int do_ioctl(int fd, unsigned long request, void *arg, bool vouched)
{
	static const uint8_t zeros[WIRE_ALIGN];
	struct wire_client_call call;
	struct gem_channel *ch;
	struct iovec iov[3];
	struct wire_call wc = {
		.type = GEM_MSG_IOCTL,
		.request = (uint32_t)request,	/* the kernel's cmd is 32 bits */
		.iov = iov, .iovcnt = 3,
	};
	struct drm_i915_gem_execbuffer2 *eb = NULL;
	uint32_t in_fence = 0, closing_arena = 0;
	uint64_t closing_offset = 0, closing_size = 0;
	struct fd_entry e;
	void *karg;
	int ret;

	ret = vouched && fd_cached(fd, &e) ? 0 : fd_lookup(fd, &e);
	if (ret)
		goto out_err;
	ret = channel_get_for(e.dev, fd, &ch);
	if (ret)
		goto out_err;
	ret = copy_arg_in(ch, request, arg, &karg);
	if (ret)
		goto out_err;
	/* What only this address space can tell (userptr.c). */
	ret = libgem_userptr_before(e.dev, e.token, request, karg);
	if (ret)
		goto out_err;
	/* Answered here when the status pages suffice (fastpath.c). */
	ret = libgem_fast_ioctl(e.dev, e.token, ch, request, karg);
	if (ret <= 0)
		goto out_fast;
	/* Where the object is, for libgem's arena cache after the close. */
	if (karg && request == DRM_IOCTL_GEM_CLOSE)
		libgem_handle_where(e.dev, e.token, ((struct drm_gem_close *)karg)->handle,
				    &closing_arena, &closing_offset, &closing_size);
	if (karg && is_execbuffer2(request)) {
		eb = karg;
		if (eb->flags & (I915_EXEC_FENCE_IN | I915_EXEC_FENCE_SUBMIT)) {
			in_fence = (uint32_t)eb->rsvd2;
			eb->rsvd2 = (eb->rsvd2 & ~0xffffffffull) |
				    fence_ino((int)in_fence);
		}
		wc.want_fd = eb->flags & I915_EXEC_FENCE_OUT;
	}
	strbuf_reset(&ch->extra);
	ret = wire_client_pack(&call, wc.request, karg, &ch->extra);
	if (ret)
		goto out_release;
	if (wire_client_payload_len(&call, &ch->extra) > GEM_MSG_MAX_PAYLOAD) {
		ret = -EINVAL;
		goto out_release;
	}
	/* A descriptor to send must be one (dma_buf_get: -EBADF). */
	if (wire_ioctl_fds(wc.request) & WIRE_FD_IN) {
		if (call.fd_in < 0 || fcntl(call.fd_in, F_GETFD) < 0) {
			ret = -EBADF;
			goto out_release;
		}
		wc.pass_fd = &call.fd_in;
	} else if (call.ool_fd >= 0) {
		wc.pass_fd = &call.ool_fd;	/* relocations out of line */
	}
	wc.want_fd = wc.want_fd || call.fd_out;
	wc.file = e.token;
	iov[0] = (struct iovec){ karg, call.in_size };
	iov[1] = (struct iovec){ (void *)zeros, call.in_pad };
	iov[2] = (struct iovec){ ch->extra.buf, ch->extra.len };
	ret = channel_call(ch, &wc);
	if (ret)
		goto out_release;
	ret = wire_client_unpack(&call, wc.result, ch->rbuf.buf, ch->rbuf.len);
	wire_client_release(&call);
	if (ret == -EIO) {
		if (wc.fd >= 0)
			close(wc.fd);
		channel_reset(ch);
		goto out_err;
	}
	if (eb) {
		if (eb->flags & (I915_EXEC_FENCE_IN | I915_EXEC_FENCE_SUBMIT))
			eb->rsvd2 = (eb->rsvd2 & ~0xffffffffull) | in_fence;
		if (wc.fd >= 0) {
			if (call.out_size && wc.result >= 0)
				eb->rsvd2 = (eb->rsvd2 & 0xffffffffull) |
					    (uint64_t)(uint32_t)wc.fd << 32;
			else
				close(wc.fd);	/* no way back to the caller */
		}
	} else if (wc.fd >= 0) {
		/* PRIME_HANDLE_TO_FD: the dma-buf, into the caller's struct */
		if (ret || wc.result < 0) {
			close(wc.fd);
		} else {
			ret = finish_fd_out(&call, wc.fd);
			if (!ret)
				libgem_dmabuf_remember(wc.fd, e.dev);
		}
	}
	if (!ret && wc.result >= 0 && wc.pass_fd)
		libgem_dmabuf_remember(call.fd_in, e.dev);
	if (!ret && call.has_loc && wc.result >= 0)
		ret = finish_call(fd, &e, &call);
	/* drm_ioctl's copy out, after the handler, whatever it returned. */
	if (call.out_size && !(ret == 0 && wc.result < 0 && !ch->rbuf.len) &&
	    copy_to_user(arg, karg, call.out_size))
		ret = -EFAULT;
	if (ret)
		goto out_err;
	ret = wc.result;
	if (ret < 0)
		goto out_err;
	if (closing_arena)
		libgem_arena_forget_whole(e.dev, closing_arena, closing_offset,
					  closing_size);
	return wc.result;

out_fast:
	if (!ret && karg != arg && (_IOC_DIR(request) & _IOC_READ) &&
	    copy_to_user(arg, karg, _IOC_SIZE(request)))
		ret = -EFAULT;
	if (!ret)
		return 0;
	goto out_err;
out_release:
	wire_client_release(&call);
out_err:
	errno = -ret;
	return -1;
}

/* GEM_MSG_MMAP: where the fake offset points, for a file holding it. */
int libgem_mmap_locate(struct gem_dev *dev, struct gem_token token, uint64_t fake,
		       uint64_t len, struct gem_location *loc)
{
	struct gem_mmap_req req = { fake, len };
	struct iovec iov = { &req, sizeof(req) };
	struct wire_call wc = {
		.type = GEM_MSG_MMAP, .iov = &iov, .iovcnt = 1, .file = token,
		.min_len = sizeof(struct gem_location),
		.max_len = sizeof(struct gem_location),
	};
	struct gem_channel *ch;
	int ret;

	ret = channel_get(dev, &ch);
	if (ret)
		return ret;
	ret = channel_call(ch, &wc);
	if (ret)
		return ret;
	if (wc.result < 0)
		return wc.result;
	memcpy(loc, ch->rbuf.buf, sizeof(*loc));
	return 0;
}

void *gem_mmap(void *addr, size_t length, int prot, int flags, int fd,
	       off_t offset)
{
	struct gem_location loc;
	struct fd_entry e;
	void *p;
	int ret;

	ret = fd_lookup(fd, &e);
	if (ret)
		goto out_err;
	ret = libgem_mmap_locate(e.dev, e.token, (uint64_t)offset, length, &loc);
	if (ret)
		goto out_err;
	p = map_location(&e, &loc, addr, length, prot, flags, (uint64_t)offset,
			 &ret);
	if (p == MAP_FAILED)
		goto out_err;
	return p;

out_err:
	errno = -ret;
	return MAP_FAILED;
}

/* --- sync_file ioctls on out-fences ------------------------------------ */

/* Ask the gemds this process knows about fence ino: 0, or -errno. */
static int syncfile_call(uint32_t op, uint32_t ino1, uint32_t ino2,
			 struct gem_syncfile_info *info, int *fd)
{
	struct gem_syncfile_req req = { .ino = { ino1, ino2 } };
	struct gem_dev *dev;
	unsigned int i;

	for (i = 0; (dev = libgem_dev_at(i)); i++) {
		struct iovec iov = { &req, sizeof(req) };
		struct wire_call wc = {
			.type = GEM_MSG_SYNCFILE, .request = op,
			.iov = &iov, .iovcnt = 1,
			.min_len = info ? sizeof(*info) : 0,
			.max_len = info ? sizeof(*info) : 1,
			.want_fd = fd != NULL,
		};
		struct gem_channel *ch;
		int ret = channel_get(dev, &ch);

		if (ret)
			continue;
		ret = channel_call(ch, &wc);
		if (ret)
			return ret;
		if (wc.result == -ENOENT)
			continue;
		if (wc.result < 0)
			return wc.result;
		if (info)
			memcpy(info, ch->rbuf.buf, sizeof(*info));
		if (fd)
			*fd = wc.fd;
		return 0;
	}
	return -ENOENT;
}

static int syncfile_file_info(uint32_t ino, struct sync_file_info *uinfo)
{
	struct sync_file_info info;
	struct sync_fence_info fi;
	struct gem_syncfile_info si;
	int ret;

	if (copy_from_user(&info, uinfo, sizeof(info)))
		return -EFAULT;
	if (info.flags || info.pad)
		return -EINVAL;
	ret = syncfile_call(GEM_SYNCFILE_INFO, ino, 0, &si, NULL);
	if (ret)
		return ret;
	/* One fence of one timeline: the render ring's. */
	if (info.num_fences) {
		memset(&fi, 0, sizeof(fi));
		snprintf(fi.obj_name, sizeof(fi.obj_name), "rcs0");
		snprintf(fi.driver_name, sizeof(fi.driver_name), "i915");
		fi.status = si.status;
		fi.timestamp_ns = si.status ? si.signal_ns : 0;
		if (copy_to_user((void *)(uintptr_t)info.sync_fence_info, &fi, sizeof(fi)))
			return -EFAULT;
	}
	info.status = si.status;
	info.num_fences = 1;
	memset(info.name, 0, sizeof(info.name));
	snprintf(info.name, sizeof(info.name), "i915-rcs0");
	return copy_to_user(uinfo, &info, sizeof(info));
}

static int syncfile_merge(uint32_t ino, struct sync_merge_data *udata)
{
	struct sync_merge_data data;
	uint32_t ino2;
	int ret, nfd = -1;

	if (copy_from_user(&data, udata, sizeof(data)))
		return -EFAULT;
	if (data.flags || data.pad)
		return -EINVAL;
	ino2 = fence_ino(data.fd2);
	if (!ino2)
		return -ENOENT;
	ret = syncfile_call(GEM_SYNCFILE_MERGE, ino, ino2, NULL, &nfd);
	if (ret)
		return ret;
	data.fence = nfd;
	if (copy_to_user(udata, &data, sizeof(data))) {
		close(nfd);
		return -EFAULT;
	}
	return 0;
}

ssize_t gem_fdinfo(int fd, char *buf, size_t len)
{
	struct iovec iov = { (void *)GEM_DEBUGFS_FDINFO, sizeof(GEM_DEBUGFS_FDINFO) };
	struct wire_call wc = {
		.type = GEM_MSG_DEBUGFS, .request = GEM_DEBUGFS_READ,
		.iov = &iov, .iovcnt = 1,
	};
	struct gem_channel *ch;
	struct fd_entry e;
	size_t n;
	int ret;

	ret = fd_lookup(fd, &e);
	if (!ret)
		ret = channel_get(e.dev, &ch);
	if (ret)
		goto out_err;
	wc.file = e.token;
	ret = channel_call(ch, &wc);
	if (!ret)
		ret = wc.result < 0 ? wc.result : 0;
	if (ret)
		goto out_err;
	n = len ? MIN(ch->rbuf.len, len - 1) : 0;
	if (len) {
		memcpy(buf, ch->rbuf.buf, n);
		buf[n] = '\0';
	}
	return (ssize_t)n;

out_err:
	errno = -ret;
	return -1;
}

int gem_syncfile_ioctl(int fd, unsigned long request, void *arg)
{
	uint32_t ino = fence_ino(fd);
	int ret;

	if (!ino) {
		errno = ENOTTY;
		return -1;
	}
	switch (request) {
	case SYNC_IOC_FILE_INFO:
		ret = syncfile_file_info(ino, arg);
		break;
	case SYNC_IOC_MERGE:
		ret = syncfile_merge(ino, arg);
		break;
	default:
		ret = -ENOTTY;
		break;
	}
	/* A socket that is not one of our fences is not ours either. */
	if (ret == -ENOENT && request == SYNC_IOC_FILE_INFO)
		ret = -ENOTTY;
	if (ret) {
		errno = -ret;
		return -1;
	}
	return 0;
}

int gem_munmap(void *addr, size_t length)
{
	libgem_maps_forget(addr, length);
	return munmap(addr, length);
}
