/* The 945G model's lifecycle, MMIO register file, page table and fences. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "3d-priv.h"
#include "gpu_priv.h"

/* Registers that exist; anything else reads 0 and ignores writes. */
static bool reg_known(uint32_t reg)
{
	if (reg >= FENCE_REG_830_0 && reg < FENCE_REG_830_0 + 8 * 4)
		return true;
	if (reg >= FENCE_REG_945_8 && reg < FENCE_REG_945_8 + 8 * 4)
		return true;
	switch (reg) {
	case PRB0_TAIL: case PRB0_HEAD: case PRB0_START: case PRB0_CTL:
	case HWS_PGA: case IPEIR: case IPEHR: case INSTDONE: case NOPID:
	case HWSTAM: case IER: case IIR: case IMR: case ISR:
	case EIR: case EMR: case ESR: case INSTPM: case ACTHD: case DMA_FADD_I8XX:
	case PGTBL_CTL: case PGTBL_ER:
		return true;
	}
	return false;
}

/* Wake the CS if it sleeps for work; the lock orders this against its
 * last look at the registers, so no wake-up is lost. */
static void cs_wake(struct gpu *gpu)
{
	pthread_mutex_lock(&gpu->lock);
	if (gpu->sleeping)
		pthread_cond_signal(&gpu->cs_cond);
	pthread_mutex_unlock(&gpu->lock);
}

/* Rewriting CTL is how i915's kick_ring() breaks MI_WAIT_FOR_EVENT. */
static void break_wait(struct gpu *gpu)
{
	pthread_mutex_lock(&gpu->lock);
	if (gpu->waiting) {
		gpu->waiting = false;
		reg_clear(gpu, PRB0_CTL, RING_WAIT);
		pthread_cond_broadcast(&gpu->cs_cond);
	}
	pthread_mutex_unlock(&gpu->lock);
}

uint32_t gpu_read(struct gpu *gpu, uint32_t reg)
{
	if (reg >= GPU_MMIO_SIZE || (reg & 3) || !reg_known(reg))
		return 0;
	return reg_get(gpu, reg);
}

static void reg_write(struct gpu *gpu, uint32_t reg, uint32_t val, bool from_cs)
{
	if (reg >= GPU_MMIO_SIZE || (reg & 3) || !reg_known(reg))
		return;
	switch (reg) {
	case PRB0_TAIL:
	case PRB0_HEAD:
	case PRB0_START:
	case PRB0_CTL:
		/* The CS reprogramming its own ring is not something the
		 * driver does; ignore it rather than corrupt HEAD. */
		if (from_cs)
			return;
		if (reg == PRB0_TAIL)
			reg_set(gpu, reg, val & TAIL_ADDR);
		else if (reg == PRB0_HEAD)
			reg_set(gpu, reg, val & (HEAD_ADDR | HEAD_WRAP_COUNT));
		else if (reg == PRB0_START)
			reg_set(gpu, reg, val & ~(GTT_PAGE_SIZE - 1));
		else {
			/* RING_WAIT is status: keep it until the wait breaks. */
			uint32_t wait = reg_get(gpu, PRB0_CTL) & RING_WAIT;

			reg_set(gpu, reg, (val & ~RING_WAIT) | wait);
			break_wait(gpu);
		}
		cs_wake(gpu);
		return;
	case IIR:
	case EIR:
	case PGTBL_ER:
	case IPEIR:
		/* Write one to clear, as i915_report_and_clear_eir expects. */
		reg_clear(gpu, reg, val);
		return;
	case IPEHR:
	case INSTDONE:
	case ISR:
	case ESR:
	case ACTHD:
	case DMA_FADD_I8XX:
		return;		/* read-only */
	default:
		reg_set(gpu, reg, val);
		return;
	}
}

void gpu_write(struct gpu *gpu, uint32_t reg, uint32_t val)
{
	reg_write(gpu, reg, val, false);
}

