/*
 * Command lines and scripts: split a line into words (quotes, backslash,
 * '#' comments), expand $name and ${name}, recognise `name = verb ...`,
 * and run lines separated by ';' or newlines with -e and -x; `repeat N
 * { ... }` runs a block N times.  Messages name the script and the line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session.h"
#include "util.h"

struct words {
	char **v;
	int n, alloc;
};

static void words_free(struct words *w)
{
	int i;

	for (i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	w->v = NULL;
	w->n = w->alloc = 0;
}

static int words_push(struct words *w, struct strbuf *sb)
{
	if (w->n + 1 >= w->alloc) {
		int na = w->alloc ? w->alloc * 2 : 8;
		char **nv = realloc(w->v, na * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		w->v = nv;
		w->alloc = na;
	}
	w->v[w->n++] = strbuf_detach(sb, NULL);
	w->v[w->n] = NULL;
	return 0;
}

static bool is_name_char(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

/* Expand $name or ${name} at *pp into sb; returns -ENOENT for an unset
 * variable (a typo must not silently become an empty handle). */
static int expand_var(struct gemctl *ctl, const char **pp, struct strbuf *sb,
		      struct strbuf *err)
{
	const char *p = *pp + 1, *start, *val;
	bool brace = false;
	char name[64];
	size_t len;

	if (*p == '{') {
		brace = true;
		p++;
	}
	start = p;
	while (is_name_char(*p, p == start))
		p++;
	len = p - start;
	if (!len || len >= sizeof(name) || (brace && *p != '}')) {
		/* Not a variable reference: keep the '$' literally. */
		strbuf_addch(sb, '$');
		*pp += 1;
		return 0;
	}
	memcpy(name, start, len);
	name[len] = '\0';
	if (brace)
		p++;
	val = gemctl_var_get(ctl, name);
	if (!val) {
		strbuf_addf(err, "unset variable '%s'", name);
		return -ENOENT;
	}
	strbuf_addstr(sb, val);
	*pp = p;
	return 0;
}

/*
 * Split one command (up to an unquoted ';', newline or end) starting at
 * *pp into words.  Returns 0 and advances *pp past the separator, or
 * -EINVAL with err set.
 */
static int split_command(struct gemctl *ctl, const char **pp, struct words *w,
			 struct strbuf *err)
{
	const char *p = *pp;
	struct strbuf sb = STRBUF_INIT;
	bool in_word = false;
	int ret = 0;

