/* Unit tests of the 945G model through gpu.h: ring, MI, errors, blitter, 3D
 * commands (the 3D pipeline's pixels are tested in test-3d). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "gemtest.h"
#include "gpu.h"

#define RING_GTT	0x00020000u
#define RING_SIZE	(16u << 10)
#define BATCH_GTT	0x00100000u
#define DATA_GTT	0x00200000u
#define SURF_GTT	0x00400000u
#define SURF2_GTT	0x00800000u
#define FENCED_GTT	0x01000000u
#define APERTURE	(64u << 20)

/* The headers as these tests emit them (lib/gen3/cmd.h). */
#define MI_WAIT_FOR_PLANE_A	(MI_WAIT_FOR_EVENT | MI_WAIT_FOR_PLANE_A_FLIP)

#define SEQNO_INDEX		I915_GEM_HWS_INDEX
#define INSTDONE_BUSY		0x7bffffc0u

struct tgpu {
	struct gpu *gpu;
	uint32_t *ring;
	uint32_t tail;
	void *allocs[16];
	int nallocs;
	uint32_t seqno;
};

static atomic_int user_irqs, error_irqs;
static struct gpu *reset_from_irq;	/* error_interrupt resets this GPU */
static atomic_int irq_resets;		/* ... and counts it done */

static void on_user(void *data)
{
	atomic_fetch_add(&user_irqs, 1);
}

static void on_error(void *data)
{
	atomic_fetch_add(&error_irqs, 1);
	if (reset_from_irq) {
		gpu_reset(reset_from_irq);
		atomic_fetch_add(&irq_resets, 1);
	}
}

static const struct gpu_ops test_ops = {
	.user_interrupt = on_user,
	.error_interrupt = on_error,
};

static uint32_t rng_state;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *t_bind(struct tgpu *t, uint32_t gtt, uint32_t size)
{
	void *p = aligned_alloc(GTT_PAGE_SIZE, size);

	gt_assert(p && t->nallocs < 16);
	memset(p, 0, size);
	t->allocs[t->nallocs++] = p;
	gpu_gtt_bind(t->gpu, gtt, p, size);
	return p;
}

static void t_ring_program(struct tgpu *t)
{
	t->tail = 0;
	gpu_write(t->gpu, PRB0_CTL, 0);
	gpu_write(t->gpu, PRB0_HEAD, 0);
	gpu_write(t->gpu, PRB0_TAIL, 0);
	gpu_write(t->gpu, PRB0_START, RING_GTT);
	gpu_write(t->gpu, PRB0_CTL, ((RING_SIZE - 4096) & RING_NR_PAGES) | RING_VALID);
}

static void t_init_cfg(struct tgpu *t, const struct gpu_config *cfg)
{
	memset(t, 0, sizeof(*t));
	atomic_store(&user_irqs, 0);
	atomic_store(&error_irqs, 0);
	rng_state = 0x12345678;
	t->gpu = gpu_create(cfg, &test_ops, NULL);
	gt_assert(t->gpu);
	t->ring = t_bind(t, RING_GTT, RING_SIZE);
	t_ring_program(t);
}

static void t_init(struct tgpu *t)
{
	struct gpu_config cfg = { .aperture_size = APERTURE };

	t_init_cfg(t, &cfg);
}

static void t_fini(struct tgpu *t)
{
	int i;

	gpu_destroy(t->gpu);
	for (i = 0; i < t->nallocs; i++)
		free(t->allocs[i]);
}

static void t_emit(struct tgpu *t, uint32_t dw)
{
	t->ring[t->tail / 4] = dw;
	t->tail = (t->tail + 4) % RING_SIZE;
}

/* TAIL is qword aligned: pad with MI_NOOP, then let the CS see it. */
static void t_advance(struct tgpu *t)
{
	if (t->tail & 4)
		t_emit(t, MI_NOOP);
	gpu_write(t->gpu, PRB0_TAIL, t->tail);
}

static void t_emit_seqno(struct tgpu *t, uint32_t seqno)
{
	t_emit(t, MI_STORE_DWORD_INDEX);
	t_emit(t, SEQNO_INDEX << 2);
	t_emit(t, seqno);
	t_emit(t, MI_USER_INTERRUPT);
}

static bool t_wait(struct tgpu *t, bool (*cond)(struct gpu *), int ms)
{
	uint64_t end = mono_ns() + (uint64_t)ms * 1000000ull;

	while (!cond(t->gpu)) {
		if (mono_ns() > end)
			return false;
		sleep_us(20);
	}
	return true;
}

static bool idle_or_stopped(struct gpu *gpu)
{
	return gpu_idle(gpu) || gpu_stopped(gpu);
}

/* The GPU stops before its error interrupt resets it: wait for the reset. */
static bool reset_in_irq_done(struct gpu *gpu)
{
	(void)gpu;
	return atomic_load(&irq_resets) > 0;
}

static bool ring_waiting(struct gpu *gpu)
{
	return gpu_read(gpu, PRB0_CTL) & RING_WAIT;
}

static void t_sync(struct tgpu *t)
{
	gt_assert(t_wait(t, idle_or_stopped, 5000));
	gt_assert_f(!gpu_stopped(t->gpu), "stopped: IPEHR 0x%08x ACTHD 0x%08x EIR 0x%x",
		    gpu_read(t->gpu, IPEHR), gpu_read(t->gpu, ACTHD),
		    gpu_read(t->gpu, EIR));
}

static void t_stopped(struct tgpu *t)
{
	gt_assert(t_wait(t, idle_or_stopped, 5000));
	gt_assert(gpu_stopped(t->gpu));
	gt_assert(!gpu_idle(t->gpu));
	gt_assert_eq(atomic_load(&error_irqs), 1);
}

/* Run cmds from a batch (MI_BATCH_BUFFER_END appended) the way the driver
 * submits a request, and wait for it. */
static void t_exec(struct tgpu *t, const uint32_t *cmds, uint32_t n, bool sync)
{
	uint32_t *batch = gpu_gtt_host(t->gpu, BATCH_GTT);
	uint32_t i;

	if (!batch)
		batch = t_bind(t, BATCH_GTT, 64 << 10);
	for (i = 0; i < n; i++)
		batch[i] = cmds[i];
	batch[n] = MI_BATCH_BUFFER_END;
	t_emit(t, MI_BATCH_BUFFER_START_GTT);
	t_emit(t, BATCH_GTT | 1);
	t_emit(t, MI_FLUSH);
	t_emit_seqno(t, ++t->seqno);
	t_advance(t);
	if (sync) {
		t_sync(t);
		gt_assert_eq(gpu_hws(t->gpu)[SEQNO_INDEX], t->seqno);
	}
}

/* ---- ring, MI commands ------------------------------------------------ */

static void test_ring_seqno(void)
{
	struct gpu_stats st;
	struct tgpu t;

	t_init(&t);
	t_emit_seqno(&t, 0x1234);
	t_advance(&t);
	t_sync(&t);
	gt_assert_eq(gpu_hws(t.gpu)[SEQNO_INDEX], 0x1234);
	gt_assert_eq(atomic_load(&user_irqs), 1);
	gt_assert_eq(gpu_read(t.gpu, IIR), I915_USER_INTERRUPT);
	gt_assert_eq(gpu_read(t.gpu, PRB0_HEAD), 16);
	gt_assert_eq(gpu_read(t.gpu, PRB0_TAIL), 16);
	gt_assert_eq(gpu_read(t.gpu, ACTHD), RING_GTT + 12);
	gt_assert_eq(gpu_read(t.gpu, INSTDONE), INSTDONE_IDLE);
	gt_assert_eq(gpu_read(t.gpu, EIR), 0);
	gpu_write(t.gpu, IIR, I915_USER_INTERRUPT);
	gt_assert_eq(gpu_read(t.gpu, IIR), 0);
	gpu_get_stats(t.gpu, &st);
	gt_assert_eq(st.commands, 2);
	gt_assert_eq(st.interrupts, 1);
	gt_assert_eq(st.batches, 0);
	t_fini(&t);
}

