/* Private state of the 945G model, shared by gpu.c, cs.c, blit.c, cmd3d.c
 * and the 3D pipeline (3d-*.c). */
#ifndef GEMKIT_GPU_PRIV_H
#define GEMKIT_GPU_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "cmdtab.h"
#include "gpu.h"

struct r3d;

#define GPU_MMIO_SIZE		0x4000u		/* every register we model is below */
_Static_assert(GPU_MMIO_SIZE <= GPU_MMIO_BAR_SIZE, "the registers are in the BAR");
#define GPU_DEFAULT_APERTURE	(256ull << 20)
#define GPU_MAX_APERTURE	GEN3_GTT_MAX_SIZE
#define GPU_NO_TAIL		UINT32_MAX
#define GPU_INSTDONE_BUSY	(INSTDONE_IDLE & ~IP_DONE)

/* Longest command whose dwords the CS copies out (XY_SRC_COPY_BLT is 8;
 * MI_LOAD_REGISTER_IMM is walked pair by pair instead). */
#define CS_MAX_CMD		16

/* The row buffer of XY_SRC_COPY_BLT: 65535 pixels of 4 bytes, rounded. */
#define BLIT_SCRATCH_SIZE	(256u << 10)

/* How a command ended, from the handlers back to the CS loop. */
enum cs_status {
	CS_OK = 0,		/* advance past the command */
	CS_JUMPED,		/* the handler moved the cursor itself */
	CS_FAULT,		/* page-table error: PGTBL_ER, stop */
	CS_INVALID,		/* instruction error: IPEHR, stop */
	CS_PARTIAL,		/* ring command not complete before TAIL yet */
	CS_IDLE,		/* nothing left in the ring */
	CS_ABORT,		/* reset or destroy asked the CS to let go */
	CS_YIELD,		/* an inline run stops before this command:
				 * the CS thread takes over (gpu_run) */
};

/* State of the XY_SETUP_BLT family, kept between commands as the chip does. */
struct blit_setup {
	bool valid;
	bool tiled;
	uint32_t hdr;			/* for the 32bpp write-mask bits */
	uint32_t br13;
	uint32_t dst;
	uint32_t bg, fg;
	int32_t clip_x1, clip_y1, clip_x2, clip_y2;
};

/* Where the command streamer fetches from; touched only by the thread
 * that executes (the CS thread, or gpu_run's caller: gpu->executing says
 * one does) and by gpu_reset while none does. */
struct cs_state {
	bool in_batch;
	uint32_t batch_addr;		/* GTT address of the current batch command */
	uint32_t ring_size;		/* bytes, from PRB0_CTL at fetch time */
	uint32_t head;			/* ring offset of the current command */
	uint32_t avail;			/* ring bytes from head to tail */
	uint32_t acthd;			/* GTT address of the current command */
	uint32_t hdr;			/* its header dword */
	uint32_t chain;			/* batch-to-batch jumps since the last return */
	uint64_t debt_ns;		/* speed model: time owed but not slept yet */
	uint64_t blit_frac;		/* speed model: bytes * 1e9 % rate carried over */
	uint64_t fault_addr;		/* GTT address of the last page-table error */
	bool inline_run;		/* executed by gpu_run's caller */
	uint64_t run_start_ns;		/* the run in progress began (cs_run) */
	struct blit_setup setup;
};

struct gpu {
	struct gpu_config cfg;
	struct gpu_ops ops;
	void *data;
	uint32_t npages;
	_Atomic uintptr_t *pte;		/* host page per GTT page, 0 = invalid */
	uint32_t *hws;			/* 4 KiB hardware status page */
	uint8_t *scratch;		/* BLIT_SCRATCH_SIZE, CS thread only */
	uint8_t *scratch_page;		/* GTT_PAGE_SIZE: gpu_gtt_bind_scratch */
	_Atomic uint32_t *regs;		/* GPU_MMIO_BAR_SIZE: cfg.mmio or own */

