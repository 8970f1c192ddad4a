/*
 * gemtop: a live top-style view of GEM memory, read through libgemdebugfs.
 *
 * The layers, each in its own files:
 *   sample.c   mechanism: one sample of what the visible view needs, and
 *              rates from two samples (no curses, no policy);
 *   model.c    policy: sort, filter and search of the objects;
 *   format.c   the words and numbers every output shares (domains as
 *              letters, sizes, flags), so text, JSON and curses agree;
 *   batch.c    -b: text, JSON Lines and CSV (JSON through tools/gj.h);
 * and the curses front end, the only files that include curses (through
 * view.h and provide-curses.h):
 *   ui.c       the terminal, the colour roles, drawing helpers;
 *   header.c   the header's meters and the view tabs;
 *   view.c     the loop, walking the table of view classes (views.def);
 *   view-*.c   one view class each (view.h: struct gt_view_class);
 *   keys.c     the key table (htop-compatible, a letter for every F-key).
 */
#ifndef GEMKIT_GEMTOP_H
#define GEMKIT_GEMTOP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "exitcode.h"
#include "gemdebugfs.h"
#include "strbuf.h"

#define GEMTOP_SCHEMA_VERSION	1
#define GEMTOP_HISTORY		120	/* sparkline samples kept */
#define GEMTOP_EVENTS_KEPT	4096	/* events kept for the events view */

/* Exit codes: the three tools' table (common/exitcodes.def). */
enum { GT_EXIT_OK = GEM_EXIT_OK, GT_EXIT_FAIL = GEM_EXIT_FAILED,
       GT_EXIT_USAGE = GEM_EXIT_USAGE };

enum gt_format { GT_FMT_TEXT, GT_FMT_JSON, GT_FMT_CSV };

struct gt_opts {
	const char *device;		/* -D, else GEM_DEVICE and the default */
	const char *debugfs_dir;	/* --debugfs */
	uint64_t delay_ns;		/* -d, default 1 s */
	bool batch;			/* -b */
	long iterations;		/* -n, 0: forever */
	enum gt_format format;
	const char *output;		/* -o */
	bool color;			/* false with -C or NO_COLOR */
	bool ascii;			/* -U */
	const char *filter;		/* -F */
	int view;			/* -v/--view 1-N, default 1 */
	int sort;			/* enum gt_col, from gemtoprc */
	bool invert;
	bool bytes;			/* --bytes: batch text raw */
};

/* The settings gemtoprc keeps (rc.c), as the setup screen edits them. */
struct gt_rc {
	uint64_t delay_ns;
	bool color, ascii, invert;
	int view;			/* 1-N */
	int sort;			/* enum gt_col */
	char filter[128];		/* the objects view's */
};
/* $XDG_CONFIG_HOME/gemtop/gemtoprc or ~/.config/gemtop/gemtoprc. */
int gt_rc_path(char *buf, size_t len);
void gt_rc_defaults(struct gt_rc *rc);
/* Read path over rc (a missing file is no error): 0, or -errno / -EINVAL
 * with err naming the line. */
int gt_rc_load(const char *path, struct gt_rc *rc, struct strbuf *err);
/* Write rc to path, whole or not at all (its directory made 0700). */
int gt_rc_save(const char *path, const struct gt_rc *rc);

/* What a refresh must read.  The header needs NEED_HEADER every time;
 * each view adds its own. */
enum gt_need {
	GT_NEED_COUNTERS = 1 << 0,
	GT_NEED_RING = 1 << 1,
	GT_NEED_GTT = 1 << 2,
	GT_NEED_OBJECTS = 1 << 3,
	GT_NEED_CLIENTS = 1 << 4,
	GT_NEED_EVENTS = 1 << 5,
	GT_NEED_LISTS = 1 << 6,		/* per-list totals (i915_gem_objects) */
	/* Without GT_NEED_OBJECTS: keep the last objects read (see
	 * gt_objects_due). */
	GT_KEEP_OBJECTS = 1 << 7,
	GT_NEED_HEADER = GT_NEED_COUNTERS | GT_NEED_RING | GT_NEED_GTT | GT_NEED_LISTS,
};

