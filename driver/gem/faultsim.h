/*
 * Allocation-failure injection for the memory manager (faultsim.c): the
 * allocators every driver/gem allocation goes through, and the switch a
 * test (or GEMKIT_FAILMALLOC) arms to fail the Nth of them.
 */
#ifndef GEMKIT_GEM_FAULTSIM_H
#define GEMKIT_GEM_FAULTSIM_H

#include <stdbool.h>
#include <stddef.h>

void *gem_malloc(size_t size);
void *gem_calloc(size_t n, size_t size);
void *gem_realloc(void *ptr, size_t size);
/* One more step that can run out of memory: true (errno ENOMEM) when
 * this is the one to fail.  For what is no malloc (growing an arena). */
bool gem_faultsim_fail(void);

/* Fail the nth step from now (1: the next), and the repeat after it. */
void gem_faultsim_arm(unsigned long nth, unsigned long repeat);
void gem_faultsim_disarm(void);
unsigned long gem_faultsim_injected(void);	/* since armed */
/* Arm from GEMKIT_FAILMALLOC=N[,R] when set (gem_device_create). */
void gem_faultsim_init(void);

#endif
