/*
 * The ioctls libgem answers without waiting for gemd, as the kernel
 * answers them without sleeping: BUSY and WAIT on an object whose last
 * request has passed, and the copy of a CPU pread or pwrite of such an
 * object, which goes straight between the caller's memory and the
 * object's pages; gemd is then told with a message that needs no reply
 * (GEM_MSG_F_NOREPLY) and keeps its books as if it had done the copy.
 * Consecutive copies into one object are told as one (as many bytes,
 * moving the domains once), sent before anything else the thread sends
 * (channel_call), so gemd's books are always up to date by the time it
 * answers that thread again.
 *
 * What tells: the hardware status page (the GPU's last seqno) and the
 * file's handle table, both mapped read-only from gemd (GEM_MSG_STATUS,
 * protocol.h).  Only handles gemd marks GEM_HS_DIRECT qualify: the
 * object's only handle, so no other file's request can make it busy
 * without this file's entry saying so.  Anything else, or any doubt (an
 * entry being rewritten, a table of a released file), goes to gemd.
 *
 * A copy counts itself in the file's copies page (GEM_STATUS_COPIES)
 * before it reads the entry and out once done: another thread or process
 * of the file may close the handle in between, and gemd then keeps the
 * freed range from the next object (status.c says how the two order
 * themselves).  Without that page, no copy is made here.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "channel.h"
#include "copyguard.h"
#include "fastpath.h"
#include "token.h"
#include "util.h"
#include "wire.h"

#define MAX_TABLES	8	/* files per gemd whose tables stay mapped */
#define SEQLOCK_TRIES	4

struct table {
	struct gem_token token;
	const struct gem_handle_status *tab;	/* NULL: free slot */
	uint64_t size;
	uint32_t *copies;	/* the file's copies page, NULL: none */
};

/* Per gemd; the pointers are published with release stores so that the
 * hot path reads them without the lock. */
struct dev_status {
	const uint32_t *hws;
	bool no_hws;			/* gemd would not give it */
	struct table tables[MAX_TABLES];
	unsigned int next_victim;
};

static struct dev_status status[GEM_MAX_DEVS];
static pthread_mutex_t status_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t status_once = PTHREAD_ONCE_INIT;

static void status_lock_take(void)
{
	pthread_mutex_lock(&status_lock);
}

static void status_lock_drop(void)
{
	pthread_mutex_unlock(&status_lock);
}

static void status_init_once(void)
{
	pthread_atfork(status_lock_take, status_lock_drop, status_lock_drop);
}

/* Map a status page of gemd read-only: 0 or -errno. */
static int status_fetch(struct gem_dev *dev, struct gem_token token, uint32_t which,
			int prot, void **base, uint64_t *size)
{
	void *p;
	int ret;

	ret = channel_map_fd(dev, GEM_MSG_STATUS, which, token, prot, &p,
			     size, NULL);
	if (!ret)
		*base = p;
	return ret;
}

static const uint32_t *dev_hws(struct gem_dev *dev, struct dev_status *st)
{
	const uint32_t *hws = __atomic_load_n(&st->hws, __ATOMIC_ACQUIRE);
	void *p;
	uint64_t size;

	if (hws || st->no_hws)
		return hws;
	pthread_once(&status_once, status_init_once);
	pthread_mutex_lock(&status_lock);
	if (!st->hws && !st->no_hws) {
		if (status_fetch(dev, GEM_TOKEN_NONE, GEM_STATUS_HWS, PROT_READ, &p, &size) ||
		    size < (GEM_STATUS_SEQNO_DWORD + 1) * sizeof(uint32_t))
			st->no_hws = true;
		else
			__atomic_store_n(&st->hws, p, __ATOMIC_RELEASE);
	}
	hws = st->hws;
	pthread_mutex_unlock(&status_lock);
	return hws;
}

/* t's token, read without the lock: each half atomically; dev_table
 * checks that the table did not change around the read. */
static struct gem_token table_token(const struct table *t)
{
	return (struct gem_token){
		.lo = __atomic_load_n(&t->token.lo, __ATOMIC_RELAXED),
		.hi = __atomic_load_n(&t->token.hi, __ATOMIC_RELAXED),
	};
}

static bool table_alive(const struct gem_handle_status *tab)
{
	return __atomic_load_n(&tab[0].flags, __ATOMIC_ACQUIRE) & GEM_HS_ALIVE;
}

/*
 * token's handle table, mapped on first use, and its copies page in
 * *copies (NULL if gemd would not give one).  A table whose file was
 * released (the token may name a new file now) is dropped and fetched
 * again, once.
 */