static void test_ring_wrap(void)
{
	struct tgpu t;

	t_init(&t);
	/* Start 8 bytes before the end: the store straddles the wrap.  Move
	 * HEAD and TAIL with the ring disabled, as a driver does: between
	 * the two writes an enabled ring would run the whole ring once. */
	gpu_write(t.gpu, PRB0_CTL, 0);
	gpu_write(t.gpu, PRB0_HEAD, RING_SIZE - 8);
	gpu_write(t.gpu, PRB0_TAIL, RING_SIZE - 8);
	gpu_write(t.gpu, PRB0_CTL, ((RING_SIZE - 4096) & RING_NR_PAGES) | RING_VALID);
	t.tail = RING_SIZE - 8;
	t_emit_seqno(&t, 77);
	t_advance(&t);
	t_sync(&t);
	gt_assert_eq(gpu_hws(t.gpu)[SEQNO_INDEX], 77);
	gt_assert_eq(gpu_read(t.gpu, PRB0_HEAD), HEAD_WRAP_ONE | 8);
	/* Around once more. */
	while (t.tail != RING_SIZE - 8)
		t_emit(&t, MI_NOOP);
	t_advance(&t);
	t_sync(&t);
	t_emit_seqno(&t, 78);
	t_advance(&t);
	t_sync(&t);
	gt_assert_eq(gpu_hws(t.gpu)[SEQNO_INDEX], 78);
	gt_assert_eq(gpu_read(t.gpu, PRB0_HEAD), 2 * HEAD_WRAP_ONE | 8);
	t_fini(&t);
}

static void test_partial_command(void)
{
	struct tgpu t;

	t_init(&t);
	/* Only the first two dwords of the store are behind TAIL. */
	t_emit(&t, MI_STORE_DWORD_INDEX);
	t_emit(&t, SEQNO_INDEX << 2);
	gpu_write(t.gpu, PRB0_TAIL, t.tail);
	sleep_us(20000);
	gt_assert(!gpu_idle(t.gpu));
	gt_assert(!gpu_stopped(t.gpu));
	gt_assert_eq(gpu_hws(t.gpu)[SEQNO_INDEX], 0);
	gt_assert_eq(gpu_read(t.gpu, PRB0_HEAD), 0);
	t_emit(&t, 5);
	t_emit(&t, MI_USER_INTERRUPT);
	t_advance(&t);
	t_sync(&t);
	gt_assert_eq(gpu_hws(t.gpu)[SEQNO_INDEX], 5);
	t_fini(&t);
}

static void test_store_dword_imm(void)
{
	struct tgpu t;
	uint32_t *data;

	t_init(&t);
	data = t_bind(&t, DATA_GTT, 4096);
	t_emit(&t, MI_STORE_DWORD_IMM_GTT);
	t_emit(&t, 0);
	t_emit(&t, DATA_GTT + 0x10);
	t_emit(&t, 0xdeadbeef);
	t_emit(&t, MI_STORE_DWORD_IMM_GTT + 1);	/* qword form */
	t_emit(&t, 0);
	t_emit(&t, DATA_GTT + 0xff8);
	t_emit(&t, 0x11111111);
	t_emit(&t, 0x22222222);
	t_advance(&t);
	t_sync(&t);
	gt_assert_eq(data[4], 0xdeadbeef);
	gt_assert_eq(data[0x3fe], 0x11111111);
	gt_assert_eq(data[0x3ff], 0x22222222);
	gt_assert_eq(data[3], 0);
	gt_assert_eq(data[5], 0);
	t_fini(&t);
}

/* The 945G's own form, as Linux's gen3 code and IGT emit it: the header
 * with length 1 (three dwords) and bit 22, the address, the value. */
static void test_store_dword_imm_945(void)
{
	struct tgpu t;
	uint32_t *data;

	t_init(&t);
	data = t_bind(&t, DATA_GTT, 4096);
	t_emit(&t, MI_STORE_DWORD_IMM_GTT - 1);
	t_emit(&t, DATA_GTT + 0x20);
	t_emit(&t, 0x945945);
	t_emit(&t, MI_NOOP);
	t_advance(&t);
	t_sync(&t);
	gt_assert_eq(data[8], 0x945945);
	gt_assert_eq(data[7], 0);
	gt_assert_eq(data[9], 0);
	gt_assert_eq(gpu_read(t.gpu, EIR), 0);
	t_fini(&t);
}

static void test_lri_noop_id(void)
{
	struct tgpu t;

	t_init(&t);
	t_emit(&t, MI_LOAD_REGISTER_IMM(2));
	t_emit(&t, fence_reg_offset(9));
	t_emit(&t, 0x00800231);
	t_emit(&t, PRB0_TAIL);		/* the CS may not move its own ring */
	t_emit(&t, 0x100);
	t_emit(&t, MI_NOOP | 1u << 22 | 0x2abcd);
	t_advance(&t);
	t_sync(&t);
	gt_assert_eq(gpu_read(t.gpu, fence_reg_offset(9)), 0x00800231);
	gt_assert_eq(gpu_read(t.gpu, NOPID), 0x2abcd);
	gt_assert_eq(gpu_read(t.gpu, PRB0_TAIL), 24);
	t_fini(&t);
}

static void test_batch_start_end(void)
{
	struct gpu_stats st;
	struct tgpu t;
	uint32_t *data;
	uint32_t cmds[] = { MI_STORE_DWORD_IMM_GTT, 0, DATA_GTT, 0xcafe, MI_NOOP };

	t_init(&t);
	data = t_bind(&t, DATA_GTT, 4096);
	t_exec(&t, cmds, 5, true);
	gt_assert_eq(data[0], 0xcafe);
	gt_assert_eq(gpu_read(t.gpu, PRB0_HEAD), 32);
	gpu_get_stats(t.gpu, &st);
	/* ring: start, flush, store index, interrupt, pad; batch: 3 */
	gt_assert_eq(st.commands, 8);
	gt_assert_eq(st.batches, 1);
	t_fini(&t);
}

static void test_batch_chain(void)
{
	struct gpu_stats st;
	struct tgpu t;
	uint32_t *data, *b2;
	uint32_t cmds[] = {
		MI_STORE_DWORD_IMM_GTT, 0, DATA_GTT, 1,
		MI_BATCH_BUFFER_START_GTT, (BATCH_GTT + 0x1000) | 1,
		MI_STORE_DWORD_IMM_GTT, 0, DATA_GTT + 4, 0xbad,	/* skipped */
	};

	t_init(&t);
	data = t_bind(&t, DATA_GTT, 4096);
	b2 = t_bind(&t, BATCH_GTT + 0x1000, 4096);
	b2[0] = MI_STORE_DWORD_IMM_GTT;
	b2[1] = 0;
	b2[2] = DATA_GTT + 8;
	b2[3] = 2;
	b2[4] = MI_BATCH_BUFFER_END;
	t_bind(&t, BATCH_GTT, 4096);
	t_exec(&t, cmds, 10, true);
	gt_assert_eq(data[0], 1);
	gt_assert_eq(data[1], 0);
	gt_assert_eq(data[2], 2);
	gpu_get_stats(t.gpu, &st);
	gt_assert_eq(st.batches, 2);
	t_fini(&t);
}

