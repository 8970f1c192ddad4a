#!/bin/sh
# Truncated, corrupt and foreign captures, batches and error states: a
# clear error naming the offset or line, exit 1, never a crash.
test_description='gemdump on bad input'
. "$(dirname "$0")/test-lib.sh"

GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"
GOLDEN="$GEMKIT_SRC_DIR/tests/golden/gemdump"
if ! test -x "$GEMDUMP"; then
	echo "1..0 # SKIP gemdump is not built"
	exit 0
fi

# The sweeps below step by 11 and 9 bytes (every field of the headers and
# notes is hit at some offset): under ASan each gemdump costs ~70 ms, and
# byte-by-byte is the fuzz targets' work (tests/fuzz, fuzz-gemdump-*).
#
# Exit status 0 or 1 only: usage errors and signals are bugs here.
no_crash () {
	"$@" >/dev/null 2>crash.err
	code=$?
	if test $code -gt 1; then
		echo >&2 "exit $code: $*"
		cat >&2 crash.err
		return 1
	fi
	return 0
}

test_expect_success 'setup: a capture from the sample error state' '
	"$GEMDUMP" capture -q --from-error-state "$GOLDEN/sample-error-state-gen3.txt" -o good.core &&
	"$GEMDUMP" info good.core >/dev/null &&
	size=$(wc -c <good.core) &&
	test $size -gt 8192
'

test_expect_success 'not ELF, not a core, not ours' '
	echo hello >text &&
	test_expect_code 1 "$GEMDUMP" info text 2>err &&
	grep -q "not an ELF file" err &&
	test_expect_code 1 "$GEMDUMP" list /bin/sh 2>err &&
	grep -q "not a gemdump capture (ELF type" err &&
	: >empty &&
	test_expect_code 1 "$GEMDUMP" info empty 2>err &&
	grep -q "not an ELF file" err
'

test_expect_success 'truncated captures name what lies outside the file' '
	for n in 16 63 64 100 200 400 1000 2000 4095 4096 4100 8192 $((size - 1)); do
		head -c $n good.core >cut.core &&
		test_expect_code 1 "$GEMDUMP" info cut.core 2>err || return 1
		grep -q "truncated\|past the end\|outside the file\|past its segment" err || {
			echo "no offset for $n:"; cat err; return 1; }
	done
'

test_expect_success 'every truncation point fails cleanly (info, list, hang, bo)' '
	n=0 &&
	while test $n -lt 3000; do
		head -c $n good.core >cut.core &&
		no_crash "$GEMDUMP" info cut.core &&
		no_crash "$GEMDUMP" hang cut.core &&
		no_crash "$GEMDUMP" bo -i cut.core 2 --raw || return 1
		n=$((n + 11))
	done
'

test_expect_success 'corrupt bytes anywhere in the headers and notes never crash' '
	off=0 &&
	while test $off -lt 2600; do
		cp good.core bad.core &&
		printf "\377\377\377\177" | dd of=bad.core bs=1 seek=$off conv=notrunc 2>/dev/null &&
		no_crash "$GEMDUMP" info bad.core &&
		no_crash "$GEMDUMP" list bad.core &&
		no_crash "$GEMDUMP" hang bad.core &&
		no_crash "$GEMDUMP" find bad.core 0xa45000 || return 1
		off=$((off + 9))
	done
'

test_expect_success 'a record whose size overstates its note is refused with its offset' '
	cp good.core bad.core &&
	# the first note header is at 0x158: namesz, descsz, type, "GEMKIT\0\0",
	# then the record: version, size.  Make size 0x7fffffff.
	printf "\377\377\377\177" | dd of=bad.core bs=1 seek=$((0x158 + 24)) conv=notrunc 2>/dev/null &&
	test_expect_code 1 "$GEMDUMP" info bad.core 2>err &&
	grep -q "note at offset 0x158: bad record header" err
'

test_expect_success 'bad decode input: binary garbage decodes, text garbage names the line' '
	head -c 4096 /dev/urandom >random.bin &&
	no_crash "$GEMDUMP" decode random.bin &&
	no_crash "$GEMDUMP" decode --summary random.bin &&
	no_crash "$GEMDUMP" decode --json random.bin &&
	printf "00000000 : 02000000\n00000004 : \n" >bad.txt &&
	test_expect_code 1 "$GEMDUMP" decode bad.txt 2>err &&
	grep -q "line 2" err
'

test_expect_success 'commands that run off the end of a batch are reported, not followed' '
	printf "00000000 : 54300004\n00000004 : 03f01000\n" >short.txt &&
	"$GEMDUMP" decode --json short.txt >actual &&
	grep -q "\"truncated\":true" actual
'

test_expect_success 'bad error states: every cut of the sample fails or parses' '
	lines=$(wc -l <"$GOLDEN/sample-error-state-gen3.txt") &&
	n=1 &&
	while test $n -le $lines; do
		head -n $n "$GOLDEN/sample-error-state-gen3.txt" >cut.txt &&
		no_crash "$GEMDUMP" hang cut.txt &&
		no_crash "$GEMDUMP" capture -q --from-error-state cut.txt -o cut.core || return 1
		n=$((n + 1))
	done
'

# Found by fuzz-gemdump-errstate: an object size read from the text was
# allocated as is (1.3 GB); none may be larger than a 945G's GTT.
test_expect_success 'an error state naming an object larger than the GTT is refused' '
	test_expect_code 1 "$GEMDUMP" hang "$GOLDEN/errstate-huge-object.txt" 2>err &&
	grep "errstate-huge-object.txt: File too large" err
'

test_done
