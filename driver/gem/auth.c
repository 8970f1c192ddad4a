/*
 * DRM master and authentication (drm_auth.c of Linux 5.10 to 6.1), per
 * device: the first file opened while no file is master becomes master,
 * with a master object of its own; every other file shares the current
 * master's object, in whose magic map it can ask to be authenticated.
 *
 *  - SET_MASTER / DROP_MASTER need CAP_SYS_ADMIN, or the caller must be
 *    the process that opened the file and the file must have been master
 *    once (drm_master_check_perm): an arbitrator such as logind keeps
 *    working, a compositor may drop and regain master without root.
 *  - GET_MAGIC gives the file a magic once (1, 2, ...) in its master's
 *    map; AUTH_MAGIC, for the current master only, authenticates that
 *    file, after which the magic is spent.
 *  - A file opened by root is authenticated from the start; so is one
 *    that becomes master.
 *  - GET_CLIENT answers for index 0 only (the calling file), GET_STATS
 *    with zeros: both are hollowed out in the kernel.
 *
 * gemd serves only the primary node's semantics: a render node (whose
 * files never take part in mastership) is not told apart on the wire.
 * Everything here is under dev->lock (the kernel's master_mutex).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gem_priv.h"
#include "log.h"

/* A magic that has been authenticated: kept allocated, never found. */
static char magic_spent;
#define MAGIC_SPENT	((void *)&magic_spent)

#define OVERFLOW_UID	65534	/* overflowuid, what GET_CLIENT reports */

static struct gem_master *master_create(void)
{
	struct gem_master *m = gem_calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->refcount = 1;
	m->next_magic = 1;
	idmap_init(&m->magics);
	return m;
}

static struct gem_master *master_get(struct gem_master *m)
{
	m->refcount++;
	return m;
}

static void master_put(struct gem_master **mp)
{
	struct gem_master *m = *mp;

	*mp = NULL;
	if (!m || --m->refcount)
		return;
	idmap_release(&m->magics);
	free(m);
}

bool gem_file_is_master(const struct gem_file *file)
{
	return file->is_master && file->master == file->dev->master;
}

/* drm_new_set_master: a fresh master object for file, made current. */
static int new_set_master(struct gem_file *file)
{
	struct gem_device *dev = file->dev;
	struct gem_master *m = master_create();

	if (!m)
		return -ENOMEM;
	master_put(&file->master);
	file->master = m;
	file->is_master = true;
	file->authenticated = true;
	dev->master = master_get(m);
	file->was_master = true;
	return 0;
}

int gem_master_open(struct gem_file *file)
{
	struct gem_device *dev = file->dev;

	gem_assert_held(dev);
	if (!dev->master)
		return new_set_master(file);
	file->master = master_get(dev->master);
	return 0;
}

void gem_master_release(struct gem_file *file)
{
	struct gem_device *dev = file->dev;

	gem_assert_held(dev);
	if (file->magic && file->master)
		idmap_remove(&file->master->magics, file->magic);
	if (gem_file_is_master(file))
		master_put(&dev->master);
	master_put(&file->master);
}

void gem_master_unplug(struct gem_device *dev)
{
	gem_assert_held(dev);
	master_put(&dev->master);
}

void gem_file_set_admin(struct gem_file *file, bool admin)
{
	/* "for compatibility root is always authenticated" */
	if (!admin)
		return;
	gem_lock(file->dev);
	file->authenticated = true;
	gem_unlock(file->dev);
}

/* drm_master_check_perm */
static int master_check_perm(struct gem_file *file, struct gem_call *call)
{
	if (file->pid == call->caller_pid && file->was_master)
		return 0;
	return call->caller_admin ? 0 : -EACCES;
}

int gem_set_master_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct gem_device *dev = file->dev;
	int ret;

	ret = master_check_perm(file, call);
	if (ret)
		return ret;
	if (gem_file_is_master(file))
		return 0;
	if (dev->master)
		return -EBUSY;
	if (!file->master)
		return -EINVAL;
	if (!file->is_master)
		return new_set_master(file);
	/* drm_set_master: its own master object becomes current again. */
	dev->master = master_get(file->master);
	file->was_master = true;
	return 0;
}

int gem_drop_master_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct gem_device *dev = file->dev;
	int ret;

	ret = master_check_perm(file, call);
	if (ret)
		return ret;
	if (!gem_file_is_master(file) || !dev->master)
		return -EINVAL;
	master_put(&dev->master);
	return 0;
}

int gem_get_magic_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_auth *auth = data;
	struct gem_master *m = file->master;
	int ret;

	if (!file->magic) {
		if (!m)
			return -EINVAL;
		/* idr_alloc(1, 0): a number no live file of this master has. */
		while (idmap_lookup(&m->magics, m->next_magic) || m->next_magic == 0 ||
		       m->next_magic == UINT32_MAX)
			m->next_magic++;
		ret = idmap_insert(&m->magics, m->next_magic, file);
		if (ret)
			return ret;
		file->magic = m->next_magic++;
	}
	auth->magic = file->magic;
	return 0;
}

int gem_auth_magic_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_auth *auth = data;
	struct gem_file *other;

	/* DRM_AUTH | DRM_MASTER (drm_ioctl_permit) */
	if (!file->authenticated || !gem_file_is_master(file))
		return -EACCES;
	if (!auth->magic || auth->magic == UINT32_MAX)
		return -EINVAL;
	other = idmap_lookup(&file->master->magics, auth->magic);
	if (!other || other == MAGIC_SPENT)
		return -EINVAL;
	other->authenticated = true;
	idmap_remove(&file->master->magics, auth->magic);
	/* idr_replace(.., NULL, ..): the number stays taken. */
	return idmap_insert(&file->master->magics, auth->magic, MAGIC_SPENT);
}

int gem_get_client_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	struct drm_client *client = data;

	if (client->idx != 0)
		return -EINVAL;
	client->auth = file->authenticated;
	client->pid = (unsigned long)call->caller_pid;
	client->uid = OVERFLOW_UID;
	client->magic = 0;
	client->iocs = 0;
	return 0;
}

int gem_get_stats_ioctl(struct gem_file *file, void *data, struct gem_call *call)
{
	memset(data, 0, sizeof(struct drm_stats));
	return 0;
}