static void test_self_loop(void)
{
	struct gpu_stats st;
	struct tgpu t;
	uint32_t *batch;

	t_init(&t);
	batch = t_bind(&t, BATCH_GTT, 4096);
	batch[0] = MI_BATCH_BUFFER_START_GTT;	/* gem_busy's spinner */
	batch[1] = BATCH_GTT | 1;
	batch[2] = MI_BATCH_BUFFER_END;
	t_emit(&t, MI_BATCH_BUFFER_START_GTT);
	t_emit(&t, BATCH_GTT | 1);
	t_emit_seqno(&t, 9);
	t_advance(&t);
	sleep_us(100000);
	gt_assert(!gpu_idle(t.gpu));
	gt_assert(!gpu_stopped(t.gpu));
	gt_assert_eq(gpu_hws(t.gpu)[SEQNO_INDEX], 0);
	gt_assert_eq(gpu_read(t.gpu, ACTHD), BATCH_GTT);
	gt_assert_eq(gpu_read(t.gpu, PRB0_HEAD), 8);
	gt_assert_eq(gpu_read(t.gpu, INSTDONE), INSTDONE_BUSY);
	gpu_get_stats(t.gpu, &st);
	gt_assert(st.batches > 2);
	__atomic_store_n(&batch[0], MI_BATCH_BUFFER_END, __ATOMIC_RELEASE);
	t_sync(&t);
	gt_assert_eq(gpu_hws(t.gpu)[SEQNO_INDEX], 9);
	gt_assert_eq(gpu_read(t.gpu, INSTDONE), INSTDONE_IDLE);
	t_fini(&t);
}

/* ---- runs on the submitting thread (gpu_submit, gpu_run) ------------- */

static _Thread_local bool irq_here;

static void on_user_here(void *data)
{
	irq_here = true;
	atomic_fetch_add(&user_irqs, 1);
}

static const struct gpu_ops here_ops = {
	.user_interrupt = on_user_here,
	.error_interrupt = on_error,
};

static void t_init_here(struct tgpu *t)
{
	memset(t, 0, sizeof(*t));
	atomic_store(&user_irqs, 0);
	atomic_store(&error_irqs, 0);
	t->gpu = gpu_create(&(struct gpu_config){ .aperture_size = APERTURE },
			    &here_ops, NULL);
	gt_assert(t->gpu);
	t->ring = t_bind(t, RING_GTT, RING_SIZE);
	t_ring_program(t);
}

/* Submit what was emitted without waking the CS thread. */
static void t_submit(struct tgpu *t)
{
	if (t->tail & 4)
		t_emit(t, MI_NOOP);
	gpu_submit(t->gpu, t->tail);
}

static void test_inline_run(void)
{
	static const uint32_t nop[] = { MI_NOOP };
	struct gpu_stats st;
	struct tgpu t;
	int i;

	t_init_here(&t);
	gt_assert(t_wait(&t, gpu_cs_asleep, 5000));
	for (i = 0; i < 3; i++) {
		irq_here = false;
		t_exec(&t, nop, 1, false);	/* advanced with gpu_write... */
		t_sync(&t);			/* ...which wakes the CS thread */
		gt_assert(!irq_here);
		gt_assert(t_wait(&t, gpu_cs_asleep, 5000));

		/* Submitted and run here: done when gpu_run returns. */
		t_emit_seqno(&t, 1000 + (uint32_t)i);
		t_submit(&t);
		gt_assert_eq(gpu_hws(t.gpu)[SEQNO_INDEX], t.seqno);
		gpu_run(t.gpu, 1000000000ull);
		gt_assert_eq(gpu_hws(t.gpu)[SEQNO_INDEX], 1000 + i);
		gt_assert(irq_here);
		gt_assert(gpu_idle(t.gpu));
		gt_assert(gpu_cs_asleep(t.gpu));
		t.seqno = 1000 + (uint32_t)i;
	}
	gpu_get_stats(t.gpu, &st);
	gt_assert_eq(st.inline_runs, 3);
	gt_assert_eq(atomic_load(&user_irqs), 6);
	t_fini(&t);
}

/* What may block or loop is left to the CS thread, unexecuted. */
static void test_inline_leaves(void)
{
	struct gpu_stats st;
	struct tgpu t;
	uint32_t *batch;

	t_init_here(&t);
	gt_assert(t_wait(&t, gpu_cs_asleep, 5000));
	t_emit(&t, MI_WAIT_FOR_PLANE_A);
	t_emit_seqno(&t, 7);
	t_submit(&t);
	gpu_run(t.gpu, 1000000000ull);	/* returns: it did not wait here */
	gt_assert(t_wait(&t, ring_waiting, 5000));
	gpu_kick(t.gpu);
	t_sync(&t);
	gt_assert_eq(gpu_hws(t.gpu)[SEQNO_INDEX], 7);

	/* gem_busy's spinner: a few laps here, the rest on the CS thread. */
	gt_assert(t_wait(&t, gpu_cs_asleep, 5000));
	batch = t_bind(&t, BATCH_GTT, 4096);
	batch[0] = MI_BATCH_BUFFER_START_GTT;
	batch[1] = BATCH_GTT | 1;
	batch[2] = MI_BATCH_BUFFER_END;
	t_emit(&t, MI_BATCH_BUFFER_START_GTT);
	t_emit(&t, BATCH_GTT | 1);
	t_emit_seqno(&t, 8);
	t_submit(&t);
	gpu_run(t.gpu, 1000000000ull);
	gt_assert_eq(gpu_hws(t.gpu)[SEQNO_INDEX], 7);
	gpu_get_stats(t.gpu, &st);
	gt_assert(st.batches > 1);
	__atomic_store_n(&batch[0], MI_BATCH_BUFFER_END, __ATOMIC_RELEASE);
	t_sync(&t);
	gt_assert_eq(gpu_hws(t.gpu)[SEQNO_INDEX], 8);
	gpu_get_stats(t.gpu, &st);
	gt_assert_eq(st.inline_runs, 2);
	t_fini(&t);
}

static void test_wait_for_event(void)
{
	struct tgpu t;
	int round;

	t_init(&t);
	for (round = 0; round < 2; round++) {
		uint32_t at = t.tail;

		t_emit(&t, MI_WAIT_FOR_PLANE_A);
		t_emit_seqno(&t, 100 + round);
		t_advance(&t);
		gt_assert(t_wait(&t, ring_waiting, 5000));
		sleep_us(20000);
		gt_assert(ring_waiting(t.gpu));
		gt_assert(!gpu_idle(t.gpu));
		gt_assert_eq(gpu_read(t.gpu, ACTHD), RING_GTT + at);
		gt_assert(gpu_hws(t.gpu)[SEQNO_INDEX] != 100u + round);
		if (round == 0)
			gpu_kick(t.gpu);
		else	/* kick_ring(): write CTL back */
			gpu_write(t.gpu, PRB0_CTL, gpu_read(t.gpu, PRB0_CTL));
		t_sync(&t);
		gt_assert_eq(gpu_hws(t.gpu)[SEQNO_INDEX], 100 + round);
		gt_assert_eq(gpu_read(t.gpu, PRB0_CTL) & RING_WAIT, 0);
	}
	/* A reset also gets the CS out of the wait. */
	t_emit(&t, MI_WAIT_FOR_PLANE_A);
	t_advance(&t);
	gt_assert(t_wait(&t, ring_waiting, 5000));
	gpu_reset(t.gpu);
	gt_assert(gpu_idle(t.gpu));
	gt_assert_eq(gpu_read(t.gpu, PRB0_CTL), 0);
	t_fini(&t);
}

