/*
 * The simulated 945G: GTT page table, fence registers, one render ring with
 * a hardware status page, and a command streamer running on its own thread
 * that executes MI commands and the 2D blitter.
 *
 * gpu/ is hardware and nothing else: it knows registers, the page table and
 * the command stream, never objects, handles or clients.  The memory
 * manager drives it the way i915 drove the chip: it writes PTEs when it
 * binds, writes fence registers, writes commands into the ring (which it
 * has bound in the GTT itself) and bumps PRB0_TAIL; the GPU reports back
 * through the hardware status page and interrupts (struct gpu_ops).
 */
#ifndef GEMKIT_GPU_H
#define GEMKIT_GPU_H

#include <stdbool.h>
#include <stdint.h>

#include "regs.h"

#define GTT_PAGE_SIZE	4096u
#define GTT_PAGE_SHIFT	12
#define GPU_MMIO_BAR_SIZE	(512u * 1024)	/* a 945G's MMADR (BAR 0) */

struct gpu;

/* Callbacks from the GPU into its driver.  Called from the CS thread with
 * no gpu lock held; they must not block on the driver's big lock. */
struct gpu_ops {
	/* MI_USER_INTERRUPT executed (IIR has I915_USER_INTERRUPT set). */
	void (*user_interrupt)(void *data);
	/* The command streamer stopped on an error (EIR now non-zero). */
	void (*error_interrupt)(void *data);
	/* The calling thread starts executing the ring (the CS thread, or a
	 * submitter in gpu_run), before the first command; may be NULL.
	 * What the thread did before is not GPU work.  cpu_ns is
	 * the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID) as the model read
	 * it just before, 0 when it did not: each reading is a system call. */
	void (*run_start)(void *data, uint64_t cpu_ns);
	/* A run on a submitting thread (gpu_run) ended, with the thread's
	 * CPU clock as the model read it last; may be NULL. */
	void (*run_end)(void *data, uint64_t cpu_ns);
};

struct gpu_config {
	uint64_t aperture_size;		/* bytes, multiple of 1 MiB, <= 512 MiB */
	/* Speed model (0 = as fast as possible): a blit sleeps bytes / rate,
	 * each command cmd_cost_ns (paid in chunks of >= 50 us).  gpu.c. */
	uint64_t blit_bytes_per_sec;
	uint64_t cmd_cost_ns;
	/* The hardware status page: 4 KiB of the driver's memory (which it
	 * may share), or NULL for the model's own. */
	uint32_t *hws;
	/* The register file as the MMIO BAR holds it: GPU_MMIO_BAR_SIZE
	 * bytes of the driver's memory (which it may share: tools read the
	 * live registers there, as through a 945G's MMADR), zero-filled, or
	 * NULL for the model's own.  Only the model writes it. */
	uint32_t *mmio;
	/* Test knob: before each batch it starts from the ring, the CS is
	 * off the CPU this long (not GPU time), as a starved simulator is.
	 * gemd sets it from GEMKIT_CS_STALL_MS. */
	uint64_t stall_ns;
	/* The CS thread's nice value, when lower than its creator's and the
	 * process may lower it (CAP_SYS_NICE, RLIMIT_NICE): a GPU does not
	 * wait for a CPU, and a client may rely on its seeing a write that
	 * lasts a fraction of a microsecond (IGT's spinners, ended and armed
	 * again at once).  gpu_cs_nice_error says whether it could. */
	int cs_nice;
};

/* Lifecycle.  gpu_create starts the CS thread idle; returns NULL + errno. */
struct gpu *gpu_create(const struct gpu_config *cfg, const struct gpu_ops *ops,
		       void *data);
void gpu_destroy(struct gpu *gpu);
uint64_t gpu_aperture_size(const struct gpu *gpu);
/* 0 when the CS thread got cfg->cs_nice (or no lower one was asked for),
 * else the errno of the attempt (EACCES, EPERM). */
int gpu_cs_nice_error(const struct gpu *gpu);

/*
 * MMIO.  Writing PRB0_TAIL wakes the command streamer; writing PRB0_CTL
 * with RING_VALID (and PRB0_START) enables the ring; a write to a fence
 * register takes effect for the next GPU access.  Reads are of the live
 * registers (ACTHD, HEAD, INSTDONE, EIR, IPEHR ...).  Unknown offsets
 * read 0 and ignore writes.
 */
uint32_t gpu_read(struct gpu *gpu, uint32_t reg);
void gpu_write(struct gpu *gpu, uint32_t reg, uint32_t val);

/*
 * Submission without a hand-off.  gpu_submit writes PRB0_TAIL as gpu_write
 * does but leaves a sleeping command streamer asleep; the caller then
 * calls gpu_run once it holds no lock of its own.  gpu_run executes what
 * is new on the calling thread for up to budget_ns if the CS thread
 * sleeps, stopping before anything that could block or take long (3D
 * rendering, MI_WAIT_FOR_EVENT, a batch that keeps jumping), and wakes
 * the CS thread for whatever is left; with budget_ns 0, or the speed
 * model on, it only wakes it.  Interrupt callbacks then run on the
 * caller's thread.  A short batch thus costs no thread switch at all.
 */
void gpu_submit(struct gpu *gpu, uint32_t tail);
void gpu_run(struct gpu *gpu, uint64_t budget_ns);

