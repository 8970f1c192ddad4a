/*
 * The status pages clients map read-only, so that libgem can answer what
 * the kernel answers without a system call, or copies without waiting:
 *
 *  - the hardware status page, where the GPU stores each finished
 *    request's seqno: it lives in a memfd from the start, and the GPU
 *    model writes into that memory;
 *  - the GPU's register file, laid out as a 945G's MMIO BAR, which the
 *    model likewise keeps in a memfd: the interposer's PCI resource0,
 *    so that tools reading registers (IGT's intel_mmio) see the live
 *    ones.  A tool's writes land in its private copy of the page and
 *    reach no register;
 *  - per drm_file, once its client asks, a table indexed by handle of
 *    what the client may rely on (struct gem_handle_state, gem.h): the
 *    object's last seqnos and where its pages are, and whether copying
 *    to and from it directly is allowed: only for an object with no
 *    other handle anywhere (so no other file's request can make it busy
 *    behind the client's back) whose pages are to be kept (madvise).
 *
 * Entries are written under dev->lock before the ioctl that changed them
 * returns, inside a seqlock (gem_handle_state.seq), so a client reading
 * concurrently sees a whole entry or retries.  These memfds are sealed:
 * nobody can resize them under gemd, and after gemd's own mapping nobody
 * can map them writable (F_SEAL_FUTURE_WRITE).
 *
 * One page goes the other way: per drm_file, the count of direct copies
 * its clients have in flight (GEM_STATUS_COPIES), which they write.  A
 * copy reads the handle's entry and then writes through libgem's map of
 * the arena; another thread or process of the same file may close the
 * handle in between, and the range must not become a new object's under
 * the copy (the kernel's pwrite holds its object; the new object must
 * read as zeros).  Client and gemd order themselves as in Dekker's
 * algorithm: the client counts itself in, then reads the entry; gemd
 * rewrites the entry (the close), then reads the count when it frees the
 * range.  One of them sees the other: the client finds the handle gone
 * and asks gemd, or gemd finds a copy in flight and quarantines the range
 * as if the client had mapped it (backing.c).  A client that lies about
 * the count only keeps its own file's ranges out of reuse.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* F_ADD_SEALS, F_SEAL_FUTURE_WRITE */
#endif
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gem_priv.h"
#include "log.h"
#include "memfd.h"

#define TABLE_BYTES	((size_t)GEM_HANDLE_STATE_MAX * sizeof(struct gem_handle_state))

/* A memfd of size bytes mapped shared into gemd; then sealed so that only
 * that mapping can write.  0 or -errno. */
static int status_memory(const char *name, size_t size, void **base, int *fd)
{
	void *p;
	int ret;

	/* Sealed only once mapped: F_SEAL_FUTURE_WRITE spares that map. */
	*fd = memfd_create_sealed(name, size, 0);
	if (*fd < 0) {
		ret = *fd;
		*fd = -1;
		return ret;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (p == MAP_FAILED) {
		ret = -errno;
		goto out_close;
	}
	if (fcntl(*fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
		  F_SEAL_FUTURE_WRITE | F_SEAL_SEAL) < 0) {
		ret = -errno;
		munmap(p, size);
		goto out_close;
	}
	*base = p;
	return 0;

out_close:
	close(*fd);
	*fd = -1;
	return ret;
}

static int dup_fd(int fd)
{
	int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);

	return copy < 0 ? -errno : copy;
}

/* Undo status_memory (base NULL: it was not made). */
static void status_memory_free(void *base, size_t size, int *fd)
{
	if (!base)
		return;
	munmap(base, size);
	close(*fd);
	*fd = -1;
}

int gem_status_pages_init(struct gem_device *dev)
{
	void *base;
	int ret;

	ret = status_memory("gemd-hws", GTT_PAGE_SIZE, &base, &dev->hws_fd);
	if (ret)
		return ret;
	dev->hws = base;
	ret = status_memory("gemd-mmio", GPU_MMIO_BAR_SIZE, &base, &dev->mmio_fd);
	if (ret)
		goto out_hws;
	dev->mmio = base;
	return 0;

out_hws:
	status_memory_free(dev->hws, GTT_PAGE_SIZE, &dev->hws_fd);
	dev->hws = NULL;
	return ret;
}

void gem_status_pages_fini(struct gem_device *dev)
{
	status_memory_free(dev->mmio, GPU_MMIO_BAR_SIZE, &dev->mmio_fd);
	dev->mmio = NULL;
	status_memory_free(dev->hws, GTT_PAGE_SIZE, &dev->hws_fd);
	dev->hws = NULL;
}

int gem_status_hws_fd(struct gem_device *dev, uint64_t *size)
{
	*size = GTT_PAGE_SIZE;
	return dup_fd(dev->hws_fd);
}

int gem_status_mmio_fd(struct gem_device *dev, uint64_t *size)
{
	*size = GPU_MMIO_BAR_SIZE;
	return dup_fd(dev->mmio_fd);
}

/* --- the handle tables ------------------------------------------------- */

