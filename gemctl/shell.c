/*
 * The interactive shell: readline (callback interface, so Ctrl-C at the
 * prompt clears the line and Ctrl-C during a verb interrupts only the
 * verb), completion from complete.c, history in
 * $XDG_STATE_HOME/gemctl/history.  Without readline: a plain prompt.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

#include "complete.h"
#include "session.h"

#ifdef HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>

#define PROMPT "gemctl> "
#define HISTORY_MAX 1000

static struct gemctl *shell_ctl;
static bool shell_done;
static int shell_status;

static int history_path(struct strbuf *sb)
{
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");

	if (state && *state)
		strbuf_addf(sb, "%s/gemctl", state);
	else if (home && *home)
		strbuf_addf(sb, "%s/.local/state/gemctl", home);
	else
		return -1;
	return 0;
}

static void mkdir_p(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0700);
			*p = '/';
		}
	}
	mkdir(path, 0700);
}

/* --- completion ---------------------------------------------------------- */

struct cands {
	char **v;
	size_t n, alloc;
};

static struct cands cands;

static void add_cand(const char *c, void *arg)
{
	struct cands *cs = arg;

	if (cs->n == cs->alloc) {
		size_t na = cs->alloc ? cs->alloc * 2 : 32;
		char **nv = realloc(cs->v, na * sizeof(*nv));

		if (!nv)
			return;
		cs->v = nv;
		cs->alloc = na;
	}
	cs->v[cs->n] = strdup(c);
	if (cs->v[cs->n])
		cs->n++;
}

static void cands_clear(void)
{
	size_t i;

	for (i = 0; i < cands.n; i++)
		free(cands.v[i]);
	cands.n = 0;
}

static char *cand_generator(const char *text, int state)
{
	static size_t next;

	(void)text;
	if (!state)
		next = 0;
	if (next < cands.n)
		return strdup(cands.v[next++]);
	return NULL;
}

/* Split the current command (after the last ';') up to the cursor. */
static char **shell_completion(const char *text, int start, int end)
{
	char *line, *cmd, *p, *save = NULL, *tok;
	char **words = NULL;
	int n = 0;
	unsigned int flags;

	(void)end;
	rl_attempted_completion_over = 1;
	line = strndup(rl_line_buffer, (size_t)start);
	if (!line)
		return NULL;
	cmd = strrchr(line, ';');
	cmd = cmd ? cmd + 1 : line;
	words = calloc(strlen(cmd) / 2 + 3, sizeof(*words));
	if (!words) {
		free(line);
		return NULL;
	}
	for (p = cmd; (tok = strtok_r(p, " \t", &save)); p = NULL)
		words[n++] = tok;
	words[n++] = (char *)text;
	cands_clear();
	flags = gemctl_complete(shell_ctl, n, words, true, add_cand, &cands);
	free(words);
	free(line);
	if (flags & GEMCTL_COMPLETE_WANT_FILES) {
		char *f;
		int i = 0;

		while ((f = rl_filename_completion_function(text, i++))) {
			add_cand(f, &cands);
			free(f);
		}
		rl_filename_completion_desired = 1;
	}
	if (!cands.n)
		return NULL;
	return rl_completion_matches(text, cand_generator);
}

/* --- the loop ------------------------------------------------------------ */

static void on_line(char *line)
{
	char *p;

	if (!line) {
		shell_done = true;
		rl_callback_handler_remove();
		putchar('\n');
		return;
	}
	for (p = line; *p == ' ' || *p == '\t'; p++)
		;
	if (*p) {
		add_history(line);
		if (!strcmp(p, "exit") || !strcmp(p, "quit")) {
			shell_done = true;
			rl_callback_handler_remove();
			free(line);
			return;
		}
		shell_status = gemctl_run_line(shell_ctl, line);
		gemctl_interrupted = 0;
	}
	free(line);
}

int gemctl_shell(struct gemctl *ctl)
{
	struct strbuf hist = STRBUF_INIT;
	bool have_hist;
	fd_set fds;

	shell_ctl = ctl;
	/* A session's holder runs one shell after another. */
	shell_done = false;
	shell_status = 0;
	rl_readline_name = "gemctl";
	rl_attempted_completion_function = shell_completion;
	rl_basic_word_break_characters = " \t;";
	have_hist = history_path(&hist) == 0;
	if (have_hist) {
		mkdir_p(hist.buf);
		strbuf_addstr(&hist, "/history");
		read_history(hist.buf);
	}
	puts("gemctl " PACKAGE_VERSION " shell: 'help' lists the verbs, 'exit' leaves.");
	rl_callback_handler_install(PROMPT, on_line);
	while (!shell_done) {
		FD_ZERO(&fds);
		FD_SET(STDIN_FILENO, &fds);
		if (select(STDIN_FILENO + 1, &fds, NULL, NULL, NULL) < 0) {
			if (errno != EINTR)
				break;
			if (gemctl_interrupted) {
				/* Ctrl-C at the prompt: drop the line, new prompt. */
				gemctl_interrupted = 0;
				rl_replace_line("", 0);
				rl_crlf();
				rl_on_new_line();
				rl_redisplay();
			}
			continue;
		}
		rl_callback_read_char();
	}
	if (!shell_done)
		rl_callback_handler_remove();
	if (have_hist) {
		write_history(hist.buf);
		history_truncate_file(hist.buf, HISTORY_MAX);
	}
	strbuf_release(&hist);
	cands_clear();
	free(cands.v);
	return shell_status;
}

#else /* !HAVE_READLINE */

int gemctl_shell(struct gemctl *ctl)
{
	struct strbuf line = STRBUF_INIT;
	int c, status = 0;

	for (;;) {
		fputs("gemctl> ", stdout);
		fflush(stdout);
		strbuf_reset(&line);
		while ((c = getchar()) != EOF && c != '\n')
			strbuf_addch(&line, c);
		if (c == EOF && !line.len)
			break;
		if (!strcmp(line.buf, "exit") || !strcmp(line.buf, "quit"))
			break;
		status = gemctl_run_line(ctl, line.buf);
		gemctl_interrupted = 0;
	}
	strbuf_release(&line);
	return status;
}

#endif
