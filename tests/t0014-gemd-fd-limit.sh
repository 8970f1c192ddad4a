#!/bin/sh
# gemd out of descriptors: with its limit at 256, a client beyond it is
# refused at once (it used to wait in the listen queue for a handshake
# that never came, while gemd logged "accept: Too many open files" ten
# times a second); the refusals are logged within the rate limit, and the
# clients gemd holds, and the next ones once descriptors are free, work.
test_description='gemd at its descriptor limit: refusals, not hangs'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

RAW="$GEMKIT_SRC_DIR/tests/trust/rawclient.py"

test_expect_success 'start gemd with a hard limit of 256 descriptors' '
	sh -c "ulimit -n 256 && exec \"\$0\" \"\$@\"" "$GEMD" -D "$GEMD_SOCK" \
		--no-debugfs --daemon --pidfile "$GEMD_PIDFILE" \
		--log-file "$GEMD_LOG" &&
	test_register_pid $(cat "$GEMD_PIDFILE") &&
	grep "^Max open files *256 *256" /proc/$(cat "$GEMD_PIDFILE")/limits &&
	gemctl -c "h = create 4096; write \$h --pattern 0xabcd1234 --length 4; flink \$h; wait-hang --timeout 120s" >holder.out 2>&1 &
	holder=$! &&
	test_register_pid $holder &&
	test_wait_for 20 grep -q "^name 1$" holder.out
'

test_expect_success 'a client beyond the limit is refused at once, not left waiting' '
	python3 "$RAW" "$GEMD_SOCK" fill 400 >filled &
	filler=$! &&
	test_register_pid $filler &&
	test_wait_for 30 test -s filled &&
	test_wait_for 30 grep -q "EMFILE (gemd is out of descriptors)" "$GEMD_LOG" &&
	test_expect_code 3 timeout 20 "$GEMCTL" -D "$GEMD_SOCK" info >out 2>err &&
	cat err &&
	grep "gemctl info: " err
'

test_expect_success 'the refusals are logged within the rate limit' '
	lines=$(grep -c "EMFILE (gemd is out of descriptors)" "$GEMD_LOG") &&
	echo "$lines refusal lines" &&
	test "$lines" -le 20 &&
	grep -q "more such refusals since the last line" "$GEMD_LOG" &&
	! grep "accept: Too many open files" "$GEMD_LOG"
'

test_expect_success 'descriptors free again: new clients work, the held object is intact' '
	kill $filler &&
	wait $filler 2>/dev/null;
	test_wait_for 30 "$GEMCTL" -D "$GEMD_SOCK" info >/dev/null &&
	gemctl -c "h = open 1; read \$h --hex --length 4" >read.out &&
	grep "ab cd 12 34" read.out
'

test_expect_success 'stop gemd' '
	kill $holder 2>/dev/null;
	stop_gemd
'

test_done
