/* Levelled logging to stderr or syslog, shared by gemd and the tools. */
#ifndef GEMKIT_LOG_H
#define GEMKIT_LOG_H

#include <syslog.h>

/* Levels are syslog's: LOG_ERR, LOG_WARNING, LOG_NOTICE, LOG_INFO, LOG_DEBUG. */
void log_init(const char *ident, int use_syslog, int max_level);
/* Begin every stderr line with the local time and "ident[pid]" (gemd's
 * log files); syslog adds its own. */
void log_set_timestamps(int on);
void log_set_level(int max_level);
int log_get_level(void);
void log_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define log_err(...)	log_msg(LOG_ERR, __VA_ARGS__)
#define log_warn(...)	log_msg(LOG_WARNING, __VA_ARGS__)
#define log_notice(...)	log_msg(LOG_NOTICE, __VA_ARGS__)
#define log_info(...)	log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...)	do { if (log_get_level() >= LOG_DEBUG) log_msg(LOG_DEBUG, __VA_ARGS__); } while (0)

#endif
