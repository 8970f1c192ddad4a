/*
 * GEM_USERPTR, the client's half: the range of the program's memory that
 * an object is made of (driver/gem/userptr.c has gemd's half).
 *
 * The kernel pins the user's pages at the object's first use and the GPU
 * snoops them; gemd is another process and must never touch memory it
 * does not own.  So the pages change hands the other way: gemd makes the
 * object in a memfd of its own (a dedicated, sealed arena), and libgem
 * copies the range's current contents into it and maps the memfd over the
 * range (MAP_FIXED | MAP_SHARED).  From then on the program's pointer and
 * the GPU see the same pages, with no copy at execbuffer or retire, which
 * is what coherence asks.  (Copying with process_vm_readv/writev at each
 * execbuffer and retire, or userfaultfd, would leave gemd reaching into
 * the client and the two views apart between those points.)
 *
 * What the address space decides is decided here, in the kernel's order,
 * because only this process can see it: access_ok (-EFAULT), PROBE
 * (-EFAULT unless the range is all ordinary memory: no hole, no mapping of
 * a GEM object), and at first use whether the pages are there at all.  A
 * range that is not readable and writable ordinary memory is not taken
 * over; the object is *stale* and every use (execbuffer, set_domain,
 * pread, pwrite) tries again, and fails with -EFAULT as the kernel's
 * get_user_pages would.  munmap, mremap and MAP_FIXED maps over a range
 * (the interposer reports them, as it does for maps.c) make its object
 * stale too, as the MMU notifier invalidates it: the next use takes the
 * new memory there, or fails with -EFAULT.
 *
 * Where this differs from the kernel (man/libgem.3, "USERPTR"):
 *  - while the object lives the range is shared: a fork() child shares
 *    it with the parent instead of getting copy-on-write pages;
 *  - the pages are taken at GEM_USERPTR, not at first use (a range still
 *    unmapped then is taken at its first use, as in the kernel);
 *  - two userptr objects over the same pages do not share them: the
 *    newer one takes the range over, the older keeps what it had;
 *  - unmapping that the interposer does not see (libc's own munmap or
 *    brk inside free(), a raw syscall) leaves the object on its pages;
 *  - a range over a GEM_MMAP (CPU) mapping is refused as one over a GTT
 *    or MMAP_OFFSET mapping is (the kernel takes shmem pages there);
 *  - while the object lives, the range is a shared mapping of gemd's
 *    memfd (MADV_DONTFORK and other advice on it is lost); at GEM_CLOSE
 *    it becomes a private mapping of that memfd with the last contents,
 *    so that memory given back to the heap is private again (a program
 *    that closes the device fd without GEM_CLOSE keeps it shared).
 *
 * A hostile client gains nothing: everything here is advisory to gemd,
 * which checks flags and sizes itself and only ever hands out a memfd it
 * made for that file.  A lying client maps its own arena over its own
 * memory; it cannot reach another client's pages, and gemd never touches
 * the client's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <drm.h>
#include <i915_drm.h>

#include "channel.h"
#include "token.h"
#include "maps.h"
#include "usercopy.h"
#include "userptr.h"
#include "util.h"
#include "wire.h"

/* access_ok's bound: x86-64's TASK_SIZE_MAX with 4-level page tables. */
#if defined(__x86_64__)
#define USER_ADDR_MAX	0x00007ffffffff000ull
#else
#define USER_ADDR_MAX	((uint64_t)UINTPTR_MAX)
#endif

#define PAGE_MASK_LOW	4095ull

struct userptr {
	struct gem_dev *dev;
	struct gem_token token;			/* the file whose handle it is */
	uint32_t handle;
	uintptr_t addr;
	size_t size;
	uint32_t arena;			/* gemd's memfd, and where in it */
	uint64_t offset;
	bool live;			/* that memfd is mapped over the range */
};

static pthread_mutex_t ups_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t ups_once = PTHREAD_ONCE_INIT;
static struct userptr *ups;
static size_t nups, ups_alloc;
static size_t nstale;			/* entries not live: uses look them up */

static void ups_lock_take(void)
{
	pthread_mutex_lock(&ups_lock);
}

static void ups_lock_drop(void)
{
	pthread_mutex_unlock(&ups_lock);
}

/* A fork child keeps the mappings, and the record with them. */
static void ups_init_once(void)
{
	pthread_atfork(ups_lock_take, ups_lock_drop, ups_lock_drop);
}

static void set_live(struct userptr *u, bool live)
{
	if (u->live == live)
		return;
	u->live = live;
	__atomic_store_n(&nstale, live ? nstale - 1 : nstale + 1,
			 __ATOMIC_RELAXED);
}

/* get_user_pages with FOLL_WRITE wants VM_WRITE (on x86 that implies
 * readable; a userfaultfd range without PROT_READ is served when the
 * copy below touches it). */
static bool vma_writable(const struct proc_vma *v, uintptr_t at, const void *ctx)
{
	return v->perms[1] == 'w';
}

