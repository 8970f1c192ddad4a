#!/bin/sh
# End to end with a real Prometheus (Debian's prometheus package): two
# gemds scraped every second on loopback, a workload and a hang on one,
# and the Prometheus HTTP API says that one's hang counter rose by one,
# the other's did not, and the hang alert of contrib/ fires for it.
# Every wait polls with a generous bounded deadline: nothing depends on
# how fast a busy machine scrapes.
test_description='a real Prometheus scrapes two gemds'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"
. "$GEMKIT_SRC_DIR/tests/metrics-lib.sh"

if ! command -v prometheus >/dev/null 2>&1; then
	echo "1..0 # SKIP prometheus not installed (Debian package prometheus)"
	exit 0
fi
if ! have_microhttpd; then
	echo "1..0 # SKIP gemd built without libmicrohttpd (no --metrics)"
	exit 0
fi

DEADLINE=90	# seconds, for each wait

# One series per hang kind: as many as driver/gem/hang-kinds.def declares.
KINDS=$(grep -c "^GEM_HANG_KIND(" "$GEMKIT_SRC_DIR/driver/gem/hang-kinds.def")

# gemd B: a second private daemon beside start_gemd's A.
B_SOCK="$TRASH/cardB"
B_PIDFILE="$TRASH/gemd-b.pid"
B_LOG="$TRASH/gemd-b.log"

# prom_query PROMQL: Prometheus' answer, one series per line.
prom_query () {
	$HTTP query "http://$PROM" "$1"
}

# prom_has PROMQL LINE: the answer has exactly that line.
prom_has () {
	prom_query "$1" >.q 2>/dev/null && grep -qxF "$2" .q
}

alert_fires () {
	$HTTP alerts "http://$PROM" >.alerts 2>/dev/null && grep -qxF "$1" .alerts
}

test_expect_success 'start gemd A and B with --metrics on free ports' '
	start_gemd --no-debugfs --metrics 0 &&
	test_pidfiles="$test_pidfiles $B_PIDFILE" &&
	"$GEMD" -D "$B_SOCK" --daemon --pidfile "$B_PIDFILE" --log-file "$B_LOG" \
		--no-debugfs --metrics 0 &&
	A=$(metrics_addr "$GEMD_LOG") && B=$(metrics_addr "$B_LOG") &&
	test -n "$A" && test -n "$B"
'

# Prometheus on a port that was free a moment ago, in its own data
# directory; 0 once it serves, 1 if it died (the port was taken since).
start_prometheus () {
	PROM=127.0.0.1:$($HTTP free-port) || return 1
	prometheus --config.file=prometheus.yml --storage.tsdb.path="data.$1" \
		--web.listen-address="$PROM" >"prometheus.$1.log" 2>&1 &
	PROM_PID=$!
	test_register_pid $PROM_PID
	test_wait_for $DEADLINE prometheus_ready "$1" &&
	kill -0 $PROM_PID 2>/dev/null
}

# Ready, or dead (no use waiting).
prometheus_ready () {
	kill -0 $PROM_PID 2>/dev/null || return 0
	grep -q "Server is ready to receive web requests" "prometheus.$1.log"
}

test_expect_success 'start Prometheus: 1 s scrapes of both, the contrib rules' '
	cp "$GEMKIT_SRC_DIR/contrib/prometheus/gemkit-rules.yml" rules.yml &&
	cat >prometheus.yml <<-EOC &&
	global:
	  scrape_interval: 1s
	  scrape_timeout: 1s
	  evaluation_interval: 1s
	rule_files: [rules.yml]
	scrape_configs:
	  - job_name: gemkit
	    static_configs:
	      - targets: ["$A", "$B"]
	EOC
	promtool check config prometheus.yml &&
	{ start_prometheus 1 || start_prometheus 2 || start_prometheus 3; }
'

test_expect_success 'Prometheus scrapes both (in OpenMetrics), both at 0 hangs' '
	test_wait_for $DEADLINE prom_has "up{job=\"gemkit\"} == 1" \
		"{__name__=\"up\",instance=\"$A\",job=\"gemkit\"} 1" &&
	test_wait_for $DEADLINE prom_has "up{job=\"gemkit\"} == 1" \
		"{__name__=\"up\",instance=\"$B\",job=\"gemkit\"} 1" &&
	test_wait_for $DEADLINE prom_has "count by (instance) (gemkit_hangs_total)" \
		"{instance=\"$B\"} $KINDS" &&
	prom_query "sum by (instance) (gemkit_hangs_total)" >before &&
	printf "{instance=\"%s\"} 0\n{instance=\"%s\"} 0\n" "$A" "$B" | sort >expect &&
	test_cmp expect before &&
	prom_query "gemkit_build_info" >build &&
	grep -F "instance=\"$A\"" build
'

test_expect_success 'a workload and a hang on A' '
	gemctl -c "h = create 65536; fill \$h 0 0 64 64 0xff00ff00; wait \$h
		hang --kind badop; wait-hang" >hang.out &&
	"$GEMCTL" -D "$B_SOCK" -c "h = create 4096; close \$h"
'

test_expect_success 'Prometheus: A'\''s hang counter rose by one, B'\''s did not' '
	test_wait_for $DEADLINE prom_has "sum by (instance) (gemkit_hangs_total)" \
		"{instance=\"$A\"} 1" &&
	prom_query "sum by (instance) (gemkit_hangs_total)" >after &&
	printf "{instance=\"%s\"} 1\n{instance=\"%s\"} 0\n" "$A" "$B" | sort >expect &&
	test_cmp expect after &&
	prom_query "gemkit_hangs_total{kind=\"badop\"}" >kinds &&
	grep -xF "{__name__=\"gemkit_hangs_total\",instance=\"$A\",job=\"gemkit\",kind=\"badop\"} 1" kinds &&
	prom_query "gemkit_execbuffers_total > 0" >exec &&
	grep -F "instance=\"$A\"" exec &&
	! grep -F "instance=\"$B\"" exec
'

test_expect_success 'the GemkitGPUHang alert fires for A, and no alert for B' '
	test_wait_for $DEADLINE alert_fires \
		"firing GemkitGPUHang {instance=\"$A\",job=\"gemkit\",kind=\"badop\",severity=\"warning\"}" &&
	$HTTP alerts "http://$PROM" >alerts &&
	! grep -F "instance=\"$B\"" alerts
'

# What the run saw, for the record (TAP comments).
echo "# gemd A (the hang) at $A, gemd B at $B, Prometheus at $PROM"
for f in before after kinds alerts; do
	test -f "$TRASH/$f" && sed "s/^/# $f: /" "$TRASH/$f"
done

test_done