static const struct gem_handle_status *dev_table(struct gem_dev *dev,
						 struct dev_status *st,
						 struct gem_token token,
						 uint32_t **copies)
{
	const struct gem_handle_status *tab = NULL;
	struct table *t, *slot = NULL;
	uint64_t size, copies_size;
	void *p, *c;
	unsigned int i;

	for (i = 0; i < MAX_TABLES; i++) {
		t = &st->tables[i];
		tab = __atomic_load_n(&t->tab, __ATOMIC_ACQUIRE);
		if (!tab || !gem_token_equal(table_token(t), token))
			continue;
		*copies = __atomic_load_n(&t->copies, __ATOMIC_RELAXED);
		/* The slot was not replaced around the reads (a new mapping
		 * never has an old one's address: none is unmapped). */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&t->tab, __ATOMIC_ACQUIRE) == tab &&
		    table_alive(tab))
			return tab;
	}
	pthread_once(&status_once, status_init_once);
	pthread_mutex_lock(&status_lock);
	tab = NULL;
	for (i = 0; i < MAX_TABLES; i++) {
		t = &st->tables[i];
		if (t->tab && (gem_token_equal(t->token, token) ||
			       !table_alive(t->tab))) {
			/* Other threads may be reading it: unmap nothing. */
			if (gem_token_equal(t->token, token) &&
			    table_alive(t->tab)) {
				tab = t->tab;
				*copies = t->copies;
				goto out_unlock;
			}
			if (!slot)
				slot = t;
		} else if (!t->tab && !slot) {
			slot = t;
		}
	}
	if (!slot) {
		slot = &st->tables[st->next_victim];
		st->next_victim = (st->next_victim + 1) % MAX_TABLES;
	}
	if (status_fetch(dev, token, GEM_STATUS_HANDLES, PROT_READ, &p, &size) ||
	    size < GEM_STATUS_HANDLES_MAX * sizeof(struct gem_handle_status))
		goto out_unlock;
	if (status_fetch(dev, token, GEM_STATUS_COPIES, PROT_READ | PROT_WRITE,
			 &c, &copies_size) ||
	    copies_size < (GEM_STATUS_COPIES_DWORD + 1) * sizeof(uint32_t))
		c = NULL;
	/* A replaced mapping is left mapped: a reader may hold it. */
	__atomic_store_n(&slot->tab, NULL, __ATOMIC_RELEASE);
	__atomic_store_n(&slot->token.lo, token.lo, __ATOMIC_RELAXED);
	__atomic_store_n(&slot->token.hi, token.hi, __ATOMIC_RELAXED);
	__atomic_store_n(&slot->copies, (uint32_t *)c, __ATOMIC_RELAXED);
	slot->size = size;
	__atomic_store_n(&slot->tab, p, __ATOMIC_RELEASE);
	tab = p;
	*copies = c;
out_unlock:
	pthread_mutex_unlock(&status_lock);
	return tab;
}

/* A consistent copy of entry h (seq even and unchanged around it). */
static bool entry_read(const struct gem_handle_status *tab, uint32_t h,
		       struct gem_handle_status *out)
{
	const struct gem_handle_status *e;
	uint32_t seq;
	int i;

	if (h == 0 || h >= GEM_STATUS_HANDLES_MAX)
		return false;
	e = &tab[h];
	for (i = 0; i < SEQLOCK_TRIES; i++) {
		seq = __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE);
		if (seq & 1)
			continue;
		out->flags = __atomic_load_n(&e->flags, __ATOMIC_RELAXED);
		out->read_seqno = __atomic_load_n(&e->read_seqno, __ATOMIC_RELAXED);
		out->write_seqno = __atomic_load_n(&e->write_seqno, __ATOMIC_RELAXED);
		out->arena = __atomic_load_n(&e->arena, __ATOMIC_RELAXED);
		out->offset = __atomic_load_n(&e->offset, __ATOMIC_RELAXED);
		out->size = __atomic_load_n(&e->size, __ATOMIC_RELAXED);
		out->object = __atomic_load_n(&e->object, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&e->seq, __ATOMIC_RELAXED) == seq) {
			out->seq = seq;
			return true;
		}
	}
	return false;
}

/* A consistent copy of entry h, if it allows direct access. */
static bool entry_direct(const struct gem_handle_status *tab, uint32_t h,
			 struct gem_handle_status *out)
{
	return entry_read(tab, h, out) && (out->flags & GEM_HS_DIRECT);
}

/*
 * After a direct pwrite by entry seen: did gemd move the object's pages
 * meanwhile (its first export)?  Our bytes may then have reached the old
 * pages after gemd copied them, and the kernel's pwrite lands in the
 * object: the caller sends it to gemd, which writes the new pages (the
 * same bytes again, before the ioctl returns).  An entry rewritten for
 * another object (the handle was closed) needs nothing: the copy went to
 * the old object, whose range gemd keeps out of reuse.  protocol.h and
 * gemd's status.c give the order both sides keep.
 */
