/* Option tables (see toolopt.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolopt.h"
#include "util.h"

size_t tool_opt_count(const struct tool_opt *opts)
{
	size_t n = 0;

	while (opts && opts[n].name)
		n++;
	return n;
}

int tool_opt_parser_init(struct tool_opt_parser *p, const struct tool_opt *opts,
			 bool stop_at_operand)
{
	size_t i, n = tool_opt_count(opts), s = 0;

	memset(p, 0, sizeof(*p));
	if (n > TOOL_OPT_MAX)
		return -E2BIG;
	p->opts = opts;
	if (stop_at_operand)
		p->shortopts[s++] = '+';
	for (i = 0; i < n; i++) {
		const struct tool_opt *o = &opts[i];

		p->longopts[i] = (struct option){
			.name = o->name,
			.has_arg = o->arg == TOOL_ARG_NONE ? no_argument : required_argument,
			/* The index, so ids and short letters never collide. */
			.val = 256 + (int)i,
		};
		if (o->short_name) {
			p->shortopts[s++] = (char)o->short_name;
			if (o->arg != TOOL_ARG_NONE)
				p->shortopts[s++] = ':';
		}
	}
	p->shortopts[s] = '\0';
	/* A new scan (glibc re-initialises at 0, so '+' takes effect). */
	optind = 0;
	return 0;
}

int tool_opt_next(struct tool_opt_parser *p, int argc, char **argv)
{
	size_t i, n = tool_opt_count(p->opts);
	int c;

	/* The caller says it, with its prefix and a usage line. */
	opterr = 0;
	c = getopt_long(argc, argv, p->shortopts, p->longopts, NULL);
	if (c >= 256 && (size_t)(c - 256) < n)
		return p->opts[c - 256].id;
	if (c == '?' || c == ':') {
		tool_getopt_error(p->error, sizeof(p->error), p->longopts,
				  p->shortopts, argc, argv);
		return '?';
	}
	if (c == -1)
		return c;
	for (i = 0; i < n; i++)
		if (p->opts[i].short_name == c)
			return p->opts[i].id;
	return '?';
}

const struct tool_opt *tool_opt_find(const struct tool_opt *opts, const char *word)
{
	size_t i, n = tool_opt_count(opts);

	if (!strncmp(word, "--", 2))
		word += 2;
	else if (word[0] == '-' && word[1] && !word[2]) {
		for (i = 0; i < n; i++)
			if (opts[i].short_name == word[1])
				return &opts[i];
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(opts[i].name, word))
			return &opts[i];
	return NULL;
}

void tool_opt_print_help(FILE *f, const struct tool_opt *opts, int width)
{
	size_t i, n = tool_opt_count(opts);

	for (i = 0; i < n; i++) {
		const struct tool_opt *o = &opts[i];
		const char *h = o->help, *nl;
		int len;

		if (!h)
			continue;
		if (o->short_name)
			len = fprintf(f, "  -%c, --%s", o->short_name, o->name);
		else
			len = fprintf(f, "      --%s", o->name);
		if (o->argname)
			len += fprintf(f, " %s", o->argname);
		/* A long name runs into the text: the text starts a line. */
		if (len + 2 > width) {
			fputc('\n', f);
			len = 0;
		}
		/* Lines of the help after the first keep the column. */
		for (;;) {
			nl = strchr(h, '\n');
			fprintf(f, "%*s%.*s\n", width - len, "",
				nl ? (int)(nl - h) : (int)strlen(h), h);
			if (!nl)
				break;
			h = nl + 1;
			len = 0;
		}
	}
}

size_t tool_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d;
	/* Three rows of the optimal-string-alignment table, rotated. */
	size_t *rows, *prev2, *prev, *cur, *tmp;

	rows = calloc(3 * (lb + 1), sizeof(*rows));
	if (!rows)
		return (size_t)-1;
	prev2 = rows;
	prev = prev2 + lb + 1;
	cur = prev + lb + 1;
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];

			d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (prev[j - 1] + cost < d)
				d = prev[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
		}
		tmp = prev2;
		prev2 = prev;
		prev = cur;
		cur = tmp;
	}
	d = prev[lb];
	free(rows);
	return d;
}

const char *tool_suggest(const char *word, const char *const *cands, size_t n)
{
	size_t i, best = (size_t)-1, len = strlen(word);
	size_t limit = len / 3 ? len / 3 : 1;
	const char *found = NULL;

	for (i = 0; i < n; i++) {
		size_t d = tool_edit_distance(word, cands[i]);

		if (d < best) {
			best = d;
			found = cands[i];
		}
	}
	return best <= limit && best ? found : NULL;
}

/* The long option whose val is id, or NULL. */
static const struct option *long_by_val(const struct option *longopts, int id)
{
	for (; longopts && longopts->name; longopts++)
		if (longopts->val == id && !longopts->flag)
			return longopts;
	return NULL;
}

void tool_getopt_error(char *out, size_t size, const struct option *longopts,
		       const char *shortopts, int argc, char **argv)
{
	const char *word = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	const char *short_at;
	const struct option *o;

	if (!strncmp(word, "--", 2)) {
		const char *cands[TOOL_OPT_MAX * 2];
		size_t n = 0, len = strcspn(word + 2, "=");
		char name[64];
		const char *s;

		snprintf(name, sizeof(name), "%.*s", (int)len, word + 2);
		o = optopt ? long_by_val(longopts, optopt) : NULL;
		if (o && !strncmp(o->name, name, len)) {
			snprintf(out, size, "option '--%s' needs a value", o->name);
			return;
		}
		for (o = longopts; o && o->name && n < ARRAY_SIZE(cands); o++)
			cands[n++] = o->name;
		s = tool_suggest(name, cands, n);
		if (s)
			snprintf(out, size, "unknown option '--%s' (did you mean '--%s'?)",
				 name, s);
		else
			snprintf(out, size, "unknown option '--%s'", name);
		return;
	}
	short_at = optopt > 0 && optopt < 256 ? strchr(shortopts, optopt) : NULL;
	if (short_at && short_at[1] == ':')
		snprintf(out, size, "option '-%c' needs a value", optopt);
	else if (optopt > 0 && optopt < 256)
		snprintf(out, size, "unknown option '-%c'", optopt);
	else
		snprintf(out, size, "unknown option '%s'", word);
}
