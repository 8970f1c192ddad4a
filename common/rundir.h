/*
 * The runtime directory (<runtime dir> of the device path rule) is where
 * the default socket, gemd.log and the debugfs mount live.  It must be
 * its user's alone: a directory another user made, or one others may
 * write, lets them put a gemd of theirs where ours is looked for (the
 * check tmux and ssh-agent make of their socket directories).
 */
#ifndef GEMKIT_RUNDIR_H
#define GEMKIT_RUNDIR_H

#include <stdbool.h>
#include <sys/types.h>

#include "strbuf.h"

/*
 * Is dir safe to use as this user's runtime directory: a real directory
 * (not a symlink), owned by the effective uid, writable by nobody else?
 * 0, -ENOENT if it does not exist, or -EPERM/-ENOTDIR/-errno with the
 * reason appended to why (a whole sentence naming dir).
 */
int rundir_check(const char *dir, struct strbuf *why);

/* gemd: create dir (mode, normally 0700, its parent must exist) unless it
 * is there, then rundir_check it. */
int rundir_prepare(const char *dir, mode_t mode, struct strbuf *why);

/*
 * Clients: is the default device path's runtime directory safe (or
 * absent, when connecting fails anyway)?  On refusal the reason is
 * printed once on stderr, prefixed "gemkit: ", and false returned.
 */
bool rundir_trusted(const char *dir);

#endif
