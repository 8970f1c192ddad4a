/*
 * gemtop's policy over the objects: which rows are shown, in what order.
 * Filter terms (space-separated, all must match, htop's F4 with keys):
 *   client:X   owner pid, drm file id or comm (substring)
 *   list:L     unbound, inactive, active, flushing, pinned (prefix)
 *   dom:D      in read or write domain D: cpu, render, sampler, command,
 *              instruction, vertex, gtt
 *   size>N, size<N   with K/M/G suffixes (parse_size)
 *   pinned, fenced, id:N
 *   anything else: a substring of the owner's comm or of the id
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gemtop.h"
#include "toolopt.h"
#include "util.h"

/* What a term may start with: for "did you mean". */
static const char *const term_words[] = {
	"client:", "list:", "dom:", "id:", "size>", "size<", "pinned", "fenced",
};

/* "unknown filter term 'sise>1M' (did you mean 'size>1M'?)": the key is
 * what is misspelt, so suggest a key and keep the value. */
static void unknown_term(const char *tok, struct strbuf *err)
{
	size_t klen = strcspn(tok, ":<>");
	char key[32];
	const char *guess;

	if (tok[klen])
		klen++;		/* the ':', '<' or '>' is part of the key */
	snprintf(key, sizeof(key), "%.*s", (int)klen, tok);
	guess = tool_suggest(key, term_words, ARRAY_SIZE(term_words));
	if (guess)
		strbuf_addf(err, "unknown filter term '%s' (did you mean '%s%s'?)", tok,
			    guess, tok + klen);
	else
		strbuf_addf(err, "unknown filter term '%s'", tok);
}

static const char *const col_names[GT_COL_COUNT] = {
	[GT_COL_ID] = "ID", [GT_COL_SIZE] = "SIZE", [GT_COL_LIST] = "LIST",
	[GT_COL_DOMAINS] = "DOMAINS", [GT_COL_OFFSET] = "OFFSET",
	[GT_COL_FLAGS] = "FLAGS", [GT_COL_RSEQ] = "RSEQ", [GT_COL_WSEQ] = "WSEQ",
	[GT_COL_CLIENT] = "CLIENT", [GT_COL_NAME] = "NAME", [GT_COL_AGE] = "AGE",
	[GT_COL_EVICTS] = "EVICT",
};

const char *gt_col_name(enum gt_col c)
{
	return c < GT_COL_COUNT ? col_names[c] : "?";
}

static int parse_term(const char *tok, struct gt_term *t, struct strbuf *err)
{
	const char *v;
	size_t i;

	memset(t, 0, sizeof(*t));
	if (!strncmp(tok, "size>", 5) || !strncmp(tok, "size<", 5)) {
		t->kind = tok[4] == '>' ? GT_TERM_SIZE_GT : GT_TERM_SIZE_LT;
		if (parse_size(tok + 5, &t->num)) {
			strbuf_addf(err, "bad size in '%s'", tok);
			return -EINVAL;
		}
		return 0;
	}
	if (!strcmp(tok, "pinned")) {
		t->kind = GT_TERM_PINNED;
		return 0;
	}
	if (!strcmp(tok, "fenced")) {
		t->kind = GT_TERM_FENCED;
		return 0;
	}
	v = strchr(tok, ':');
	if (!v && strpbrk(tok, "<>=")) {
		/* A comparison of something that is not a size. */
		unknown_term(tok, err);
		return -EINVAL;
	}
	if (!v) {
		t->kind = GT_TERM_TEXT;
		snprintf(t->text, sizeof(t->text), "%s", tok);
		return 0;
	}
	v++;
	snprintf(t->text, sizeof(t->text), "%s", v);
	if (!strncmp(tok, "client:", 7)) {
		t->kind = GT_TERM_CLIENT;
	} else if (!strncmp(tok, "list:", 5)) {
		t->kind = GT_TERM_LIST;
		for (i = 0; i < GDFS_LIST_COUNT; i++)
			if (*v && !strncmp(gdfs_list_name(i), v, strlen(v)))
				break;
		if (i == GDFS_LIST_COUNT) {
			strbuf_addf(err, "unknown list '%s'", v);
			return -EINVAL;
		}
		t->num = i;
	} else if (!strncmp(tok, "dom:", 4)) {
		t->kind = GT_TERM_DOM;
		for (i = 0; i < GDFS_DOMAIN_COUNT; i++)
			if (*v && !strncmp(gdfs_domain_names[i], v, strlen(v)))
				break;
		if (i == GDFS_DOMAIN_COUNT) {
			strbuf_addf(err, "unknown domain '%s'", v);
			return -EINVAL;
		}
		t->num = 1u << i;
	} else if (!strncmp(tok, "id:", 3)) {
		char *end;

		t->kind = GT_TERM_ID;
		t->num = strtoull(v, &end, 0);
		if (!*v || *end) {
			strbuf_addf(err, "bad id '%s'", v);
			return -EINVAL;
		}
	} else {
		unknown_term(tok, err);
		return -EINVAL;
	}
	return 0;
}

