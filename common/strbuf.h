/* A growable, always NUL-terminated string buffer (after git's strbuf). */
#ifndef GEMKIT_STRBUF_H
#define GEMKIT_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Invariants: buf is never NULL (it points at a shared empty string until
 * the first growth), buf[len] == '\0', and a failed append leaves len and
 * the contents exactly as they were.  Appends return 0 or -ENOMEM so that
 * gemd's request path can fail a request instead of dying.
 */
struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len);
int strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_reset(struct strbuf *sb);
void strbuf_setlen(struct strbuf *sb, size_t len);
int strbuf_add(struct strbuf *sb, const void *data, size_t len);
int strbuf_addstr(struct strbuf *sb, const char *s);
int strbuf_addch(struct strbuf *sb, int c);
int strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Read all of fd (until EOF) into sb; returns bytes read or -errno. */
long strbuf_read_fd(struct strbuf *sb, int fd);
/* The same for a file, or standard input when path is NULL or "-", at most
 * max bytes (0: no limit; -EFBIG beyond).  Returns the bytes read or
 * -errno (the open's, as is). */
long strbuf_read_path(struct strbuf *sb, const char *path, size_t max);

#endif
