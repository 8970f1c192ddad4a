/*
 * Object memory: anonymous, swappable memfd "arenas" shared with clients.
 *
 * A memfd per object would cost a file descriptor and a mapping each, and
 * gemd must hold 100,000 objects under a 20,000-fd limit (and 65,530
 * mappings); so, as i915tex sub-allocated in user space, small and
 * medium objects are carved out of large sparse arenas (1 GiB of address
 * space, pages only when touched) by the same range allocator as the GTT.
 * Arena ids are never reused, because clients cache descriptors by id.
 *
 * Who may see what.  A client maps whole arenas, so an arena may only
 * ever hold memory its client may access:
 *
 *  - a *shared* arena belongs to one drm_file and holds only objects that
 *    file created and never exported (and their GTT views).  Nothing else
 *    can hold a handle to such an object, so the file's arenas are its
 *    own business; gemd's own objects (the ring) live in kernel arenas
 *    that are never handed out;
 *  - a *dedicated* arena holds exactly one object (or that object's GTT
 *    view): objects of GEM_DEDICATED_SIZE (16 MiB) or more, and every
 *    object once it is exported.  The first FLINK or PRIME export moves the object's
 *    pages into an arena of its own (gem_backing_export), so its memfd is
 *    the dma-buf fd itself — read/write/mmap-able, llseek gives the size —
 *    and GEM_OPEN or PRIME import elsewhere reveals nothing of the rest.
 *    Any file holding a handle to the object may fetch its arena.
 *
 * Every arena is sealed (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)
 * before a client sees it: nothing a client does to its descriptor can
 * take pages away under gemd (an ftruncate that would SIGBUS gemd's next
 * access is refused with EPERM) or grow it, and no further seal (such as
 * F_SEAL_WRITE) can be added.  A PRIME import of a memfd gemd no longer
 * knows (the object died while a dma-buf fd lived on) is accepted only
 * with those seals (gem_backing_adopt), so it is safe in the same way.
 *
 * Freed and purged ranges are punched out of the memfd: the memory goes
 * back to the system and the next object there reads as zeros, as fresh
 * shmem pages do.  Except the last few freed ranges nobody mapped
 * (GEM_RECYCLE_RANGES, GEM_RECYCLE_BYTES): they stay reserved with their
 * pages, and the next object of exactly that size in the same arena takes
 * one and is zeroed by hand, the kernel's clear_page at allocation.
 * Punching and touching again is not what the kernel pays: a page that
 * comes back means a page fault in gemd and in every client that touches
 * it, and each fault costs far more in a virtual machine than the clear
 * (4 MiB punched, written and read back: 17-19 ms on the 2-core VM, 1 ms
 * kept), which made allocation per use look 20x sub-allocation where the
 * 2008 kernels measured 1.5-2x.  DROP_FREED and DROP_SHRINK_ALL punch
 * them all (gem_backing_shrink), as the kernel's freed pages go back.
 *
 * In the kernel a CPU or GTT mapping keeps an object's pages and contents
 * alive after its last handle is closed.  A dedicated arena does exactly
 * that: gemd closes and unmaps it, the client's mapping keeps the memfd
 * (and its memory goes back when the last mapping does).  That is why
 * big objects get one: 16 MiB is big enough that a descriptor each stays
 * affordable (a few hundred per GiB of objects), and small enough that
 * the quarantine below holds only small ranges.
 * In a shared arena we cannot see a client's munmap, so the range of a
 * freed object that a client mapped is quarantined instead of being
 * reused at once (and so is any range freed while the file's clients
 * count a direct copy in flight, status.c): it stays reserved, contents intact, until
 * GEM_QUARANTINE_BYTES of newer quarantined ranges push it out, oldest
 * first, and only then is it punched and reused.  A client writing
 * through a mapping that old scribbles on a newer object of its own
 * file — the one way gemd's semantics are weaker than i915's, and it can
 * only hurt the file that made the mapping.  An arena whose file is gone
 * is never reused: it dies with its last object.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gem_priv.h"
#include "log.h"
#include "memfd.h"
#include "util.h"

/* Objects are whole pages of 4 KiB, the CPU's page size on x86. */
#define OBJ_PAGE	4096u

