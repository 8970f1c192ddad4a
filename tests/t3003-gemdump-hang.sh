#!/bin/sh
# gemdump hang: the post-mortem from saved error states of every layout
# (golden reports), from captures, and from a live gemd after a hang.
test_description='gemdump hang'
. "$(dirname "$0")/test-lib.sh"

GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"
POPULATE="$GEMKIT_BUILD_DIR/tests/gemdump/gd-populate"
GOLDEN="$GEMKIT_SRC_DIR/tests/golden/gemdump"
if ! test -x "$GEMDUMP"; then
	echo "1..0 # SKIP gemdump is not built"
	exit 0
fi

for f in sample-error-state-gen3 errstate-3.2 errstate-2.6.34 \
	 errstate-ascii85-raw errstate-ascii85-zlib errstate-fences-wraps \
	 errstate-fault; do
	test_expect_success "hang $f: the golden report" '
		cp "$GOLDEN/$f.txt" . &&
		"$GEMDUMP" hang $f.txt >actual &&
		test_cmp "$GOLDEN/$f.hang" actual
	'
done

test_expect_success 'every layout marks XY_COLOR_BLT at ACTHD 0x00a45004' '
	for f in sample-error-state-gen3 errstate-3.2 errstate-2.6.34 \
		 errstate-ascii85-raw errstate-ascii85-zlib; do
		grep "^> " "$GOLDEN/$f.hang" >marked &&
		test $(wc -l <marked) -eq 1 &&
		grep -q "^> 0x00a45004: HEAD 0x54300004: XY_COLOR_BLT" marked || return 1
	done
'

test_expect_success 'hang --all decodes the batch and the ring' '
	"$GEMDUMP" hang --all sample-error-state-gen3.txt >actual &&
	test_cmp "$GOLDEN/sample-error-state-gen3.hang-all" actual
'

test_expect_success 'hang reads stdin and a capture of the same error state alike' '
	"$GEMDUMP" hang - <sample-error-state-gen3.txt >stdin.out &&
	sed 1,2d stdin.out >a &&
	sed 1,2d "$GOLDEN/sample-error-state-gen3.hang" >b &&
	test_cmp b a &&
	"$GEMDUMP" capture -q --from-error-state sample-error-state-gen3.txt -o es.core &&
	"$GEMDUMP" hang es.core >core.out &&
	sed 1,2d core.out >c &&
	test_cmp b c
'

test_expect_success 'the ascii85 forms decode to the same buffers as the text' '
	sed 1,2d "$GOLDEN/errstate-ascii85-zlib.hang" >z &&
	sed 1,2d "$GOLDEN/errstate-ascii85-raw.hang" >r &&
	sed 1,2d "$GOLDEN/sample-error-state-gen3.hang" >t &&
	test_cmp t r &&
	test_cmp t z
'

test_expect_success 'pager and colour: off into a pipe, forced with --color=always' '
	"$GEMDUMP" hang sample-error-state-gen3.txt >plain &&
	! grep -q "$(printf "\033")" plain &&
	"$GEMDUMP" --color=always hang sample-error-state-gen3.txt >colour &&
	grep -q "$(printf "\033")\[1;31m> 0x00a45004" colour
'

# FADDR (3.10+ print it for every gen; gemd: the address that faulted)
# resolves the page-table error; without it, ACTHD stands in as before.
test_expect_success 'fault: FADDR inside an object names it and the offset' '
	grep -q "^  fault     0x00163ff0 == obj 1 \[0x00100000, 0x00164000) + 0x63ff0\$" \
		"$GOLDEN/errstate-fault.hang"
'

test_expect_success 'fault: FADDR in no object says so, and names the object below' '
	sed "s/^  FADDR: .*/  FADDR: 0x00200000/" "$GOLDEN/errstate-fault.txt" >hole.txt &&
	"$GEMDUMP" hang hole.txt >actual &&
	echo "  fault     0x00200000 >= obj 1 [0x00100000, 0x00164000): 0x9c000 bytes past its end, in no object" >expect &&
	grep "^  fault " actual >fault &&
	test_cmp expect fault &&
	"$GEMDUMP" hang --json hole.txt >hole.json &&
	grep -q "\"faddr\":2097152}" hole.json &&
	grep -q "\"fault\":{\"address\":2097152,\"object\":null,\"offset\":null}" hole.json
'

test_expect_success 'fault: an error state without FADDR falls back to ACTHD' '
	grep -v "^  FADDR: " "$GOLDEN/errstate-fault.txt" >nofaddr.txt &&
	"$GEMDUMP" hang nofaddr.txt >actual &&
	echo "  fault     0x00a45004 == batch obj 2 [0x00a45000, 0x00a46000) + 0x4" >expect &&
	grep "^  fault " actual >fault &&
	test_cmp expect fault &&
	"$GEMDUMP" hang --json nofaddr.txt >nofaddr.json &&
	! grep -q "\"faddr\"" nofaddr.json &&
	grep -q "\"fault\":{\"address\":10768388,\"object\":2,\"offset\":4}" nofaddr.json