/* ---- errors and reset ------------------------------------------------- */

static void expect_instruction_error(struct tgpu *t, uint32_t ipehr, uint32_t acthd)
{
	t_stopped(t);
	gt_assert_eq(gpu_read(t->gpu, IPEHR), ipehr);
	gt_assert_eq(gpu_read(t->gpu, IPEIR), 0);
	gt_assert_eq(gpu_read(t->gpu, ACTHD), acthd);
	gt_assert_eq(gpu_read(t->gpu, EIR), I915_ERROR_INSTRUCTION);
	gt_assert_eq(gpu_read(t->gpu, ESR), I915_ERROR_INSTRUCTION);
	gt_assert_eq(gpu_read(t->gpu, PGTBL_ER), 0);
	gt_assert_eq(gpu_read(t->gpu, INSTDONE), INSTDONE_BUSY);
}

static void reset_and_check(struct tgpu *t)
{
	gpu_reset(t->gpu);
	gt_assert(!gpu_stopped(t->gpu));
	gt_assert(gpu_idle(t->gpu));
	gt_assert_eq(gpu_read(t->gpu, EIR), 0);
	gt_assert_eq(gpu_read(t->gpu, ESR), 0);
	gt_assert_eq(gpu_read(t->gpu, IPEHR), 0);
	gt_assert_eq(gpu_read(t->gpu, PGTBL_ER), 0);
	gt_assert_eq(gpu_read(t->gpu, PRB0_HEAD), 0);
	gt_assert_eq(gpu_read(t->gpu, PRB0_TAIL), 0);
	gt_assert_eq(gpu_read(t->gpu, PRB0_CTL), 0);
	gt_assert_eq(gpu_read(t->gpu, INSTDONE), INSTDONE_IDLE);
	/* And it runs again once the ring is programmed. */
	atomic_store(&error_irqs, 0);
	t_ring_program(t);
	t_emit_seqno(t, 0x5eed);
	t_advance(t);
	t_sync(t);
	gt_assert_eq(gpu_hws(t->gpu)[SEQNO_INDEX], 0x5eed);
}

static void test_unknown_opcode(void)
{
	static const uint32_t bad[] = {
		0x0f800000,	/* MI opcode 0x1f */
		0x20000000,	/* client 1 */
		0x5fc00004,	/* 2D opcode 0x7f */
		0x54000005,	/* XY_COLOR_BLT with a bad length */
		0x7e000000,	/* 3D opcode 0x1e */
		0x7d040140,	/* LIS1 announcing S2, S4 with room for 1 */
	};
	struct tgpu t;
	unsigned int i;

	t_init(&t);
	/* In the ring: ACTHD is START + HEAD, HEAD stays on the command. */
	t_emit(&t, MI_NOOP);
	t_emit(&t, 0x0f800000);
	t_advance(&t);
	expect_instruction_error(&t, 0x0f800000, RING_GTT + 4);
	gt_assert_eq(gpu_read(t.gpu, PRB0_HEAD), 4);
	gt_assert(gpu_read(t.gpu, IIR) & I915_RENDER_COMMAND_PARSER_ERROR_INTERRUPT);
	reset_and_check(&t);

	/* In a batch: ACTHD is the batch address of the command. */
	t_bind(&t, BATCH_GTT, 4096);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint32_t cmds[] = { MI_NOOP, MI_FLUSH, bad[i], 0, 0, 0, 0 };

		t_exec(&t, cmds, 7, false);
		expect_instruction_error(&t, bad[i], BATCH_GTT + 8);
		reset_and_check(&t);
	}
	t_fini(&t);
}

/* Only an address beyond the GTT is a page-table error: the kernel points
 * every unbound entry inside it at the scratch page (test_scratch_page). */
static void test_page_fault(void)
{
	struct tgpu t;
	uint32_t cmds[] = { MI_STORE_DWORD_IMM_GTT, 0, APERTURE + 0x40, 1 };
	uint32_t blt[] = { XY_COLOR_BLT_CMD | XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB,
			   3u << 24 | 0xf0u << 16 | 64, 0, 1 << 16 | 16,
			   APERTURE - 32, 0 };

	t_init(&t);
	/* Batch start beyond the aperture: the header fetch faults. */
	t_emit(&t, MI_BATCH_BUFFER_START_GTT);
	t_emit(&t, APERTURE | 1);
	t_advance(&t);
	t_stopped(&t);
	gt_assert_eq(gpu_read(t.gpu, PGTBL_ER), PGTBL_ER_RENDER_PTE);
	gt_assert_eq(gpu_read(t.gpu, EIR), I915_ERROR_PAGE_TABLE);
	gt_assert_eq(gpu_read(t.gpu, ACTHD), APERTURE);
	gt_assert_eq(gpu_read(t.gpu, IPEHR), 0);
	gt_assert_eq(gpu_read(t.gpu, INSTDONE), INSTDONE_BUSY);
	reset_and_check(&t);

	/* A store beyond the aperture: ACTHD and IPEHR name the store. */
	t_bind(&t, BATCH_GTT, 4096);
	t_exec(&t, cmds, 4, false);
	t_stopped(&t);
	gt_assert_eq(gpu_read(t.gpu, PGTBL_ER), PGTBL_ER_RENDER_PTE);
	gt_assert_eq(gpu_read(t.gpu, EIR), I915_ERROR_PAGE_TABLE);
	gt_assert_eq(gpu_read(t.gpu, ACTHD), BATCH_GTT);
	gt_assert_eq(gpu_read(t.gpu, IPEHR), MI_STORE_DWORD_IMM_GTT);
	gt_assert_eq(gpu_read(t.gpu, DMA_FADD_I8XX), APERTURE + 0x40);
	reset_and_check(&t);

	/* A blit running off the end of the aperture. */
	t_bind(&t, APERTURE - 4096, 4096);
	t_exec(&t, blt, 6, false);
	t_stopped(&t);
	gt_assert_eq(gpu_read(t.gpu, PGTBL_ER), PGTBL_ER_RENDER_PTE);
	gt_assert_eq(gpu_read(t.gpu, ACTHD), BATCH_GTT);
	gt_assert_eq(gpu_read(t.gpu, IPEHR), blt[0]);
	gt_assert_eq(gpu_read(t.gpu, DMA_FADD_I8XX), APERTURE);
	reset_and_check(&t);
	t_fini(&t);
}

static uint64_t scratch_accesses(struct tgpu *t)
{
	struct gpu_stats st;

	gpu_get_stats(t->gpu, &st);
	return st.scratch_accesses;
}

/*
 * Unbound GTT pages are the scratch page for the GPU, as the kernel's PTEs
 * make them: a store there lands in it, a blit reads it back, and neither
 * stops the ring; the driver still sees the pages unbound.
 */