static void entry_write(struct gem_handle_state *e,
			const struct gem_handle_state *val)
{
	uint32_t seq = e->seq;

	/* Odd while the fields change; readers retry on odd or moved. */
	__atomic_store_n(&e->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	e->flags = val->flags;
	e->read_seqno = val->read_seqno;
	e->write_seqno = val->write_seqno;
	e->arena = val->arena;
	e->offset = val->offset;
	e->size = val->size;
	e->object = val->object;
	__atomic_store_n(&e->seq, seq + 2, __ATOMIC_RELEASE);
}

void gem_status_entry(const struct gem_file *file, const struct gem_object *obj,
		      struct gem_handle_state *val)
{
	struct gem_backing_loc loc;

	/* Only a direct handle's facts are kept up to date: the others read
	 * as zeros but for the object's name, which sends every question
	 * about them to gemd. */
	memset(val, 0, sizeof(*val));
	if (!obj)
		return;
	val->object = obj->id;
	if (obj->handle_count != 1 || obj->solo_file != file ||
	    obj->madv != I915_MADV_WILLNEED || !obj->arena || obj->moving)
		return;
	/* A GTT view must see the writes merged: gemd copies (view.c). */
	if (obj->view)
		return;
	gem_object_location(obj, &loc);
	val->flags = GEM_HANDLE_DIRECT;
	val->read_seqno = obj->last_read_seqno;
	val->write_seqno = obj->last_write_seqno;
	val->arena = loc.arena;
	val->offset = loc.offset;
	val->size = loc.size;
}

void gem_status_publish(struct gem_file *file, uint32_t handle,
			struct gem_object *obj)
{
	struct gem_handle_state val;

	gem_assert_held(file->dev);
	if (!file->status || handle == 0 || handle >= GEM_HANDLE_STATE_MAX)
		return;
	gem_status_entry(file, obj, &val);
	entry_write(&file->status[handle], &val);
}

void gem_status_object_changed(struct gem_object *obj)
{
	if (obj->handle_count == 1 && obj->solo_file)
		gem_status_publish(obj->solo_file, obj->solo_handle, obj);
}

/*
 * obj's pages are about to move (its first export, backing.c), or have
 * (moving false).  A direct pwrite that read the entry before may still
 * be writing the old pages after gemd copied them; its client reads the
 * entry again after its last byte and, finding it changed for the same
 * object, sends the pwrite to gemd (protocol.h).  So the entry changes
 * before gemd reads the old pages, a full barrier between: either the
 * client sees the change or gemd's copy sees the client's bytes.
 */
void gem_status_object_moving(struct gem_object *obj, bool moving)
{
	obj->moving = moving;
	gem_status_object_changed(obj);
	if (moving)
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void gem_status_handle_added(struct gem_file *file, uint32_t handle,
			     struct gem_object *obj)
{
	if (obj->handle_count == 1) {
		obj->solo_file = file;
		obj->solo_handle = handle;
	} else if (obj->solo_file) {
		/* A second holder: the first may no longer go direct. */
		struct gem_file *first = obj->solo_file;

		obj->solo_file = NULL;
		gem_status_publish(first, obj->solo_handle, obj);
	}
	gem_status_publish(file, handle, obj);
}

void gem_status_handle_removed(struct gem_file *file, uint32_t handle,
			       struct gem_object *obj)
{
	/* The survivor of two handles is not known: it stays indirect. */
	obj->solo_file = NULL;
	gem_status_publish(file, handle, NULL);
}

int gem_status_handles_fd(struct gem_file *file, uint64_t *size)
{
	struct gem_device *dev = file->dev;
	struct gem_handle_state alive = { .flags = GEM_HANDLE_ALIVE };
	void *base;
	uint32_t h;
	int ret = 0;

	*size = TABLE_BYTES;
	/* The old device's file: libgem must ask, and be told ENODEV. */
	if (gem_file_unplugged(file))
		return -ENODEV;
	gem_lock(dev);
	if (!file->status) {
		ret = status_memory("gemd-handles", TABLE_BYTES, &base,
				    &file->status_fd);
		if (ret)
			goto out_unlock;
		file->status = base;
		entry_write(&file->status[0], &alive);
		for (h = 1; h < file->handles_alloc; h++)
			if (file->handles[h])
				gem_status_publish(file, h, file->handles[h]);
	}
	ret = dup_fd(file->status_fd);
out_unlock:
	gem_unlock(dev);
	return ret;
}

int gem_status_copies_fd(struct gem_file *file, uint64_t *size)
{
	struct gem_device *dev = file->dev;
	void *p;
	int ret = 0, fd;

	*size = GTT_PAGE_SIZE;
	if (gem_file_unplugged(file))
		return -ENODEV;
	gem_lock(dev);
	if (!file->copies) {
		/* Written by the clients: no F_SEAL_FUTURE_WRITE. */
		fd = memfd_create_sealed("gemd-copies", GTT_PAGE_SIZE,
					 F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
		if (fd < 0) {
			ret = fd;
			goto out_unlock;
		}
		p = mmap(NULL, GTT_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED) {
			ret = -errno;
			close(fd);
			goto out_unlock;
		}
		file->copies = p;
		file->copies_fd = fd;
	}
	ret = dup_fd(file->copies_fd);
out_unlock:
	gem_unlock(dev);
	return ret;
}

bool gem_status_copies_in_flight(const struct gem_file *file)
{
	if (!file->copies)
		return false;
	/* After this thread's (or, through dev->lock, another's) rewrite of
	 * the freed handle's entry: the store before the load (Dekker).
	 * Acquire: a 0 follows the last copy's bytes, so the next object's
	 * clearing comes after them. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return __atomic_load_n(&file->copies[GEM_STATUS_COPIES_AT], __ATOMIC_ACQUIRE) != 0;
}

void gem_status_file_unplugged(struct gem_file *file)
{
	struct gem_handle_state dead = { .flags = 0 };

	if (file->status)
		entry_write(&file->status[0], &dead);
}

void gem_status_file_release(struct gem_file *file)
{
	struct gem_handle_state dead = { .flags = 0 };

	if (file->copies) {
		munmap(file->copies, GTT_PAGE_SIZE);
		close(file->copies_fd);
		file->copies = NULL;
		file->copies_fd = -1;
	}
	if (!file->status)
		return;
	/* Clients that still map it must stop trusting it. */
	entry_write(&file->status[0], &dead);
	munmap(file->status, TABLE_BYTES);
	close(file->status_fd);
	file->status = NULL;
}
