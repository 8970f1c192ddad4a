#!/bin/sh
# Issue 14's attacks, replayed by one throwaway user against another's
# work on a gemd run by root: each must be refused with the exact errno,
# and the victim's bytes must come through unchanged.
test_description='no user can reach another user'"'"'s GPU memory, state or control'
. "$(dirname "$0")/test-lib.sh"

if test "$(id -u)" != 0; then
	echo "1..0 # SKIP runs as root only: it creates two users for the run"
	exit 0
fi
for tool in useradd userdel setpriv unshare; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "1..0 # SKIP needs $tool"
		exit 0
	fi
done
PY=/usr/bin/python3
if ! test -x $PY; then
	echo "1..0 # SKIP needs $PY (a python3 other users can run)"
	exit 0
fi

GEMCTL="$GEMKIT_BUILD_DIR/gemctl/gemctl"
RAW="$GEMKIT_SRC_DIR/tests/trust/rawclient.py"
VICTIM=gktv$$
ATTACKER=gkta$$
remove_users_ () {
	userdel "$VICTIM" 2>/dev/null
	userdel "$ATTACKER" 2>/dev/null
	test -n "$VUID" && rm -rf "/tmp/gemkit-$VUID"
	rm -rf "$SHARED"
}
trap 'test_cleanup_; remove_users_' EXIT
trap 'exit 1' INT TERM
useradd -M -N -s /bin/sh "$VICTIM" && useradd -M -N -s /bin/sh "$ATTACKER" || {
	echo "Bail out! useradd failed"
	exit 1
}
VUID=$(id -u "$VICTIM")
AUID=$(id -u "$ATTACKER")
as_user () {
	u=$1
	shift
	# From /: the trash directory is root's alone.
	(cd / && setpriv --reuid="$u" --regid="$(id -g "$u")" --clear-groups \
		env -u XDG_RUNTIME_DIR -u GEM_DEVICE HOME=/ "$@")
}

# The device everyone may open (as the kernel's 0666 render node), in a
# directory everyone may reach.
SHARED=$(mktemp -d /tmp/gemkit-trust.XXXXXX) && chmod 755 "$SHARED"
SOCK="$SHARED/card0"

# The victim keeps an object full of 0x5a in a gemctl session (its
# drm_file lives in the session's holder, as the victim's own process)
# while the attacker tries; then reads its bytes back.  "flink" names it
# first (name 1 of a fresh gemd).
victim () {
	as_user "$VICTIM" "$GEMCTL" -D "$SOCK" -S victim "$@"
}
victim_start () {
	victim exit >/dev/null 2>&1
	victim -q create 4096 >handle &&
	victim write "$(cat handle)" --fill 0x5a &&
	if test "$1" = flink; then victim flink "$(cat handle)" >/dev/null; fi
}
victim_finish () {
	victim read "$(cat handle)" --length 16 --hex >actual &&
	victim exit &&
	echo "00000000: 5a 5a 5a 5a 5a 5a 5a 5a 5a 5a 5a 5a 5a 5a 5a 5a" >expect &&
	test_cmp expect actual
}

test_expect_success 'setup: a root gemd open to every user' '
	start_gemd -D "$SOCK" --no-debugfs --mode 0666 &&
	test "$(stat -c %a "$SOCK")" = 666
'

victim_start flink
test_expect_success 'attack 1: another user cannot open a flink name (ENOENT)' '
	test_expect_code 1 as_user "$ATTACKER" "$GEMCTL" -e -D "$SOCK" -c "h = open 1; write \$h --fill 0x66" 2>err &&
	grep "DRM_IOCTL_GEM_OPEN name 1: No such file or directory" err &&
	"$GEMCTL" -D "$SOCK" -c "h = open 1" >root.out &&
	victim_finish
'

victim_start
test_expect_success 'attack 4: object contents through the socket are gemd'"'"'s user'"'"'s (EACCES)' '
	"$GEMCTL" -D "$SOCK" -b list >list.out &&
	id=$(awk "\$2 == 4096 { print \$1 }" list.out) &&
	test -n "$id" &&
	as_user "$ATTACKER" $PY "$RAW" "$SOCK" debugfs-read gemkit_object_data/$id >out &&
	echo "-13 0" >expect && test_cmp expect out &&
	as_user "$ATTACKER" $PY "$RAW" "$SOCK" debugfs-read i915_error_state >out &&
	test_cmp expect out &&
	$PY "$RAW" "$SOCK" debugfs-read gemkit_object_data/$id >out &&
	echo "0 4096" >expect && test_cmp expect out &&
	victim_finish
'

