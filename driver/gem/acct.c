/*
 * Per drm_file accounting (acct.h): the serving threads' CPU clock at the
 * dispatch point, GPU work charged at user interrupts, and the counters
 * the memory manager and submission bump for the file being served.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "acct.h"
#include "gem_priv.h"
#include "util.h"

/* One slot per seqno modulo ACCT_SLOTS, naming the file that emitted it.
 * A request takes at least 24 bytes of the 128 KiB ring, so no more than
 * 5462 can be in it: a slot is reused only once the GPU has executed its
 * request and run its interrupt (the ring had to make room first). */
#define ACCT_SLOTS	8192u
_Static_assert(ACCT_SLOTS * 24u > GEM_RING_SIZE, "a slot outlives its request");

struct gem_acct {
	/* the file, the request slots, pending charges (any thread) */
	_Atomic unsigned int refs;
	_Atomic uint64_t cpu_ns[GEM_ACCT_CLASSES];
	_Atomic uint64_t gpu_busy_ns;
	_Atomic uint64_t ioctls[GEM_ACCT_IOCTLS];
	_Atomic uint64_t execbuffers, relocations, waits, wait_ns;
	_Atomic uint64_t evictions_caused, evictions_suffered;
};

struct acct_slot {
	_Atomic uint32_t seqno;
	struct gem_acct *acct;			/* written under dev->lock */
};

struct gem_acct_dev {
	struct acct_slot slots[ACCT_SLOTS];
	/* The GPU's busy clock at the last interrupt: only the thread
	 * executing the GPU touches it, and the GPU's lock hands that role
	 * over with a barrier. */
	uint64_t last_busy_ns;
};

/* The class of each ioctl, by number; what is not listed is OTHER. */
#define CLASS(cmd, cls)	[_IOC_NR(cmd)] = cls
static const uint8_t ioctl_class[GEM_ACCT_IOCTLS] = {
	CLASS(DRM_IOCTL_GEM_CLOSE,			GEM_ACCT_MM),
	CLASS(DRM_IOCTL_GEM_FLINK,			GEM_ACCT_MM),
	CLASS(DRM_IOCTL_GEM_OPEN,			GEM_ACCT_MM),
	CLASS(DRM_IOCTL_PRIME_HANDLE_TO_FD,		GEM_ACCT_MM),
	CLASS(DRM_IOCTL_PRIME_FD_TO_HANDLE,		GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_CREATE,		GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_CREATE_EXT,		GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_PREAD,			GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_PWRITE,		GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_MMAP,			GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_MMAP_OFFSET,		GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_SET_DOMAIN,		GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_SET_TILING,		GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_GET_TILING,		GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_SET_CACHING,		GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_GET_CACHING,		GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_MADVISE,		GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_PIN,			GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_UNPIN,			GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_GET_APERTURE,		GEM_ACCT_MM),
	CLASS(DRM_IOCTL_I915_GEM_EXECBUFFER,		GEM_ACCT_SUBMIT),
	CLASS(DRM_IOCTL_I915_GEM_EXECBUFFER2_WR,	GEM_ACCT_SUBMIT),
	CLASS(DRM_IOCTL_I915_GEM_WAIT,			GEM_ACCT_WAIT),
	CLASS(DRM_IOCTL_I915_GEM_BUSY,			GEM_ACCT_WAIT),
	CLASS(DRM_IOCTL_I915_GEM_THROTTLE,		GEM_ACCT_WAIT),
	CLASS(DRM_IOCTL_I915_GEM_SW_FINISH,		GEM_ACCT_WAIT),
};
#undef CLASS

/* A thread's charges not yet turned into CPU time (acct.h): weights in
 * the cheap clock's ticks per (acct, class), each holding a reference. */
#define PEND_MAX	8	/* (acct, class) pairs */
#define PEND_CHARGES	128	/* requests per flush at most */
#define PEND_US		1000	/* and at most this old */

struct pend {
	struct gem_acct *acct;
	unsigned int cls;
	uint64_t weight;
};

struct pend_table {
	struct pend e[PEND_MAX];
	unsigned int n, charges;
	uint64_t since;		/* cheap clock at the last flush */
	bool registered;	/* the exit flush is armed */
};

/* This thread's CPU clock at its last reading (0: never read), the file
 * it serves between gem_acct_begin and gem_acct_end, that request's
 * class and the cheap clock when it began (or woke), and its pending
 * charges. */
