/*
 * i915_error_state: the Linux 3.0-3.4 layouts (and the 2.6.34 one, whose
 * lines are a subset), gemd's "gemd ..." lines, and "no error state
 * collected" (shared/reference/i915-debugfs-formats.md §4).
 *
 * The parse is line by line and keyed, as intel_error_decode's is: a
 * header line ("render command stream:", "Active [N]:", "... --- ...")
 * sets what the following lines are; register lines are "NAME: 0x%08x";
 * dump lines are "%08x :  %08x".  Lines it does not know (overlay and
 * display state, other rings' registers) are skipped; a known line with a
 * bad value, a dword outside a buffer, a short buffer list or text that
 * is not an error state is -EINVAL, with the line named in err.
 *
 * Buffer-list entries are stored as struct gdfs_era_obj, converted to
 * describe_obj's conventions: the error state's " P" (kernel pin) becomes
 * pin 'p', its " p" (user pin) pin 'P'; bound is always true, gtt_size is
 * the object size, ring is "render" (or the ring word printed).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gemdebugfs.h"
#include "record.h"
#include "scan.h"

static const char what[] = "i915_error_state";

enum section {
	SEC_HEADER,		/* registers and fences */
	SEC_RING_REGS,		/* "render command stream:" */
	SEC_OTHER_REGS,		/* another ring's block: skipped */
	SEC_ACTIVE,
	SEC_PINNED,
	SEC_REQUESTS,
	SEC_DUMP,		/* dwords of the last buffer */
	SEC_SKIP,		/* a section whose lines we do not keep */
};

struct parser {
	struct gdfs_error_state *e;
	struct strbuf *err;
	unsigned int line;
	enum section sec;
	size_t list_want;	/* entries announced by "Active [N]:" */
	size_t *list_n;
	size_t active_alloc, pinned_alloc, req_alloc, buf_alloc, pool_alloc;
	size_t *starts;		/* each buffer's first dword in the pool */
	size_t nstarts, starts_alloc;
	bool dump_open;		/* a buffer takes dwords now */
	size_t total_len;	/* bounds a list's announced length */
};

