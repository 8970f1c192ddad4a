/* The command streamer thread: ring and batch fetch, MI commands, errors. */
#include <sched.h>
#include <sys/prctl.h>

#include "cmdtab.h"
#include "gpu_priv.h"
#include "util.h"

/* After finishing, poll this long before sleeping.  Short batches run on
 * the submitting thread (gpu_run), so the CS thread finishes only long
 * work, after which a new request is no more likely than at any time: a
 * long spin would only bill gemd's CPU for slow clients. */
#define CS_SPIN_NS		5000ull
/* An inline run stops at a batch that has jumped this often: a loop. */
#define CS_INLINE_CHAIN		64u
/* An inline run looks at the clock every this many commands. */
#define CS_INLINE_CLOCK_EVERY	16u
/* A batch that keeps jumping without returning is spinning (gem_busy's
 * self-loop); past this many jumps, re-read it only every CS_LOOP_NAP_NS
 * so that the CPU that will end it gets to run. */
#define CS_LOOP_SPINS		2048u
#define CS_LOOP_NAP_NS		50000ull

static uint64_t cs_addr(struct gpu *gpu, uint32_t idx)
{
	struct cs_state *cs = &gpu->cs;

	if (cs->in_batch)
		return (uint64_t)cs->batch_addr + 4ull * idx;
	return (uint64_t)reg_get(gpu, PRB0_START) +
	       (cs->head + 4ull * idx) % cs->ring_size;
}

bool cs_fetch(struct gpu *gpu, uint32_t idx, uint32_t *val)
{
	uint64_t addr = cs_addr(gpu, idx);

	if (gtt_read32(gpu, addr, val))
		return true;
	gpu->cs.fault_addr = addr;	/* the fetch that faulted: FADDR */
	return false;
}

uint32_t cs_fetch_limit(struct gpu *gpu)
{
	return gpu->cs.in_batch ? UINT32_MAX : gpu->cs.avail / 4;
}

enum cs_status cs_check_span(struct gpu *gpu, uint32_t len)
{
	uint32_t idx = 0;

	while (idx < len) {
		uint64_t addr = cs_addr(gpu, idx);

		if (addr >= gpu->cfg.aperture_size) {	/* else bound or scratch */
			gpu->cs.fault_addr = addr;
			return CS_FAULT;
		}
		/* Next page boundary (in the ring, also the wrap point). */
		idx += (uint32_t)((GTT_PAGE_SIZE - (addr & (GTT_PAGE_SIZE - 1))) / 4);
	}
	return CS_OK;
}

/*
 * Latch the error the way hangcheck and i915_error_state will read it:
 * ACTHD already points at the command, IPEHR gets its header, INSTDONE
 * shows the parser busy, and the CS stops until gpu_reset().
 */
static enum cs_status cs_stop(struct gpu *gpu, enum cs_status st)
{
	uint32_t bit = st == CS_FAULT ? I915_ERROR_PAGE_TABLE
				      : I915_ERROR_INSTRUCTION;

	if (st == CS_FAULT)
		reg_or(gpu, PGTBL_ER, PGTBL_ER_RENDER_PTE);
	reg_set(gpu, IPEHR, gpu->cs.hdr);
	reg_set(gpu, IPEIR, 0);
	reg_set(gpu, ACTHD, gpu->cs.acthd);
	/* The address error states print as FADDR: what faulted, else the
	 * command that stopped the parser. */
	reg_set(gpu, DMA_FADD_I8XX, st == CS_FAULT ? (uint32_t)gpu->cs.fault_addr
						   : gpu->cs.acthd);
	reg_set(gpu, INSTDONE, GPU_INSTDONE_BUSY);
	reg_or(gpu, ESR, bit);
	reg_or(gpu, EIR, bit);
	reg_or(gpu, IIR, I915_RENDER_COMMAND_PARSER_ERROR_INTERRUPT);
	/* The chip sits on the command until the reset: GPU time, which
	 * gpu_sample counts, so that hangcheck finds it stuck. */
	pthread_mutex_lock(&gpu->lock);
	gpu->wait_start_ns = gpu_now_ns();
	atomic_store(&gpu->stopped, true);
	pthread_mutex_unlock(&gpu->lock);
	if (gpu->ops.error_interrupt)
		gpu->ops.error_interrupt(gpu->data);
	return st;
}

