# A small git-style TAP harness for gemkit's shell tests.
#
# A test script sets test_description, sources this file, then runs
#
#	test_expect_success 'what it checks' '
#		command && command
#	'
#
# and ends with test_done, which prints the plan.  Each script runs in its
# own empty trash directory, tests/trash-<script> under the build
# directory, kept when a test fails and removed otherwise.  start_gemd
# starts a private gemd on $GEMD_SOCK (in --daemon mode, so it returns only
# once clients can connect); every gemd a script starts is killed when
# the script exits, however it exits.

: "${GEMKIT_SRC_DIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${GEMKIT_BUILD_DIR:=$GEMKIT_SRC_DIR}"
GEMD="$GEMKIT_BUILD_DIR/gemd"

this_test=$(basename "$0" .sh)
TRASH="$GEMKIT_BUILD_DIR/tests/trash-$this_test"

test_count=0
test_failures=0
test_fixed=0
test_broken=0

# Nothing from the caller's environment may pick the device, nor where
# gemctl run makes its private directories ($TMPDIR, else /tmp: the tests
# that want another place set it themselves).
unset GEM_DEVICE TMPDIR
LC_ALL=C
export LC_ALL
# Every gemd a test starts checks its state after each ioctl and aborts on
# a violation (gemd(8), GEMKIT_VERIFY).
GEMKIT_VERIFY=${GEMKIT_VERIFY-1}
export GEMKIT_VERIFY

if ! test -x "$GEMD"; then
	echo "1..0 # SKIP $GEMD is not built"
	exit 0
fi

# Detach FUSE mounts a gemd left under the trash directory (kill -9 leaves
# one behind, and rm cannot cross it).
test_unmount_trash_ () {
	awk -v t="$TRASH/" 'index($2, t) == 1 { print $2 }' /proc/mounts 2>/dev/null |
	while read -r m; do
		fusermount3 -uz "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
}

test_unmount_trash_
rm -rf "$TRASH" && mkdir -p "$TRASH" || {
	echo "Bail out! cannot create $TRASH"
	exit 1
}
cd "$TRASH" || exit 1
# A default path (no -D, no $GEM_DEVICE) lands here, never in /run.
XDG_RUNTIME_DIR="$TRASH/xdg"
export XDG_RUNTIME_DIR

# In the trash directory however deep the build directory is: gemd and
# its clients take socket paths longer than sun_path (common/sockpath.h).
GEMD_SOCK="$TRASH/card0"
GEMD_PIDFILE="$TRASH/gemd.pid"
GEMD_LOG="$TRASH/gemd.log"

# Pids to kill at exit: daemons (from their pidfiles) and background gemds.
test_pids=
test_pidfiles=

test_register_pid () {
	test_pids="$test_pids $1"
}

test_cleanup_ () {
	test_unmount_trash_
	for f in $test_pidfiles; do
		test -f "$f" && kill -9 "$(cat "$f")" 2>/dev/null
	done
	for p in $test_pids; do
		kill -9 "$p" 2>/dev/null
	done
}
trap 'test_cleanup_' EXIT
# A signal (bounded.sh's timeout, Ctrl-C) ends the script through its EXIT
# trap, which sh runs on exit but not on a fatal signal: gemd --daemon and
# gemctl's session holders are in sessions of their own, out of reach of
# the process-group kill, and a hung test's would run on into later ones.
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP

say_comment_ () {
	sed -e 's/^/# /'
}

# Run the commands in this shell (so variables carry over between tests),
# with their output kept for the failure report.
test_run_ () {
	eval "$1" >"$TRASH/.test-output" 2>&1
}

test_expect_success () {
	test_count=$((test_count + 1))
	if test_run_ "$2"; then
		echo "ok $test_count - $1"
	else
		test_failures=$((test_failures + 1))
		echo "not ok $test_count - $1"
		printf '%s\n' "$2" | say_comment_
		say_comment_ <"$TRASH/.test-output"
	fi
}

# A known breakage: it should fail; say so loudly if it starts passing.
test_expect_failure () {
	test_count=$((test_count + 1))
	if test_run_ "$2"; then
		test_fixed=$((test_fixed + 1))
		echo "ok $test_count - $1 # TODO known breakage vanished"
	else
		test_broken=$((test_broken + 1))
		echo "not ok $test_count - $1 # TODO known breakage"
	fi
}