static bool hex32(struct scan *s, uint32_t *out)
{
	uint64_t v;

	eat(s, "0x");
	if (!scan_number(s, 16, &v) || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

static bool dec64(struct scan *s, uint64_t *out)
{
	return scan_number(s, 10, out);
}

static int bad(struct parser *ps, const char *msg)
{
	gdfs_err(ps->err, what, ps->line, "%s", msg);
	return -EINVAL;
}

/* "%08x : %08x" (any spacing around the colon); false if not one. */
static bool dword_line(struct scan s, uint32_t *val)
{
	uint32_t off;
	uint64_t v;

	skip_spaces(&s);
	if (!scan_number(&s, 16, &v) || v > UINT32_MAX)
		return false;
	off = (uint32_t)v;
	(void)off;
	skip_spaces(&s);
	if (!eat(&s, ":"))
		return false;
	skip_spaces(&s);
	if (!scan_number(&s, 16, &v) || v > UINT32_MAX)
		return false;
	skip_spaces(&s);
	*val = (uint32_t)v;
	return s.p == s.end;
}

static int add_dword(struct parser *ps, uint32_t val)
{
	struct gdfs_error_state *e = ps->e;

	if (!ps->dump_open)
		return bad(ps, "dword outside a buffer section");
	if (e->ndword_pool == ps->pool_alloc &&
	    gdfs_vec_reserve((void **)&e->dword_pool, &ps->pool_alloc,
			     ps->pool_alloc ? 2 * ps->pool_alloc : 1024, sizeof(uint32_t)))
		return -ENOMEM;
	e->dword_pool[e->ndword_pool++] = val;
	e->buffers[e->nbuffers - 1].ndwords++;
	return 0;
}

/* "<ring> --- <what> = 0x%08x", "--- gtt_offset = ...", "<ring> --- N requests". */
static int section_line(struct parser *ps, const char *line, const char *dash,
			const char *end)
{
	struct gdfs_error_state *e = ps->e;
	struct scan s = { dash + 3, end };
	struct gdfs_err_buffer *b;
	size_t ringlen = (size_t)(dash - line), *start;
	uint64_t n;
	const char *eq;

	while (ringlen && line[ringlen - 1] == ' ')
		ringlen--;
	skip_spaces(&s);
	if (s.p < s.end && *s.p >= '0' && *s.p <= '9') {
		if (!dec64(&s, &n) || !eat(&s, " request"))
			return bad(ps, "bad request count");
		ps->sec = SEC_REQUESTS;
		ps->dump_open = false;
		return 0;
	}
	eq = memchr(s.p, '=', (size_t)(s.end - s.p));
	b = gdfs_vec_push((void **)&e->buffers, &e->nbuffers, &ps->buf_alloc, sizeof(*b));
	start = gdfs_vec_push((void **)&ps->starts, &ps->nstarts, &ps->starts_alloc,
			      sizeof(*start));
	if (!b || !start)
		return -ENOMEM;
	*start = e->ndword_pool;
	if (ringlen >= sizeof(b->ring))
		ringlen = sizeof(b->ring) - 1;
	memcpy(b->ring, line, ringlen);
	if (eat(&s, "gtt_offset") || eat(&s, "batch"))
		memcpy(b->name, "batch", sizeof("batch"));
	else if (eat(&s, "ringbuffer") || eat(&s, "ring"))
		memcpy(b->name, "ring", sizeof("ring"));
	else {
		size_t k = 0;

		while (s.p + k < (eq ? eq : s.end) && k + 1 < sizeof(b->name))
			k++;
		while (k && s.p[k - 1] == ' ')
			k--;
		memcpy(b->name, s.p, k);
	}
	if (eq) {
		struct scan v = { eq + 1, s.end };
		uint32_t hi, lo;

		skip_spaces(&v);
		if (!hex32(&v, &lo))
			return bad(ps, "bad buffer offset");
		skip_spaces(&v);
		if (v.p < v.end) {	/* 4.x: "0x%08x %08x", high then low */
			hi = lo;
			if (!hex32(&v, &lo) || hi)
				return bad(ps, "bad buffer offset");
		}
		b->gtt_offset = lo;
	}
	ps->sec = SEC_DUMP;
	ps->dump_open = true;
	return 0;
}

/* "  %08x %8u %04x %04x %08x[ P| p][ X| Y][ dirty][ purgeable][ ring][ cache]..." */
static int buffer_line(struct parser *ps, struct scan s)
{
	struct gdfs_error_state *e = ps->e;
	struct gdfs_era_obj *o;
	uint64_t v;

	if (*ps->list_n >= ps->list_want)
		return bad(ps, "more buffers than the list header announced");
	if (ps->sec == SEC_ACTIVE)
		o = gdfs_vec_push((void **)&e->active, &e->nactive, &ps->active_alloc, sizeof(*o));
	else
		o = gdfs_vec_push((void **)&e->pinned, &e->npinned, &ps->pinned_alloc, sizeof(*o));
	if (!o)
		return -ENOMEM;
	o->fence = -1;
	o->pin = ' ';
	o->tiling = ' ';
	o->bound = true;
	skip_spaces(&s);
	if (!hex32(&s, &o->gtt_offset))
		return bad(ps, "bad buffer offset");
	skip_spaces(&s);
	if (!dec64(&s, &v) || v > UINT32_MAX)
		return bad(ps, "bad buffer size");
	o->size = v;
	o->gtt_size = (uint32_t)v;
	skip_spaces(&s);
	if (!hex32(&s, &o->read))
		return bad(ps, "bad read domains");
	skip_spaces(&s);
	if (!hex32(&s, &o->write))
		return bad(ps, "bad write domain");
	skip_spaces(&s);
	if (!hex32(&s, &o->last_rendering_seqno))
		return bad(ps, "bad seqno");
	if (eat(&s, " P"))
		o->pin = 'p';
	else if (eat(&s, " p"))
		o->pin = 'P';
	if (eat(&s, " X"))
		o->tiling = 'X';
	else if (eat(&s, " Y"))
		o->tiling = 'Y';
	o->dirty = eat(&s, " dirty");
	o->purgeable = eat(&s, " purgeable");
	for (;;) {
		const char *w;
		size_t k;

		if (eat(&s, " (name: ")) {
			if (!dec64(&s, &v) || v > UINT32_MAX || !eat(&s, ")"))
				return bad(ps, "bad name");
			o->name = (uint32_t)v;
		} else if (eat(&s, " (fence: ")) {
			if (!dec64(&s, &v) || v > 31 || !eat(&s, ")"))
				return bad(ps, "bad fence");
			o->fence = (int32_t)v;
		} else if (eat(&s, " uncached")) {
			memcpy(o->cache, "uncached", sizeof("uncached"));
		} else if (eat(&s, " snooped (LLC+MLC)") || eat(&s, " snooped (LLC)")) {
			memcpy(o->cache, "snooped", sizeof("snooped"));
		} else if (s.p < s.end && (*s.p == ' ' || *s.p == '\t')) {
			/* the ring: " " then ring_str(), e.g. " render" */
			s.p++;
			skip_spaces(&s);
			w = s.p;
			while (s.p < s.end && *s.p >= 'a' && *s.p <= 'z')
				s.p++;
			k = (size_t)(s.p - w);
			if (!k || k >= sizeof(o->ring))
				return bad(ps, "bad buffer flags");
			memcpy(o->ring, w, k);
			o->ring[k] = '\0';
		} else {
			break;
		}
	}
	if (s.p != s.end)
		return bad(ps, "bad buffer flags");
	return 0;
}

static int check_list_done(struct parser *ps)
{
	if ((ps->sec == SEC_ACTIVE || ps->sec == SEC_PINNED) &&
	    *ps->list_n != ps->list_want) {
		gdfs_err(ps->err, what, ps->line,
			 "buffer list ended after %zu of %zu entries",
			 *ps->list_n, ps->list_want);
		return -EINVAL;
	}
	return 0;
}

/* "  NAME: value" in a register block (or the header). */
static int reg_line(struct parser *ps, struct scan s)
{
	static const struct { const char *key; size_t off; } regs[] = {
		{ "HEAD:", offsetof(struct gdfs_error_state, head) },
		{ "TAIL:", offsetof(struct gdfs_error_state, tail) },
		{ "ACTHD:", offsetof(struct gdfs_error_state, acthd) },
		{ "IPEIR:", offsetof(struct gdfs_error_state, ipeir) },
		{ "IPEHR:", offsetof(struct gdfs_error_state, ipehr) },
		{ "INSTDONE:", offsetof(struct gdfs_error_state, instdone) },
		{ "INSTPM:", offsetof(struct gdfs_error_state, instpm) },
		{ "seqno:", offsetof(struct gdfs_error_state, seqno) },
		{ "ring->head:", offsetof(struct gdfs_error_state, ring_head) },
		{ "ring->tail:", offsetof(struct gdfs_error_state, ring_tail) },
		{ "EIR:", offsetof(struct gdfs_error_state, eir) },
		{ "PGTBL_ER:", offsetof(struct gdfs_error_state, pgtbl_er) },
		{ "FADDR:", offsetof(struct gdfs_error_state, faddr) },
	};
	size_t i;

	skip_spaces(&s);
	for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		uint32_t *field;

		if (!eat(&s, regs[i].key))
			continue;
		field = (uint32_t *)((char *)ps->e + regs[i].off);
		skip_spaces(&s);
		if (!hex32(&s, field) || (skip_spaces(&s), s.p != s.end)) {
			gdfs_err(ps->err, what, ps->line, "bad value for '%s'",
				 regs[i].key);
			return -EINVAL;
		}
		if (i < 10)
			ps->e->has_ring_regs = true;
		if (regs[i].off == offsetof(struct gdfs_error_state, faddr))
			ps->e->has_faddr = true;
		return 0;
	}
	return 1;	/* not a register we keep */
}

static int fence_line(struct parser *ps, struct scan s)
{
	uint64_t idx, v;

	if (!dec64(&s, &idx) || !eat(&s, "] = ") || !scan_number(&s, 16, &v) ||
	    s.p != s.end || idx >= 16 || v > UINT32_MAX)
		return bad(ps, "bad fence line");
	ps->e->fences[idx] = (uint32_t)v;
	if (idx + 1 > ps->e->nfences)
		ps->e->nfences = (unsigned int)idx + 1;
	return 0;
}

static int request_line(struct parser *ps, struct scan s)
{
	struct gdfs_err_request *r;
	uint64_t v;

	r = gdfs_vec_push((void **)&ps->e->requests, &ps->e->nrequests,
			  &ps->req_alloc, sizeof(*r));
	if (!r)
		return -ENOMEM;
	skip_spaces(&s);
	if (!eat(&s, "seqno ") || !hex32(&s, &r->seqno) || !eat(&s, ", emitted ") ||
	    !dec64(&s, &v) || !eat(&s, ", tail ") || !hex32(&s, &r->tail) || s.p != s.end)
		return bad(ps, "bad request line");
	r->jiffies = v;
	return 0;
}

static int gemd_line(struct parser *ps, struct scan s)
{
	struct gdfs_error_state *e = ps->e;
	uint64_t v;
	size_t k;

	e->has_gemd = true;
	if (eat(&s, "hang kind: ")) {
		k = (size_t)(s.end - s.p);
		if (!k || k >= sizeof(e->hang_kind))
			return bad(ps, "bad hang kind");
		memcpy(e->hang_kind, s.p, k);
		e->hang_kind[k] = '\0';
		return 0;
	}
	if (eat(&s, "hang number: ")) {
		if (!dec64(&s, &e->hang_seq) || s.p != s.end)
			return bad(ps, "bad hang number");
		return 0;
	}
	if (eat(&s, "guilty seqno: ")) {
		if (!hex32(&s, &e->guilty_seqno) || s.p != s.end)
			return bad(ps, "bad guilty seqno");
		return 0;
	}
	if (eat(&s, "guilty pid: ")) {
		if (!dec64(&s, &v) || v > INT32_MAX || s.p != s.end)
			return bad(ps, "bad guilty pid");
		e->guilty_pid = (pid_t)v;
		return 0;
	}
	if (eat(&s, "guilty comm: ")) {
		k = (size_t)(s.end - s.p);
		if (k >= sizeof(e->guilty_comm))
			return bad(ps, "bad guilty comm");
		memcpy(e->guilty_comm, s.p, k);
		e->guilty_comm[k] = '\0';
		if (!strcmp(e->guilty_comm, "-"))
			e->guilty_comm[0] = '\0';
		return 0;
	}
	if (eat(&s, "guilty file: ")) {
		if (!dec64(&s, &v) || v > UINT32_MAX || s.p != s.end)
			return bad(ps, "bad guilty file");
		e->guilty_file = (uint32_t)v;
		return 0;
	}
	if (eat(&s, "submit to detect: ")) {
		if (!dec64(&s, &e->detect_ns) || !eat(&s, " ns") || s.p != s.end)
			return bad(ps, "bad detection time");
		return 0;
	}
	return 0;	/* a gemd line from a newer gemd */
}

static int header_line(struct parser *ps, struct scan s)
{
	struct gdfs_error_state *e = ps->e;
	size_t k = (size_t)(s.end - s.p);
	uint64_t a, b;

	if (k >= sizeof(e->time))
		k = sizeof(e->time) - 1;
	memcpy(e->time, s.p, k);
	e->time[k] = '\0';
	if (!eat(&s, "Time: ") || !dec64(&s, &a) || !eat(&s, " s ") ||
	    !dec64(&s, &b) || !eat(&s, " us") || s.p != s.end ||
	    a > INT64_MAX || b > INT64_MAX)
		return bad(ps, "expected 'Time: <s> s <us> us'");
	e->time_sec = (int64_t)a;
	e->time_usec = (int64_t)b;
	return 0;
}

static int parse_line(struct parser *ps, const char *line, size_t len)
{
	struct gdfs_error_state *e = ps->e;
	struct scan s = { line, line + len }, t;
	const char *dash;
	uint32_t val;
	uint64_t n;
	int ret;

	if (memchr(line, '\0', len))
		return bad(ps, "NUL byte in the text");
	if (dword_line(s, &val))
		return add_dword(ps, val);
	if (ps->sec == SEC_ACTIVE || ps->sec == SEC_PINNED) {
		t = s;
		skip_spaces(&t);
		if (line[0] == ' ' && t.p < t.end && *t.p >= '0' && *t.p <= 'f')
			return buffer_line(ps, s);
	}
	ret = check_list_done(ps);
	if (ret)
		return ret;
	ps->dump_open = false;

	dash = len >= 3 ? memmem(line, len, "---", 3) : NULL;
	if (dash)
		return section_line(ps, line, dash, line + len);
	if (eat(&s, "gemd "))
		return gemd_line(ps, s);
	if (ps->sec == SEC_REQUESTS && line[0] == ' ')
		return request_line(ps, s);
	t = s;
	skip_spaces(&t);
	if (eat(&t, "PCI ID: ")) {
		if (!hex32(&t, &e->pci_id) || t.p != t.end)
			return bad(ps, "bad PCI ID");
		return 0;
	}
	if (eat(&t, "fence["))
		return fence_line(ps, t);
	if (eat(&s, "Active [") || eat(&s, "Pinned [") || eat(&s, "Buffers [")) {
		bool pinned = line[0] == 'P';

		if (!dec64(&s, &n) || !eat(&s, "]:") || s.p != s.end ||
		    n > ps->total_len)
			return bad(ps, "bad buffer list header");
		ps->sec = pinned ? SEC_PINNED : SEC_ACTIVE;
		ps->list_n = pinned ? &e->npinned : &e->nactive;
		ps->list_want = *ps->list_n + (size_t)n;
		return 0;
	}
	if (len > 16 && !memcmp(line + len - 16, " command stream:", 16)) {
		/* 3.x says "render", the kernels with engine names "rcs0"
		 * (gemkit_sysfs_error, sysfs card0/error) */
		bool render = !strncmp(line, "render", 6) || !strncmp(line, "Render", 6) ||
			      !strncmp(line, "rcs0 ", 5);

		ps->sec = render ? SEC_RING_REGS : SEC_OTHER_REGS;
		return 0;
	}
	if (ps->sec == SEC_OTHER_REGS && line[0] == ' ')
		return 0;
	if (ps->sec == SEC_DUMP || ps->sec == SEC_REQUESTS)
		ps->sec = SEC_SKIP;
	ret = reg_line(ps, s);
	return ret > 0 ? 0 : ret;	/* unknown lines are skipped */
}

static void fix_buffers(struct parser *ps)
{
	struct gdfs_error_state *e = ps->e;
	size_t i;

	for (i = 0; i < e->nbuffers; i++)
		e->buffers[i].dwords = e->buffers[i].ndwords ?
				       e->dword_pool + ps->starts[i] : NULL;
}

static int parse_error_state_text(const char *buf, size_t len,
				  struct gdfs_error_state *out, struct strbuf *err)
{
	struct parser ps = { .e = out, .err = err, .sec = SEC_HEADER, .total_len = len };
	const char *p = buf, *end = buf + len, *nl;
	bool first = true;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!buf) {
		gdfs_err(err, what, 0, "no text");
		return -EINVAL;
	}
	while (p < end) {
		size_t n;

		nl = memchr(p, '\n', (size_t)(end - p));
		n = (size_t)((nl ? nl : end) - p);
		ps.line++;
		if (n && p[n - 1] == '\r')
			n--;
		if (first) {
			if (!n) {
				p = nl ? nl + 1 : end;
				continue;
			}
			first = false;
			if ((n == 24 && !memcmp(p, "no error state collected", 24)) ||
			    (n == 25 && !memcmp(p, "No error state collected.", 25))) {
				ret = 0;
				for (p = nl ? nl + 1 : end; p < end; p++)
					if (*p != '\n' && *p != ' ') {
						ps.line++;
						ret = bad(&ps, "text after 'no error state collected'");
						break;
					}
				goto out;
			}
			out->present = true;
			ret = header_line(&ps, (struct scan){ p, p + n });
		} else if (n) {
			ret = parse_line(&ps, p, n);
		}
		if (ret)
			goto out;
		p = nl ? nl + 1 : end;
	}
	if (first) {
		gdfs_err(err, what, 0, "empty file");
		ret = -EINVAL;
		goto out;
	}
	ps.line++;
	ret = check_list_done(&ps);
out:
	fix_buffers(&ps);
	free(ps.starts);
	if (ret)
		gdfs_error_state_release(out);
	return ret;
}

void gdfs_error_state_release(struct gdfs_error_state *e)
{
	if (!e)
		return;
	free(e->active);
	free(e->pinned);
	free(e->requests);
	free(e->buffers);
	free(e->dword_pool);
	memset(e, 0, sizeof(*e));
}

/* Later kernels' buffers come as ascii85 lines (ascii85.c): expanded to
 * the "%08x :  %08x" lines of the earlier layouts, then parsed alike. */
static bool has_ascii85(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (*p == ':' || *p == '~')
			return true;
		p = nl ? nl + 1 : end;
	}
	return false;
}

int gdfs_parse_error_state(const char *buf, size_t len, struct gdfs_error_state *out,
			   struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	bool found;
	int ret;

	if (!buf || !has_ascii85(buf, len))
		return parse_error_state_text(buf, len, out, err);
	memset(out, 0, sizeof(*out));
	ret = gdfs_expand_ascii85(buf, len, &text, &found, err);
	if (!ret)
		ret = parse_error_state_text(text.buf, text.len, out, err);
	strbuf_release(&text);
	return ret;
}
