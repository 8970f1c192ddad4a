/*
 * gem_hang: GPU hangs end to end against a private gemd with a short
 * hangcheck period.  Each way of hanging the 945G -- a batch jumping to
 * itself, MI_WAIT_FOR_EVENT that no event ends, an invalid command, a
 * blit past the end of the GTT, a batch running off the end of the GTT,
 * a hang while another client evicts -- must be detected, captured in
 * i915_error_state with the right ACTHD and IPEHR, announced on the
 * socket (GEM_MSG_HANG_WAIT) and in gemkit_counters, decoded by
 * intel_error_decode with HEAD on the guilty dword, and recovered: the
 * guilty client told through GET_RESET_STATS, the innocent work queued
 * behind it replayed, every other object byte-identical.
 *
 * GEM_HANG_PERIOD_MS (default 250) sets gemd's --hangcheck, so that the
 * detection latencies this prints can be measured for other periods.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gemcontrol.h"
#include "gemdebugfs.h"
#include "gemtest.h"
#include "gemtest-batch.h"
#include "libgem.h"
#include "strbuf.h"
#include "util.h"

#define APERTURE		(16u << 20)
#define BAD_COMMAND		0x23456789u	/* client 1: nothing on gen3 */
#define XY_COLOR_BLT_32		(XY_COLOR_BLT_CMD | XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB)
#define VICTIM_VALUE		0x600dda7au

static unsigned int period_ms = 250;
static const char *device;
static struct gdfs *dfs;

/* --- driver state through the socket ---------------------------------- */

static uint64_t counter(const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	struct gdfs_counters c;
	uint64_t v;

	gt_assert_eq(gdfs_read(dfs, "gemkit_counters", &sb), 0);
	gt_assert_eq(gdfs_parse_counters(sb.buf, sb.len, &c, NULL), 0);
	gt_assert_f(gdfs_counter(&c, key, &v), "no counter %s", key);
	gdfs_counters_release(&c);
	strbuf_release(&sb);
	return v;
}

static void clear_error_state(void)
{
	struct strbuf sb = STRBUF_INIT;

	gt_assert_eq(gdfs_write(dfs, "i915_error_state", "1\n", 2), 2);
	gt_assert_eq(gdfs_read(dfs, "i915_error_state", &sb), 0);
	gt_assert_f(!strcmp(sb.buf, "no error state collected\n"), "%s", sb.buf);
	strbuf_release(&sb);
}

static void read_error_state(struct strbuf *text, struct gdfs_error_state *e)
{
	struct strbuf err = STRBUF_INIT;

	strbuf_reset(text);
	gt_assert_eq(gdfs_read(dfs, "i915_error_state", text), 0);
	gt_assert_f(gdfs_parse_error_state(text->buf, text->len, e, &err) == 0,
		    "%s in:\n%.3000s", err.buf, text->buf);
	gt_assert(e->present);
	strbuf_release(&err);
}

/* GEM_MSG_HANG_WAIT on a channel of our own: gemd's answer, or the
 * -errno of not reaching it. */
static int hang_wait(uint64_t after, uint32_t timeout_ms, struct gdfs_hang *ev)
{
	struct gdfs_control *ctl;
	int ret, result;

	ret = gdfs_control_open(device, &ctl);
	if (ret)
		return ret;
	ret = gdfs_hang_wait(ctl, after, timeout_ms, NULL, ev, &result);
	gdfs_control_close(ctl);
	return ret ? ret : result;
}

static void reset_stats(int fd, struct drm_i915_reset_stats *rs)
{
	memset(rs, 0, sizeof(*rs));
	gt_assert_eq(gem_ioctl(fd, DRM_IOCTL_I915_GET_RESET_STATS, rs), 0);
}

