/* strbuf: a growable, always NUL-terminated string buffer (after git's). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"
#include "util.h"

/*
 * Every empty strbuf points here, so buf is never NULL and reading an
 * empty buffer needs no allocation.  Only ever written with '\0'.
 */
char strbuf_slopbuf[1];

/* Reads are done straight into the buffer, at least this much at a time. */
#define STRBUF_READ_CHUNK	(64 * 1024)

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = 0;
	sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		(void)strbuf_grow(sb, hint);	/* only a hint: may fail */
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

/* Hand the buffer to the caller (free() it); NULL only on -ENOMEM. */
char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	if (!sb->alloc && strbuf_grow(sb, 0))
		return NULL;
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

/* Make room for extra more bytes plus the NUL without moving len. */
int strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want, new_alloc;
	char *p;

	if (extra > SIZE_MAX - 1 - sb->len)
		return -ENOMEM;
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return 0;

	/* Grow by half again (git's alloc_nr) so appends are amortised O(1). */
	new_alloc = sb->alloc < SIZE_MAX / 2 ? (sb->alloc + 16) * 3 / 2 : want;
	if (new_alloc < want)
		new_alloc = want;

	p = realloc(sb->alloc ? sb->buf : NULL, new_alloc);
	if (!p)
		return -ENOMEM;
	if (!sb->alloc)
		p[0] = '\0';	/* len is 0 while on the slop buffer */
	sb->buf = p;
	sb->alloc = new_alloc;
	return 0;
}

void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	/* Growing past the allocation is a caller bug, as in git (die). */
	if (len > (sb->alloc ? sb->alloc - 1 : 0))
		abort();
	sb->len = len;
	if (sb->buf != strbuf_slopbuf)
		sb->buf[len] = '\0';
}

int strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	const char *src = data;
	size_t off = 0;
	bool inside;

	if (!len)
		return 0;	/* data may be NULL, which memmove must not see */
	/* Appending part of ourselves must survive the realloc. */
	inside = sb->alloc && src >= sb->buf && src < sb->buf + sb->alloc;
	if (inside)
		off = (size_t)(src - sb->buf);
	if (strbuf_grow(sb, len))
		return -ENOMEM;
	if (inside)
		src = sb->buf + off;
	memmove(sb->buf + sb->len, src, len);
	strbuf_setlen(sb, sb->len + len);
	return 0;
}

int strbuf_addstr(struct strbuf *sb, const char *s)
{
	return strbuf_add(sb, s, strlen(s));
}

int strbuf_addch(struct strbuf *sb, int c)
{
	if (strbuf_grow(sb, 1))
		return -ENOMEM;
	sb->buf[sb->len] = (char)c;
	strbuf_setlen(sb, sb->len + 1);
	return 0;
}

int strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	return ret;
}

int strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	size_t avail;
	int n;

	if (!sb->alloc && strbuf_grow(sb, 64))
		return -ENOMEM;

	/* First try in the space we already have; usually it fits. */
	avail = sb->alloc - sb->len;
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, avail, fmt, cp);
	va_end(cp);
	if (n < 0)
		goto out_restore;
	if ((size_t)n >= avail) {
		if (strbuf_grow(sb, (size_t)n)) {
			sb->buf[sb->len] = '\0';	/* drop the partial try */
			return -ENOMEM;
		}
		va_copy(cp, ap);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
		va_end(cp);
		if (n < 0)
			goto out_restore;
	}
	strbuf_setlen(sb, sb->len + (size_t)n);
	return 0;

out_restore:
	sb->buf[sb->len] = '\0';
	return -EINVAL;		/* an encoding error, not memory */
}

/*
 * Read until EOF straight into the buffer, at most max bytes (-EFBIG
 * beyond: hostile input never makes us allocate more).  Regular files are
 * sized up front from fstat so that one read usually does; pipes and
 * sockets grow geometrically.  On error the buffer is as it was before
 * the call.
 */
static long read_fd_max(struct strbuf *sb, int fd, size_t max)
{
	size_t oldlen = sb->len, hint = STRBUF_READ_CHUNK;
	struct stat st;
	ssize_t r;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > 0 && (uint64_t)st.st_size < SIZE_MAX / 2)
		hint = (size_t)st.st_size + 1;	/* +1 sees EOF without growing */

	for (;;) {
		size_t avail;

		if (hint > max - (sb->len - oldlen) + 1)
			hint = max - (sb->len - oldlen) + 1;
		if (strbuf_grow(sb, hint))
			goto out_nomem;
		hint = STRBUF_READ_CHUNK;
		avail = sb->alloc - sb->len - 1;
		if (avail > max - (sb->len - oldlen) + 1)
			avail = max - (sb->len - oldlen) + 1;
		r = xread(fd, sb->buf + sb->len, avail);
		if (r < 0)
			goto out_restore;
		if (r == 0)
			break;
		sb->len += (size_t)r;
		sb->buf[sb->len] = '\0';
		if (sb->len - oldlen > max) {
			r = -EFBIG;
			goto out_restore;
		}
	}
	return (long)(sb->len - oldlen);

out_nomem:
	r = -ENOMEM;
out_restore:
	strbuf_setlen(sb, oldlen);
	return (long)r;
}

long strbuf_read_fd(struct strbuf *sb, int fd)
{
	return read_fd_max(sb, fd, SIZE_MAX - 1);
}

long strbuf_read_path(struct strbuf *sb, const char *path, size_t max)
{
	long n;
	int fd = STDIN_FILENO;

	if (path && strcmp(path, "-")) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
	}
	n = read_fd_max(sb, fd, max ? max : SIZE_MAX - 1);
	if (fd != STDIN_FILENO)
		close(fd);
	return n;
}
