#!/bin/sh
# One gemd, one state (issue 14, attack 7).  Two gemds started in one
# runtime directory with different -D each mount their own debugfs tree
# (<socket path>.debugfs), and gemtop, gemctl and gemdump pointed at one
# show that one's objects and say which gemd they read and how.  gemctl run
# says whom it joins, never joins another user's gemd, and --private
# always starts its own.
test_description='two gemds side by side; gemctl run --private and joining'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

GEMTOP="$GEMKIT_BUILD_DIR/gemtop/gemtop"
GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"
WORKLOAD="$GEMKIT_BUILD_DIR/tests/gemtop-workload"
if ! test -x "$WORKLOAD"; then
	echo "1..0 # SKIP $WORKLOAD is not built (no ncursesw)"
	exit 0
fi

RT="$XDG_RUNTIME_DIR/gemkit"
A="$RT/card0"		# the default device path
B="$RT/card1"
mkdir -p -m 0700 "$XDG_RUNTIME_DIR" "$RT"

# start_named NAME SOCKET [GEMD OPTIONS]: a gemd with NAME.pid, NAME.log.
start_named () {
	name=$1 sock=$2
	shift 2
	test_pidfiles="$test_pidfiles $TRASH/$name.pid"
	"$GEMD" -D "$sock" --daemon --pidfile "$TRASH/$name.pid" \
		--log-file "$TRASH/$name.log" "$@"
}

stop_named () {
	pid=$(cat "$TRASH/$1.pid") &&
	kill -TERM "$pid" &&
	test_wait_for 10 test_pid_gone_ "$pid"
}

# how SOCKET: how the tools read that gemd, as gdfs_origin says it.
how () {
	if test_have_fuse; then
		echo "mount $1.debugfs/dri/0"
	else
		echo "over the socket"
	fi
}

test_expect_success 'two gemds in one runtime directory each mount their own tree' '
	start_named a "$A" --aperture 16M &&
	start_named b "$B" --aperture 32M &&
	pa=$(cat a.pid) && pb=$(cat b.pid) &&
	! grep "cannot mount" a.log b.log &&
	if test_have_fuse; then
		test -f "$A.debugfs/dri/0/name" &&
		test -f "$B.debugfs/dri/0/name" &&
		test "$(stat -f -c %T "$A.debugfs")" != "$(stat -f -c %T "$RT")" &&
		test "$(stat -c %d "$A.debugfs")" != "$(stat -c %d "$B.debugfs")"
	fi
'

test_expect_success 'objects made on one gemd show on that one only' '
	rm -f ready &&
	"$WORKLOAD" -D "$B" -n 3 -s 64K -r ready &
	WORKLOAD_PID=$! &&
	test_register_pid $WORKLOAD_PID &&
	test_wait_for 10 test -s ready &&
	"$GEMCTL" -D "$B" list >list-b &&
	test $(grep -c "gemtop-workload($WORKLOAD_PID)" list-b) = 3 &&
	"$GEMCTL" -D "$A" list >list-a &&
	! grep gemtop-workload list-a
'

test_expect_success 'gemtop -b: each its own, and the header says which gemd and how' '
	if test -x "$GEMTOP"; then
		"$GEMTOP" -D "$B" -b -n 1 >top-b &&
		echo "gemtop - gemd $B (pid $pb), $(how "$B") - sample 1" >expect &&
		head -n 1 top-b >head &&
		test_cmp expect head &&
		grep "^Aperture: .* / 33554432 used" top-b &&
		test $(grep -c " $WORKLOAD_PID/gemtop-workload " top-b) = 3 &&
		"$GEMTOP" -D "$A" -b -n 1 >top-a &&
		echo "gemtop - gemd $A (pid $pa), $(how "$A") - sample 1" >expect &&
		head -n 1 top-a >head &&
		test_cmp expect head &&
		grep "^Aperture: .* / 16777216 used" top-a &&
		! grep gemtop-workload top-a
	fi
'

test_expect_success 'gemctl info: the device, the gemd that answered, its state' '
	"$GEMCTL" -b -D "$B" info >info-b &&
	head -n 4 info-b >head &&
	cat >expect <<-EOF &&
	device $B
	from gemd $B (pid $pb), $(how "$B")
	debugfs $(test_have_fuse && echo "$B.debugfs/dri/0" || echo "socket $B")
	aperture 33554432 free 33423360 largest hole 33423360 pinned 131072
	EOF
	test_cmp expect head &&
	grep -x "objects 4 bytes 327680" info-b &&
	"$GEMCTL" -b -D "$A" info >info-a &&
	grep -x "from gemd $A (pid $pa), $(how "$A")" info-a &&
	grep -x "objects 1 bytes 131072" info-a
'

test_expect_success 'gemdump: a capture and hang say which gemd they read' '
	"$GEMDUMP" -D "$B" capture -q -o b.core &&
	"$GEMDUMP" info b.core >dump-b &&
	# 127 bytes at most: which gemd first, then how when it fits; a
	# socket path too long for it keeps its end, after "...".
	grep -x "source:    \(gemd $B\|\.\.\..*/card1\) (pid $pb), \($(how "$B")\|mount\)" dump-b &&
	grep "^device:    .*aperture 33554432 bytes" dump-b &&
	grep "^objects:   4 (327680 bytes)" dump-b &&
	"$GEMDUMP" -D "$A" capture -q -o a.core &&
	"$GEMDUMP" info a.core >dump-a &&
	grep "^objects:   1 (131072 bytes)" dump-a &&
	test_expect_code 1 "$GEMDUMP" -D "$B" hang 2>err &&
	echo "gemdump hang: i915_error_state of gemd $B (pid $pb), $(how "$B"): no GPU hang recorded" >expect &&
	test_cmp expect err
