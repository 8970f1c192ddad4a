/*
 * The GEM memory manager as the server sees it: a device, drm_files, and
 * the ioctl entry point.  Everything else about objects, domains, the GTT,
 * eviction and execution is private to driver/gem/ (gem_priv.h).
 *
 * All functions return 0 (or a non-negative value) or a negative errno,
 * exactly the value the kernel's ioctl would have returned.
 */
#ifndef GEMKIT_GEM_H
#define GEMKIT_GEM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct gem_device;
struct gem_file;

/*
 * Where an object's pages live: arena memfd 'arena' at byte 'offset'.
 * The server turns it into the wire's struct gem_location (protocol.h);
 * the core knows nothing of the protocol.
 */
struct gem_backing_loc {
	uint32_t arena;
	uint32_t flags;		/* GEM_LOC_* */
	uint64_t offset;	/* of the first byte in the arena */
	uint64_t size;
	uint64_t object;	/* the object's fake mmap offset (type 0, byte 0) */
};
/* After its copy the client asks for a merge of the object's views
 * (a pwrite to a tiled object with a GTT view: SW_FINISH). */
#define GEM_LOC_SYNC_AFTER	(1u << 0)
/* No location: the object's memory moved or its GTT view changed, and
 * the client maps again what it mapped of it (only object is set;
 * SET_TILING, FLINK, PRIME_HANDLE_TO_FD). */
#define GEM_LOC_REMAP		(1u << 1)
/* GEM_MSG_MMAP of a purged object: it has no pages, and a mapping of it
 * faults on every access (SIGBUS), as the kernel's fault handler answers
 * when it cannot get a purged object's pages. */
#define GEM_LOC_PURGED		(1u << 2)

/* One GPU hang as hangcheck.c reports it (gem_hang_wait). */
struct gem_hang_info {
	uint64_t seq;		/* 1, 2, ...: hangs since the device was created */
	uint64_t time_ns;	/* CLOCK_REALTIME of the detection */
	uint64_t detect_ns;	/* guilty request's submission to detection */
	uint32_t seqno;		/* the guilty request */
	uint32_t pid;		/* its client, 0 if none */
	uint32_t file;		/* its drm_file id, 0 if none */
	uint32_t acthd;
	uint32_t ipehr;
	bool recovered;		/* ring reset and running; false: wedged */
	char kind[16];		/* "hangcheck", "runaway", "fault", "badop",
				 * "wedged" (forced) */
};

/* gemkit_errors/ keeps at most this many captures (--error-states). */
#define GEM_ERROR_RECORDS_MAX	64

struct gem_device_config {
	uint64_t aperture_size;		/* default 256 MiB */
	uint64_t blit_bytes_per_sec;	/* --gpu-rate model, 0 = fast */
	uint64_t cmd_cost_ns;
	uint32_t hangcheck_ms;		/* hangcheck period, 0: off (faults are
					 * still caught); gemd's default 1500 */
	uint32_t batch_budget;		/* periods of GPU time a request may
					 * run, 0: no limit; gemd's default 4 */
	uint32_t error_states;		/* captures kept in gemkit_errors/;
					 * gemd's default 4 */
	int gpu_nice;			/* the GPU thread's nice value, when
					 * gemd may lower it; gemd's default -10 */
	bool share_names;		/* GEM_OPEN of any user's flink name
					 * (the kernel's rule); else only of
					 * the caller's own user's, or by root */
};

int gem_device_create(const struct gem_device_config *cfg, struct gem_device **out);
/* Shutting down: every wait for the GPU, now and later, returns -EINTR
 * (as a signal ends the kernel's), so no client thread stays in the
 * driver.  The server's unblock hook. */
void gem_device_unblock(struct gem_device *dev);
/* Idles the GPU (waiting 100 ms at most: nobody is left to see the
 * results), releases every remaining file and object. */
void gem_device_destroy(struct gem_device *dev);

