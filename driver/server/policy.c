/*
 * The permission table (policy.h).  The kernel's model: the device node
 * decides who may open (the socket's mode and group), DRM_ROOT_ONLY
 * ioctls need root, and debugfs files have owner-only modes.  gemd's
 * user stands where the kernel has root for the files of its debugfs and
 * for driver control: it owns the device.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/ioctl.h>

#include <drm.h>
#include <i915_drm.h>

#include "log.h"
#include "policy.h"
#include "protocol.h"
#include "ratelimit.h"
#include "util.h"

#define ANY_REQUEST	UINT32_MAX

enum policy_who {
	WHO_OWNER,		/* gemd's user, and root */
	WHO_ROOT,		/* root only (the kernel's DRM_ROOT_ONLY) */
	WHO_MODE_READ,		/* as the file's mode lets its readers */
	WHO_MODE_WRITE,		/* as the file's mode lets its writers */
};

struct policy_rule {
	uint16_t type;		/* GEM_MSG_* */
	uint32_t request;	/* ioctl _IOC_NR, op, or ANY_REQUEST */
	enum policy_who who;
	bool audit;		/* log every use, not only refusals */
	const char *what;	/* for the log */
};

/* A message no rule names is anyone's who may connect. */
static const struct policy_rule policy_rules[] = {
	{ GEM_MSG_CONTROL, ANY_REQUEST, WHO_OWNER, true, "driver control" },
	{ GEM_MSG_DEBUGFS, GEM_DEBUGFS_READ, WHO_MODE_READ, false, "debugfs read" },
	{ GEM_MSG_DEBUGFS, GEM_DEBUGFS_RANGE, WHO_MODE_READ, false, "debugfs read" },
	{ GEM_MSG_DEBUGFS, GEM_DEBUGFS_WRITE, WHO_MODE_WRITE, true, "debugfs write" },
	{ GEM_MSG_IOCTL, _IOC_NR(DRM_IOCTL_I915_GEM_PIN), WHO_ROOT, true,
	  "I915_GEM_PIN" },
	{ GEM_MSG_IOCTL, _IOC_NR(DRM_IOCTL_I915_GEM_UNPIN), WHO_ROOT, true,
	  "I915_GEM_UNPIN" },
};

/*
 * Refusals are logged once a second per process and rule, not once per
 * attempt: a slot per (pid, rule) hash, taken over by a new process.
 */
#define REFUSAL_SLOTS	256
static struct refusal_slot {
	pid_t pid;
	const struct policy_rule *rule;
	struct ratelimit limit;
} refusal_slots[REFUSAL_SLOTS];
static pthread_mutex_t refusal_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t (*policy_clock)(void) = now_ns;

void policy_set_clock(uint64_t (*clock)(void))
{
	policy_clock = clock ? clock : now_ns;
}

static bool refusal_loggable(const struct policy_peer *peer,
			     const struct policy_rule *r, unsigned long *missed)
{
	size_t i = ((size_t)peer->pid * 31u + (size_t)(r - policy_rules)) %
		   REFUSAL_SLOTS;
	struct refusal_slot *s = &refusal_slots[i];

	pthread_mutex_lock(&refusal_lock);
	if (s->pid != peer->pid || s->rule != r)
		*s = (struct refusal_slot){ .pid = peer->pid, .rule = r };
	pthread_mutex_unlock(&refusal_lock);
	return ratelimit_allow_at(&s->limit, policy_clock(), missed);
}

static const struct policy_rule *rule_for(const struct policy_request *req)
{
	uint32_t request = req->type == GEM_MSG_IOCTL ? _IOC_NR(req->request) :
			   req->request;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(policy_rules); i++)
		if (policy_rules[i].type == req->type &&
		    (policy_rules[i].request == ANY_REQUEST ||
		     policy_rules[i].request == request))
			return &policy_rules[i];
	return NULL;
}

static bool allowed(const struct policy_rule *r, uid_t owner_uid, uid_t uid,
		    int mode)
{
	bool owner = uid == 0 || uid == owner_uid;

	/* No such file to read: the read handler decides (a connection's
	 * own fdinfo is no debugfs file), and fails with ENOENT otherwise. */
	if (r->who == WHO_MODE_READ && mode < 0)
		return true;

	switch (r->who) {
	case WHO_OWNER:
		return owner;
	case WHO_ROOT:
		return uid == 0;
	case WHO_MODE_READ:
		return owner || (mode & 0004);
	case WHO_MODE_WRITE:
		return owner || (mode & 0002);
	}
	return false;
}

int policy_check(uid_t owner_uid, const struct policy_peer *peer,
		 const struct policy_request *req)
{
	const struct policy_rule *r = rule_for(req);
	unsigned long missed;
	char note[64] = "";
	bool ok;

	if (!r)
		return 0;
	/* Nothing to write to: ENOENT at once, and no "allowed" line for
	 * an action that does not happen. */
	if (r->who == WHO_MODE_WRITE && req->mode < 0)
		return -ENOENT;
	ok = allowed(r, owner_uid, peer->uid, req->mode);
	if (ok && !r->audit)
		return 0;
	if (ok) {
		log_notice("uid %u pid %d (%s): %s %#x%s%s",
			   (unsigned int)peer->uid, (int)peer->pid, peer->comm,
			   r->what, req->request, req->path ? " " : "",
			   req->path ? req->path : "");
		return 0;
	}
	if (!refusal_loggable(peer, r, &missed))
		return -EACCES;
	if (missed)
		snprintf(note, sizeof(note), " (and %lu more since the last "
			 "such line)", missed);
	log_warn("uid %u pid %d (%s): %s %#x%s%s refused: EACCES%s",
			 (unsigned int)peer->uid, (int)peer->pid, peer->comm,
			 r->what, req->request, req->path ? " " : "",
			 req->path ? req->path : "",
			 note);
	return -EACCES;
}
