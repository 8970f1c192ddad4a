/* Option tables (see toolopt.h). */
#include <errno.h>
#include <string.h>

#include "toolopt.h"

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
	int c = getopt_long(argc, argv, p->shortopts, p->longopts, NULL);

	if (c >= 256 && (size_t)(c - 256) < n)
		return p->opts[c - 256].id;
	if (c == -1 || c == '?' || c == ':')
		return c == ':' ? '?' : c;
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
