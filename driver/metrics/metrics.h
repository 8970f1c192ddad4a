/*
 * gemd's metrics: the families of metrics.def, written in the OpenMetrics
 * text format or the Prometheus 0.0.4 text format, for a farm's
 * Prometheus.  Served three ways, all the same bytes: as debugfs files
 * (dri/0/gemkit_metrics and gemkit_openmetrics, so FUSE and the socket's
 * debugfs messages carry them; gemctl metrics prints one), and over HTTP
 * by gemd --metrics (metrics-http.c), which reads the same files.
 *
 * A scrape costs one debugfs snapshot without objects (SNAP_FILE_TOTALS):
 * the driver lock is held while counters and the open files' totals are
 * copied, never for a walk of the objects, and the text is written after
 * the lock is dropped.
 */
#ifndef GEMKIT_METRICS_H
#define GEMKIT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The two formats: the debugfs file of each and its HTTP content type. */
enum metrics_format_id {
	METRICS_PROMETHEUS,	/* text/plain; version=0.0.4 */
	METRICS_OPENMETRICS,	/* application/openmetrics-text; version=1.0.0 */
	METRICS_FORMAT_COUNT
};

struct metrics_format {
	enum metrics_format_id id;
	const char *file;		/* relative to dri/0 */
	const char *content_type;
	bool openmetrics;
};
extern const struct metrics_format metrics_formats[METRICS_FORMAT_COUNT];
/* The format an HTTP Accept header (NULL: none) asks for (negotiate.c). */
enum metrics_format_id metrics_negotiate(const char *accept);

/* Per-process series at most (the rest summed as pid="other"), so a farm
 * with many short-lived clients does not grow Prometheus without bound. */
#define METRICS_CLIENTS_MAX	16

struct metrics_client {
	pid_t pid;
	char comm[16];
	bool other;			/* the processes past the first MAX */
	uint64_t objects, bytes, requests;
};

struct metrics_process {
	uint64_t cpu_ns, rss_bytes, vm_bytes, open_fds, max_fds, start_ns;
};

struct debugfs_snapshot;

/* What every family reads (metrics.def's expressions). */
struct metrics_snap {
	const struct debugfs_snapshot *d;
	struct metrics_client clients[METRICS_CLIENTS_MAX + 1];
	size_t nclients;
	struct metrics_process proc;
};

/* The families as data, for the tests and the documentation. */
enum metrics_type { METRICS_COUNTER, METRICS_GAUGE, METRICS_INFO };
enum metrics_by { METRICS_BY_NONE, METRICS_BY_LIST, METRICS_BY_HANG_KIND,
		  METRICS_BY_CLIENT, METRICS_BY_BUILD };
enum metrics_value { METRICS_COUNT, METRICS_NS };

struct metrics_family {
	const char *name, *unit, *help;
	enum metrics_type type;
	enum metrics_by by;
	enum metrics_value value;
	/* Its # HELP, # TYPE (and # UNIT) lines in each format, made at
	 * compile time: a scrape formats only the samples. */
	const char *header[METRICS_FORMAT_COUNT];
	unsigned short header_len[METRICS_FORMAT_COUNT];
};
extern const struct metrics_family metrics_families[];
extern const size_t metrics_nfamilies;

#endif
