/*
 * Who may do what through gemd's socket: the permissions that depend on
 * the peer (SO_PEERCRED), apart from the server's mechanism.  A drm_file
 * belonging to the uid that opened it, and flink names to the uid that
 * named them (gem_device_config.share_names), are checked where the
 * file and the name are looked up; everything else is in policy.c's
 * table.
 */
#ifndef GEMKIT_POLICY_H
#define GEMKIT_POLICY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The peer of a connection, as SO_PEERCRED and its HELLO said. */
struct policy_peer {
	uid_t uid;
	pid_t pid;
	const char *comm;
};

/* What a message asks: its type and request (the ioctl code, the
 * debugfs or control op), and for debugfs the file and its mode. */
struct policy_request {
	uint16_t type;
	uint32_t request;
	const char *path;	/* GEM_MSG_DEBUGFS: the file, else NULL */
	int mode;		/* its permission bits (gem_debugfs_mode) */
};

/*
 * 0 if peer may make the request to a gemd run by owner_uid, else
 * -EACCES; -ENOENT for a debugfs write to a file that does not exist
 * (whoever asks, and not logged: nothing was done).  Privileged actions
 * (allowed or not) and refusals are logged with the peer's uid, pid and
 * command name; refusals at most once a second per process and rule (the
 * rest are counted and said with the next line).
 */
int policy_check(uid_t owner_uid, const struct policy_peer *peer,
		 const struct policy_request *req);

/* The clock of that once a second (CLOCK_MONOTONIC ns, now_ns() unless
 * set; NULL restores it): tests step time instead of sleeping. */
void policy_set_clock(uint64_t (*clock)(void));

#endif
