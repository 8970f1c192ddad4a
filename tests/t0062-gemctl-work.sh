#!/bin/sh
# gemctl work verbs: blits and batches with exact results, waits, timeouts.
test_description='gemctl exec/fill/copy/wait/busy/throttle'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

# dwords DW...: little-endian dwords on stdout.
dwords () {
	perl -e 'print pack("V*", map { oct } @ARGV)' "$@"
}

test_expect_success 'start gemd (hangcheck off: spins stay spinning)' '
	start_gemd --no-debugfs --hangcheck 0
'

test_expect_success 'fill: a 32 bpp rectangle, exact bytes, and its edges untouched' '
	gemctl -c "h = create 16384; fill \$h 1 1 3 2 0x11223344; wait \$h; read \$h --length 48 --hex" >out &&
	cat >expect <<-\EOF &&
	00000000: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
	00000010: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
	00000020: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
	EOF
	test_cmp expect out
'

test_expect_success 'fill: row 1 at the default pitch (X2 * 4 rounded up to 64)' '
	gemctl -c "h = create 16384; fill \$h 1 1 3 2 0x11223344; wait \$h; read \$h --offset 64 --length 16 --hex" >out &&
	echo "00000040: 00 00 00 00 44 33 22 11 44 33 22 11 00 00 00 00" >expect &&
	test_cmp expect out
'

test_expect_success 'fill: 8 bpp with an explicit pitch' '
	gemctl -c "h = create 4096; fill \$h 0 0 4 2 0xab --bpp 8 --pitch 16; wait \$h; read \$h --length 32 --hex" >out &&
	cat >expect <<-\EOF &&
	00000000: ab ab ab ab 00 00 00 00 00 00 00 00 00 00 00 00
	00000010: ab ab ab ab 00 00 00 00 00 00 00 00 00 00 00 00
	EOF
	test_cmp expect out
'

test_expect_success 'fill: bad rectangle, too big for the object, bad bpp, bad handle' '
	test_expect_code 2 gemctl fill 1 5 5 2 2 0 2>err &&
	stderr_has "bad rectangle" &&
	test_expect_code 2 gemctl -c "h = create 4096; fill \$h 0 0 64 64 1" 2>err &&
	stderr_has "the rectangle needs 16384 bytes at pitch 256; handle 1 has 4096" &&
	test_expect_code 2 gemctl -c "h = create 4096; fill \$h 0 0 4 4 1 --bpp 24" 2>err &&
	stderr_has "bpp 24 is not 8, 16 or 32" &&
	test_expect_code 1 gemctl fill 42 0 0 4 4 1 2>err &&
	stderr_has "no object with handle 42 (DRM_IOCTL_I915_GEM_GET_TILING: No such file or directory)"
'

test_expect_success 'copy: a rectangle between objects, with --from and --to' '
	gemctl -c "s = create 4096; d = create 4096
		write \$s --pattern 0x0102030405060708
		copy \$s \$d 2 1 --from 0,0 --to 1,0 --pitch 64
		wait \$d; read \$d --length 16 --hex" >out &&
	echo "00000000: 00 00 00 00 01 02 03 04 05 06 07 08 00 00 00 00" >expect &&
	test_cmp expect out
'

test_expect_success 'copy: bad size, bad position, bad handle' '
	test_expect_code 2 gemctl copy 1 2 0 4 2>err &&
	test_expect_code 2 gemctl copy 1 2 4 4 --from x 2>err &&
	stderr_has "bad position '\''x'\''" &&
	test_expect_code 1 gemctl copy 1 2 4 4 2>err &&
	stderr_has "no object with handle 1 (DRM_IOCTL_I915_GEM_GET_TILING: No such file or directory)"
'

test_expect_success 'exec: a batch file with a relocation stores a dword' '
	dwords 0x10400002 0 0 0xcafef00d 0x05000000 0 >store.bin &&
	gemctl -c "t = create 4096; exec store.bin --reloc 8:\$t:write; wait 2; read \$t --length 4 --hex" >out &&
	grep "^batch handle 2 at 0x" out &&
	grep "^handle 1 at 0x" out &&
	grep "^00000000: 0d f0 fe ca$" out
'