/* Work for the CS: ring valid, HEAD != TAIL, nothing latched. */
static bool cs_has_work(struct gpu *gpu)
{
	uint32_t tail;

	if (gpu_cs_aborted(gpu) || atomic_load(&gpu->stopped))
		return false;
	if (!(reg_get(gpu, PRB0_CTL) & RING_VALID))
		return false;
	tail = reg_get(gpu, PRB0_TAIL) & TAIL_ADDR;
	if (tail == atomic_load(&gpu->partial_tail))
		return false;
	return (reg_get(gpu, PRB0_HEAD) & HEAD_ADDR) != tail;
}

/* Locate the next ring command; CS_IDLE when HEAD has caught up. */
static enum cs_status cs_ring_position(struct gpu *gpu)
{
	struct cs_state *cs = &gpu->cs;
	uint32_t ctl = reg_get(gpu, PRB0_CTL);
	uint32_t head = reg_get(gpu, PRB0_HEAD) & HEAD_ADDR;
	uint32_t tail = reg_get(gpu, PRB0_TAIL) & TAIL_ADDR;
	uint32_t size = (ctl & RING_NR_PAGES) + GTT_PAGE_SIZE;

	if (!(ctl & RING_VALID) || head == tail)
		return CS_IDLE;
	cs->ring_size = size;
	cs->head = head;
	cs->acthd = reg_get(gpu, PRB0_START) + head;
	if (head >= size || tail >= size) {
		/* HEAD or TAIL outside the ring: the parser runs off into
		 * whatever follows, which we report rather than emulate. */
		cs->hdr = 0;
		return CS_INVALID;
	}
	cs->avail = tail > head ? tail - head : size - head + tail;
	return CS_OK;
}

static void cs_advance(struct gpu *gpu, uint32_t len)
{
	struct cs_state *cs = &gpu->cs;
	uint32_t reg, wrap;

	if (cs->in_batch) {
		cs->batch_addr += 4 * len;
		return;
	}
	reg = reg_get(gpu, PRB0_HEAD);
	wrap = reg & HEAD_WRAP_COUNT;
	cs->head += 4 * len;
	if (cs->head >= cs->ring_size) {
		cs->head -= cs->ring_size;
		wrap += HEAD_WRAP_ONE;
	}
	reg_set(gpu, PRB0_HEAD, wrap | cs->head);
}

static enum cs_status mi_wait_for_event(struct gpu *gpu)
{
	/* No display, so no event: only gpu_kick(), a CTL write or a reset
	 * gets the CS out of here.  The chip waits as long: GPU time, which
	 * gpu_sample counts while the wait lasts. */
	pthread_mutex_lock(&gpu->lock);
	gpu->waiting = true;
	gpu->wait_start_ns = gpu_now_ns();
	reg_or(gpu, PRB0_CTL, RING_WAIT);
	while (gpu->waiting && !gpu->quit && !gpu_cs_aborted(gpu))
		pthread_cond_wait(&gpu->cs_cond, &gpu->lock);
	gpu->waiting = false;
	cs_credit(gpu, gpu_now_ns() - gpu->wait_start_ns);
	gpu->wait_start_ns = 0;
	pthread_mutex_unlock(&gpu->lock);
	return gpu_cs_aborted(gpu) ? CS_ABORT : CS_OK;
}

static enum cs_status mi_batch_start(struct gpu *gpu, uint32_t len)
{
	struct cs_state *cs = &gpu->cs;
	uint32_t addr;

	if (!cs_fetch(gpu, 1, &addr))
		return CS_FAULT;
	/* Bit 0 is the gen2/3 non-secure flag; commands are dword aligned. */
	addr &= ~3u;
	stat_add(&gpu->st_batches, 1);
	if (!cs->in_batch) {
		if (gpu->cfg.stall_ns && !gpu_cs_stall(gpu, gpu->cfg.stall_ns))
			return CS_ABORT;
		/* HEAD moves past the start first, as on hardware, so an error
		 * capture walking back from HEAD finds this batch. */
		cs_advance(gpu, len);
		cs->in_batch = true;
		cs->chain = 0;
	} else if (++cs->chain > CS_LOOP_SPINS) {
		if (!gpu_cs_nap(gpu, CS_LOOP_NAP_NS))
			return CS_ABORT;
	} else if ((cs->chain & 63) == 0) {
		sched_yield();
	}
	cs->batch_addr = addr;
	return CS_JUMPED;
}

static enum cs_status mi_store_dword(struct gpu *gpu, uint32_t len)
{
	/* The 945G's three-dword form (header, address, value: Linux's and
	 * IGT's on gen3) or the four/five-dword one with a reserved dword
	 * first (gemkit's emitters; cmds.def).  The address is taken as GTT
	 * whether or not bit 22 asks for it. */
	uint32_t at = len == 3 ? 1 : 2;
	uint32_t addr, val, i;