/* What every arena carries before a client may see it. */
#define ARENA_SEALS	(F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)

/*
 * An arena that cannot be made means no memory for the object, whatever
 * the reason (gemd out of descriptors, address space or tmpfs room): the
 * kernel's GEM_CREATE says -ENOMEM, never -EMFILE.  The log says why.
 */
static int arena_error(const char *what, int err)
{
	log_warn("cannot grow the object memory: %s: %s", what, strerror(err));
	return -ENOMEM;
}

/* Map fd (ours now) and list it as an arena of size bytes. */
static int arena_install(struct gem_device *dev, int fd, uint64_t size,
			 bool dedicated, struct gem_arena **out)
{
	struct gem_arena *arena;
	struct stat st;
	int ret;

	arena = gem_calloc(1, sizeof(*arena));
	if (!arena) {
		ret = -ENOMEM;
		goto out_close;
	}
	if (fstat(fd, &st) < 0) {
		ret = arena_error("fstat", errno);
		goto out_free;
	}
	arena->base = gem_faultsim_fail() ? MAP_FAILED :
		      mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (arena->base == MAP_FAILED) {
		ret = arena_error("mmap", errno);
		goto out_free;
	}
	arena->id = dev->next_arena_id++;
	ret = idmap_insert(&dev->arena_ids, arena->id, arena);
	if (ret)
		goto out_unmap;
	arena->fd = fd;
	arena->st_dev = st.st_dev;
	arena->st_ino = st.st_ino;
	arena->size = size;
	arena->free = size;
	arena->dedicated = dedicated;
	mm_init(&arena->mm, 0, size);
	list_add_tail(&arena->link, &dev->arenas);
	INIT_LIST_HEAD(&arena->owner_link);
	*out = arena;
	return 0;

out_unmap:
	munmap(arena->base, size);
out_free:
	free(arena);
out_close:
	close(fd);
	return ret;
}

static int arena_create(struct gem_device *dev, uint64_t size, bool dedicated,
			struct gem_arena **out)
{
	int fd;

	/* Can fail as an allocation does (faultsim.c). */
	fd = gem_faultsim_fail() ? -ENOMEM :
	     memfd_create_sealed("gem-arena", size, ARENA_SEALS);
	if (fd < 0)
		return arena_error("memfd", -fd);
	return arena_install(dev, fd, size, dedicated, out);
}

static void punch(struct gem_arena *arena, uint64_t start, uint64_t size)
{
	if (fallocate(arena->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)start, (off_t)size) < 0) {
		/* Cannot happen on a memfd; zero by hand rather than leak data. */
		log_warn("fallocate(PUNCH_HOLE) on arena %u: %m", arena->id);
		memset(arena->base + start, 0, size);
	}
}

/* Give a kept range back; punch it first if it is to be reused. */
static void quarantine_release(struct gem_device *dev, struct gem_quarantine *q,
			       bool reuse)
{
	if (reuse)
		punch(q->arena, q->node.start, q->node.size);
	list_del_init(&q->link);
	mm_remove_node(&q->node);
	q->arena->free += q->node.size;
	if (q->recycle) {
		dev->recycle_bytes -= q->node.size;
		dev->recycle_ranges--;
	} else {
		dev->quarantine_bytes -= q->node.size;
	}
	free(q);
}

static bool recycle_over(const struct gem_device *dev)
{
	return dev->recycle_bytes > GEM_RECYCLE_BYTES ||
	       dev->recycle_ranges > GEM_RECYCLE_RANGES;
}

/* Keep [start, start + size) of arena reserved, contents and all, on the
 * quarantine or the recycle list; the oldest kept ranges over the list's
 * budget are punched and reused.  False if there is no memory for the
 * record. */