victim_start
test_expect_success 'attack 4: control and debugfs writes are refused, logged with uid, pid, comm' '
	for verb in suspend unbind bind "wedged --inject" "wedged --inject" clear-error drop-caches; do
		test_expect_code 1 as_user "$ATTACKER" "$GEMCTL" -D "$SOCK" $verb 2>err &&
		grep "Permission denied" err || return 1
	done &&
	victim_finish &&
	grep "uid $AUID pid [0-9]* (gemctl): driver control 0x1 refused: EACCES" "$GEMD_LOG" &&
	grep "uid $AUID pid [0-9]* (gemctl): driver control 0x3 refused: EACCES" "$GEMD_LOG" &&
	grep "uid $AUID pid [0-9]* (gemctl): debugfs write 0x1 i915_wedged refused: EACCES" "$GEMD_LOG" &&
	grep "uid $AUID pid [0-9]* (gemctl): debugfs write 0x1 i915_error_state refused: EACCES" "$GEMD_LOG" &&
	grep "uid $AUID pid [0-9]* (gemctl): debugfs write 0x1 i915_gem_drop_caches refused: EACCES" "$GEMD_LOG" &&
	"$GEMCTL" -D "$SOCK" drop-caches &&
	grep "uid 0 pid [0-9]* (gemctl): debugfs write 0x1 i915_gem_drop_caches$" "$GEMD_LOG"
'

victim_start
test_expect_success 'attack 5: binding the victim'"'"'s socket name in another netns hijacks nothing' '
	sed -n "s/.* @\([0-9a-f]\{5\}\)\$/\1/p" /proc/net/unix | sort -u >"$SHARED/names" &&
	chmod 644 "$SHARED/names" &&
	test -s "$SHARED/names" &&
	mkfifo hold &&
	(unshare -n setpriv --reuid="$AUID" --regid="$(id -g "$ATTACKER")" --clear-groups \
		$PY "$RAW" "$SOCK" hijack "$SHARED/names" <hold >hijack.out &) &&
	exec 8>hold &&
	test_wait_for 20 test -s hijack.out &&
	test "$(cat hijack.out)" -ge 1 &&
	victim_finish &&
	exec 8>&- &&
	! grep "EBADF" "$GEMD_LOG"
'

# Tokens are 128 bits: a client that kept (or guessed) the low 64 bits,
# as a protocol-7 token was, names no file; nor does another uid that
# learnt the whole token.  -9 is EBADF, the kernel's for a closed fd.
test_expect_success 'attack 5: forged, shortened and stolen file tokens are EBADF' '
	as_user "$VICTIM" $PY "$RAW" "$SOCK" forge >out &&
	echo "0 -9 -9" >expect && test_cmp expect out &&
	mkfifo hold-token &&
	(as_user "$VICTIM" $PY "$RAW" "$SOCK" open-hold <hold-token >token.out &) &&
	exec 8>hold-token &&
	test_wait_for 20 test -s token.out &&
	test "$(wc -c <token.out)" = 33 &&
	as_user "$ATTACKER" $PY "$RAW" "$SOCK" create "$(cat token.out)" >out &&
	echo -9 >expect && test_cmp expect out &&
	as_user "$VICTIM" $PY "$RAW" "$SOCK" create "$(cat token.out)" >out &&
	echo 0 >expect && test_cmp expect out &&
	exec 8>&-
'

test_expect_success 'attack 6: a runtime directory another user made is refused' '
	rm -rf "/tmp/gemkit-$VUID" &&	# the sessions of the victim
	as_user "$ATTACKER" mkdir -m 0777 "/tmp/gemkit-$VUID" &&
	test_expect_code 1 as_user "$VICTIM" "$GEMD" --no-debugfs 2>err &&
	grep "runtime directory /tmp/gemkit-$VUID is owned by uid $AUID, not by you (uid $VUID); refusing to use it" err &&
	test_expect_code 3 as_user "$VICTIM" "$GEMCTL" info 2>err &&
	grep "refusing to use it" err &&
	rm -rf "/tmp/gemkit-$VUID" &&
	as_user "$VICTIM" mkdir -m 0777 "/tmp/gemkit-$VUID" &&
	test_expect_code 1 as_user "$VICTIM" "$GEMD" --no-debugfs 2>err &&
	grep "has mode 0777: writable by anyone; refusing to use it" err &&
	rm -rf "/tmp/gemkit-$VUID"
'

test_expect_success 'attack 8: a debugfs read of an object larger than a message is EFBIG unbuffered' '
	"$GEMCTL" -D "$SOCK" -S big -q create 200M >/dev/null &&
	"$GEMCTL" -D "$SOCK" -b list >big.out &&
	id=$(awk "\$2 == 209715200 { print \$1 }" big.out) &&
	test -n "$id" &&
	before=$(sed -n "s/^VmHWM: *\([0-9]*\) kB/\1/p" /proc/$(gemd_pid)/status) &&
	$PY "$RAW" "$SOCK" debugfs-read "gemkit_object_data/$id" >out &&
	echo "-27 0" >expect && test_cmp expect out &&
	after=$(sed -n "s/^VmHWM: *\([0-9]*\) kB/\1/p" /proc/$(gemd_pid)/status) &&
	test $((after - before)) -lt 65536 &&
	"$GEMCTL" -D "$SOCK" -S big exit
