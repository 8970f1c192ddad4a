/*
 * libFuzzer: gemd's reading of the shared ring (lib/proto/shmring.c), the
 * memory a client writes as it likes: its head index and the message
 * headers in the ring, then each GEM_MSG_IOCTL payload through
 * wire_server_unpack, as driver/server/shm.c hands them on.
 *
 *	u32 head	the client's index
 *	u32 tail	where gemd is (free-running, as after earlier traffic)
 *	    ring	the ring's bytes from tail on (wrapping), the rest zero
 *
 * The control page, the ring and the reply area are separate allocations
 * of their exact sizes, so that AddressSanitizer sees a read past the
 * ring's end, which in gemd would land in the reply area unnoticed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shmring.h"
#include "strbuf.h"
#include "util.h"
#include "wire.h"

#define MAX_MESSAGES	64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[GEM_SHM_MSG_MAX];
	struct strbuf mem = STRBUF_INIT;
	struct gem_shm_ctl *ctl;
	struct shm_server s;
	struct gem_msg_hdr hdr;
	struct wire_server_call call;
	uint32_t head, tail;
	uint8_t *ctl_page, *ring, *reply;
	unsigned int i;
	size_t at, n;

	if (size < 8)
		return 0;
	memcpy(&head, data, 4);
	memcpy(&tail, data + 4, 4);
	data += 8;
	size -= 8;
	ctl_page = calloc(1, GEM_SHM_CTL_SIZE);
	ring = calloc(1, GEM_SHM_RING_SIZE);
	reply = calloc(1, GEM_SHM_REPLY_SIZE);
	if (!ctl_page || !ring || !reply)
		goto out_free;
	/* The bytes go where gemd will look: from tail on, wrapping. */
	size = MIN(size, (size_t)GEM_SHM_RING_SIZE);
	at = tail % GEM_SHM_RING_SIZE;
	n = MIN(size, (size_t)(GEM_SHM_RING_SIZE - at));
	memcpy(ring + at, data, n);
	memcpy(ring, data + n, size - n);
	/* shm_server_init points into one mapping; ours are three. */
	shm_server_init(&s, ctl_page);
	s.ring = ring;
	s.reply = reply;
	s.tail = s.done = tail;
	ctl = s.ctl;
	ctl->head = head;
	for (i = 0; i < MAX_MESSAGES; i++) {
		if (shm_server_next(&s, &hdr, buf) != 1)
			break;
		if (hdr.type == GEM_MSG_IOCTL &&
		    !wire_server_unpack(&call, hdr.request, buf, hdr.len, &mem, -1))
			wire_server_release(&call);
		shm_server_reply(&s, -EINVAL, buf, hdr.len);
		shm_server_done(&s);
	}
out_free:
	strbuf_release(&mem);
	free(reply);
	free(ring);
	free(ctl_page);
	return 0;
}