static bool moved_under_copy(const struct gem_handle_status *tab, uint32_t h,
			     const struct gem_handle_status *seen)
{
	struct gem_handle_status now;

	/* A full barrier: our bytes come before the look at seq. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!entry_read(tab, h, &now))
		return true;	/* rewritten all along: ask gemd, as a late pwrite would */
	return now.seq != seen->seq && now.object == seen->object;
}

/* seqno has passed on the GPU (0: no request at all). */
static bool passed(const uint32_t *hws, uint32_t seqno)
{
	uint32_t hw = __atomic_load_n(&hws[GEM_STATUS_SEQNO_DWORD], __ATOMIC_ACQUIRE);

	return !seqno || (int32_t)(hw - seqno) >= 0;
}

struct fast_ctx {
	struct gem_dev *dev;
	struct gem_channel *ch;
	struct dev_status *st;
	struct gem_token token;
	const uint32_t *hws;
	const struct gem_handle_status *tab;
	uint32_t *copies;		/* the file's copies page, or NULL */
};

int libgem_notice_send(struct gem_channel *ch)
{
	static const uint8_t zeros[WIRE_ALIGN];
	struct gem_notice n = ch->owed;
	struct drm_i915_gem_pwrite args = {
		.handle = n.handle, .size = n.bytes, .data_ptr = n.data_ptr,
	};
	struct strbuf extra = STRBUF_INIT;
	struct wire_client_call call;
	struct iovec iov[2];
	struct wire_call wc = {
		.type = GEM_MSG_IOCTL, .flags = GEM_MSG_F_NOREPLY,
		.request = (uint32_t)n.request, .file = n.token,
		.iov = iov, .iovcnt = 2,
	};
	int ret;

	if (!n.request)
		return 0;
	ch->owed.request = 0;
	/* A plain struct: nothing goes to extra (and ch->extra may hold the
	 * call this one precedes). */
	ret = wire_client_pack(&call, wc.request, &args, &extra);
	if (ret)
		return ret;
	iov[0] = (struct iovec){ &args, call.in_size };
	iov[1] = (struct iovec){ (void *)zeros, call.in_pad };
	ret = channel_call(ch, &wc);
	strbuf_release(&extra);
	return ret;
}

/* Note that gemd is owed the books of a copy, adding to what is owed for
 * the same handle while the sum stays a valid range of the object. */
static int owe(struct fast_ctx *x, unsigned long request,
	       const struct drm_i915_gem_pread *args, uint64_t limit)
{
	struct gem_notice *n = &x->ch->owed;
	int ret;

	if (n->request == request && gem_token_equal(n->token, x->token) &&
	    n->handle == args->handle && n->bytes + args->size <= limit) {
		n->bytes += args->size;
		return 0;
	}
	ret = libgem_notice_send(x->ch);
	if (ret)
		return ret;
	*n = (struct gem_notice){
		.request = request, .token = x->token, .handle = args->handle,
		.bytes = args->size, .limit = limit, .data_ptr = args->data_ptr,
	};
	return 0;
}

/* Entry h if it is direct and its last request (write_only: its last
 * write) has passed. */
static bool idle_entry(struct fast_ctx *x, uint32_t h, bool write_only,
		       struct gem_handle_status *e)
{
	if (!entry_direct(x->tab, h, e))
		return false;
	return passed(x->hws, write_only ? e->write_seqno : e->read_seqno);
}

static int fast_busy(struct fast_ctx *x, struct drm_i915_gem_busy *args)
{
	struct gem_handle_status e;

	if (!idle_entry(x, args->handle, false, &e))
		return LIBGEM_SLOW;
	args->busy = 0;
	return 0;
}

static int fast_wait(struct fast_ctx *x, struct drm_i915_gem_wait *args)
{
	struct gem_handle_status e;

	/* Idle: gemd returns at once and leaves timeout_ns alone. */
	if (args->flags || !idle_entry(x, args->bo_handle, false, &e))
		return LIBGEM_SLOW;
	return 0;
}

/*
 * The copy itself, as the kernel's (no round trip): a guarded memcpy
 * through libgem's mapping of the arena (copyguard.h), or where that
 * cannot be made, one pread/pwrite system call on the arena.  A bad
 * pointer (EFAULT), an arena page gone (SIGBUS) or a short copy: false,
 * and gemd gives the kernel's answer.
 */