/* This process's comm, as gemd learnt it. */
static const char *my_comm(void)
{
	static char comm[32];
	FILE *f = fopen("/proc/self/comm", "r");

	gt_assert(f);
	gt_assert(fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	comm[15] = '\0';
	return comm;
}

/* --- intel_error_decode ------------------------------------------------ */

static bool have_tool(const char *path)
{
	return access(path, X_OK) == 0;
}

static char *save_text(const struct strbuf *text, const char *name)
{
	static char file[512];
	FILE *f;

	snprintf(file, sizeof(file), "%s/%s", gemtest_tmpdir(), name);
	f = fopen(file, "w");
	gt_assert(f);
	gt_assert_eq(fwrite(text->buf, 1, text->len, f), text->len);
	gt_assert_eq(fclose(f), 0);
	return file;
}

/* Decode the capture: GEN3, and (if head) HEAD on the dword at head. */
static void check_decode(const struct strbuf *text, bool want_head, uint32_t head)
{
	char cmd[1200], line[1024], marker[64];
	bool gen3 = false, marked = false;
	const char *file;
	FILE *out;

	if (!have_tool("/usr/bin/intel_error_decode")) {
		gemtest_diag("intel_error_decode not installed: decode not checked");
		return;
	}
	file = save_text(text, "error_state.txt");
	snprintf(marker, sizeof(marker), "0x%08x: HEAD 0x", head);
	snprintf(cmd, sizeof(cmd), "intel_error_decode %s 2>&1", file);
	out = popen(cmd, "r");
	gt_assert(out);
	while (fgets(line, sizeof(line), out)) {
		if (strstr(line, "Detected GEN3 chipset"))
			gen3 = true;
		if (!strncmp(line, marker, strlen(marker)))
			marked = true;
	}
	gt_assert_eq(WEXITSTATUS(pclose(out)), 0);
	gt_assert(gen3);
	if (want_head)
		gt_assert_f(marked, "no '%s' line in the decode of %s", marker, file);
}

/* --- the victim: another client whose work and memory must survive ---- */

struct victim {
	struct gen3_batch b;
	int fd;
	uint32_t keep, target, batch;	/* keep: 64 KiB it never lets the GPU write */
	uint8_t *ref;
};

static void victim_init(struct victim *v)
{
	struct gen3_batch *b = &v->b;
	uint32_t zero = 0;

	v->fd = gt_open();
	v->keep = gt_create(v->fd, 65536);
	v->target = gt_create(v->fd, 4096);
	v->batch = gt_create(v->fd, 4096);
	v->ref = gt_upload_pattern(v->fd, v->keep, 65536, 0x5eed);
	/* Bind everything once, so that its replay later binds nothing new. */
	gen3_batch_reset(b);
	gen3_emit_store_dword(b, v->target, 0, VICTIM_VALUE);
	gen3_batch_end(b);
	gt_assert_eq(gt_execbuf(v->fd, b, v->batch, (uint32_t[]){ v->target, v->keep },
				     NULL, 2, 0, NULL), 0);
	gt_sync(v->fd, v->target);
	gt_write(v->fd, v->target, 0, &zero, 4);
}

/* Queue the victim's store again (behind whatever the GPU is doing). */
static void victim_queue(struct victim *v)
{
	gen3_batch_reset(&v->b);
	gen3_emit_store_dword(&v->b, v->target, 0, VICTIM_VALUE);
	gen3_batch_end(&v->b);
	gt_assert_eq(gt_execbuf(v->fd, &v->b, v->batch,
				     (uint32_t[]){ v->target, v->keep }, NULL, 2, 0,
				     NULL), 0);
}

static void victim_check(struct victim *v, bool replayed)
{
	uint8_t *now = malloc(65536);
	uint32_t val = 0;

	gt_assert(now);
	gt_sync(v->fd, v->target);
	gt_read(v->fd, v->target, 0, &val, 4);
	gt_assert_eq(val, replayed ? VICTIM_VALUE : 0);
	gt_read(v->fd, v->keep, 0, now, 65536);
	gt_assert_f(!memcmp(now, v->ref, 65536), "the victim's object changed");
	free(now);
}

static void victim_fini(struct victim *v)
{
	free(v->ref);
	gem_close(v->fd);
}

/* --- one hang, start to finish ----------------------------------------- */

struct hang {
	const char *kind;		/* expected gdfs_hang.kind */
	uint32_t acthd_dw;		/* ACTHD = batch offset + 4 * this */
	uint32_t ipehr;
	bool fault;			/* PGTBL_ER set */
	uint32_t faddr;			/* FADDR when the CS stopped (0: ACTHD) */
	bool head_in_batch;		/* intel_error_decode marks HEAD in the dump */
	struct gen3_batch b;
	uint32_t extra;			/* an object the batch also lists, or 0 */
	uint32_t batch_size;		/* default 4096 */
	uint64_t pin_at;		/* the batch's GTT offset (softpin), 0: any */
	bool gated;			/* starts with a spin the test ends */
};

/*
 * Errors the command streamer latches are caught at once, before the
 * victim can queue anything behind the guilty batch.  So such batches
 * start with a jump to themselves that holds the GPU until the victim's
 * work is queued; run_hang then ends it by writing MI_NOOP over it (the
 * jump's address dword then parses as an MI_NOOP too).
 */
static void gate(struct hang *h)
{
	gen3_batch_reset(&h->b);
	gen3_emit_spin(&h->b, 1);
	h->gated = true;
}

static void check_batch_dump(const struct gdfs_error_state *e, uint32_t offset,
			     const struct gen3_batch *b)
{
	unsigned int k;
	size_t i;

	for (i = 0; i < e->nbuffers; i++) {
		const struct gdfs_err_buffer *buf = &e->buffers[i];

		if (strcmp(buf->name, "batch") || buf->gtt_offset != offset)
			continue;
		gt_assert_eq(buf->ndwords, 1024);
		for (k = 0; k < b->len; k++) {
			bool reloc = false;
			unsigned int r;

			for (r = 0; r < b->nreloc; r++)
				reloc |= b->reloc[r].offset == 4 * k;
			gt_assert_f(reloc || buf->dwords[k] == b->dw[k],
				    "dumped dword %u is 0x%08x, submitted 0x%08x",
				    k, buf->dwords[k], b->dw[k]);
		}
		gt_assert(!strcmp(buf->ring, "render ring"));
		return;
	}
	__gemtest_fail(__FILE__, __LINE__, "no batch dump at 0x%08x", offset);
}

/* What the error state and the event must say about a hang at acthd. */
static void check_capture(const struct hang *h, const struct gdfs_hang *ev,
			  uint32_t batch_off, uint32_t acthd)
{
	struct strbuf text = STRBUF_INIT;
	struct gdfs_error_state e;
	size_t i;
	bool ring = false;

	read_error_state(&text, &e);
	gt_assert_eq(e.pci_id, 0x2772);
	gt_assert_eq(e.nfences, 16);
	gt_assert(e.has_ring_regs);
	gt_assert_eq(e.acthd, acthd);
	gt_assert_eq(e.ipehr, h->ipehr);
	gt_assert_eq(e.ipehr, ev->ipehr);
	gt_assert_eq(!!e.pgtbl_er, h->fault);
	gt_assert_eq(!!(e.eir & 0x10), h->fault);
	/* What faulted, or the command that stopped the parser. */
	gt_assert(e.has_faddr);
	if (h->fault || !strcmp(h->kind, "badop"))
		gt_assert_eq(e.faddr, h->faddr ? h->faddr : acthd);
	gt_assert_eq(e.instdone & (1u << 26), 0);	/* the parser is busy */
	gt_assert(!strcmp(e.hang_kind, h->kind));
	gt_assert_eq(e.guilty_pid, getpid());
	gt_assert_eq(e.guilty_seqno, ev->seqno);
	gt_assert_eq(e.guilty_file, ev->file);
	gt_assert_eq(e.hang_seq, ev->seq);
	gt_assert_f(!strcmp(e.guilty_comm, my_comm()), "comm '%s', expected '%s'",
		    e.guilty_comm, my_comm());
	gt_assert(e.nactive >= 1);
	gt_assert(e.npinned >= 1);	/* the ring */
	gt_assert(e.nrequests >= 1);
	gt_assert_eq(e.requests[0].seqno, ev->seqno);
	check_batch_dump(&e, batch_off, &h->b);
	for (i = 0; i < e.nbuffers; i++)
		if (!strcmp(e.buffers[i].name, "ring")) {
			gt_assert_eq(e.buffers[i].ndwords, 32768);
			ring = true;
		}
	gt_assert(ring);
	check_decode(&text, h->head_in_batch, acthd);
	gdfs_error_state_release(&e);
	strbuf_release(&text);
}

static void report_latency(const struct gdfs_hang *ev)
{
	gemtest_diag("%s: detected %.1f ms after submission, hangcheck period %u ms "
		     "(%.2f periods)", ev->kind, (double)ev->detect_ns / 1e6, period_ms,
		     (double)ev->detect_ns / 1e6 / period_ms);
	/* The bound is two periods; the VM is noisy, so only a
	 * generous multiple is asserted. */
	gt_assert_f(ev->detect_ns < 20ull * period_ms * 1000000ull,
		    "detected after %" PRIu64 " ms", ev->detect_ns / 1000000);
}

static void run_hang(struct hang *h)
{
	struct drm_i915_reset_stats rs, vrs0, vrs;
	struct gdfs_hang ev;
	struct victim v;
	uint64_t hangs = counter("hangs"), resets = counter("resets");
	uint64_t offsets[2];
	uint32_t batch, handles[1], *map = NULL;
	int fd = gt_open();
	uint32_t acthd;
	struct gen3_exec x = { .handles = handles, .n = 1, .batch_pin = h->pin_at };

	clear_error_state();
	victim_init(&v);
	reset_stats(v.fd, &vrs0);
	batch = gt_create(fd, h->batch_size ? h->batch_size : 4096);
	handles[0] = h->extra ? h->extra : gt_create(fd, 4096);
	if (h->gated)
		map = gt_mmap_cpu(fd, batch, 0, 4096);
	x.batch = batch;
	gt_assert_eq(gen3_batch_submit(gem_ioctl, fd, &h->b, &x, offsets), 0);
	victim_queue(&v);
	if (map) {
		__atomic_store_n(&map[0], MI_NOOP, __ATOMIC_SEQ_CST);
		h->b.dw[0] = MI_NOOP;
		munmap(map, 4096);
	}

	gt_assert_eq(hang_wait(hangs, 30000, &ev), 0);
	acthd = (uint32_t)offsets[1] + 4 * h->acthd_dw;
	gt_assert_eq(ev.seq, hangs + 1);
	gt_assert_f(!strcmp(ev.kind, h->kind), "kind %s, expected %s", ev.kind, h->kind);
	gt_assert_eq(ev.acthd, acthd);
	gt_assert_eq(ev.ipehr, h->ipehr);
	gt_assert_eq(ev.pid, getpid());
	gt_assert_eq(ev.recovered, 1);
	gt_assert(ev.seqno != 0);
	report_latency(&ev);
	gt_assert_eq(counter("hangs"), hangs + 1);
	gt_assert_eq(counter("resets"), resets + 1);

	check_capture(h, &ev, (uint32_t)offsets[1], acthd);

	/* Waits on the guilty batch return; the innocent work was replayed. */
	gt_sync(fd, batch);
	gt_assert(!gt_busy(fd, handles[0]));
	victim_check(&v, true);
	reset_stats(fd, &rs);
	gt_assert_eq(rs.batch_active, 1);
	gt_assert_eq(rs.batch_pending, 0);
	gt_assert_eq(rs.reset_count, resets + 1);
	/* Replayed, not interrupted: nothing charged (Linux 6.1). */
	reset_stats(v.fd, &vrs);
	gt_assert_eq(vrs.batch_active, 0);
	gt_assert_eq(vrs.batch_pending, vrs0.batch_pending);

	/* The guilty file is not banned after one hang: it still works. */
	gen3_batch_reset(&h->b);
	gen3_emit_store_dword(&h->b, handles[0], 0, 0xc0ffee);
	gen3_batch_end(&h->b);
	gt_assert_eq(gt_execbuf(fd, &h->b, gt_create(fd, 4096), handles, NULL, 1, 0,
				     NULL), 0);
	gt_sync(fd, handles[0]);
	gt_read(fd, handles[0], 0, &acthd, 4);
	gt_assert_eq(acthd, 0xc0ffee);
	victim_fini(&v);
	gem_close(fd);
}

/* --- the ways to hang --------------------------------------------------- */

static void test_loop(void)
{
	struct hang h = { .kind = "hangcheck", .acthd_dw = 4,
			  .ipehr = MI_BATCH_BUFFER_START_GTT, .head_in_batch = true };

	/* The relocation names the batch itself, by the handle it will have:
	 * run_hang creates it first in a fresh file, so handle 1. */
	gen3_batch_reset(&h.b);
	gen3_batch_pad_to(&h.b, 4);
	gen3_emit_spin(&h.b, 1);
	gen3_batch_end(&h.b);
	run_hang(&h);
}

static void test_wait_for_event(void)
{
	struct hang h = { .kind = "hangcheck", .acthd_dw = 1,
			  .ipehr = MI_WAIT_FOR_EVENT, .head_in_batch = true };

	gen3_batch_reset(&h.b);
	gen3_batch_emit(&h.b, MI_NOOP);
	gen3_batch_emit(&h.b, MI_WAIT_FOR_EVENT);
	gen3_batch_emit(&h.b, MI_BATCH_BUFFER_START_GTT);	/* back to the wait */
	gen3_batch_emit_reloc(&h.b, 1, 4 | MI_BATCH_NON_SECURE, I915_GEM_DOMAIN_COMMAND, 0);
	gen3_batch_end(&h.b);
	run_hang(&h);
}

/* A single MI_WAIT_FOR_EVENT is kicked (kick_ring) and completes: no hang. */
static void test_wait_kicked(void)
{
	int fd = gt_open();
	uint32_t target = gt_create(fd, 4096), batch = gt_create(fd, 4096), v = 0;
	uint64_t hangs = counter("hangs");
	struct gen3_batch b;

	gen3_batch_reset(&b);
	gen3_batch_emit(&b, MI_WAIT_FOR_EVENT);
	gen3_emit_store_dword(&b, target, 0, 0x4b1c4ed);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, NULL), 0);
	gt_sync(fd, target);
	gt_read(fd, target, 0, &v, 4);
	gt_assert_eq(v, 0x4b1c4ed);
	gt_assert_eq(counter("hangs"), hangs);
	gem_close(fd);
}