static bool vma_any(const struct proc_vma *v, uintptr_t at, const void *ctx)
{
	return true;
}

/*
 * Is [addr, addr + len) all mapped memory of the kind get_user_pages
 * takes: no hole, no mapping of a GEM object (the kernel's are PFNMAP or
 * MIXEDMAP; ours are in maps.c's record), and, when the GPU is to write
 * it (rw), writable?
 */
static bool range_ok(uintptr_t addr, size_t len, bool rw)
{
	if (libgem_maps_overlap((void *)addr, len))
		return false;
	return libgem_vmas_cover(addr, len, rw ? vma_writable : vma_any, NULL);
}

/* The range's contents into the memfd.  pwrite reads the range for us:
 * a page that vanished since the check is -EFAULT, never a crash. */
static int copy_in(int fd, const struct userptr *u)
{
	size_t done = 0;

	while (done < u->size) {
		ssize_t n = pwrite(fd, (const uint8_t *)u->addr + done,
				   u->size - done, (off_t)(u->offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EFAULT;
		done += (size_t)n;
	}
	return 0;
}

/*
 * Take the range over: its contents into gemd's memfd, then the memfd
 * over the range.  False, and the range untouched, if it cannot be taken
 * (the object stays stale).  ups_lock held.
 */
static bool take_over(struct userptr *u)
{
	struct gem_arena_ref a;
	bool ok = false;
	void *p;

	if (!range_ok(u->addr, u->size, true))
		return false;
	if (libgem_arena_get(u->dev, u->token, u->arena, &a))
		return false;
	/* gemd made the arena for this object alone; a short one lies. */
	if (u->offset > a.size || u->size > a.size - u->offset)
		goto out_put;
	if (copy_in(a.fd, u))
		goto out_put;
	p = mmap((void *)u->addr, u->size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, a.fd, (off_t)u->offset);
	ok = p != MAP_FAILED;
out_put:
	libgem_arena_put(u->dev, &a);
	return ok;
}

/*
 * GEM_CLOSE: the range goes back to being private memory, with the
 * object's last contents: the memfd mapped MAP_PRIVATE over it, which
 * reads the pages as they are and copies on write and on fork.  Left
 * shared, memory that free() gives back to the heap would be shared with
 * every fork() child, allocator metadata included.  ups_lock held.
 */
static void give_back(struct userptr *u)
{
	struct gem_arena_ref a;

	if (!u->live || libgem_arena_get(u->dev, u->token, u->arena, &a))
		return;
	(void)mmap((void *)u->addr, u->size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_FIXED, a.fd, (off_t)u->offset);
	libgem_arena_put(u->dev, &a);
}

static struct userptr *find_locked(struct gem_dev *dev, struct gem_token token,
				   uint32_t handle)
{
	size_t i;

	for (i = 0; i < nups; i++)
		if (ups[i].handle == handle && gem_token_equal(ups[i].token, token) &&
		    ups[i].dev == dev)
			return &ups[i];
	return NULL;
}

static void remove_locked(struct userptr *u)
{
	size_t i = (size_t)(u - ups);

	set_live(u, true);		/* not counted as stale any more */
	memmove(&ups[i], &ups[i + 1], (nups - i - 1) * sizeof(*ups));
	__atomic_store_n(&nups, nups - 1, __ATOMIC_RELAXED);
}

/* GEM_USERPTR's checks that need the address space, in the kernel's order
 * with gemd's own (which gemd repeats, trusting none of this). */
static int check_create(const struct drm_i915_gem_userptr *args)
{
	if (args->flags & ~(uint32_t)(I915_USERPTR_READ_ONLY |
				      I915_USERPTR_PROBE |
				      I915_USERPTR_UNSYNCHRONIZED))
		return -EINVAL;
	if ((args->user_size >> 12) > INT32_MAX)
		return -E2BIG;
	if (!args->user_size || ((args->user_ptr | args->user_size) & PAGE_MASK_LOW))
		return -EINVAL;
	if (args->user_ptr > USER_ADDR_MAX ||
	    args->user_size > USER_ADDR_MAX - args->user_ptr)
		return -EFAULT;		/* access_ok */
	if (args->flags & (I915_USERPTR_UNSYNCHRONIZED | I915_USERPTR_READ_ONLY))
		return 0;		/* gemd says -ENODEV */
	if ((args->flags & I915_USERPTR_PROBE) &&
	    !range_ok((uintptr_t)args->user_ptr, (size_t)args->user_size, false))
		return -EFAULT;
	return 0;
}

/* The object named by handle is used: a stale one is taken again, or it
 * is -EFAULT (get_user_pages failing). */
static int use_handle_locked(struct gem_dev *dev, struct gem_token token,
			     uint32_t handle)
{
	struct userptr *u = find_locked(dev, token, handle);

	if (!u || u->live)
		return 0;
	if (!take_over(u))
		return -EFAULT;
	set_live(u, true);
	return 0;
}

/* Every object an execbuffer lists; its list is the caller's memory, read
 * a handle at a time (a bad list is the wire's -EFAULT, not ours). */
static int use_exec_list(struct gem_dev *dev, struct gem_token token, uint64_t list,
			 uint32_t count, size_t stride)
{
	uint32_t i, handle;
	int ret = 0;

	for (i = 0; i < count && !ret; i++) {
		if (copy_from_user(&handle, (const void *)(uintptr_t)(list + (uint64_t)i * stride),
				   sizeof(handle)))
			return 0;
		ret = use_handle_locked(dev, token, handle);
	}
	return ret;
}

static int before_use(struct gem_dev *dev, struct gem_token token, unsigned int nr,
		      const void *karg)
{
	int ret = 0;

	pthread_mutex_lock(&ups_lock);
	switch (nr) {
	case DRM_COMMAND_BASE + DRM_I915_GEM_SET_DOMAIN:
		ret = use_handle_locked(dev, token,
			((const struct drm_i915_gem_set_domain *)karg)->handle);
		break;
	case DRM_COMMAND_BASE + DRM_I915_GEM_PREAD:
		ret = use_handle_locked(dev, token,
			((const struct drm_i915_gem_pread *)karg)->handle);
		break;
	case DRM_COMMAND_BASE + DRM_I915_GEM_PWRITE:
		ret = use_handle_locked(dev, token,
			((const struct drm_i915_gem_pwrite *)karg)->handle);
		break;
	case DRM_COMMAND_BASE + DRM_I915_GEM_EXECBUFFER2: {
		const struct drm_i915_gem_execbuffer2 *eb = karg;

		ret = use_exec_list(dev, token, eb->buffers_ptr, eb->buffer_count,
				    sizeof(struct drm_i915_gem_exec_object2));
		break;
	}
	case DRM_COMMAND_BASE + DRM_I915_GEM_EXECBUFFER: {
		const struct drm_i915_gem_execbuffer *eb = karg;

		ret = use_exec_list(dev, token, eb->buffers_ptr, eb->buffer_count,
				    sizeof(struct drm_i915_gem_exec_object));
		break;
	}
	default:
		break;
	}
	pthread_mutex_unlock(&ups_lock);
	return ret;
}

int libgem_userptr_before(struct gem_dev *dev, struct gem_token token,
			  unsigned long request, const void *karg)
{
	unsigned int nr = _IOC_NR(request);

	if (!karg || _IOC_TYPE(request) != DRM_IOCTL_BASE)
		return 0;
	if (nr == DRM_COMMAND_BASE + DRM_I915_GEM_USERPTR &&
	    _IOC_SIZE(request) >= sizeof(struct drm_i915_gem_userptr))
		return check_create(karg);
	/* Nothing stale (the usual case): no use needs looking at. */
	if (!__atomic_load_n(&nups, __ATOMIC_RELAXED))
		return 0;
	if (nr == _IOC_NR(DRM_IOCTL_GEM_CLOSE)) {
		const struct drm_gem_close *args = karg;
		struct userptr *u;

		pthread_mutex_lock(&ups_lock);
		u = find_locked(dev, token, args->handle);
		if (u) {
			give_back(u);
			remove_locked(u);
		}
		pthread_mutex_unlock(&ups_lock);
		return 0;
	}
	if (!__atomic_load_n(&nstale, __ATOMIC_RELAXED))
		return 0;
	return before_use(dev, token, nr, karg);
}

void libgem_userptr_created(struct gem_dev *dev, struct gem_token token,
			    const struct drm_i915_gem_userptr *args,
			    const struct gem_location *loc)
{
	struct userptr u = {
		.dev = dev, .token = token, .handle = args->handle,
		.addr = (uintptr_t)args->user_ptr,
		.size = (size_t)args->user_size,
		.arena = loc->arena, .offset = loc->offset,
	};
	struct userptr *old;

	pthread_once(&ups_once, ups_init_once);
	pthread_mutex_lock(&ups_lock);
	/* gemd reused the handle of an object whose close we missed. */
	old = find_locked(dev, token, args->handle);
	if (old)
		remove_locked(old);
	if (array_grow((void **)&ups, &ups_alloc, nups, sizeof(*ups), 16))
		goto out_unlock;	/* unrecorded: simply never stale */
	u.live = take_over(&u);
	ups[nups] = u;
	__atomic_store_n(&nups, nups + 1, __ATOMIC_RELAXED);
	if (!u.live)
		__atomic_store_n(&nstale, nstale + 1, __ATOMIC_RELAXED);
out_unlock:
	pthread_mutex_unlock(&ups_lock);
}

void libgem_userptr_forget(void *addr, size_t len)
{
	uintptr_t a = (uintptr_t)addr;
	size_t i;

	if (!len || !__atomic_load_n(&nups, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&ups_lock);
	for (i = 0; i < nups; i++)
		if (ups[i].addr < a + len && a < ups[i].addr + ups[i].size)
			set_live(&ups[i], false);
	pthread_mutex_unlock(&ups_lock);
}
