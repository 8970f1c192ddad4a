/* Inside driver/metrics: the parts metrics.c puts together. */
#ifndef GEMKIT_METRICS_PRIV_H
#define GEMKIT_METRICS_PRIV_H

#include "metrics.h"

struct strbuf;

/* process.c: gemd's process_* values. */
void metrics_read_process(struct metrics_process *p);
/* metrics.c: the whole exposition of s in format fmt, appended to sb. */
int metrics_write(struct strbuf *sb, const struct metrics_snap *s,
		  const struct metrics_format *fmt);

#endif
