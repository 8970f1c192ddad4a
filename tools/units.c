/* Numbers for people (units.h). */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "units.h"

void tool_fmt_size(char *out, size_t size, uint64_t bytes)
{
	static const char units[] = "BKMGTP";
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(out, size, "%" PRIu64 "B", bytes);
	else if (v < 10 && v != (double)(uint64_t)v)
		snprintf(out, size, "%.1f%c", v, units[u]);
	else
		snprintf(out, size, "%.0f%c", v, units[u]);
}

void tool_fmt_age(char *out, size_t size, uint64_t ns)
{
	uint64_t s = ns / 1000000000ull;

	/* Each step carries the next unit down, so 99.9s is followed by
	 * 1m40s, not by "1m". */
	if (s < 100)
		snprintf(out, size, "%" PRIu64 ".%" PRIu64 "s", s,
			 (uint64_t)((ns / 100000000ull) % 10));
	else if (s < 3600)
		snprintf(out, size, "%" PRIu64 "m%02" PRIu64 "s", s / 60, s % 60);
	else if (s < 86400)
		snprintf(out, size, "%" PRIu64 "h%02" PRIu64 "m", s / 3600, s / 60 % 60);
	else
		snprintf(out, size, "%" PRIu64 "d%02" PRIu64 "h", s / 86400, s / 3600 % 24);
}

void tool_fmt_time(char *out, size_t size, uint64_t real_ns, uint64_t now_ns)
{
	time_t t = (time_t)(real_ns / 1000000000ull);
	char when[64] = "?", age[16];
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", &tm);
	if (now_ns >= real_ns) {
		tool_fmt_age(age, sizeof(age), now_ns - real_ns);
		snprintf(out, size, "%s (%s ago)", when, age);
	} else {
		snprintf(out, size, "%s (in the future)", when);
	}
}
