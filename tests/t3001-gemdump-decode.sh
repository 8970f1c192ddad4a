#!/bin/sh
# gemdump's command table and "decode": golden files, agreement with
# intel_dump_decode, --summary, --json and bad input.
test_description='gemdump decode'
. "$(dirname "$0")/test-lib.sh"

GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"
GOLDEN="$GEMKIT_SRC_DIR/tests/golden/gemdump"
if ! test -x "$GEMDUMP"; then
	echo "1..0 # SKIP gemdump is not built (no libelf)"
	exit 0
fi

# "%08x : %08x" text to little-endian binary.
to_bin () {
	perl -ne 'print pack("V", hex($1)) if /:\s*([0-9a-fA-F]+)/' "$1"
}

test_expect_success '--help, --version and every command --help exit 0' '
	"$GEMDUMP" --help >out &&
	grep -q "^usage: gemdump" out &&
	"$GEMDUMP" --version >out &&
	grep -q "^gemdump (gemkit) [0-9]" out &&
	for c in $("$GEMDUMP" --help | sed -n "/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p"); do
		"$GEMDUMP" $c --help >out || return 1
		grep -q "^usage: gemdump $c" out || return 1
	done
'

test_expect_success 'the command table has all eight commands' '
	"$GEMDUMP" --help | sed -n "/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p" >actual &&
	printf "%s\n" bo capture decode diff find hang info list >expect &&
	test_cmp expect actual
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 "$GEMDUMP" &&
	test_expect_code 2 "$GEMDUMP" frobnicate &&
	test_expect_code 2 "$GEMDUMP" --color=sometimes decode &&
	test_expect_code 2 "$GEMDUMP" decode --devid 12x "$GOLDEN/mi.txt" &&
	test_expect_code 2 "$GEMDUMP" decode --no-such-option
'

for b in mi blit 3d mesa-gears; do
	test_expect_success "decode $b: the golden text" '
		"$GEMDUMP" decode "$GOLDEN/$b.txt" >actual &&
		test_cmp "$GOLDEN/$b.ref" actual
	'
	test_expect_success "decode $b: binary input decodes the same" '
		to_bin "$GOLDEN/$b.txt" >$b.bin &&
		"$GEMDUMP" decode $b.bin >actual &&
		test_cmp "$GOLDEN/$b.ref" actual &&
		"$GEMDUMP" decode - <$b.bin >actual &&
		test_cmp "$GOLDEN/$b.ref" actual
	'
	test_expect_success "decode $b --summary and --json: golden" '
		"$GEMDUMP" decode --summary "$GOLDEN/$b.txt" >actual &&
		test_cmp "$GOLDEN/$b.summary" actual &&
		"$GEMDUMP" decode --json "$GOLDEN/$b.txt" >actual &&
		test_cmp "$GOLDEN/$b.json" actual
	'
	if command -v intel_dump_decode >/dev/null; then
		test_expect_success "decode $b agrees with intel_dump_decode -d 0x2772" '
			intel_dump_decode -d 0x2772 $b.bin >expect 2>&1 &&
			"$GEMDUMP" decode $b.bin >actual &&
			test_cmp expect actual &&
			intel_dump_decode -d 0x2772 -a "$GOLDEN/$b.txt" >expect 2>&1 &&
			"$GEMDUMP" decode "$GOLDEN/$b.txt" >actual &&
			test_cmp expect actual
		'
	fi
done

test_expect_success 'the --- gtt_offset header gives the base; --head moves HEAD' '
	{ echo "render ring --- gtt_offset = 0x00a45000" && cat "$GOLDEN/blit.txt"; } >based.txt &&
	"$GEMDUMP" decode based.txt >actual &&
	head -n 1 actual | grep -q "^0x00a45000: HEAD 0x40400006: XY_SETUP_BLT" &&
	"$GEMDUMP" decode --head 0xa45020 based.txt >actual &&
	grep -q "^0x00a45020: HEAD 0x54300004: XY_COLOR_BLT" actual &&
	"$GEMDUMP" decode --base 0x1000 based.txt >actual &&
	head -n 1 actual | grep -q "^0x00001000: HEAD"
'

test_expect_success 'the error state sample ring section decodes' '
	sed -n "/--- ringbuffer/,\$p" "$GOLDEN/sample-error-state-gen3.txt" >ring.txt &&
	"$GEMDUMP" decode ring.txt >actual &&
	grep -q "^0x00020008:      0x18800080: MI_BATCH_BUFFER_START" actual &&
	grep -q "^0x00020018:      0x10800001: MI_STORE_DATA_INDEX" actual
'

test_expect_success 'bad text names the line' '
	printf "00000000 : 02000000\nhello\n" >bad.txt &&
	test_expect_code 1 "$GEMDUMP" decode bad.txt 2>err &&
	grep -q "line 2: not a" err &&
	printf "00000000 : 1234567890\n" >bad.txt &&
	test_expect_code 1 "$GEMDUMP" decode bad.txt 2>err &&
	grep -q "line 1" err
'

test_expect_success 'a partial dword in binary input names the offset' '
	printf "\001\000\000\000\002" >bad.bin &&
	test_expect_code 1 "$GEMDUMP" decode bad.bin 2>err &&
	grep -q "partial dword at byte offset 4" err
'

test_expect_success 'an unknown devid and a missing file fail cleanly' '
	test_expect_code 1 "$GEMDUMP" decode --devid 0x1 "$GOLDEN/mi.txt" 2>err &&
	grep -q "no decoder for devid 0x0001" err &&
	test_expect_code 1 "$GEMDUMP" decode nonexistent 2>err &&
	grep -q "cannot read .nonexistent.: No such file" err
'

test_expect_success 'empty input decodes to nothing' '
	: >empty &&
	"$GEMDUMP" decode empty >actual &&
	test_must_be_empty actual
'

test_expect_success '--complete prints the command table' '
	"$GEMDUMP" --complete >table &&
	head -n 1 table | grep -q -- "--debugfs" &&
	sed 1d table | cut -d" " -f1 >actual &&
	printf "%s\n" bo capture decode diff find hang info list >expect &&
	test_cmp expect actual &&
	grep -q "^decode .*--summary .*--json" table
'

if command -v bash >/dev/null; then
	test_expect_success 'bash completion: commands, then a command'"'"'s options' '
		cat >complete.bash <<-EOF &&
		. "$GEMKIT_SRC_DIR/completions/gemdump"
		COMP_WORDS=("$GEMDUMP" de); COMP_CWORD=1; _gemdump
		echo "\${COMPREPLY[*]}"
		COMP_WORDS=("$GEMDUMP" decode --su); COMP_CWORD=2; _gemdump
		echo "\${COMPREPLY[*]}"
		COMP_WORDS=("$GEMDUMP" --no-pager hang --a); COMP_CWORD=3; _gemdump
		echo "\${COMPREPLY[*]}"
		EOF
		bash complete.bash >actual &&
		printf "decode\n--summary\n--all\n" >expect &&
		test_cmp expect actual
	'
fi

test_expect_success 'a batch of Mesa'"'"'s i915 driver: every command named' '
	"$GEMDUMP" decode --summary "$GOLDEN/mesa-gears.txt" >summary &&
	! grep UNKNOWN summary &&
	grep "^3DSTATE_PIXEL_SHADER_PROGRAM  *1$" summary &&
	grep "^3DPRIMITIVE  *1$" summary
'

test_done
