/*
 * The words and short forms gemtop prints, shared by the curses views,
 * the text batch output and the search, so they always agree.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gemtop.h"
#include "util.h"

/* Domains as letters: "rs/R" (gdfs_domains_str). */
void gt_fmt_domains(uint32_t read, uint32_t write, char *out, size_t size)
{
	gdfs_domains_str(read, write, out, size);
}

/* 4096 -> "4K", 1572864 -> "1.5M": at most 6 characters. */
void gt_fmt_size(uint64_t bytes, char *out, size_t size)
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

/*
 * One letter per flag, '.' when clear, always 6 wide:
 * P pinned (p kernel pin only), F fenced, X/Y tiled, D dirty,
 * U purgeable (dontneed), E purged, A active.
 */
void gt_fmt_flags(const struct gdfs_object *o, char *out, size_t size)
{
	char f[8];

	f[0] = o->user_pin ? 'P' : o->pin ? 'p' : '.';
	f[1] = o->fence >= 0 ? 'F' : '.';
	f[2] = o->tiling != GDFS_TILING_NONE ? gdfs_tiling_letter(o->tiling) : '.';
	f[3] = o->dirty ? 'D' : '.';
	f[4] = o->madv == GDFS_MADV_DONTNEED ? 'U' : o->madv == GDFS_MADV_PURGED ? 'E' : '.';
	f[5] = o->active ? 'A' : '.';
	f[6] = '\0';
	snprintf(out, size, "%s", f);
}

void gt_fmt_age(uint64_t ns, char *out, size_t size)
{
	uint64_t s = ns / 1000000000ull;

	if (!ns) {
		snprintf(out, size, "-");
		return;
	}

	if (s < 100)
		snprintf(out, size, "%" PRIu64 ".%" PRIu64 "s", s,
			 (uint64_t)((ns / 100000000ull) % 10));
	else if (s < 6000)
		snprintf(out, size, "%" PRIu64 "m", s / 60);
	else
		snprintf(out, size, "%" PRIu64 "h", s / 3600);
}

/* "pid/comm" of the first owner, "+N" more; "-" with none. */
void gt_fmt_owner(const struct gdfs_object *o, char *out, size_t size)
{
	if (!o->nowners) {
		snprintf(out, size, "-");
		return;
	}
	if (o->nowners == 1)
		snprintf(out, size, "%d/%s", (int)o->owners[0].pid, o->owners[0].comm);
	else
		snprintf(out, size, "%d/%s+%u", (int)o->owners[0].pid,
			 o->owners[0].comm, o->nowners - 1);
}

uint64_t gt_obj_age_ns(const struct gdfs_object *o, uint64_t now_real_ns)
{
	/* Unknown creation time (era files): no age rather than 56 years. */
	if (!o->created_ns)
		return 0;
	return now_real_ns > o->created_ns ? now_real_ns - o->created_ns : 0;
}

int gt_parse_delay(const char *s, uint64_t *ns)
{
	uint64_t v;

	if (parse_duration_ns(s, &v) || v < 50000000ull || v > 86400000000000ull)
		return -EINVAL;
	*ns = v;
	return 0;
}
