/*
 * Completion from the verb table (complete.h).  `gemctl --complete --
 * WORDS...` prints one candidate per line, then "@files" or "@commands"
 * when the shell should add file or program names itself; the bash and
 * zsh completions are thin wrappers around it, so they follow the table.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "bench.h"
#include "complete.h"
#include "dfs.h"
#include "session.h"
#include "util.h"
#include "workload.h"

/* The global option word names ("-D", "--device") if it takes the next
 * word as its value, else NULL. */
static const struct tool_opt *global_with_value(const char *w)
{
	const struct tool_opt *o = tool_opt_find(gemctl_global_opts, w);

	return o && o->arg != TOOL_ARG_NONE ? o : NULL;
}

/* Fixed values of some positional arguments and option values. */
struct value_list {
	const char *verb;
	const char *opt;	/* NULL: positional index pos */
	int pos;
	const char *const *values;
};

#define V(...) ((const char *const[]){ __VA_ARGS__, NULL })
static const struct value_list value_lists[] = {
	{ "hang", "--kind", 0, V("loop", "wait", "badop", "fault") },
	{ "list", "--list", 0, gdfs_list_names },
	{ "list", "--domain", 0, gdfs_domain_names },
	{ "tiling", NULL, 2, gdfs_tiling_names },
	{ "madvise", NULL, 2, V("willneed", "dontneed") },
	{ "caching", NULL, 2, V("none", "cached") },
	{ "set-domain", NULL, 2, V("cpu", "gtt", "render", "sampler", "command",
				    "instruction", "vertex", "cpu,cpu", "gtt,gtt",
				    "render,render") },
	{ "set", NULL, 1, V("json", "quiet", "errexit", "xtrace", "timeout") },
	{ "set", NULL, 2, V("on", "off") },
	{ "drop-caches", NULL, 1, gdfs_drop_names },
};

struct emitter {
	const char *prefix;
	size_t plen;
	gemctl_emit_fn emit;
	void *arg;
};

static void offer(struct emitter *e, const char *cand)
{
	if (!strncmp(cand, e->prefix, e->plen))
		e->emit(cand, e->arg);
}

static void offer_list(struct emitter *e, const char *const *v)
{
	for (; *v; v++)
		offer(e, *v);
}

static void offer_u32(struct emitter *e, uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", v);
	offer(e, buf);
}

static void offer_flink_names(struct gemctl *ctl, struct emitter *e)
{
	struct gdfs_objects objs;
	size_t i;

	for (i = 0; i < ctl->nnames; i++)
		offer_u32(e, ctl->names[i]);
	/* Every name the driver knows: quietly nothing if it is not there. */
	if (!ctl->gdfs && gdfs_open_auto(ctl->device_arg, NULL, &ctl->gdfs) < 0) {
		ctl->gdfs = NULL;
		return;
	}
	{
		struct strbuf buf = STRBUF_INIT;

		memset(&objs, 0, sizeof(objs));
		if (gdfs_read(ctl->gdfs, "gemkit_objects", &buf) >= 0 &&
		    gdfs_parse_objects(buf.buf, buf.len, &objs, NULL) >= 0)
			for (i = 0; i < objs.n; i++)
				if (objs.v[i].name)
					offer_u32(e, objs.v[i].name);
		gdfs_objects_release(&objs);
		strbuf_release(&buf);
	}
}

static const struct value_list *find_values(const char *verb, const char *opt, int pos)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(value_lists); i++) {
		const struct value_list *v = &value_lists[i];

		if (strcmp(v->verb, verb))
			continue;
		if (opt ? (v->opt && !strcmp(v->opt, opt)) : (!v->opt && v->pos == pos))
			return v;
	}
	return NULL;
}

/* Offer every option of a table that help shows, by its long name. */
static void offer_opts(struct emitter *e, const struct tool_opt *opts)
{
	size_t i, n = tool_opt_count(opts);
	char buf[64];

	for (i = 0; i < n; i++) {
		if (!opts[i].help)
			continue;
		snprintf(buf, sizeof(buf), "--%s", opts[i].name);
		offer(e, buf);
	}
}

static unsigned int complete_verb_args(struct gemctl *ctl, const struct gemctl_cmd *cmd,
				       int n, char **words, bool in_shell,
				       struct emitter *e)
{
	const struct value_list *vl;
	const char *cur = words[n - 1];
	const struct tool_opt *prev_opt = NULL, *o;
	int i, pos = 0;