	pthread_t thread;
	pthread_mutex_t lock;		/* the condvars and the flags below */
	pthread_cond_t cs_cond;		/* the CS sleeps here */
	pthread_cond_t parked_cond;	/* gpu_reset waits here for the CS */
	bool quit;
	bool sleeping;			/* CS waits for work: TAIL writes signal */
	bool waiting;			/* CS in MI_WAIT_FOR_EVENT */
	uint64_t wait_start_ns;		/* since when, 0: not waiting */
	atomic_bool executing;		/* a thread runs the CS: the CS thread
					 * between wake-up and idle, or gpu_run */
	pthread_t runner;		/* which, while executing */
	atomic_bool stopped;		/* error latched, waiting for gpu_reset */
	atomic_bool abort;		/* gpu_reset wants the CS parked */
	atomic_bool reset_in_cs;	/* gpu_reset ran on the CS thread itself */
	_Atomic uint32_t partial_tail;	/* TAIL seen with an incomplete command */

	struct cs_state cs;
	struct r3d *r3d;		/* the 3D pipeline's state, CS thread only */

	/* gpu_sample's GPU time and progress (gpu.h) */
	clockid_t cs_clock;		/* the CS thread's CPU-time clock */
	bool have_cs_clock;
	int cs_nice_err;		/* gpu_cs_nice_error */
	_Atomic uint64_t credit_ns;	/* modelled time: naps, waits */
	_Atomic uint64_t work;

	_Atomic uint64_t st_commands;
	_Atomic uint64_t st_batches;
	_Atomic uint64_t st_blits;
	_Atomic uint64_t st_blit_bytes;
	_Atomic uint64_t st_interrupts;
	_Atomic uint64_t st_busy_ns;
	_Atomic uint64_t st_inline_runs;
	_Atomic uint64_t st_scratch_accesses;
};

static inline uint64_t gpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint32_t reg_get(struct gpu *gpu, uint32_t reg)
{
	return atomic_load_explicit(&gpu->regs[reg >> 2], memory_order_acquire);
}

static inline void reg_set(struct gpu *gpu, uint32_t reg, uint32_t val)
{
	atomic_store_explicit(&gpu->regs[reg >> 2], val, memory_order_release);
}

static inline void reg_or(struct gpu *gpu, uint32_t reg, uint32_t bits)
{
	atomic_fetch_or(&gpu->regs[reg >> 2], bits);
}

static inline void reg_clear(struct gpu *gpu, uint32_t reg, uint32_t bits)
{
	atomic_fetch_and(&gpu->regs[reg >> 2], ~bits);
}

static inline void stat_add(_Atomic uint64_t *st, uint64_t n)
{
	atomic_fetch_add_explicit(st, n, memory_order_relaxed);
}

/* The host page a GTT address's PTE points at, or NULL: invalid PTE or
 * beyond the aperture.  The driver's view (gpu_gtt_host), not the GPU's. */
static inline uint8_t *gtt_pte_host(struct gpu *gpu, uint64_t addr)
{
	uintptr_t page;

	if (addr >= gpu->cfg.aperture_size)
		return NULL;
	page = atomic_load_explicit(&gpu->pte[addr >> GTT_PAGE_SHIFT],
				    memory_order_acquire);
	if (!page)
		return NULL;
	return (uint8_t *)page + (addr & (GTT_PAGE_SIZE - 1));
}

/*
 * GTT access for the GPU side.  The PTE is loaded for every access, never
 * cached across commands, because the driver may rebind between them.
 *
 * The kernel never leaves a GTT entry invalid: every page no object is
 * bound to points at its scratch page (i915_gem_gtt.c, and intel-gtt's
 * clear_range before it), so a 945G reading unbound GTT space reads the
 * scratch page and its writes land there; only an address beyond the
 * GTT is a page-table error.  A PTE of 0 stands for such an entry here,
 * so the driver can tell unbound from bound (gpu_gtt_host); the GPU goes
 * to the scratch page instead, counted (gpu_stats.scratch_accesses) as
 * the trace of a client that addressed memory it did not own.
 * NULL means beyond the aperture: a page-table error.
 */