	if (!cs_fetch(gpu, at, &addr))
		return CS_FAULT;
	for (i = at + 1; i < len; i++) {
		if (!cs_fetch(gpu, i, &val))
			return CS_FAULT;
		uint64_t to = (uint64_t)(addr & ~3u) + 4 * (i - at - 1);

		if (!gtt_write32(gpu, to, val)) {
			gpu->cs.fault_addr = to;
			return CS_FAULT;
		}
	}
	return CS_OK;
}

static enum cs_status mi_store_index(struct gpu *gpu, uint32_t len)
{
	uint32_t off, val, i, idx;

	if (!cs_fetch(gpu, 1, &off))
		return CS_FAULT;
	idx = (off >> 2) & (GTT_PAGE_SIZE / 4 - 1);
	for (i = 2; i < len; i++, idx++) {
		if (!cs_fetch(gpu, i, &val))
			return CS_FAULT;
		/* Release: what the commands before wrote is visible to a CPU
		 * that sees the new seqno. */
		__atomic_store_n(&gpu->hws[idx & (GTT_PAGE_SIZE / 4 - 1)], val,
				 __ATOMIC_RELEASE);
	}
	return CS_OK;
}

static enum cs_status mi_load_register(struct gpu *gpu, uint32_t len)
{
	uint32_t reg, val, i;

	for (i = 1; i + 1 < len; i += 2) {
		if (!cs_fetch(gpu, i, &reg) || !cs_fetch(gpu, i + 1, &val))
			return CS_FAULT;
		gpu_write_from_cs(gpu, reg & 0x007ffffc, val);
	}
	return CS_OK;
}

static enum cs_status mi_exec(struct gpu *gpu, const struct gen3_cmd *cmd,
			      uint32_t hdr, uint32_t len)
{
	struct cs_state *cs = &gpu->cs;

	switch (cmd->id) {
	case GEN3_MI_NOOP:
		if (hdr & MI_NOOP_WRITE_ID)
			reg_set(gpu, NOPID, hdr & MI_NOOP_ID_MASK);
		return CS_OK;
	case GEN3_MI_USER_INTERRUPT:
		reg_or(gpu, IIR, I915_USER_INTERRUPT);
		stat_add(&gpu->st_interrupts, 1);
		if (gpu->ops.user_interrupt)
			gpu->ops.user_interrupt(gpu->data);
		return CS_OK;
	case GEN3_MI_WAIT_FOR_EVENT:
		return mi_wait_for_event(gpu);
	case GEN3_MI_FLUSH:
	case GEN3_MI_ARB_CHECK:
	case GEN3_MI_REPORT_HEAD:
	case GEN3_MI_ARB_ON_OFF:
		/* Caches and arbitration the model does not have: with one
		 * ring, MI_ARB_CHECK has nothing to switch to. */
		return CS_OK;
	case GEN3_MI_BATCH_BUFFER_END:
		if (!cs->in_batch)
			return CS_OK;	/* harmless in the ring */
		cs->in_batch = false;
		cs->chain = 0;
		return CS_JUMPED;
	case GEN3_MI_STORE_DATA_IMM:
		return mi_store_dword(gpu, len);
	case GEN3_MI_STORE_DATA_INDEX:
		return mi_store_index(gpu, len);
	case GEN3_MI_LOAD_REGISTER_IMM:
		return mi_load_register(gpu, len);
	case GEN3_MI_BATCH_BUFFER_START:
		return mi_batch_start(gpu, len);
	default:
		/* In the table, not in the model: refuse rather than skip. */
		return CS_INVALID;
	}
}

static enum cs_status blit_fetch_exec(struct gpu *gpu, const struct gen3_cmd *cmd,
				      uint32_t len)
{
	uint32_t dw[CS_MAX_CMD], i;

	for (i = 0; i < len; i++)
		if (!cs_fetch(gpu, i, &dw[i]))
			return CS_FAULT;
	return blit_exec(gpu, cmd, dw, len);
}

/* Dwords past the header for a length rule that reads them: in the ring
 * only up to TAIL, the rest is not written yet. */
static int cs_fetch_for_length(void *ctx, uint32_t idx, uint32_t *dw)
{
	struct gpu *gpu = ctx;

	if (idx >= cs_fetch_limit(gpu))
		return GEN3_LEN_SHORT;
	return cs_fetch(gpu, idx, dw) ? 0 : GEN3_LEN_FAULT;
}

