/*
 * gem_shm: the channels, on whichever transport GEMKIT_TRANSPORT picks,
 * and the shared ring as a hostile client speaks it (lib/proto/shmring.h).
 *
 *  - threads issuing ioctls at once on one file, a forked child sharing
 *    it, a request too large for the ring;
 *  - a client that scribbles over its own ring: gemd drops that channel
 *    and nothing else (its file, other clients, gemd itself go on);
 *  - a client killed while gemd sleeps on its ring, or while gemd works
 *    on its request: gemd's thread for it goes away once it notices.
 */
#include <dirent.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "connect.h"
#include "gemdebugfs.h"
#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"
#include "shmring.h"
#include "util.h"
#include "wire.h"

#define MS	INT64_C(1000000)

/* --- gemd's threads ---------------------------------------------------- */

static unsigned int gemd_threads(void)
{
	char path[64];
	struct dirent *de;
	unsigned int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", gemtest_gemd_pid());
	d = opendir(path);
	gt_assert(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

/* gemd lets go of a dead client's threads once it notices: wait for it
 * (a state, not a time: the bound only stops a broken gemd hanging us).
 * Fewer is fine: threads of earlier clients may go meanwhile. */
static void wait_threads(unsigned int want)
{
	uint64_t end = now_ns() + 20000 * MS;
	struct timespec ts = { 0, 2 * MS };

	while (gemd_threads() > want) {
		gt_assert_f(now_ns() < end, "gemd has %u threads, %u expected",
			    gemd_threads(), want);
		nanosleep(&ts, NULL);
	}
}

/* --- a client of the protocol itself ----------------------------------- */

struct raw {
	int file;		/* the file connection */
	struct gem_token token;
	int sock;		/* the channel */
	void *base;
	struct shm_client c;
};

static void raw_channel(struct raw *r)
{
	struct strbuf rep = STRBUF_INIT;
	struct wire_call call = {
		.type = GEM_MSG_SHM, .reply = &rep,
		.min_len = sizeof(struct gem_shm_reply),
		.max_len = sizeof(struct gem_shm_reply), .want_fd = true,
	};

	r->sock = channel_connect(getenv("GEM_DEVICE"), GEM_MSG_HELLO, false,
				  true, NULL, 0);
	gt_assert(r->sock >= 0);
	gt_assert_eq(wire_call(r->sock, &call), 0);
	gt_assert_eq(call.result, 0);
	r->base = mmap(NULL, GEM_SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		       call.fd, 0);
	gt_assert(r->base != MAP_FAILED);
	close(call.fd);
	strbuf_release(&rep);
	shm_client_init(&r->c, r->base);
}

static void raw_open(struct raw *r)
{
	struct gem_open_reply rep;

	r->file = channel_connect(getenv("GEM_DEVICE"), GEM_MSG_OPEN, true, true,
				  &rep, sizeof(rep));
	gt_assert(r->file >= 0);
	r->token = rep.file;
	raw_channel(r);
}

static void raw_drop_channel(struct raw *r)
{
	munmap(r->base, GEM_SHM_SIZE);
	close(r->sock);
}

/* Post a message through the ring as libgem does; its end. */
static uint32_t raw_post(struct raw *r, uint16_t type, uint16_t flags,
			 uint32_t request, const void *payload, uint32_t len)
{
	struct gem_msg_hdr hdr = {
		.magic = GEM_PROTOCOL_MAGIC, .type = type, .flags = flags,
		.len = len, .request = request, .file = r->token,
	};
	uint8_t *p;
	int err = 0;

	p = shm_client_reserve(&r->c, len, r->sock, &err);
	gt_assert(p);
	memcpy(p, &hdr, sizeof(hdr));
	if (len)
		memcpy(p + sizeof(hdr), payload, len);
	return shm_client_commit(&r->c, len);
}

/* An ioctl of a plain struct through the ring: gemd's result, the struct
 * it sent back copied over arg. */
static int raw_ioctl(struct raw *r, unsigned int cmd, void *arg, uint32_t len)
{
	struct gem_reply_hdr rh;
	uint32_t end;

	end = raw_post(r, GEM_MSG_IOCTL, 0, cmd, arg, len);
	gt_assert_eq(shm_client_wait(&r->c, end, r->sock), 0);
	memcpy(&rh, r->c.reply, sizeof(rh));
	gt_assert_eq(rh.magic, GEM_PROTOCOL_MAGIC);
	gt_assert(rh.len <= len || rh.result < 0);
	if (rh.result >= 0)
		memcpy(arg, r->c.reply + sizeof(rh), MIN(rh.len, len));
	return rh.result;
}

/* Write a header at the client's position, publish head + advance (however
 * wrong) and ring the bell, as a broken client would. */
static void raw_scribble(struct raw *r, const struct gem_msg_hdr *hdr,
			 uint32_t advance)
{
	struct gem_shm_ctl *ctl = r->c.ctl;

	if (hdr)
		memcpy(r->c.ring + r->c.head % GEM_SHM_RING_SIZE, hdr, sizeof(*hdr));
	__atomic_store_n(&ctl->head, r->c.head + advance, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&ctl->bell, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &ctl->bell, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* gemd hung up on the channel: EOF (a gemd that keeps it hangs us, and the
 * program timeout fails the test). */
static void assert_hung_up(struct raw *r)
{
	char byte;

	gt_assert_eq(recv(r->sock, &byte, 1, 0), 0);
}

/* --- the victim: a client of the same gemd that must not notice ------- */

struct victim {
	int fd;
	uint32_t obj, batch;
	uint32_t seed;
};

static void victim_start(struct victim *v, uint32_t seed)
{
	v->fd = gt_open();
	v->obj = gt_create(v->fd, 64 << 10);
	v->batch = gt_create(v->fd, 4096);
	v->seed = seed;
	free(gt_upload_pattern(v->fd, v->obj, 64 << 10, seed));
}

static void victim_check(struct victim *v)
{
	uint8_t *buf = malloc(64 << 10);
	struct gen3_batch b;
	size_t bad;
	uint32_t x = 0;

	gt_assert(buf);
	gt_read(v->fd, v->obj, 0, buf, 64 << 10);
	gt_assert_f(gt_check_pattern(buf, 64 << 10, v->seed, &bad),
		    "the victim's byte %zu changed", bad);
	free(buf);
	/* ...and its requests still run, on the GPU too. */
	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, v->obj, 0, v->seed);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(v->fd, &b, v->batch, &v->obj, NULL, 1, 0, NULL), 0);
	gt_sync(v->fd, v->obj);
	gt_read(v->fd, v->obj, 0, &x, 4);
	gt_assert_eq(x, v->seed);
	free(gt_upload_pattern(v->fd, v->obj, 64 << 10, v->seed));
}

/* --- tests -------------------------------------------------------------- */

struct worker {
	int fd;
	unsigned int id;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	uint32_t batch = gt_create(w->fd, 4096);
	uint8_t buf[8192], *ref;
	struct gen3_batch b;
	unsigned int i;
	size_t bad;
	uint32_t h, x;

	for (i = 0; i < 100; i++) {
		uint32_t seed = w->id * 1000 + i;

		h = gt_create(w->fd, sizeof(buf));
		ref = gt_upload_pattern(w->fd, h, sizeof(buf), seed);
		gt_assert(!gt_busy(w->fd, h));
		gt_read(w->fd, h, 0, buf, sizeof(buf));
		gt_assert(gt_check_pattern(buf, sizeof(buf), seed, &bad));
		gen3_batch_reset(&b);
		gen3_emit_store_dword(&b, h, 4096, seed);
		gen3_batch_end(&b);
		gt_assert_eq(gt_execbuf(w->fd, &b, batch, &h, NULL, 1, 0, NULL), 0);
		gt_sync(w->fd, h);
		gt_read(w->fd, h, 4096, &x, 4);
		gt_assert_eq(x, seed);
		free(ref);
		gt_close(w->fd, h);
	}
	gt_close(w->fd, batch);
	return NULL;
}

/* Eight threads, one file: each its own channel, every answer its own. */
static void test_threads(void)
{
	struct worker w[8];
	pthread_t t[8];
	int fd = gt_open();
	unsigned int i;

	for (i = 0; i < 8; i++) {
		w[i] = (struct worker){ fd, i };
		gt_assert_eq(pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
	}
	for (i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	gem_close(fd);
}

/* A child shares the file and the parent's maps; its requests go on a
 * channel of its own, and the parent's still works after it. */
static void test_fork(void)
{
	int fd = gt_open(), status;
	uint32_t obj = gt_create(fd, 16384), batch = gt_create(fd, 4096), x = 0;
	uint8_t buf[16384];
	uint8_t *ref = gt_upload_pattern(fd, obj, sizeof(buf), 1);
	size_t bad;
	pid_t pid;

	gt_assert(!gt_busy(fd, obj));
	fflush(NULL);
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0) {
		struct gen3_batch b;

		gt_read(fd, obj, 0, buf, sizeof(buf));
		gt_assert(gt_check_pattern(buf, sizeof(buf), 1, &bad));
		free(gt_upload_pattern(fd, obj, sizeof(buf), 2));
		gen3_batch_reset(&b);
		gen3_emit_store_dword(&b, obj, 8, 0xc41d);
		gen3_batch_end(&b);
		gt_assert_eq(gt_execbuf(fd, &b, batch, &obj, NULL, 1, 0, NULL), 0);
		gt_sync(fd, obj);
		exit(0);
	}
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	gt_read(fd, obj, 8, &x, 4);
	gt_assert_eq(x, 0xc41d);
	x = 0;
	gt_write(fd, obj, 8, &x, 4);
	free(ref);
	ref = malloc(sizeof(buf));
	gt_assert(ref);
	gt_fill_pattern(ref, sizeof(buf), 2);
	memset(ref + 8, 0, 4);
	gt_read(fd, obj, 0, buf, sizeof(buf));
	gt_assert(!memcmp(buf, ref, sizeof(buf)));
	free(ref);
	gt_close(fd, obj);
	gt_close(fd, batch);
	gem_close(fd);
}

/* 3000 relocations: more than the ring carries, sent on the socket. */
static void test_large_request(void)
{
	enum { NRELOC = 3000 };
	struct drm_i915_gem_relocation_entry *rel = calloc(NRELOC, sizeof(*rel));
	struct drm_i915_gem_exec_object2 obj[2] = { { 0 } };
	struct drm_i915_gem_execbuffer2 eb = { 0 };
	int fd = gt_open();
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 16384);
	uint32_t *dw = calloc(NRELOC + 1, 4);
	unsigned int i;

	gt_assert(rel && dw);
	dw[0] = MI_BATCH_BUFFER_END;		/* the rest is only patched */
	gt_write(fd, batch, 0, dw, (NRELOC + 1) * 4);
	for (i = 0; i < NRELOC; i++) {
		rel[i].target_handle = target;
		rel[i].offset = 4 * (i + 1);
		rel[i].delta = i;
		rel[i].presumed_offset = UINT64_MAX;
		rel[i].read_domains = I915_GEM_DOMAIN_RENDER;
	}
	obj[0].handle = target;
	obj[1].handle = batch;
	obj[1].relocation_count = NRELOC;
	obj[1].relocs_ptr = (uintptr_t)rel;
	eb.buffers_ptr = (uintptr_t)obj;
	eb.buffer_count = 2;
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
	gt_sync(fd, batch);
	gt_read(fd, batch, 0, dw, (NRELOC + 1) * 4);
	for (i = 0; i < NRELOC; i++)
		gt_assert_eq(dw[i + 1], (uint32_t)obj[0].offset + i);
	gt_assert_eq(rel[NRELOC - 1].presumed_offset, obj[0].offset);
	free(rel);
	free(dw);
	gem_close(fd);
}

/* Through the ring, a descriptor comes back on the socket. */
static void test_fd_reply(void)
{
	struct drm_i915_gem_create cr = { .size = 4096 };
	struct drm_i915_gem_pwrite pw = { 0 };
	struct gem_location loc;
	struct gem_reply_hdr rh;
	struct strbuf rep = STRBUF_INIT;
	struct wire_call call = {
		.reply = &rep, .min_len = sizeof(struct gem_arena_reply),
		.max_len = sizeof(struct gem_arena_reply), .want_fd = true,
	};
	struct raw r;
	uint8_t reply[sizeof(pw) + sizeof(loc)];
	uint32_t end;
	uint8_t one = 1;

	raw_open(&r);
	gt_assert_eq(raw_ioctl(&r, DRM_IOCTL_I915_GEM_CREATE, &cr, sizeof(cr)), 0);
	pw.handle = cr.handle;
	pw.size = 1;
	pw.data_ptr = (uintptr_t)&one;
	end = raw_post(&r, GEM_MSG_IOCTL, 0, DRM_IOCTL_I915_GEM_PWRITE, &pw, sizeof(pw));
	gt_assert_eq(shm_client_wait(&r.c, end, r.sock), 0);
	memcpy(&rh, r.c.reply, sizeof(rh));
	gt_assert_eq(rh.result, 0);
	gt_assert_eq(rh.len, sizeof(loc));	/* _IOW: only the location */
	memcpy(reply, r.c.reply + sizeof(rh), sizeof(loc));
	memcpy(&loc, reply, sizeof(loc));

	end = raw_post(&r, GEM_MSG_ARENA, 0, loc.arena, NULL, 0);
	gt_assert_eq(shm_client_wait(&r.c, end, r.sock), 0);
	memcpy(&rh, r.c.reply, sizeof(rh));
	gt_assert_eq(rh.magic, GEM_SHM_REPLY_ON_SOCKET);
	gt_assert_eq(wire_call_recv(r.sock, &call), 0);
	gt_assert_eq(call.result, 0);
	gt_assert(call.fd >= 0);
	close(call.fd);
	strbuf_release(&rep);
	raw_drop_channel(&r);
	close(r.file);
}

/*
 * Each way of breaking the ring, on a channel of its own: gemd hangs up on
 * that channel, the client's file still works through a new one, and the
 * victim notices nothing.
 */
static void test_scribble(void)
{
	static const struct {
		const char *what;
		uint32_t magic, len, advance;
		uint16_t type, flags;
		bool header;
	} bad[] = {
		{ "head misaligned", 0, 0, 12, 0, 0, false },
		{ "head a ring ahead", 0, 0, GEM_SHM_RING_SIZE + 8, 0, 0, false },
		{ "bad magic", 0xdeadbeef, 0, 24, GEM_MSG_IOCTL, 0, true },
		{ "len past head", GEM_PROTOCOL_MAGIC, 4096, 24 + 8, GEM_MSG_IOCTL, 0, true },
		{ "len of 4 GiB", GEM_PROTOCOL_MAGIC, UINT32_MAX, 24, GEM_MSG_IOCTL, 0, true },
		{ "skip short of the end", GEM_PROTOCOL_MAGIC, 8, 32, GEM_MSG_SKIP, 0, true },
		{ "unknown flags", GEM_PROTOCOL_MAGIC, 0, 24, GEM_MSG_IOCTL, 0x80, true },
		{ "noreply on arena", GEM_PROTOCOL_MAGIC, 0, 24, GEM_MSG_ARENA,
		  GEM_MSG_F_NOREPLY, true },
		{ "socket with a payload", GEM_PROTOCOL_MAGIC, 8, 32, GEM_MSG_SOCKET, 0, true },
		{ "open on a channel", GEM_PROTOCOL_MAGIC, 0, 24, GEM_MSG_OPEN, 0, true },
	};
	struct drm_i915_gem_create cr = { .size = 8192 };
	struct victim v;
	struct raw r;
	size_t i;

	victim_start(&v, 42);
	raw_open(&r);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct gem_msg_hdr hdr = {
			.magic = bad[i].magic, .type = bad[i].type,
			.flags = bad[i].flags, .len = bad[i].len, .file = r.token,
		};

		gemtest_diag("%s", bad[i].what);
		/* A request first, so the scribble lands mid-ring. */
		gt_assert_eq(raw_ioctl(&r, DRM_IOCTL_I915_GEM_CREATE, &cr, sizeof(cr)), 0);
		raw_scribble(&r, bad[i].header ? &hdr : NULL, bad[i].advance);
		assert_hung_up(&r);
		raw_drop_channel(&r);
		victim_check(&v);
		raw_channel(&r);	/* the file is untouched */
	}
	/* A request gemd cannot unpack is refused, the channel kept. */
	gt_assert_eq(raw_ioctl(&r, DRM_IOCTL_I915_GEM_CREATE, &cr, 3), -EFAULT);
	gt_assert_eq(raw_ioctl(&r, DRM_IOCTL_I915_GEM_CREATE, &cr, sizeof(cr)), 0);
	gt_assert_eq(cr.handle, ARRAY_SIZE(bad) + 1);
	raw_drop_channel(&r);
	close(r.file);
	victim_check(&v);
	gem_close(v.fd);
}

/* A client killed while gemd sleeps on its ring, half a message written. */
static void test_killed_idle(void)
{
	unsigned int before = gemd_threads();
	int pfd[2], status;
	pid_t pid;
	char c;

	gt_assert_eq(pipe(pfd), 0);
	fflush(NULL);
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0) {
		struct gem_msg_hdr hdr = { .magic = GEM_PROTOCOL_MAGIC,
					   .type = GEM_MSG_IOCTL, .len = 64 };
		struct raw r;

		raw_open(&r);
		/* Written, never published. */
		memcpy(r.c.ring, &hdr, sizeof(hdr));
		(void)!write(pfd[1], "x", 1);
		pause();
		exit(0);
	}
	gt_assert_eq(read(pfd[0], &c, 1), 1);
	kill(pid, SIGKILL);
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	wait_threads(before);
	close(pfd[0]);
	close(pfd[1]);
}

