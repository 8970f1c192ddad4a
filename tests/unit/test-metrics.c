/*
 * Unit tests of the metrics exposition (driver/metrics): the family
 * table's conventions, the Accept negotiation, and the text written from a
 * made-up snapshot (escaping, seconds, the bounded per-process rows).
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs_priv.h"
#include "gemtest.h"
#include "metrics.h"
#include "strbuf.h"
#include "util.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static const char *format_name(enum metrics_format_id id)
{
	return id == METRICS_OPENMETRICS ? "openmetrics" : "prometheus";
}

/* Write snap in format id; the caller releases sb. */
static void render(const struct debugfs_snapshot *snap, enum metrics_format_id id,
		   struct strbuf *sb)
{
	gt_assert_eq(debugfs_show_metrics(snap, sb, &metrics_formats[id]), 0);
}

static void assert_line(const struct strbuf *sb, const char *line)
{
	char *want = malloc(strlen(line) + 3);
	bool found;

	gt_assert(want);
	want[0] = '\n';
	memcpy(want + 1, line, strlen(line));
	want[strlen(line) + 1] = '\n';
	want[strlen(line) + 2] = '\0';
	found = strstr(sb->buf, want) != NULL;
	free(want);
	gt_assert_f(found, "no line '%s' in:\n%s", line, sb->buf);
}

