/* Session verbs: help, set, source, echo, handles. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "session.h"
#include "util.h"

static int cmd_help(struct gemctl *ctl, int argc, char **argv)
{
	const struct gemctl_cmd *cmd;

	if (argc > 2)
		return gemctl_usage(ctl);
	if (argc == 2) {
		cmd = gemctl_cmd_find(argv[1]);
		if (!cmd)
			return gemctl_error(ctl, GEMCTL_USAGE, "unknown verb '%s'",
					    argv[1]);
		gemctl_print_verb_help(stdout, cmd);
		return GEMCTL_OK;
	}
	puts("verbs:");
	gemctl_print_help(stdout);
	return GEMCTL_OK;
}

static int parse_onoff(struct gemctl *ctl, const char *s, bool *out)
{
	if (!strcmp(s, "on") || !strcmp(s, "1") || !strcmp(s, "true"))
		*out = true;
	else if (!strcmp(s, "off") || !strcmp(s, "0") || !strcmp(s, "false"))
		*out = false;
	else
		return gemctl_error(ctl, GEMCTL_USAGE, "expected on or off, not '%s'", s);
	return 0;
}

static int cmd_set(struct gemctl *ctl, int argc, char **argv)
{
	bool on = false;
	int ret;

	if (argc == 1) {
		printf("json %s\nquiet %s\nerrexit %s\nxtrace %s\ntimeout %llums\n",
		       ctl->json ? "on" : "off", ctl->quiet ? "on" : "off",
		       ctl->errexit ? "on" : "off", ctl->xtrace ? "on" : "off",
		       (unsigned long long)(ctl->timeout_ns / 1000000));
		return GEMCTL_OK;
	}
	if (argc != 3)
		return gemctl_usage(ctl);
	if (!strcmp(argv[1], "timeout"))
		return gemctl_parse_timeout(ctl, argv[2], &ctl->timeout_ns);
	ret = parse_onoff(ctl, argv[2], &on);
	if (ret)
		return ret;
	if (!strcmp(argv[1], "json")) {
		ctl->json = on;
	} else if (!strcmp(argv[1], "quiet")) {
		ctl->quiet = on;
	} else if (!strcmp(argv[1], "errexit")) {
		ctl->errexit = on;
	} else if (!strcmp(argv[1], "xtrace")) {
		ctl->xtrace = on;
	} else {
		return gemctl_error(ctl, GEMCTL_USAGE, "unknown setting '%s'", argv[1]);
	}
	return GEMCTL_OK;
}

static int cmd_source(struct gemctl *ctl, int argc, char **argv)
{
	if (argc != 2)
		return gemctl_usage(ctl);
	return gemctl_run_file(ctl, argv[1]);
}

static int cmd_echo(struct gemctl *ctl, int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 1; i < argc; i++)
		strbuf_addf(&sb, "%s%s", i > 1 ? " " : "", argv[i]);
	if (!ctl->capture)
		printf("%s\n", sb.buf);
	gemctl_result(ctl, "%s", sb.buf);
	strbuf_release(&sb);
	return GEMCTL_OK;
}

static int cmd_handles(struct gemctl *ctl, int argc, char **argv)
{
	gj *doc = gemctl_json_begin(ctl), *arr = gj_array();
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)argv;
	if (argc != 1) {
		gj_free(arr);
		gj_free(doc);
		return gemctl_usage(ctl);
	}
	for (i = 0; i < ctl->nhandles; i++) {
		strbuf_addf(&sb, "%s%u", i ? " " : "", ctl->handles[i].handle);
		gj_push(arr, gj_new_int(ctl->handles[i].handle));
	}
	gj_set(doc, "handles", arr);
	gemctl_say(ctl, "%s\n", sb.buf);
	gemctl_result(ctl, "%s", sb.buf);
	gemctl_json_end(ctl, doc);
	strbuf_release(&sb);
	return GEMCTL_OK;
}

const struct gemctl_cmd cmd_help_entry = {
	.name = "help",
	.args = "[VERB]",
	.summary = "list the verbs, or show one verb's usage",
	.complete = GEMCTL_COMPLETE_VERB,
	.fn = cmd_help,
	.no_device = true,
};

const struct gemctl_cmd cmd_set_entry = {
	.name = "set",
	.args = "json|quiet|errexit|xtrace on|off | timeout DUR",
	.summary = "change a session setting",
	.fn = cmd_set,
	.no_device = true,
};

const struct gemctl_cmd cmd_source_entry = {
	.name = "source",
	.args = "FILE",
	.summary = "run the commands in FILE in this session",
	.complete = GEMCTL_COMPLETE_FILE,
	.fn = cmd_source,
	.no_device = true,
};

const struct gemctl_cmd cmd_echo_entry = {
	.name = "echo",
	.args = "[WORD]...",
	.summary = "print the words (after $variable expansion)",
	.fn = cmd_echo,
	.no_device = true,
};

const struct gemctl_cmd cmd_handles_entry = {
	.name = "handles",
	.args = "",
	.summary = "list the handles this session holds",
	.fn = cmd_handles,
	.no_device = true,
};