static bool quarantine_add(struct gem_device *dev, struct gem_arena *arena,
			   uint64_t start, uint64_t size, bool recycle)
{
	struct list_head *list = recycle ? &dev->recycle : &dev->quarantine;
	/* Recycling is an optimisation gemd does without when memory is
	 * short, so its record is no allocation that can fail the caller
	 * (faultsim.c counts gem_calloc's). */
	struct gem_quarantine *q = recycle ? calloc(1, sizeof(*q)) :
					     gem_calloc(1, sizeof(*q));

	if (!q)
		return false;
	q->node.start = start;
	q->node.size = size;
	if (mm_reserve_node(&arena->mm, &q->node)) {
		free(q);
		return false;
	}
	q->arena = arena;
	q->recycle = recycle;
	list_add_tail(&q->link, list);
	if (recycle) {
		dev->recycle_bytes += size;
		dev->recycle_ranges++;
	} else {
		dev->quarantine_bytes += size;
	}
	while (recycle ? recycle_over(dev) :
			 dev->quarantine_bytes > GEM_QUARANTINE_BYTES)
		quarantine_release(dev, list_first_entry(list, struct gem_quarantine,
							 link),
				   true);
	return true;
}

/* Release every kept range of arena: it will never be reused. */
static void quarantine_forget(struct gem_device *dev, struct gem_arena *arena)
{
	struct gem_quarantine *q, *next;

	list_for_each_entry_safe(q, next, &dev->quarantine, link)
		if (q->arena == arena)
			quarantine_release(dev, q, false);
	list_for_each_entry_safe(q, next, &dev->recycle, link)
		if (q->arena == arena)
			quarantine_release(dev, q, false);
}

/*
 * A recycled range of exactly size bytes in one of the arenas (owner's,
 * or the kernel's for NULL) for node, newest first, zeroed as a new
 * object must read.  False if there is none.
 */
static bool recycle_take(struct gem_device *dev, struct gem_file *owner,
			 uint64_t size, struct mm_node *node,
			 struct gem_arena **out)
{
	struct gem_quarantine *q;
	struct gem_arena *arena;

	list_for_each_entry_reverse(q, &dev->recycle, link) {
		arena = q->arena;
		if (q->node.size != size || arena->owner != owner ||
		    (!owner && !arena->kernel))
			continue;
		list_del_init(&q->link);
		mm_remove_node(&q->node);
		dev->recycle_bytes -= size;
		dev->recycle_ranges--;
		node->start = q->node.start;
		node->size = size;
		free(q);
		/* cannot fail: the range was reserved a moment ago */
		(void)mm_reserve_node(&arena->mm, node);
		memset(arena->base + node->start, 0, size);
		arena->ranges++;	/* its bytes were never free */
		*out = arena;
		return true;
	}
	return false;
}

/* DROP_FREED: the recycled ranges' memory goes back to the system. */
void gem_backing_shrink(struct gem_device *dev)
{
	while (!list_empty(&dev->recycle))
		quarantine_release(dev, list_first_entry(&dev->recycle,
							 struct gem_quarantine, link),
				   true);
}

/* gemd lets go of the memfd; clients' mappings keep their pages. */
static void arena_destroy(struct gem_device *dev, struct gem_arena *arena)
{
	quarantine_forget(dev, arena);
	list_del_init(&arena->link);
	list_del_init(&arena->owner_link);
	idmap_remove(&dev->arena_ids, arena->id);
	mm_takedown(&arena->mm);
	munmap(arena->base, arena->size);
	close(arena->fd);
	free(arena);
}

/* Only a live file's shared arenas (and the kernel's) are reused. */
static bool arena_reusable(const struct gem_arena *arena)
{
	return !arena->dedicated && (arena->owner || arena->kernel);
}

/*
 * A range of arena is no longer an object's or a view's.  A range a
 * client mapped keeps its contents for as long as the arena could reuse
 * it otherwise (see the top of the file).
 */
static void range_release(struct gem_device *dev, struct gem_arena *arena,
			  struct mm_node *node, bool mapped)
{
	uint64_t start = node->start, size = node->size;

	mm_remove_node(node);
	/* A client's direct copy may be writing there still (status.c). */
	if (arena->owner && gem_status_copies_in_flight(arena->owner))
		mapped = true;
	if (!arena_reusable(arena)) {
		arena->free += size;
	} else if (!quarantine_add(dev, arena, start, size, !mapped)) {
		punch(arena, start, size);
		arena->free += size;
	}
	if (--arena->ranges == 0 && !arena_reusable(arena))
		arena_destroy(dev, arena);
}

