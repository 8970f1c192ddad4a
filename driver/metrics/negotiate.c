/*
 * Which format an HTTP client asked for, from its Accept header (RFC 9110
 * 12.5.1, q-values).  Prometheus asks for OpenMetrics first and the 0.0.4
 * text with a lower q; curl and older scrapers send a wildcard or nothing,
 * and get the 0.0.4 text, which every version parses.  A tie goes to 0.0.4.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "metrics.h"

/* q of one media range's parameters ("; version=1.0.0; q=0.5"), 1000ths. */
static int range_q(const char *p, const char *end)
{
	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));

		if (!semi)
			break;
		p = semi + 1;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (end - p >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
			double q = strtod(p + 2, NULL);

			return q <= 0 ? 0 : q >= 1 ? 1000 : (int)(q * 1000 + 0.5);
		}
	}
	return 1000;
}

static bool type_is(const char *p, size_t n, const char *type)
{
	return n == strlen(type) && !strncasecmp(p, type, n);
}

enum metrics_format_id metrics_negotiate(const char *accept)
{
	int q_om = 0, q_text = 0;
	const char *p = accept;

	while (p && *p) {
		const char *end = strchr(p, ',');
		const char *type_end;
		size_t n;
		int q;

		if (!end)
			end = p + strlen(p);
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		type_end = p;
		while (type_end < end && *type_end != ';' && *type_end != ' ' &&
		       *type_end != '\t')
			type_end++;
		n = (size_t)(type_end - p);
		q = range_q(type_end, end);
		if (type_is(p, n, "application/openmetrics-text"))
			q_om = q > q_om ? q : q_om;
		else if (type_is(p, n, "text/plain") || type_is(p, n, "text/*") ||
			 type_is(p, n, "*/*"))
			q_text = q > q_text ? q : q_text;
		p = *end ? end + 1 : end;
	}
	return q_om > 0 && q_om > q_text ? METRICS_OPENMETRICS : METRICS_PROMETHEUS;
}