static __thread uint64_t thread_last_ns;
static __thread struct gem_acct *serving;
static __thread unsigned int serving_cls;
static __thread uint64_t serving_since;
static __thread struct pend_table pending;
/* A GPU run the model started on this thread with a reading of its own
 * (gpu_run, inline on a submitting thread): the run's user interrupts
 * pend their charges, weighted by the cheap clock since the run's start
 * or the interrupt before (inline_mark), and the reading that ends the
 * run pays them. */
static __thread bool inline_run;
static __thread uint64_t inline_mark;

static pthread_once_t acct_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;
static uint64_t ticks_per_us = 1;	/* the cheap clock's rate */

static inline void add(_Atomic uint64_t *c, uint64_t v)
{
	atomic_fetch_add_explicit(c, v, memory_order_relaxed);
}

static inline uint64_t get(const _Atomic uint64_t *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

/* Weights need only be proportional to wall time: the TSC where there
 * is one (about 15 ns on a kvm-clock guest, half the vDSO's 33 ns). */
static inline uint64_t cheap_now(void)
{
#if defined(__x86_64__)
	return __rdtsc();
#else
	return now_ns();
#endif
}

/* Readings of this thread's CPU clock (gem_acct_clock_reads). */
static __thread uint64_t clock_reads;

/* This thread's CPU clock, counted (a failed reading adds nothing). */
static uint64_t thread_cpu_now(void)
{
	uint64_t now = thread_cpu_ns();

	clock_reads++;
	return now ? now : thread_last_ns;
}

/* The CPU this thread used from its last reading to now, a reading of
 * its clock that becomes the last. */
static uint64_t thread_cpu_since(uint64_t now)
{
	uint64_t delta;

	if (now <= thread_last_ns)
		return 0;
	delta = now - thread_last_ns;
	thread_last_ns = now;
	return delta;
}

/* The CPU this thread used since its last reading. */
static uint64_t thread_cpu_delta(void)
{
	return thread_cpu_since(thread_cpu_now());
}

uint64_t gem_acct_clock_reads(void)
{
	return clock_reads;
}

static void acct_put(struct gem_acct *acct)
{
	if (acct && atomic_fetch_sub_explicit(&acct->refs, 1,
					      memory_order_acq_rel) == 1)
		free(acct);
}

static void acct_get(struct gem_acct *acct)
{
	atomic_fetch_add_explicit(&acct->refs, 1, memory_order_relaxed);
}

void gem_acct_split(uint64_t total, const uint64_t *weight, unsigned int n,
		    uint64_t *share)
{
	unsigned __int128 sum = 0;
	uint64_t given = 0;
	unsigned int i, big = 0;

	if (!n)
		return;
	for (i = 0; i < n; i++) {
		sum += weight[i];
		if (weight[i] > weight[big])
			big = i;
	}
	for (i = 0; i < n; i++) {
		if (sum)
			share[i] = (uint64_t)((unsigned __int128)total *
					      weight[i] / sum);
		else
			share[i] = total / n;
		given += share[i];
	}
	share[big] += total - given;
}

/* Split cpu, this thread's CPU since its previous reading, over the
 * pending charges. */
static void flush_cpu(uint64_t cpu)
{
	struct pend_table *t = &pending;
	uint64_t w[PEND_MAX], share[PEND_MAX];
	unsigned int i;

	for (i = 0; i < t->n; i++)
		w[i] = t->e[i].weight;
	gem_acct_split(cpu, w, t->n, share);
	for (i = 0; i < t->n; i++) {
		add(&t->e[i].acct->cpu_ns[t->e[i].cls], share[i]);
		acct_put(t->e[i].acct);
	}
	t->n = 0;
	t->charges = 0;
	t->since = cheap_now();
}

void gem_acct_flush(void)
{
	flush_cpu(thread_cpu_delta());
}

/* Before any other reading of this thread's clock: what is pending is
 * paid first, so the reading after it starts where the flush ended. */
static inline void flush_pending(void)
{
	if (pending.n)
		gem_acct_flush();
}

/*
 * The thread's clock starts afresh at now: what is pending is paid up to
 * it, and the CPU since the last reading is no one's if nothing was.  One
 * reading, where a flush and a reading after it would make two for the
 * same instant (a nop execbuffer paid both when the GPU run began).
 */
static void restart_at(uint64_t now)
{
	uint64_t cpu = thread_cpu_since(now);

	if (pending.n)
		flush_cpu(cpu);
}

static void exit_flush(void *arg)
{
	(void)arg;
	flush_pending();
}

static void acct_setup(void)
{
	uint64_t t0 = cheap_now(), m0 = now_ns(), m;

	pthread_key_create(&exit_key, exit_flush);
	/* 200 us of the cheap clock against CLOCK_MONOTONIC. */
	while ((m = now_ns()) - m0 < 200000)
		;
	ticks_per_us = (cheap_now() - t0) * 1000 / (m - m0);
	if (!ticks_per_us)
		ticks_per_us = 1;
}

/* Add weight to (acct, cls); 1 if the table is full and must be flushed. */
int gem_acct_pend(struct gem_acct *acct, unsigned int cls, uint64_t weight)
{
	struct pend_table *t = &pending;
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		if (t->e[i].acct == acct && t->e[i].cls == cls) {
			t->e[i].weight += weight;
			return 0;
		}
	}
	if (t->n == PEND_MAX)
		return 1;
	if (!t->registered) {
		pthread_setspecific(exit_key, t);
		t->registered = true;
	}
	acct_get(acct);
	t->e[t->n++] = (struct pend){ acct, cls, weight };
	return 0;
}