int gt_filter_parse(const char *text, struct gt_filter *f, struct strbuf *err)
{
	char copy[128], *tok, *save = NULL;
	struct gt_filter nf;
	int ret;

	memset(&nf, 0, sizeof(nf));
	snprintf(nf.text, sizeof(nf.text), "%s", text ? text : "");
	snprintf(copy, sizeof(copy), "%s", nf.text);
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (nf.nterms == GT_MAX_TERMS) {
			strbuf_addf(err, "at most %d filter terms", GT_MAX_TERMS);
			return -EINVAL;
		}
		ret = parse_term(tok, &nf.or_terms[nf.nterms], err);
		if (ret)
			return ret;
		nf.nterms++;
	}
	*f = nf;
	return 0;
}

static bool client_match(const char *text, const struct gdfs_object *o)
{
	char *end;
	unsigned long n = strtoul(text, &end, 10);
	bool numeric = *text && !*end;
	uint32_t i;

	for (i = 0; i < o->nowners; i++) {
		const struct gdfs_owner *w = &o->owners[i];

		if (numeric && ((unsigned long)w->pid == n || w->file == n))
			return true;
		if (!numeric && strstr(w->comm, text))
			return true;
	}
	return false;
}

static bool term_match(const struct gt_term *t, const struct gdfs_object *o)
{
	char id[16];

	switch (t->kind) {
	case GT_TERM_CLIENT:
		return client_match(t->text, o);
	case GT_TERM_LIST:
		return o->list == t->num;
	case GT_TERM_DOM:
		return ((o->read | o->write) & t->num) != 0;
	case GT_TERM_PINNED:
		return o->pin > 0;
	case GT_TERM_FENCED:
		return o->fence >= 0;
	case GT_TERM_SIZE_GT:
		return o->size > t->num;
	case GT_TERM_SIZE_LT:
		return o->size < t->num;
	case GT_TERM_ID:
		return o->id == t->num;
	case GT_TERM_TEXT:
		snprintf(id, sizeof(id), "%u", o->id);
		return strstr(id, t->text) || client_match(t->text, o);
	}
	return false;
}

bool gt_filter_match(const struct gt_filter *f, const struct gdfs_object *o)
{
	unsigned int i;

	for (i = 0; i < f->nterms; i++)
		if (!term_match(&f->or_terms[i], o))
			return false;
	return true;
}

/* htop's F3: the id, the owner's comm or pid, or the list's name. */
bool gt_search_match(const char *needle, const struct gdfs_object *o)
{
	char id[16];

	if (!needle || !*needle)
		return false;
	snprintf(id, sizeof(id), "%u", o->id);
	if (strstr(id, needle) || strstr(gdfs_list_name(o->list), needle))
		return true;
	return client_match(needle, o);
}

