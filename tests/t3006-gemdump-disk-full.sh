#!/bin/sh
# The disk fills while gemdump writes a capture (a 256 KiB tmpfs, as
# root): gemdump says "No space left on device" and leaves no file;
# gemd goes on serving everyone, and no other client's object changes.
test_description='gemdump capture onto a full disk: a clear error, nothing else harmed'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"
if ! test -x "$GEMDUMP"; then
	echo "1..0 # SKIP gemdump is not built"
	exit 0
fi
mkdir -p small
if test "$(id -u)" != 0 || ! mount -t tmpfs -o size=256k gemkit-test small 2>/dev/null; then
	echo "1..0 # SKIP needs root to mount a small tmpfs"
	exit 0
fi
# test-lib's cleanup detaches every mount under the trash directory.

test_expect_success 'setup: a victim and a 1 MiB object held by another client' '
	start_gemd --no-debugfs &&
	gemctl -q -c "h = create 65536
		write \$h --pattern 0x1122334455667788
		b = create 1048576
		fill \$b 0 0 512 512 0x77
		wait \$b
		flink \$h
		wait-hang --timeout 60s" >victim.out 2>&1 &
	victim=$! &&
	test_register_pid $victim &&
	test_wait_for 10 test -s victim.out &&
	name=$(sed -n 1p victim.out) &&
	gemctl -q -c "h = open $name; read \$h --hex --length 64" >before
'

test_expect_success 'a capture larger than the disk: ENOSPC said, no file left' '
	test_expect_code 1 "$GEMDUMP" -D "$GEMD_SOCK" capture -o small/cap 2>err &&
	grep "No space left on device" err &&
	! grep -i "input/output error" err &&
	ls -A small >left &&
	test_must_be_empty left
'

test_expect_success 'gemd serves on; the victim is unchanged' '
	gemctl -q -c "h = open $name; read \$h --hex --length 64" >after &&
	test_cmp before after &&
	gemctl -q -c "h = create 4096; fill \$h 0 0 4 1 0x5a; read \$h --length 4 --hex" >out &&
	grep "5a 00 00 00" out &&
	"$GEMDUMP" -D "$GEMD_SOCK" capture -o whole.cap &&
	test -s whole.cap &&
	kill "$victim" &&
	stop_gemd
'

test_done