static void test_scratch_page(void)
{
	uint32_t store[] = { MI_STORE_DWORD_IMM_GTT, 0, SURF_GTT + 0x40, 0x5c4a7c11 };
	/* 16 pixels of the unbound page at SURF2_GTT + 0x40 to DATA_GTT. */
	uint32_t copy[] = { XY_SRC_COPY_BLT_CMD | XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB,
			    3u << 24 | 0xccu << 16 | 64, 0, 1 << 16 | 16, DATA_GTT,
			    0, 64, SURF2_GTT + 0x40 };
	const uint32_t *scratch;
	uint32_t *data;
	uint64_t before;
	struct tgpu t;
	int i;

	t_init(&t);
	scratch = gpu_scratch_page(t.gpu);
	data = t_bind(&t, DATA_GTT, 4096);
	memset(data, 0xee, 4096);
	before = scratch_accesses(&t);
	t_exec(&t, store, 4, true);
	gt_assert_eq(scratch[0x10], 0x5c4a7c11);
	gt_assert_eq(scratch_accesses(&t), before + 1);
	gt_assert(gpu_gtt_host(t.gpu, SURF_GTT) == NULL);

	/* Another unbound page: the same scratch page. */
	t_exec(&t, copy, 8, true);
	gt_assert_eq(data[0], 0x5c4a7c11);
	for (i = 1; i < 16; i++)
		gt_assert_eq(data[i], 0);
	gt_assert_eq(data[16], 0xeeeeeeee);
	gt_assert_eq(scratch_accesses(&t), before + 2);
	gt_assert_eq(gpu_read(t.gpu, EIR), 0);
	gt_assert_eq(gpu_read(t.gpu, PGTBL_ER), 0);
	gt_assert_eq(atomic_load(&error_irqs), 0);

	/* Binding the page makes the same store reach it, and only it. */
	t_bind(&t, SURF_GTT, 4096);
	store[3] = 1;
	t_exec(&t, store, 4, true);
	gt_assert_eq(((uint32_t *)gpu_gtt_host(t.gpu, SURF_GTT))[0x10], 1);
	gt_assert_eq(scratch[0x10], 0x5c4a7c11);
	gt_assert_eq(scratch_accesses(&t), before + 2);
	gpu_gtt_clear(t.gpu, SURF_GTT, 4096);
	gt_assert(gpu_gtt_host(t.gpu, SURF_GTT) == NULL);
	t_fini(&t);
}

/* A driver may reset from its error interrupt, on the CS thread itself. */
static void test_reset_from_callback(void)
{
	struct tgpu t;

	t_init(&t);
	atomic_store(&irq_resets, 0);
	reset_from_irq = t.gpu;
	t_emit(&t, MI_NOOP);
	t_emit(&t, 0x0f800000);
	t_advance(&t);
	gt_assert(t_wait(&t, reset_in_irq_done, 5000));
	reset_from_irq = NULL;
	gt_assert_eq(atomic_load(&error_irqs), 1);
	gt_assert(!gpu_stopped(t.gpu));
	gt_assert_eq(gpu_read(t.gpu, EIR), 0);
	gt_assert_eq(gpu_read(t.gpu, PRB0_CTL), 0);
	reset_and_check(&t);
	t_fini(&t);
}

static void test_reset_while_spinning(void)
{
	struct tgpu t;
	uint32_t *batch;

	t_init(&t);
	batch = t_bind(&t, BATCH_GTT, 4096);
	batch[0] = MI_BATCH_BUFFER_START_GTT;
	batch[1] = BATCH_GTT | 1;
	t_emit(&t, MI_BATCH_BUFFER_START_GTT);
	t_emit(&t, BATCH_GTT | 1);
	t_advance(&t);
	sleep_us(10000);
	gt_assert(!gpu_idle(t.gpu));
	gpu_reset(t.gpu);
	gt_assert(gpu_idle(t.gpu));
	gt_assert_eq(gpu_read(t.gpu, INSTDONE), INSTDONE_IDLE);
	reset_and_check(&t);
	/* Destroying a busy GPU joins its thread too. */
	t_emit(&t, MI_BATCH_BUFFER_START_GTT);
	t_emit(&t, BATCH_GTT | 1);
	t_advance(&t);
	sleep_us(5000);
	t_fini(&t);
}

static void test_mmio(void)
{
	struct tgpu t;

	t_init(&t);
	gt_assert_eq(gpu_read(t.gpu, 0x1234), 0);
	gpu_write(t.gpu, 0x1234, 5);
	gt_assert_eq(gpu_read(t.gpu, 0x1234), 0);
	gt_assert_eq(gpu_read(t.gpu, 0x100000), 0);
	gpu_write(t.gpu, ACTHD, 0x1000);
	gt_assert_eq(gpu_read(t.gpu, ACTHD), 0);
	gpu_write(t.gpu, fence_reg_offset(3), 0x01000311);
	gt_assert_eq(gpu_read(t.gpu, FENCE_REG_830_0 + 12), 0x01000311);
	gpu_write(t.gpu, fence_reg_offset(15), 0x02000101);
	gt_assert_eq(gpu_read(t.gpu, FENCE_REG_945_8 + 28), 0x02000101);
	gpu_write(t.gpu, HWS_PGA, 0x1f000);
	gt_assert_eq(gpu_read(t.gpu, HWS_PGA), 0x1f000);
	gt_assert_eq(gpu_read(t.gpu, PRB0_START), RING_GTT);
	gt_assert_eq(gpu_aperture_size(t.gpu), APERTURE);
	gt_assert(gpu_idle(t.gpu));
	t_fini(&t);
	gt_assert(gpu_create(&(struct gpu_config){ .aperture_size = 3u << 19 },
			     NULL, NULL) == NULL);
	gt_assert_eq(errno, EINVAL);
}

static void test_speed_model(void)
{
	struct gpu_config cfg = { .aperture_size = APERTURE, .cmd_cost_ns = 1000000 };
	struct gpu_stats st;
	struct tgpu t;
	uint64_t t0;
	int i;

	t_init_cfg(&t, &cfg);
	t0 = mono_ns();
	for (i = 0; i < 30; i++)
		t_emit(&t, MI_NOOP);
	t_advance(&t);
	t_sync(&t);
	gt_assert_f(mono_ns() - t0 >= 25000000ull, "30 commands at 1 ms took %llu ns",
		    (unsigned long long)(mono_ns() - t0));
	gpu_get_stats(t.gpu, &st);
	gt_assert(st.busy_ns >= 25000000ull);
	t_fini(&t);

	cfg.cmd_cost_ns = 0;
	cfg.blit_bytes_per_sec = 1u << 20;
	t_init_cfg(&t, &cfg);
	t_bind(&t, SURF_GTT, 64 << 10);
	{
		uint32_t blt[] = { COLOR_BLT_CMD, 0xf0u << 16 | 1024, 20 << 16 | 1024,
				   SURF_GTT, 0x5a };

		t0 = mono_ns();
		t_exec(&t, blt, 5, true);	/* 20 KiB at 1 MiB/s: 19.5 ms */
		gt_assert(mono_ns() - t0 >= 15000000ull);
	}
	gpu_get_stats(t.gpu, &st);
	gt_assert_eq(st.blits, 1);
	gt_assert_eq(st.blit_bytes, 20 * 1024);
	t_fini(&t);
}