enum cs_status cs_decode_length(const struct gen3_cmd *cmd, uint32_t hdr,
				gen3_fetch_fn fetch, void *ctx, uint32_t *len)
{
	if (!cmd)
		return CS_INVALID;
	switch (gen3_cmd_length(cmd, hdr, fetch, ctx, len)) {
	case GEN3_LEN_OK:
		return CS_OK;
	case GEN3_LEN_SHORT:
		return CS_PARTIAL;
	case GEN3_LEN_FAULT:
		return CS_FAULT;
	case GEN3_LEN_BAD:
		break;
	}
	return CS_INVALID;
}

/*
 * What an inline run leaves to the CS thread, before executing any of it:
 * what may block (MI_WAIT_FOR_EVENT waits for a kick), what takes long (3D
 * rendering), and a batch that loops.  Unknown commands stop the ring
 * wherever they run.
 */
static bool cs_inline_refuses(const struct cs_state *cs, const struct gen3_cmd *cmd)
{
	if (!cmd)
		return false;
	if (cmd->client != GEN3_CLIENT_MI && cmd->client != GEN3_CLIENT_2D)
		return true;
	return cmd->id == GEN3_MI_WAIT_FOR_EVENT ||
	       (cmd->id == GEN3_MI_BATCH_BUFFER_START && cs->in_batch &&
		cs->chain >= CS_INLINE_CHAIN);
}

/* Fetch, decode and execute one command. */
static enum cs_status cs_step(struct gpu *gpu)
{
	struct cs_state *cs = &gpu->cs;
	const struct gen3_cmd *cmd;
	enum cs_status st;
	uint32_t hdr, len = 1;
	bool idle;

	if (gpu_cs_aborted(gpu))
		return CS_ABORT;
	if (!cs->in_batch) {
		st = cs_ring_position(gpu);
		if (st == CS_IDLE)
			return st;
		if (st != CS_OK)
			return cs_stop(gpu, st);
	} else {
		cs->acthd = cs->batch_addr;
	}
	reg_set(gpu, ACTHD, cs->acthd);
	cs->hdr = 0;
	if (!cs_fetch(gpu, 0, &hdr))
		return cs_stop(gpu, CS_FAULT);
	cs->hdr = hdr;
	/* The parser's current header, as hangcheck's capture reads it. */
	reg_set(gpu, IPEHR, hdr);

	cmd = gen3_cmd_lookup(hdr);
	if (cs->inline_run && cs_inline_refuses(cs, cmd))
		return CS_YIELD;
	st = cs_decode_length(cmd, hdr, cs_fetch_for_length, gpu, &len);
	if (st == CS_OK && !cs->in_batch && 4ull * len > cs->avail) {
		if (4ull * len > cs->ring_size - 8)
			st = CS_INVALID;
		else
			st = CS_PARTIAL;
	}
	if (st == CS_PARTIAL) {
		/* The rest is not written yet: sleep until TAIL moves. */
		atomic_store(&gpu->partial_tail,
			     (cs->head + cs->avail) % cs->ring_size);
		return st;
	}
	if (st != CS_OK)
		return cs_stop(gpu, st);

	/* A batch jumping (to itself, say) gets nothing done by that, nor
	 * does a wait that a kick broke. */
	idle = (cs->in_batch && cmd->id == GEN3_MI_BATCH_BUFFER_START) ||
	       cmd->id == GEN3_MI_WAIT_FOR_EVENT;
	switch (cmd->client) {
	case GEN3_CLIENT_MI:
		st = mi_exec(gpu, cmd, hdr, len);
		break;
	case GEN3_CLIENT_2D:
		st = blit_fetch_exec(gpu, cmd, len);
		break;
	default:
		st = cmd3d_exec(gpu, cmd, len);
		break;
	}
	if (st == CS_FAULT || st == CS_INVALID)
		return cs_stop(gpu, st);
	/* A callback may have reset us; then HEAD must stay as reset left it. */
	if (st == CS_ABORT || gpu_cs_aborted(gpu))
		return CS_ABORT;

	stat_add(&gpu->st_commands, 1);
	if (!idle)
		cs_progress(gpu, 1);
	if (st == CS_OK)
		cs_advance(gpu, len);
	if (gpu->cfg.cmd_cost_ns)
		gpu_charge(gpu, gpu->cfg.cmd_cost_ns);
	return CS_OK;
}

