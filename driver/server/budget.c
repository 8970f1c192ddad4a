/* The caps on what clients may hold of gemd (budget.h). */
#include <errno.h>
#include <stdbool.h>

#include "budget.h"

void budget_init(struct budget *b, uid_t owner_uid)
{
	*b = (struct budget){ .owner_uid = owner_uid };
	pthread_mutex_init(&b->lock, NULL);
}

static bool capped(const struct budget *b, uid_t uid)
{
	return uid != 0 && uid != b->owner_uid;
}

/* uid's entry, or a free one (a user with nothing held has none), or
 * NULL when every entry is taken. */
static struct budget_user *user_locked(struct budget *b, uid_t uid)
{
	struct budget_user *free_slot = NULL;
	size_t i;

	for (i = 0; i < BUDGET_UIDS; i++) {
		struct budget_user *u = &b->users[i];

		if ((u->conns || u->bytes) && u->uid == uid)
			return u;
		if (!u->conns && !u->bytes && !free_slot)
			free_slot = u;
	}
	if (free_slot)
		free_slot->uid = uid;
	return free_slot;
}

int budget_conn_get(struct budget *b, uid_t uid)
{
	struct budget_user *u = NULL;
	int ret = -EUSERS;

	pthread_mutex_lock(&b->lock);
	if (b->conns >= BUDGET_CONNS)
		goto out_unlock;
	if (capped(b, uid)) {
		u = user_locked(b, uid);
		if (!u || u->conns >= BUDGET_CONNS_PER_UID)
			goto out_unlock;
		u->conns++;
	}
	b->conns++;
	ret = 0;
out_unlock:
	pthread_mutex_unlock(&b->lock);
	return ret;
}

void budget_conn_put(struct budget *b, uid_t uid)
{
	struct budget_user *u;

	pthread_mutex_lock(&b->lock);
	b->conns--;
	if (capped(b, uid) && (u = user_locked(b, uid)))
		u->conns--;
	pthread_mutex_unlock(&b->lock);
}

int budget_bytes_get(struct budget *b, uid_t uid, size_t n)
{
	struct budget_user *u = NULL;
	int ret = -ENOBUFS;

	pthread_mutex_lock(&b->lock);
	if (b->bytes + n > BUDGET_BYTES)
		goto out_unlock;
	if (capped(b, uid)) {
		u = user_locked(b, uid);
		if (!u || u->bytes + n > BUDGET_BYTES_PER_UID)
			goto out_unlock;
		u->bytes += n;
	}
	b->bytes += n;
	ret = 0;
out_unlock:
	pthread_mutex_unlock(&b->lock);
	return ret;
}

void budget_bytes_put(struct budget *b, uid_t uid, size_t n)
{
	struct budget_user *u;

	pthread_mutex_lock(&b->lock);
	b->bytes -= n;
	if (capped(b, uid) && (u = user_locked(b, uid)))
		u->bytes -= n;
	pthread_mutex_unlock(&b->lock);
}
