/*
 * /proc/modules with i915 in it.  IGT asks libkmod whether i915 is loaded
 * (igt_kmod_is_loaded) before it tries to unload and reload it; libkmod
 * reads /proc/modules for the list and /sys/module/i915 (the shadow tree)
 * for the details.  The real list is read at each open, as the kernel's
 * seq_file makes it, any real i915 line dropped (another GPU's driver is
 * not ours to show), and gemd's i915 added as Linux 6.1 prints a module
 * (m_show): name, size, refcount, holders ("-": none), state, and the
 * address, zero to a reader without CAP_SYSLOG (kptr_restrict).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preload.h"
#include "strbuf.h"

#define I915_MODULE_LINE "i915 " I915_MODULE_SIZE " " I915_MODULE_REFCNT \
	" - Live 0x0000000000000000\n"

/* The real list without any i915 line, into sb: 0 or -errno. */
static int real_modules(struct strbuf *sb)
{
	char *line = NULL;
	size_t cap = 0;
	int fd, ret = 0;
	FILE *f;

	fd = preload_real.openat(AT_FDCWD, "/proc/modules", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;	/* no modules at all */
	f = fdopen(fd, "r");
	if (!f) {
		preload_real.close(fd);
		return -ENOMEM;
	}
	while (!ret && getline(&line, &cap, f) > 0)
		if (strncmp(line, "i915 ", 5))
			ret = strbuf_addstr(sb, line);
	free(line);
	fclose(f);
	return ret;
}

int preload_open_modules(int flags)
{
	struct strbuf sb = STRBUF_INIT;
	int ret, err;

	ret = real_modules(&sb);
	if (!ret)
		ret = strbuf_addstr(&sb, I915_MODULE_LINE);
	if (ret) {
		strbuf_release(&sb);
		errno = -ret;
		return -1;
	}
	ret = preload_text_fd("modules", sb.buf, sb.len, flags);
	err = errno;
	strbuf_release(&sb);
	errno = err;
	return ret;
}
