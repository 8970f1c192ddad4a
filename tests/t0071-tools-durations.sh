#!/bin/sh
# Durations and sizes read the same everywhere (common/util.c): a bare
# number of a duration is seconds, as timeout(1) and sleep(1) read it,
# with ms/us/s/m suffixes; sizes take K/M/G suffixes and 0x hex.
test_description='gemd, gemctl, gemtop, gemdump: one reading of durations and sizes'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

GEMTOP="$GEMKIT_BUILD_DIR/gemtop/gemtop"
GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"
POPULATE="$GEMKIT_BUILD_DIR/tests/gemdump/gd-populate"

test_expect_success 'gemd --hangcheck takes a duration: 1.5s, 250ms' '
	start_gemd --no-debugfs --hangcheck 1.5s --log-level info &&
	test_wait_for 10 grep -q "hangcheck every" "$GEMD_LOG" &&
	grep -q "hangcheck every 1500 ms" "$GEMD_LOG" &&
	stop_gemd &&
	: >"$GEMD_LOG" &&
	start_gemd --no-debugfs --hangcheck 250ms --log-level info &&
	test_wait_for 10 grep -q "hangcheck every" "$GEMD_LOG" &&
	grep -q "hangcheck every 250 ms" "$GEMD_LOG" &&
	stop_gemd
'

test_expect_success 'gemd --hangcheck: a bare number is seconds; junk is refused' '
	start_gemd --no-debugfs --hangcheck 2 --log-level info &&
	test_wait_for 10 grep -q "hangcheck every" "$GEMD_LOG" &&
	grep -q "hangcheck every 2000 ms" "$GEMD_LOG" &&
	stop_gemd &&
	test_expect_code 2 "$GEMD" -D "$GEMD_SOCK" --hangcheck 1.5x 2>err &&
	grep -q "invalid --hangcheck '\''1.5x'\'': a duration from 1ms to 1h" err &&
	test_expect_code 2 "$GEMD" -D "$GEMD_SOCK" --hangcheck 2h 2>err
'

test_expect_success 'gemctl --timeout 1 is one second, not one millisecond' '
	start_gemd --no-debugfs &&
	test_expect_code 124 gemctl wait-hang --timeout 1 2>err &&
	grep -q "^gemctl wait-hang: no hang within 1000ms" err &&
	test_expect_code 124 gemctl -t 0.5 -c "wait-hang" 2>err &&
	grep -q "^gemctl wait-hang: no hang within 500ms" err &&
	test_expect_code 124 gemctl wait-hang --timeout 20ms 2>err &&
	grep -q "^gemctl wait-hang: no hang within 20ms" err &&
	test_expect_code 2 gemctl wait-hang --timeout 1x 2>err
'

test_expect_success 'gemctl sizes: 4K, 0x1000 and 4096 are one size' '
	gemctl -c "a = create 4K; b = create 0x1000; c = create 4096
		write \$a --offset 1K --length 0x10 --fill 0xab
		read \$a --offset 1024 --length 16 --hex" >out &&
	tail -n 1 out >actual &&
	grep -q "^00000400: ab ab ab ab" actual
'

test_expect_success 'gemctl sizes for people on a terminal; bytes in a pipe or with -b' '
	gemctl info >pipe.out &&
	grep -q "^aperture 268435456 free [0-9]* largest hole [0-9]* pinned 131072\$" pipe.out &&
	if command -v script >/dev/null 2>&1; then
		script -qec "\"$GEMCTL\" -D \"$GEMD_SOCK\" -c \"h = create 64K; info; list\"" /dev/null |
			tr -d "\r" >tty.out &&
		grep -q "^aperture 256M free [0-9.]*M largest hole [0-9.]*M pinned 128K\$" tty.out &&
		grep -E -q "^ +[0-9]+ +64K unbound " tty.out &&
		script -qec "\"$GEMCTL\" -D \"$GEMD_SOCK\" -b info" /dev/null | tr -d "\r" >tty-b.out &&
		grep -q "^aperture 268435456 " tty-b.out
	fi
'

if test -x "$GEMTOP"; then
test_expect_success 'gemtop -d: a bare number is seconds; 500ms too; under 50ms refused' '
	"$GEMTOP" -D "$GEMD_SOCK" -b -n 1 -d 0.5 >/dev/null &&
	"$GEMTOP" -D "$GEMD_SOCK" -b -n 1 -d 500ms >/dev/null &&
	"$GEMTOP" -D "$GEMD_SOCK" -b -n 1 --delay=2 >/dev/null &&
	test_expect_code 2 "$GEMTOP" -D "$GEMD_SOCK" -b -n 1 -d 10ms 2>err &&
	echo "gemtop: invalid --delay '\''10ms'\'': expected a duration from 50ms to 1 day (1.5, 500ms)" >expect &&
	test_cmp expect err
'
fi

test_expect_success 'gemdump bo --offset and --length take size suffixes' '
	{ "$POPULATE" "$GEMD_SOCK" >populate.out 2>&1 & } &&
	test_register_pid $! &&
	test_wait_for 10 grep -q "^ready" populate.out &&
	"$GEMDUMP" -D "$GEMD_SOCK" capture -o c.core >/dev/null &&
	id=$("$GEMDUMP" list c.core | awk "NR > 1 && \$2 >= 8192 { print \$1; exit }") &&
	test -n "$id" &&
	"$GEMDUMP" bo -i c.core --hex --offset 4096 --length 64 "$id" >bytes &&
	"$GEMDUMP" bo -i c.core --hex --offset 4K --length 0x40 "$id" >suffix &&
	test_cmp bytes suffix &&
	test -s bytes &&
	test_expect_code 2 "$GEMDUMP" bo -i c.core --offset 4Q "$id" 2>err &&
	grep -q "invalid --offset '\''4Q'\''" err
'

test_expect_success 'stop gemd' '
	stop_gemd
'

test_done