'

# The old guess: a tree at <runtime dir>/debugfs, beside the socket.  Here
# a third gemd serves its tree there; a gemd without one is still read
# over its own socket.
test_expect_success 'a gemd without a mount is read over its socket, not a tree beside it' '
	start_named c "$RT/card2" --aperture 8M --no-debugfs &&
	start_named d "$RT/card3" --debugfs "$RT/debugfs" &&
	pc=$(cat c.pid) &&
	"$GEMCTL" -b -D "$RT/card2" info >info-c &&
	grep -x "from gemd $RT/card2 (pid $pc), over the socket" info-c &&
	grep -x "debugfs socket $RT/card2" info-c &&
	grep "^aperture 8388608 " info-c &&
	stop_named c &&
	stop_named d
'

# gemd names its mount; a tool reads it only if the directory there is
# that mount (its st_dev), never whatever took its place.
test_expect_success 'a tree where the mount was is not the gemd'"'"'s: over the socket' '
	if test_have_fuse && command -v fusermount3 >/dev/null; then
		start_named e "$RT/card4" --aperture 8M --debugfs "$TRASH/e-dfs" &&
		pe=$(cat e.pid) &&
		test_wait_for 10 test -f e-dfs/dri/0/name &&
		fusermount3 -uz "$TRASH/e-dfs" &&
		mkdir -p e-dfs/dri/0 &&
		cp "$B.debugfs/dri/0/name" "$B.debugfs/dri/0/gemkit_objects" \
			"$B.debugfs/dri/0/gemkit_counters" e-dfs/dri/0/ &&
		"$GEMCTL" -b -D "$RT/card4" info >info-e &&
		grep -x "from gemd $RT/card4 (pid $pe), over the socket" info-e &&
		grep "^aperture 8388608 " info-e &&
		grep -x "objects 1 bytes 131072" info-e &&
		stop_named e
	fi
'

test_expect_success 'each gemd removes the tree it made when it stops' '
	kill $WORKLOAD_PID && wait $WORKLOAD_PID
	stop_named a &&
	stop_named b &&
	! test -e "$A.debugfs" &&
	! test -e "$B.debugfs" &&
	! grep -q " $RT/" /proc/mounts
'

test_expect_success 'gemctl run says which gemd it joins' '
	start_named a "$A" &&
	pa=$(cat a.pid) &&
	"$GEMCTL" run sh -c "echo \"\$GEM_DEVICE\"" >out 2>err &&
	echo "$A" >expect &&
	test_cmp expect out &&
	echo "gemctl run: joining gemd $pa at $A (--private for a gemd of its own)" >expect &&
	test_cmp expect err
'

test_expect_success 'gemctl run --private starts its own gemd though one answers' '
	"$GEMCTL" run --private sh -c "echo \"\$GEM_DEVICE\"" >dev 2>err &&
	test_must_be_empty err &&
	dir=$(dirname "$(cat dev)") &&
	case "$dir" in /tmp/gemctl-run.*) ;; *) false ;; esac &&
	! test -e "$dir"
'

test_expect_success 'gemctl run --gemd-opt: options of the private gemd' '
	# gemctl itself without the interposer: a sanitized build of it
	# cannot run with a plain library preloaded ahead of its runtime.
	"$GEMCTL" run --gemd-opt=--aperture=8M --gemd-opt --no-debugfs -- \
		env -u LD_PRELOAD "$GEMCTL" -b info >info 2>err &&
	test_must_be_empty err &&
	grep "^aperture 8388608 " info &&
	grep -x "from gemd /tmp/gemctl-run\.[A-Za-z0-9]*/card0 (pid [0-9]*), over the socket" info &&
	stop_named a
'

test_expect_success 'gemctl run never joins another user'"'"'s gemd' '
	if test "$(id -u)" = 0 && command -v setpriv >/dev/null; then
		mkdir -m 0777 other &&
		(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$GEMD" -D "$TRASH/other/card0" --daemon --mode 0666 \
			--no-debugfs --pidfile "$TRASH/other/gemd.pid" \
			--log-file "$TRASH/other/gemd.log") &&
		test_pidfiles="$test_pidfiles $TRASH/other/gemd.pid" &&
		po=$(cat other/gemd.pid) &&
		test_expect_code 3 "$GEMCTL" run -D "$TRASH/other/card0" \
			touch ran 2>err &&
		echo "gemctl run: the gemd at $TRASH/other/card0 (pid $po) is uid 65534'"'"'s, not yours (uid 0); refusing to join it (--private starts one of your own)" >expect &&
		test_cmp expect err &&
		! test -e ran &&
		kill "$po"
	fi
'

test_expect_success 'gemctl run: --help and the completion know --private and --gemd-opt' '
	"$GEMCTL" run --help >out &&
	grep "^      --private  *start a gemd of its own even if one answers$" out &&
	grep "^      --gemd-opt OPT  *one argument for the private gemd" out &&
	"$GEMCTL" --complete -- run --pr >out &&
	echo --private >expect &&
	test_cmp expect out &&
	"$GEMCTL" --complete -- run --gemd >out &&
	echo --gemd-opt >expect &&
	test_cmp expect out &&
	"$GEMCTL" --complete -- run --private "" >out &&
	echo @commands >expect &&
	test_cmp expect out
'

test_done
