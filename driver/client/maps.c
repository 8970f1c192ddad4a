/*
 * libgem's record of the mappings it made, so that it can map them again.
 *
 * The kernel zaps a GTT mapping when the object's tiling changes and the
 * next access faults the new view in; a CPU mapping always shows the
 * object's pages.  gemd cannot reach into a client's address space, so
 * when a reply says an object's memory moved (its first export) or its
 * GTT view changed (a tiling change), libgem maps again, at the same
 * addresses (MAP_FIXED), every mapping it made of that object: it asks
 * gemd where the mapping's fake offset points now, exactly as the first
 * mmap did.
 *
 * A program may unmap or reuse the addresses without telling libgem (the
 * interposer tells it of munmap, mremap and MAP_FIXED maps over them;
 * programs linked to libgem itself may call gem_munmap).  So nothing is
 * mapped over a recorded range before /proc/self/maps confirms that it
 * still maps that arena at that offset; a range that does not is
 * forgotten.  The record is bounded: past MAPS_MAX entries the oldest is
 * forgotten (its mapping then simply stays as it was).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/sysmacros.h>

#include "channel.h"
#include "maps.h"
#include "memfd.h"
#include "userptr.h"
#include "util.h"

#define MAPS_MAX	65536

struct mapping {
	uintptr_t addr;
	size_t len;
	struct gem_dev *dev;
	struct gem_token token;			/* the file it was mapped through */
	uint64_t fake;			/* its fake offset, byte included */
	uint64_t object;		/* the object's (gem_location.object) */
	int prot, flags;		/* as the program asked (no MAP_FIXED) */
	uint32_t arena;			/* what it maps now */
	uint64_t offset;
	dev_t st_dev;
	ino_t st_ino;
	uint64_t seq;			/* age, for the bound */
};

/* Sorted by address: munmap finds its entries by binary search. */
static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mapping *maps;
static size_t nmaps, maps_alloc;
static uint64_t maps_seq;
static pthread_once_t maps_once = PTHREAD_ONCE_INIT;

static void maps_lock_take(void)
{
	pthread_mutex_lock(&maps_lock);
}

static void maps_lock_drop(void)
{
	pthread_mutex_unlock(&maps_lock);
}

/* A fork child keeps the mappings, and the record with them. */
static void maps_init_once(void)
{
	pthread_atfork(maps_lock_take, maps_lock_drop, maps_lock_drop);
}