uint64_t gt_objects_period(const struct gt_sampler *s)
{
	return s->objs_cost_ns * GT_OBJECTS_DUTY;
}

bool gt_objects_due(const struct gt_sampler *s, uint64_t now_mono_ns, uint64_t delay_ns)
{
	/* Half a delay of slack, so a period just under the delay does not
	 * skip a refresh because of timer jitter. */
	if (!s->objs_read_ns || !(s->cur->have & GT_NEED_OBJECTS))
		return true;
	return now_mono_ns + delay_ns / 2 >= s->objs_read_ns + gt_objects_period(s);
}

void gt_model_init(struct gt_model *m)
{
	memset(m, 0, sizeof(*m));
	m->sort = GT_COL_SIZE;
}

void gt_model_release(struct gt_model *m)
{
	free(m->rows);
	memset(m, 0, sizeof(*m));
}

/* Columns whose natural order is "biggest first". */
static bool col_descends(enum gt_col c)
{
	return c == GT_COL_SIZE || c == GT_COL_RSEQ || c == GT_COL_WSEQ ||
	       c == GT_COL_AGE || c == GT_COL_EVICTS;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int compare(const struct gdfs_object *a, const struct gdfs_object *b,
		   enum gt_col col)
{
	switch (col) {
	case GT_COL_SIZE:
		return cmp_u64(a->size, b->size);
	case GT_COL_LIST:
		return cmp_u64(a->list, b->list);
	case GT_COL_DOMAINS:
		return cmp_u64(((uint64_t)a->write << 8) | a->read,
			       ((uint64_t)b->write << 8) | b->read);
	case GT_COL_OFFSET:
		/* Unbound objects sort after every bound one. */
		return cmp_u64(a->gtt_size ? a->gtt_offset : UINT64_MAX,
			       b->gtt_size ? b->gtt_offset : UINT64_MAX);
	case GT_COL_FLAGS:
		return cmp_u64(a->pin * 4 + (a->fence >= 0) * 2 + a->dirty,
			       b->pin * 4 + (b->fence >= 0) * 2 + b->dirty);
	case GT_COL_RSEQ:
		return cmp_u64(a->last_read_seqno, b->last_read_seqno);
	case GT_COL_WSEQ:
		return cmp_u64(a->last_write_seqno, b->last_write_seqno);
	case GT_COL_CLIENT:
		return cmp_u64(a->nowners ? (uint64_t)a->owners[0].pid : 0,
			       b->nowners ? (uint64_t)b->owners[0].pid : 0);
	case GT_COL_NAME:
		return cmp_u64(a->name, b->name);
	case GT_COL_AGE:
		/* Older (smaller creation time) is a bigger age. */
		return cmp_u64(b->created_ns, a->created_ns);
	case GT_COL_EVICTS:
		return cmp_u64(a->evicts, b->evicts);
	case GT_COL_ID:
	case GT_COL_COUNT:
		break;
	}
	return 0;
}

/* qsort has no context argument in C99; the model is single-threaded. */
static const struct gdfs_objects *sort_objs;
static enum gt_col sort_col;
static int sort_sign;

static int row_cmp(const void *pa, const void *pb)
{
	const struct gdfs_object *a = &sort_objs->v[*(const size_t *)pa];
	const struct gdfs_object *b = &sort_objs->v[*(const size_t *)pb];
	int c = compare(a, b, sort_col) * sort_sign;

	/* Ties in id order, so equal rows never swap between refreshes. */
	return c ? c : cmp_u64(a->id, b->id);
}

int gt_model_update(struct gt_model *m, const struct gdfs_objects *objs, uint64_t now_real_ns)
{
	size_t i;

	if (objs->n > m->cap) {
		size_t *rows = realloc(m->rows, objs->n * sizeof(*rows));

		if (!rows)
			return -ENOMEM;
		m->rows = rows;
		m->cap = objs->n;
	}
	m->nrows = 0;
	for (i = 0; i < objs->n; i++)
		if (gt_filter_match(&m->filter, &objs->v[i]))
			m->rows[m->nrows++] = i;
	m->now_real_ns = now_real_ns;
	sort_objs = objs;
	sort_col = m->sort;
	sort_sign = col_descends(m->sort) ? -1 : 1;
	if (m->invert)
		sort_sign = -sort_sign;
	if (m->nrows)
		qsort(m->rows, m->nrows, sizeof(*m->rows), row_cmp);
	return 0;
}

long gt_model_search(const struct gt_model *m, const struct gdfs_objects *objs,
		     const char *needle, size_t from)
{
	size_t k, i;

	for (k = 0; k < m->nrows; k++) {
		i = (from + k) % m->nrows;
		if (m->rows[i] < objs->n && gt_search_match(needle, &objs->v[m->rows[i]]))
			return (long)i;
	}
	return -1;
}

/* The words of the events view: the driver's event types and gemtop's
 * own hang rows. */
static bool event_word(const char *w)
{
	unsigned int i;

	for (i = 0; i < GDFS_EV_OTHER; i++)
		if (!strcmp(gdfs_event_type_names[i], w))
			return true;
	return !strcmp(w, "hang");
}

int gt_event_filter_parse(const char *text, struct gt_filter *f, struct strbuf *err)
{
	char copy[128], *tok, *save = NULL;
	const char *names[GDFS_EV_OTHER + 2], *guess;
	struct gt_filter nf;
	unsigned int i, n = 0;

	for (i = 0; i < GDFS_EV_OTHER; i++)
		names[n++] = gdfs_event_type_names[i];
	names[n++] = "hang";
	names[n++] = "id:";
	memset(&nf, 0, sizeof(nf));
	snprintf(nf.text, sizeof(nf.text), "%s", text ? text : "");
	snprintf(copy, sizeof(copy), "%s", nf.text);
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		struct gt_term *t = &nf.or_terms[nf.nterms];

		if (nf.nterms == GT_MAX_TERMS) {
			strbuf_addf(err, "at most %d filter terms", GT_MAX_TERMS);
			return -EINVAL;
		}
		memset(t, 0, sizeof(*t));
		if (!strncmp(tok, "id:", 3)) {
			if (parse_u64(tok + 3, &t->num)) {
				strbuf_addf(err, "bad id '%s'", tok + 3);
				return -EINVAL;
			}
			t->kind = GT_TERM_ID;
		} else if (event_word(tok)) {
			t->kind = GT_TERM_TEXT;
			snprintf(t->text, sizeof(t->text), "%s", tok);
		} else {
			guess = tool_suggest(tok, names, n);
			if (guess)
				strbuf_addf(err, "unknown event type '%s' (did you mean '%s'?)",
					    tok, guess);
			else
				strbuf_addf(err, "unknown event type '%s' (bind, unbind, "
					    "evict, domain, submit, wait, retire, purge, hang, "
					    "id:N)", tok);
			return -EINVAL;
		}
		nf.nterms++;
	}
	*f = nf;
	return 0;
}

bool gt_event_filter_match(const struct gt_filter *f, const struct gdfs_event *e)
{
	bool any_type = false, type_ok = false;
	unsigned int i;

	for (i = 0; i < f->nterms; i++) {
		const struct gt_term *t = &f->or_terms[i];

		if (t->kind == GT_TERM_ID && e->obj != t->num)
			return false;
		if (t->kind != GT_TERM_TEXT)
			continue;
		/* Types: any of them. */
		any_type = true;
		if (!strcmp(e->type == GDFS_EV_OTHER ? e->type_name :
			    gdfs_event_type_name(e->type), t->text))
			type_ok = true;
	}
	return !any_type || type_ok;
}