static bool rw_copy(struct fast_ctx *x, const struct gem_arena_ref *ref,
		    off_t at, void *user, size_t n, bool write)
{
	uint8_t *map = copyguard_worth(n) ? libgem_arena_map(x->dev, ref) : NULL;
	ssize_t done;
	int ret;

	if (map) {
		ret = write ? copyguard_copy(map + at, user, n) :
			      copyguard_copy(user, map + at, n);
		if (ret != -ENOSYS)
			return !ret;
	}
	done = write ? pwrite(ref->fd, user, n, at) : pread(ref->fd, user, n, at);
	return done == (ssize_t)n;
}

/*
 * pread waits for the GPU's writes, pwrite for its reads too (domain.c);
 * once they have passed, the copy is all the client needs.  The range
 * and pointer checks that fail go to gemd for the kernel's errno.
 */
static int fast_rw_counted(struct fast_ctx *x, unsigned long request,
			   struct drm_i915_gem_pread *args, bool write)
{
	void *user = (void *)(uintptr_t)args->data_ptr;
	struct gem_handle_status e;
	struct gem_arena_ref ref;
	bool copied;

	if (!idle_entry(x, args->handle, !write, &e))
		return LIBGEM_SLOW;
	if (args->offset > e.size || args->size > e.size - args->offset)
		return LIBGEM_SLOW;
	if (libgem_arena_get(x->dev, x->token, e.arena, &ref))
		return LIBGEM_SLOW;
	if (e.offset > ref.size || e.size > ref.size - e.offset) {
		libgem_arena_put(x->dev, &ref);
		return LIBGEM_SLOW;
	}
	copied = rw_copy(x, &ref, (off_t)(e.offset + args->offset), user,
			 (size_t)args->size, write);
	libgem_arena_put(x->dev, &ref);
	if (!copied || (write && moved_under_copy(x->tab, args->handle, &e)))
		return LIBGEM_SLOW;
	return owe(x, request, args, e.size);
}

/* The copy, counted in the file's copies page from before it reads the
 * handle's entry to after the last byte (status.c in gemd says why). */
static int fast_rw(struct fast_ctx *x, unsigned long request,
		   struct drm_i915_gem_pread *args, bool write)
{
	uint32_t *count = x->copies ? &x->copies[GEM_STATUS_COPIES_DWORD] : NULL;
	int ret;

	_Static_assert(sizeof(struct drm_i915_gem_pread) ==
		       sizeof(struct drm_i915_gem_pwrite), "same layout");
	if (!args->size || !args->data_ptr || !count)
		return LIBGEM_SLOW;
	/* A full barrier: the count is seen before the entry is read. */
	__atomic_fetch_add(count, 1, __ATOMIC_SEQ_CST);
	ret = fast_rw_counted(x, request, args, write);
	__atomic_fetch_sub(count, 1, __ATOMIC_RELEASE);
	return ret;
}

bool libgem_handle_where(struct gem_dev *dev, struct gem_token token, uint32_t h,
			 uint32_t *arena, uint64_t *offset, uint64_t *size)
{
	const struct gem_handle_status *tab;
	struct gem_handle_status e;
	uint32_t *copies;

	tab = dev_table(dev, &status[libgem_dev_index(dev)], token, &copies);
	if (!tab || !entry_direct(tab, h, &e))
		return false;
	*arena = e.arena;
	*offset = e.offset;
	*size = e.size;
	return true;
}

int libgem_fast_ioctl(struct gem_dev *dev, struct gem_token token,
		      struct gem_channel *ch, unsigned long request, void *arg)
{
	struct fast_ctx x = { .dev = dev, .ch = ch, .token = token };
	bool answer;

	switch (request) {
	case DRM_IOCTL_I915_GEM_BUSY:
	case DRM_IOCTL_I915_GEM_WAIT:
		/* Answers that must not overtake bookkeeping still queued. */
		answer = true;
		break;
	case DRM_IOCTL_I915_GEM_PREAD:
	case DRM_IOCTL_I915_GEM_PWRITE:
		answer = false;
		break;
	default:
		return LIBGEM_SLOW;
	}
	if (!arg || (answer && !channel_quiet(ch)))
		return LIBGEM_SLOW;
	x.st = &status[libgem_dev_index(dev)];
	x.hws = dev_hws(dev, x.st);
	if (!x.hws)
		return LIBGEM_SLOW;
	x.tab = dev_table(dev, x.st, token, &x.copies);
	if (!x.tab)
		return LIBGEM_SLOW;
	switch (request) {
	case DRM_IOCTL_I915_GEM_BUSY:
		return fast_busy(&x, arg);
	case DRM_IOCTL_I915_GEM_WAIT:
		return fast_wait(&x, arg);
	case DRM_IOCTL_I915_GEM_PREAD:
		return fast_rw(&x, request, arg, false);
	default:
		return fast_rw(&x, request, arg, true);
	}
}
