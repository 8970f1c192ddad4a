/*
 * The memory manager's locks, taken through these wrappers so that a debug
 * build (./configure --enable-debug) can check the lock order of
 * gem_priv.h's LOCKING section: each thread keeps a mask of the gem locks
 * it holds, taking a lock while holding one of the same or a later class
 * aborts, and so does releasing a lock the thread does not hold.
 * gem_assert_held() is lockdep_assert_held().  In other builds the
 * wrappers are the bare pthread calls.
 *
 * Condition waits (pthread_cond_wait on dev->lock or irq_lock) leave the
 * mask alone: the thread is asleep while the lock is not its own.
 */
#ifndef GEMKIT_GEM_LOCK_H
#define GEMKIT_GEM_LOCK_H

#include <pthread.h>

/* In the order they are taken: a class may be taken while holding only
 * classes before it. */
enum gem_lock_class {
	GEM_LOCK_DEV,		/* dev->lock, struct_mutex */
	GEM_LOCK_IRQ,		/* dev->irq_lock */
	GEM_LOCK_ERROR,		/* hang->error_lock (hangcheck.c) */
	GEM_LOCK_CLASSES
};

#ifdef GEMKIT_DEBUG
extern __thread unsigned int gem_locks_held;
/* Logs what went wrong and aborts (device.c). */
void gem_lock_bug(const char *what, enum gem_lock_class class)
	__attribute__((noreturn));

static inline void gem_mutex_lock(pthread_mutex_t *m, enum gem_lock_class class)
{
	if (gem_locks_held >> class)
		gem_lock_bug("taken out of order", class);
	pthread_mutex_lock(m);
	gem_locks_held |= 1u << class;
}

static inline void gem_mutex_unlock(pthread_mutex_t *m, enum gem_lock_class class)
{
	if (!(gem_locks_held & (1u << class)))
		gem_lock_bug("released but not held", class);
	gem_locks_held &= ~(1u << class);
	pthread_mutex_unlock(m);
}

static inline void gem_lock_assert(enum gem_lock_class class)
{
	if (!(gem_locks_held & (1u << class)))
		gem_lock_bug("not held where required", class);
}
#else
static inline void gem_mutex_lock(pthread_mutex_t *m, enum gem_lock_class class)
{
	(void)class;
	pthread_mutex_lock(m);
}

static inline void gem_mutex_unlock(pthread_mutex_t *m, enum gem_lock_class class)
{
	(void)class;
	pthread_mutex_unlock(m);
}

static inline void gem_lock_assert(enum gem_lock_class class)
{
	(void)class;
}
#endif

#define gem_lock(dev)		gem_mutex_lock(&(dev)->lock, GEM_LOCK_DEV)
#define gem_unlock(dev)		gem_mutex_unlock(&(dev)->lock, GEM_LOCK_DEV)
#define gem_irq_lock(dev)	gem_mutex_lock(&(dev)->irq_lock, GEM_LOCK_IRQ)
#define gem_irq_unlock(dev)	gem_mutex_unlock(&(dev)->irq_lock, GEM_LOCK_IRQ)
#define gem_assert_held(dev)	((void)(dev), gem_lock_assert(GEM_LOCK_DEV))

#endif