'

test_expect_success 'attack 9: --pidfile and --log-file never follow a symlink' '
	stop_gemd &&
	dir=$(mktemp -d /tmp/gemkit-trust-sticky.XXXXXX) && chmod 1777 "$dir" &&
	echo precious >"$SHARED/victim" &&
	as_user "$ATTACKER" ln -s "$SHARED/victim" "$dir/gemd.log" &&
	as_user "$ATTACKER" ln -s "$SHARED/victim" "$dir/gemd.pid" &&
	test_expect_code 1 "$GEMD" -D "$dir/card0" --no-debugfs --log-file "$dir/gemd.log" 2>err &&
	# The kernel (fs.protected_symlinks) may refuse the link first.
	grep -E "log file $dir/gemd.log( is not a file of gemd.s user; refusing|: Permission denied)" err &&
	"$GEMD" -D "$dir/card0" --no-debugfs --daemon --pidfile "$dir/gemd.pid" \
		--log-file "$TRASH/gemd9.log" &&
	test ! -L "$dir/gemd.pid" &&
	kill "$(cat "$dir/gemd.pid")" &&
	echo precious >expect && test_cmp expect "$SHARED/victim" &&
	rm -rf "$dir"
'

test_expect_success 'attack 10: I915_GEM_PIN is root'"'"'s (EACCES)' '
	start_gemd -D "$SOCK" --no-debugfs --mode 0666 &&
	as_user "$ATTACKER" $PY "$RAW" "$SOCK" pin >out &&
	echo -13 >expect && test_cmp expect out &&
	$PY "$RAW" "$SOCK" pin >out &&
	echo -2 >expect && test_cmp expect out
'

# sysfs's resource0 is 0600 root: the registers show where every client's
# tiled objects lie and what the GPU runs.
test_expect_success 'attack 11: the GPU'"'"'s registers are root'"'"'s (EACCES)' '
	as_user "$ATTACKER" $PY "$RAW" "$SOCK" status-mmio >out &&
	echo -13 >expect && test_cmp expect out &&
	$PY "$RAW" "$SOCK" status-mmio >out &&
	echo "0 524288" >expect && test_cmp expect out
'

# The interposer writes its sysfs tree (engine properties, the driver's
# links) into the runtime directory: never into one another user made,
# where a planted link would take its writes.  Without a trusted one the
# program sees no fake sysfs (and says why).
PRELOAD_SO="$GEMKIT_BUILD_DIR/.libs/libgemkit-preload.so"
victim_preloaded () {
	as_user "$VICTIM" env GEM_DEVICE="$SOCK" LD_PRELOAD="$PRELOAD_SO" "$@"
}
test_expect_success 'attack 12: no interposer sysfs tree in a runtime directory another user made' '
	rm -rf "/tmp/gemkit-$VUID" &&
	as_user "$ATTACKER" mkdir -m 0777 "/tmp/gemkit-$VUID" &&
	{ victim_preloaded cat /sys/class/drm/card0/engine/rcs0/name >out 2>err || :; } &&
	grep "runtime directory /tmp/gemkit-$VUID is owned by uid $AUID, not by you (uid $VUID); refusing to use it" err &&
	! grep rcs0 out &&
	test -z "$(ls -A "/tmp/gemkit-$VUID")" &&
	rm -rf "/tmp/gemkit-$VUID" &&
	victim_preloaded cat /sys/class/drm/card0/engine/rcs0/name >out &&
	echo rcs0 >expect && test_cmp expect out &&
	rm -rf "/tmp/gemkit-$VUID"
'

test_expect_success 'a debugfs write to a missing file: ENOENT, and no "allowed" line' '
	as_user "$ATTACKER" $PY "$RAW" "$SOCK" debugfs-write no_such_file 1 >out &&
	echo -2 >expect && test_cmp expect out &&
	$PY "$RAW" "$SOCK" debugfs-write no_such_file_either 1 >out &&
	test_cmp expect out &&
	as_user "$ATTACKER" $PY "$RAW" "$SOCK" debugfs-read no_such_file >out &&
	echo "-2 0" >expect && test_cmp expect out &&
	! grep "no_such_file" "$GEMD_LOG"
'

test_expect_success 'the socket is 0600 without --mode: other users cannot connect' '
	stop_gemd && start_gemd -D "$SOCK" --no-debugfs &&
	test_expect_code 3 as_user "$ATTACKER" "$GEMCTL" -D "$SOCK" info 2>err &&
	grep -i "permission denied" err &&
	stop_gemd
'

test_done
