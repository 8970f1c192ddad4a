/*
 * Exit status and the "no gemd" message shared by the three tools, so a
 * rig sees the same number and the same words whichever tool met the
 * failure.  The table is exitcodes.def.
 */
#ifndef GEMKIT_EXITCODE_H
#define GEMKIT_EXITCODE_H

#include "strbuf.h"

enum gem_exit {
#define GEM_EXIT(name, status, meaning) GEM_EXIT_##name = status,
#include "exitcodes.def"
#undef GEM_EXIT
};

/* "exit status: 0 ok, 1 the operation failed, ..., 124 timeout." wrapped
 * at 72 columns, with a newline: what each tool's --help ends with. */
void gem_exit_describe(struct strbuf *sb);

/* The status for a failed system call or ioctl: EIO is a hung or wedged
 * GPU, ETIME/ETIMEDOUT a timeout, anything else a failure. */
enum gem_exit gem_exit_for_errno(int err);

/*
 * Why the device at path could not be reached (err: the positive errno
 * of the connect or open) and the status that goes with it:
 *   ENOENT, ECONNREFUSED:  "no gemd at PATH (is gemd running? start it
 *                          with `gemd --daemon`)"             -> NODEV
 *   ETIMEDOUT, ETIME:      "gemd at PATH does not answer (is it stopped
 *                          or hung?)"                       -> TIMEOUT
 *   others:                "cannot reach gemd at PATH: ..."     -> NODEV
 * Appends the message (no newline) to sb.
 */
enum gem_exit gem_unreachable(struct strbuf *sb, const char *path, int err);

#endif