/* A new drm_file (one per open of the device). comm is truncated to 15.
 * The first file opened while the device has no DRM master becomes it. */
int gem_file_open(struct gem_device *dev, pid_t pid, const char *comm,
		  struct gem_file **out);
/* The opener had CAP_SYS_ADMIN: the file is authenticated from the start
 * (drm_open_helper).  Call before the file is used. */
void gem_file_set_admin(struct gem_file *file, bool admin);
/* drm_release: drop every handle and flink the file holds.  Objects still
 * used by queued GPU work stay alive until that work retires. */
void gem_file_release(struct gem_file *file);

/*
 * Out-of-band results of one ioctl that the client side needs to finish
 * the call in its own address space (pread/pwrite copy, GEM_MMAP).
 */
struct gem_call {
	/* in: who calls (the kernel's current task) */
	pid_t caller_pid;
	bool caller_admin;		/* capable(CAP_SYS_ADMIN) */
	uid_t caller_uid;		/* whose flink names it may open */
	/* out */
	bool has_loc;
	struct gem_backing_loc loc;
	int fd_in;		/* set by the caller: a descriptor that came
				 * with the request, -1: none (the caller
				 * closes it) */
	int fd_out;		/* one to send with the reply, -1: none (the
				 * caller sends and closes it): a PRIME
				 * export, an out-fence */
};

/*
 * Execute one ioctl.  cmd is the full request code as the client passed
 * it; dispatch is on _IOC_NR and arg has already been zero-extended to the
 * kernel's struct size and its embedded user pointers point at memory gemd
 * can read and write (see wire.c).  May sleep (waits never hold the big
 * lock).  Returns 0 or -errno.  (The kernel's drm_ioctl(); libgem's
 * gem_ioctl() is the client's ioctl(2).)
 */
int gem_ioctl_dispatch(struct gem_file *file, unsigned int cmd, void *arg,
		       struct gem_call *call);

/*
 * How this thread's waits learn that the client of the request it serves
 * was interrupted by a signal (signal.c): fn(arg) answers, NULL clears.
 * Interruptible waits then end with -EINTR, as the kernel's do.
 */
void gem_signal_source(bool (*fn)(void *arg), void *arg);
bool gem_signal_pending(void);
/* The kernel-side struct size for cmd's _IOC_NR, or -EINVAL if unknown;
 * its name ("I915_GEM_CREATE"), or NULL (lib/proto/ioctls.def). */
int gem_ioctl_size(unsigned int cmd);
const char *gem_ioctl_name(unsigned int cmd);
/* ... by number alone (_IOC_NR), for the per-ioctl counts (acct.h). */
const char *gem_ioctl_name_nr(unsigned int nr);

/*
 * Wait up to wait_ms for a hang with a sequence number above after (for
 * "the next one from now", fetch the current one with gem_hang_seq first)
 * and fill ev with the oldest such one still kept.  Returns 0, or
 * -ETIMEDOUT.  Callers that wait long poll in slices.
 */
uint64_t gem_hang_seq(struct gem_device *dev);
int gem_hang_wait(struct gem_device *dev, uint64_t after, uint32_t wait_ms,
		  struct gem_hang_info *ev);

/* Driver control (suspend.c): idle the GPU and unbind every unpinned
 * object, refusing execbuffer (-EBUSY) until resume; -EALREADY when
 * already in that state. */
int gem_device_suspend(struct gem_device *dev);
int gem_device_resume(struct gem_device *dev);

/* Driver unbind and bind (unbind.c): the open files stay on the old
 * device (-ENODEV for all but close), opens fail with -ENODEV until the
 * bind; -ENODEV when already unbound, -EBUSY when already bound. */
int gem_device_unbind(struct gem_device *dev);
int gem_device_bind(struct gem_device *dev);
/* The file belongs to a device unbound since it was opened. */
bool gem_file_unplugged(const struct gem_file *file);

