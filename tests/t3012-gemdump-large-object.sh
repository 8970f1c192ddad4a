#!/bin/sh
# An object larger than a gemd message (64 MiB) comes whole through the
# socket: gemdump reads it in pieces of 8 MiB (GDFS_SOCKET_CHUNK), and gemd
# neither copies it whole nor maps its pages to read it (issue 14,
# attack 8: a 1 GiB object once cost gemd 2 GiB).
test_description='gemdump bo: a 200 MiB object through the socket, gemd bounded'
. "$(dirname "$0")/test-lib.sh"

GEMCTL="$GEMKIT_BUILD_DIR/gemctl/gemctl"
GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"
# One piece, and as much again for its buffer's growth and slack.
BOUND_KB=16384

hwm_kb () {
	sed -n "s/^VmHWM: *\([0-9]*\) kB/\1/p" /proc/$(gemd_pid)/status
}

test_expect_success 'setup: a 200 MiB object of random bytes' '
	start_gemd --no-debugfs &&
	head -c 200M /dev/urandom >data &&
	"$GEMCTL" -D "$GEMD_SOCK" -S big -q create 200M >handle &&
	"$GEMCTL" -D "$GEMD_SOCK" -S big write "$(cat handle)" data &&
	"$GEMCTL" -D "$GEMD_SOCK" -b list >list &&
	awk "\$2 == 209715200 { print \$1 }" list >id &&
	test "$(wc -l <id)" = 1
'

test_expect_success 'gemdump bo reads it whole; gemd grows by less than 16 MiB' '
	before=$(hwm_kb) &&
	"$GEMDUMP" -D "$GEMD_SOCK" bo "$(cat id)" --raw -o out &&
	after=$(hwm_kb) &&
	echo "# gemd VmHWM $before kB -> $after kB (bound +$BOUND_KB kB)" &&
	test "$(wc -c <out)" = 209715200 &&
	test "$(sha256sum <out)" = "$(sha256sum <data)" &&
	test $((after - before)) -lt $BOUND_KB
'

test_expect_success 'a range from the middle, across pieces' '
	"$GEMDUMP" -D "$GEMD_SOCK" bo "$(cat id)" --raw --offset 8388605 --length 16777222 -o part &&
	tail -c +8388606 data | head -c 16777222 >expect &&
	test_cmp expect part
'

test_expect_success 'cleanup' '
	"$GEMCTL" -D "$GEMD_SOCK" -S big exit &&
	stop_gemd
'

test_done