static void test_bad_opcode(void)
{
	struct hang h = { .kind = "badop", .acthd_dw = 3, .ipehr = BAD_COMMAND,
			  .head_in_batch = true };

	gate(&h);
	gen3_batch_emit(&h.b, MI_NOOP);
	gen3_batch_emit(&h.b, BAD_COMMAND);
	gen3_batch_end(&h.b);
	run_hang(&h);
}

/*
 * Only GTT addresses beyond the aperture fault: the kernel points every
 * unbound entry inside it at the scratch page (gem_scratch tests that).
 */
static void test_blit_past_aperture(void)
{
	struct hang h = { .kind = "fault", .acthd_dw = 3, .ipehr = XY_COLOR_BLT_32,
			  .fault = true, .head_in_batch = true };

	gate(&h);
	gen3_batch_emit(&h.b, MI_NOOP);
	gen3_batch_emit(&h.b, XY_COLOR_BLT_32);
	gen3_batch_emit(&h.b, BR13_32BPP | BR13_ROP(ROP_PATCOPY) | 4096);
	gen3_batch_emit(&h.b, 0);
	gen3_batch_emit(&h.b, (16u << 16) | 16);
	gen3_batch_emit(&h.b, APERTURE);	/* no relocation */
	gen3_batch_emit(&h.b, 0xffff0000);
	gen3_batch_end(&h.b);
	h.faddr = APERTURE;	/* its first pixel */
	run_hang(&h);
}

