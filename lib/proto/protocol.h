/*
 * The gemd wire protocol, shared by gemd (driver/server/), libgem
 * (driver/client/) and libgemdebugfs (debugfs/).  Clients make every
 * request/reply round trip with wire_call (wire.h), which judges replies.
 *
 * Transport: AF_UNIX SOCK_STREAM connections to the device socket.  Two
 * kinds of connection exist:
 *
 *  - a *file* connection is what a client's device fd is.  The client
 *    autobinds it (abstract name chosen by the kernel) before connecting
 *    and sends GEM_MSG_OPEN; gemd creates one drm_file for it and answers
 *    with the "file token", a random number of gemd's choosing that only
 *    the opener's user may use.  A process that inherits the fd learns
 *    the token by sending the fd itself (GEM_MSG_TOKEN).  Its lifetime is the
 *    drm_file's: when every copy of the fd in every process is closed,
 *    gemd sees EOF and releases the file (drm_release).  After the OPEN
 *    exchange gemd sends nothing on it, so dup'ed and fork-shared copies
 *    never read each other's replies; the one message a client may still
 *    send there, GEM_MSG_CHANNEL, is a header and a descriptor in one
 *    sendmsg, which does not interleave with another copy's.
 *
 *  - a *channel* carries requests.  libgem opens one per thread (and again
 *    after fork) and sends GEM_MSG_HELLO, then any number of requests, each
 *    naming the drm_file by its token, and reads the reply to each before
 *    sending the next.  Any thread of any process that holds the device fd
 *    can thus issue ioctls on it concurrently.
 *
 *  - a channel may then ask for *shared memory* (GEM_MSG_SHM): gemd
 *    answers with a memfd holding a request ring and a reply area
 *    (shmring.h), and from then on the channel's requests travel through
 *    it, with a futex doorbell instead of a system call per message.  The
 *    socket stays: it carries what the ring cannot (descriptors, messages
 *    or replies too large for it), announced in the ring by
 *    GEM_MSG_SOCKET, and its EOF is how either side learns that the other
 *    died.  The memory holds one channel's requests only, and gemd
 *    believes nothing in it: every index and length is checked once
 *    copied, and a client that scribbles over its ring loses its channel.
 *
 * Every message is a header followed by len payload bytes.  Object memory
 * never travels on the socket: objects live in memfd "arenas" that clients
 * map or read and write (GEM_MSG_ARENA passes the memfd with SCM_RIGHTS),
 * each holding only what the file asking may see (driver/gem/backing.c).
 * PRIME descriptors travel with SCM_RIGHTS too: with the request of
 * PRIME_FD_TO_HANDLE, with the reply of PRIME_HANDLE_TO_FD (wire.c).
 *
 * A message with GEM_MSG_F_NOREPLY gets no reply: libgem sends an ioctl
 * it has already completed on its side that way (a pread or pwrite of an
 * idle object, copied directly), so that gemd still does the
 * bookkeeping (domains, counters); it happens before anything the same
 * channel sends next.  Such ioctls are answered in the client from the
 * status pages (GEM_MSG_STATUS): the hardware status page, whose seqno
 * says which requests the GPU has finished, and the file's handle table,
 * which gemd keeps up to date with each handle's last seqnos and where
 * its memory is.  Both are mapped read-only.
 *
 * Rules: bump GEM_PROTOCOL_VERSION whenever a payload changes; never
 * renumber a message type (retire it with a comment); a peer that sends a
 * different version in OPEN/HELLO is refused with -EPROTO.
 */
#ifndef GEMKIT_PROTOCOL_H
#define GEMKIT_PROTOCOL_H

#include <stdint.h>

#define GEM_PROTOCOL_VERSION	8	/* 8: 128-bit file tokens */
#define GEM_PROTOCOL_MAGIC	0x474d4431u	/* "GMD1" */
#define GEM_MSG_MAX_PAYLOAD	(64u << 20)	/* sanity bound on len */

