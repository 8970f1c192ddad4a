#!/bin/sh
# A few seconds of scripts/gemd-livefuzz against an ASan gemd: a hostile
# client's random and mutated messages must not crash it, make it report
# a sanitizer error, change a victim client's bytes, or write lines of
# its own into gemd's log.  Only an ASan
# build (./configure --enable-asan) runs it; others skip.
test_description='live fuzzing of an ASan gemd, briefly'
. "$(dirname "$0")/test-lib.sh"

: "${LIVEFUZZ_SECONDS:=5}"
if ! grep -q __asan_init "$GEMD" 2>/dev/null; then
	echo "1..0 # SKIP gemd is not built with AddressSanitizer (./configure --enable-asan)"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP needs python3"
	exit 0
fi

# A fixed seed, so that a failure here replays with the same messages.
test_expect_success "${LIVEFUZZ_SECONDS}s of hostile messages: no crash, no report, victim intact" '
	"$GEMKIT_SRC_DIR/scripts/gemd-livefuzz" --build "$GEMKIT_BUILD_DIR" \
		--seconds $LIVEFUZZ_SECONDS --messages 1000000000 --check-every 2000 \
		--seed 14 --workdir "$PWD/work" >out 2>&1 ||
	{ cat out; cat work/asan* work/ubsan* 2>/dev/null | head -n 60; false; }
'

test_expect_success 'the figures say so' '
	grep "^crashes: 0$" out &&
	grep "^sanitizer_reports: 0$" out &&
	grep "^victim_changed: 0$" out &&
	grep "^forged_log_lines: 0$" out &&
	test "$(sed -n "s/^messages: //p" out)" -gt 0 &&
	test "$(sed -n "s/^checks: //p" out)" -ge 1
'

test_done
