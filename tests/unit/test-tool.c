/* Unit tests of libgemtool: the JSON writer and the option tables. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gemtest.h"
#include "gj.h"
#include "toolopt.h"
#include "units.h"

enum { OPT_LONG_ONLY = 256 };

static const struct tool_opt sample_opts[] = {
	{ "device", 'D', 'D', TOOL_ARG_VALUE, "PATH", "the socket\nsecond line" },
	{ "hex", 0, 'x', TOOL_ARG_NONE, NULL, "a hex dump" },
	{ "output", 'o', 'o', TOOL_ARG_FILE, "FILE", "write to FILE" },
	{ "long-only", 0, OPT_LONG_ONLY, TOOL_ARG_VALUE, "N", "only long" },
	/* Its id is another option's short letter: the index keeps them apart. */
	{ "fake-d", 0, 'd', TOOL_ARG_NONE, NULL, "an id that is a letter" },
	TOOL_OPT_END
};

/* Parse argv (a NULL-terminated list) and record the ids and values. */
static int parse(const char *const *words, bool stop, char *ids, size_t size,
		 struct strbuf *vals)
{
	char *argv[16];
	int argc = 0, c;
	size_t n = 0;
	struct tool_opt_parser p;

	while (words[argc])
		argv[argc] = (char *)words[argc], argc++;
	argv[argc] = NULL;
	gt_assert_eq(tool_opt_parser_init(&p, sample_opts, stop), 0);
	while ((c = tool_opt_next(&p, argc, argv)) != -1) {
		if (n + 1 < size)
			ids[n++] = c == OPT_LONG_ONLY ? 'L' : (char)c;
		if (optarg && c != '?')
			strbuf_addf(vals, "%s;", optarg);
	}
	ids[n] = '\0';
	return optind;
}

static char *help_text(const struct tool_opt *opts, int width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	gt_assert(f != NULL);
	tool_opt_print_help(f, opts, width);
	fclose(f);
	return buf;
}

