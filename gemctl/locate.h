/*
 * Finding gemkit's own files (gemd, the interposer, the benchmark
 * programs) from the running gemctl: in the build tree around it, or
 * where `make install` put them relative to it (so that a DESTDIR or
 * relocated install finds its own files), before the configured paths.
 */
#ifndef GEMCTL_LOCATE_H
#define GEMCTL_LOCATE_H

#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h"

/* path is a regular file (and executable if exec). */
bool locate_is_file(const char *path, bool exec);

/* The directory of the running program (/proc/self/exe); false if unknown. */
bool locate_self_dir(char *dir, size_t len);

/* The first dir/rel of rels (NULL-terminated) that is a regular file
 * (executable if exec), into out. */
bool locate_near(struct strbuf *out, const char *dir,
		 const char *const *rels, bool exec);

#endif