'

test_expect_success 'bad error states name the line' '
	printf "Time: 1 s 0 us\nPCI ID: 0x2772\nEIR: 0xzz\n" >bad.txt &&
	test_expect_code 1 "$GEMDUMP" hang bad.txt 2>err &&
	grep -q "line 3" err &&
	sed "s/^~z<%n/~z<%v/" "$GOLDEN/errstate-ascii85-raw.txt" >bad85.txt &&
	test_expect_code 1 "$GEMDUMP" hang bad85.txt 2>err &&
	grep -q "ascii85: bad character at column" err &&
	awk "/^:/ { print substr(\$0, 1, 21); next } { print }" \
		"$GOLDEN/errstate-ascii85-zlib.txt" >badz.txt &&
	test_expect_code 1 "$GEMDUMP" hang badz.txt 2>err &&
	grep -q "zlib: corrupt or truncated stream" err
'

test_expect_success 'no error state collected: a clear message, exit 1' '
	echo "no error state collected" >none.txt &&
	test_expect_code 1 "$GEMDUMP" hang none.txt 2>err &&
	grep -q "no GPU hang recorded" err
'

if test -x "$POPULATE"; then
	test_expect_success 'live: a batch with a bad command is named at ACTHD' '
		start_gemd &&
		{ "$POPULATE" "$GEMD_SOCK" hang >populate.out 2>&1 & } &&
		test_register_pid $! &&
		test_wait_for 10 grep -q "^ready" populate.out &&
		test_wait_for 10 sh -c "\"$GEMDUMP\" -D \"$GEMD_SOCK\" hang >live.out 2>/dev/null" &&
		grep "^> " live.out >marked &&
		grep -q "HEAD 0x1f800000: MI UNKNOWN  <- ACTHD" marked &&
		grep -q "^  IPEHR     0x1f800000 (UNKNOWN: not a gen3 command)" live.out &&
		grep -q "^  EIR       0x00000001 (instruction error)" live.out &&
		grep -q "^  guilty    pid [0-9]* (gd-populate)" live.out
	'
	test_expect_success 'live: a capture keeps the hang' '
		"$GEMDUMP" -D "$GEMD_SOCK" capture -q -o hang.core &&
		"$GEMDUMP" hang hang.core >core.out &&
		grep -q "HEAD 0x1f800000: MI UNKNOWN  <- ACTHD" core.out &&
		grep -q "^  IPEHR     0x1f800000" core.out &&
		stop_gemd
	'
	test_expect_success 'live: a bad pixel shader instruction is marked' '
		start_gemd &&
		{ "$POPULATE" "$GEMD_SOCK" hang-shader >shader.out 2>&1 & } &&
		test_register_pid $! &&
		test_wait_for 10 grep -q "^ready" shader.out &&
		test_wait_for 10 sh -c "\"$GEMDUMP\" -D \"$GEMD_SOCK\" hang >ps.out 2>/dev/null" &&
		grep -q "^  IPEHR     0x7d050008 (3DSTATE_PIXEL_SHADER_PROGRAM)" ps.out &&
		grep -q "^  EIR       0x00000001 (instruction error)" ps.out &&
		grep "^> " ps.out >marked &&
		test $(wc -l <marked) -eq 2 &&
		grep -q "HEAD 0x7d050008: 3DSTATE_PIXEL_SHADER_PROGRAM  <- ACTHD" marked &&
		grep -q "PS002: unknown  <- refused: unknown opcode" marked
	'
	GEMCTL="$GEMKIT_BUILD_DIR/gemctl/gemctl"
	test_expect_success 'live: a later hang is said, and a capture holds it' '
		"$GEMCTL" -D "$GEMD_SOCK" -q -c "hang --kind fault; wait-hang --timeout 10s" \
			>gemctl.out &&
		"$GEMDUMP" -D "$GEMD_SOCK" hang >live2.out &&
		grep -q "^GPU hang: badop" live2.out &&
		grep -q "^  later     1 more hang recorded, the newest 2 (gemkit_errors/2; gemdump capture holds it)$" live2.out &&
		"$GEMDUMP" -D "$GEMD_SOCK" capture -q -o hang2.core &&
		"$GEMDUMP" hang hang2.core >core2.out &&
		grep -q "^GPU hang: fault" core2.out &&
		grep -q "^  guilty    pid [0-9]* (gemctl)" core2.out &&
		grep -q "^> .*MI_STORE_DATA_IMM.*<- ACTHD" core2.out
	'
	# fresh_fault [ARGS]: a new gemd, and one gemctl hang --kind fault ARGS.
	fresh_fault () {
		stop_gemd &&
		start_gemd &&
		"$GEMCTL" -D "$GEMD_SOCK" -q -c "hang --kind fault $*; wait-hang --timeout 10s" \
			>gemctl.out
	}
	test_expect_success 'live: a fault names the faulting address, not ACTHD' '
		fresh_fault &&
		"$GEMDUMP" -D "$GEMD_SOCK" hang >fault.out &&
		echo "  fault     0xfffff000: outside the aperture [0, 0x10000000), in no object" >expect &&
		grep "^  fault " fault.out >actual &&
		test_cmp expect actual &&
		"$GEMDUMP" -D "$GEMD_SOCK" hang --json >fault.json &&
		grep -q "\"pgtbl_er\":1048576,\"faddr\":4294963200}" fault.json &&
		grep -q "\"fault\":{\"address\":4294963200,\"object\":null,\"offset\":null}" fault.json &&
		"$GEMDUMP" -D "$GEMD_SOCK" capture -q -o fault.core &&
		"$GEMDUMP" hang fault.core >core.out &&
		grep "^  fault " core.out >actual &&
		test_cmp expect actual
	'
	test_expect_success 'live: hang --kind fault --at ADDR faults there' '
		fresh_fault --at 0x10000010 &&
		"$GEMDUMP" -D "$GEMD_SOCK" hang >at.out &&
		grep "^  fault " at.out >actual &&
		echo "  fault     0x10000010: outside the aperture [0, 0x10000000), in no object" >expect &&
		test_cmp expect actual &&
		test_expect_code 2 "$GEMCTL" -D "$GEMD_SOCK" hang --kind fault --at 0x2 2>err &&
		echo "gemctl hang: address 0x2 is not a dword-aligned 32-bit GTT address" >expect &&
		test_cmp expect err
	'
	test_expect_success 'no hang recorded: live and in a capture, exit 1' '
		stop_gemd &&
		start_gemd &&
		test_expect_code 1 "$GEMDUMP" -D "$GEMD_SOCK" hang 2>err &&
		pid=$(gemd_pid) &&
		grep -x "gemdump hang: i915_error_state of gemd $GEMD_SOCK (pid $pid), \(over the socket\|mount $GEMD_SOCK.debugfs/dri/0\): no GPU hang recorded" err &&
		test $(wc -l <err) = 1 &&
		"$GEMDUMP" -D "$GEMD_SOCK" capture -q -o nohang.core &&
		test_expect_code 1 "$GEMDUMP" hang nohang.core 2>err &&
		echo "gemdump hang: nohang.core: no GPU hang recorded" >expect &&
		test_cmp expect err &&
		stop_gemd
	'
