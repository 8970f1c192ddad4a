/*
 * bench's strategies: a buffer manager (alloc, reuse, suballoc) and an
 * upload path (pwrite, cpu-map, gtt-map, unsync), named "reuse",
 * "gtt-map" (over the cache, as libdrm would) or "alloc+cpu-map".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

static int find_name(const char *const *names, unsigned int n, const char *s,
		     size_t len)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], s, len))
			return (int)i;
	return -1;
}

int bench_strategy_parse(const char *s, struct bench_strategy *out)
{
	const char *plus = strchr(s, '+');
	size_t len = plus ? (size_t)(plus - s) : strlen(s);
	int a = find_name(bm_strategy_names, BM_NSTRATEGIES, s, len);
	int u = -1;

	if (plus) {
		u = find_name(bm_upload_names, BM_NUPLOADS, plus + 1, strlen(plus + 1));
		if (a < 0 || u < 0)
			return -EINVAL;
	} else if (a < 0) {
		/* An upload path alone: over libdrm's cache. */
		u = find_name(bm_upload_names, BM_NUPLOADS, s, len);
		if (u < 0)
			return -EINVAL;
		a = BM_REUSE;
	} else {
		/* suballoc writes its frame objects unsynchronised (bufmgr.h) */
		u = a == BM_SUBALLOC ? BM_UNSYNC : BM_PWRITE;
	}
	if (strlen(s) >= sizeof(out->name))
		return -EINVAL;
	out->alloc = (enum bm_strategy)a;
	out->upload = (enum bm_upload)u;
	out->upload_named = plus || find_name(bm_strategy_names, BM_NSTRATEGIES,
					      s, len) < 0;
	memcpy(out->name, s, strlen(s) + 1);
	return 0;
}

int bench_strategy_on(const struct bench_strategy *s, const char *t,
		      struct bench_strategy *out)
{
	*out = *s;
	out->transport = t;
	if (snprintf(out->name, sizeof(out->name), "%s@%s", s->name, t) >=
	    (int)sizeof(out->name))
		return -EINVAL;
	return 0;
}

bool bench_strategy_applies(const struct bench_strategy *s,
			    const struct workload *w)
{
	return w->uploads || !s->upload_named;
}
