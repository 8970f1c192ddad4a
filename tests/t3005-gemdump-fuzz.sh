#!/bin/sh
# Run gemdump's libFuzzer targets briefly (built with --enable-fuzzing and
# clang; skipped otherwise), seeded with the golden inputs.
test_description='gemdump fuzz targets, briefly'
. "$(dirname "$0")/test-lib.sh"

FUZZ="$GEMKIT_BUILD_DIR/tests/fuzz"
GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"
GOLDEN="$GEMKIT_SRC_DIR/tests/golden/gemdump"
: "${GEMDUMP_FUZZ_SECONDS:=10}"
if ! test -x "$FUZZ/fuzz-gemdump-capture"; then
	echo "1..0 # SKIP fuzz targets not built (./configure --enable-fuzzing CC=clang)"
	exit 0
fi

test_expect_success 'seed corpora' '
	mkdir -p capture batch errstate &&
	cp "$GOLDEN"/*.txt errstate/ &&
	cp "$GOLDEN"/mi.txt "$GOLDEN"/blit.txt "$GOLDEN"/3d.txt batch/ &&
	if test -x "$GEMDUMP"; then
		"$GEMDUMP" capture -q --from-error-state "$GOLDEN/errstate-3.2.txt" -o capture/es.core
	fi
'

for t in capture batch errstate; do
	test_expect_success "fuzz-gemdump-$t runs ${GEMDUMP_FUZZ_SECONDS}s without a finding" '
		"$FUZZ/fuzz-gemdump-$t" -max_total_time=$GEMDUMP_FUZZ_SECONDS -max_len=65536 \
			-rss_limit_mb=1024 -timeout=10 $t >fuzz-$t.log 2>&1 ||
		{ tail -n 40 fuzz-$t.log; false; }
	'
done

test_done