/* The driver's per-request pattern must cost microseconds, not more. */
static void test_request_cost(void)
{
	struct gpu_stats st0, st1;
	struct tgpu t;
	uint64_t t0, lat, busy;
	int i, n = 2000, burst = 400;

	t_init(&t);
	t_bind(&t, BATCH_GTT, 4096);
	/* Round trip: submit, then spin on the seqno like a busy waiter. */
	t0 = mono_ns();
	for (i = 0; i < n; i++) {
		t_exec(&t, NULL, 0, false);
		while (__atomic_load_n(&gpu_hws(t.gpu)[SEQNO_INDEX],
				       __ATOMIC_ACQUIRE) != t.seqno)
			gt_assert(!gpu_stopped(t.gpu) && mono_ns() - t0 < 10000000000ull);
	}
	lat = (mono_ns() - t0) / (uint64_t)n;
	t_sync(&t);

	/* Execution cost: a burst written at once, one TAIL write. */
	gpu_get_stats(t.gpu, &st0);
	t.tail = gpu_read(t.gpu, PRB0_TAIL);
	for (i = 0; i < burst; i++) {
		t_emit(&t, MI_BATCH_BUFFER_START_GTT);
		t_emit(&t, BATCH_GTT | 1);
		t_emit(&t, MI_FLUSH);
		t_emit_seqno(&t, ++t.seqno);
		t_emit(&t, MI_NOOP);
	}
	t_advance(&t);
	t_sync(&t);
	gt_assert_eq(gpu_hws(t.gpu)[SEQNO_INDEX], t.seqno);
	gpu_get_stats(t.gpu, &st1);
	gt_assert_eq(st1.commands - st0.commands, 6 * burst);
	busy = (st1.busy_ns - st0.busy_ns) / (uint64_t)burst;
	gemtest_diag("request: round trip %llu ns, execution %llu ns",
		     (unsigned long long)lat, (unsigned long long)busy);
	gt_assert(busy < 20000);
	gt_assert(lat < 1000000);
	t_fini(&t);
}

/* ---- 2D blitter ------------------------------------------------------- */

static uint32_t ref_rop(uint8_t rop, uint32_t p, uint32_t s, uint32_t d)
{
	uint32_t r = 0;
	int b;

	for (b = 0; b < 32; b++) {
		int idx = (int)((p >> b & 1) << 2 | (s >> b & 1) << 1 | (d >> b & 1));

		r |= (uint32_t)(rop >> idx & 1) << b;
	}
	return r;
}

static uint32_t px_get(const uint8_t *m, int64_t off, int cpp)
{
	uint32_t v = 0;

	memcpy(&v, m + off, (size_t)cpp);
	return v;
}

static void px_put(uint8_t *m, int64_t off, int cpp, uint32_t v)
{
	memcpy(m + off, &v, (size_t)cpp);
}

static uint32_t depth_bits(int cpp)
{
	return cpp == 1 ? 0 : cpp == 2 ? 1u << 24 : 3u << 24;
}

static uint32_t cpp_mask(int cpp)
{
	return cpp == 4 ? 0xffffffffu : (1u << (8 * cpp)) - 1;
}

/* The byte mask of the 32 bpp write bits, as the reference applies it. */
static uint32_t write_mask(uint32_t hdr, int cpp)
{
	uint32_t m = 0;

	if (cpp != 4)
		return cpp_mask(cpp);
	if (hdr & XY_BLT_WRITE_ALPHA)
		m |= 0xff000000u;
	if (hdr & XY_BLT_WRITE_RGB)
		m |= 0x00ffffffu;
	return m;
}

static void fill_random(uint8_t *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		m[i] = (uint8_t)rnd();
}

static void assert_mem_eq(const uint8_t *got, const uint8_t *want, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		gt_assert_f(got[i] == want[i], "byte %zu: got 0x%02x want 0x%02x",
			    i, got[i], want[i]);
}

struct fill_case {
	int cpp;
	uint32_t hdr_bits;
	uint8_t rop;
	int x1, y1, x2, y2;
	bool negative_pitch;
};

static void run_xy_color(const struct fill_case *c)
{
	const int pitch = 320, h = 24;
	uint32_t color = 0x80c0ffeeu, hdr = XY_COLOR_BLT_CMD | c->hdr_bits, wm;
	int32_t p = c->negative_pitch ? -pitch : pitch;
	int64_t base_off = c->negative_pitch ? (int64_t)pitch * (h - 1) : 0;
	uint8_t *mem, *ref;
	struct tgpu t;
	int x, y;

	t_init(&t);
	mem = t_bind(&t, SURF_GTT, 8192 * 2);
	ref = malloc(8192 * 2);
	fill_random(mem, 8192 * 2);
	memcpy(ref, mem, 8192 * 2);
	{
		uint32_t blt[] = { hdr, depth_bits(c->cpp) | (uint32_t)c->rop << 16 |
				   ((uint32_t)p & 0xffff),
				   (uint32_t)c->y1 << 16 | (uint32_t)c->x1,
				   (uint32_t)c->y2 << 16 | (uint32_t)c->x2,
				   SURF_GTT + (uint32_t)base_off, color };

		t_exec(&t, blt, 6, true);
	}
	wm = write_mask(hdr, c->cpp);
	for (y = c->y1; y < c->y2; y++) {
		for (x = c->x1; x < c->x2; x++) {
			int64_t off = base_off + (int64_t)y * p + x * c->cpp;
			uint32_t d = px_get(ref, off, c->cpp);
			uint32_t r = ref_rop(c->rop, color & cpp_mask(c->cpp), 0, d);

			px_put(ref, off, c->cpp, (r & wm) | (d & ~wm));
		}
	}
	assert_mem_eq(mem, ref, 8192 * 2);
	free(ref);
	t_fini(&t);
}

