#!/bin/sh
# Run the wire/ioctl libFuzzer target briefly (built with --enable-fuzzing
# and clang; skipped otherwise), seeded with one well-formed call of every
# ioctl after a GEM_CREATE, so that each handler is reached from the start.
test_description='gemd message decoding and ioctl argument checks, fuzzed briefly'
. "$(dirname "$0")/test-lib.sh"

FUZZ="$GEMKIT_BUILD_DIR/tests/fuzz"
: "${WIRE_FUZZ_SECONDS:=10}"
if ! test -x "$FUZZ/fuzz-wire"; then
	echo "1..0 # SKIP fuzz target not built (./configure --enable-fuzzing CC=clang)"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP needs python3 to write the seeds"
	exit 0
fi

# A record is u8 index, u8 how (1: as root), u32 arg, u16 len, payload
# (tests/fuzz/fuzz-wire.c); the struct is zero but for GEM_CREATE's size.
test_expect_success 'seed corpus: every ioctl after a GEM_CREATE' '
	"$FUZZ/wire-ioctls" >ioctls &&
	mkdir -p corpus &&
	python3 - ioctls corpus <<-\PY
	import struct, sys
	names = [l.split() for l in open(sys.argv[1])]
	create = [i for i, (n, c) in enumerate(names) if n == "I915_GEM_CREATE"][0]
	def rec(i, payload, how=1):
	    return struct.pack("<BBIH", i, how, 0, len(payload)) + payload
	head = rec(create, struct.pack("<QII", 4096, 0, 0))
	for i, (n, c) in enumerate(names):
	    size = (int(c, 16) >> 16) & 0x3fff
	    body = bytearray(size)
	    if size >= 4:
	        body[0] = 1	# most structs start with a handle
	    for how in (0, 1):
	        open("%s/%s-%d" % (sys.argv[2], n, how), "wb").write(
	            head + rec(i, bytes(body), how))
	PY
	test $(ls corpus | wc -l) = $((2 * $(wc -l <ioctls)))
'

test_expect_success "fuzz-wire runs ${WIRE_FUZZ_SECONDS}s without a finding" '
	"$FUZZ/fuzz-wire" -max_total_time=$WIRE_FUZZ_SECONDS -max_len=65536 \
		-rss_limit_mb=2048 -timeout=30 corpus >fuzz.log 2>&1 ||
	{ tail -n 60 fuzz.log; false; }
'

test_done