void gpu_submit(struct gpu *gpu, uint32_t tail)
{
	reg_set(gpu, PRB0_TAIL, tail & TAIL_ADDR);
}

void gpu_write_from_cs(struct gpu *gpu, uint32_t reg, uint32_t val)
{
	reg_write(gpu, reg, val, true);
}

volatile uint32_t *gpu_hws(struct gpu *gpu)
{
	return gpu->hws;
}

int gpu_cs_nice_error(const struct gpu *gpu)
{
	return gpu->cs_nice_err;
}

uint64_t gpu_aperture_size(const struct gpu *gpu)
{
	return gpu->cfg.aperture_size;
}

void gpu_gtt_set_page(struct gpu *gpu, uint32_t page, void *host)
{
	if (page >= gpu->npages)
		return;
	atomic_store_explicit(&gpu->pte[page], (uintptr_t)host,
			      memory_order_release);
}

void gpu_gtt_bind(struct gpu *gpu, uint32_t gtt_offset, void *host, uint32_t size)
{
	uint32_t first = gtt_offset >> GTT_PAGE_SHIFT;
	uint32_t n = (size + GTT_PAGE_SIZE - 1) >> GTT_PAGE_SHIFT;
	uint32_t i;

	for (i = 0; i < n && first + i < gpu->npages; i++)
		gpu_gtt_set_page(gpu, first + i,
				 (uint8_t *)host + (size_t)i * GTT_PAGE_SIZE);
}

void gpu_gtt_clear(struct gpu *gpu, uint32_t gtt_offset, uint32_t size)
{
	uint32_t first = gtt_offset >> GTT_PAGE_SHIFT;
	uint32_t n = (size + GTT_PAGE_SIZE - 1) >> GTT_PAGE_SHIFT;
	uint32_t i;

	for (i = 0; i < n && first + i < gpu->npages; i++)
		gpu_gtt_set_page(gpu, first + i, NULL);
}

void gpu_gtt_bind_scratch(struct gpu *gpu, uint32_t gtt_offset, uint32_t size)
{
	uint32_t first = gtt_offset >> GTT_PAGE_SHIFT;
	uint32_t n = (size + GTT_PAGE_SIZE - 1) >> GTT_PAGE_SHIFT;
	uint32_t i;

	for (i = 0; i < n && first + i < gpu->npages; i++)
		gpu_gtt_set_page(gpu, first + i, gpu->scratch_page);
}

const void *gpu_scratch_page(const struct gpu *gpu)
{
	return gpu->scratch_page;
}

void *gpu_gtt_host(struct gpu *gpu, uint32_t gtt_offset)
{
	return gtt_pte_host(gpu, gtt_offset);
}

int gpu_fence_lookup(struct gpu *gpu, uint32_t addr, enum gpu_tiling *tiling,
		     uint32_t *stride)
{
	int i;

	for (i = 0; i < GEN3_NUM_FENCES; i++) {
		uint32_t val = reg_get(gpu, fence_reg_offset(i));
		uint64_t start = val & I915_FENCE_START_MASK;
		uint64_t size = (1ull << 20) << ((val >> 8) & 0xf);
		enum gpu_tiling t;

		if (!(val & I830_FENCE_REG_VALID))
			continue;
		if (addr < start || addr >= start + size)
			continue;
		t = val & (1u << I830_FENCE_TILING_Y_SHIFT) ? GPU_TILING_Y
							     : GPU_TILING_X;
		*tiling = t;
		*stride = gpu_tile_width(t) << ((val >> I830_FENCE_PITCH_SHIFT) & 0xf);
		return 0;
	}
	return -1;
}

bool gpu_idle(struct gpu *gpu)
{
	uint32_t head = reg_get(gpu, PRB0_HEAD) & HEAD_ADDR;
	uint32_t tail = reg_get(gpu, PRB0_TAIL) & TAIL_ADDR;

	return !atomic_load(&gpu->executing) && !atomic_load(&gpu->stopped) &&
	       !(reg_get(gpu, PRB0_CTL) & RING_WAIT) && head == tail;
}

