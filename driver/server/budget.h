/*
 * What all clients together, and each user, may hold of gemd: connections
 * (each is a thread) and bytes of buffered, not yet handled requests.
 * Taken before the thread is started or the buffer grown, so that a flood
 * meets a refusal instead of growing gemd (issue 14, attack 10).  gemd's
 * own user and root count towards the global caps only.
 */
#ifndef GEMKIT_BUDGET_H
#define GEMKIT_BUDGET_H

#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

/* IGT's gem_exec_parallel opens a file in each of 1024 threads. */
#define BUDGET_CONNS		4096		/* all clients */
#define BUDGET_CONNS_PER_UID	256		/* another user's */
#define BUDGET_BYTES		(512ull << 20)	/* request buffers, all */
#define BUDGET_BYTES_PER_UID	(160ull << 20)	/* another user's */
#define BUDGET_UIDS		64		/* users tracked at once */
/* A message begun must be whole within this: a half-sent header or
 * payload does not hold its thread and buffer for ever. */
#define BUDGET_READ_DEADLINE_MS	10000

struct budget_user {
	uid_t uid;
	unsigned int conns;
	size_t bytes;
};

struct budget {
	pthread_mutex_t lock;
	uid_t owner_uid;
	unsigned int conns;
	size_t bytes;
	struct budget_user users[BUDGET_UIDS];
};

void budget_init(struct budget *b, uid_t owner_uid);
/* A connection of uid: 0, or -EUSERS when a cap is reached. */
int budget_conn_get(struct budget *b, uid_t uid);
void budget_conn_put(struct budget *b, uid_t uid);
/* n more buffered bytes for uid: 0, or -ENOBUFS beyond a cap. */
int budget_bytes_get(struct budget *b, uid_t uid, size_t n);
void budget_bytes_put(struct budget *b, uid_t uid, size_t n);

#endif