/* The hardware status page (4 KiB, dword indexed), as the CPU sees it. */
volatile uint32_t *gpu_hws(struct gpu *gpu);

/*
 * GTT page table.  host points at the 4 KiB of system memory backing GTT
 * page 'page' (gtt_offset >> 12), or NULL to unbind it.  The GPU reads
 * and writes the scratch page at an unbound page, as a 945G does through
 * the kernel's scratch PTEs (counted in gpu_stats.scratch_accesses); only
 * an access beyond the aperture is a page-table error (PGTBL_ER, EIR) that
 * stops the ring.  Safe to call while the CS runs (entries are swapped
 * atomically).
 */
void gpu_gtt_set_page(struct gpu *gpu, uint32_t page, void *host);
/* Bind size bytes (page multiple) of host memory at gtt_offset / clear. */
void gpu_gtt_bind(struct gpu *gpu, uint32_t gtt_offset, void *host, uint32_t size);
void gpu_gtt_clear(struct gpu *gpu, uint32_t gtt_offset, uint32_t size);
/* Point size bytes at gtt_offset at the scratch page, as the kernel's
 * PTEs for the rest of a node larger than its object are (the GPU's
 * writes there go nowhere, its reads return what was written there).
 * The driver sees these pages as bound (gpu_gtt_host), unlike unbound
 * ones, which the GPU also sends to the scratch page. */
void gpu_gtt_bind_scratch(struct gpu *gpu, uint32_t gtt_offset, uint32_t size);
/* The scratch page's host address (for gem_verify_state). */
const void *gpu_scratch_page(const struct gpu *gpu);
/* CPU view through the GTT for the driver's own use (ring writes, debug):
 * returns the host address of gtt_offset or NULL when unbound (where the
 * GPU would use the scratch page). */
void *gpu_gtt_host(struct gpu *gpu, uint32_t gtt_offset);

/* True when the CS has nothing to do: HEAD == TAIL, no batch running, not
 * waiting in MI_WAIT_FOR_EVENT and not stopped. */
bool gpu_idle(struct gpu *gpu);
/* True when the command streamer thread sleeps for want of work. */
bool gpu_cs_asleep(struct gpu *gpu);
/* True when the CS stopped on an error and waits for a reset. */
bool gpu_stopped(struct gpu *gpu);
/* Break an MI_WAIT_FOR_EVENT (what kick_ring() does by rewriting CTL). */
void gpu_kick(struct gpu *gpu);
/* Reset the render engine: ring registers cleared, errors cleared, the CS
 * stops fetching until the ring is programmed again.  PTEs and fences stay. */
void gpu_reset(struct gpu *gpu);

/*
 * What hangcheck judges progress by (gpu_sample).  A simulator, unlike the
 * chip, can be descheduled: wall time is no measure of what it did.
 *
 * run_ns is GPU time: the command streamer thread's CPU time, plus the
 * time the model spends on purpose (the speed model's and a spinning
 * batch's naps, credited at most twice what was asked, and waits in
 * MI_WAIT_FOR_EVENT).  Time the thread waited for a CPU does not count.
 *
 * work counts what the GPU got done: every command executed except
 * MI_BATCH_BUFFER_START inside a batch (a jump: a batch jumping to itself
 * does nothing) and MI_WAIT_FOR_EVENT, every blit row, every 3D span.  ACTHD and INSTDONE are the
 * registers the kernel's hangcheck compared.  commands counts every
 * command finished, jumps included: work that moved while it did not was
 * done inside one command (a long blit's rows).
 */
struct gpu_progress {
	uint64_t run_ns;
	uint64_t work;
	uint64_t commands;
	uint32_t acthd;
	uint32_t instdone;
};
void gpu_sample(struct gpu *gpu, struct gpu_progress *p);

/* Counters kept by the model (for debugfs and benchmarks). */
struct gpu_stats {
	uint64_t commands;		/* commands executed */
	uint64_t batches;		/* MI_BATCH_BUFFER_START executed */
	uint64_t blits;			/* blit commands */
	uint64_t blit_bytes;		/* bytes written by the blitter */
	uint64_t interrupts;		/* user interrupts */
	uint64_t busy_ns;		/* time spent executing */
	uint64_t inline_runs;		/* runs on a submitting thread (gpu_run) */
	uint64_t scratch_accesses;	/* page runs the GPU read or wrote at an
					 * unbound GTT page: the scratch page */
};
void gpu_get_stats(struct gpu *gpu, struct gpu_stats *st);
/* busy_ns including the run in progress: exact on the thread executing
 * the GPU (in a gpu_ops callback), where the driver charges work. */
uint64_t gpu_busy_now(struct gpu *gpu);

/* Gen3 tiling geometry, shared by the blitter and the driver's fence code. */
enum gpu_tiling { GPU_TILING_NONE = 0, GPU_TILING_X = 1, GPU_TILING_Y = 2 };
/* Byte offset inside a tiled surface of byte x in row y, for a surface of
 * 'stride' bytes per row (a multiple of the tile width). */
uint32_t gpu_tiled_offset(enum gpu_tiling tiling, uint32_t stride,
			  uint32_t x, uint32_t y);
uint32_t gpu_tile_width(enum gpu_tiling tiling);	/* 512 (X) or 128 (Y) */
uint32_t gpu_tile_height(enum gpu_tiling tiling);	/* 8 (X) or 32 (Y) */

#endif
