#!/bin/sh
# Run gemd's decoding fuzz targets briefly (built with --enable-fuzzing
# and clang; skipped otherwise): fuzz-wire seeded with one well-formed call
# of every ioctl after a GEM_CREATE, so that each handler is reached from
# the start, fuzz-shmring with two ring states, and fuzz-msgfd with every
# message that takes a descriptor and every kind of descriptor.
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

# A record is u8 index, u8 how (1: as root; bits 3-5: the descriptor's
# kind), u32 arg, u16 len, payload
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
	    if n == "PRIME_FD_TO_HANDLE":	# with each kind of descriptor
	        for kind in range(1, 7):
	            open("%s/%s-fd%d" % (sys.argv[2], n, kind), "wb").write(
	                head + rec(i, bytes(body), 1 | kind << 3))
	PY
	test $(ls corpus | wc -l) = $((2 * $(wc -l <ioctls) + 6))
'

# fuzz-shmring's input: u32 head, u32 tail, then the ring from tail on.
# One GEM_CLOSE request; and a GEM_MSG_SKIP filler at the ring's end
# before one.
test_expect_success 'seed corpus: the shared ring' '
	mkdir -p ring &&
	python3 - ring <<-\PY
	import struct, sys
	def hdr(type_, len_, request=0, file_=(1, 2)):
	    return struct.pack("<IHHIIQQ", 0x474d4431, type_, 0, len_, request, *file_)
	close = hdr(16, 8, 0x40086409) + struct.pack("<II", 1, 0)
	open(sys.argv[1] + "/one", "wb").write(struct.pack("<II", len(close), 0) + close)
	tail = (128 << 10) - 32
	skip = hdr(4, 0, 0, (0, 0))	# the 32 bytes left: a header alone
	open(sys.argv[1] + "/wrap", "wb").write(
	    struct.pack("<II", tail + len(skip) + len(close), tail) + skip + close)
	PY
	test $(ls ring | wc -l) = 2
'

# fuzz-msgfd's records: u8 what, u8 how (bit 0: on the file connection;
# bits 1-3: the descriptors; bit 4: on uid 65534's channel), u8 token,
# u8 flags, u32 arg, u16 len, payload (tests/fuzz/fuzz-msgfd.c).  Every
# message of its table with every kind of descriptor on every connection,
# the payload of the size its handler wants.
test_expect_success 'seed corpus: descriptors on every message that takes one' '
	mkdir -p msgfd &&
	python3 - msgfd <<-\PY
	import struct, sys
	prime = struct.pack("<IIi", 1, 0x80002, -1)	# handle 1, O_CLOEXEC|O_RDWR
	whats = [	# (request, payload) by fuzz-msgfd.c whats[] index
	    (0, b""), (0, b""), (0, struct.pack("<II", 0, 100)),
	    (0, struct.pack("<II", 1, 2)), (0, prime), (0, prime),
	    (0, struct.pack("<QII", 4096, 0, 0)), (0, struct.pack("<II", 1, 0)),
	    (1, b""), (0, struct.pack("<QQ", 0, 4096)), (2, b""), (0, b""),
	    (0, b""), (0, b"i915_capabilities\0")]
	def rec(what, how, request, payload, token=0):
	    return struct.pack("<BBBBIH", what, how, token, 0, request,
	                       len(payload)) + payload
	for w, (request, payload) in enumerate(whats):
	    for kind in range(8):
	        for conn in (0, 1, 16):
	            create = rec(6, 0, 0, whats[6][1])
	            open("%s/%02d-%d-%d" % (sys.argv[1], w, kind, conn), "wb").write(
	                create + rec(w, conn | kind << 1, request, payload))
	PY
	test $(ls msgfd | wc -l) = 336
'

test_expect_success "fuzz-shmring runs ${WIRE_FUZZ_SECONDS}s without a finding" '
	"$FUZZ/fuzz-shmring" -max_total_time=$WIRE_FUZZ_SECONDS -max_len=140000 \
		-rss_limit_mb=2048 -timeout=30 ring >fuzz-ring.log 2>&1 ||
	{ tail -n 60 fuzz-ring.log; false; }
'

test_expect_success "fuzz-wire runs ${WIRE_FUZZ_SECONDS}s without a finding" '
	"$FUZZ/fuzz-wire" -max_total_time=$WIRE_FUZZ_SECONDS -max_len=65536 \
		-rss_limit_mb=2048 -timeout=30 corpus >fuzz.log 2>&1 ||
	{ tail -n 60 fuzz.log; false; }
'

test_expect_success "fuzz-msgfd runs ${WIRE_FUZZ_SECONDS}s without a finding" '
	"$FUZZ/fuzz-msgfd" -max_total_time=$WIRE_FUZZ_SECONDS -max_len=4096 \
		-rss_limit_mb=2048 -timeout=30 msgfd >fuzz-msgfd.log 2>&1 ||
	{ tail -n 60 fuzz-msgfd.log; false; }
'

test_done
