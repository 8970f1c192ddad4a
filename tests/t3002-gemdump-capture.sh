#!/bin/sh
# gemdump capture of a live gemd, and info/list/bo/find/diff on it:
# capture round trips equal the live state; readelf reads every capture
# without a warning; the file is written whole or not at all.
test_description='gemdump capture, info, list, bo, find, diff'
. "$(dirname "$0")/test-lib.sh"

GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"
POPULATE="$GEMKIT_BUILD_DIR/tests/gemdump/gd-populate"
if ! test -x "$GEMDUMP" || ! test -x "$POPULATE"; then
	echo "1..0 # SKIP gemdump or tests/gemdump/gd-populate is not built"
	exit 0
fi
gd () {
	"$GEMDUMP" -D "$GEMD_SOCK" "$@"
}

# readelf and eu-readelf must say nothing on stderr.
elf_clean () {
	readelf -a -W "$1" >/dev/null 2>elf.err &&
	test_must_be_empty elf.err &&
	if command -v eu-readelf >/dev/null; then
		eu-readelf -a "$1" >/dev/null 2>elf.err &&
		test_must_be_empty elf.err
	fi
}

test_expect_success 'setup: gemd and a client holding known objects' '
	start_gemd &&
	{ "$POPULATE" "$GEMD_SOCK" >populate.out 2>&1 & } &&
	test_register_pid $! &&
	test_wait_for 10 grep -q "^ready" populate.out &&
	flink=$(sed -n "s/^ready //p" populate.out) &&
	test "$flink" -gt 0
'

test_expect_success 'capture writes an ELF core that readelf reads cleanly' '
	gd capture -o live.core >out &&
	grep -q "^live.core: 5 objects, 5 with contents" out &&
	elf_clean live.core &&
	readelf -h live.core >hdr &&
	grep -q "Type: *CORE" hdr &&
	grep -q "Machine: *None" hdr
'

test_expect_success 'no temporary file is left behind' '
	ls >files &&
	! grep -q "\.tmp\." files
'

test_expect_success 'a PT_LOAD per bound object, at its GTT offset' '
	gd list live.core | awk "NR > 1 && \$5 != \"-\" { print \$5 }" | sort >expect &&
	readelf -l -W live.core | awk "\$1 == \"LOAD\" { print \"0x\" substr(\$3, 11) }" |
		sort >actual &&
	test_cmp expect actual
'

test_expect_success 'sections name each object and the ring' '
	readelf -S -W live.core >sections &&
	grep -q "\.gem\.ring\.render" sections &&
	for id in $(gd list live.core | awk "NR > 1 { print \$1 }"); do
		grep -q "\.gem\.bo\.$id " sections || return 1
	done
'

test_expect_success 'list: gemtop'"'"'s columns, the flink name, the client' '
	"$GEMDUMP" list live.core >list &&
	head -n 1 list >actual &&
	echo "      ID       SIZE LIST     DOMAINS   OFFSET     FLAGS     RSEQ    WSEQ CLIENT                NAME DUMP" >expect &&
	test_cmp expect actual &&
	awk "\$10 == \"$flink\" { print \$2 }" list >size &&
	echo 65536 >expect &&
	test_cmp expect size &&
	grep -q " [0-9]*/gd-populate " list &&
	awk "\$1 == 1 { print \$6, \$11 }" list >actual &&
	echo "p..... R.c" >expect &&
	test_cmp expect actual
'

test_expect_success 'bo from the capture equals bo from the live driver' '
	gd bo name:$flink --raw >live.bin &&
	"$GEMDUMP" bo -i live.core name:$flink --raw >cap.bin &&
	cmp live.bin cap.bin &&
	test $(wc -c <cap.bin) -eq 65536 &&
	for id in $(gd list live.core | awk "NR > 1 { print \$1 }"); do
		gd bo $id --raw >l.bin &&
		"$GEMDUMP" bo -i live.core $id --raw >c.bin &&
		cmp l.bin c.bin || return 1
	done
'

test_expect_success 'bo --hex, --offset, --length and -o' '
	"$GEMDUMP" bo -i live.core name:$flink --hex --offset 16 --length 32 >actual &&
	printf "0x00000010: a0000004 a0000005 a0000006 a0000007\n0x00000020: a0000008 a0000009 a000000a a000000b\n" >expect &&
	test_cmp expect actual &&
	"$GEMDUMP" bo -i live.core name:$flink -o out.bin --length 8 &&
	printf "\000\000\000\240\001\000\000\240" >expect.bin &&
	cmp expect.bin out.bin
'

test_expect_success 'bo @ADDR finds the batch; --decode decodes it' '
	batch=$(awk "NR > 1 && \$2 == 4096 && \$5 != \"-\" { print \$5 }" list) &&
	"$GEMDUMP" bo -i live.core @$batch --decode >actual &&
	head -n 1 actual | grep -q "^$batch: HEAD 0x54300004: XY_COLOR_BLT"
'