	for (;;) {
		char c = *p;

		if (c == '\0' || c == '\n' || c == ';') {
			if (c)
				p++;
			break;
		}
		if (c == ' ' || c == '\t' || c == '\r') {
			if (in_word && (ret = words_push(w, &sb)) < 0)
				goto out;
			in_word = false;
			p++;
			continue;
		}
		if (c == '#' && !in_word) {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		in_word = true;
		if (c == '\'') {
			const char *end = strchr(p + 1, '\'');

			if (!end) {
				strbuf_addstr(err, "unterminated quote");
				ret = -EINVAL;
				goto out;
			}
			strbuf_add(&sb, p + 1, end - p - 1);
			p = end + 1;
		} else if (c == '"') {
			p++;
			while (*p && *p != '"') {
				if (*p == '\\' && p[1]) {
					strbuf_addch(&sb, p[1]);
					p += 2;
				} else if (*p == '$') {
					if ((ret = expand_var(ctl, &p, &sb, err)) < 0)
						goto out;
				} else {
					strbuf_addch(&sb, *p++);
				}
			}
			if (*p != '"') {
				strbuf_addstr(err, "unterminated quote");
				ret = -EINVAL;
				goto out;
			}
			p++;
		} else if (c == '\\' && p[1]) {
			strbuf_addch(&sb, p[1]);
			p += 2;
		} else if (c == '$') {
			if ((ret = expand_var(ctl, &p, &sb, err)) < 0)
				goto out;
		} else {
			strbuf_addch(&sb, c);
			p++;
		}
	}
	if (in_word)
		ret = words_push(w, &sb);
out:
	strbuf_release(&sb);
	if (ret < 0) {
		/* Skip the rest of the failed command. */
		while (*p && *p != '\n' && *p != ';')
			p++;
		if (*p)
			p++;
	}
	*pp = p;
	if (ret < 0 && !err->len)
		strbuf_addstr(err, strerror(-ret));
	return ret;
}

static bool valid_var_name(const char *s)
{
	const char *p;

	if (!is_name_char(*s, true))
		return false;
	for (p = s; *p; p++)
		if (!is_name_char(*p, false))
			return false;
	return p - s < 64;
}

static int run_words(struct gemctl *ctl, struct words *w)
{
	const char *assign = NULL;
	char **argv = w->v;
	int argc = w->n, ret;

	if (!argc)
		return GEMCTL_OK;
	if (ctl->xtrace) {
		int i;

		fputs("+", stderr);
		for (i = 0; i < argc; i++)
			fprintf(stderr, " %s", argv[i]);
		fputc('\n', stderr);
	}
	if (argc >= 3 && !strcmp(argv[1], "=") && valid_var_name(argv[0])) {
		assign = argv[0];
		argv += 2;
		argc -= 2;
	}
	strbuf_reset(&ctl->result);
	if (assign) {
		bool quiet = ctl->quiet, json = ctl->json;

		/* The value goes into the variable, not to stdout. */
		ctl->quiet = true;
		ctl->json = false;
		ctl->capture = true;
		ret = gemctl_run_argv(ctl, argc, argv);
		ctl->capture = false;
		ctl->quiet = quiet;
		ctl->json = json;
		if (ret == GEMCTL_OK) {
			if (!ctl->result.len)
				return gemctl_error(ctl, GEMCTL_USAGE,
						    "%s gives no value to assign",
						    argv[0]);
			if (gemctl_var_set(ctl, assign, ctl->result.buf) < 0)
				return gemctl_error(ctl, GEMCTL_FAILED, "%s",
						    strerror(ENOMEM));
		}
		return ret;
	}
	return gemctl_run_argv(ctl, argc, argv);
}

static int script_error(struct gemctl *ctl, const char *msg)
{
	const char *verb = ctl->verb;
	int ret;

	ctl->verb = NULL;
	ret = gemctl_error(ctl, GEMCTL_USAGE, "%s", msg);
	ctl->verb = verb;
	return ret;
}

static unsigned int count_lines(const char *from, const char *to)
{
	unsigned int n = 0;

	for (; from < to; from++)
		n += *from == '\n';
	return n;
}

/* Past the '}' that closes the block whose '{' is just before p, outside
 * quotes and comments; NULL if none does. */
static const char *block_end(const char *p)
{
	unsigned int depth = 1;

	for (; *p; p++) {
		if (*p == '\'' || *p == '"') {
			const char *q = strchr(p + 1, *p);

			if (!q)
				return NULL;
			p = q;
		} else if (*p == '#') {
			while (p[1] && p[1] != '\n')
				p++;
		} else if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '{') {
			depth++;
		} else if (*p == '}' && !--depth) {
			return p + 1;
		}
	}
	return NULL;
}

static int run_text(struct gemctl *ctl, const char *text, unsigned int line,
		    bool *stop);

/*
 * `repeat N { COMMANDS }` at *pp (N may be a $variable; the block may span
 * lines): run the block N times, honouring -e.  *pp ends past the '}'.
 */
