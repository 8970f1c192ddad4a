/* The shared-memory channel's ring, spins and futex doorbell (shmring.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* sched_getcpu (config.h has it in a real build) */
#endif
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "shmring.h"
#include "util.h"

/* A client spins this long for a reply while gemd runs elsewhere: longer
 * than most requests take, far shorter than a sleep is worth. */
#define CLIENT_SPIN_NS		20000ull
/* How often a sleeping client looks for gemd's death. */
#define CLIENT_SLICE_NS		(100ull * 1000 * 1000)
/* gemd's spin for the next message: learnt per channel, within this. */
#define SERVER_SPIN_MAX_NS	50000ull
#define SERVER_SPIN_START_NS	(SERVER_SPIN_MAX_NS / 4)
#define TIME_CHECK_EVERY	64	/* spin iterations between clock reads */

#define HDR_SIZE	((uint32_t)sizeof(struct gem_msg_hdr))

_Static_assert(sizeof(struct gem_shm_ctl) == 128, "one line per side");
_Static_assert(GEM_SHM_RING_SIZE % 8 == 0 && HDR_SIZE % 8 == 0,
	       "messages stay 8-aligned");
_Static_assert(GEM_SHM_MSG_MAX <= GEM_SHM_RING_SIZE / 2, "room to wrap");

/* The memory is shared between processes: no FUTEX_PRIVATE_FLAG. */
static int futex_wait(uint32_t *addr, uint32_t val, const struct timespec *ts)
{
	return (int)syscall(SYS_futex, addr, FUTEX_WAIT, val, ts, NULL, 0);
}

static void futex_wake(uint32_t *addr, int n)
{
	syscall(SYS_futex, addr, FUTEX_WAKE, n, NULL, NULL, 0);
}