/* size bytes in one of owner's shared arenas (the kernel's for NULL);
 * *recycled says whether they are a recycled range, zeroed by hand. */
static int range_alloc(struct gem_device *dev, struct gem_file *owner,
		       uint64_t size, struct mm_node *node,
		       struct gem_arena **out, bool *recycled)
{
	struct list_head *arenas = owner ? &owner->arenas : &dev->kernel_arenas;
	struct gem_arena *arena;
	int ret;

	*recycled = recycle_take(dev, owner, size, node, out);
	if (*recycled)
		return 0;
	list_for_each_entry(arena, arenas, owner_link) {
		if (arena->free < size)
			continue;
		if (mm_insert_node(&arena->mm, node, size, 4096) == 0)
			goto found;
	}
	ret = arena_create(dev, GEM_ARENA_SIZE, false, &arena);
	if (ret)
		return ret;
	arena->owner = owner;
	arena->kernel = !owner;
	list_add_tail(&arena->owner_link, arenas);
	ret = mm_insert_node(&arena->mm, node, size, 4096);
	if (ret)
		return ret;	/* cannot happen: size < GEM_DEDICATED_SIZE */
found:
	arena->free -= size;
	arena->ranges++;
	*out = arena;
	return 0;
}

/* An empty arena of its own for obj (or its view). */
static int dedicated_create(struct gem_device *dev, struct gem_object *obj,
			    uint64_t size, struct gem_arena **out)
{
	int ret = arena_create(dev, size, true, out);

	if (!ret)
		(*out)->obj = obj;
	return ret;
}

/* node becomes the one range [0, size) of a dedicated arena. */
static void dedicated_take(struct gem_arena *arena, struct mm_node *node)
{
	/* cannot fail: the arena is empty and exactly that big */
	(void)mm_insert_node(&arena->mm, node, arena->size, 4096);
	arena->free = 0;
	arena->ranges = 1;
}

static int dedicated_alloc(struct gem_device *dev, struct gem_object *obj,
			   uint64_t size, struct mm_node *node,
			   struct gem_arena **out)
{
	int ret = dedicated_create(dev, obj, size, out);

	if (!ret)
		dedicated_take(*out, node);
	return ret;
}

int gem_backing_alloc(struct gem_device *dev, struct gem_file *owner,
		      struct gem_object *obj)
{
	struct gem_arena *arena;
	bool recycled = false;
	int ret;

	/* A userptr object's arena ends up mapped over the client's own
	 * memory, for good: it must hold nothing else. */
	if (obj->size >= GEM_DEDICATED_SIZE || obj->userptr) {
		ret = dedicated_alloc(dev, obj, obj->size, &obj->arena_node, &arena);
		if (!ret)
			arena->kernel = !owner;
	} else {
		ret = range_alloc(dev, owner, obj->size, &obj->arena_node, &arena,
				  &recycled);
	}
	if (ret)
		return ret;
	obj->fresh = recycled;
	obj->arena = arena;
	obj->vaddr = arena->base + obj->arena_node.start;
	return 0;
}

/* Give the pages back; the range reads as zeros afterwards. */
void gem_backing_discard(struct gem_object *obj)
{
	gem_view_free(obj);
	punch(obj->arena, obj->arena_node.start, obj->size);
}

/*
 * i915_gem_object_has_pages(): the kernel gets all of an object's pages
 * at its first use (a fault, pread/pwrite, a binding) and keeps them
 * until the shrinker takes them.  gemd's pages come one by one as
 * something touches the arena; an object has pages while any of its
 * range is in memory.  mincore() on gemd's own mapping sees what a
 * client's mapping, the GPU or a copy touched (gemd created the memfd,
 * so it may ask).  A page swapped out counts as none: a purgeable
 * object in that state may go, as the shrinker would have taken it.
 */
bool gem_backing_has_pages(const struct gem_object *obj)
{
	unsigned char vec[256];
	uint64_t off, chunk = sizeof(vec) * OBJ_PAGE;
	size_t i, n;

	if (obj->view)
		return true;
	if (obj->fresh)
		return false;	/* gemd's zeroing is no use */
	for (off = 0; off < obj->size; off += chunk) {
		n = (size_t)(MIN(chunk, obj->size - off) / OBJ_PAGE);
		if (mincore(obj->vaddr + off, n * OBJ_PAGE, vec) < 0)
			return true;	/* cannot tell: keep it */
		for (i = 0; i < n; i++)
			if (vec[i] & 1)
				return true;
	}
	return false;
}

