#!/bin/sh
# Clients that stall: one sends requests and never reads a reply, one is
# stopped (SIGSTOP) in the middle of a message.  Each holds its own
# connection's thread and nothing else: every other client is served, and
# no object of another client changes.  The stopped one is dropped at the
# read deadline (10 s for a message begun).
test_description='gemd: clients that never read, and clients stopped mid-message'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

RAW="$GEMKIT_SRC_DIR/tests/trust/rawclient.py"

served () {
	# Another client is served in bounded time, and the held object is intact.
	timeout 20 "$GEMCTL" -D "$GEMD_SOCK" info >/dev/null &&
	timeout 20 "$GEMCTL" -D "$GEMD_SOCK" -c "h = open 1; read \$h --hex --length 4" >read.out &&
	grep "ab cd 12 34" read.out
}

test_expect_success 'start gemd and a client holding a known object' '
	start_gemd --no-debugfs -v &&
	gemctl -c "h = create 4096; write \$h --pattern 0xabcd1234 --length 4; flink \$h; wait-hang --timeout 300s" >holder.out 2>&1 &
	holder=$! &&
	test_register_pid $holder &&
	test_wait_for 20 grep -q "^name 1$" holder.out
'

test_expect_success 'a client that never reads its replies: everyone else is served' '
	python3 "$RAW" "$GEMD_SOCK" unread 200000 gemkit_counters >unread.out &
	unread=$! &&
	test_register_pid $unread &&
	test_wait_for 60 grep -q "^sent [0-9]" unread.out &&
	cat unread.out &&
	for i in 1 2 3 4 5; do served || return 1; done
'

test_expect_success 'a client stopped in the middle of a message: served meanwhile, dropped at the deadline' '
	python3 "$RAW" "$GEMD_SOCK" half >half.out &
	half=$! &&
	test_register_pid $half &&
	test_wait_for 20 grep -q "^sent$" half.out &&
	kill -STOP $half &&
	served &&
	test_wait_for 40 grep -q "read deadline passed inside a 4096-byte message" "$GEMD_LOG" &&
	served &&
	kill -CONT $half
'

test_expect_success 'a burst of protocol violations is logged within the rate limit' '
	before=$(grep -c "closing its" "$GEMD_LOG" || :) &&
	python3 "$RAW" "$GEMD_SOCK" badmagic 3 >burst.out &&
	test $(cat burst.out) -ge 20 &&
	after=$(grep -c "closing its" "$GEMD_LOG" || :) &&
	echo "$(cat burst.out) violations, $((after - before)) lines" &&
	test $((after - before)) -le 5 &&
	grep -q "more protocol violations since the last line" "$GEMD_LOG" &&
	served
'

test_expect_success 'stop gemd, the stalled clients still there' '
	stop_gemd
'

test_done