	/* Count positionals before the current word; note a pending option. */
	for (i = 1; i < n - 1; i++) {
		if (words[i][0] == '-' && words[i][1]) {
			o = strchr(words[i], '=') ? NULL : tool_opt_find(cmd->opts, words[i]);
			if (o && o->arg != TOOL_ARG_NONE)
				prev_opt = o;
			continue;
		}
		if (prev_opt) {
			prev_opt = NULL;
			continue;
		}
		pos++;
	}
	if (prev_opt) {
		char buf[64];

		snprintf(buf, sizeof(buf), "--%s", prev_opt->name);
		vl = find_values(cmd->name, buf, 0);
		if (vl)
			offer_list(e, vl->values);
		return prev_opt->arg == TOOL_ARG_FILE ? GEMCTL_COMPLETE_WANT_FILES : 0;
	}
	if (cur[0] == '-') {
		/* The value of --opt is the next word: offer the bare name. */
		offer_opts(e, cmd->opts);
		offer(e, "--help");
		return 0;
	}
	pos++;		/* 1-based index of the word being completed */
	vl = find_values(cmd->name, NULL, pos);
	if (vl) {
		offer_list(e, vl->values);
		return 0;
	}
	if (cmd->complete & GEMCTL_COMPLETE_COMMAND)
		return pos == 1 ? GEMCTL_COMPLETE_WANT_COMMANDS : GEMCTL_COMPLETE_WANT_FILES;
	if ((cmd->complete & GEMCTL_COMPLETE_VERB) && pos == 1) {
		for (i = 0; i < (int)gemctl_ncmds; i++)
			offer(e, gemctl_cmds[i]->name);
		return 0;
	}
	if ((cmd->complete & GEMCTL_COMPLETE_WORKLOAD) && pos == 1) {
		/* bench has workloads of its own (and suites, micro, gl). */
		if (!strcmp(cmd->name, "bench")) {
			for (i = 0; i < (int)nworkloads; i++)
				offer(e, workloads[i]->name);
			offer(e, "seed");
			offer(e, "all");
			offer(e, "micro");
			offer(e, "gl");
			return 0;
		}
		for (i = 0; i < (int)nworkloads; i++)
			if (workloads[i]->verb)
				offer(e, workloads[i]->name);
		return 0;
	}
	if ((cmd->complete & GEMCTL_COMPLETE_FLINK) && pos == 1) {
		offer_flink_names(ctl, e);
		return 0;
	}
	if ((cmd->complete & GEMCTL_COMPLETE_HANDLE) &&
	    (pos == 1 || (pos == 2 && !strcmp(cmd->name, "copy")))) {
		/* Handles live in one gemctl process: only the shell has any. */
		if (in_shell) {
			for (i = 0; i < (int)ctl->nhandles; i++)
				offer_u32(e, ctl->handles[i].handle);
			for (i = 0; i < (int)ctl->nvars; i++) {
				char buf[80];

				snprintf(buf, sizeof(buf), "$%s", ctl->vars[i].name);
				offer(e, buf);
			}
		}
		return 0;
	}
	if (cmd->complete & GEMCTL_COMPLETE_FILE)
		return GEMCTL_COMPLETE_WANT_FILES;
	return 0;
}

unsigned int gemctl_complete(struct gemctl *ctl, int n, char **words, bool in_shell,
			     gemctl_emit_fn emit, void *arg)
{
	struct emitter e = { words[n - 1], strlen(words[n - 1]), emit, arg };
	const struct gemctl_cmd *cmd;
	const struct tool_opt *g;
	int i = 0;
	unsigned int k;

	/* Skip global options (not in the shell: its lines start with a verb). */
	while (!in_shell && i < n - 1 && words[i][0] == '-') {
		g = global_with_value(words[i]);
		/* The word being completed is this option's value. */
		if (g && i + 1 == n - 1)
			return g->arg == TOOL_ARG_FILE ? GEMCTL_COMPLETE_WANT_FILES : 0;
		if (g) {
			/* -D: flink names come from that device. */
			if (g->id == 'D')
				ctl->device_arg = words[i + 1];
			i++;
		}
		i++;
	}
	if (i >= n - 1) {
		if (!in_shell && words[n - 1][0] == '-') {
			offer_opts(&e, gemctl_global_opts);
			return 0;
		}
		for (k = 0; k < gemctl_ncmds; k++)
			offer(&e, gemctl_cmds[k]->name);
		if (in_shell) {
			offer(&e, "exit");
			offer(&e, "quit");
		}
		return 0;
	}
	/* `h = verb ...` in the shell. */
	if (in_shell && n - i >= 3 && !strcmp(words[i + 1], "=")) {
		i += 2;
		if (i == n - 1) {
			for (k = 0; k < gemctl_ncmds; k++)
				offer(&e, gemctl_cmds[k]->name);
			return 0;
		}
	}
	cmd = gemctl_cmd_find(words[i]);
	if (!cmd)
		return 0;
	return complete_verb_args(ctl, cmd, n - i, words + i, in_shell, &e);
}

static void print_candidate(const char *cand, void *arg)
{
	(void)arg;
	puts(cand);
}

int gemctl_complete_main(struct gemctl *ctl, int argc, char **argv)
{
	char *empty[] = { (char *)"" };
	unsigned int flags;

	/* getopt has taken the "--" before the words: a "--" here is the
	 * word being completed (`gemctl --<Tab>`), not a separator. */
	if (argc == 0) {
		argc = 1;
		argv = empty;
	}
	flags = gemctl_complete(ctl, argc, argv, false, print_candidate, NULL);
	if (flags & GEMCTL_COMPLETE_WANT_FILES)
		puts("@files");
	if (flags & GEMCTL_COMPLETE_WANT_COMMANDS)
		puts("@commands");
	return GEMCTL_OK;
}