/* First entry with addr >= a. */
static size_t maps_lower(uintptr_t a)
{
	size_t lo = 0, hi = nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps[mid].addr < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void maps_remove_at(size_t i)
{
	memmove(&maps[i], &maps[i + 1], (nmaps - i - 1) * sizeof(*maps));
	__atomic_store_n(&nmaps, nmaps - 1, __ATOMIC_RELAXED);
}

/* Forget every entry overlapping [a, a + len); maps_lock held. */
static void forget_locked(uintptr_t a, size_t len)
{
	size_t i = maps_lower(a);

	/* An entry starting below a may still reach into the range. */
	while (i > 0 && maps[i - 1].addr + maps[i - 1].len > a)
		i--;
	while (i < nmaps && maps[i].addr < a + len) {
		if (maps[i].addr + maps[i].len > a)
			maps_remove_at(i);
		else
			i++;
	}
}

static void forget_oldest_locked(void)
{
	size_t i, old = 0;

	for (i = 1; i < nmaps; i++)
		if (maps[i].seq < maps[old].seq)
			old = i;
	maps_remove_at(old);
}

void libgem_maps_add(struct gem_dev *dev, struct gem_token token, void *addr, size_t len,
		     int prot, int flags, uint64_t fake,
		     const struct gem_location *loc,
		     const struct gem_arena_ref *arena)
{
	struct mapping m = {
		.addr = (uintptr_t)addr, .len = len, .dev = dev, .token = token,
		.fake = fake, .object = loc->object,
		.prot = prot, .flags = flags & ~MAP_FIXED,
		.arena = loc->arena, .offset = loc->offset,
		.st_dev = arena->st_dev, .st_ino = arena->st_ino,
	};
	size_t i;

	pthread_once(&maps_once, maps_init_once);
	pthread_mutex_lock(&maps_lock);
	forget_locked(m.addr, len);
	if (nmaps == MAPS_MAX)
		forget_oldest_locked();
	if (array_grow((void **)&maps, &maps_alloc, nmaps, sizeof(*maps), 64))
		goto out_unlock;	/* only a record */
	m.seq = ++maps_seq;
	i = maps_lower(m.addr);
	memmove(&maps[i + 1], &maps[i], (nmaps - i) * sizeof(*maps));
	maps[i] = m;
	__atomic_store_n(&nmaps, nmaps + 1, __ATOMIC_RELAXED);
out_unlock:
	pthread_mutex_unlock(&maps_lock);
}

void libgem_maps_forget(void *addr, size_t len)
{
	/* The MMU notifier's part: a userptr range unmapped or replaced. */
	libgem_userptr_forget(addr, len);
	/* Every munmap of the program comes here: most find nothing. */
	if (!len || !__atomic_load_n(&nmaps, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&maps_lock);
	if (nmaps)
		forget_locked((uintptr_t)addr, len);
	pthread_mutex_unlock(&maps_lock);
}

bool libgem_maps_overlap(const void *addr, size_t len)
{
	uintptr_t a = (uintptr_t)addr;
	bool found = false;
	size_t i;

	if (!len || !__atomic_load_n(&nmaps, __ATOMIC_RELAXED))
		return false;
	pthread_mutex_lock(&maps_lock);
	i = maps_lower(a);
	if (i > 0 && maps[i - 1].addr + maps[i - 1].len > a)
		found = true;
	else if (i < nmaps && maps[i].addr < a + len)
		found = true;
	pthread_mutex_unlock(&maps_lock);
	return found;
}

bool libgem_vmas_cover(uintptr_t addr, size_t len,
		       bool (*ok)(const struct proc_vma *v, uintptr_t at,
				  const void *ctx),
		       const void *ctx)
{
	uintptr_t want = addr, end = addr + len;
	char line[512];
	FILE *f;

	f = fopen("/proc/self/maps", "re");
	if (!f)
		return false;
	while (want < end && fgets(line, sizeof(line), f)) {
		struct proc_vma v;
		unsigned int maj, mnr;

		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %4s %llx %x:%x %llu",
			   &v.start, &v.stop, v.perms, &v.offset, &maj, &mnr,
			   &v.ino) != 7)
			continue;
		if (v.stop <= want)
			continue;
		v.dev = makedev(maj, mnr);
		if (v.start > want || !ok(&v, want, ctx))
			break;
		want = v.stop;
	}
	fclose(f);
	return want >= end;
}