static void test_xy_color_blt(void)
{
	static const struct fill_case cases[] = {
		{ 1, 0, 0xf0, 3, 2, 77, 19, false },
		{ 1, 0, 0x5a, 0, 0, 320, 24, false },
		{ 2, 0, 0xf0, 5, 1, 150, 23, false },
		{ 2, 0, 0x55, 1, 3, 9, 4, true },
		{ 4, XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, 0xf0, 7, 5, 71, 20, false },
		{ 4, XY_BLT_WRITE_RGB, 0xf0, 0, 0, 80, 24, false },	/* alpha kept */
		{ 4, XY_BLT_WRITE_ALPHA, 0xf0, 10, 10, 20, 20, false },
		{ 4, XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, 0x00, 1, 1, 2, 2, false },
		{ 4, XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, 0xff, 3, 4, 50, 9, true },
		{ 4, XY_BLT_WRITE_RGB, 0x5a, 2, 3, 33, 17, false },
		{ 4, XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, 0xf0, 9, 9, 9, 20, false },
		{ 4, XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, 0xf0, 9, 9, 5, 20, false },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_xy_color(&cases[i]);
}

struct copy_case {
	int cpp;
	uint32_t hdr_bits;
	uint8_t rop;
	int dx, dy, w, h, sx, sy;
	bool same_surface;
};

static void run_xy_src_copy(const struct copy_case *c)
{
	const int pitch = 512, rows = 32, size = pitch * rows;
	uint32_t hdr = XY_SRC_COPY_BLT_CMD | c->hdr_bits, wm = write_mask(hdr, c->cpp);
	uint32_t src_gtt = c->same_surface ? SURF_GTT : SURF2_GTT;
	uint8_t *dst, *src, *ref, *orig_src;
	struct tgpu t;
	int x, y;

	t_init(&t);
	dst = t_bind(&t, SURF_GTT, (uint32_t)size);
	src = c->same_surface ? dst : t_bind(&t, SURF2_GTT, (uint32_t)size);
	fill_random(dst, (size_t)size);
	fill_random(src, (size_t)size);
	ref = malloc((size_t)size);
	orig_src = malloc((size_t)size);
	memcpy(ref, dst, (size_t)size);
	memcpy(orig_src, src, (size_t)size);
	{
		uint32_t blt[] = { hdr, depth_bits(c->cpp) | (uint32_t)c->rop << 16 | pitch,
				   (uint32_t)c->dy << 16 | (uint32_t)c->dx,
				   (uint32_t)(c->dy + c->h) << 16 | (uint32_t)(c->dx + c->w),
				   SURF_GTT,
				   (uint32_t)c->sy << 16 | (uint32_t)c->sx, pitch, src_gtt };

		t_exec(&t, blt, 8, true);
	}
	for (y = 0; y < c->h; y++) {
		for (x = 0; x < c->w; x++) {
			int64_t doff = (int64_t)(c->dy + y) * pitch + (c->dx + x) * c->cpp;
			int64_t soff = (int64_t)(c->sy + y) * pitch + (c->sx + x) * c->cpp;
			uint32_t d = px_get(ref, doff, c->cpp);
			uint32_t s = px_get(orig_src, soff, c->cpp);
			uint32_t r = ref_rop(c->rop, 0, s, d);

			px_put(ref, doff, c->cpp, (r & wm) | (d & ~wm));
		}
	}
	assert_mem_eq(dst, ref, (size_t)size);
	free(ref);
	free(orig_src);
	t_fini(&t);
}

static void test_xy_src_copy_blt(void)
{
	static const struct copy_case cases[] = {
		{ 1, 0, 0xcc, 3, 2, 100, 20, 17, 5, false },
		{ 2, 0, 0xcc, 0, 0, 256, 32, 0, 0, false },
		{ 2, 0, 0x66, 11, 7, 40, 9, 2, 1, false },
		{ 4, XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, 0xcc, 5, 3, 60, 20, 9, 11, false },
		{ 4, XY_BLT_WRITE_RGB, 0xcc, 1, 1, 90, 25, 0, 2, false },
		{ 4, XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, 0x88, 4, 4, 30, 10, 40, 3, false },
		{ 4, XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, 0xee, 4, 4, 30, 10, 40, 3, false },
		/* Overlapping scrolls within one surface behave like memmove. */
		{ 4, XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, 0xcc, 5, 3, 100, 25, 0, 0, true },
		{ 4, XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB, 0xcc, 0, 0, 100, 25, 5, 3, true },
		{ 1, 0, 0xcc, 1, 0, 200, 4, 0, 0, true },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_xy_src_copy(&cases[i]);
}

static void test_legacy_blts(void)
{
	const int pitch = 256, size = pitch * 16;
	uint8_t *dst, *src, *ref;
	struct tgpu t;
	int x, y;

	t_init(&t);
	dst = t_bind(&t, SURF_GTT, (uint32_t)size);
	src = t_bind(&t, SURF2_GTT, (uint32_t)size);
	fill_random(dst, (size_t)size);
	fill_random(src, (size_t)size);
	ref = malloc((size_t)size);
	memcpy(ref, dst, (size_t)size);
	{
		/* 16 bpp fill of 30 bytes x 5 rows at byte 4 of row 2. */
		uint32_t blt[] = { COLOR_BLT_CMD, 1u << 24 | 0xf0u << 16 | pitch,
				   5 << 16 | 30, SURF_GTT + 2 * pitch + 4, 0xabcd1234 };

		t_exec(&t, blt, 5, true);
		for (y = 0; y < 5; y++)
			for (x = 0; x < 30; x += 2)
				px_put(ref, (2 + y) * pitch + 4 + x, 2, 0x1234);
	}
	{
		/* 32 bpp copy of 64 bytes x 7 rows, source pitch 128. */
		uint32_t blt[] = { SRC_COPY_BLT_CMD | XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB,
				   3u << 24 | 0xccu << 16 | pitch, 7 << 16 | 64,
				   SURF_GTT + 8 * pitch + 16, 128, SURF2_GTT + 12 };

		t_exec(&t, blt, 6, true);
		for (y = 0; y < 7; y++)
			memcpy(ref + (8 + y) * pitch + 16, src + y * 128 + 12, 64);
	}
	assert_mem_eq(dst, ref, (size_t)size);

	/* XY_SETUP_BLT then scanlines in the setup's colour, 8 bpp. */
	{
		uint32_t cmds[] = {
			XY_SETUP_BLT_CMD, 0xf0u << 16 | pitch, 0, 0, SURF_GTT, 0x11, 0x77, 0,
			XY_SCANLINES_BLT_CMD, 14 << 16 | 3, 15 << 16 | 40,
			XY_SCANLINES_BLT_CMD, 15 << 16 | 0, 16 << 16 | 256,
		};

		t_exec(&t, cmds, 14, true);
		memset(ref + 14 * pitch + 3, 0x77, 37);
		memset(ref + 15 * pitch, 0x77, 256);
	}
	assert_mem_eq(dst, ref, (size_t)size);
	free(ref);
	t_fini(&t);
}

/* ---- tiling ----------------------------------------------------------- */

static void test_tile_geometry(void)
{
	static const struct { enum gpu_tiling t; uint32_t stride, x, y, off; } k[] = {
		{ GPU_TILING_X, 1024, 0, 0, 0 },
		{ GPU_TILING_X, 1024, 511, 0, 511 },
		{ GPU_TILING_X, 1024, 512, 0, 4096 },
		{ GPU_TILING_X, 1024, 0, 1, 512 },
		{ GPU_TILING_X, 1024, 5, 7, 3589 },
		{ GPU_TILING_X, 1024, 0, 8, 8192 },
		{ GPU_TILING_X, 1024, 600, 9, 12888 },
		{ GPU_TILING_Y, 256, 0, 0, 0 },
		{ GPU_TILING_Y, 256, 15, 0, 15 },
		{ GPU_TILING_Y, 256, 16, 0, 512 },
		{ GPU_TILING_Y, 256, 0, 1, 16 },
		{ GPU_TILING_Y, 256, 17, 3, 561 },
		{ GPU_TILING_Y, 256, 127, 31, 4095 },
		{ GPU_TILING_Y, 256, 128, 0, 4096 },
		{ GPU_TILING_Y, 256, 0, 32, 8192 },
		{ GPU_TILING_Y, 256, 130, 33, 12306 },
		{ GPU_TILING_NONE, 300, 7, 2, 607 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		gt_assert_f(gpu_tiled_offset(k[i].t, k[i].stride, k[i].x, k[i].y) == k[i].off,
			    "case %u: got %u", i,
			    gpu_tiled_offset(k[i].t, k[i].stride, k[i].x, k[i].y));
	gt_assert_eq(gpu_tile_width(GPU_TILING_X), 512);
	gt_assert_eq(gpu_tile_height(GPU_TILING_X), 8);
	gt_assert_eq(gpu_tile_width(GPU_TILING_Y), 128);
	gt_assert_eq(gpu_tile_height(GPU_TILING_Y), 32);
}

/* i915 fence: start | Y | log2(size / 1 MiB) << 8 | log2(stride / tile_w) << 4 | valid */
static uint32_t fence_val(uint32_t start, enum gpu_tiling t, uint32_t stride)
{
	uint32_t pv = (uint32_t)__builtin_ctz(stride / gpu_tile_width(t));

	return start | (t == GPU_TILING_Y ? 1u << 12 : 0) | pv << 4 | 1;
}

/* bits: set the XY_ tiled bits; without them the fence alone detiles (gen3). */
static void tiled_case(enum gpu_tiling tiling, bool tiled_dst, bool bits)
{
	const uint32_t stride = tiling == GPU_TILING_X ? 1024 : 256, rows = 64;
	const uint32_t size = stride * rows, cpp = 4;
	uint8_t *tmem, *lmem, *ref_lin, *lref;
	uint32_t hdr, x, y;
	struct tgpu t;

	t_init(&t);
	gpu_write(t.gpu, fence_reg_offset(2), fence_val(FENCED_GTT, tiling, stride));
	tmem = t_bind(&t, FENCED_GTT, size);
	lmem = t_bind(&t, SURF_GTT, size);
	fill_random(tmem, size);
	fill_random(lmem, size);
	/* ref_lin: the tiled surface seen linearly; lref: the linear one. */
	ref_lin = malloc(size);
	lref = malloc(size);
	for (y = 0; y < rows; y++)
		for (x = 0; x < stride; x++)
			ref_lin[y * stride + x] = tmem[gpu_tiled_offset(tiling, stride, x, y)];
	memcpy(lref, lmem, size);

	/* Fill a rect of the tiled surface. */
	hdr = XY_COLOR_BLT_CMD | XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB | (bits ? XY_BLT_DST_TILED : 0);
	{
		uint32_t blt[] = { hdr, 3u << 24 | 0xf0u << 16 | stride,
				   3 << 16 | 10, 45 << 16 | 50, FENCED_GTT, 0x11223344 };

		t_exec(&t, blt, 6, true);
		for (y = 3; y < 45; y++)
			for (x = 10; x < 50; x++)
				px_put(ref_lin, y * stride + x * cpp, 4, 0x11223344);
	}
	/* Copy between the tiled and the linear surface. */
	hdr = XY_SRC_COPY_BLT_CMD | XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB |
	      (!bits ? 0 : tiled_dst ? XY_BLT_DST_TILED : XY_BLT_SRC_TILED);
	{
		uint32_t blt[] = { hdr, 3u << 24 | 0xccu << 16 | stride,
				   5 << 16 | 7, 60 << 16 | 61,
				   tiled_dst ? FENCED_GTT : SURF_GTT,
				   2 << 16 | 1, stride,
				   tiled_dst ? SURF_GTT : FENCED_GTT };
		uint8_t *d = tiled_dst ? ref_lin : lref;
		const uint8_t *s = tiled_dst ? lref : ref_lin;
		uint8_t *snap = malloc(size);

		memcpy(snap, s, size);
		t_exec(&t, blt, 8, true);
		for (y = 0; y < 55; y++)
			memcpy(d + (5 + y) * stride + 7 * cpp,
			       snap + (2 + y) * stride + 1 * cpp, 54 * cpp);
		free(snap);
	}
	for (y = 0; y < rows; y++)
		for (x = 0; x < stride; x++)
			gt_assert_f(tmem[gpu_tiled_offset(tiling, stride, x, y)] ==
				    ref_lin[y * stride + x], "tiled (%u,%u)", x, y);
	assert_mem_eq(lmem, lref, size);
	/* Pin the geometry by hand: pixel (10, 3) was filled. */
	gt_assert_eq(px_get(tmem, tiling == GPU_TILING_X ? 3 * 512 + 40
							 : 2 * 512 + 3 * 16 + 8, 4),
		     0x11223344);
	free(ref_lin);
	free(lref);
	t_fini(&t);
}

static void test_tiled_blits(void)
{
	tiled_case(GPU_TILING_X, true, true);
	tiled_case(GPU_TILING_X, false, true);
	tiled_case(GPU_TILING_Y, true, true);
	tiled_case(GPU_TILING_Y, false, true);
}

static void test_fence_alone_detiles(void)
{
	tiled_case(GPU_TILING_X, true, false);
	tiled_case(GPU_TILING_Y, false, false);
}

static void test_tiled_without_fence(void)
{
	uint32_t blt[] = { XY_COLOR_BLT_CMD | XY_BLT_WRITE_ALPHA | XY_BLT_WRITE_RGB | XY_BLT_DST_TILED,
			   3u << 24 | 0xf0u << 16 | 1024, 0, 1 << 16 | 1, FENCED_GTT, 0 };
	struct tgpu t;

	t_init(&t);
	t_bind(&t, FENCED_GTT, 8192);
	t_bind(&t, BATCH_GTT, 4096);
	t_exec(&t, blt, 6, false);
	expect_instruction_error(&t, blt[0], BATCH_GTT);
	reset_and_check(&t);
	t_fini(&t);
}

/* ---- 3D ------------------------------------------------------------- */

static void test_3d_parse(void)
{
	uint32_t cmds[] = {
		0x7d040173, DATA_GTT + 64, 0x03030000,	/* LIS1: S0, S1, */
		0xffffffff, 0x00002040,			/* S2, S4 */
		0x6d000000,				/* 3DSTATE_MODES_4 */
		0x7c880000,				/* DEPTH_SUBRECT_DISABLE */
		0x7d800003, 0, 0, 0x00ff00ff, 0,	/* DRAWING_RECTANGLE */
		0x7d880000, 0xff000000,			/* CONSTANT_BLEND_COLOR */
		0x7d050002, 0x19083c00, 0, 0,		/* PS program: DCL T0 */
		0x7f1c0005, 0, 0, 0, 0, 0, 0,		/* 3DPRIMITIVE RECTLIST */
		0x7f820000, 0x00010000, 0xffff0002,	/* indexed, terminated */
		MI_STORE_DWORD_IMM_GTT, 0, DATA_GTT, 0x3d,
	};
	struct gpu_stats st;
	struct tgpu t;
	uint32_t *data;

	t_init(&t);
	data = t_bind(&t, DATA_GTT, 4096);
	t_exec(&t, cmds, sizeof(cmds) / 4, true);
	gt_assert_eq(data[0], 0x3d);
	gpu_get_stats(t.gpu, &st);
	/* ring: 4 and the pad; batch: 8 3D, the store and the end */
	gt_assert_eq(st.commands, 5 + 10);
	gt_assert_eq(st.blits, 0);
	t_fini(&t);
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);
	gemtest_subtest("ring-seqno-interrupt") test_ring_seqno();
	gemtest_subtest("ring-wrap") test_ring_wrap();
	gemtest_subtest("ring-partial-command") test_partial_command();
	gemtest_subtest("store-dword-imm") test_store_dword_imm();
	gemtest_subtest("store-dword-imm-945-form") test_store_dword_imm_945();
	gemtest_subtest("load-register-imm") test_lri_noop_id();
	gemtest_subtest("batch-start-end") test_batch_start_end();
	gemtest_subtest("batch-chain") test_batch_chain();
	gemtest_subtest("self-loop-busy") test_self_loop();
	gemtest_subtest("wait-for-event-kick") test_wait_for_event();
	gemtest_subtest("inline-run") test_inline_run();
	gemtest_subtest("inline-leaves-blocking-work") test_inline_leaves();
	gemtest_subtest("unknown-opcode-reset") test_unknown_opcode();
	gemtest_subtest("page-fault") test_page_fault();
	gemtest_subtest("scratch-page") test_scratch_page();
	gemtest_subtest("reset-from-error-callback") test_reset_from_callback();
	gemtest_subtest("reset-while-spinning") test_reset_while_spinning();
	gemtest_subtest("mmio") test_mmio();
	gemtest_subtest("speed-model") test_speed_model();
	gemtest_subtest("request-cost") test_request_cost();
	gemtest_subtest("xy-color-blt") test_xy_color_blt();
	gemtest_subtest("xy-src-copy-blt") test_xy_src_copy_blt();
	gemtest_subtest("legacy-and-scanline-blts") test_legacy_blts();
	gemtest_subtest("tile-geometry") test_tile_geometry();
	gemtest_subtest("tiled-blits") test_tiled_blits();
	gemtest_subtest("fence-alone-detiles") test_fence_alone_detiles();
	gemtest_subtest("tiled-without-fence") test_tiled_without_fence();
	gemtest_subtest("3d-commands-without-buffers") test_3d_parse();
	return gemtest_exit();
}