static size_t count_prefix(const struct strbuf *sb, const char *prefix)
{
	size_t n = 0, len = strlen(prefix);
	const char *p = sb->buf;

	while (p && *p) {
		if (!strncmp(p, prefix, len))
			n++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return n;
}

int main(int argc, char **argv)
{
	gemtest_init(argc, argv);

	gemtest_subtest("families-follow-the-conventions") {
		regex_t re;
		size_t k, j;

		gt_assert_eq(regcomp(&re, "^(gemkit|process)_[a-z][a-z_]*[a-z]$",
				     REG_EXTENDED | REG_NOSUB), 0);
		for (k = 0; k < metrics_nfamilies; k++) {
			const struct metrics_family *f = &metrics_families[k];
			char suffix[32];

			gt_assert_f(!regexec(&re, f->name, 0, NULL, 0), "name %s", f->name);
			gt_assert_f(!ends_with(f->name, "_total") && !ends_with(f->name, "_info"),
				    "%s: the writer adds _total and _info", f->name);
			if (f->unit[0]) {
				snprintf(suffix, sizeof(suffix), "_%s", f->unit);
				gt_assert_f(ends_with(f->name, suffix), "%s: unit %s", f->name,
					    f->unit);
			}
			gt_assert_f((f->value == METRICS_NS) == !strcmp(f->unit, "seconds"),
				    "%s: seconds are written from nanoseconds", f->name);
			gt_assert_f(ends_with(f->name, "_bytes") == !strcmp(f->unit, "bytes"),
				    "%s: _bytes has the unit bytes", f->name);
			gt_assert_f(f->help[0] && !strpbrk(f->help, "\\\"\n"),
				    "%s: help '%s'", f->name, f->help);
			for (j = 0; j < k; j++)
				gt_assert_f(strcmp(f->name, metrics_families[j].name),
					    "%s twice", f->name);
		}
		regfree(&re);
	}

	gemtest_subtest("accept-negotiation") {
		static const struct {
			const char *accept;
			enum metrics_format_id want;
		} cases[] = {
			{ NULL, METRICS_PROMETHEUS },
			{ "", METRICS_PROMETHEUS },
			{ "*/*", METRICS_PROMETHEUS },
			{ "text/plain", METRICS_PROMETHEUS },
			{ "application/openmetrics-text", METRICS_OPENMETRICS },
			{ "Application/OpenMetrics-Text; version=1.0.0", METRICS_OPENMETRICS },
			/* Prometheus 2.42's scrape header */
			{ "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
			  "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
			  METRICS_OPENMETRICS },
			{ "text/plain;version=0.0.4;q=0.9, application/openmetrics-text;q=0.5",
			  METRICS_PROMETHEUS },
			{ "application/openmetrics-text;q=0.5, text/plain;q=0.5", METRICS_PROMETHEUS },
			{ "application/openmetrics-text;q=0", METRICS_PROMETHEUS },
			{ "application/openmetrics-text;q=0.000, */*;q=0.1", METRICS_PROMETHEUS },
			{ "application/json, application/openmetrics-text;q=0.2", METRICS_OPENMETRICS },
			{ "application/openmetrics-textx", METRICS_PROMETHEUS },
			{ ",,;;q=", METRICS_PROMETHEUS },
		};
		size_t i;

		for (i = 0; i < ARRAY_SIZE(cases); i++) {
			enum metrics_format_id got = metrics_negotiate(cases[i].accept);

			gt_assert_f(got == cases[i].want, "Accept '%s': %s, expected %s",
				    cases[i].accept ? cases[i].accept : "(none)",
				    format_name(got), format_name(cases[i].want));
		}
	}

	gemtest_subtest("values-escapes-and-bounded-clients") {
		struct debugfs_snapshot snap;
		struct snap_file files[40];
		struct strbuf om = STRBUF_INIT, prom = STRBUF_INIT;
		size_t i;

		memset(&snap, 0, sizeof(snap));
		memset(files, 0, sizeof(files));
		snap.stats.execbuffers = 12;
		snap.stats.wait_ns = 1500000001;
		snap.stats.hang_kinds[GEM_HANG_RUNAWAY] = 2;
		snap.gpu.busy_ns = 999;
		snap.aperture_size = 1 << 20;
		snap.gtt_free = 1 << 18;
		snap.list_count[GEM_LIST_ACTIVE] = 7;
		snap.taken_ns = 5000000000ull;
		snap.oldest_request_ns = 3500000000ull;
		snap.requests_outstanding = 3;
		/* 40 files of 39 processes: pid 100 has two, whose totals add up;
		 * pid 100 + i holds i MiB, so the biggest are the last. */
		for (i = 0; i < ARRAY_SIZE(files); i++) {
			files[i].id = (uint32_t)i + 1;
			files[i].pid = (pid_t)(100 + (i ? i - 1 : 0));
			snprintf(files[i].comm, sizeof(files[i].comm), "proc%zu", i);
			files[i].handle_count = 1;
			files[i].handle_bytes = (uint64_t)i << 20;
			files[i].requests = 1;
		}
		memcpy(files[1].comm, files[0].comm, sizeof(files[0].comm));
		/* The biggest process has a name that needs every escape. */
		snprintf(files[39].comm, sizeof(files[39].comm), "%s", "a\"b\\c\nd\xff");
		snap.files = files;
		snap.nfiles = ARRAY_SIZE(files);

		render(&snap, METRICS_OPENMETRICS, &om);
		render(&snap, METRICS_PROMETHEUS, &prom);

		assert_line(&om, "# TYPE gemkit_execbuffers counter");
		assert_line(&om, "gemkit_execbuffers_total 12");
		assert_line(&prom, "# TYPE gemkit_execbuffers_total counter");
		assert_line(&prom, "gemkit_execbuffers_total 12");
		assert_line(&om, "# UNIT gemkit_wait_seconds seconds");
		assert_line(&om, "gemkit_wait_seconds_total 1.500000001");
		assert_line(&om, "gemkit_gpu_busy_seconds_total 0.000000999");
		assert_line(&om, "gemkit_oldest_request_age_seconds 1.500000000");
		assert_line(&om, "gemkit_requests_outstanding 3");
		assert_line(&om, "gemkit_aperture_used_bytes 786432");
		assert_line(&om, "gemkit_objects{list=\"active\"} 7");
		assert_line(&om, "gemkit_hangs_total{kind=\"runaway\"} 2");
		assert_line(&om, "gemkit_hangs_total{kind=\"hangcheck\"} 0");
		assert_line(&om, "gemkit_clients 40");
		/* At most METRICS_CLIENTS_MAX processes, then one "other" row
		 * with the rest: 39 processes, the 23 smallest summed. */
		gt_assert_eq(count_prefix(&om, "gemkit_client_objects{"), METRICS_CLIENTS_MAX + 1);
		assert_line(&om, "gemkit_client_object_bytes{pid=\"138\",comm=\"a\\\"b\\\\c\\nd?\"} 40894464");
		assert_line(&om, "gemkit_client_object_bytes{pid=\"123\",comm=\"proc24\"} 25165824");
		/* pid 100's two files (0 and 1 MiB) and pids 101-122 (2-23 MiB). */
		assert_line(&om, "gemkit_client_objects{pid=\"other\",comm=\"other\"} 24");
		assert_line(&om, "gemkit_client_object_bytes{pid=\"other\",comm=\"other\"} 289406976");
		assert_line(&om, "gemkit_client_requests{pid=\"other\",comm=\"other\"} 24");
		gt_assert(!strstr(om.buf, "pid=\"100\""));
		assert_line(&om, "# TYPE gemkit_build info");
		assert_line(&prom, "# TYPE gemkit_build_info gauge");
		gt_assert(ends_with(om.buf, "\n# EOF\n"));
		gt_assert(!strstr(prom.buf, "# EOF") && !strstr(prom.buf, "# UNIT"));
		strbuf_release(&om);
		strbuf_release(&prom);
	}

	gemtest_subtest("a-few-clients-of-one-process") {
		struct debugfs_snapshot snap;
		struct snap_file files[3];
		struct strbuf sb = STRBUF_INIT;
		size_t i;

		memset(&snap, 0, sizeof(snap));
		memset(files, 0, sizeof(files));
		for (i = 0; i < ARRAY_SIZE(files); i++) {
			files[i].id = (uint32_t)i + 1;
			files[i].pid = 4242;
			memcpy(files[i].comm, "glxgears", 9);
			files[i].handle_count = 2;
			files[i].handle_bytes = 8192;
		}
		snap.files = files;
		snap.nfiles = ARRAY_SIZE(files);
		render(&snap, METRICS_PROMETHEUS, &sb);
		gt_assert_eq(count_prefix(&sb, "gemkit_client_objects{"), 1);
		assert_line(&sb, "gemkit_client_objects{pid=\"4242\",comm=\"glxgears\"} 6");
		assert_line(&sb, "gemkit_client_object_bytes{pid=\"4242\",comm=\"glxgears\"} 24576");
		gt_assert(!strstr(sb.buf, "other"));
		strbuf_release(&sb);
	}

	return gemtest_exit();
}
