/*
 * Object memory: anonymous, swappable memfd "arenas" shared with clients.
 *
 * A memfd per object would cost a file descriptor and a mapping each, and
 * gemd must hold 100,000 objects under a 20,000-fd limit; so, as i915tex
 * sub-allocated in user space, small and medium objects are carved out of
 * large sparse arenas (1 GiB of address space, pages only when touched) by
 * the same range allocator as the GTT.  Objects bigger than half an arena
 * get an arena of their own.  Arena ids are never reused, because clients
 * cache their mappings by id.
 *
 * Freed and purged ranges are punched out of the memfd: the memory goes
 * back to the system and the next object there reads as zeros, as fresh
 * shmem pages do.  Clients map whole arenas; like every client on gen3's
 * single global GTT, they are trusted not to scribble outside their
 * objects.
 *
 * In the kernel a CPU mapping keeps an object's pages alive after its
 * last handle is closed.  We cannot see a client's munmap, so the range
 * of a freed object that a client mapped is quarantined instead of being
 * reused at once: it stays reserved (its pages already given back) until
 * GEM_QUARANTINE_BYTES of newer quarantined ranges push it out, oldest
 * first.  A client writing through a mapping that old scribbles on a
 * newer object — the one way gemd's semantics are weaker than i915's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gem_priv.h"
#include "log.h"

/*
 * An arena that cannot be made means no memory for the object, whatever
 * the reason (gemd out of descriptors, address space or tmpfs room): the
 * kernel's GEM_CREATE says -ENOMEM, never -EMFILE.  The log says why.
 */
static int arena_error(const char *what)
{
	log_warn("cannot grow the object memory: %s: %s", what, strerror(errno));
	return -ENOMEM;
}

static int arena_create(struct gem_device *dev, uint64_t size, bool dedicated,
			struct gem_arena **out)
{
	struct gem_arena *arena;
	int ret;

	arena = gem_calloc(1, sizeof(*arena));
	if (!arena)
		return -ENOMEM;
	/* Each step can fail as an allocation does (faultsim.c). */
	arena->fd = gem_faultsim_fail() ? -1 : memfd_create("gem-arena", MFD_CLOEXEC);
	if (arena->fd < 0) {
		ret = arena_error("memfd_create");
		goto out_free;
	}
	if (gem_faultsim_fail() || ftruncate(arena->fd, (off_t)size) < 0) {
		ret = arena_error("ftruncate");
		goto out_close;
	}
	arena->base = gem_faultsim_fail() ? MAP_FAILED :
		      mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			   arena->fd, 0);
	if (arena->base == MAP_FAILED) {
		ret = arena_error("mmap");
		goto out_close;
	}
	arena->id = dev->next_arena_id++;
	ret = idmap_insert(&dev->arena_ids, arena->id, arena);
	if (ret)
		goto out_unmap;
	arena->size = size;
	arena->free = size;
	arena->dedicated = dedicated;
	mm_init(&arena->mm, 0, size);
	list_add_tail(&arena->link, &dev->arenas);
	*out = arena;
	return 0;

out_unmap:
	munmap(arena->base, size);
out_close:
	close(arena->fd);
out_free:
	free(arena);
	return ret;
}

static void quarantine_release(struct gem_device *dev, struct gem_quarantine *q)
{
	list_del_init(&q->link);
	mm_remove_node(&q->node);
	q->arena->free += q->node.size;
	dev->quarantine_bytes -= q->node.size;
	free(q);
}

/* Keep [start, start + size) of arena reserved; false if no memory. */
static bool quarantine_add(struct gem_device *dev, struct gem_arena *arena,
			   uint64_t start, uint64_t size)
{
	struct gem_quarantine *q = gem_calloc(1, sizeof(*q));

	if (!q)
		return false;
	q->node.start = start;
	q->node.size = size;
	if (mm_reserve_node(&arena->mm, &q->node)) {
		free(q);
		return false;
	}
	q->arena = arena;
	list_add_tail(&q->link, &dev->quarantine);
	dev->quarantine_bytes += size;
	while (dev->quarantine_bytes > GEM_QUARANTINE_BYTES)
		quarantine_release(dev, list_first_entry(&dev->quarantine,
							 struct gem_quarantine, link));
	return true;
}

static void arena_destroy(struct gem_device *dev, struct gem_arena *arena)
{
	list_del_init(&arena->link);
	idmap_remove(&dev->arena_ids, arena->id);
	mm_takedown(&arena->mm);
	munmap(arena->base, arena->size);
	close(arena->fd);
	free(arena);
}

int gem_backing_alloc(struct gem_device *dev, struct gem_object *obj)
{
	struct gem_arena *arena;
	int ret;

	if (obj->size > GEM_ARENA_SIZE / 2) {
		ret = arena_create(dev, obj->size, true, &arena);
		if (ret)
			return ret;
		goto insert;
	}
	list_for_each_entry(arena, &dev->arenas, link) {
		if (arena->dedicated || arena->free < obj->size)
			continue;
		ret = mm_insert_node(&arena->mm, &obj->arena_node, obj->size, 4096);
		if (ret == 0)
			goto found;
	}
	ret = arena_create(dev, GEM_ARENA_SIZE, false, &arena);
	if (ret)
		return ret;
insert:
	ret = mm_insert_node(&arena->mm, &obj->arena_node, obj->size, 4096);
	if (ret) {
		if (arena->dedicated)
			arena_destroy(dev, arena);
		return ret;
	}
found:
	arena->free -= obj->size;
	obj->arena = arena;
	obj->vaddr = arena->base + obj->arena_node.start;
	return 0;
}

/* Give the pages back; the range reads as zeros afterwards. */
void gem_backing_discard(struct gem_object *obj)
{
	struct gem_arena *arena = obj->arena;

	if (fallocate(arena->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)obj->arena_node.start, (off_t)obj->size) < 0) {
		/* Cannot happen on a memfd; zero by hand rather than leak data. */
		log_warn("fallocate(PUNCH_HOLE) on arena %u: %m", arena->id);
		memset(obj->vaddr, 0, obj->size);
	}
}

void gem_backing_free(struct gem_device *dev, struct gem_object *obj)
{
	struct gem_arena *arena = obj->arena;

	if (!arena)
		return;
	if (arena->dedicated) {
		mm_remove_node(&obj->arena_node);
		arena_destroy(dev, arena);
	} else {
		uint64_t start = obj->arena_node.start;

		gem_backing_discard(obj);
		mm_remove_node(&obj->arena_node);
		if (!obj->client_mapped || !quarantine_add(dev, arena, start, obj->size))
			arena->free += obj->size;
	}
	obj->arena = NULL;
	obj->vaddr = NULL;
}

void gem_backing_fini(struct gem_device *dev)
{
	while (!list_empty(&dev->quarantine))
		quarantine_release(dev, list_first_entry(&dev->quarantine,
							 struct gem_quarantine, link));
	while (!list_empty(&dev->arenas)) {
		struct gem_arena *arena =
			list_first_entry(&dev->arenas, struct gem_arena, link);

		if (!mm_clean(&arena->mm))
			log_warn("arena %u still has objects at shutdown", arena->id);
		arena_destroy(dev, arena);
	}
}

void gem_object_location(const struct gem_object *obj, struct gem_backing_loc *loc)
{
	loc->arena = obj->arena->id;
	loc->offset = obj->arena_node.start;
	loc->size = obj->size;
}