bool gpu_cs_asleep(struct gpu *gpu)
{
	bool asleep;

	pthread_mutex_lock(&gpu->lock);
	asleep = gpu->sleeping;
	pthread_mutex_unlock(&gpu->lock);
	return asleep;
}

bool gpu_stopped(struct gpu *gpu)
{
	return atomic_load(&gpu->stopped);
}

void gpu_kick(struct gpu *gpu)
{
	break_wait(gpu);
}

/* Called with gpu->lock held and the CS parked (or from the CS itself). */
static void reset_locked(struct gpu *gpu)
{
	reg_set(gpu, EIR, 0);
	reg_set(gpu, ESR, 0);
	reg_set(gpu, IPEHR, 0);
	reg_set(gpu, IPEIR, 0);
	reg_set(gpu, PGTBL_ER, 0);
	reg_set(gpu, PRB0_CTL, 0);
	reg_set(gpu, PRB0_HEAD, 0);
	reg_set(gpu, PRB0_TAIL, 0);
	reg_set(gpu, ACTHD, 0);
	reg_set(gpu, DMA_FADD_I8XX, 0);
	reg_set(gpu, INSTDONE, INSTDONE_IDLE);
	gpu->waiting = false;
	/* A stopped parser's wait (cs_stop) ends here; one in
	 * MI_WAIT_FOR_EVENT is credited by the CS as it leaves. */
	if (atomic_load(&gpu->stopped) && gpu->wait_start_ns) {
		cs_credit(gpu, gpu_now_ns() - gpu->wait_start_ns);
		gpu->wait_start_ns = 0;
	}
	memset(&gpu->cs, 0, sizeof(gpu->cs));
	r3d_reset(gpu->r3d);
	atomic_store(&gpu->partial_tail, GPU_NO_TAIL);
	atomic_store(&gpu->stopped, false);
}

void gpu_reset(struct gpu *gpu)
{
	pthread_mutex_lock(&gpu->lock);
	if (pthread_equal(pthread_self(), gpu->thread) ||
	    (atomic_load(&gpu->executing) && pthread_equal(pthread_self(), gpu->runner))) {
		/* From an interrupt callback: the CS is right here, so it
		 * cannot be executing; tell it to drop the current command. */
		reset_locked(gpu);
		atomic_store(&gpu->reset_in_cs, true);
		pthread_mutex_unlock(&gpu->lock);
		return;
	}
	atomic_store(&gpu->abort, true);
	pthread_cond_broadcast(&gpu->cs_cond);
	while (atomic_load(&gpu->executing))
		pthread_cond_wait(&gpu->parked_cond, &gpu->lock);
	reset_locked(gpu);
	atomic_store(&gpu->abort, false);
	pthread_mutex_unlock(&gpu->lock);
}

void gpu_get_stats(struct gpu *gpu, struct gpu_stats *st)
{
	st->commands = atomic_load_explicit(&gpu->st_commands, memory_order_relaxed);
	st->batches = atomic_load_explicit(&gpu->st_batches, memory_order_relaxed);
	st->blits = atomic_load_explicit(&gpu->st_blits, memory_order_relaxed);
	st->blit_bytes = atomic_load_explicit(&gpu->st_blit_bytes, memory_order_relaxed);
	st->interrupts = atomic_load_explicit(&gpu->st_interrupts, memory_order_relaxed);
	st->busy_ns = atomic_load_explicit(&gpu->st_busy_ns, memory_order_relaxed);
	st->inline_runs = atomic_load_explicit(&gpu->st_inline_runs, memory_order_relaxed);
	st->scratch_accesses = atomic_load_explicit(&gpu->st_scratch_accesses,
						    memory_order_relaxed);
}

uint64_t gpu_busy_now(struct gpu *gpu)
{
	return atomic_load_explicit(&gpu->st_busy_ns, memory_order_relaxed) +
	       (gpu_now_ns() - gpu->cs.run_start_ns);
}