void gem_backing_free(struct gem_device *dev, struct gem_object *obj)
{
	struct gem_arena *arena = obj->arena;

	if (!arena)
		return;
	gem_view_free(obj);
	range_release(dev, arena, &obj->arena_node, obj->client_mapped);
	obj->arena = NULL;
	obj->vaddr = NULL;
}

/*
 * The first export.  The object may be bound and even busy: the GTT is
 * pointed at the new pages, and a GPU write that lands on the old pages
 * between the copy and the switch is merged across afterwards (a write
 * to the new ones after the switch wins).  The old range stays as it is
 * for clients that mapped it, in quarantine; the exporting client maps
 * the object again (GEM_LOC_REMAP).
 */
int gem_backing_export(struct gem_object *obj)
{
	struct gem_device *dev = obj->dev;
	struct gem_arena *arena, *old = obj->arena;
	uint8_t *snap = NULL, *old_vaddr = obj->vaddr;
	bool racy;
	int ret;

	if (old->dedicated)
		return 0;
	racy = obj->active && obj->last_write_seqno &&
	       !seqno_passed(gem_hw_seqno(dev), obj->last_write_seqno);
	if (racy) {
		snap = gem_malloc(obj->size);
		if (!snap)
			return -ENOMEM;
	}
	ret = dedicated_create(dev, obj, obj->size, &arena);
	if (ret)
		goto out_free;
	/* A client's direct pwrite may be copying to the old pages: it
	 * learns of the move from its entry, rewritten first (status.c). */
	gem_status_object_moving(obj, true);
	memcpy(arena->base, old_vaddr, obj->size);
	if (snap)
		memcpy(snap, arena->base, obj->size);
	if (gem_object_bound(obj))
		gpu_gtt_bind(dev->gpu, gem_object_gtt_offset(obj), arena->base,
			     (uint32_t)obj->size);
	if (snap)
		gem_merge3(arena->base, old_vaddr, snap, obj->size);

	/* A client mapped the old pages, or a command the GPU is running
	 * may still read them: they keep their contents a while. */
	range_release(dev, old, &obj->arena_node, obj->client_mapped || obj->active);
	dedicated_take(arena, &obj->arena_node);
	obj->arena = arena;
	obj->vaddr = arena->base;
	obj->client_mapped = false;
	gem_status_object_moving(obj, false);	/* its pages moved */
out_free:
	free(snap);
	return ret;
}

int gem_backing_view_alloc(struct gem_object *obj, struct gem_view *view)
{
	struct gem_device *dev = obj->dev;
	struct gem_arena *arena;
	bool recycled;
	int ret;

	if (obj->arena->dedicated || obj->arena->kernel)
		ret = dedicated_alloc(dev, obj, obj->size, &view->node, &arena);
	else if (obj->arena->owner)
		ret = range_alloc(dev, obj->arena->owner, obj->size, &view->node,
				  &arena, &recycled);
	else
		ret = -ENOENT;	/* its file is gone: nobody can map it */
	if (ret)
		return ret;
	view->arena = arena;
	view->vaddr = arena->base + view->node.start;
	return 0;
}

void gem_backing_view_free(struct gem_object *obj, struct gem_view *view)
{
	range_release(obj->dev, view->arena, &view->node, view->mapped);
	view->arena = NULL;
	view->vaddr = NULL;
}

/* drm_release: the file's arenas are nobody's now; each goes with its
 * last object. */
void gem_backing_file_release(struct gem_file *file)
{
	struct gem_device *dev = file->dev;
	struct gem_arena *arena, *next;

	list_for_each_entry_safe(arena, next, &file->arenas, owner_link) {
		list_del_init(&arena->owner_link);
		arena->owner = NULL;
		quarantine_forget(dev, arena);
		if (!arena->ranges)
			arena_destroy(dev, arena);
	}
}

