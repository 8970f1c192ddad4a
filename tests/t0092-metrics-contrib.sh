#!/bin/sh
# contrib/: the alert rules pass promtool (syntax, and unit tests of each
# alert on made-up series), and every metric the rules and the Grafana
# dashboard name is one gemd exports.
test_description='contrib: Prometheus rules and the Grafana dashboard'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"
. "$GEMKIT_SRC_DIR/tests/metrics-lib.sh"

RULES="$GEMKIT_SRC_DIR/contrib/prometheus/gemkit-rules.yml"
DASH="$GEMKIT_SRC_DIR/contrib/grafana/gemkit-dashboard.json"

if command -v promtool >/dev/null 2>&1; then
	test_expect_success 'promtool check rules accepts the rules' '
		promtool check rules "$RULES" >out &&
		grep "SUCCESS: 4 rules found" out
	'
	test_expect_success 'promtool test rules: each alert fires when it should, only then' '
		cp "$RULES" "$GEMKIT_SRC_DIR/contrib/prometheus/gemkit-rules.test.yml" . &&
		promtool test rules gemkit-rules.test.yml
	'
else
	test_skip 'promtool check rules accepts the rules' \
		'promtool not installed (Debian package prometheus)'
	test_skip 'promtool test rules: each alert fires when it should, only then' \
		'promtool not installed (Debian package prometheus)'
fi

test_expect_success 'the metrics gemd exports' '
	start_gemd --no-debugfs &&
	gemctl metrics | sed -n "s/^# TYPE \([a-z_]*\) .*/\1/p" | sort -u >exported &&
	grep -x gemkit_hangs_total exported &&
	grep -x gemkit_client_object_bytes exported
'

test_expect_success 'the rules and the dashboard name only exported metrics' '
	# (not dri/0/gemkit_errors, a file a description names)
	cat "$RULES" "$DASH" | grep -o "[^/a-z_]\(gemkit\|process\)_[a-z_]*" |
		cut -c2- | sort -u >named &&
	test -s named &&
	comm -23 named exported >unknown &&
	test_must_be_empty unknown
'

test_expect_success 'the dashboard is JSON with a query in every panel' '
	python3 - "$DASH" <<-\EOP
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert d["uid"] == "gemkit-farm" and d["panels"]
	ids = [p["id"] for p in d["panels"]]
	assert len(ids) == len(set(ids)), ids
	for p in d["panels"]:
	    assert p["targets"] and all(t["expr"] for t in p["targets"]), p["title"]
	EOP
'

test_done
