#!/bin/sh
# The tools trust nothing they read: a debugfs tree whose gemkit_objects
# is /dev/zero or a FIFO makes gemtop, gemctl and gemdump fail at once
# with the reason (no 24 GB of zeros, no hang), and a gemd that stopped
# answering makes them give up after their timeout.
test_description='gemtop, gemctl, gemdump: non-regular files refused, reads bounded in time'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

GEMTOP="$GEMKIT_BUILD_DIR/gemtop/gemtop"
GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"

if ! test_have_fuse; then
	echo "1..0 # SKIP no FUSE: the trees are copied from a live mount"
	exit 0
fi

# tree/dri/0 and dev/debugfs/dri/0 (where the tools once guessed a tree
# beside a socket path): copies of a live gemd's files, with gemkit_objects
# replaced by $1.
make_trees () {
	for t in tree dev/debugfs; do
		rm -rf "$t" && mkdir -p "$t/dri/0" &&
		for f in "$DFS"/dri/0/*; do
			test -f "$f" || continue
			case "$f" in */gemkit_aperture) continue ;; esac
			cat "$f" >"$t/dri/0/${f##*/}" || return 1
		done &&
		rm "$t/dri/0/gemkit_objects" &&
		case "$1" in
		zero) ln -s /dev/zero "$t/dri/0/gemkit_objects" ;;
		fifo) mkfifo "$t/dri/0/gemkit_objects" ;;
		esac || return 1
	done
}

DFS="$TRASH/debugfs"	# the tools find it by asking gemd

test_expect_success 'a live tree to copy' '
	start_gemd --debugfs "$DFS" &&
	test_wait_for 10 test -f "$DFS/dri/0/name" &&
	gemctl -q -c "h = create 8192; fill \$h 0 0 4 4 1; wait \$h"
'

for kind in zero fifo; do
	test_expect_success "gemkit_objects is $kind: the tools refuse it" '
		make_trees '$kind' &&
		if test -x "$GEMTOP"; then
			test_expect_code 1 timeout 60 "$GEMTOP" --debugfs tree -b -n 1 \
				>/dev/null 2>err &&
			echo "gemtop: gemkit_objects: not a regular file" >expect &&
			test_cmp expect err
		fi &&
		# A tree beside a socket path is no gemd: gemctl reads only
		# the tree the gemd it reaches names (issue 14, attack 7).
		test_expect_code 3 timeout 60 "$GEMCTL" -D dev/card0 list 2>err &&
		grep "^gemctl list: no gemd at dev/card0" err &&
		test_expect_code 1 timeout 60 "$GEMDUMP" --debugfs tree capture -o cap 2>err &&
		echo "gemdump capture: reading tree/dri/0/gemkit_objects: not a regular file" >expect &&
		test_cmp expect err &&
		! test -e cap
	'
done

# SIGSTOP: the mount and the socket are there and nobody answers them.
# The tools give up on a reader thread left in a FUSE read of the stopped
# gemd; in an ASan build LeakSanitizer would then try to stop that thread
# at exit, which it cannot, and the tool would never end: no leak check
# for these runs.
no_lsan () {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$@"
}

test_expect_success 'a stopped gemd: gemctl gives up after -t' '
	pid=$(gemd_pid) &&
	kill -STOP "$pid" &&
	test_expect_code 124 no_lsan timeout 60 "$GEMCTL" -D "$GEMD_SOCK" -t 300ms list 2>err ||
	{ kill -CONT "$pid"; false; } &&
	kill -CONT "$pid" &&
	echo "gemctl list: gemd at $GEMD_SOCK does not answer (is it stopped or hung?)" >expect &&
	test_cmp expect err &&
	gemctl list >/dev/null
'

test_expect_success 'a stopped gemd without a mount: the socket times out too' '
	stop_gemd &&
	start_gemd --no-debugfs &&
	pid=$(gemd_pid) &&
	kill -STOP "$pid" &&
	test_expect_code 124 timeout 60 "$GEMCTL" -D "$GEMD_SOCK" -t 300ms list 2>err ||
	{ kill -CONT "$pid"; false; } &&
	kill -CONT "$pid" &&
	test_cmp expect err
'

if test -x "$GEMTOP"; then
test_expect_success 'a stopped gemd: gemtop gives up after 5 s' '
	pid=$(gemd_pid) &&
	kill -STOP "$pid" &&
	test_expect_code 124 no_lsan timeout 60 "$GEMTOP" -D "$GEMD_SOCK" -b -n 1 >/dev/null 2>err ||
	{ kill -CONT "$pid"; false; } &&
	kill -CONT "$pid" &&
	echo "gemtop: gemd at $GEMD_SOCK does not answer (is it stopped or hung?)" >expect &&
	test_cmp expect err
'
fi

test_expect_success 'stop gemd' '
	stop_gemd
'

test_done