static void test_past_end(void)
{
	struct hang h = { .kind = "fault", .acthd_dw = 1024, .ipehr = 0,
			  .fault = true, .head_in_batch = false,
			  .pin_at = APERTURE - 4096 };

	/* A page of MI_NOOP and no MI_BATCH_BUFFER_END in the GTT's last
	 * page: the parser runs past the end of the GTT.  Not gated: at
	 * 0x00fff000 the jump's address dword parses as MI opcode 1, so the
	 * victim's work may run before the fault, or be replayed after it. */
	gen3_batch_reset(&h.b);
	gen3_batch_pad_to(&h.b, 1024);
	run_hang(&h);
}

/*
 * A hang while another process evicts: it cycles 24 objects of 1 MiB
 * through a 16 MiB aperture, reading them with the GPU, and checks every
 * byte of them at the end.
 */
#define EVICT_OBJS	24
#define EVICT_SIZE	(1u << 20)

static int evictor(volatile int *stop)
{
	int fd = gem_open(device, O_RDWR), i, bad = 0;
	uint32_t obj[EVICT_OBJS], batch;
	uint8_t *buf = malloc(EVICT_SIZE);
	struct gen3_batch b;

	if (fd < 0 || !buf)
		return 2;
	for (i = 0; i < EVICT_OBJS; i++) {
		struct drm_i915_gem_create c = { .size = EVICT_SIZE };
		struct drm_i915_gem_pwrite w = { 0 };

		if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c))
			return 3;
		obj[i] = c.handle;
		gt_fill_pattern(buf, EVICT_SIZE, 1000u + (uint32_t)i);
		w.handle = obj[i];
		w.size = EVICT_SIZE;
		w.data_ptr = (uintptr_t)buf;
		if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &w))
			return 4;
	}
	{
		struct drm_i915_gem_create c = { .size = 4096 };

		if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c))
			return 5;
		batch = c.handle;
	}
	gen3_batch_reset(&b);
	gen3_batch_end(&b);
	for (i = 0; !*stop && i < 100000; i++) {
		uint32_t set[6];
		int k;

		for (k = 0; k < 6; k++)
			set[k] = obj[(i * 6 + k) % EVICT_OBJS];
		if (gt_execbuf(fd, &b, batch, set, NULL, 6, 0, NULL))
			return 6;
	}
	for (i = 0; i < EVICT_OBJS; i++) {
		struct drm_i915_gem_pread r = {
			.handle = obj[i], .size = EVICT_SIZE, .data_ptr = (uintptr_t)buf,
		};

		if (gem_ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &r) ||
		    !gt_check_pattern(buf, EVICT_SIZE, 1000u + (uint32_t)i, NULL))
			bad++;
	}
	free(buf);
	gem_close(fd);
	return bad ? 7 : 0;
}