enum gem_msg_type {
	/* 1-15: connection set-up */
	GEM_MSG_OPEN = 1,	/* file conn: struct gem_msg_hello; reply: struct gem_open_reply */
	GEM_MSG_HELLO = 2,	/* channel: struct gem_msg_hello; reply empty */
	GEM_MSG_SHM = 3,	/* channel: no payload; reply struct gem_shm_reply
				 * + 1 fd; then requests go through the ring */
	GEM_MSG_SKIP = 4,	/* ring only: filler up to the ring's end */
	GEM_MSG_SOCKET = 5,	/* ring only: the next request, and its reply,
				 * travel on the socket */
	GEM_MSG_SYNC = 6,	/* channel: empty; the empty reply says that
				 * everything sent before it is handled */
	/* 16-63: the device */
	GEM_MSG_IOCTL = 16,	/* request = ioctl code, payload = marshalled arg (wire.c) */
	GEM_MSG_ARENA = 17,	/* request = arena id; reply: struct gem_arena_reply + 1 fd;
				 * -EACCES for an arena the file may not see */
	GEM_MSG_MMAP = 18,	/* payload struct gem_mmap_req; reply struct gem_location;
				 * -EACCES for an object the file holds no handle to */
	GEM_MSG_STATUS = 19,	/* request = enum gem_status_page; reply
				 * struct gem_status_reply + 1 read-only fd */
	GEM_MSG_RELEASE = 20,	/* after closing a device fd: empty; see below */
	GEM_MSG_SYNCFILE = 21,	/* request = enum gem_syncfile_op; see below */
	GEM_MSG_DMABUF = 22,	/* request = enum gem_dmabuf_op, payload struct
				 * gem_dmabuf_req, 1 fd: a dma-buf; no file needed
				 * (holding the fd is the right to ask) */
	GEM_MSG_TOKEN = 23,	/* empty, 1 fd: a device fd (the client's end
				 * of a file connection); reply struct
				 * gem_open_reply naming its file; -EBADF for
				 * a fd that is no file of the caller's user */
	GEM_MSG_CHANNEL = 24,	/* on a file connection, empty, 1 fd: a socket
				 * gemd serves as a channel (HELLO first) that
				 * may use this file whoever its peer is now;
				 * no reply.  For a holder of the device fd who
				 * can no longer connect to the socket (it
				 * dropped privileges, as the kernel allows) */
	GEM_MSG_MOUNT = 25,	/* channel, no file needed: where this gemd's
				 * debugfs tree is mounted; see below */
	GEM_MSG_INTERRUPT = 26,	/* channel, NOREPLY, request and file those of
				 * the IOCTL awaiting its reply: a signal
				 * broke the client's wait, so an
				 * interruptible wait in gemd ends with
				 * -EINTR (the kernel's -ERESTARTSYS).  A
				 * channel with shared memory says it in
				 * gem_shm_ctl.interrupt instead */
	/* 64-127: debugfs, events, hang notification and driver control;
	 * valid on a channel without a file (hdr.file 0): tools that only
	 * look at the driver need not open a drm_file. */
	GEM_MSG_DEBUGFS = 64,	/* request = enum gem_debugfs_op; see below */
	GEM_MSG_HANG_WAIT = 65,	/* wait for the next hang capture (issue: hangs) */
	GEM_MSG_CONTROL = 66,	/* driver control: suspend/resume (gemctl) */
};

/*
 * GEM_MSG_DEBUGFS: the debugfs files without FUSE.  The payload starts
 * with the file's path relative to dri/0, NUL-terminated; then
 *   READ:  nothing; the reply is the whole file (-EFBIG beyond
 *          GEM_MSG_MAX_PAYLOAD, before anything is buffered for a raw
 *          file: read it with RANGE in pieces, as libgemdebugfs does);
 *   RANGE: struct gem_debugfs_range; the reply is those bytes (fewer at EOF);
 *   WRITE: the bytes to write; result = bytes taken;
 *   LIST:  empty path; the reply is one name per line.
 * result is 0 / a count or -errno (ENOENT: no such file, EACCES: not
 * writable).
 */
/* READ of this path with hdr.file set: that file's fdinfo (the kernel's
 * DRM usage stats, debugfs/FORMAT.md "gemkit_fdinfo"), not a debugfs file. */
#define GEM_DEBUGFS_FDINFO	"fdinfo"

