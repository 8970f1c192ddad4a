/* libgem internals: the mappings libgem made, to map them again (maps.c). */
#ifndef GEMKIT_MAPS_H
#define GEMKIT_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "protocol.h"

struct gem_dev;
struct gem_arena_ref;

/* Record a mapping libgem made of an object's fake offset fake (through
 * the file token), which gemd placed at loc in arena. */
void libgem_maps_add(struct gem_dev *dev, struct gem_token token, void *addr, size_t len,
		     int prot, int flags, uint64_t fake,
		     const struct gem_location *loc,
		     const struct gem_arena_ref *arena);
/* One line of /proc/self/maps. */
struct proc_vma {
	uintptr_t start, stop;
	char perms[5];
	unsigned long long offset, ino;
	dev_t dev;
};
/* Is [addr, addr + len) all mapped, with no hole, by lines that ok
 * accepts (at: the first address of the range the line covers)? */
bool libgem_vmas_cover(uintptr_t addr, size_t len,
		       bool (*ok)(const struct proc_vma *v, uintptr_t at,
				  const void *ctx),
		       const void *ctx);
/* Does any recorded mapping of an object overlap [addr, addr + len)? */
bool libgem_maps_overlap(const void *addr, size_t len);
/* The program unmapped or reused [addr, addr + len). */
void libgem_maps_forget(void *addr, size_t len);
/* gemd said GEM_LOC_REMAP for object (its fake offset): map again every
 * recorded mapping of it whose place changed. */
void libgem_maps_remap(struct gem_dev *dev, uint64_t object);

/*
 * A purged object's mapping (GEM_LOC_PURGED): len bytes at addr of a file
 * that has no pages and never will, so every access faults with SIGBUS
 * as under the kernel's fault handler.  *a gets the file's identity for
 * the record (its id GEM_ARENA_PURGED); MAP_FAILED and *err on failure.
 */
#define GEM_ARENA_PURGED	UINT32_MAX
void *libgem_map_purged(void *addr, size_t len, int prot, int flags,
			struct gem_arena_ref *a, int *err);

/* The bytes from addr the kernel's vm_access() would let a read or
 * write of len bytes through /proc/self/mem reach (len: all). */
size_t libgem_maps_access_limit(uintptr_t addr, size_t len);

/* GEM_MSG_MMAP: where fake offset fake, len bytes, points now (libgem.c). */
int libgem_mmap_locate(struct gem_dev *dev, struct gem_token token, uint64_t fake,
		       uint64_t len, struct gem_location *loc);

#endif