struct gt_list_totals {
	uint64_t objects[GDFS_LIST_COUNT];
	uint64_t bytes[GDFS_LIST_COUNT];
	bool valid;
};

/* Rates per second between two samples (valid only with two). */
struct gt_rates {
	bool valid;
	double execbuffers, binds, evictions, waits, clflush_bytes;
	double pwrite_bytes, pread_bytes, retires, seqnos;
	double gpu_busy_pct;		/* of the interval, from gpu_busy_ns */
	bool gpu_busy_valid;		/* the counter is there (gemd, not i915) */
};

/* A GPU hang gemtop saw happen (the hangs counter rose), with what the
 * error state says of it: for the banner and the events view. */
struct gt_hang {
	uint64_t seq;			/* gemd's hang number */
	char kind[32];			/* "runaway", "" when not known */
	int32_t pid;			/* the guilty client, 0 when not known */
	char comm[16];
	uint32_t seqno;			/* the guilty request */
	uint64_t real_ns;		/* CLOCK_REALTIME of the hang */
};
#define GEMTOP_HANGS_KEPT 16

struct gt_sample {
	unsigned int have;		/* enum gt_need bits actually read */
	uint64_t mono_ns;		/* CLOCK_MONOTONIC when taken */
	uint64_t real_ns;		/* CLOCK_REALTIME when taken */
	uint64_t cpu_ns;		/* gemtop's own user+sys CPU time */
	struct gdfs_counters ctr;
	struct gdfs_ring ring;
	struct gdfs_gtt gtt;
	struct gdfs_objects objs;
	struct gdfs_clients clients;
	struct gt_list_totals lists;
	uint64_t fenced_bytes;		/* from the GTT ranges */
	uint64_t objs_real_ns;		/* CLOCK_REALTIME the objects were read */
};

/* Kept events (a ring of the newest GEMTOP_EVENTS_KEPT). */
struct gt_events {
	struct gdfs_event *v;
	size_t head, n;			/* v[(head + i) % cap], oldest first */
	uint64_t next_seq;		/* read events after next_seq - 1 */
	uint64_t dropped;
};

struct gt_history {
	double aperture_pct[GEMTOP_HISTORY];
	double lag[GEMTOP_HISTORY];
	double evict_rate[GEMTOP_HISTORY];
	size_t n;			/* samples held, newest last */
};

struct gt_sampler {
	struct gdfs *src;
	char *device, *debugfs_dir;
	struct strbuf buf;
	struct gt_sample samples[2];
	struct gt_sample *cur, *prev;	/* prev->have == 0 until two exist */
	unsigned long count;		/* samples taken */
	struct gt_rates rates;
	/* Hangs seen while running, newest last; hangs_new counts those the
	 * front end has not taken yet (gt_sampler_take_hangs). */
	struct gt_hang hangs[GEMTOP_HANGS_KEPT];
	size_t nhangs;
	unsigned int hangs_new;
	uint64_t hangs_base;		/* the counter at the first sample */
	bool hangs_base_set;
	double cpu_pct;			/* own CPU, % of one CPU; <0: unknown */
	struct gt_events events;
	struct gt_history hist;
	char error[PATH_MAX + 256];	/* why the last sample failed, "" if
					 * not: whole, with a path of any length */
	int error_exit;			/* its exit code (exitcode.h) */
	char missing[256];		/* files this source lacks */
	char driver[96];		/* the name file: "i915 dev=..." */
	uint64_t objs_read_ns;		/* CLOCK_MONOTONIC of the last objects read */
	uint64_t objs_cost_ns;		/* its wall time: gemd's generation + parse */
};

/* sample.c */
int gt_sampler_init(struct gt_sampler *s, const char *device, const char *debugfs_dir);
void gt_sampler_release(struct gt_sampler *s);
/* Take one sample of what need asks for; 0 or -errno (s->error says why).
 * A vanished device closes the source; the next call reopens it. */