enum gem_debugfs_op {
	GEM_DEBUGFS_READ = 0,
	GEM_DEBUGFS_WRITE = 1,
	GEM_DEBUGFS_LIST = 2,
	GEM_DEBUGFS_RANGE = 3,
};

struct gem_debugfs_range {
	uint64_t offset;
	uint32_t length;	/* <= GEM_MSG_MAX_PAYLOAD */
	uint32_t pad;
};

/*
 * GEM_MSG_MOUNT: empty payload.  The reply is struct gem_mount_reply and
 * the mount point's absolute path, NUL-terminated (the directory holding
 * dri/0); -ENOENT when this gemd has no mount (--no-debugfs, no FUSE).
 * A tool uses the tree only if the directory's st_dev is 'dev', so that
 * it never reads another gemd's mount; else it reads over the socket.
 */
struct gem_mount_reply {
	uint64_t dev;		/* st_dev of the mount, as makedev() encodes it */
};

/*
 * A file token: 128 bits gemd draws with getrandom(2) when it opens a
 * drm_file, valid only for the opener's user (or a channel that the fd's
 * holder asked for, GEM_MSG_CHANNEL).  All zero: no file.  gemd compares
 * tokens in constant time (token.h), so that how long a refusal takes
 * says nothing about how many bytes of a guess were right.
 */
struct gem_token {
	uint64_t lo;
	uint64_t hi;
};

/* gem_msg_hdr.flags */
#define GEM_MSG_F_NOREPLY	(1u << 0)	/* GEM_MSG_IOCTL: send no reply */
#define GEM_MSG_F_KNOWN		GEM_MSG_F_NOREPLY

/*
 * 32 bytes, 8-byte aligned, no padding, little-endian (as the host):
 *   0 magic  4 type  6 flags  8 len  12 request  16 file.lo  24 file.hi
 */
struct gem_msg_hdr {
	uint32_t magic;
	uint16_t type;		/* enum gem_msg_type */
	uint16_t flags;		/* GEM_MSG_F_* */
	uint32_t len;		/* payload bytes following the header */
	uint32_t request;	/* GEM_MSG_IOCTL: the ioctl code; ARENA: arena id */
	struct gem_token file;	/* file token (zero for OPEN/HELLO) */
};

struct gem_reply_hdr {
	uint32_t magic;
	int32_t result;		/* 0 / positive, or -errno exactly as the kernel */
	uint32_t len;		/* payload bytes following */
	uint32_t nfds;		/* file descriptors sent with SCM_RIGHTS */
};

struct gem_msg_hello {
	uint32_t version;	/* GEM_PROTOCOL_VERSION */
	uint32_t pid;
	uint32_t tid;
	uint32_t pad;
	char comm[16];
};

/* 24 bytes: 0 version  4 pad  8 file.lo  16 file.hi */
struct gem_open_reply {
	uint32_t version;
	uint32_t pad;
	struct gem_token file;	/* token to put in gem_msg_hdr.file */
};

/*
 * Where an object's pages (or its GTT view) live: arena memfd 'arena' at
 * byte 'offset'.  With GEM_LOC_REMAP nothing lives anywhere: the object
 * named by 'object' moved, or its GTT view changed, and the client maps
 * again whatever it mapped of it (asking GEM_MSG_MMAP).
 */
struct gem_location {
	uint32_t arena;
	uint32_t flags;		/* GEM_LOC_* */
	uint64_t offset;	/* of the object's first byte in the arena */
	uint64_t size;		/* object size */
	uint64_t object;	/* the object's fake mmap offset (type 0, byte 0) */
};
#define GEM_LOC_SYNC_AFTER	(1u << 0)	/* after the copy: SW_FINISH */
#define GEM_LOC_REMAP		(1u << 1)	/* map the object again */
#define GEM_LOC_PURGED		(1u << 2)	/* no pages: map what SIGBUSes */

struct gem_arena_reply {
	uint64_t size;		/* bytes to map */
};

