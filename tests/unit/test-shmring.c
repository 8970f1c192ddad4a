/*
 * Unit tests of the shared-memory ring (lib/proto/shmring.c): messages and
 * replies both ways, wrapping, a full ring, the doorbell, the dead-peer
 * wake-ups, and gemd's half against every way a client can scribble over
 * the memory it shares.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gemtest.h"
#include "shmring.h"
#include "util.h"

#define HDR	sizeof(struct gem_msg_hdr)

struct pair {
	void *base;
	struct shm_client c;
	struct shm_server s;
	int sv[2];		/* sv[0]: the client's socket, sv[1]: gemd's */
	atomic_bool dead;
	uint8_t buf[GEM_SHM_MSG_MAX];
};

static void pair_init(struct pair *p)
{
	p->base = mmap(NULL, GEM_SHM_SIZE, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	gt_assert(p->base != MAP_FAILED);
	shm_server_init(&p->s, p->base);
	shm_client_init(&p->c, p->base);
	gt_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, p->sv), 0);
	atomic_init(&p->dead, false);
}

static void pair_fini(struct pair *p)
{
	munmap(p->base, GEM_SHM_SIZE);
	close(p->sv[0]);
	close(p->sv[1]);
}

/* Post one message of payload len filled with byte fill: its end. */
static uint32_t post(struct pair *p, uint16_t type, uint16_t flags,
		     uint32_t request, uint32_t len, int fill)
{
	struct gem_msg_hdr hdr = {
		.magic = GEM_PROTOCOL_MAGIC, .type = type, .flags = flags,
		.len = len, .request = request, .file = { .lo = 7, .hi = 9 },
	};
	uint8_t *m;
	int err = 0;

	m = shm_client_reserve(&p->c, len, p->sv[0], &err);
	gt_assert(m != NULL);
	memcpy(m, &hdr, sizeof(hdr));
	memset(m + HDR, fill, len);
	return shm_client_commit(&p->c, len);
}

/* gemd's thread: echo each message's request and payload until told. */
static void *echo_main(void *arg)
{
	struct pair *p = arg;
	struct gem_msg_hdr hdr;
	int ret;

	for (;;) {
		ret = shm_server_next(&p->s, &hdr, p->buf);
		if (ret < 0)
			return (void *)(intptr_t)ret;
		if (ret == 0) {
			if (atomic_load(&p->dead))
				return NULL;
			shm_server_wait(&p->s, &p->dead);
			continue;
		}
		if (!(hdr.flags & GEM_MSG_F_NOREPLY))
			shm_server_reply(&p->s, (int32_t)hdr.request, p->buf, hdr.len);
		shm_server_done(&p->s);
	}
}

static void stop_echo(struct pair *p, pthread_t t)
{
	void *rv;

	atomic_store(&p->dead, true);
	shm_server_kick(p->s.ctl);
	pthread_join(t, &rv);
	gt_assert_eq((intptr_t)rv, 0);
}

/* Read the reply the client is waiting for; check its payload. */
static void check_reply(struct pair *p, uint32_t end, int32_t result,
			uint32_t len, int fill)
{
	struct gem_reply_hdr rh;
	uint32_t i;

	gt_assert_eq(shm_client_wait(&p->c, end, p->sv[0]), 0);
	memcpy(&rh, p->c.reply, sizeof(rh));
	gt_assert_eq(rh.magic, GEM_PROTOCOL_MAGIC);
	gt_assert_eq(rh.result, result);
	gt_assert_eq(rh.len, len);
	gt_assert_eq(rh.nfds, 0);
	for (i = 0; i < len; i++)
		gt_assert_eq(p->c.reply[sizeof(rh) + i], (uint8_t)fill);
}