static void test_evict(void)
{
	struct hang h = { .kind = "hangcheck", .acthd_dw = 0,
			  .ipehr = MI_BATCH_BUFFER_START_GTT, .head_in_batch = true };
	volatile int *stop = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint64_t evictions = counter("evictions");
	int status;
	pid_t pid;

	gt_assert(stop != MAP_FAILED);
	*stop = 0;
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0)
		_exit(evictor(stop));
	usleep(200 * 1000);
	gen3_batch_reset(&h.b);
	gen3_emit_spin(&h.b, 1);
	gen3_batch_end(&h.b);
	run_hang(&h);
	*stop = 1;
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "the evicting client failed (status 0x%x)", status);
	gt_assert(counter("evictions") > evictions);
	munmap((void *)stop, 4096);
}

/* A file that hangs the GPU three times within 120 s is banned. */
static void test_ban(void)
{
	int fd = gt_open(), other = gt_open();
	uint32_t probe = gt_create(other, 4096), v = 0;
	struct drm_i915_reset_stats rs;
	struct gdfs_hang ev;
	struct gen3_batch b;
	int i;

	/* Banned on the third hang within 120 s (mark_guilty), not before. */
	for (i = 0; i < 3; i++) {
		uint64_t hangs = counter("hangs");

		gen3_batch_reset(&b);
		gen3_batch_emit(&b, BAD_COMMAND);
		gen3_batch_end(&b);
		gt_assert_eq(gt_execbuf(fd, &b, gt_create(fd, 4096), NULL, NULL,
					     0, 0, NULL), 0);
		gt_assert_eq(hang_wait(hangs, 30000, &ev), 0);
	}
	reset_stats(fd, &rs);
	gt_assert_eq(rs.batch_active, 3);
	gen3_batch_reset(&b);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, gt_create(fd, 4096), NULL, NULL, 0, 0, NULL),
		     -EIO);
	/* Everyone else carries on. */
	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, probe, 0, 0xa11ce);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(other, &b, gt_create(other, 4096), &probe, NULL,
				     1, 0, NULL), 0);
	gt_sync(other, probe);
	gt_read(other, probe, 0, &v, 4);
	gt_assert_eq(v, 0xa11ce);
	gem_close(fd);
	gem_close(other);
}