/* A new descriptor (the caller closes it) of arena id's memfd and its
 * size, or -ENOENT (-EMFILE ...); -EACCES unless file may see every
 * byte of it: its own objects' arena, or the arena of an object it holds
 * a handle to (backing.c). */
int gem_arena_fd(struct gem_file *file, uint32_t arena, uint64_t *size);

/*
 * A dma-buf (the memfd fd) as poll() and DMA_BUF_IOCTL_SYNC see it
 * (prime.c): gem_dmabuf_busy's mask has GEM_DMABUF_WRITE while a GPU
 * write is pending and GEM_DMABUF_READ while any GPU use is; wait waits
 * up to timeout_ns (< 0: forever) for the writes (reader) or all use
 * (writer), -ETIME if not done.  Unknown buffers are idle.
 */
#define GEM_DMABUF_WRITE	(1u << 0)
#define GEM_DMABUF_READ		(1u << 1)
unsigned int gem_dmabuf_busy(struct gem_device *dev, int fd);
int gem_dmabuf_wait(struct gem_device *dev, int fd, bool write,
		    int64_t timeout_ns);

/*
 * The status pages (status.c), as new descriptors the caller closes, to be
 * mapped read-only by clients: the hardware status page (the GPU's seqno
 * at dword I915_GEM_HWS_INDEX) and a file's handle table, an array of
 * GEM_HANDLE_STATE_MAX struct gem_handle_state indexed by handle (entry 0
 * has GEM_HANDLE_ALIVE while the file is open).  -errno on failure.
 */
int gem_status_hws_fd(struct gem_device *dev, uint64_t *size);
/* The register file, GPU_MMIO_BAR_SIZE bytes as a 945G's BAR 0 holds them
 * (a 0600 root file in sysfs: the caller decides who may have it); only
 * a private mapping can be writable. */
int gem_status_mmio_fd(struct gem_device *dev, uint64_t *size);
int gem_status_handles_fd(struct gem_file *file, uint64_t *size);
/* A file's count of its clients' direct copies in flight, at dword
 * GEM_STATUS_COPIES_DWORD of GTT_PAGE_SIZE bytes that clients map
 * read-write (protocol.h, GEM_STATUS_COPIES). */
int gem_status_copies_fd(struct gem_file *file, uint64_t *size);
#define GEM_STATUS_COPIES_AT	0

#define GEM_HANDLE_STATE_MAX	(1u << 16)
#define GEM_HANDLE_DIRECT	(1u << 0)	/* copy directly once idle */
#define GEM_HANDLE_ALIVE	(1u << 31)

/* One handle table entry; seq is odd while gemd rewrites it. */
struct gem_handle_state {
	uint32_t seq;
	uint32_t flags;
	uint32_t read_seqno;
	uint32_t write_seqno;
	uint32_t arena;
	uint32_t pad;
	uint64_t offset;
	uint64_t size;
	uint64_t object;	/* obj->id, never reused: see protocol.h */
};

/*
 * Explicit fences by the inode of the client's descriptor (syncfile.c):
 * status 0 active, 1 signaled, < 0 the error, and when it signaled
 * (CLOCK_MONOTONIC ns); or a new descriptor for the later of two (the
 * caller closes it).  -ENOENT for an inode that is no fence of gemd's.
 */
int gem_syncfile_info(struct gem_device *dev, uint32_t ino, int *status,
		      uint64_t *signal_ns);
int gem_syncfile_merge(struct gem_device *dev, uint32_t ino1, uint32_t ino2);

/* Translate a fake mmap offset (MMAP_GTT / MMAP_OFFSET) of an object this
 * file holds a handle to into its location (-EACCES for another's, as
 * drm_vma_node_is_allowed); offset may point inside the object.  A GTT
 * mapping of a tiled object maps its linear view (view.c). */
int gem_mmap_lookup(struct gem_file *file, uint64_t offset, uint64_t length,
		    struct gem_backing_loc *loc);

#endif