static bool cs_sleep(struct gpu *gpu, uint64_t ns, bool credit)
{
	uint64_t start = gpu_now_ns(), deadline = start + ns, slept;
	struct timespec ts = {
		.tv_sec = (time_t)(deadline / 1000000000ull),
		.tv_nsec = (long)(deadline % 1000000000ull),
	};

	pthread_mutex_lock(&gpu->lock);
	while (!gpu->quit && !gpu_cs_aborted(gpu)) {
		if (pthread_cond_timedwait(&gpu->cs_cond, &gpu->lock, &ts) == ETIMEDOUT)
			break;
	}
	pthread_mutex_unlock(&gpu->lock);
	/* Oversleeping by more than asked is waiting for a CPU, not work. */
	slept = gpu_now_ns() - start;
	if (credit)
		cs_credit(gpu, slept < 2 * ns ? slept : 2 * ns);
	return !gpu_cs_aborted(gpu);
}

bool gpu_cs_nap(struct gpu *gpu, uint64_t ns)
{
	return cs_sleep(gpu, ns, true);
}

bool gpu_cs_stall(struct gpu *gpu, uint64_t ns)
{
	return cs_sleep(gpu, ns, false);
}

void gpu_sample(struct gpu *gpu, struct gpu_progress *p)
{
	struct timespec ts;

	/* A wait in progress is credited when it ends: count it so far. */
	pthread_mutex_lock(&gpu->lock);
	p->run_ns = atomic_load_explicit(&gpu->credit_ns, memory_order_relaxed);
	if (gpu->wait_start_ns)
		p->run_ns += gpu_now_ns() - gpu->wait_start_ns;
	pthread_mutex_unlock(&gpu->lock);
	/* Without the thread's CPU clock, wall time: the old measure. */
	if (!gpu->have_cs_clock || clock_gettime(gpu->cs_clock, &ts))
		clock_gettime(CLOCK_MONOTONIC, &ts);
	p->run_ns += (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	p->work = atomic_load_explicit(&gpu->work, memory_order_relaxed);
	p->commands = atomic_load_explicit(&gpu->st_commands, memory_order_relaxed);
	p->acthd = reg_get(gpu, ACTHD);
	p->instdone = reg_get(gpu, INSTDONE);
}

/* Sleeping per command would cost more than most commands are meant to
 * take, so the debt is paid in chunks of at least 50 us. */
#define CHARGE_CHUNK_NS 50000ull

void gpu_charge(struct gpu *gpu, uint64_t ns)
{
	gpu->cs.debt_ns += ns;
	if (gpu->cs.debt_ns < CHARGE_CHUNK_NS)
		return;
	ns = gpu->cs.debt_ns;
	gpu->cs.debt_ns = 0;
	gpu_cs_nap(gpu, ns);
}

static int config_check(struct gpu_config *cfg)
{
	if (!cfg->aperture_size)
		cfg->aperture_size = GPU_DEFAULT_APERTURE;
	if (cfg->aperture_size & ((1ull << 20) - 1) ||
	    cfg->aperture_size > GPU_MAX_APERTURE)
		return -EINVAL;
	return 0;
}

static void gpu_free(struct gpu *gpu)
{
	r3d_destroy(gpu->r3d);
	free(gpu->scratch);
	free(gpu->scratch_page);
	if (!gpu->cfg.hws)
		free(gpu->hws);
	if (!gpu->cfg.mmio)
		free((void *)gpu->regs);
	free(gpu->pte);
	free(gpu);
}

/*
 * The CS thread is born with cfg->cs_nice: a new thread takes its
 * creator's nice value (per thread on Linux), so this thread lowers its
 * own for the pthread_create and raises it back after, which is always
 * allowed.  True when it was lowered.
 */
static bool nice_for_cs(struct gpu *gpu, int *saved)
{
	errno = 0;
	*saved = getpriority(PRIO_PROCESS, 0);
	if (errno || gpu->cfg.cs_nice >= *saved)
		return false;
	if (setpriority(PRIO_PROCESS, 0, gpu->cfg.cs_nice)) {
		gpu->cs_nice_err = errno;
		return false;
	}
	return true;
}

static int start_thread(struct gpu *gpu)
{
	sigset_t all, old;
	bool niced;
	int ret, saved;

	/* Signals belong to gemd's main loop, never to the CS thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	niced = nice_for_cs(gpu, &saved);
	ret = pthread_create(&gpu->thread, NULL, gpu_cs_thread, gpu);
	if (niced)
		setpriority(PRIO_PROCESS, 0, saved);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		return -ret;
	pthread_setname_np(gpu->thread, "gpu-cs");
	gpu->have_cs_clock = pthread_getcpuclockid(gpu->thread, &gpu->cs_clock) == 0;
	return 0;
}

struct gpu *gpu_create(const struct gpu_config *cfg, const struct gpu_ops *ops,
		       void *data)
{
	pthread_condattr_t attr;
	struct gpu *gpu;
	int ret;

	gpu = calloc(1, sizeof(*gpu));
	if (!gpu) {
		errno = ENOMEM;
		return NULL;
	}
	if (cfg)
		gpu->cfg = *cfg;
	ret = config_check(&gpu->cfg);
	if (ret)
		goto out_free;
	if (ops)
		gpu->ops = *ops;
	gpu->data = data;
	gpu->npages = (uint32_t)(gpu->cfg.aperture_size >> GTT_PAGE_SHIFT);

	ret = -ENOMEM;
	gpu->pte = calloc(gpu->npages, sizeof(*gpu->pte));
	gpu->hws = gpu->cfg.hws ? gpu->cfg.hws :
		   aligned_alloc(GTT_PAGE_SIZE, GTT_PAGE_SIZE);
	gpu->regs = (_Atomic uint32_t *)(gpu->cfg.mmio ? gpu->cfg.mmio :
					 calloc(1, GPU_MMIO_BAR_SIZE));
	gpu->scratch = malloc(BLIT_SCRATCH_SIZE);
	gpu->scratch_page = aligned_alloc(GTT_PAGE_SIZE, GTT_PAGE_SIZE);
	gpu->r3d = r3d_create(gpu);
	if (!gpu->pte || !gpu->hws || !gpu->regs || !gpu->scratch ||
	    !gpu->scratch_page || !gpu->r3d)
		goto out_free;
	memset(gpu->hws, 0, GTT_PAGE_SIZE);
	memset(gpu->scratch_page, 0, GTT_PAGE_SIZE);

	reg_set(gpu, INSTDONE, INSTDONE_IDLE);
	atomic_store(&gpu->partial_tail, GPU_NO_TAIL);

	pthread_mutex_init(&gpu->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&gpu->cs_cond, &attr);
	pthread_condattr_destroy(&attr);
	pthread_cond_init(&gpu->parked_cond, NULL);

	ret = start_thread(gpu);
	if (ret)
		goto out_destroy;
	return gpu;

out_destroy:
	pthread_cond_destroy(&gpu->parked_cond);
	pthread_cond_destroy(&gpu->cs_cond);
	pthread_mutex_destroy(&gpu->lock);
out_free:
	gpu_free(gpu);
	errno = -ret;
	return NULL;
}

void gpu_destroy(struct gpu *gpu)
{
	if (!gpu)
		return;
	pthread_mutex_lock(&gpu->lock);
	gpu->quit = true;
	atomic_store(&gpu->abort, true);
	pthread_cond_broadcast(&gpu->cs_cond);
	pthread_mutex_unlock(&gpu->lock);
	pthread_join(gpu->thread, NULL);

	pthread_cond_destroy(&gpu->parked_cond);
	pthread_cond_destroy(&gpu->cs_cond);
	pthread_mutex_destroy(&gpu->lock);
	gpu_free(gpu);
}
