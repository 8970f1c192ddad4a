/*
 * A channel's shared-memory transport (shmring.h): requests go into a ring
 * in memory gemd gave this thread, replies come back in it, and a futex
 * replaces the two system calls a socket round trip costs.  What the ring
 * cannot carry (descriptors, messages over GEM_SHM_MSG_MAX, calls with a
 * deadline) is announced in it with GEM_MSG_SOCKET and made on the socket
 * as before, so the order of a channel's messages is kept.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "channel.h"
#include "util.h"
#include "wire.h"

/* $GEMKIT_TRANSPORT: "socket" keeps the socket; anything else, or
 * nothing, the shared ring. */
static bool want_shm(void)
{
	const char *t = getenv("GEMKIT_TRANSPORT");

	return !t || strcmp(t, "socket") != 0;
}

int channel_shm_attach(struct gem_channel *ch)
{
	struct wire_call call = {
		.type = GEM_MSG_SHM,
		.min_len = sizeof(struct gem_shm_reply),
		.max_len = sizeof(struct gem_shm_reply),
		.want_fd = true,
	};
	struct strbuf rep = STRBUF_INIT;
	struct gem_shm_reply r;
	void *base;
	int ret;

	if (!want_shm())
		return 0;
	call.reply = &rep;
	ret = wire_call(ch->sock, &call);
	if (ret)
		goto out;
	/* No shared memory (gemd short of it): the socket works as ever. */
	if (call.result < 0)
		goto out;
	memcpy(&r, rep.buf, sizeof(r));
	if (r.size != GEM_SHM_SIZE || r.ring_size != GEM_SHM_RING_SIZE ||
	    r.reply_size != GEM_SHM_REPLY_SIZE) {
		ret = -EPROTO;
		goto out_close;
	}
	base = mmap(NULL, GEM_SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		    call.fd, 0);
	if (base == MAP_FAILED) {
		/* gemd now reads the ring: this channel cannot go back. */
		ret = -errno;
		goto out_close;
	}
	ch->shm_base = base;
	shm_client_init(&ch->shm, base);
out_close:
	close(call.fd);
out:
	strbuf_release(&rep);
	return ret;
}

void channel_shm_detach(struct gem_channel *ch)
{
	if (!ch->shm_base)
		return;
	munmap(ch->shm_base, GEM_SHM_SIZE);
	ch->shm_base = NULL;
}

/* Announce a call that travels on the socket, then make it there. */
static int call_on_socket(struct gem_channel *ch, struct wire_call *call)
{
	struct gem_msg_hdr hdr = {
		.magic = GEM_PROTOCOL_MAGIC, .type = GEM_MSG_SOCKET,
	};
	void *p;
	int ret;

	p = shm_client_reserve(&ch->shm, 0, ch->sock, &ret);
	if (!p)
		return ret;
	memcpy(p, &hdr, sizeof(hdr));
	shm_client_commit(&ch->shm, 0);
	return wire_call(ch->sock, call);
}

/* A call on the socket of a channel with a ring: its marker is the
 * request in flight, and gemd looks for the interrupt in the ring. */
void channel_shm_interrupt(struct wire_call *call, int sock)
{
	struct gem_channel *ch = call->interrupt_arg;

	(void)sock;
	shm_client_interrupt(&ch->shm);
}

/* Read the reply out of the ring, judged as wire_call judges. */
static int take_reply(struct gem_channel *ch, struct wire_call *call)
{
	const uint8_t *area = ch->shm.reply;
	struct gem_reply_hdr rh;
	int ret;

	memcpy(&rh, area, sizeof(rh));
	if (rh.magic == GEM_SHM_REPLY_ON_SOCKET)
		return wire_call_recv(ch->sock, call);
	if (rh.len > GEM_SHM_REPLY_SIZE - sizeof(rh) || rh.nfds)
		return -EPROTO;
	ret = wire_call_judge(call, &rh, 0);
	if (ret)
		return ret;
	if (rh.len && strbuf_add(call->reply, area + sizeof(rh), rh.len))
		return -ENOMEM;
	call->result = rh.result;
	return 0;
}

int channel_shm_call(struct gem_channel *ch, struct wire_call *call)
{
	struct gem_msg_hdr hdr = {
		.magic = GEM_PROTOCOL_MAGIC,
		.type = call->type,
		.flags = call->flags,
		.request = call->request,
		.file = call->file,
	};
	size_t len = 0;
	uint8_t *p;
	uint32_t end;
	int i, ret;

	call->result = 0;
	call->fd = -1;
	if (call->iovcnt < 0 || call->iovcnt > WIRE_CALL_MAX_IOV)
		return -EINVAL;
	for (i = 0; i < call->iovcnt; i++)
		len += call->iov[i].iov_len;
	if (call->pass_fd || call->want_fd || call->deadline_ns || call->stop ||
	    len > GEM_SHM_MSG_MAX - sizeof(hdr))
		return call_on_socket(ch, call);

	hdr.len = (uint32_t)len;
	p = shm_client_reserve(&ch->shm, hdr.len, ch->sock, &ret);
	if (!p)
		return ret;
	memcpy(p, &hdr, sizeof(hdr));
	p += sizeof(hdr);
	for (i = 0; i < call->iovcnt; i++) {
		if (call->iov[i].iov_len)
			memcpy(p, call->iov[i].iov_base, call->iov[i].iov_len);
		p += call->iov[i].iov_len;
	}
	/* A notice waits in the ring for the next call, which rings. */
	if (call->flags & GEM_MSG_F_NOREPLY) {
		shm_client_commit_quiet(&ch->shm, hdr.len);
		return 0;
	}
	end = shm_client_commit(&ch->shm, hdr.len);
	ret = call->interrupt ?
	      shm_client_wait_interruptible(&ch->shm, end, ch->sock) :
	      shm_client_wait(&ch->shm, end, ch->sock);
	if (ret)
		return ret;
	return take_reply(ch, call);
}

int channel_shm_flush(struct gem_channel *ch)
{
	if (!ch->shm_base || ch->sock < 0)
		return 0;
	return shm_client_wait(&ch->shm, ch->shm.head, ch->sock);
}
