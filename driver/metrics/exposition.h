/*
 * The text exposition formats (exposition.c): a family's header lines and
 * its samples, in OpenMetrics 1.0 or Prometheus 0.0.4.  Functions return
 * 0 or -ENOMEM, leaving sb as it was on failure of the line.
 */
#ifndef GEMKIT_METRICS_EXPOSITION_H
#define GEMKIT_METRICS_EXPOSITION_H

#include <stddef.h>
#include <stdint.h>

#include "metrics.h"

struct strbuf;

struct expo {
	struct strbuf *sb;
	const struct metrics_format *format;
};

struct expo_label {
	const char *name;
	const char *value;	/* escaped as it is written */
};

int expo_family(struct expo *e, const struct metrics_family *f);
int expo_sample(struct expo *e, const struct metrics_family *f,
		const struct expo_label *labels, size_t nlabels, uint64_t v);
int expo_end(struct expo *e);

#endif