/* Run until idle or an error; an inline run (deadline) also until the
 * deadline or a command it leaves to the CS thread.  cpu_ns: as
 * for gpu_ops.run_start. */
static void cs_run(struct gpu *gpu, uint64_t deadline, uint64_t cpu_ns)
{
	uint64_t start = gpu_now_ns();
	enum cs_status st;
	uint32_t n = 0;

	gpu->cs.run_start_ns = start;
	if (gpu->ops.run_start)
		gpu->ops.run_start(gpu->data, cpu_ns);
	atomic_store(&gpu->partial_tail, GPU_NO_TAIL);
	reg_set(gpu, INSTDONE, GPU_INSTDONE_BUSY);
	do {
		st = cs_step(gpu);
		if (deadline && st == CS_OK && !(++n % CS_INLINE_CLOCK_EVERY) &&
		    gpu_now_ns() >= deadline)
			st = CS_YIELD;
	} while (st == CS_OK);
	/* Yielded: the CS thread goes on, still busy. */
	if (st != CS_YIELD && !atomic_load(&gpu->stopped))
		reg_set(gpu, INSTDONE, INSTDONE_IDLE);
	stat_add(&gpu->st_busy_ns, gpu_now_ns() - start);
}

/* The executing thread lets go (gpu->lock held). */
static void cs_release(struct gpu *gpu)
{
	atomic_store(&gpu->executing, false);
	atomic_store(&gpu->reset_in_cs, false);
	pthread_cond_broadcast(&gpu->parked_cond);
}

void gpu_run(struct gpu *gpu, uint64_t budget_ns)
{
	uint64_t cpu0, cpu1;

	pthread_mutex_lock(&gpu->lock);
	/* A CS thread that is awake finds the work itself. */
	if (!gpu->sleeping || atomic_load(&gpu->executing) || !cs_has_work(gpu))
		goto out_unlock;
	if (!budget_ns || gpu->cfg.cmd_cost_ns || gpu->cfg.blit_bytes_per_sec) {
		pthread_cond_signal(&gpu->cs_cond);
		goto out_unlock;
	}
	atomic_store(&gpu->executing, true);
	gpu->runner = pthread_self();
	gpu->cs.inline_run = true;
	pthread_mutex_unlock(&gpu->lock);

	stat_add(&gpu->st_inline_runs, 1);
	/* GPU time is the executing thread's CPU time (gpu_sample): this
	 * thread's counts as the CS thread's would. */
	cpu0 = thread_cpu_ns();
	cs_run(gpu, gpu_now_ns() + budget_ns, cpu0);
	cpu1 = thread_cpu_ns();
	cs_credit(gpu, cpu1 - cpu0);
	if (gpu->ops.run_end)
		gpu->ops.run_end(gpu->data, cpu1);

	pthread_mutex_lock(&gpu->lock);
	gpu->cs.inline_run = false;
	cs_release(gpu);
	if (cs_has_work(gpu))
		pthread_cond_signal(&gpu->cs_cond);
out_unlock:
	pthread_mutex_unlock(&gpu->lock);
}

static void cs_spin_for_work(struct gpu *gpu)
{
	uint64_t end = gpu_now_ns() + CS_SPIN_NS;
	unsigned int i;

	for (i = 1; !cs_has_work(gpu); i++) {
		if (!(i & 63) && gpu_now_ns() >= end)
			return;
		cpu_relax();
	}
}

void *gpu_cs_thread(void *arg)
{
	struct gpu *gpu = arg;

	/* Naps of 50 us, not the default slack's 100: GPU time (gpu.h) is
	 * credited for at most twice the nap asked for. */
	prctl(PR_SET_TIMERSLACK, 1000ul, 0, 0, 0);

	for (;;) {
		cs_spin_for_work(gpu);

		pthread_mutex_lock(&gpu->lock);
		/* gpu_run's caller may be executing: wait for it too. */
		while (!gpu->quit && (atomic_load(&gpu->executing) || !cs_has_work(gpu))) {
			gpu->sleeping = true;
			pthread_cond_wait(&gpu->cs_cond, &gpu->lock);
			gpu->sleeping = false;
		}
		if (gpu->quit) {
			pthread_mutex_unlock(&gpu->lock);
			break;
		}
		atomic_store(&gpu->executing, true);
		gpu->runner = pthread_self();
		pthread_mutex_unlock(&gpu->lock);

		cs_run(gpu, 0, 0);

		pthread_mutex_lock(&gpu->lock);
		cs_release(gpu);
		pthread_mutex_unlock(&gpu->lock);
	}
	return NULL;
}