unsigned int gem_acct_pending(void)
{
	return pending.n;
}

static void charge(struct gem_acct *acct, unsigned int cls, uint64_t weight)
{
	if (gem_acct_pend(acct, cls, weight)) {
		gem_acct_flush();
		gem_acct_pend(acct, cls, weight);
	}
}

enum gem_acct_class gem_acct_class_of(unsigned int nr)
{
	return nr < GEM_ACCT_IOCTLS ? (enum gem_acct_class)ioctl_class[nr] :
				      GEM_ACCT_OTHER;
}

int gem_acct_device_init(struct gem_device *dev)
{
	pthread_once(&acct_once, acct_setup);
	dev->acct = calloc(1, sizeof(*dev->acct));
	return dev->acct ? 0 : -ENOMEM;
}

void gem_acct_device_fini(struct gem_device *dev)
{
	unsigned int i;

	if (!dev->acct)
		return;
	for (i = 0; i < ACCT_SLOTS; i++)
		acct_put(dev->acct->slots[i].acct);
	free(dev->acct);
	dev->acct = NULL;
}

struct gem_acct *gem_acct_new(void)
{
	struct gem_acct *acct = calloc(1, sizeof(*acct));

	pthread_once(&acct_once, acct_setup);
	if (acct)
		atomic_init(&acct->refs, 1);
	return acct;
}

void gem_acct_put(struct gem_acct *acct)
{
	acct_put(acct);
}

int gem_acct_file_open(struct gem_file *file)
{
	file->acct = gem_acct_new();
	return file->acct ? 0 : -ENOMEM;
}

void gem_acct_file_release(struct gem_file *file)
{
	gem_assert_held(file->dev);
	if (serving == file->acct)
		serving = NULL;
	acct_put(file->acct);
	file->acct = NULL;
}

void gem_acct_serve_begin(struct gem_acct *acct, unsigned int nr)
{
	serving = acct;
	serving_cls = gem_acct_class_of(nr);
	serving_since = cheap_now();
}

void gem_acct_serve_end(struct gem_acct *acct, unsigned int nr)
{
	uint64_t now = cheap_now();
	struct pend_table *t = &pending;

	serving = NULL;
	add(&acct->ioctls[nr % GEM_ACCT_IOCTLS], 1);
	charge(acct, serving_cls, now - serving_since);
	if (++t->charges >= PEND_CHARGES ||
	    now - t->since >= PEND_US * ticks_per_us)
		gem_acct_flush();
}

enum gem_acct_class gem_acct_switch(enum gem_acct_class cls)
{
	enum gem_acct_class left = (enum gem_acct_class)serving_cls;
	uint64_t now;

	if (!serving || cls == left)
		return left;
	now = cheap_now();
	charge(serving, left, now - serving_since);
	serving_cls = cls;
	serving_since = now;
	return left;
}

void gem_acct_begin(struct gem_file *file, unsigned int nr)
{
	gem_acct_serve_begin(file->acct, nr);
}

void gem_acct_end(struct gem_file *file, unsigned int nr)
{
	gem_acct_serve_end(file->acct, nr);
}

void gem_acct_sleep(void)
{
	if (serving)
		charge(serving, serving_cls, cheap_now() - serving_since);
	flush_pending();
}

void gem_acct_wake(void)
{
	serving_since = cheap_now();
}

