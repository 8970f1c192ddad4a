/*
 * The words and short forms gemtop prints, shared by the curses views,
 * the text batch output and the search, so they always agree.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gemtop.h"

/*
 * Domains as letters, read domains in lower case and the write domain in
 * upper case, after 3.2's describe_obj habit of showing both masks:
 * c(pu) r(ender) s(ampler) m (command) i(nstruction) v(ertex) g(tt).
 * "rs/R" reads render+sampler and writes render; "-" is no domain.
 */
static const char domain_letters[] = "crsmivg";

static size_t put_mask(uint32_t mask, bool upper, char *out, size_t size)
{
	size_t n = 0;
	unsigned int bit;

	for (bit = 0; bit < 7 && n + 1 < size; bit++)
		if (mask & (1u << bit))
			out[n++] = upper ? (char)(domain_letters[bit] - 'a' + 'A') :
					   domain_letters[bit];
	if (!n && size > 1)
		out[n++] = '-';
	out[n] = '\0';
	return n;
}

void gt_fmt_domains(uint32_t read, uint32_t write, char *out, size_t size)
{
	size_t n;

	if (size < 4) {
		if (size)
			out[0] = '\0';
		return;
	}
	n = put_mask(read, false, out, size - 2);
	out[n++] = '/';
	put_mask(write, true, out + n, size - n);
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
	f[2] = o->tiling == GDFS_TILING_X ? 'X' : o->tiling == GDFS_TILING_Y ? 'Y' : '.';
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