fi

# The .igt goldens are intel_error_decode's output (IGT 1.27.1) on the
# same error states: gemdump's fence registers and HEAD wraps must read
# the same, line for line.  With IGT installed, its output of this run too.
igt_lines () {
	grep -A1 "^  fence\[" "$1" | grep -v "^--" &&
	sed -n "s/^ *\(head = 0x[0-9a-f]*, wraps = [0-9]*\)\$/\1/p" "$1"
}

gd_lines () {
	sed -n "/^fence registers (as intel_error_decode)\$/,/^\$/p" "$1" |
		grep -e "^  fence\[" -e "^    " &&
	sed -n "s/^  HEAD      \(head = .*\)\$/\1/p" "$1"
}

for f in sample-error-state-gen3 errstate-fault errstate-fences-wraps; do
	test_expect_success "hang $f: fences and HEAD wraps as intel_error_decode" '
		cp "$GOLDEN/$f.txt" . &&
		"$GEMDUMP" hang $f.txt >report &&
		gd_lines report >gd &&
		igt_lines "$GOLDEN/$f.igt" >igt &&
		test $(grep -c "^  fence\[" igt) = 16 &&
		test_cmp igt gd &&
		if command -v intel_error_decode >/dev/null 2>&1; then
			intel_error_decode $f.txt >live.igt 2>&1 &&
			igt_lines live.igt >igt-live &&
			test_cmp igt-live gd &&
			test_cmp "$GOLDEN/$f.igt" live.igt
		fi
	'
done

test_expect_success 'HEAD wraps: 0x00600010 is offset 0x10, wrapped 3 times' '
	grep -q "^  HEAD      head = 0x00000010, wraps = 3\$" report &&
	grep -q "^  fence\[1\] = 02c01371\$" report &&
	grep -q "^    valid, y-tiled, pitch: 65536, start: 0x02c00000, size: 8388608\$" report
'

test_done
