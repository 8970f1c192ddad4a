/*
 * The era files the tools present: describe_obj lines, i915_gem_seqno and
 * i915_ringbuffer_info (Linux 3.2 text, shared/reference/
 * i915-debugfs-formats.md).  They were written for people, so the
 * parsers are strict about structure but tolerant of spacing.
 */
#include <errno.h>
#include <string.h>

#include "gemdebugfs.h"
#include "record.h"
#include "scan.h"
#include "util.h"

bool scan_number(struct scan *s, int base, uint64_t *out)
{
	uint64_t v = 0;
	const char *start = s->p;
	int d;

	for (; s->p < s->end; s->p++) {
		d = hex_digit(*s->p);
		if (d < 0 || d >= base)
			break;
		if (v > (UINT64_MAX - (unsigned int)d) / (unsigned int)base)
			return false;
		v = v * (unsigned int)base + (unsigned int)d;
	}
	*out = v;
	return s->p > start;
}

bool scan_number32(struct scan *s, int base, uint32_t *out)
{
	uint64_t v;

	if (!scan_number(s, base, &v) || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

bool scan_signed32(struct scan *s, uint32_t *out)
{
	bool neg = eat(s, "-");
	uint64_t v;

	if (!scan_number(s, 10, &v) || v > (neg ? 0x80000000ull : UINT32_MAX))
		return false;
	*out = neg ? (uint32_t)(0 - v) : (uint32_t)v;
	return true;
}

uint32_t gdfs_era_obj_id(uint64_t ptr)
{
	const uint64_t base = 0xffff880000000000ull;

	if (ptr < base || (ptr - base) & 0x3ff || ((ptr - base) >> 10) > UINT32_MAX)
		return 0;
	return (uint32_t)((ptr - base) >> 10);
}

int gdfs_parse_era_obj(const char *line, size_t len, struct gdfs_era_obj *o)
{
	struct scan s = { line, line + len };
	uint64_t v;
	uint32_t fence;

	memset(o, 0, sizeof(*o));
	o->fence = -1;
	skip_spaces(&s);
	eat(&s, "0x");
	if (!scan_number(&s, 16, &o->ptr) || !eat(&s, ": ") || s.end - s.p < 2)
		return -EINVAL;
	o->pin = *s.p++;
	o->tiling = *s.p++;
	if (!memchr(" pP", o->pin, 3) || !memchr(" XY", o->tiling, 3))
		return -EINVAL;
	skip_spaces(&s);
	if (!scan_number(&s, 10, &o->size) || !eat(&s, " ") ||
	    !scan_number32(&s, 16, &o->read) || !eat(&s, " ") ||
	    !scan_number32(&s, 16, &o->write) || !eat(&s, " ") ||
	    !scan_signed32(&s, &o->last_rendering_seqno) || !eat(&s, " ") ||
	    !scan_signed32(&s, &o->last_fenced_seqno))
		return -EINVAL;
	/* cache_level_str (" uncached", " snooped (LLC)", or ""), then flags. */
	if (eat(&s, " uncached"))
		memcpy(o->cache, "uncached", sizeof("uncached"));
	else if (eat(&s, " snooped (LLC)"))
		memcpy(o->cache, "snooped (LLC)", sizeof("snooped (LLC)"));
	if (eat(&s, " dirty"))
		o->dirty = true;
	if (eat(&s, " purgeable"))
		o->purgeable = true;
	if (eat(&s, " (name: ")) {
		if (!scan_number32(&s, 10, &o->name) || !eat(&s, ")"))
			return -EINVAL;
	}
	if (eat(&s, " (fence: ")) {
		if (!scan_number32(&s, 10, &fence) || fence > 31 || !eat(&s, ")"))
			return -EINVAL;
		o->fence = (int32_t)fence;
	}
	if (eat(&s, " (gtt offset: ")) {
		if (!scan_number32(&s, 16, &o->gtt_offset) || !eat(&s, ", size: ") ||
		    !scan_number(&s, 16, &v) || v > UINT32_MAX || !eat(&s, ")"))
			return -EINVAL;
		o->gtt_size = (uint32_t)v;
		o->bound = true;
	}
	if (eat(&s, " (pp mappable)")) {
		o->pin_mappable = o->fault_mappable = true;
	} else if (eat(&s, " (p mappable)")) {
		o->pin_mappable = true;
	} else if (eat(&s, " (f mappable)")) {
		o->fault_mappable = true;
	}
	if (eat(&s, " (")) {
		const char *w = s.p;

		while (s.p < s.end && *s.p != ')')
			s.p++;
		if (s.p == s.end || (size_t)(s.p - w) >= sizeof(o->ring))
			return -EINVAL;
		memcpy(o->ring, w, (size_t)(s.p - w));
		s.p++;
	}
	return s.p == s.end ? 0 : -EINVAL;
}

/* Find "label" at the start of a line of buf and scan what follows it. */
static bool find_line(const char *buf, size_t len, const char *label, struct scan *s)
{
	const char *p = buf, *end = buf + len, *nl;
	size_t n = strlen(label);

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if ((size_t)(nl - p) >= n && !memcmp(p, label, n)) {
			s->p = p + n;
			s->end = nl;
			return true;
		}
		p = nl + 1;
	}
	return false;
}

static int era_field(const char *buf, size_t len, const char *label, int base,
		     uint32_t *out, const char *what, struct strbuf *err)
{
	struct scan s;

	if (!find_line(buf, len, label, &s)) {
		gdfs_err(err, what, 0, "no '%s' line", label);
		return -EINVAL;
	}
	skip_spaces(&s);
	if (!(base == 10 ? scan_signed32(&s, out) : scan_number32(&s, 16, out))) {
		gdfs_err(err, what, 0, "bad value after '%s'", label);
		return -EINVAL;
	}
	return 0;
}

int gdfs_parse_era_seqno(const char *buf, size_t len, struct gdfs_era_seqno *out,
			 struct strbuf *err)
{
	static const char what[] = "i915_gem_seqno";
	struct scan s;

	memset(out, 0, sizeof(*out));
	if (era_field(buf, len, "Current sequence (render ring):", 10, &out->current, what, err))
		return -EINVAL;
	if (find_line(buf, len, "Waiter sequence (render ring):", &s)) {
		out->has_waiter = true;
		if (era_field(buf, len, "Waiter sequence (render ring):", 10, &out->waiter,
			      what, err))
			return -EINVAL;
	}
	if (find_line(buf, len, "IRQ sequence (render ring):", &s) &&
	    era_field(buf, len, "IRQ sequence (render ring):", 10, &out->irq, what, err))
		return -EINVAL;
	return 0;
}

int gdfs_parse_era_ringinfo(const char *buf, size_t len, struct gdfs_era_ringinfo *out,
			    struct strbuf *err)
{
	static const char what[] = "i915_ringbuffer_info";
	static const struct {
		const char *label;
		size_t off;
	} fields[] = {
		{ "  Head :", offsetof(struct gdfs_era_ringinfo, head) },
		{ "  Tail :", offsetof(struct gdfs_era_ringinfo, tail) },
		{ "  Size :", offsetof(struct gdfs_era_ringinfo, size) },
		{ "  Active :", offsetof(struct gdfs_era_ringinfo, active) },
		{ "  NOPID :", offsetof(struct gdfs_era_ringinfo, nopid) },
		{ "  Control :", offsetof(struct gdfs_era_ringinfo, ctl) },
		{ "  Start :", offsetof(struct gdfs_era_ringinfo, start) },
	};
	struct scan s;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!find_line(buf, len, "Ring render ring:", &s)) {
		gdfs_err(err, what, 0, "no 'Ring render ring:' block");
		return -EINVAL;
	}
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (era_field(buf, len, fields[i].label, 16,
			      (uint32_t *)((char *)out + fields[i].off), what, err))
			return -EINVAL;
	return 0;
}
