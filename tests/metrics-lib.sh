# Helpers for the metrics tests (sourced after test-lib.sh and
# gemctl-lib.sh).

HTTP="python3 $GEMKIT_SRC_DIR/tests/metrics-http.py"

# test_skip 'what it checks' 'why not here': a TAP skip.
test_skip () {
	test_count=$((test_count + 1))
	echo "ok $test_count - $1 # SKIP $2"
}

have_microhttpd () {
	grep -q '^#define HAVE_MICROHTTPD 1' "$GEMKIT_BUILD_DIR/config.h"
}

# The ADDR:PORT a gemd started with --metrics logged in LOG.
metrics_addr () {
	sed -n 's|.*metrics at http://\(.*\)/metrics$|\1|p' "$1" | tail -n 1
}

# promtool_check FILE: the Prometheus project's own parser and linter
# accept the 0.0.4 exposition in FILE.
promtool_check () {
	promtool check metrics <"$1"
}

# openmetrics_check FILE: the Prometheus Python client's OpenMetrics
# parser (strict: # EOF, _total, units, escapes) accepts FILE.  Debian's
# python3-prometheus-client is /usr/bin/python3's, which may not be the
# python3 first on PATH.
OM_PYTHON=
for py in python3 /usr/bin/python3; do
	if "$py" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
		OM_PYTHON=$py
		break
	fi
done

openmetrics_check () {
	"$OM_PYTHON" -c '
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
n = sum(1 for _ in text_string_to_metric_families(open(sys.argv[1]).read()))
if n == 0:
    sys.exit("no families")
' "$1"
}

have_openmetrics_parser () {
	test -n "$OM_PYTHON"
}