void gem_acct_retired(struct gem_file *const *files, unsigned int n)
{
	uint64_t delta, share;
	unsigned int i;

	if (serving || !n)
		return;
	flush_pending();
	delta = thread_cpu_delta();
	share = delta / n;
	for (i = 0; i < n; i++)
		if (files[i] && files[i]->acct)
			add(&files[i]->acct->cpu_ns[GEM_ACCT_RETIRE],
			    share + (i ? 0 : delta % n));
}

void gem_acct_discard(void)
{
	restart_at(thread_cpu_now());
}

void gem_acct_execbuffer(void)
{
	if (serving)
		add(&serving->execbuffers, 1);
}

void gem_acct_relocations(uint64_t count)
{
	if (serving)
		add(&serving->relocations, count);
}

void gem_acct_wait(uint64_t ns)
{
	if (!serving)
		return;
	add(&serving->waits, 1);
	add(&serving->wait_ns, ns);
}

void gem_acct_evict(const struct gem_object *victim)
{
	uint32_t i;

	if (serving)
		add(&serving->evictions_caused, 1);
	if (victim->holder.file && victim->holder.file->acct)
		add(&victim->holder.file->acct->evictions_suffered, 1);
	for (i = 0; i < victim->nmore; i++)
		if (victim->more[i].file && victim->more[i].file->acct)
			add(&victim->more[i].file->acct->evictions_suffered, 1);
}

void gem_acct_request(struct gem_device *dev, struct gem_file *file,
		      uint32_t seqno)
{
	struct acct_slot *slot = &dev->acct->slots[seqno % ACCT_SLOTS];
	struct gem_acct *acct = file ? file->acct : NULL;

	gem_assert_held(dev);
	if (acct)
		acct_get(acct);
	acct_put(slot->acct);
	slot->acct = acct;
	/* Published to the GPU's thread by the ring's TAIL barrier. */
	atomic_store_explicit(&slot->seqno, seqno, memory_order_relaxed);
}

void gem_acct_gpu_run_start(void *dev, uint64_t cpu_ns)
{
	(void)dev;
	if (serving)
		return;
	restart_at(cpu_ns ? cpu_ns : thread_cpu_now());
	inline_run = cpu_ns != 0;
	inline_mark = cheap_now();
}

void gem_acct_gpu_run_end(void *dev, uint64_t cpu_ns)
{
	(void)dev;
	if (!inline_run)
		return;
	inline_run = false;
	restart_at(cpu_ns);
}

void gem_acct_interrupt(struct gem_device *dev, uint32_t hw_seqno)
{
	struct gem_acct_dev *ad = dev->acct;
	struct acct_slot *slot = &ad->slots[hw_seqno % ACCT_SLOTS];
	struct gem_acct *acct = NULL;
	uint64_t busy, gpu_ns, now, cpu;

	busy = gpu_busy_now(dev->gpu);
	gpu_ns = busy - ad->last_busy_ns;
	ad->last_busy_ns = busy;
	if (atomic_load_explicit(&slot->seqno, memory_order_relaxed) == hw_seqno)
		acct = slot->acct;	/* else the driver's own, or a reset's */
	if (acct)
		add(&acct->gpu_busy_ns, gpu_ns);
	if (inline_run) {
		/* Paid by the run's last reading (gem_acct_gpu_run_end). */
		now = cheap_now();
		if (acct)
			charge(acct, GEM_ACCT_GPU, now - inline_mark);
		inline_mark = now;
		return;
	}
	flush_pending();
	cpu = thread_cpu_delta();
	if (acct)
		add(&acct->cpu_ns[GEM_ACCT_GPU], cpu);
}

void gem_acct_read(const struct gem_file *file, struct gem_acct_stats *out)
{
	const struct gem_acct *a = file->acct;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (!a)
		return;
	for (i = 0; i < GEM_ACCT_CLASSES; i++)
		out->cpu_ns[i] = get(&a->cpu_ns[i]);
	for (i = 0; i < GEM_ACCT_IOCTLS; i++) {
		out->ioctls[i] = get(&a->ioctls[i]);
		out->ioctls_total += out->ioctls[i];
	}
	out->gpu_busy_ns = get(&a->gpu_busy_ns);
	out->execbuffers = get(&a->execbuffers);
	out->relocations = get(&a->relocations);
	out->waits = get(&a->waits);
	out->wait_ns = get(&a->wait_ns);
	out->evictions_caused = get(&a->evictions_caused);
	out->evictions_suffered = get(&a->evictions_suffered);
}
