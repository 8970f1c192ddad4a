#!/bin/sh
# gemd's command line: help, version, option errors and the device path rule.
test_description='gemd options and the device path rule'
. "$(dirname "$0")/test-lib.sh"

test_expect_success '--help mentions every option and exits 0' '
	"$GEMD" --help >out 2>err &&
	test_must_be_empty err &&
	for opt in -D --device --daemon --pidfile --aperture --gpu-rate --gpu-nice \
		--syslog --log-file -v --verbose -q --quiet --log-level \
		-h --help -V --version; do
		grep -e "$opt\\b" out || { echo "missing: $opt"; return 1; }
	done &&
	grep "GEM_DEVICE" out &&
	grep "XDG_RUNTIME_DIR/gemkit/card0" out
'

test_expect_success '-h is --help' '
	"$GEMD" -h >out.h &&
	"$GEMD" --help >out &&
	test_cmp out out.h
'

test_expect_success '--version prints the package version' '
	"$GEMD" --version >out &&
	grep -E "^gemd \\(gemkit\\) [0-9]+\\.[0-9]+" out &&
	"$GEMD" -V >out.v &&
	test_cmp out out.v
'

test_expect_success 'bad --aperture values exit 2 and name the value' '
	for v in 3M 0 512K 1G abc 16MiBs -1; do
		test_expect_code 2 "$GEMD" --aperture "$v" 2>err &&
		grep -F "'\''$v'\''" err &&
		grep "power of two" err || return 1
	done
'

test_expect_success 'the smallest and largest apertures are accepted' '
	start_gemd --aperture 1M &&
	"$GEMD" --ping -D "$GEMD_SOCK" &&
	stop_gemd &&
	start_gemd --aperture 512M &&
	stop_gemd
'

test_expect_success 'an unknown option exits 2 and names it' '
	test_expect_code 2 "$GEMD" --no-such-option 2>err &&
	grep "unknown option '\''--no-such-option'\''" err &&
	grep "gemd --help" err &&
	test_expect_code 2 "$GEMD" -Z 2>err &&
	grep "unknown option '\''-Z'\''" err
'

test_expect_success 'a missing option argument exits 2' '
	test_expect_code 2 "$GEMD" --aperture 2>err &&
	grep "needs an argument" err
'

test_expect_success 'a stray argument exits 2' '
	test_expect_code 2 "$GEMD" extra 2>err &&
	grep "unexpected argument '\''extra'\''" err
'

test_expect_success 'bad --gpu-rate values exit 2' '
	test_expect_code 2 "$GEMD" --gpu-rate fast 2>err &&
	grep "fast" err &&
	test_expect_code 2 "$GEMD" --gpu-rate 800M,soon 2>err &&
	grep "soon" err &&
	test_expect_code 2 "$GEMD" --gpu-rate 800M, 2>err
'

test_expect_success 'good --gpu-rate values start' '
	start_gemd --gpu-rate 800M,2500 &&
	stop_gemd &&
	start_gemd --gpu-rate 1G,2us &&
	stop_gemd
'

test_expect_success 'bad --gpu-nice values exit 2' '
	for v in -21 1 19 x ""; do
		test_expect_code 2 "$GEMD" --gpu-nice "$v" 2>err &&
		grep -qF "invalid --gpu-nice '\''$v'\'': must be a number from -20 to 0" err ||
		{ echo "accepted: $v"; return 1; }
	done
'

# The nice value of gemd's thread named comm (field 19 of its stat).
thread_nice () {
	for t in /proc/$(gemd_pid)/task/*; do
		if test "$(cat $t/comm)" = "$1"; then
			awk "{ print \$19 }" $t/stat
		fi
	done
}

# gpu_nice_is NICE [GEMD OPTIONS]: a gemd started with the options has its
# GPU thread at NICE and its retire thread at its own 0.
gpu_nice_is () {
	want=$1
	shift
	start_gemd --no-debugfs "$@" &&
	echo "$want" >expect &&
	thread_nice gpu-cs >actual &&
	test_cmp expect actual &&
	echo 0 >expect &&
	thread_nice gemd-retire >actual &&
	test_cmp expect actual &&
	stop_gemd
}

# The kernel lowers a nice value for root (CAP_SYS_NICE) only here.
if test "$(id -u)" = 0; then
test_expect_success 'the GPU thread runs at nice -10, gemd at its own' '
	gpu_nice_is -10 &&
	gpu_nice_is -3 --gpu-nice -3 &&
	gpu_nice_is 0 --gpu-nice 0
'
else
test_expect_success 'a GPU thread gemd may not lower runs at its nice, and says why' '
	: >"$GEMD_LOG" &&
	start_gemd --no-debugfs --log-level info &&
	echo 0 >expect &&
	thread_nice gpu-cs >actual &&
	test_cmp expect actual &&
	grep -q "the GPU.s thread runs at gemd.s priority: nice -10 needs CAP_SYS_NICE or RLIMIT_NICE" "$GEMD_LOG" &&
	stop_gemd
'
fi

test_expect_success 'a bad --log-level exits 2' '
	test_expect_code 2 "$GEMD" --log-level loud 2>err &&
	grep "loud" err
'

test_expect_success '-v logs more' '
	start_gemd -v &&
	stop_gemd &&
	grep "info: listening on $GEMD_SOCK" "$GEMD_LOG"
'

test_expect_success '$GEM_DEVICE is respected' '
	mkdir env &&
	GEM_DEVICE="$TRASH/envcard" "$GEMD" --daemon \
		--pidfile env.pid --log-file env.log &&
	test_pidfiles="$test_pidfiles $TRASH/env.pid" &&
	test -S "$TRASH/envcard" &&
	GEM_DEVICE="$TRASH/envcard" "$GEMD" --ping >out &&
	echo i915 >expect &&
	test_cmp expect out &&
	kill -TERM "$(cat env.pid)" &&
	test_wait_for 10 test_must_fail test -e "$TRASH/envcard"
'

test_expect_success '-D wins over $GEM_DEVICE' '
	GEM_DEVICE="$TRASH/envcard" start_gemd &&
	test -S "$GEMD_SOCK" &&
	test ! -e "$TRASH/envcard" &&
	stop_gemd
'

test_expect_success 'the default path is $XDG_RUNTIME_DIR/gemkit/card0' '
	XDG_RUNTIME_DIR="$TRASH/xdg" "$GEMD" --daemon --pidfile xdg.pid \
		--log-file xdg.log &&
	test_pidfiles="$test_pidfiles $TRASH/xdg.pid" &&
	test -S "$TRASH/xdg/gemkit/card0" &&
	# Made 0700 by this gemd: no earlier gemd of another -D made it
	# (0755) for a debugfs tree of its own, as they did before their
	# trees were named after their sockets.
	test "$(stat -c %a "$TRASH/xdg/gemkit")" = 700 &&
	"$GEMD" --ping >out &&
	test_cmp expect out &&
	kill -TERM "$(cat xdg.pid)" &&
	test_wait_for 10 test_must_fail test -e "$TRASH/xdg/gemkit/card0"
'

test_expect_success 'a relative -D works and is served by its absolute path' '
	start_gemd &&
	stop_gemd &&
	"$GEMD" -D rel/card0 --daemon --pidfile rel.pid --log-file rel.log &&
	test_pidfiles="$test_pidfiles $TRASH/rel.pid" &&
	test -S "$TRASH/rel/card0" &&
	grep "serving $TRASH/rel/card0" rel.log &&
	kill -TERM "$(cat rel.pid)" &&
	test_wait_for 10 test_must_fail test -e rel.pid
'

test_done
