/*
 * Levelled logging to stderr ("ident: level: message", or with timestamps
 * "2026-03-01 12:00:00.123 ident[pid]: level: message") or syslog(3).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

/*
 * The level is read on every log_debug() call from any thread, so it is
 * an atomic rather than something behind the lock; the lock only makes
 * log_init() and the line output atomic with respect to each other.
 */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int log_level = LOG_NOTICE;
static int log_syslog;
static bool log_timestamps;
/* openlog(3) keeps the pointer, so the ident must live here. */
static char log_ident[64];

static const char *const level_names[] = {
	[LOG_EMERG] = "emergency",
	[LOG_ALERT] = "alert",
	[LOG_CRIT] = "critical",
	[LOG_ERR] = "error",
	[LOG_WARNING] = "warning",
	[LOG_NOTICE] = "notice",
	[LOG_INFO] = "info",
	[LOG_DEBUG] = "debug",
};

void log_init(const char *ident, int use_syslog, int max_level)
{
	pthread_mutex_lock(&log_lock);
	snprintf(log_ident, sizeof(log_ident), "%s",
		 ident && *ident ? ident : program_invocation_short_name);
	if (log_syslog)
		closelog();
	log_syslog = use_syslog;
	if (use_syslog)
		openlog(log_ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
	pthread_mutex_unlock(&log_lock);
	log_set_level(max_level);
}

void log_set_timestamps(int on)
{
	pthread_mutex_lock(&log_lock);
	log_timestamps = on;
	pthread_mutex_unlock(&log_lock);
}

/* "2026-03-01 12:00:00.123 " in local time, or "" if the clock fails. */
static void format_time(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	buf[0] = '\0';
	if (clock_gettime(CLOCK_REALTIME, &ts) || !localtime_r(&ts.tv_sec, &tm))
		return;
	n = strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
	if (n)
		snprintf(buf + n, size - n, ".%03ld ", ts.tv_nsec / 1000000);
}

void log_set_level(int max_level)
{
	__atomic_store_n(&log_level, max_level, __ATOMIC_RELAXED);
}

int log_get_level(void)
{
	return __atomic_load_n(&log_level, __ATOMIC_RELAXED);
}

/*
 * Messages quote what clients send (debugfs paths, command names): a
 * newline or an escape sequence in one would forge or hide log lines.
 * Control bytes become \xNN, so one call is always one line.  Returns msg
 * itself when it has none, else a copy in *copy (the caller frees it), or
 * msg cut at the first one if memory is short.
 */
static const char *escape_controls(char *msg, char **copy)
{
	static const char hex[] = "0123456789abcdef";
	size_t len = strlen(msg), n = 0, i;
	char *out;

	*copy = NULL;
	for (i = 0; i < len; i++)
		n += (unsigned char)msg[i] < 0x20 || msg[i] == 0x7f;
	if (!n)
		return msg;
	out = malloc(len + 3 * n + 1);
	if (!out) {
		for (i = 0; (unsigned char)msg[i] >= 0x20 && msg[i] != 0x7f; i++)
			;
		msg[i] = '\0';
		return msg;
	}
	for (i = 0, n = 0; i < len; i++) {
		unsigned char ch = (unsigned char)msg[i];

		if (ch >= 0x20 && ch != 0x7f) {
			out[n++] = (char)ch;
			continue;
		}
		out[n++] = '\\';
		out[n++] = 'x';
		out[n++] = hex[ch >> 4];
		out[n++] = hex[ch & 0xf];
	}
	out[n] = '\0';
	*copy = out;
	return out;
}

static void log_emit(int level, const char *msg)
{
	const char *name = level >= 0 && level <= LOG_DEBUG ?
			   level_names[level] : "log";

	const char *ident = log_ident[0] ? log_ident : program_invocation_short_name;
	char when[40];

	pthread_mutex_lock(&log_lock);
	if (log_syslog) {
		syslog(level, "%s", msg);
	} else {
		/* One locked fprintf per line: threads never interleave. */
		flockfile(stderr);
		if (log_timestamps) {
			format_time(when, sizeof(when));
			fprintf(stderr, "%s%s[%d]: %s: %s\n", when, ident,
				(int)getpid(), name, msg);
		} else {
			fprintf(stderr, "%s: %s: %s\n", ident, name, msg);
		}
		fflush(stderr);
		funlockfile(stderr);
	}
	pthread_mutex_unlock(&log_lock);
}

void log_msg(int level, const char *fmt, ...)
{
	int saved_errno = errno;	/* for %m, and callers' own checks */
	char small[1024], *msg = small, *big = NULL, *escaped;
	va_list ap;
	size_t len;
	int n;

	if (level > log_get_level())
		return;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		goto out;
	if ((size_t)n >= sizeof(small)) {
		/* Rare long message: format again; truncate if memory is short. */
		big = malloc((size_t)n + 1);
		if (big) {
			errno = saved_errno;
			va_start(ap, fmt);
			vsnprintf(big, (size_t)n + 1, fmt, ap);
			va_end(ap);
			msg = big;
		}
	}
	/* Callers may end with "\n" out of printf habit; we add our own. */
	len = strlen(msg);
	while (len && msg[len - 1] == '\n')
		msg[--len] = '\0';
	log_emit(level, escape_controls(msg, &escaped));
	free(escaped);
	free(big);
out:
	errno = saved_errno;
}