test_expect_success 'exec: --object and a delta; the value is the batch handle' '
	dwords 0x10400002 0 0 0x12345678 0x05000000 0 >store.bin &&
	gemctl -q -c "t = create 4096; exec store.bin --object \$t --reloc 8:\$t+32:write; wait \$t; read \$t --offset 32 --length 4 --hex" >out &&
	printf "2\n00000020: 78 56 34 12\n" >expect &&
	test_cmp expect out
'

test_expect_success 'exec: bad file, ragged file, bad reloc, reloc past the end, bad target' '
	test_expect_code 1 gemctl exec nonexistent.bin 2>err &&
	stderr_has "cannot open nonexistent.bin: No such file or directory" &&
	printf abc >ragged.bin &&
	test_expect_code 2 gemctl exec ragged.bin 2>err &&
	stderr_has "3 bytes is not a whole number of dwords" &&
	dwords 0x05000000 0 >end.bin &&
	test_expect_code 2 gemctl exec end.bin --reloc 3:1 2>err &&
	stderr_has "bad relocation" &&
	test_expect_code 2 gemctl exec end.bin --reloc 8:1 2>err &&
	stderr_has "relocation at 8 is past the batch" &&
	test_expect_code 1 gemctl exec end.bin --reloc 4:77 2>err &&
	stderr_has "DRM_IOCTL_I915_GEM_EXECBUFFER2 end.bin (2 objects, 1 relocations): No such file or directory"
'

test_expect_success 'busy: idle after wait; value 0' '
	gemctl -c "h = create 4096; fill \$h 0 0 4 4 1; wait \$h; busy \$h" >out &&
	echo "handle 1 idle" >expect &&
	test_cmp expect out &&
	test_expect_code 1 gemctl busy 3 2>err &&
	stderr_has "no object with handle 3 (DRM_IOCTL_I915_GEM_BUSY: No such file or directory)"
'

test_expect_success 'throttle, wait --idle and wait --seqno' '
	gemctl -e -c "h = create 4096; fill \$h 0 0 4 4 1; throttle; wait --idle; s = seqno; wait --seqno \$s" &&
	test_expect_code 2 gemctl throttle extra 2>err
'

test_expect_success 'wait: bad handle, usage' '
	test_expect_code 1 gemctl wait 12 2>err &&
	stderr_has "no object with handle 12 (DRM_IOCTL_I915_GEM_WAIT: No such file or directory)" &&
	test_expect_code 2 gemctl wait 2>err &&
	test_expect_code 2 gemctl wait 1 --idle 2>err &&
	test_expect_code 2 gemctl wait 1 --timeout soon 2>err &&
	stderr_has "bad timeout '\''soon'\''"
'

test_expect_success 'wait on a spinning batch: 124 and the ring state as evidence' '
	test_expect_code 124 gemctl -c "b = hang --kind loop; wait \$b --timeout 300ms" >out 2>err &&
	stderr_has "gemctl wait: timed out after 300ms waiting for handle 1" &&
	stderr_has "gemctl: ring render: head 0x" &&
	stderr_has "1 outstanding" &&
	stderr_has "request seqno"
'

test_expect_success 'wait --idle and --seqno time out the same way; -t sets the default' '
	test_expect_code 124 gemctl -t 200ms wait --idle 2>err &&
	stderr_has "timed out after 200ms waiting for idle" &&
	test_expect_code 124 gemctl wait --seqno 100000 --timeout 200ms 2>err &&
	stderr_has "seqno emitted"
'

test_expect_success 'suspend on a busy GPU: 124 with the ring state' '
	test_expect_code 124 gemctl suspend --timeout 300ms 2>err &&
	stderr_has "gemctl suspend: suspend: no answer within 300ms" &&
	stderr_has "outstanding"
'

test_expect_success 'recover the spinning ring; resume; the GPU works again' '
	gemctl wedged --inject >out &&
	gemctl wait --idle --timeout 10s &&
	{ gemctl resume 2>/dev/null || true; } &&
	gemctl -c "h = create 4096; fill \$h 0 0 1 1 0x0a0b0c0d; wait \$h; read \$h --length 4 --hex" >out &&
	echo "00000000: 0d 0c 0b 0a" >expect &&
	test_cmp expect out
'

test_done