void *libgem_map_purged(void *addr, size_t len, int prot, int flags,
			struct gem_arena_ref *a, int *err)
{
	/* Sealed at size 0: nothing can give the mapping pages. */
	int fd = memfd_create_sealed("gemkit-purged", 0,
				     F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
	struct stat st;
	void *p = MAP_FAILED;

	if (fd < 0) {
		*err = fd;
		return MAP_FAILED;
	}
	if (fstat(fd, &st)) {
		*err = -errno;
		goto out_close;
	}
	p = mmap(addr, len, prot, flags, fd, 0);
	if (p == MAP_FAILED) {
		*err = -errno;
		goto out_close;
	}
	*a = (struct gem_arena_ref){
		.id = GEM_ARENA_PURGED, .fd = -1,
		.st_dev = st.st_dev, .st_ino = st.st_ino,
	};
out_close:
	close(fd);
	return p;
}

/* Does this line map m's arena, at the offset that address wants?
 * (mprotect may have split the mapping.) */
static bool maps_arena(const struct proc_vma *v, uintptr_t at, const void *ctx)
{
	const struct mapping *m = ctx;

	return v->ino == (unsigned long long)m->st_ino && v->dev == m->st_dev &&
	       v->offset == m->offset + (at - m->addr);
}

/* Does [m->addr, + len) still map m's arena, from m->offset on? */
static bool still_mapped(const struct mapping *m)
{
	return libgem_vmas_cover(m->addr, m->len, maps_arena, m);
}

/* Map m again where gemd says its fake offset points now: 0, or -errno
 * when it cannot (the entry is then forgotten). */
static int remap_one(struct mapping *m)
{
	struct gem_location loc;
	struct gem_arena_ref a;
	void *p;
	int ret;

	ret = libgem_mmap_locate(m->dev, m->token, m->fake, m->len, &loc);
	if (ret)
		return ret;
	if (loc.flags & GEM_LOC_PURGED) {
		loc.arena = GEM_ARENA_PURGED;
		loc.offset = 0;
	}
	if (loc.arena == m->arena && loc.offset == m->offset)
		return 0;
	if (!still_mapped(m))
		return -ENOENT;
	if (loc.flags & GEM_LOC_PURGED) {
		p = libgem_map_purged((void *)m->addr, m->len, m->prot,
				      m->flags | MAP_FIXED, &a, &ret);
		if (p == MAP_FAILED)
			return ret;
		goto out_record;
	}
	ret = libgem_arena_get(m->dev, m->token, loc.arena, &a);
	if (ret)
		return ret;
	p = mmap((void *)m->addr, m->len, m->prot, m->flags | MAP_FIXED, a.fd,
		 (off_t)loc.offset);
	libgem_arena_put(m->dev, &a);
	if (p == MAP_FAILED)
		return -errno;
out_record:
	m->arena = loc.arena;
	m->offset = loc.offset;
	m->st_dev = a.st_dev;
	m->st_ino = a.st_ino;
	return 0;
}

void libgem_maps_remap(struct gem_dev *dev, uint64_t object)
{
	size_t i;

	pthread_mutex_lock(&maps_lock);
	for (i = 0; i < nmaps; ) {
		struct mapping *m = &maps[i];

		if (m->dev != dev || m->object != object) {
			i++;
			continue;
		}
		if (remap_one(m))
			maps_remove_at(i);
		else
			i++;
	}
	pthread_mutex_unlock(&maps_lock);
}

/*
 * How much of an access through the process's own memory file
 * (/proc/self/mem) at [addr, addr + len) the kernel would serve: see
 * preload-procmem.c.  mem_rw() hands access_remote_vm() chunks of at most
 * a page; i915's mappings have no struct pages, so the first address of
 * a chunk that falls in one goes to its vm_access(), which refuses the
 * whole rest of the chunk if it runs past the object (range_overflows),
 * and the read stops there.  We know the object's end as the mapping's.
 */
size_t libgem_maps_access_limit(uintptr_t addr, size_t len)
{
	uintptr_t pos = addr, end = addr + len;
	size_t i;

	if (!__atomic_load_n(&nmaps, __ATOMIC_RELAXED))
		return len;
	pthread_mutex_lock(&maps_lock);
	while (pos < end) {
		uintptr_t chunk_end = pos + (end - pos < 4096 ? end - pos : 4096);

		i = maps_lower(pos);
		if (i > 0 && maps[i - 1].addr + maps[i - 1].len > pos)
			i--;
		if (i < nmaps && maps[i].addr < chunk_end &&
		    chunk_end > maps[i].addr + maps[i].len) {
			pos = maps[i].addr > pos ? maps[i].addr : pos;
			break;
		}
		pos = chunk_end;
	}
	pthread_mutex_unlock(&maps_lock);
	return pos < end ? pos - addr : len;
}
