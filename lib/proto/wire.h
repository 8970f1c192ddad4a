/*
 * Marshalling of ioctl arguments between libgem and gemd, the one
 * request/reply round trip (wire_call, call.c) and the socket I/O both
 * sides share.
 *
 * A GEM_MSG_IOCTL request payload for a known ioctl is
 *
 *	the caller's struct: _IOC_SIZE(cmd) bytes if cmd has _IOC_WRITE,
 *	  else none, then zero padding to a multiple of 8;
 *	the deep copies of user memory the struct points to, each segment
 *	  padded to a multiple of 8, in an order fixed per ioctl (wire.c).
 *
 * A NULL pointer in the struct means "no segment": gemd keeps it NULL and
 * the memory manager answers as the kernel does for NULL user pointers.
 *
 * The reply payload is empty when the request failed before the driver
 * ran (unknown ioctl, malformed payload); otherwise it is what the kernel
 * would copy back: the struct (_IOC_SIZE bytes if both the caller's and
 * the kernel's request codes have _IOC_READ, user pointers unchanged),
 * then the user memory the driver wrote (execbuffer offsets, GETPARAM's
 * value, VERSION's strings), then, for PREAD/PWRITE/MMAP, a struct
 * gem_location telling the client where to copy or map (for FLINK,
 * SET_TILING and PRIME_HANDLE_TO_FD, sometimes one telling it to map an
 * object again).
 *
 * gemd unpacks into a kernel-sized struct zero-extended exactly as
 * drm_ioctl() does, with embedded pointers rewritten to point into the
 * received payload, and validates every count and length against the
 * payload size: a malformed payload yields -EINVAL or -EFAULT, never a
 * read outside it.
 */
#ifndef GEMKIT_WIRE_H
#define GEMKIT_WIRE_H

#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>

#include "protocol.h"
#include "strbuf.h"

#define WIRE_ALIGN		8
#define WIRE_MAX_BUFFERS	(1u << 20)	/* execbuffer buffer_count: as many
						 * as one message may carry */
#define WIRE_MAX_RELOCS		(1u << 20)	/* relocation_count per object,
						 * in the payload */
/* An execbuffer's relocation arrays of more bytes than this in all travel
 * out of line, in a sealed memfd sent along (wire.c): the kernel reads
 * them with no bound but memory (gem_exec_reloc has 4 GiB of them). */
#define WIRE_RELOC_INLINE_MAX	(8u << 20)
#define WIRE_MAX_EXTENSIONS	16		/* i915_user_extension chain */
#define WIRE_MAX_REGIONS	64		/* CREATE_EXT memory regions */
#define WIRE_MAX_QUERY_ITEMS	1024		/* QUERY num_items */
#define WIRE_QUERY_DATA_MAX	(64u << 10)	/* QUERY item data lent to gemd */
#define WIRE_STRING_MAX		1024		/* VERSION / GET_UNIQUE strings */
#define WIRE_KARG_MAX		64		/* largest struct with pointers */

struct wire_ioctl;

/* The table entry for cmd's _IOC_NR, or NULL if gemd has no such ioctl. */
const struct wire_ioctl *wire_ioctl_find(unsigned int cmd);
/* "I915_GEM_EXECBUFFER2" and the like; "?" if unknown (for logs). */
const char *wire_ioctl_name(unsigned int cmd);
/* The kernel's struct size for cmd's _IOC_NR, or -EINVAL. */
int wire_ioctl_size(unsigned int cmd);
/* The descriptors cmd's messages carry besides the payload (SCM_RIGHTS):
 * WIRE_FD_IN, the request one (the struct names it by the caller's
 * number); WIRE_FD_OUT, a successful reply one (the client writes its
 * number into the struct).  0 for most ioctls. */
#define WIRE_FD_IN	(1u << 0)
#define WIRE_FD_OUT	(1u << 1)
unsigned int wire_ioctl_fds(unsigned int cmd);

/* --- client side ---------------------------------------------------- */

/* One ioctl from packing the request to unpacking the reply. */
struct wire_client_call {
	unsigned int cmd;
	const struct wire_ioctl *desc;	/* NULL: unknown, sent without payload */
	void *arg;
	uint32_t in_size;	/* leading bytes of arg sent */
	uint32_t in_pad;	/* zero bytes sent after them */
	uint32_t out_size;	/* struct bytes the reply copies into arg */
	/* arg as the kernel sees it (zero-extended), for ioctls with pointers */
	uint64_t kx[WIRE_KARG_MAX / 8];
	/* the deep copies as packed, for codecs that read them back */
	const struct strbuf *extra;
	bool has_loc;
	struct gem_location loc;
	int fd_in;		/* WIRE_FD_IN: the caller's descriptor, else -1 */
	bool fd_out;		/* WIRE_FD_OUT: a success brings one, whose
				 * number goes at arg + fd_off */
	uint8_t fd_off;
	/* execbuffer relocations out of line (WIRE_RELOC_INLINE_MAX): the
	 * memfd to send with the request and our map of it; else -1 */
	int ool_fd;
	uint8_t *ool;
	uint64_t ool_len;
};