int gt_sample(struct gt_sampler *s, unsigned int need);
void gt_sample_release(struct gt_sample *smp);
/* Rates from two counters records taken dt_ns apart. */
void gt_rates_compute(const struct gdfs_counters *prev, const struct gdfs_counters *cur,
		      uint64_t dt_ns, struct gt_rates *out);
/* The hang numbered seq among those seen, or NULL. */
const struct gt_hang *gt_hang_find(const struct gt_sampler *s, uint64_t seq);
/* Hang rows in the events: a GDFS_EV_OTHER event of type "hang" whose
 * obj is the hang number. */
bool gt_event_is_hang(const struct gdfs_event *e);
/* Per-list totals from the objects, or from i915_gem_objects' text. */
void gt_lists_from_objects(const struct gdfs_objects *o, struct gt_list_totals *out);
/* From gemkit_counters' <list>_objects/_bytes; -ENOENT from an older gemd. */
int gt_lists_from_counters(const struct gdfs_counters *c, struct gt_list_totals *out);
int gt_lists_from_era(const char *buf, size_t len, struct gt_list_totals *out);
uint64_t gt_fenced_bytes(const struct gdfs_gtt *g);
/* Number of kept events, and the i-th oldest. */
const struct gdfs_event *gt_event_at(const struct gt_events *e, size_t i);
void gt_events_add(struct gt_events *e, const struct gdfs_events *in);
/* seqno lag (emitted - completed) and the oldest request's age. */
uint32_t gt_seqno_lag(const struct gdfs_ring *r);
/* Requests the GPU has completed that the driver has not retired yet:
 * counted apart, so "lag 0" never stands beside "1 outstanding". */
unsigned int gt_ring_retiring(const struct gdfs_ring *r);
uint64_t gt_oldest_age_ns(const struct gdfs_ring *r);
uint64_t gt_counter(const struct gt_sample *smp, const char *key, bool *present);

/*
 * model.c: how often to read every object.  gemkit_objects costs gemd and
 * gemtop time in proportion to the objects (about 0.2 s at 100,000), so
 * it is read at most 1/GT_OBJECTS_DUTY of the time, as htop throttles its
 * per-process scans: every refresh up to some ten thousand objects at 1 s,
 * less often beyond.  The header's figures are read every refresh, except
 * the per-list totals, which follow the objects while those are kept.
 */
#define GT_OBJECTS_DUTY 30	/* period >= 30 x the read's cost: <= 3.3% */
uint64_t gt_objects_period(const struct gt_sampler *s);
bool gt_objects_due(const struct gt_sampler *s, uint64_t now_mono_ns, uint64_t delay_ns);

/* era.c: the objects and the ring from the Linux 3.2 era files, for trees
 * without the gemkit_* files. */
int gt_era_objects(const char *buf, size_t len, enum gdfs_list list,
		   struct gdfs_objects *out);
int gt_era_ring(const char *seqno, size_t seqno_len, const char *info, size_t info_len,
		const char *req, size_t req_len, struct gdfs_ring *out);

/* model.c: sort, filter and search over the objects. */
enum gt_col {
	GT_COL_ID, GT_COL_SIZE, GT_COL_LIST, GT_COL_DOMAINS, GT_COL_OFFSET,
	GT_COL_FLAGS, GT_COL_RSEQ, GT_COL_WSEQ, GT_COL_CLIENT, GT_COL_NAME,
	GT_COL_AGE, GT_COL_EVICTS, GT_COL_COUNT,
};
const char *gt_col_name(enum gt_col c);

enum gt_term_kind {
	GT_TERM_TEXT, GT_TERM_CLIENT, GT_TERM_LIST, GT_TERM_DOM, GT_TERM_PINNED,
	GT_TERM_SIZE_GT, GT_TERM_SIZE_LT, GT_TERM_FENCED, GT_TERM_ID,
};
struct gt_term {
	enum gt_term_kind kind;
	char text[64];
	uint64_t num;
};
#define GT_MAX_TERMS 8
struct gt_filter {
	struct gt_term or_terms[GT_MAX_TERMS];	/* groups split by '|' ... */
	unsigned int nterms;
	char text[128];				/* as typed */
};
/* Parse "client:Xorg list:active size>1M pinned": space means AND.
 * 0 or -EINVAL with err set. */
