/*
 * gem_interrupt: the kernel's waits are interruptible.  An execbuffer
 * that waits for room in a ring a spinning batch keeps full waits as
 * long as it takes (no timeout), and a signal whose handler lacks
 * SA_RESTART ends the wait with EINTR, leaving the ring as it was; with
 * SA_RESTART the call is restarted and completes once the ring moves
 * (IGT gem_exec_fence keep-in-fence).  The signals come from a thread
 * aimed at this one, every millisecond, as IGT's itimer does.
 *
 * No other handler may be installed (so no gt_program_timeout, whose
 * SIGALRM handler lacks SA_RESTART): over the shared ring libgem cannot
 * tell which handler broke its sleep (shm_client_wait_interruptible).
 * bounded.sh bounds the program instead.  Hangcheck is off: the spin
 * must outlast the filling of the ring however slow the machine.
 *
 * A client of the protocol itself sends a wait and its interrupt in one
 * write, as a client signalled before gemd got to its request does: gemd
 * reads both at once and must still see the interrupt.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "connect.h"
#include "gemdebugfs.h"
#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"
#include "protocol.h"
#include "wire.h"

/* More nop batches than a 128 KiB ring holds requests for. */
#define MAX_SUBMITS	100000

static volatile sig_atomic_t signals;
static volatile sig_atomic_t call_seq, seq_at_first_signal, hits_this_call;
static uint32_t *volatile spin_map;	/* set: the handler may end the spin */
static pthread_t victim;
static volatile sig_atomic_t signaller_stop;

/* With SA_RESTART: a call that saw five signals is blocked; end the spin
 * so that the restarted call can complete. */
static void on_signal(int sig)
{
	(void)sig;
	signals++;
	if (seq_at_first_signal != call_seq) {
		seq_at_first_signal = call_seq;
		hits_this_call = 0;
	}
	if (++hits_this_call >= 5 && spin_map)
		__atomic_store_n(&spin_map[0], MI_BATCH_BUFFER_END, __ATOMIC_RELEASE);
}

static void *signaller(void *arg)
{
	struct timespec ms = { 0, 1000 * 1000 };

	(void)arg;
	while (!signaller_stop) {
		pthread_kill(victim, SIGUSR1);
		nanosleep(&ms, NULL);
	}
	return NULL;
}

static uint32_t spin_start(int fd, uint32_t **map)
{
	uint32_t spin = gt_create(fd, 4096);
	struct gen3_exec x = { .batch = spin };
	struct drm_i915_gem_exec_object2 obj[1];
	struct drm_i915_gem_execbuffer2 eb;
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_emit_spin(&b, spin);
	gen3_batch_end(&b);
	gen3_batch_execbuf(&b, &x, obj, &eb);
	gt_write(fd, spin, 0, b.dw, gen3_batch_bytes(&b));
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
	*map = gt_mmap_cpu(fd, spin, 0, 4096);
	return spin;
}

static void nop_execbuf(int fd, uint32_t nop, struct drm_i915_gem_exec_object2 *obj,
			struct drm_i915_gem_execbuffer2 *eb)
{
	struct gen3_exec x = { .batch = nop };
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_batch_end(&b);
	gen3_batch_execbuf(&b, &x, obj, eb);
	gt_write(fd, nop, 0, b.dw, gen3_batch_bytes(&b));
}

/* End the spin, wait for the nops behind it, and free everything. */
static void spin_finish(int fd, uint32_t spin, uint32_t *map, uint32_t nop)
{
	int64_t forever = -1;

	__atomic_store_n(&map[0], MI_BATCH_BUFFER_END, __ATOMIC_RELEASE);
	gt_assert_eq(__gt_wait(fd, nop, &forever), 0);
	munmap(map, 4096);
	gt_close(fd, spin);
	gt_close(fd, nop);
}

static pthread_t signals_start(int flags)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = flags };
	pthread_t t;

	sigemptyset(&sa.sa_mask);
	gt_assert_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	victim = pthread_self();
	signaller_stop = 0;
	gt_assert_eq(pthread_create(&t, NULL, signaller, NULL), 0);
	return t;
}

static void signals_stop(pthread_t t)
{
	struct sigaction sa = { .sa_handler = SIG_IGN };

	signaller_stop = 1;
	pthread_join(t, NULL);
	sigaction(SIGUSR1, &sa, NULL);
}

/* Submit nops until one fails: its -errno, 0 if none did. */
static int submit_until_error(int fd, struct drm_i915_gem_execbuffer2 *eb)
{
	int i, ret;

	for (i = 0; i < MAX_SUBMITS; i++) {
		call_seq++;
		ret = gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, eb);
		if (ret)
			return ret;
	}
	return 0;
}

static void test_eintr(int fd)
{
	struct drm_i915_gem_exec_object2 obj[1];
	struct drm_i915_gem_execbuffer2 eb;
	uint32_t nop = gt_create(fd, 4096), spin, *map;
	pthread_t t;

	nop_execbuf(fd, nop, obj, &eb);
	spin = spin_start(fd, &map);
	t = signals_start(0);
	gt_assert_eq(submit_until_error(fd, &eb), -EINTR);
	/* Still full, still interruptible. */
	gt_assert_eq(submit_until_error(fd, &eb), -EINTR);
	signals_stop(t);
	/* The interrupted calls left the ring usable. */
	__atomic_store_n(&map[0], MI_BATCH_BUFFER_END, __ATOMIC_RELEASE);
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
	spin_finish(fd, spin, map, nop);
}