# The command must fail normally: not succeed, not die of a signal, and
# exist (127 is "command not found").
test_must_fail () {
	"$@"
	code=$?
	if test $code -eq 0; then
		echo >&2 "test_must_fail: command succeeded: $*"
		return 1
	elif test $code -gt 128; then
		echo >&2 "test_must_fail: died of signal $((code - 128)): $*"
		return 1
	elif test $code -eq 127; then
		echo >&2 "test_must_fail: command not found: $*"
		return 1
	fi
	return 0
}

# test_expect_code CODE command...: the exit status must be exactly CODE.
test_expect_code () {
	want=$1
	shift
	"$@"
	code=$?
	if test $code -ne "$want"; then
		echo >&2 "test_expect_code: expected $want, got $code: $*"
		return 1
	fi
	return 0
}

test_cmp () {
	diff -u "$1" "$2"
}

test_must_be_empty () {
	if test -s "$1"; then
		echo >&2 "'$1' is not empty, it contains:"
		cat >&2 "$1"
		return 1
	fi
}

# test_wait_for SECONDS command...: poll until the command succeeds.
test_wait_for () {
	tries=$(($1 * 20))
	shift
	while test $tries -gt 0; do
		"$@" && return 0
		sleep 0.05
		tries=$((tries - 1))
	done
	echo >&2 "timed out waiting for: $*"
	return 1
}

# Gone: no such process, or a zombie.  A daemon is reparented to PID 1,
# which may take seconds to reap it on a busy machine; the process has
# exited by then (its socket, pidfile and mount are already gone).  A
# zombie reaped between kill -0 and reading its stat is gone too (no
# state read).
test_pid_gone_ () {
	kill -0 "$1" 2>/dev/null || return 0
	state=$(sed -n 's/^[0-9]* (.*) \([A-Za-z]\).*/\1/p' "/proc/$1/stat" 2>/dev/null)
	test -z "$state" || test "$state" = Z
}

# Can gemd mount a debugfs tree here (/dev/fuse, and built with libfuse3)?
test_have_fuse () {
	test -c /dev/fuse &&
	grep -q '^#define HAVE_FUSE3 1' "$GEMKIT_BUILD_DIR/config.h"
}

# For a gemd whose tree goes to DIR: DFS_OPT is the option to give it
# (--no-debugfs without FUSE), have_fuse says which.
test_debugfs_opt () {
	if test_have_fuse; then
		DFS_OPT="--debugfs $1"
		have_fuse=true
	else
		DFS_OPT=--no-debugfs
		have_fuse=false
	fi
}

# Start a private gemd on $GEMD_SOCK as a daemon: it returns once clients
# can connect.  Extra arguments are passed to gemd.
start_gemd () {
	# A test that failed before its stop_gemd leaves its gemd running:
	# stop it, so that one failure does not fail every later test too.
	if test -s "$GEMD_PIDFILE" &&
	   grep -q gemd "/proc/$(gemd_pid)/comm" 2>/dev/null; then
		echo "# start_gemd: stopping gemd $(gemd_pid), left by an earlier test" >&2
		stop_gemd || kill -KILL "$(gemd_pid)" 2>/dev/null
	fi
	test_pidfiles="$test_pidfiles $GEMD_PIDFILE"
	"$GEMD" -D "$GEMD_SOCK" --daemon --pidfile "$GEMD_PIDFILE" \
		--log-file "$GEMD_LOG" "$@"
}

gemd_pid () {
	cat "$GEMD_PIDFILE"
}

# SIGTERM the private gemd and wait until it has gone.
stop_gemd () {
	pid=$(gemd_pid) &&
	kill -TERM "$pid" &&
	test_wait_for 10 test_pid_gone_ "$pid"
}

test_done () {
	echo "1..$test_count"
	if test $test_fixed -gt 0; then
		echo "# $test_fixed known breakage(s) vanished; mark them fixed"
	fi
	if test $test_failures -gt 0; then
		echo "# failed $test_failures of $test_count; keeping $TRASH"
		exit 1
	fi
	# The daemons' pidfiles live in the trash: stop them before it goes.
	test_cleanup_
	cd / && rm -rf "$TRASH"
	exit 0
}