/* Writing i915_wedged forces error handling: capture, reset, carry on. */
static void test_wedged_write(void)
{
	int fd = gt_open();
	uint32_t spin = gt_create(fd, 4096), target = gt_create(fd, 4096), v = 0;
	uint64_t hangs = counter("hangs");
	struct strbuf sb = STRBUF_INIT;
	struct gdfs_hang ev;
	struct gen3_batch b;

	clear_error_state();
	gen3_batch_reset(&b);
	gen3_emit_spin(&b, spin);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, spin, NULL, NULL, 0, 0, NULL), 0);
	gt_assert_eq(gdfs_write(dfs, "i915_wedged", "1\n", 2), 2);
	gt_assert_eq(hang_wait(hangs, 30000, &ev), 0);
	gt_assert(!strcmp(ev.kind, "wedged"));
	gt_assert_eq(ev.recovered, 1);
	gt_assert(ev.seqno != 0);
	gt_sync(fd, spin);
	gt_assert_eq(gdfs_read(dfs, "i915_wedged", &sb), 0);
	gt_assert(!strcmp(sb.buf, "wedged :  0\n"));
	gen3_batch_reset(&b);
	gen3_emit_store_dword(&b, target, 0, 0x5a5a);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, gt_create(fd, 4096), &target, NULL, 1, 0,
				     NULL), 0);
	gt_sync(fd, target);
	gt_read(fd, target, 0, &v, 4);
	gt_assert_eq(v, 0x5a5a);
	strbuf_release(&sb);
	gem_close(fd);
}