/*
 * GEM_MSG_DMABUF: what poll() and DMA_BUF_IOCTL_SYNC ask of a dma-buf
 * (the dma_resv fences of the kernel's).  BUSY answers a mask of
 * GEM_DMABUF_* still pending; WAIT waits up to timeout_ms (0: forever)
 * until the GPU is done writing (for a reader) or done with it (for a
 * writer), -ETIME if not, and leaves the pages coherent for the CPU.
 * A dma-buf whose object gemd no longer has is idle.
 */
enum gem_dmabuf_op {
	GEM_DMABUF_BUSY = 0,
	GEM_DMABUF_WAIT = 1,
};
#define GEM_DMABUF_WRITE	(1u << 0)	/* a GPU write pending: not readable */
#define GEM_DMABUF_READ		(1u << 1)	/* any GPU use pending: not writable */
struct gem_dmabuf_req {
	uint32_t write;		/* WAIT: 1 to write afterwards, 0 to read */
	uint32_t timeout_ms;
};

struct gem_mmap_req {
	uint64_t offset;	/* fake offset from MMAP_GTT / MMAP_OFFSET */
	uint64_t length;
};

/* GEM_MSG_SHM's answer; the sizes are shmring.h's, checked by the client. */
struct gem_shm_reply {
	uint32_t size;		/* bytes to map */
	uint32_t ring_size;	/* GEM_SHM_RING_SIZE */
	uint32_t reply_size;	/* GEM_SHM_REPLY_SIZE */
	uint32_t pad;
};

/*
 * GEM_MSG_STATUS: the pages a client maps read-only to answer some ioctls
 * without asking (libgem's fast paths).
 *
 *  - GEM_STATUS_HWS: the hardware status page, 4 KiB; the GPU stores the
 *    seqno of each request it finishes at dword GEM_STATUS_SEQNO_DWORD.
 *    No drm_file is needed.
 *  - GEM_STATUS_HANDLES: the drm_file's handle table (hdr.file), an array
 *    of struct gem_handle_status indexed by handle, GEM_STATUS_HANDLES_MAX
 *    entries.  gemd writes an entry under its lock whenever the handle's
 *    facts change and before the ioctl that changed them returns.
 *  - GEM_STATUS_COPIES: the drm_file's count of direct copies in flight
 *    (hdr.file), 4 KiB that every client of the file maps read-write.
 *    A client adds 1 to the dword at GEM_STATUS_COPIES_DWORD (a full
 *    barrier) before it reads the handle entry it will copy by, and takes
 *    1 off once the copy is done.  gemd looks at it when it frees a range
 *    of the file's arenas: while it is not 0, a copy that read the freed
 *    object's entry may still be writing there, so the range is not given
 *    to the next object.  A client that cannot have it does not copy
 *    directly.
 *  - GEM_STATUS_MMIO: the GPU's live registers as a 945G's MMIO BAR holds
 *    them (512 KiB, register offset = byte offset), for the interposer's
 *    PCI resource0.  Only for a root peer (-EACCES otherwise), as the
 *    kernel's resource files are; no drm_file is needed.  Sealed against
 *    shared writable mappings: a private one may write its own copy.
 */
enum gem_status_page {
	GEM_STATUS_HWS = 1,
	GEM_STATUS_HANDLES = 2,
	GEM_STATUS_MMIO = 3,
	GEM_STATUS_COPIES = 4,
};

#define GEM_STATUS_SEQNO_DWORD	0x20	/* I915_GEM_HWS_INDEX */
#define GEM_STATUS_HANDLES_MAX	(1u << 16)
#define GEM_STATUS_COPIES_DWORD	0

struct gem_status_reply {
	uint64_t size;		/* bytes to map */
};

/*
 * One handle as the client may use it without asking.  seq is a seqlock:
 * odd while gemd rewrites the entry, so a reader copies the entry and
 * keeps the copy only if seq was even and unchanged around it.  Entry 0 is
 * the table's own: its flags hold GEM_HS_ALIVE until the file is released.
 *
 * object names the object whatever the flags say (0: no object), and is
 * never reused.  gemd moves a direct object's pages once, at its first
 * export, and rewrites the entry before it copies them, with a full
 * barrier between.  So a client that pwrote directly puts a full barrier
 * after its last byte and reads seq again: unchanged, its bytes are in
 * the object; changed for the same object, they may have gone to the old
 * pages after gemd copied them, and it sends the pwrite to gemd.
 */
