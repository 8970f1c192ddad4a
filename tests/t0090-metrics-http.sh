#!/bin/sh
# gemd --metrics: GET /metrics over HTTP, the format by Accept, and what
# bad clients get (errors, and a driver that keeps serving).
test_description='gemd --metrics over HTTP'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"
. "$GEMKIT_SRC_DIR/tests/metrics-lib.sh"

test_expect_success '--metrics: bad addresses are usage errors' '
	test_expect_code 2 "$GEMD" -D "$GEMD_SOCK" --metrics :9945 2>err &&
	grep "invalid --metrics '\'':9945'\'': no address (0.0.0.0:PORT listens on every interface)" err &&
	test_expect_code 2 "$GEMD" -D "$GEMD_SOCK" --metrics 127.0.0.1:65536 2>err &&
	grep "the port must be a number from 0 to 65535" err &&
	test_expect_code 2 "$GEMD" -D "$GEMD_SOCK" --metrics ::1:9945 2>err &&
	grep "an IPv6 address goes in brackets" err &&
	test_expect_code 2 "$GEMD" -D "$GEMD_SOCK" --metrics "[::1]9945" 2>err &&
	grep "expected \[ADDR\]:PORT" err &&
	"$GEMD" --help >out &&
	grep -e "--metrics \[ADDR:\]PORT" out
'

if ! have_microhttpd; then
	test_expect_success 'without libmicrohttpd, --metrics refuses to start' '
		test_expect_code 1 "$GEMD" -D "$GEMD_SOCK" --metrics 0 2>err &&
		grep "gemd was built without libmicrohttpd" err
	'
	test_done
fi

test_expect_success 'start gemd with --metrics on a free loopback port' '
	start_gemd --no-debugfs --metrics 0 &&
	ADDR=$(metrics_addr "$GEMD_LOG") &&
	case "$ADDR" in 127.0.0.1:[1-9]*) ;; *) false ;; esac
'

test_expect_success 'a second gemd on the same port fails with the reason' '
	test_expect_code 1 "$GEMD" -D "$GEMD_SOCK.2" --no-debugfs --metrics "$ADDR" 2>err &&
	grep "metrics: cannot listen on $ADDR: Address already in use" err
'

test_expect_success 'GET /metrics: the 0.0.4 text by default, as gemctl metrics prints it' '
	$HTTP get "http://$ADDR/metrics" >out &&
	head -n 1 out >status &&
	echo "200 text/plain;version=0.0.4;charset=utf-8" >expect &&
	test_cmp expect status &&
	sed 1d out >body &&
	grep "^gemkit_build_info{version=\"[^\"]*\"} 1$" body &&
	gemctl metrics >cli &&
	grep "^# TYPE" body >types.http &&
	grep "^# TYPE" cli >types.cli &&
	test_cmp types.cli types.http
'

test_expect_success 'Accept: Prometheus'\''s header gets OpenMetrics, ending in # EOF' '
	$HTTP get "http://$ADDR/metrics" --accept \
		"application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1" >out &&
	head -n 1 out >status &&
	echo "200 application/openmetrics-text;version=1.0.0;charset=utf-8" >expect &&
	test_cmp expect status &&
	test "$(tail -n 1 out)" = "# EOF" &&
	grep "^# TYPE gemkit_build info$" out &&
	$HTTP get "http://$ADDR/metrics" --accept "text/plain;version=0.0.4" >out &&
	head -n 1 out | grep "^200 text/plain;version=0.0.4" &&
	$HTTP get "http://$ADDR/metrics" --accept "application/openmetrics-text;q=0" >out &&
	head -n 1 out | grep "^200 text/plain;version=0.0.4"
'

if command -v promtool >/dev/null 2>&1; then
	test_expect_success 'promtool check metrics accepts /metrics' '
		$HTTP get "http://$ADDR/metrics" | sed 1d >body &&
		promtool_check body
	'
else
	test_skip 'promtool check metrics accepts /metrics' \
		'promtool not installed (Debian package prometheus)'
fi

if have_openmetrics_parser; then
	test_expect_success 'the OpenMetrics parser accepts /metrics in OpenMetrics' '
		$HTTP get "http://$ADDR/metrics" --accept application/openmetrics-text |
			sed 1d >body &&
		openmetrics_check body
	'
else
	test_skip 'the OpenMetrics parser accepts /metrics in OpenMetrics' \
		'python3-prometheus-client not installed'
fi

test_expect_success 'HEAD /metrics: the headers only' '
	$HTTP get "http://$ADDR/metrics" --method HEAD >out &&
	echo "200 text/plain;version=0.0.4;charset=utf-8" >expect &&
	test_cmp expect out
'

test_expect_success 'other paths: 404' '
	for path in / /metric /metrics/ /debugfs/gemkit_counters; do
		$HTTP get "http://$ADDR$path" >out &&
		head -n 1 out >status &&
		echo "404 text/plain;charset=utf-8" >expect &&
		test_cmp expect status || return 1
	done
'

test_expect_success 'other methods: 405 with Allow' '
	for m in POST PUT DELETE OPTIONS; do
		$HTTP get "http://$ADDR/metrics" --method $m >out &&
		head -n 1 out >status &&
		echo "405 text/plain;charset=utf-8" >expect &&
		test_cmp expect status || return 1
	done
'

test_expect_success 'huge headers: 431; a huge URL: 414' '
	$HTTP get "http://$ADDR/metrics" --header-bytes 65536 >out &&
	head -n 1 out | grep "^431 " &&
	$HTTP get "http://$ADDR/metrics" --path-bytes 65536 >out &&
	head -n 1 out | grep "^414 "
'

test_expect_success 'a slow client does not hold up a scrape' '
	$HTTP slow "$ADDR" >out &&
	echo 200 >expect &&
	test_cmp expect out
'

test_expect_success '1,000 slow connections: the driver serves meanwhile, gemd drops them all' '
	$HTTP flood "$ADDR" 1000 120 -- "$GEMCTL" -D "$GEMD_SOCK" \
		-c "h = create 65536; write \$h --fill 7 --length 65536; close \$h" >out &&
	echo "held 1000 cmd ok closed 1000 answered 0" >expect &&
	test_cmp expect out
'

test_expect_success 'and /metrics serves again' '
	test_wait_for 30 sh -c "$HTTP get http://$ADDR/metrics | head -n 1 | grep -q \"^200 \""
'

test_expect_success 'gemd shuts down cleanly with the HTTP server running' '
	stop_gemd &&
	grep "shutting down" "$GEMD_LOG" &&
	! grep -i "error" "$GEMD_LOG"
'

test_done
