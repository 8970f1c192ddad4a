#!/bin/sh
# gemd's life: start-up, readiness, shutdown, stale sockets and conflicts.
test_description='gemd starts, serves, refuses conflicts and shuts down cleanly'
. "$(dirname "$0")/test-lib.sh"

test_expect_success '--daemon returns only once a client can connect' '
	start_gemd &&
	"$GEMD" --ping -D "$GEMD_SOCK" >out &&
	echo i915 >expect &&
	test_cmp expect out &&
	test -S "$GEMD_SOCK"
'

test_expect_success 'the socket is gemd'"'"'s user'"'"'s alone by default' '
	test "$(stat -c "%a %u" "$GEMD_SOCK")" = "600 $(id -u)"
'

test_expect_success 'the pidfile names the running daemon' '
	pid=$(gemd_pid) &&
	kill -0 "$pid" &&
	test "$(cat /proc/$pid/comm)" = gemd
'

test_expect_success 'SIGTERM removes the socket and the pidfile' '
	pid=$(gemd_pid) &&
	kill -TERM "$pid" &&
	test_wait_for 10 test_pid_gone_ "$pid" &&
	test ! -e "$GEMD_SOCK" &&
	test ! -e "$GEMD_PIDFILE" &&
	grep "shutting down" "$GEMD_LOG"
'

test_expect_success '--daemon is ready at once, every time' '
	for i in 1 2 3 4 5; do
		start_gemd &&
		"$GEMD" --ping -D "$GEMD_SOCK" >/dev/null &&
		stop_gemd || return 1
	done
'

test_expect_success 'SIGTERM makes a foreground gemd exit 0' '
	"$GEMD" -D "$GEMD_SOCK" 2>fg.log &
	pid=$! &&
	test_register_pid $pid &&
	test_wait_for 10 "$GEMD" --ping -D "$GEMD_SOCK" >/dev/null &&
	kill -TERM $pid &&
	{ wait $pid; status=$?; } &&
	test $status = 0 &&
	test ! -e "$GEMD_SOCK"
'

test_expect_success 'SIGINT shuts down cleanly too' '
	start_gemd &&
	pid=$(gemd_pid) &&
	kill -INT "$pid" &&
	test_wait_for 10 test_pid_gone_ "$pid" &&
	test ! -e "$GEMD_SOCK" &&
	test ! -e "$GEMD_PIDFILE"
'

test_expect_success 'a stale socket from a killed gemd is taken over' '
	start_gemd &&
	pid=$(gemd_pid) &&
	kill -KILL "$pid" &&
	test_wait_for 10 test_pid_gone_ "$pid" &&
	test -S "$GEMD_SOCK" &&
	start_gemd &&
	grep "removed stale socket $GEMD_SOCK" "$GEMD_LOG" &&
	"$GEMD" --ping -D "$GEMD_SOCK" >out &&
	test_cmp expect out
'

test_expect_success 'a second gemd on the same path refuses, exit 1' '
	pid=$(gemd_pid) &&
	test_expect_code 1 "$GEMD" -D "$GEMD_SOCK" 2>err &&
	echo "gemd: another gemd is already serving $GEMD_SOCK (pid $pid)" >expect.err &&
	test_cmp expect.err err &&
	"$GEMD" --ping -D "$GEMD_SOCK" >/dev/null
'

test_expect_success 'a second daemon refuses the same way' '
	pid=$(gemd_pid) &&
	test_expect_code 1 "$GEMD" -D "$GEMD_SOCK" --daemon 2>err &&
	echo "gemd: another gemd is already serving $GEMD_SOCK (pid $pid)" >expect.err &&
	test_cmp expect.err err &&
	test "$(gemd_pid)" = "$pid"
'

test_expect_success 'a pidfile naming a live process is refused' '
	echo $$ >other.pid &&
	test_expect_code 1 "$GEMD" -D "$TRASH/other" --daemon \
		--pidfile other.pid 2>err &&
	grep "pidfile .*other.pid names a running process (pid $$)" err &&
	test ! -e "$TRASH/other" &&
	test "$(cat other.pid)" = $$
'

test_expect_success 'a pidfile left by a dead process is taken over' '
	stop_gemd &&
	echo 999999999 >"$GEMD_PIDFILE" &&
	start_gemd &&
	test "$(gemd_pid)" != 999999999 &&
	kill -0 "$(gemd_pid)"
'

test_expect_success 'a socket path that is not a socket is left alone' '
	: >"$TRASH/plain" &&
	test_expect_code 1 "$GEMD" -D "$TRASH/plain" 2>err &&
	grep "is not a socket" err &&
	test -f "$TRASH/plain"
'

test_expect_success '--ping fails when nobody serves the path' '
	test_expect_code 1 "$GEMD" --ping -D "$TRASH/nobody" 2>err &&
	grep "ping .*nobody" err
'

test_expect_success 'stop' '
	stop_gemd &&
	test ! -e "$GEMD_SOCK"
'

test_done