struct gem_object *gem_backing_find(struct gem_device *dev, int fd)
{
	struct gem_arena *arena;
	struct stat st;

	if (fstat(fd, &st) < 0)
		return NULL;
	list_for_each_entry(arena, &dev->arenas, link)
		if (arena->dedicated && arena->st_ino == st.st_ino &&
		    arena->st_dev == st.st_dev && arena->obj &&
		    arena->obj->arena == arena)
			return arena->obj;
	return NULL;
}

int gem_backing_adopt(struct gem_device *dev, int fd, struct gem_object *obj)
{
	struct gem_arena *arena;
	uint64_t size;
	char path[64];
	int seals, ret;

	/* A memfd on shmem as gemd seals them, and nothing more: gemd must be
	 * able to write it, nobody to shrink it under gemd, and no page of
	 * it may fail to come (hugetlbfs). */
	seals = memfd_shmem_seals(fd, &size);
	if (seals != ARENA_SEALS || !size || size > GEM_MAX_OBJECT_SIZE ||
	    (size & 4095))
		return -EINVAL;
	obj->size = size;
	/* A descriptor of our own, writable even if the client's is not (a
	 * dma-buf exported without DRM_RDWR still imports as an object):
	 * anyone holding a memfd may open it again read-write this way. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	fd = gem_faultsim_fail() ? -1 : open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return arena_error("reopen", errno);
	ret = arena_install(dev, fd, obj->size, true, &arena);
	if (ret)
		return ret;
	arena->obj = obj;
	dedicated_take(arena, &obj->arena_node);
	obj->arena = arena;
	obj->vaddr = arena->base;
	return 0;
}

void gem_backing_fini(struct gem_device *dev)
{
	while (!list_empty(&dev->quarantine))
		quarantine_release(dev, list_first_entry(&dev->quarantine,
							 struct gem_quarantine, link),
				   false);
	while (!list_empty(&dev->recycle))
		quarantine_release(dev, list_first_entry(&dev->recycle,
							 struct gem_quarantine, link),
				   false);
	while (!list_empty(&dev->arenas)) {
		struct gem_arena *arena =
			list_first_entry(&dev->arenas, struct gem_arena, link);

		if (!mm_clean(&arena->mm))
			log_warn("arena %u still has objects at shutdown", arena->id);
		arena_destroy(dev, arena);
	}
}

/* May file see every byte of arena?  Its own objects', or one object's
 * that it holds a handle to. */
static bool arena_allowed(const struct gem_arena *arena,
			  const struct gem_file *file)
{
	if (arena->kernel)
		return false;
	if (!arena->dedicated)
		return arena->owner == file;
	return arena->obj && gem_holder_find(arena->obj, file);
}

/*
 * A duplicate, taken under dev->lock: a dedicated arena is destroyed (its
 * fd closed, the number free for reuse) as soon as its object is freed,
 * possibly by another client between our unlock and the caller's send.
 */
int gem_arena_fd(struct gem_file *file, uint32_t id, uint64_t *size)
{
	struct gem_device *dev = file->dev;
	struct gem_arena *arena;
	int fd = -ENOENT;

	gem_lock(dev);
	arena = idmap_lookup(&dev->arena_ids, id);
	if (arena && !arena_allowed(arena, file)) {
		fd = -EACCES;
	} else if (arena) {
		fd = fcntl(arena->fd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			fd = -errno;
		else
			*size = arena->size;
	}
	gem_unlock(dev);
	return fd;
}

/*
 * Where a client will touch the object's pages (a copy, a mapping): the
 * tiled view merged in first, and a recycled range no longer "fresh",
 * since whatever the client does there gives it pages
 * (gem_backing_has_pages).
 */
void gem_object_hand_out(struct gem_object *obj, struct gem_backing_loc *loc)
{
	gem_view_sync(obj);
	gem_object_location(obj, loc);
	obj->fresh = false;
}

void gem_object_location(const struct gem_object *obj, struct gem_backing_loc *loc)
{
	loc->arena = obj->arena->id;
	loc->flags = 0;
	loc->offset = obj->arena_node.start;
	loc->size = obj->size;
	loc->object = (uint64_t)obj->id << GEM_FAKE_OFFSET_SHIFT;
}
