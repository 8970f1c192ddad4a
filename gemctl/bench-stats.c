/* min / median / max over the repeats, and the spread between them. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void bench_stat(const double *v, unsigned int n, struct bench_stat *out)
{
	double sorted[64];
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	if (n > 64)
		n = 64;
	for (i = 0; i < n; i++)
		sorted[i] = v[i];
	qsort(sorted, n, sizeof(sorted[0]), cmp_double);
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->median = n & 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	out->spread_pct = out->median != 0 ?
		(out->max - out->min) / out->median * 100 : 0;
}
