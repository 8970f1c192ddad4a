/*
 * Sealed memfds that cross between gemd and its clients.  One side makes
 * a memfd and seals it; the other, which must be able to map and touch
 * every byte of it without a SIGBUS, checks what it was given first.
 */
#ifndef GEMKIT_MEMFD_H
#define GEMKIT_MEMFD_H

#include <stddef.h>
#include <stdint.h>

/* A memfd of size bytes (zero-filled) carrying seals (F_SEAL_*, which
 * must not include F_SEAL_WRITE): its descriptor, or -errno. */
int memfd_create_sealed(const char *name, uint64_t size, int seals);

/*
 * What fd is, if it is a regular file on shmem: its seals (F_GET_SEALS,
 * >= 0) and its size.  -EINVAL for anything else: a pipe, a file on
 * disk, a hugetlbfs memfd (whose untouched pages can SIGBUS the process
 * that touches them when the huge page pool is empty, sealed or not).
 */
int memfd_shmem_seals(int fd, uint64_t *size);

#endif