static void test_restart(int fd)
{
	struct drm_i915_gem_exec_object2 obj[1];
	struct drm_i915_gem_execbuffer2 eb;
	uint32_t nop = gt_create(fd, 4096), spin, *map;
	pthread_t t;
	int i, ret = 0;

	nop_execbuf(fd, nop, obj, &eb);
	spin = spin_start(fd, &map);
	spin_map = map;
	t = signals_start(SA_RESTART);
	/* Each call completes: the one blocked on a full ring is restarted
	 * until the handler ends the spin. */
	for (i = 0; i < MAX_SUBMITS && !ret &&
	     __atomic_load_n(&map[0], __ATOMIC_ACQUIRE) != MI_BATCH_BUFFER_END; i++) {
		call_seq++;
		ret = gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
	}
	signals_stop(t);
	spin_map = NULL;
	gt_assert_eq(ret, 0);
	gt_assert(signals > 0);
	spin_finish(fd, spin, map, nop);
}

/* A file of our own on the protocol itself: its token, the channel in
 * *sock, and the file's connection, which must stay open. */
static int raw_file(struct gem_token *token, int *sock)
{
	const char *path = getenv("GEM_DEVICE");
	struct gem_open_reply rep;
	int file;

	file = channel_connect(path, GEM_MSG_OPEN, true, true, &rep, sizeof(rep));
	gt_assert(file >= 0);
	*token = rep.file;
	*sock = channel_connect(path, GEM_MSG_HELLO, false, true, NULL, 0);
	gt_assert(*sock >= 0);
	return file;
}

static int raw_open_name(int sock, struct gem_token token, uint32_t name)
{
	struct drm_gem_open op = { .name = name };
	struct strbuf rep = STRBUF_INIT;
	struct iovec iov = { &op, sizeof(op) };
	struct wire_call call = {
		.type = GEM_MSG_IOCTL, .request = DRM_IOCTL_GEM_OPEN,
		.file = token, .iov = &iov, .iovcnt = 1, .reply = &rep,
		.min_len = sizeof(op), .max_len = sizeof(op),
	};

	gt_assert_eq(wire_call(sock, &call), 0);
	gt_assert_eq(call.result, 0);
	memcpy(&op, rep.buf, sizeof(op));
	strbuf_release(&rep);
	return (int)op.handle;
}

static void test_interrupt_read_with_request(int fd)
{
	struct drm_i915_gem_wait wait = { .timeout_ns = -1 };
	struct drm_gem_flink flink = { 0 };
	struct gem_msg_hdr req = {
		.magic = GEM_PROTOCOL_MAGIC, .type = GEM_MSG_IOCTL,
		.len = sizeof(wait), .request = DRM_IOCTL_I915_GEM_WAIT,
	};
	struct gem_msg_hdr intr = {
		.magic = GEM_PROTOCOL_MAGIC, .type = GEM_MSG_INTERRUPT,
		.flags = GEM_MSG_F_NOREPLY, .request = DRM_IOCTL_I915_GEM_WAIT,
	};
	struct iovec iov[3] = {
		{ &req, sizeof(req) }, { &wait, sizeof(wait) }, { &intr, sizeof(intr) },
	};
	struct gem_reply_hdr rh;
	struct gem_token token;
	uint32_t spin, *map;
	int file, sock;

	spin = spin_start(fd, &map);
	flink.handle = spin;
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_GEM_FLINK, &flink), 0);
	file = raw_file(&token, &sock);
	wait.bo_handle = (uint32_t)raw_open_name(sock, token, flink.name);
	req.file = token;
	intr.file = token;
	/* One write: gemd reads the wait and the interrupt together.  A gemd
	 * that misses it answers only when the watchdog cancels the spin
	 * (i915.request_timeout_ms), with 0. */
	gt_assert_eq(wire_send(sock, iov, 3, -1),
		     (ssize_t)(sizeof(req) + sizeof(wait) + sizeof(intr)));
	gt_assert_eq(recv(sock, &rh, sizeof(rh), MSG_WAITALL), (ssize_t)sizeof(rh));
	gt_assert_eq(rh.magic, GEM_PROTOCOL_MAGIC);
	gt_assert_eq(rh.result, -EINTR);
	gt_assert(gt_busy(fd, spin));
	__atomic_store_n(&map[0], MI_BATCH_BUFFER_END, __ATOMIC_RELEASE);
	gt_sync(fd, spin);
	close(sock);
	close(file);
	munmap(map, 4096);
	gt_close(fd, spin);
}

int main(int argc, char **argv)
{
	const char *device;
	struct gdfs *dfs;
	int fd;

	gemtest_init(argc, argv);
	device = gemtest_start_gemd(NULL);
	gt_assert_eq(gdfs_open_socket(device, &dfs), 0);
	gt_assert_eq(gdfs_write(dfs, "i915_params/enable_hangcheck", "0", 1), 1);
	gdfs_close(dfs);
	fd = gt_open();

	gemtest_subtest("ring-full-wait-ends-with-eintr")
		test_eintr(fd);
	gemtest_subtest("sa-restart-wait-completes")
		test_restart(fd);
	gemtest_subtest("interrupt-read-with-its-request")
		test_interrupt_read_with_request(fd);

	gem_close(fd);
	return gemtest_exit();
}