int gt_filter_parse(const char *text, struct gt_filter *f, struct strbuf *err);
bool gt_filter_match(const struct gt_filter *f, const struct gdfs_object *o);
/* The events view's filter: event type words (bind, submit, retire, hang,
 * ...: any of them) and id:N (that object); anything else is an error. */
int gt_event_filter_parse(const char *text, struct gt_filter *f, struct strbuf *err);
bool gt_event_filter_match(const struct gt_filter *f, const struct gdfs_event *e);
bool gt_search_match(const char *needle, const struct gdfs_object *o);

struct gt_model {
	enum gt_col sort;
	bool invert;		/* ascending instead of the column's default */
	struct gt_filter filter;
	/* The visible rows: indices into the sample's objects. */
	size_t *rows;
	size_t nrows, cap;
	uint64_t now_real_ns;	/* for ages */
};
void gt_model_init(struct gt_model *m);
void gt_model_release(struct gt_model *m);
int gt_model_update(struct gt_model *m, const struct gdfs_objects *objs, uint64_t now_real_ns);
/* Next row (from 'from', wrapping) matching the search text, or -1. */
long gt_model_search(const struct gt_model *m, const struct gdfs_objects *objs,
		     const char *needle, size_t from);

/* format.c */
void gt_fmt_domains(uint32_t read, uint32_t write, char *out, size_t size);
void gt_fmt_size(uint64_t bytes, char *out, size_t size);
void gt_fmt_flags(const struct gdfs_object *o, char *out, size_t size);
void gt_fmt_age(uint64_t ns, char *out, size_t size);
void gt_fmt_owner(const struct gdfs_object *o, char *out, size_t size);
/* Sparklines on fixed scales: a percentage (0-100), or a rate on a log
 * scale from 0 to GT_SCALE_LOG_MAX a second. */
enum gt_scale { GT_SCALE_PERCENT, GT_SCALE_LOG };
#define GT_SCALE_LOG_MAX 10000.0
/* The newest samples of v (n of them), at most width columns of one cell
 * each, into out; returns the columns drawn (wcwidth of each glyph), which
 * the caller pads to, never the bytes. */
int gt_sparkline(const double *v, size_t n, size_t width, enum gt_scale scale,
		 bool ascii, char *out, size_t size);
/* How many bytes of the UTF-8 text s fit in cols terminal columns
 * (wcwidth; a byte the locale cannot read counts as one column). */
size_t gt_fit_columns(const char *s, int cols);
/* -d and the d key: a duration (util.h; a bare number is seconds) from
 * 50ms to a day.  0 or -EINVAL. */
int gt_parse_delay(const char *s, uint64_t *ns);
uint64_t gt_obj_age_ns(const struct gdfs_object *o, uint64_t now_real_ns);

/* batch.c */
struct gt_batch {
	FILE *out;
	enum gt_format format;
	bool csv_header_done;
	/* Text for people: sizes as 128K and ages as 1m40s (a terminal);
	 * else every size in bytes and every age in ns (--bytes, a pipe). */
	bool human;
	uint64_t interval_ns;
	const char *source;
};
int gt_batch_emit(struct gt_batch *b, const struct gt_sampler *s, const struct gt_model *m);
/* The JSON of one frame (also the x key's export). */
int gt_json_frame(struct strbuf *sb, const struct gt_sampler *s, uint64_t interval_ns,
		  const struct gt_model *m);

/* view.c */
int gt_tui_run(const struct gt_opts *opts);
/* The number of views (-v 1 to this), and view i's name in help. */
unsigned int gt_view_count(void);
const char *gt_view_help(unsigned int i);
/* main.c: SIGTERM or SIGHUP arrived. */
int gt_stop_requested(void);

#endif