/*
 * Prepare c for (cmd, arg) and append the deep copies to extra (which the
 * caller has reset).  arg is the caller's struct already copied into the
 * client's memory (libgem copies it in and out with copy_from_user and
 * copy_to_user); the memory it points to is read here, and written back
 * by wire_client_unpack, through the same soft-faulting copies.  The request payload is then arg[0, in_size), in_pad
 * zero bytes, and extra.  Returns 0 or -errno as the kernel would fail
 * the call before reaching the driver (-EFAULT for a NULL arg, -EINVAL
 * for absurd counts, -E2BIG for an overlong extension chain).
 */
int wire_client_pack(struct wire_client_call *c, unsigned int cmd, void *arg,
		     struct strbuf *extra);
/* Total payload bytes of a packed request. */
size_t wire_client_payload_len(const struct wire_client_call *c,
			       const struct strbuf *extra);
/* Flatten a packed request into out (appends), for tests and --ping. */
int wire_client_payload(const struct wire_client_call *c,
			const struct strbuf *extra, struct strbuf *out);
/*
 * Copy a reply into the caller's struct and user memory.  result is the
 * reply's result.  Fills c->loc/has_loc for PREAD/PWRITE/MMAP.  Returns 0,
 * -EFAULT if the caller's memory could not take what the kernel would have
 * written (the call stays in step), or -EIO if the reply does not match
 * the request (protocol error).
 */
int wire_client_unpack(struct wire_client_call *c, int result,
		       const void *reply, size_t len);
/* Free what wire_client_pack made for c (the out-of-line memfd), whether
 * or not the call went out; c can be packed again afterwards. */
void wire_client_release(struct wire_client_call *c);

/* --- server side ---------------------------------------------------- */

struct wire_server_call {
	unsigned int cmd;
	const struct wire_ioctl *desc;
	uint32_t out_size;	/* struct bytes of the reply */
	uint32_t ksize;		/* bytes at karg */
	void *karg;		/* the driver's argument (NULL for DRM_IO) */
	uint8_t *korig;		/* karg before pointers were rewritten */
	uint8_t *scratch;	/* room for memory the driver only writes */
	uint8_t *extra;		/* the deep copies in the payload */
	size_t extra_len;
	int fd;			/* the request's descriptor, or -1 */
	uint8_t *ool;		/* the out-of-line relocations, mapped */
	uint64_t ool_len;
};

/*
 * Unpack a request payload (which must stay in place and writable until
 * wire_server_pack) into c, using mem for the kernel-sized struct.  fd is
 * the descriptor that came with the request, or -1: only an execbuffer
 * takes one, its relocations out of line, which it maps (the caller still
 * closes fd).  Returns 0, -ENOTTY (not a DRM request), -EINVAL (unknown
 * ioctl, absurd count, trailing bytes, a descriptor nobody takes or not
 * as it must be) or -EFAULT (payload shorter than it claims).
 */
int wire_server_unpack(struct wire_server_call *c, unsigned int cmd,
		       void *payload, size_t len, struct strbuf *mem, int fd);
/* Append the reply payload for a call the driver ran and that returned
 * result; loc is the driver's location answer or NULL.  0 or -ENOMEM. */
int wire_server_pack(const struct wire_server_call *c, int result,
		     const struct gem_location *loc, struct strbuf *out);
/* Unmap what a successful wire_server_unpack mapped (after the pack). */
void wire_server_release(struct wire_server_call *c);

/* --- one request and its reply ---------------------------------------- */

#define WIRE_CALL_MAX_IOV	4

/*
 * A request/reply round trip (wire_call).  The caller fills in the request
 * and what a valid reply looks like; wire_call fills in the answer.
 */
struct wire_call {
	/* the request (wire_call adds the magic and the length) */
	uint16_t type;			/* enum gem_msg_type */
	uint16_t flags;			/* GEM_MSG_F_*: NOREPLY reads nothing */
	uint32_t request;
	struct gem_token file;		/* file token, zero without a drm_file */
	struct iovec *iov;		/* the payload's pieces, consumed */
	int iovcnt;			/* at most WIRE_CALL_MAX_IOV */
	const int *pass_fd;		/* a descriptor to send along, or NULL */
	/* whole messages that need no reply, sent ahead of this one in
	 * the same sendmsg (not with pass_fd), or NULL */
	const struct strbuf *before;
	/* what a valid reply looks like */
	struct strbuf *reply;		/* payload appended; NULL: none may come */
	size_t min_len;			/* a success carries at least this much */
	size_t max_len;			/* any reply at most (0: GEM_MSG_MAX_PAYLOAD) */
	bool want_fd;			/* a success carries one descriptor; else
					 * no reply may carry any */
	/* waiting for it */
	uint64_t deadline_ns;		/* now_ns() clock; 0: none */
	const volatile sig_atomic_t *stop;	/* set (by a signal): give up */
	/*
	 * A signal handler without SA_RESTART broke the wait (the kernel
	 * restarts recvmsg for the others, as it would the ioctl): called
	 * once, to tell gemd (GEM_MSG_INTERRUPT), and the wait goes on for
	 * gemd's answer.  NULL: the wait just goes on.
	 */
	void (*interrupt)(struct wire_call *c, int sock);
	void *interrupt_arg;
	/* the answer */
	int32_t result;			/* gemd's: >= 0, or -errno as the kernel */
	int fd;				/* with want_fd, the descriptor (the
					 * caller's to close); else -1 */
};

