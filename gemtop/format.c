/*
 * The words and short forms gemtop prints, shared by the curses views,
 * the text batch output and the search, so they always agree.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "gemtop.h"
#include "units.h"
#include "util.h"

/* Domains as letters: "rs/R" (gdfs_domains_str). */
void gt_fmt_domains(uint32_t read, uint32_t write, char *out, size_t size)
{
	gdfs_domains_str(read, write, out, size);
}

/* 4096 -> "4K", 1572864 -> "1.5M": at most 6 characters. */
void gt_fmt_size(uint64_t bytes, char *out, size_t size)
{
	tool_fmt_size(out, size, bytes);
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
	if (!ns) {
		snprintf(out, size, "-");
		return;
	}
	tool_fmt_age(out, size, ns);
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

/* A level from 0 to 7 on the scale's fixed range, so a sparkline means
 * the same at every moment: 0.5% of the aperture is a low bar, not a
 * full one because nothing was higher. */
static int spark_level(double v, enum gt_scale scale)
{
	double f;

	if (!(v > 0))
		return 0;
	if (scale == GT_SCALE_PERCENT)
		f = v / 100.0;
	else
		f = log10(1.0 + v) / log10(1.0 + GT_SCALE_LOG_MAX);
	if (f > 1)
		f = 1;
	return (int)(f * 7 + 0.5);
}

/* The terminal columns of one UTF-8 glyph (wcwidth), 1 when the locale
 * cannot say. */
static int glyph_columns(const char *g)
{
	mbstate_t st;
	wchar_t wc;
	int w;

	memset(&st, 0, sizeof(st));
	if (mbrtowc(&wc, g, strlen(g), &st) > strlen(g))
		return 1;
	w = wcwidth(wc);
	return w > 0 ? w : 1;
}

int gt_sparkline(const double *v, size_t n, size_t width, enum gt_scale scale,
		 bool ascii, char *out, size_t size)
{
	static const char *const blocks[] = {
		"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
	};
	static const char *const plain[] = { "_", ".", "-", ":", "=", "+", "*", "#" };
	size_t i, first = n > width ? n - width : 0, len = 0;
	int cols = 0;

	if (!size)
		return 0;
	out[0] = '\0';
	for (i = first; i < n; i++) {
		const char *g = (ascii ? plain : blocks)[spark_level(v[i], scale)];
		size_t gl = strlen(g);
		int gc = glyph_columns(g);

		if (len + gl + 1 > size || (size_t)(cols + gc) > width)
			break;
		memcpy(out + len, g, gl + 1);
		len += gl;
		cols += gc;
	}
	return cols;
}

size_t gt_fit_columns(const char *s, int cols)
{
	size_t len = strlen(s), at = 0;
	mbstate_t st;
	int used = 0;

	memset(&st, 0, sizeof(st));
	while (at < len) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s + at, len - at, &st);
		int w = 1;

		if (n == (size_t)-1 || n == (size_t)-2) {
			memset(&st, 0, sizeof(st));
			n = 1;
		} else {
			if (n == 0)
				break;
			w = wcwidth(wc);
			if (w < 0)
				w = 1;
		}
		if (used + w > cols)
			break;
		used += w;
		at += n;
	}
	return at;
}
