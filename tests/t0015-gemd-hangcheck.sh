#!/bin/sh
# Hangcheck in GPU time: a starved simulator is not a hung GPU, a batch
# jumping to itself still is, and a batch that keeps ACTHD moving for ever
# is caught by its budget (kind runaway) unless the budget is off.
test_description='gemd: hangcheck judges progress in GPU time; the batch budget'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

hangs () {
	gemctl --json info | sed -n 's/.*"hangs":\([0-9]*\).*/\1/p'
}

test_expect_success 'options: --batch-budget and --error-states are counts' '
	test_expect_code 2 "$GEMD" -D "$GEMD_SOCK" --batch-budget x 2>err &&
	grep "^gemd: invalid --batch-budget .x.: must be a number from 0 to 1000$" err &&
	test_expect_code 2 "$GEMD" -D "$GEMD_SOCK" --error-states 65 2>err &&
	grep "^gemd: invalid --error-states .65.: must be a number from 0 to 64$" err &&
	"$GEMD" --help >help &&
	grep -e "--batch-budget N" help &&
	grep -e "--error-states N" help
'

# Before each batch the command streamer is off the CPU for 4 hangcheck
# periods (GEMKIT_CS_STALL_MS), as a simulator on a loaded machine is:
# ACTHD and INSTDONE do not move in that wall time, yet nothing hangs.
test_expect_success 'a starved GPU is not hung (GEMKIT_CS_STALL_MS)' '
	GEMKIT_CS_STALL_MS=400 &&
	export GEMKIT_CS_STALL_MS &&
	start_gemd --no-debugfs --hangcheck 100ms &&
	unset GEMKIT_CS_STALL_MS &&
	grep "GEMKIT_CS_STALL_MS: the GPU is off the CPU for 400 ms before each batch" \
		"$GEMD_LOG" &&
	gemctl -q -c "h = create 65536
		fill \$h 0 0 64 64 0x11
		fill \$h 0 0 64 64 0x22
		fill \$h 0 0 64 64 0x33
		wait \$h
		read \$h --offset 0 --length 4 --hex" >out &&
	grep "33 00 00 00" out &&
	test "$(hangs)" = 0 &&
	! grep "GPU hang" "$GEMD_LOG"
'

test_expect_success 'a starved GPU jumping to itself is still hung' '
	gemctl -q -c "hang --kind loop; wait-hang --timeout 20s" >out &&
	printf "1\nhangcheck\n" >expect &&
	test_cmp expect out &&
	stop_gemd
'

# The budget is GPU time, which is not wall time: detect_ns (wall time
# since submission) is only bounded below by one period.  The GPU time it
# ran is in the log.
test_expect_success 'a batch that keeps ACTHD moving round a loop is a runaway after 4 periods' '
	: >"$GEMD_LOG" &&
	start_gemd --no-debugfs --hangcheck 100ms &&
	gemctl --json -c "hang --kind runaway; wait-hang --timeout 20s" >out &&
	sed -n 2p out | json_check "d[\"kind\"] == \"runaway\" and d[\"recovered\"] is True and d[\"detect_ns\"] >= 100000000 and d[\"ipehr\"] in (0, 0x18800080)" &&
	sed -n "s/.*went round a loop for \([0-9]*\) ms of GPU time without getting further (budget 400 ms)$/\1/p" \
		"$GEMD_LOG" >gpu_ms &&
	test "$(cat gpu_ms)" -ge 400 &&
	grep "GPU hang 1 (runaway)" "$GEMD_LOG" &&
	stop_gemd
'

test_expect_success '--batch-budget 2 halves it; the GPU works afterwards' '
	start_gemd --no-debugfs --hangcheck 100ms --batch-budget 2 &&
	gemctl -c "hang --kind runaway; wait-hang --timeout 20s" >out &&
	grep "budget 200 ms" "$GEMD_LOG" &&
	gemctl -q -c "h = create 4096
		fill \$h 0 0 16 1 0x5a
		read \$h --length 4 --hex" >out &&
	grep "5a 00 00 00" out &&
	stop_gemd
'

test_expect_success '--batch-budget 0 lets a batch run for ever' '
	: >"$GEMD_LOG" &&
	start_gemd --no-debugfs --hangcheck 100ms --batch-budget 0 --log-level info &&
	grep "hangcheck every 100 ms; batches may run for ever" "$GEMD_LOG" &&
	test_expect_code 124 gemctl -c "hang --kind runaway; wait-hang --timeout 1500ms" &&
	test "$(hangs)" = 0 &&
	stop_gemd
'

test_done