/*
 * Send c's request on sock and read its reply.  Returns 0 when a reply
 * came and is valid: c->result is gemd's answer, the payload is appended
 * to c->reply.  A request with GEM_MSG_F_NOREPLY has none: 0 once sent.  Otherwise the connection is out of step and the caller
 * must close it; the returned -errno says why, the same for every caller:
 *
 *   the send's errno	the request did not go (-EPIPE: gemd is gone);
 *   -ECONNRESET	EOF before the whole reply arrived;
 *   -EPROTO		not a reply (bad magic), bytes beyond it, or
 *			descriptors other than promised: the header's nfds
 *			must match what came, and be 1 for a success of a
 *			call that wants one and 0 otherwise;
 *   -EMSGSIZE		a request or reply payload over GEM_MSG_MAX_PAYLOAD,
 *			or a reply over max_len (any, with reply NULL);
 *   -EBADMSG		a success shorter than min_len;
 *   -ETIMEDOUT, -EINTR	deadline_ns passed, or *stop was set, before the
 *			reply came (it may still come: close the socket);
 *   -ENOMEM, -EINVAL	(more than WIRE_CALL_MAX_IOV pieces).
 *
 * On failure c->reply is as it was and any descriptor that came is
 * closed.  Interrupted system calls are retried here; with stop or a
 * deadline set, the wait polls in 100 ms slices to look at them.
 */
int wire_call(int sock, struct wire_call *c);
/* Append c's request, as wire_call would send it, to out (no
 * descriptor): 0, -EINVAL, -EMSGSIZE or -ENOMEM. */
int wire_call_pack(const struct wire_call *c, struct strbuf *out);
/*
 * wire_call in its two halves, for a transport that sends the request
 * another way (the shared ring) and has gemd answer on the socket.
 */
int wire_call_send(int sock, struct wire_call *c);
/* A wire_call.interrupt for a channel on the socket alone: send
 * GEM_MSG_INTERRUPT naming c's request. */
void wire_call_interrupt_message(struct wire_call *c, int sock);
int wire_call_recv(int sock, struct wire_call *c);
/*
 * c as a GEM_MSG_HANG_WAIT for a hang after 'after' (GEM_HANG_NEXT: the
 * next from now), waiting timeout_ms (0: for ever), its struct
 * gem_hang_event appended to reply.  req and iov are the caller's, kept
 * until the request is sent.
 */
void wire_hang_wait_init(struct wire_call *c, struct gem_hang_wait *req,
			 struct iovec *iov, struct strbuf *reply,
			 uint64_t after, uint32_t timeout_ms);
/* The largest reply payload c accepts (0 without c->reply). */
size_t wire_call_reply_max(const struct wire_call *c);
/*
 * Judge a reply header as wire_call does, have being the payload bytes
 * that came with it (more than rh->len is -EPROTO): 0, -EPROTO,
 * -EMSGSIZE or -EBADMSG.  Descriptors are the caller's to judge.
 */
int wire_call_judge(const struct wire_call *c, const struct gem_reply_hdr *rh,
		    size_t have);
/* wire_call's verdicts that say gemd's reply broke the protocol (rather
 * than that gemd went away), which callers usually report as one. */
static inline bool wire_call_bad_reply(int err)
{
	return err == -EPROTO || err == -EMSGSIZE || err == -EBADMSG;
}

/* --- socket helpers --------------------------------------------------- */

/*
 * Send every byte of iov (which is consumed) with MSG_NOSIGNAL, retrying
 * EINTR and short writes; pass_fd >= 0 rides along with SCM_RIGHTS.
 * Returns the byte count or -errno (-EPIPE when the peer is gone).  gemd's
 * replies; clients use wire_call.
 */
ssize_t wire_send(int sock, struct iovec *iov, int iovcnt, int pass_fd);

/*
 * The file token of an autobound socket: the kernel names it with five
 * hex digits in the abstract namespace ("\0" "0001f"); the token is that
 * number + 1, so 0 never names a file.  -EINVAL for any other address.
 */
int wire_token_from_addr(const struct sockaddr_un *sa, socklen_t len,
			 uint64_t *token);

#endif