static int run_repeat(struct gemctl *ctl, const char **pp, unsigned int line,
		      bool *stop)
{
	const char *p = *pp + strlen("repeat"), *open = strchr(p, '{'), *nl, *end;
	struct strbuf head = STRBUF_INIT, err = STRBUF_INIT, body = STRBUF_INIT;
	struct words w = { 0 };
	const char *hp;
	uint64_t n = 0, i;
	int status = GEMCTL_OK;

	nl = strchr(p, '\n');
	if (!open || (nl && nl < open)) {
		*pp = nl ? nl : p + strlen(p);
		return script_error(ctl, "repeat: expected 'repeat N { COMMANDS }'");
	}
	end = block_end(open + 1);
	if (!end) {
		*pp = p + strlen(p);
		return script_error(ctl, "repeat: no '}' closes the block opened here");
	}
	*pp = end;
	strbuf_add(&head, p, open - p);
	hp = head.buf;
	if (split_command(ctl, &hp, &w, &err) < 0) {
		status = script_error(ctl, err.buf);
		goto out;
	}
	if (w.n != 1 || parse_u64(w.v[0], &n)) {
		status = script_error(ctl, "repeat: expected a count before '{'");
		goto out;
	}
	strbuf_add(&body, open + 1, end - 1 - (open + 1));
	for (i = 0; i < n && !*stop && !gemctl_interrupted; i++)
		status = run_text(ctl, body.buf, line, stop);	/* '{' is on line */
out:
	words_free(&w);
	strbuf_release(&head);
	strbuf_release(&err);
	strbuf_release(&body);
	return status;
}

static bool starts_repeat(const char *p)
{
	return !strncmp(p, "repeat", 6) && (p[6] == ' ' || p[6] == '\t');
}

/* Run the commands of text, whose first line is line of the script; *stop
 * is set when -e ends the script. */
static int run_text(struct gemctl *ctl, const char *text, unsigned int line,
		    bool *stop)
{
	const char *p = text, *seen = text;
	int status = GEMCTL_OK;
	bool first = true;

	while (*p && !*stop) {
		struct strbuf err = STRBUF_INIT;
		struct words w = { 0 };
		int ret;

		p += strspn(p, " \t\r");
		/* A Ctrl-C ends the command it interrupts, not the ones after
		 * it; before the first, it is the caller's (a session's holder
		 * clears it when the command's turn comes). */
		if (!first)
			gemctl_interrupted = 0;
		first = false;
		line += count_lines(seen, p);
		seen = p;
		ctl->script_line = line;
		if (starts_repeat(p)) {
			status = run_repeat(ctl, &p, line, stop);
			if (*p == ';' || *p == '\n')
				p++;
		} else {
			ret = split_command(ctl, &p, &w, &err);
			if (ret < 0)
				status = script_error(ctl, err.buf);
			else if (w.n)
				status = run_words(ctl, &w);
		}
		line += count_lines(seen, p);
		seen = p;
		strbuf_release(&err);
		words_free(&w);
		if (status && ctl->errexit)
			*stop = true;
	}
	return status;
}

int gemctl_run_line(struct gemctl *ctl, const char *line)
{
	bool stop = false;

	return run_text(ctl, line, 1, &stop);
}

int gemctl_run_script(struct gemctl *ctl, const char *text)
{
	bool stop = false;

	return run_text(ctl, text, 1, &stop);
}

/* Run a script read from fd, its messages naming name and the line. */
static int run_named_fd(struct gemctl *ctl, int fd, const char *name)
{
	const char *saved_name = ctl->script_name;
	unsigned int saved_line = ctl->script_line;
	int ret;

	ctl->script_name = name;
	ret = gemctl_run_fd(ctl, fd);
	ctl->script_name = saved_name;
	ctl->script_line = saved_line;
	return ret;
}

int gemctl_run_stdin(struct gemctl *ctl)
{
	return run_named_fd(ctl, STDIN_FILENO, "<stdin>");
}

int gemctl_run_fd(struct gemctl *ctl, int fd)
{
	struct strbuf sb = STRBUF_INIT;
	long n;
	int ret;

	n = strbuf_read_fd(&sb, fd);
	if (n < 0) {
		strbuf_release(&sb);
		return gemctl_error(ctl, GEMCTL_FAILED, "cannot read script: %s",
				    strerror((int)-n));
	}
	ret = gemctl_run_script(ctl, sb.buf);
	strbuf_release(&sb);
	return ret;
}

int gemctl_run_file(struct gemctl *ctl, const char *path)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return gemctl_error(ctl, GEMCTL_USAGE, "cannot open %s: %s", path,
				    strerror(errno));
	ret = run_named_fd(ctl, fd, path);
	close(fd);
	return ret;
}
