#!/bin/sh
# gemd's debugfs mount: where it appears, what it holds, and that it goes.
test_description='gemd mounts its debugfs at the default place (<socket path>.debugfs) and removes it'
. "$(dirname "$0")/test-lib.sh"

DFS="$GEMD_SOCK.debugfs"	# named after the socket: one per gemd

if ! test -c /dev/fuse || ! grep -q '^#define HAVE_FUSE3 1' "$GEMKIT_BUILD_DIR/config.h"; then
	echo "1..0 # SKIP no /dev/fuse or gemd built without libfuse3"
	exit 0
fi

test_expect_success 'the tree appears under <socket path>.debugfs/dri/0' '
	start_gemd &&
	test_wait_for 10 test -f "$DFS/dri/0/name" &&
	echo "i915 dev=0000:00:02.0 unique=0000:00:02.0" >expect &&
	test_cmp expect "$DFS/dri/0/name"
'

test_expect_success 'i915_gem_drop_caches is writable, as IGT needs' '
	printf 0x5c >"$DFS/dri/0/i915_gem_drop_caches"
'

test_expect_success 'i915_error_state starts empty' '
	echo "no error state collected" >expect &&
	test_cmp expect "$DFS/dri/0/i915_error_state"
'

test_expect_success 'i915_params: the parameters with their modes' '
	ls "$DFS/dri/0/i915_params" >names &&
	grep -qx reset names && grep -qx enable_hangcheck names &&
	! grep -qx inject_probe_failure names &&
	test "$(stat -c %a "$DFS/dri/0/i915_params/reset")" = 600 &&
	test "$(stat -c %a "$DFS/dri/0/i915_params/modeset")" = 400 &&
	echo 3 >expect &&
	test_cmp expect "$DFS/dri/0/i915_params/reset" &&
	echo 1 >"$DFS/dri/0/i915_params/reset" &&
	echo 1 >expect &&
	test_cmp expect "$DFS/dri/0/i915_params/reset" &&
	test_must_fail sh -c "echo -1 >\"$DFS/dri/0/i915_params/reset\""
'

test_expect_success 'the render node: dri/128 with the same name' '
	ls "$DFS/dri" >minors &&
	printf "0\n128\n" >expect &&
	test_cmp expect minors &&
	test_cmp "$DFS/dri/0/name" "$DFS/dri/128/name"
'

test_expect_success 'shutdown removes the mount, and the directory gemd made' '
	stop_gemd &&
	! grep -q " $DFS " /proc/mounts &&
	! test -e "$DFS"
'

test_expect_success 'a directory gemd did not make is left' '
	mkdir own &&
	start_gemd --debugfs "$PWD/own" &&
	test_wait_for 10 test -f own/dri/0/name &&
	stop_gemd &&
	test -d own &&
	! grep -q " $PWD/own " /proc/mounts
'

# Without --daemon nothing says when gemd is ready but its answers: the
# first one must find the tree in place (clients wait in the backlog).
# strace holds every mount(2) back for a second, so that an answer given
# before the mount would be seen.
# (strace is among the optional packages scripts/setup.sh installs.)
if strace -f -qq -o /dev/null -e trace=mount -e inject=mount:delay_enter=1 \
	true 2>/dev/null; then
test_expect_success 'without --daemon, the first answer comes with the tree mounted' '
	strace -f -qq -o /dev/null -e trace=mount -e inject=mount:delay_enter=1000000 \
		"$GEMD" -D "$GEMD_SOCK" --pidfile "$GEMD_PIDFILE" \
		--log-file "$GEMD_LOG" &
	test_wait_for 20 "$GEMD" -D "$GEMD_SOCK" --ping &&
	test -f "$DFS/dri/0/name" &&
	grep -q " $DFS " /proc/mounts &&
	test_wait_for 10 test -s "$GEMD_PIDFILE" &&
	stop_gemd &&
	wait
'
else
	echo "# SKIP the mount-before-answer test: no strace that can delay a syscall"
fi

test_expect_success '--no-debugfs mounts nothing' '
	start_gemd --no-debugfs &&
	! grep -q " $DFS " /proc/mounts &&
	stop_gemd
'

test_done