static inline uint8_t *gtt_ptr(struct gpu *gpu, uint64_t addr)
{
	uint8_t *p;

	if (addr >= gpu->cfg.aperture_size)
		return NULL;
	p = gtt_pte_host(gpu, addr);
	if (p)
		return p;
	atomic_fetch_add_explicit(&gpu->st_scratch_accesses, 1,
				  memory_order_relaxed);
	return gpu->scratch_page + (addr & (GTT_PAGE_SIZE - 1));
}

/* The GPU got something done (gpu_progress.work). */
static inline void cs_progress(struct gpu *gpu, uint64_t n)
{
	atomic_fetch_add_explicit(&gpu->work, n, memory_order_relaxed);
}

/* Time the model spent on purpose counts as GPU time. */
static inline void cs_credit(struct gpu *gpu, uint64_t ns)
{
	atomic_fetch_add_explicit(&gpu->credit_ns, ns, memory_order_relaxed);
}

/* Dword accesses are atomic so that the CPU can rewrite a spinning batch. */
static inline bool gtt_read32(struct gpu *gpu, uint64_t addr, uint32_t *val)
{
	uint8_t *p = gtt_ptr(gpu, addr);

	if (!p || (addr & 3))
		return false;
	*val = __atomic_load_n((uint32_t *)p, __ATOMIC_ACQUIRE);
	return true;
}

static inline bool gtt_write32(struct gpu *gpu, uint64_t addr, uint32_t val)
{
	uint8_t *p = gtt_ptr(gpu, addr);

	if (!p || (addr & 3))
		return false;
	__atomic_store_n((uint32_t *)p, val, __ATOMIC_RELEASE);
	return true;
}

/* gpu.c */
/* Fence covering a GTT address: 0 and the layout, or -1 when none is valid. */
int gpu_fence_lookup(struct gpu *gpu, uint32_t addr, enum gpu_tiling *tiling,
		     uint32_t *stride);
/* Register write as the CS's MI_LOAD_REGISTER_IMM does it. */
void gpu_write_from_cs(struct gpu *gpu, uint32_t reg, uint32_t val);
/* Speed model: owe ns of GPU time; sleeps once 50 us have piled up. */
void gpu_charge(struct gpu *gpu, uint64_t ns);
/* Sleep up to ns on the CS thread, credited as GPU time (at most 2 ns);
 * false if reset or destroy cut it short. */
bool gpu_cs_nap(struct gpu *gpu, uint64_t ns);
/* The same, not credited: the CS off the CPU (GEMKIT_CS_STALL_MS). */
bool gpu_cs_stall(struct gpu *gpu, uint64_t ns);
/* True when the CS must drop what it is doing (reset, destroy). */
static inline bool gpu_cs_aborted(struct gpu *gpu)
{
	return atomic_load_explicit(&gpu->abort, memory_order_acquire) ||
	       atomic_load_explicit(&gpu->reset_in_cs, memory_order_acquire);
}

/* cs.c */
void *gpu_cs_thread(void *arg);
/* Dword idx of the current command (ring wrap or batch); false on fault. */
bool cs_fetch(struct gpu *gpu, uint32_t idx, uint32_t *val);
/* How many dwords of the current command may be fetched (ring: to TAIL). */
uint32_t cs_fetch_limit(struct gpu *gpu);
/* Whether dwords [0, len) of the current command are all fetchable. */
enum cs_status cs_check_span(struct gpu *gpu, uint32_t len);

/*
 * The length of the command cmd (NULL: none) whose header is hdr, from
 * the command table (lib/gen3/cmds.def); fetch reads the dwords a rule
 * needs past the header.  CS_INVALID for no command or a bad length,
 * CS_PARTIAL when the rest is not in the ring yet.
 */
enum cs_status cs_decode_length(const struct gen3_cmd *cmd, uint32_t hdr,
				gen3_fetch_fn fetch, void *ctx, uint32_t *len);

/* blit.c: client 2, the len dwords of cmd in dw[]. */
enum cs_status blit_exec(struct gpu *gpu, const struct gen3_cmd *cmd,
			 const uint32_t *dw, uint32_t len);

/* cmd3d.c: client 3, run by the 3D pipeline (3d-*.c). */
enum cs_status cmd3d_exec(struct gpu *gpu, const struct gen3_cmd *cmd,
			  uint32_t len);

#endif