/* Write a header at the client's position and publish it, however bad. */
static void scribble(struct pair *p, const struct gem_msg_hdr *hdr, uint32_t advance)
{
	memcpy(p->c.ring + p->c.head % GEM_SHM_RING_SIZE, hdr, sizeof(*hdr));
	p->c.ctl->head = p->c.head + advance;
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);

	gemtest_subtest("round-trip") {
		struct pair p;
		pthread_t t;
		uint32_t i, end, len;

		pair_init(&p);
		gt_assert_eq(pthread_create(&t, NULL, echo_main, &p), 0);
		/* Sizes that wrap the ring many times, at every alignment. */
		for (i = 0; i < 3000; i++) {
			len = (i * 1237u) % (GEM_SHM_MSG_MAX - HDR + 1);
			end = post(&p, GEM_MSG_IOCTL, 0, i, len, (int)(i & 0xff));
			check_reply(&p, end, (int32_t)i, len, (int)(i & 0xff));
			gt_assert(shm_client_idle(&p.c));
		}
		stop_echo(&p, t);
		pair_fini(&p);
	}

	gemtest_subtest("noreply-in-order") {
		struct pair p;
		struct gem_msg_hdr hdr;
		uint32_t end, i;

		pair_init(&p);
		for (i = 0; i < 5; i++)
			post(&p, GEM_MSG_IOCTL, GEM_MSG_F_NOREPLY, i, 8, (int)i);
		end = post(&p, GEM_MSG_IOCTL, 0, 99, 0, 0);
		gt_assert(!shm_client_idle(&p.c));
		for (i = 0; i < 5; i++) {
			gt_assert_eq(shm_server_next(&p.s, &hdr, p.buf), 1);
			gt_assert_eq(hdr.request, i);
			gt_assert_eq(hdr.flags, GEM_MSG_F_NOREPLY);
			gt_assert_eq(p.buf[7], i);
			shm_server_done(&p.s);
		}
		gt_assert_eq(shm_server_next(&p.s, &hdr, p.buf), 1);
		gt_assert_eq(hdr.request, 99);
		gt_assert_eq(shm_server_reply(&p.s, -EINVAL, NULL, 0), 0);
		shm_server_done(&p.s);
		gt_assert_eq(shm_server_next(&p.s, &hdr, p.buf), 0);
		check_reply(&p, end, -EINVAL, 0, 0);
		gt_assert(shm_client_idle(&p.c));
		pair_fini(&p);
	}

	gemtest_subtest("full-ring-waits") {
		struct pair p;
		pthread_t t;
		uint32_t i, n = 3 * GEM_SHM_RING_SIZE / shm_msg_size(4000), end;

		pair_init(&p);
		/* More notices than the ring holds: the client waits for room
		 * while the server sleeps and wakes on the bell. */
		gt_assert_eq(pthread_create(&t, NULL, echo_main, &p), 0);
		for (i = 0; i < n; i++)
			post(&p, GEM_MSG_IOCTL, GEM_MSG_F_NOREPLY, i, 4000, 1);
		end = post(&p, GEM_MSG_IOCTL, 0, 5, 16, 2);
		check_reply(&p, end, 5, 16, 2);
		stop_echo(&p, t);
		pair_fini(&p);
	}

	gemtest_subtest("reply-too-large") {
		struct pair p;
		struct gem_reply_hdr rh;
		static uint8_t big[GEM_SHM_REPLY_SIZE];

		pair_init(&p);
		gt_assert_eq(shm_server_reply(&p.s, 0, big,
					      GEM_SHM_REPLY_SIZE - sizeof(rh) + 1), -E2BIG);
		gt_assert_eq(shm_server_reply(&p.s, 3, big,
					      GEM_SHM_REPLY_SIZE - sizeof(rh)), 0);
		shm_server_on_socket(&p.s);
		memcpy(&rh, p.c.reply, sizeof(rh));
		gt_assert_eq(rh.magic, GEM_SHM_REPLY_ON_SOCKET);
		pair_fini(&p);
	}

	gemtest_subtest("hostile-indices") {
		struct pair p;
		struct gem_msg_hdr hdr;

		pair_init(&p);
		/* head beyond a whole ring ahead */
		p.c.ctl->head = GEM_SHM_RING_SIZE + 8;
		gt_assert_eq(shm_server_next(&p.s, &hdr, p.buf), -EPROTO);
		/* head behind the tail: as far ahead as 2^32 - 8 */
		p.c.ctl->head = (uint32_t)-8;
		gt_assert_eq(shm_server_next(&p.s, &hdr, p.buf), -EPROTO);
		/* misaligned */
		p.c.ctl->head = 12;
		gt_assert_eq(shm_server_next(&p.s, &hdr, p.buf), -EPROTO);
		/* less than a header */
		p.c.ctl->head = 8;
		gt_assert_eq(shm_server_next(&p.s, &hdr, p.buf), -EPROTO);
		/* untouched by any of it */
		gt_assert_eq(p.s.tail, 0);
		pair_fini(&p);
	}

	gemtest_subtest("hostile-headers") {
		static const struct {
			const char *what;
			uint32_t magic, len, advance;
			uint16_t type;
		} bad[] = {
			{ "bad magic", 0x12345678, 0, HDR, GEM_MSG_IOCTL },
			{ "len past head", GEM_PROTOCOL_MAGIC, 64, HDR + 32, GEM_MSG_IOCTL },
			{ "len of 4 GiB", GEM_PROTOCOL_MAGIC, UINT32_MAX, HDR, GEM_MSG_IOCTL },
			{ "len past the message limit", GEM_PROTOCOL_MAGIC,
			  GEM_SHM_MSG_MAX, GEM_SHM_MSG_MAX + HDR, GEM_MSG_IOCTL },
			{ "skip short of the end", GEM_PROTOCOL_MAGIC, 64, HDR + 64,
			  GEM_MSG_SKIP },
			{ "skip past the end", GEM_PROTOCOL_MAGIC, GEM_SHM_RING_SIZE,
			  GEM_SHM_RING_SIZE, GEM_MSG_SKIP },
		};
		size_t i;

		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			struct gem_msg_hdr hdr = {
				.magic = bad[i].magic, .type = bad[i].type,
				.len = bad[i].len,
			};
			struct pair p;

			pair_init(&p);
			scribble(&p, &hdr, bad[i].advance);
			gt_assert_f(shm_server_next(&p.s, &hdr, p.buf) == -EPROTO,
				    "%s accepted", bad[i].what);
			gt_assert_eq(p.s.tail, 0);
			pair_fini(&p);
		}
	}

	gemtest_subtest("skip-to-end") {
		struct pair p;
		struct gem_msg_hdr hdr;
		uint32_t i, end, len = GEM_SHM_MSG_MAX - HDR;

		/* Messages that leave too little room at the end: the client
		 * writes a SKIP and gemd follows it to the ring's start. */
		pair_init(&p);
		for (i = 0; i < 10; i++) {
			end = post(&p, GEM_MSG_IOCTL, 0, i, len - 8 * i, (int)i);
			gt_assert_eq(shm_server_next(&p.s, &hdr, p.buf), 1);
			gt_assert_eq(hdr.request, i);
			gt_assert_eq(hdr.len, len - 8 * i);
			gt_assert_eq(p.buf[hdr.len - 1], i);
			shm_server_reply(&p.s, 0, NULL, 0);
			shm_server_done(&p.s);
			gt_assert_eq(shm_client_wait(&p.c, end, p.sv[0]), 0);
		}
		gt_assert(p.c.head > 3 * GEM_SHM_RING_SIZE / 2);
		pair_fini(&p);
	}

	gemtest_subtest("dead-peer-wakes-gemd") {
		struct pair p;
		pthread_t t;

		/* The thread sleeps on the bell; the dead flag and a kick end it. */
		pair_init(&p);
		gt_assert_eq(pthread_create(&t, NULL, echo_main, &p), 0);
		stop_echo(&p, t);
		pair_fini(&p);
	}

	gemtest_subtest("dead-gemd-ends-client-wait") {
		struct pair p;
		uint32_t end;

		/* Nobody serves the ring and gemd's socket is closed. */
		pair_init(&p);
		end = post(&p, GEM_MSG_IOCTL, 0, 1, 0, 0);
		close(p.sv[1]);
		p.sv[1] = -1;
		gt_assert_eq(shm_client_wait(&p.c, end, p.sv[0]), -ECONNRESET);
		pair_fini(&p);
	}

	return gemtest_exit();
}