static inline uint32_t load(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void store(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* A store the other side must see before we look at its line (Dekker). */
static inline void store_fenced(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}

static inline bool reached(uint32_t done, uint32_t pos)
{
	return (int32_t)(done - pos) >= 0;
}

/* UINT32_MAX if unknown. */
static uint32_t my_cpu(void)
{
	return (uint32_t)sched_getcpu();
}

/* Spinning is worth it only if the other side runs on another CPU. */
static bool other_cpu(uint32_t theirs)
{
	static int ncpus;

	if (!ncpus)
		ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	return ncpus > 1 && theirs != UINT32_MAX && theirs != my_cpu();
}

/* --- the client's half ------------------------------------------------- */

void shm_client_init(struct shm_client *c, void *base)
{
	c->ctl = base;
	c->ring = (uint8_t *)base + GEM_SHM_CTL_SIZE;
	c->reply = c->ring + GEM_SHM_RING_SIZE;
	c->head = c->ctl->head;
	c->last = c->head;
}

/* EOF on the channel's socket: gemd is gone. */
static bool peer_gone(int sock)
{
	char byte;

	return recv(sock, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

/*
 * A thread asleep in futex cannot fault: SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGTRAP and SIGSYS come from the instruction a thread runs, so their
 * handlers (ASan's, IGT's fatal-signal handler) never break this sleep.
 */
static bool signal_is_synchronous(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE ||
	       sig == SIGILL || sig == SIGTRAP || sig == SIGSYS;
}

/* Some caught signal that can break a sleep is handled without SA_RESTART. */
static bool handler_breaks_calls(void)
{
	struct sigaction sa;
	int sig;

	for (sig = 1; sig < NSIG; sig++) {
		if (signal_is_synchronous(sig) || sigaction(sig, NULL, &sa))
			continue;
		if (!(sa.sa_flags & SA_SIGINFO) &&
		    (sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN))
			continue;
		if (!(sa.sa_flags & SA_RESTART))
			return true;
	}
	return false;
}

void shm_client_ring(struct shm_client *c)
{
	struct gem_shm_ctl *ctl = c->ctl;

	if (__atomic_load_n(&ctl->server_state, __ATOMIC_SEQ_CST) == GEM_SHM_SLEEPING) {
		__atomic_fetch_add(&ctl->bell, 1, __ATOMIC_SEQ_CST);
		futex_wake(&ctl->bell, 1);
	}
}

void shm_client_interrupt(struct shm_client *c)
{
	store_fenced(&c->ctl->interrupt, c->head);
}

static int client_wait(struct shm_client *c, uint32_t pos, int sock,
		       bool interruptible)
{
	struct gem_shm_ctl *ctl = c->ctl;
	struct timespec slice = {
		.tv_sec = (time_t)(CLIENT_SLICE_NS / 1000000000ull),
		.tv_nsec = (long)(CLIENT_SLICE_NS % 1000000000ull),
	};
	uint32_t done;
	unsigned int i;

	if (reached(load(&ctl->done), pos))
		return 0;
	/* Messages committed quietly may be all gemd has not seen. */
	shm_client_ring(c);
	if (other_cpu(load(&ctl->server_cpu))) {
		uint64_t end = now_ns() + CLIENT_SPIN_NS;

		for (i = 1; ; i++) {
			if (reached(load(&ctl->done), pos))
				return 0;
			if (!(i % TIME_CHECK_EVERY) && now_ns() >= end)
				break;
			cpu_relax();
		}
	}
	for (;;) {
		store_fenced(&ctl->client_state, GEM_SHM_SLEEPING);
		done = __atomic_load_n(&ctl->done, __ATOMIC_SEQ_CST);
		if (reached(done, pos))
			break;
		if (futex_wait(&ctl->done, done, &slice) == 0)
			continue;
		if (errno == ETIMEDOUT && peer_gone(sock)) {
			store(&ctl->client_state, GEM_SHM_RUNNING);
			return -ECONNRESET;
		}
		if (errno == EINTR && interruptible && handler_breaks_calls()) {
			shm_client_interrupt(c);
			interruptible = false;
		}
	}
	store(&ctl->client_state, GEM_SHM_RUNNING);
	return 0;
}

int shm_client_wait(struct shm_client *c, uint32_t pos, int sock)
{
	return client_wait(c, pos, sock, false);
}

int shm_client_wait_interruptible(struct shm_client *c, uint32_t pos, int sock)
{
	return client_wait(c, pos, sock, true);
}

void *shm_client_reserve(struct shm_client *c, uint32_t len, int sock, int *err)
{
	uint32_t size = shm_msg_size(len), pos = c->head % GEM_SHM_RING_SIZE;
	uint32_t to_end = GEM_SHM_RING_SIZE - pos, skip = 0;
	int ret;

	if (to_end < size)
		skip = to_end;
	/* Room for the filler and the message once gemd has caught up. */
	ret = shm_client_wait(c, c->head + skip + size - GEM_SHM_RING_SIZE, sock);
	if (ret) {
		*err = ret;
		return NULL;
	}
	if (skip >= HDR_SIZE) {
		struct gem_msg_hdr fill = {
			.magic = GEM_PROTOCOL_MAGIC, .type = GEM_MSG_SKIP,
			.len = skip - HDR_SIZE,
		};

		memcpy(c->ring + pos, &fill, sizeof(fill));
	}
	c->head += skip;
	return c->ring + c->head % GEM_SHM_RING_SIZE;
}

uint32_t shm_client_commit_quiet(struct shm_client *c, uint32_t len)
{
	struct gem_shm_ctl *ctl = c->ctl;

	c->head += shm_msg_size(len);
	store(&ctl->client_cpu, my_cpu());
	/* Fenced: whoever rings next must see gemd's sleep if gemd missed
	 * this head (the Dekker pair of shm_server_wait). */
	store_fenced(&ctl->head, c->head);
	return c->head;
}

uint32_t shm_client_commit(struct shm_client *c, uint32_t len)
{
	uint32_t end = shm_client_commit_quiet(c, len);

	shm_client_ring(c);
	return end;
}

bool shm_client_idle(const struct shm_client *c)
{
	return load(&c->ctl->done) == c->head;
}

/* --- gemd's half ------------------------------------------------------- */

void shm_server_init(struct shm_server *s, void *base)
{
	s->ctl = base;
	s->ring = (uint8_t *)base + GEM_SHM_CTL_SIZE;
	s->reply = s->ring + GEM_SHM_RING_SIZE;
	s->tail = 0;
	s->done = 0;
	s->spin_ns = SERVER_SPIN_START_NS;
	s->idle_since = 0;
	memset(base, 0, GEM_SHM_CTL_SIZE);
	s->ctl->server_cpu = my_cpu();
}

int shm_server_next(struct shm_server *s, struct gem_msg_hdr *hdr, void *buf)
{
	uint32_t head, avail, pos, to_end;
	uint64_t size;

	for (;;) {
		/* One look at the client's index per message. */
		head = load(&s->ctl->head);
		avail = head - s->tail;
		if (!avail)
			return 0;
		if (avail > GEM_SHM_RING_SIZE || avail % 8)
			return -EPROTO;
		pos = s->tail % GEM_SHM_RING_SIZE;
		to_end = GEM_SHM_RING_SIZE - pos;
		if (to_end < HDR_SIZE) {
			if (avail < to_end)
				return -EPROTO;
			s->tail += to_end;
			continue;
		}
		if (avail < HDR_SIZE)
			return -EPROTO;
		memcpy(hdr, s->ring + pos, sizeof(*hdr));
		if (hdr->magic != GEM_PROTOCOL_MAGIC)
			return -EPROTO;
		size = HDR_SIZE + (((uint64_t)hdr->len + 7) & ~7ull);
		if (hdr->type == GEM_MSG_SKIP) {
			if (size != to_end || size > avail)
				return -EPROTO;
			s->tail += to_end;
			continue;
		}
		if (size > GEM_SHM_MSG_MAX || size > avail || size > to_end)
			return -EPROTO;
		memcpy(buf, s->ring + pos + HDR_SIZE, hdr->len);
		s->tail += (uint32_t)size;
		return 1;
	}
}

int shm_server_reply(struct shm_server *s, int32_t result, const void *data,
		     uint32_t len)
{
	struct gem_reply_hdr rh = {
		.magic = GEM_PROTOCOL_MAGIC, .result = result, .len = len,
	};

	if (len > GEM_SHM_REPLY_SIZE - sizeof(rh))
		return -E2BIG;
	memcpy(s->reply, &rh, sizeof(rh));
	if (len)
		memcpy(s->reply + sizeof(rh), data, len);
	return 0;
}

bool shm_server_interrupted(const struct shm_server *s)
{
	return load(&s->ctl->interrupt) == s->tail;
}

void shm_server_on_socket(struct shm_server *s)
{
	struct gem_reply_hdr rh = { .magic = GEM_SHM_REPLY_ON_SOCKET };

	memcpy(s->reply, &rh, sizeof(rh));
}

void shm_server_done(struct shm_server *s)
{
	struct gem_shm_ctl *ctl = s->ctl;

	s->done = s->tail;
	store_fenced(&ctl->done, s->done);
	if (__atomic_load_n(&ctl->client_state, __ATOMIC_SEQ_CST) == GEM_SHM_SLEEPING)
		futex_wake(&ctl->done, INT_MAX);
}

static bool server_has_work(struct shm_server *s, const atomic_bool *dead)
{
	return load(&s->ctl->head) != s->tail ||
	       atomic_load_explicit(dead, memory_order_acquire);
}

/* Spinning paid off after waited ns, or did not (waited: the whole gap). */
static void spin_learn(struct shm_server *s, uint64_t waited)
{
	if (waited < SERVER_SPIN_MAX_NS / 2)
		s->spin_ns = MAX(s->spin_ns, 2 * waited);
	else
		s->spin_ns /= 2;
}

void shm_server_wait(struct shm_server *s, const atomic_bool *dead)
{
	struct gem_shm_ctl *ctl = s->ctl;
	uint64_t start = now_ns(), end;
	uint32_t bell;
	unsigned int i;

	store(&ctl->server_cpu, my_cpu());
	if (s->spin_ns && other_cpu(load(&ctl->client_cpu))) {
		store(&ctl->server_state, GEM_SHM_SPINNING);
		end = start + s->spin_ns;
		for (i = 1; ; i++) {
			if (server_has_work(s, dead)) {
				spin_learn(s, now_ns() - start);
				store(&ctl->server_state, GEM_SHM_RUNNING);
				return;
			}
			if (!(i % TIME_CHECK_EVERY) && now_ns() >= end)
				break;
			cpu_relax();
		}
	}
	for (;;) {
		store_fenced(&ctl->server_state, GEM_SHM_SLEEPING);
		bell = __atomic_load_n(&ctl->bell, __ATOMIC_SEQ_CST);
		if (server_has_work(s, dead))
			break;
		/* EAGAIN (the bell moved) and EINTR come back to look. */
		futex_wait(&ctl->bell, bell, NULL);
	}
	store(&ctl->server_state, GEM_SHM_RUNNING);
	store(&ctl->server_cpu, my_cpu());
	spin_learn(s, now_ns() - start);
}

void shm_server_kick(struct gem_shm_ctl *ctl)
{
	__atomic_fetch_add(&ctl->bell, 1, __ATOMIC_SEQ_CST);
	futex_wake(&ctl->bell, INT_MAX);
}