struct waiter {
	int ret;
	struct gdfs_hang ev;
};

static void *wait_next(void *arg)
{
	struct waiter *w = arg;

	w->ret = hang_wait(GDFS_HANG_NEXT, 30000, &w->ev);
	return NULL;
}

/* GEM_MSG_HANG_WAIT: times out, and a waiter gets the next hang. */
static void test_hang_wait(void)
{
	struct gdfs_hang ev;
	struct waiter w = { 1 };
	pthread_t thread;
	uint64_t hangs = counter("hangs"), t0 = now_ns();
	int fd = gt_open();
	struct gen3_batch b;

	gt_assert_eq(hang_wait(hangs, 200, &ev), -ETIMEDOUT);
	gt_assert(now_ns() - t0 >= 150ull * 1000000);
	gt_assert_eq(pthread_create(&thread, NULL, wait_next, &w), 0);
	usleep(300 * 1000);	/* let it block first */
	gen3_batch_reset(&b);
	gen3_batch_emit(&b, BAD_COMMAND);
	gen3_batch_end(&b);
	gt_assert_eq(gt_execbuf(fd, &b, gt_create(fd, 4096), NULL, NULL, 0, 0, NULL), 0);
	pthread_join(thread, NULL);
	gt_assert_eq(w.ret, 0);
	gt_assert_eq(w.ev.seq, hangs + 1);
	gt_assert(!strcmp(w.ev.kind, "badop"));
	/* Asking for what is past returns the oldest newer one kept. */
	gt_assert_eq(hang_wait(hangs, 1000, &ev), 0);
	gt_assert_eq(ev.seq, hangs + 1);
	gem_close(fd);
}

/* The first error is kept until cleared. */
static void test_first_kept(void)
{
	struct strbuf text = STRBUF_INIT;
	struct gdfs_error_state e;
	struct gdfs_hang ev;
	uint64_t hangs;
	struct gen3_batch b;
	int i, fd;

	clear_error_state();
	for (i = 0; i < 2; i++) {
		fd = gt_open();
		hangs = counter("hangs");
		gen3_batch_reset(&b);
		gen3_batch_emit(&b, i ? MI_NOOP : BAD_COMMAND);
		gen3_batch_emit(&b, BAD_COMMAND);
		gen3_batch_end(&b);
		gt_assert_eq(gt_execbuf(fd, &b, gt_create(fd, 4096), NULL, NULL, 0,
					     0, NULL), 0);
		gt_assert_eq(hang_wait(hangs, 30000, &ev), 0);
		gem_close(fd);
	}
	read_error_state(&text, &e);
	gt_assert_eq(e.hang_seq, ev.seq - 1);
	gdfs_error_state_release(&e);
	clear_error_state();
	strbuf_release(&text);
}