/* What the parser says of one bad word (sample_opts). */
static const char *opt_error(const char *word)
{
	static struct tool_opt_parser p;
	char *av[] = { (char *)"v", (char *)word, NULL };

	tool_opt_parser_init(&p, sample_opts, false);
	gt_assert_eq(tool_opt_next(&p, 2, av), '?');
	return p.error;
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);

	gemtest_subtest("json-compact-in-order") {
		gj *doc = gj_doc("gemtest", 3), *arr = gj_array(), *o = gj_object();

		gj_uint(doc, "big", UINT64_MAX);
		gj_int(doc, "neg", -5);
		gj_str(doc, "path", "a/b \"q\" \\ \n\x01");
		gj_bool(doc, "yes", true);
		gj_null(doc, "none");
		gj_fixed(doc, "pct", 12.34567, 3);
		gj_fixed(doc, "nan", NAN, 3);
		gj_push(arr, gj_new_int(1));
		gj_push(arr, gj_new_str("x"));
		gj_uint(o, "k", 7);
		gj_push(arr, o);
		gj_set(doc, "list", arr);
		gt_assert_f(!strcmp(gj_text(doc),
			"{\"schema_version\":3,\"tool\":\"gemtest\",\"tool_version\":\""
			PACKAGE_VERSION "\",\"big\":18446744073709551615,\"neg\":-5,"
			"\"path\":\"a/b \\\"q\\\" \\\\ \\n\\u0001\",\"yes\":true,"
			"\"none\":null,\"pct\":12.346,\"nan\":0.000,"
			"\"list\":[1,\"x\",{\"k\":7}]}"), "got %s", gj_text(doc));
		gj_free(doc);
	}

	gemtest_subtest("json-null-builders-do-nothing") {
		struct strbuf sb = STRBUF_INIT;
		gj *a = gj_array();

		/* No document (--json off): nothing is built, values are freed
		 * (ASan's leak check holds this). */
		gj_uint(NULL, "k", 1);
		gj_str(NULL, "k", "v");
		gj_fixed(NULL, "k", 1.0, 1);
		gj_set(NULL, "k", gj_new_str("freed"));
		gj_push(NULL, gj_new_int(2));
		gj_addto(&sb, a);
		gt_assert(!strcmp(sb.buf, "[]"));
		gj_free(a);
		strbuf_release(&sb);
	}

	gemtest_subtest("json-write-one-line") {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		gj *o = gj_object();

		gj_str(o, "a", "b");
		gt_assert_eq(gj_write(f, o), 0);
		fclose(f);
		gt_assert(!strcmp(buf, "{\"a\":\"b\"}\n"));
		gj_free(o);
		free(buf);
	}

	gemtest_subtest("opts-parse-every-spelling") {
		static const char *const words[] = {
			"verb", "-D", "/s", "--hex", "pos", "--output=out", "-o", "o2",
			"--long-only", "7", "--fake-d", NULL,
		};
		struct strbuf vals = STRBUF_INIT;
		char ids[16];
		int ind = parse(words, false, ids, sizeof(ids), &vals);

		gt_assert_f(!strcmp(ids, "DxooLd"), "ids %s", ids);
		gt_assert_f(!strcmp(vals.buf, "/s;out;o2;7;"), "values %s", vals.buf);
		/* getopt_long moved the operand behind the options. */
		gt_assert_eq(ind, 10);
		strbuf_release(&vals);
	}

	gemtest_subtest("opts-stop-at-operand") {
		static const char *const words[] = { "gemctl", "--hex", "read", "-D", "x", NULL };
		struct strbuf vals = STRBUF_INIT;
		char ids[16];
		int ind = parse(words, true, ids, sizeof(ids), &vals);

		gt_assert(!strcmp(ids, "x"));
		gt_assert_eq(ind, 2);
		strbuf_release(&vals);
	}

	gemtest_subtest("opts-unknown-and-missing-value") {
		static const char *const unknown[] = { "v", "--nope", NULL };
		static const char *const missing[] = { "v", "--output", NULL };
		static const char *const short_unknown[] = { "v", "-d", NULL };
		struct strbuf vals = STRBUF_INIT;
		char ids[16];

		opterr = 0;
		parse(unknown, false, ids, sizeof(ids), &vals);
		gt_assert(!strcmp(ids, "?"));
		parse(missing, false, ids, sizeof(ids), &vals);
		gt_assert(!strcmp(ids, "?"));
		/* 'd' is an id, not a short option. */
		parse(short_unknown, false, ids, sizeof(ids), &vals);
		gt_assert(!strcmp(ids, "?"));
		opterr = 1;
		strbuf_release(&vals);
	}

	gemtest_subtest("opts-find") {
		gt_assert(tool_opt_find(sample_opts, "--hex") == &sample_opts[1]);
		gt_assert(tool_opt_find(sample_opts, "output") == &sample_opts[2]);
		gt_assert(tool_opt_find(sample_opts, "-o") == &sample_opts[2]);
		gt_assert(tool_opt_find(sample_opts, "-x") == NULL);
		gt_assert(tool_opt_find(sample_opts, "--he") == NULL);
		gt_assert_eq(tool_opt_count(sample_opts), 5);
		gt_assert_eq(tool_opt_count(NULL), 0);
	}

	gemtest_subtest("opts-help-columns") {
		char *h = help_text(sample_opts, 22);

		gt_assert_f(!strcmp(h,
			"  -D, --device PATH   the socket\n"
			"                      second line\n"
			"      --hex           a hex dump\n"
			"  -o, --output FILE   write to FILE\n"
			"      --long-only N   only long\n"
			"      --fake-d        an id that is a letter\n"), "got:\n%s", h);
		free(h);
		/* A name wider than the column: the text starts the next line. */
		h = help_text(sample_opts + 3, 12);
		gt_assert_f(!strncmp(h, "      --long-only N\n            only long\n",
				     strlen("      --long-only N\n            only long\n")),
			    "got:\n%s", h);
		free(h);
	}

	gemtest_subtest("suggest-by-edit-distance") {
		static const char *const verbs[] = { "create", "close", "copy", "wait",
						     "wait-hang", "info" };

		gt_assert_eq(tool_edit_distance("create", "create"), 0);
		gt_assert_eq(tool_edit_distance("craete", "create"), 1);	/* a swap */
		gt_assert_eq(tool_edit_distance("", "abc"), 3);
		gt_assert_eq(tool_edit_distance("kitten", "sitting"), 3);
		gt_assert(!strcmp(tool_suggest("craete", verbs, 6), "create"));
		gt_assert(!strcmp(tool_suggest("wiat", verbs, 6), "wait"));
		gt_assert(!strcmp(tool_suggest("wait-hnag", verbs, 6), "wait-hang"));
		gt_assert(tool_suggest("frobnicate", verbs, 6) == NULL);
		gt_assert(tool_suggest("create", verbs, 6) == NULL);	/* exact: no hint */
	}

	gemtest_subtest("opts-error-in-words") {
		gt_assert_f(!strcmp(opt_error("--outptu"),
				    "unknown option '--outptu' (did you mean '--output'?)"),
			    "%s", opt_error("--outptu"));
		gt_assert(!strcmp(opt_error("--output"), "option '--output' needs a value"));
		gt_assert(!strcmp(opt_error("-Z"), "unknown option '-Z'"));
	}

	gemtest_subtest("units-for-people") {
		char buf[80];

		tool_fmt_size(buf, sizeof(buf), 131072);
		gt_assert(!strcmp(buf, "128K"));
		tool_fmt_age(buf, sizeof(buf), 98500000000ull);
		gt_assert(!strcmp(buf, "98.5s"));
		tool_fmt_age(buf, sizeof(buf), 101000000000ull);
		gt_assert(!strcmp(buf, "1m41s"));
		setenv("TZ", "UTC", 1);
		tzset();
		tool_fmt_time(buf, sizeof(buf), 1325376000ull * 1000000000ull,
			      1325376192ull * 1000000000ull);
		gt_assert_f(!strcmp(buf, "2012-01-01 00:00:00 UTC (3m12s ago)"), "%s", buf);
		tool_fmt_time(buf, sizeof(buf), 1325376000ull * 1000000000ull, 0);
		gt_assert_f(!strcmp(buf, "2012-01-01 00:00:00 UTC (in the future)"), "%s", buf);
	}

	gemtest_subtest("opts-too-many") {
		struct tool_opt many[TOOL_OPT_MAX + 2];
		struct tool_opt_parser p;
		int i;

		for (i = 0; i < TOOL_OPT_MAX + 1; i++)
			many[i] = (struct tool_opt){ "x", 0, 'x', TOOL_ARG_NONE, NULL, "" };
		many[i] = (struct tool_opt)TOOL_OPT_END;
		gt_assert_eq(tool_opt_parser_init(&p, many, false), -E2BIG);
	}

	return gemtest_exit();
}
