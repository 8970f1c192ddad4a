#!/bin/sh
# gemctl workloads: each runs against gemd and reports ops and bytes; and
# every verb's --json output is one document a real parser accepts.
test_description='gemctl workload, and --json for every verb'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

test_expect_success 'start gemd (16M aperture: thrash stays small)' '
	start_gemd --no-debugfs --aperture 16M
'

for w in gears texdown ipers thrash; do
	test_expect_success "workload $w: ops and bytes, exit 0" "
		gemctl --json workload $w --duration 300ms --clients 2 >out &&
		json_check 'd[\"workload\"] == \"$w\" and d[\"clients\"] == 2 and d[\"ops\"] > 0 and d[\"bytes\"] > 0 and d[\"elapsed_ns\"] >= 300000000' <out
	"
done

test_expect_success 'workload: the text report and -q' '
	gemctl workload gears --duration 100ms >out &&
	grep "^gears: 1 client(s), [0-9.]* s: [0-9]* ops ([0-9.]*/s), [0-9]* bytes ([0-9.]* MiB/s)$" out &&
	gemctl -q workload ipers --duration 100ms >out &&
	grep "^[1-9][0-9]*$" out
'

progress_re='^running gears: 1 client(s), [0-9.]* s: [0-9]* ops ([0-9.]*/s), [0-9]* bytes ([0-9.]* MiB/s)$'

test_expect_success 'workload: progress on stderr, a line per interval in a pipe' '
	gemctl workload gears --duration 1s --interval 100ms >out 2>err &&
	grep "^gears: 1 client(s), " out &&
	test $(wc -l <out) -eq 1 &&
	grep -c "$progress_re" err >n &&
	test $(cat n) -ge 1 &&
	test $(cat n) -eq $(wc -l <err) &&
	! grep -q "$(printf "\033")" err
'

test_expect_success 'workload: no progress with -q, --json or --interval 0' '
	gemctl -q workload gears --duration 300ms --interval 10ms >out 2>err &&
	test_must_be_empty err &&
	gemctl --json workload gears --duration 300ms --interval 10ms >out 2>err &&
	test_must_be_empty err &&
	gemctl workload gears --duration 300ms --interval 0 >out 2>err &&
	test_must_be_empty err
'

# Outside the shell SIGINT stops the workload: the report of what ran,
# marked interrupted, and status 130.  The signal goes after the first
# progress line, so the workload is known to be running.
test_expect_success 'workload: SIGINT prints the partial summary and exits 130' '
	bg_workload int.out int.err &&
	interrupt_status $bg_pid &&
	grep "^gears: 1 client(s), [0-9.]* s: [0-9]* ops ([0-9.]*/s), [0-9]* bytes ([0-9.]* MiB/s); interrupted$" int.out &&
	test $(wc -l <int.out) -eq 1 &&
	first=$(sed -n "1s/.* s: \([0-9]*\) ops .*/\1/p" int.err) &&
	final=$(sed -n "s/.* s: \([0-9]*\) ops .*/\1/p" int.out) &&
	test "$final" -ge "$first"
'

# gemd lists the workload's drm_files (opened after SIGINT is caught).
client_of () {
	gemctl --json clients | grep -q "\"pid\":$1[,}]"
}

test_expect_success 'workload --json: SIGINT says interrupted, exits 130' '
	{ "$GEMCTL" -D "$GEMD_SOCK" --json workload gears --duration 600s >j.out 2>j.err & } &&
	pid=$! &&
	test_register_pid $pid &&
	test_wait_for 60 client_of $pid &&
	kill -INT $pid &&
	{ wait $pid; echo $? >status; } &&
	echo 130 >expect &&
	test_cmp expect status &&
	json_check "d[\"interrupted\"] is True and d[\"ops\"] >= 0" <j.out
'

test_expect_success 'thrash evicts: the eviction counter grows' '
	E0=$(gemctl --json info | python3 -c "import json,sys; print(json.load(sys.stdin)[\"counters\"][\"evictions\"])") &&
	gemctl workload thrash --duration 300ms >/dev/null &&
	E1=$(gemctl --json info | python3 -c "import json,sys; print(json.load(sys.stdin)[\"counters\"][\"evictions\"])") &&
	test $E1 -gt $E0
'

test_expect_success 'workload: unknown name, bad clients, bad duration' '
	test_expect_code 2 gemctl workload glxgears 2>err &&
	stderr_has "unknown workload '\''glxgears'\''" &&
	stderr_has "  thrash " &&
	test_expect_code 2 gemctl workload gears --clients 0 2>err &&
	test_expect_code 2 gemctl workload gears --duration forever 2>err &&
	test_expect_code 3 "$GEMCTL" -D "$NODEV" workload gears 2>err
'

test_expect_success 'every verb prints one JSON document with schema_version 1' '
	gemctl --json -c "
		h = create 65536; info; list --mine; inspect \$h; gtt; seqno; requests; clients
		events --since 0; create 4096; n = flink \$h; open \$n
		write \$h --fill 1 --length 16; read \$h --length 16; map \$h; unmap \$h
		set-domain \$h cpu; tiling \$h none; madvise \$h willneed; caching \$h
		fill \$h 0 0 4 4 1; copy \$h \$h 4 4 --to 8,0; busy \$h; throttle
		wait \$h; wait --idle; drop-caches retire; clear-error; wedged; handles
		suspend; resume; workload gears --duration 50ms; close \$h" >out &&
	test $(wc -l <out) -eq 32 &&
	json_check "isinstance(d[\"verb\"], str) and d[\"tool\"] == \"gemctl\"" <out &&
	python3 -c "import json, sys; print(\" \".join(json.loads(l)[\"verb\"] for l in sys.stdin))" <out >verbs &&
	echo "info list inspect gtt seqno requests clients events create open write read map unmap set-domain tiling madvise caching fill copy busy throttle wait wait drop-caches clear-error wedged handles suspend resume workload close" >expect &&
	test_cmp expect verbs
'

test_done