/* 100 hangs in a row: no leak, and a driver that still works. */
static void test_hundred(void)
{
	uint64_t objects = counter("objects"), bytes = counter("object_bytes");
	uint64_t resets = counter("resets");
	struct gdfs_hang ev;
	struct gen3_batch b;
	int i;

	for (i = 0; i < 100; i++) {
		int fd = gt_open();
		uint32_t batch = gt_create(fd, 4096), target = gt_create(fd, 4096);
		uint64_t hangs = counter("hangs");

		gen3_batch_reset(&b);
		if (i % 10 == 0)
			gen3_emit_spin(&b, batch);	/* hangcheck */
		else if (i % 2)
			gen3_batch_emit(&b, BAD_COMMAND);
		else
			gen3_emit_store_dword(&b, target, 1u << 30, 1);	/* fault */
		gen3_batch_end(&b);
		gt_assert_eq(gt_execbuf(fd, &b, batch, &target, NULL, 1, 0, NULL), 0);
		gt_assert_eq(hang_wait(hangs, 30000, &ev), 0);
		gt_assert_eq(ev.recovered, 1);
		gt_sync(fd, batch);
		if (i % 25 == 24)
			clear_error_state();
		gem_close(fd);
	}
	gt_assert_eq(counter("resets"), resets + 100);
	/* Every file and its objects went away (closing is seen at EOF). */
	for (i = 0; i < 100 && counter("objects") != objects; i++)
		usleep(20 * 1000);
	gt_assert_eq(counter("objects"), objects);
	gt_assert_eq(counter("object_bytes"), bytes);
	{
		int fd = gt_open();
		uint32_t target = gt_create(fd, 4096), v = 0;

		gen3_batch_reset(&b);
		gen3_emit_store_dword(&b, target, 0, 0x100);
		gen3_batch_end(&b);
		gt_assert_eq(gt_execbuf(fd, &b, gt_create(fd, 4096), &target, NULL,
					     1, 0, NULL), 0);
		gt_sync(fd, target);
		gt_read(fd, target, 0, &v, 4);
		gt_assert_eq(v, 0x100);
		gem_close(fd);
	}
}

/* intel_error_decode runs valgrind-clean on a capture. */
static void test_decode_valgrind(void)
{
	struct strbuf text = STRBUF_INIT;
	struct gdfs_error_state e;
	char cmd[1400], line[512];
	bool clean = false;
	const char *file;
	FILE *out;

	if (!have_tool("/usr/bin/valgrind") || !have_tool("/usr/bin/intel_error_decode"))
		gemtest_skip("valgrind or intel_error_decode is not installed");
	test_bad_opcode();
	read_error_state(&text, &e);
	file = save_text(&text, "valgrind.txt");
	snprintf(cmd, sizeof(cmd), "valgrind --error-exitcode=99 --leak-check=no "
		 "intel_error_decode %s 2>&1 >/dev/null", file);
	out = popen(cmd, "r");
	gt_assert(out);
	while (fgets(line, sizeof(line), out))
		if (strstr(line, "ERROR SUMMARY: 0 errors"))
			clean = true;
	gt_assert_eq(WEXITSTATUS(pclose(out)), 0);
	gt_assert(clean);
	gdfs_error_state_release(&e);
	strbuf_release(&text);
}

int main(int argc, char **argv)
{
	char period[16], aperture[16];
	const char *args[] = { "--no-debugfs", "--hangcheck", period,
			       "--aperture", aperture, NULL };
	const char *env = getenv("GEM_HANG_PERIOD_MS");

	gemtest_init(argc, argv);
	if (env && atoi(env) > 0)
		period_ms = (unsigned int)atoi(env);
	/* A bare number would be seconds: every duration is (util.h). */
	snprintf(period, sizeof(period), "%ums", period_ms);
	snprintf(aperture, sizeof(aperture), "%uM", APERTURE >> 20);
	device = gemtest_start_gemd(args);
	gt_program_timeout(600, gemtest_gemd_pid());
	gt_assert_eq(gdfs_open_socket(device, &dfs), 0);

	gemtest_subtest("loop")
		test_loop();
	gemtest_subtest("wait-for-event")
		test_wait_for_event();
	gemtest_subtest("wait-kicked")
		test_wait_kicked();
	gemtest_subtest("bad-opcode")
		test_bad_opcode();
	gemtest_subtest("blit-past-aperture")
		test_blit_past_aperture();
	gemtest_subtest("past-end")
		test_past_end();
	gemtest_subtest("evict")
		test_evict();
	gemtest_subtest("ban")
		test_ban();
	gemtest_subtest("wedged-write")
		test_wedged_write();
	gemtest_subtest("hang-wait")
		test_hang_wait();
	gemtest_subtest("first-kept")
		test_first_kept();
	gemtest_subtest("hundred")
		test_hundred();
	gemtest_subtest("decode-valgrind")
		test_decode_valgrind();

	gdfs_close(dfs);
	return gemtest_exit();
}