/* Waiter sequence of i915_gem_seqno: a GEM_WAIT sleeps in gemd. */
static int waiter_seqno(struct gdfs *src)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int v = -1;

	gt_assert_eq(gdfs_read(src, "i915_gem_seqno", &sb), 0);
	p = strstr(sb.buf, "Waiter sequence (render ring):");
	gt_assert(p);
	v = atoi(p + strlen("Waiter sequence (render ring):"));
	strbuf_release(&sb);
	return v;
}

/* A client killed while gemd's thread for it waits for the GPU on its
 * behalf: the wait ends (the death interrupts it, as a fatal signal does
 * in the kernel, or the spin ends), the thread goes and no waiter is left. */
static void test_killed_mid_request(void)
{
	unsigned int before;
	int pfd[2], status, fd = gt_open();
	struct drm_gem_open op = { .name = 0 };
	struct timespec ts = { 0, 2 * MS };
	int64_t timeout = 5000 * MS;
	struct gdfs *src;
	uint32_t *map;
	pid_t pid;

	gt_assert_eq(gdfs_open_socket(NULL, &src), 0);
	before = gemd_threads();
	gt_assert_eq(pipe(pfd), 0);
	fflush(NULL);
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0) {
		int cfd = gt_open();
		uint32_t target = gt_create(cfd, 4096), spin = gt_create(cfd, 4096);
		struct drm_gem_flink fl = { .handle = spin };
		struct gen3_batch b;
		int64_t forever = -1;

		gen3_batch_reset(&b);
		gen3_emit_spin(&b, spin);
		gen3_batch_pad_to(&b, GEN3_SPIN_TAIL / 4);
		gen3_batch_end(&b);
		gt_assert_eq(gt_execbuf(cfd, &b, spin, &target, NULL, 1, 0, NULL), 0);
		gt_assert_eq(gt_ioctl_errno(cfd, DRM_IOCTL_GEM_FLINK, &fl), 0);
		(void)!write(pfd[1], &fl.name, sizeof(fl.name));
		__gt_wait(cfd, target, &forever);
		exit(1);	/* never: killed first */
	}
	gt_assert_eq(read(pfd[0], &op.name, sizeof(op.name)), sizeof(op.name));
	/*
	 * Hold the spin before the kill: closing the dead client's file
	 * drops its handles and with them the flink name, as in the kernel,
	 * and that close may come before or after our GEM_OPEN.
	 */
	gt_assert_eq(gt_ioctl_errno(fd, DRM_IOCTL_GEM_OPEN, &op), 0);
	map = gt_mmap_gtt(fd, op.handle, 4096);
	while (waiter_seqno(src) == 0)
		nanosleep(&ts, NULL);
	kill(pid, SIGKILL);
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	/* End the spin: the wait returns, to a client that is gone. */
	__atomic_store_n(&map[0], MI_BATCH_BUFFER_END, __ATOMIC_SEQ_CST);
	gt_assert_eq(__gt_wait(fd, op.handle, &timeout), 0);
	munmap(map, 4096);
	gt_close(fd, op.handle);
	wait_threads(before);
	gt_assert_eq(waiter_seqno(src), 0);
	gdfs_close(src);
	gem_close(fd);
	close(pfd[0]);
	close(pfd[1]);
}

int main(int argc, char **argv)
{
	/* A spin that hangcheck ended would end a wait the test kills. */
	static const char *const args[] = { "--hangcheck", "0", NULL };

	gemtest_init(argc, argv);
	gemtest_start_gemd(args);
	gt_program_timeout(240, gemtest_gemd_pid());

	gemtest_subtest("threads-on-one-file")
		test_threads();
	gemtest_subtest("fork-shares-the-file")
		test_fork();
	gemtest_subtest("request-larger-than-the-ring")
		test_large_request();
	gemtest_subtest("descriptor-reply-from-the-ring")
		test_fd_reply();
	gemtest_subtest("scribbled-ring-loses-its-channel")
		test_scribble();
	gemtest_subtest("killed-while-idle")
		test_killed_idle();
	gemtest_subtest("killed-mid-request")
		test_killed_mid_request();
	return gemtest_exit();
}
