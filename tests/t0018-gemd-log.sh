#!/bin/sh
# Logs a user finds: every line of a log file has a timestamp and gemd's
# pid; a daemon with no syslog to talk to logs to gemd.log beside its
# socket instead of nowhere.
test_description='gemd: timestamped log lines, gemd.log without syslog'
. "$(dirname "$0")/test-lib.sh"

# "2026-03-01 12:00:00.123 gemd[42]: notice: ..."
STAMP='^[0-9]\{4\}-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]\{3\} gemd\[[0-9]*\]: '

test_expect_success '--log-file: every line has the time and the pid' '
	start_gemd --no-debugfs &&
	stop_gemd &&
	grep "${STAMP}notice: gemkit .* serving $GEMD_SOCK" "$GEMD_LOG" &&
	grep "${STAMP}notice: Terminated: shutting down$" "$GEMD_LOG" &&
	! grep -v "$STAMP" "$GEMD_LOG"
'

test_expect_success 'a foreground gemd stamps its stderr lines too' '
	"$GEMD" -D "$GEMD_SOCK" --no-debugfs 2>fg.log &
	pid=$! &&
	test_register_pid $pid &&
	test_wait_for 10 "$GEMD" --ping -D "$GEMD_SOCK" >/dev/null &&
	kill -TERM $pid &&
	wait $pid &&
	grep "${STAMP}notice: gemkit .* serving" fg.log
'

test_expect_success '--log-file /dev/null: a character device is taken' '
	"$GEMD" -D "$GEMD_SOCK" --no-debugfs --daemon --log-file /dev/null \
		--pidfile gemd.pid 2>err &&
	test_register_pid $(cat gemd.pid) &&
	test_must_be_empty err &&
	"$GEMD" --ping -D "$GEMD_SOCK" &&
	kill -TERM $(cat gemd.pid) &&
	test_wait_for 10 test ! -e gemd.pid
'

if test -S /dev/log; then
	test_count=$((test_count + 1))
	echo "ok $test_count # SKIP a syslog daemon listens on /dev/log: --daemon logs there"
	test_done
fi

test_expect_success '--daemon without syslog: gemd.log beside the socket' '
	"$GEMD" -D "$TRASH/d/card0" --daemon --no-debugfs --pidfile "$TRASH/d.pid" &&
	test_pidfiles="$test_pidfiles $TRASH/d.pid" &&
	grep "${STAMP}notice: gemkit .* serving $TRASH/d/card0" "$TRASH/d/gemd.log" &&
	pid=$(cat "$TRASH/d.pid") &&
	kill -TERM "$pid" &&
	test_wait_for 10 test_pid_gone_ "$pid" &&
	grep "${STAMP}notice: Terminated: shutting down$" "$TRASH/d/gemd.log"
'

test_expect_success 'the default socket: gemd.log in the runtime directory' '
	"$GEMD" --daemon --no-debugfs --pidfile "$TRASH/rt.pid" &&
	test_pidfiles="$test_pidfiles $TRASH/rt.pid" &&
	grep "${STAMP}notice: gemkit .* serving $XDG_RUNTIME_DIR/gemkit/card0" \
		"$XDG_RUNTIME_DIR/gemkit/gemd.log" &&
	pid=$(cat "$TRASH/rt.pid") &&
	kill -TERM "$pid" &&
	test_wait_for 10 test_pid_gone_ "$pid"
'

test_done