test_expect_success 'find: == inside an object, >= just past one' '
	batch=$(awk "NR > 1 && \$2 == 4096 && \$5 != \"-\" { print \$5 }" list) &&
	"$GEMDUMP" find live.core $((batch + 64)) >actual &&
	head -n 1 actual | grep -q "== obj" &&
	"$GEMDUMP" find live.core $((batch + 4096 + 8)) >actual &&
	head -n 1 actual | grep -q ">= obj .*0x8 bytes past its end" &&
	sed -n 3p actual | grep -q "^ *[0-9]* *4096 "
'

test_expect_success 'info names the device, ring and client' '
	"$GEMDUMP" info live.core >info &&
	grep -q "^device:    PCI id 0x2772, gen 3, aperture 268435456 bytes" info &&
	grep -q "^objects:   5 " info &&
	grep -q "gd-populate: 4 handles" info &&
	grep -q "^ring render:" info
'

test_expect_success 'capture --no-contents and --objects; diff tells them apart' '
	gd capture -q -o small.core --no-contents --objects 2,3 &&
	elf_clean small.core &&
	"$GEMDUMP" list small.core | awk "NR > 1 { print \$1 }" | sort >actual &&
	printf "2\n3\n" >expect &&
	test_cmp expect actual &&
	test_expect_code 1 "$GEMDUMP" bo -i small.core 2 --raw 2>err &&
	grep -q "captured without its contents" err &&
	test_expect_code 1 "$GEMDUMP" diff live.core small.core >actual &&
	test $(grep -c "^- obj" actual) -eq 3 &&
	"$GEMDUMP" diff live.core live.core >actual &&
	grep -q "^no differences in 5 objects" actual
'

test_expect_success 'diff sees objects added, moved and changed' '
	gd capture -q -o before.core &&
	{ "$POPULATE" "$GEMD_SOCK" >populate2.out 2>&1 & } &&
	test_register_pid $! &&
	test_wait_for 10 grep -q "^ready" populate2.out &&
	gd capture -q -o after.core &&
	test_expect_code 1 "$GEMDUMP" diff before.core after.core >actual &&
	test $(grep -c "^+ obj" actual) -eq 4 &&
	! grep -q "^- obj" actual
'

DROP="$XDG_RUNTIME_DIR/gemkit/debugfs/dri/0/i915_gem_drop_caches"
test_expect_success 'diff sees objects unbound by drop_caches (FUSE only)' '
	if test -w "$DROP"; then
		printf 0x2 >"$DROP" &&
		gd capture -q -o dropped.core &&
		test_expect_code 1 "$GEMDUMP" diff after.core dropped.core >actual &&
		grep -q "^~ obj [0-9]*: moved 0x[0-9a-f]* -> unbound" actual
	fi
'

test_expect_success 'capture through --debugfs DIR (FUSE only) equals the socket one' '
	if test -d "$XDG_RUNTIME_DIR/gemkit/debugfs/dri/0"; then
		gd capture -q -o sock.core &&
		"$GEMDUMP" --debugfs "$XDG_RUNTIME_DIR/gemkit/debugfs" capture -q -o fuse.core &&
		"$GEMDUMP" info fuse.core | grep -q "^source:    .*/gemkit/debugfs" &&
		"$GEMDUMP" diff sock.core fuse.core >actual &&
		grep -q "^no differences" actual
	fi
'

test_expect_success 'a failed write leaves no file' '
	mkdir ro && chmod 555 ro &&
	if test "$(id -u)" != 0; then
		test_expect_code 1 gd capture -o ro/x.core 2>err &&
		grep -q "cannot create" err &&
		! test -e ro/x.core
	fi &&
	test_expect_code 1 gd capture -o nodir/x.core 2>err &&
	grep -q "cannot create .nodir/x.core.tmp" err &&
	! test -e nodir
'

test_expect_success 'capture from an error state: readelf-clean, ring and batch inside' '
	"$GEMDUMP" capture -q --from-error-state "$GEMKIT_SRC_DIR/tests/golden/gemdump/sample-error-state-gen3.txt" -o es.core &&
	elf_clean es.core &&
	readelf -x .gem.ring.render es.core | grep -q "0x00000000 01000002 00000000 80008018 0150a400" &&
	test_expect_code 1 "$GEMDUMP" find es.core 0x10 >actual &&
	echo "0x00000010: no object" >expect &&
	test_cmp expect actual &&
	"$GEMDUMP" bo -i es.core @0xa45000 --raw | od -A n -t x4 -N 8 >actual &&
	echo " 00000000 54300004" >expect &&
	test_cmp expect actual
'

if command -v gdb >/dev/null; then
	test_expect_success 'gdb reads GTT addresses from a capture (gdb installed)' '
		timeout 120 gdb -nx -batch -ex "core-file es.core" -ex "x/4wx 0xa45000" \
			>gdb.out 2>&1 &&
		grep -q "^0xa45000:.*0x00000000.*0x54300004.*0x03f01000.*0x00000000" gdb.out
	'
fi

test_expect_success 'no driver: a clear error and exit 3' '
	test_expect_code 3 "$GEMDUMP" -D "$TRASH/nosock" capture -o x.core 2>err &&
	grep -q "^gemdump capture: no gemd at $TRASH/nosock (is gemd running?" err &&
	! test -e x.core
'

test_done