struct gem_handle_status {
	uint32_t seq;
	uint32_t flags;		/* GEM_HS_* */
	uint32_t read_seqno;	/* last request that reads the object, 0: none */
	uint32_t write_seqno;	/* last request that writes it, 0: none */
	uint32_t arena;		/* where its pages are, as struct gem_location */
	uint32_t pad;
	uint64_t offset;
	uint64_t size;
	uint64_t object;	/* the object's id, never reused; 0: none */
};

/*
 * GEM_HS_DIRECT: the handle is the object's only one, of this file, and
 * its pages are there to keep (madvise WILLNEED, not purged), so a client
 * that finds its seqnos passed may copy to and from it directly and tell
 * gemd afterwards (GEM_MSG_F_NOREPLY).
 */
#define GEM_HS_DIRECT		(1u << 0)
#define GEM_HS_ALIVE		(1u << 31)	/* entry 0: the file is open */

/*
 * GEM_MSG_RELEASE: sent by a client right after it closed a device fd,
 * with hdr.file naming the file.  If that was the last reference to the
 * file connection (gemd sees EOF on it), the reply comes once the
 * drm_file is released, so that the close is as synchronous as the
 * kernel's drm_release: a file opened next finds the device without the
 * old one's DRM master.  Otherwise (a dup, a forked child still holds it)
 * it comes at once.  The result is always 0.
 */

/*
 * GEM_MSG_SYNCFILE: the sync_file ioctls on an out-fence descriptor gemd
 * handed out (I915_EXEC_FENCE_OUT), which the client names by its inode
 * number.  No drm_file is needed.  Payload struct gem_syncfile_req;
 *   INFO:  reply struct gem_syncfile_info;
 *   MERGE: reply empty and one descriptor, a new fence for both.
 * -ENOENT: not a fence of this gemd.
 */
enum gem_syncfile_op {
	GEM_SYNCFILE_INFO = 1,
	GEM_SYNCFILE_MERGE = 2,
};

struct gem_syncfile_req {
	uint32_t ino[2];	/* MERGE: both; INFO: ino[0] */
};

struct gem_syncfile_info {
	int32_t status;		/* 0 active, 1 signaled, < 0 error */
	uint32_t pad;
	uint64_t signal_ns;	/* CLOCK_MONOTONIC, once signaled */
};

/*
 * GEM_MSG_HANG_WAIT: block until a hang capture with sequence number
 * greater than 'after' exists (after = GEM_HANG_NEXT: the next one from
 * now), or timeout_ms passes (0: wait forever; the reply is then
 * -ETIMEDOUT).  The reply is struct gem_hang_event.
 */
#define GEM_HANG_NEXT	UINT64_MAX
struct gem_hang_wait {
	uint64_t after;
	uint32_t timeout_ms;
	uint32_t pad;
};
struct gem_hang_event {
	uint64_t seq;		/* 1, 2, ...: hangs since gemd started */
	uint64_t time_ns;	/* CLOCK_REALTIME of the detection */
	uint64_t detect_ns;	/* guilty request's submission to detection */
	uint32_t seqno;		/* the guilty request */
	uint32_t pid;		/* its client, 0 if none */
	uint32_t file;		/* its drm_file id, 0 if none */
	uint32_t acthd;
	uint32_t ipehr;
	uint32_t recovered;	/* 1: ring reset and running; 0: wedged */
	char kind[16];		/* "hangcheck", "fault", "badop", "wedged" (forced) */
};

/* GEM_MSG_CONTROL: request = enum gem_control_op, empty payload. */
enum gem_control_op {
	GEM_CONTROL_SUSPEND = 1,	/* idle the GPU, unbind all, refuse new work */
	GEM_CONTROL_RESUME = 2,		/* restore and accept work again */
	GEM_CONTROL_UNBIND = 3,		/* the driver leaves the device: open
					 * files -ENODEV, opens -ENODEV */
	GEM_CONTROL_BIND = 4,		/* a new device: opens work again */
};

#endif
