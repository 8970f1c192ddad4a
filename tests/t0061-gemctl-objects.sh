#!/bin/sh
# gemctl object verbs: success with exact contents, and their failures.
test_description='gemctl create/close/flink/open/write/read/map/set-domain/tiling/madvise/caching'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

test_expect_success 'start gemd' '
	start_gemd --no-debugfs
'

test_expect_success 'create prints the handle and size' '
	gemctl create 16384 >out &&
	echo "handle 1 size 16384" >expect &&
	test_cmp expect out
'

test_expect_success 'create: sizes with units' '
	gemctl -c "create 64K; create 0x2000" >out &&
	printf "handle 1 size 65536\nhandle 2 size 8192\n" >expect &&
	test_cmp expect out
'

test_expect_success 'create: a bad size is a usage error, size 0 fails in the driver' '
	test_expect_code 2 gemctl create banana 2>err &&
	stderr_has "gemctl create: bad size '\''banana'\''" &&
	test_expect_code 2 gemctl create -5 2>err &&
	test_expect_code 1 gemctl create 0 2>err &&
	stderr_has "gemctl create: DRM_IOCTL_I915_GEM_CREATE size 0: Invalid argument"
'

test_expect_success 'create: wrong argument count' '
	test_expect_code 2 gemctl create 2>err &&
	stderr_has "usage: gemctl create SIZE"
'

test_expect_success 'close: a bad handle fails naming the ioctl and errno' '
	test_expect_code 1 gemctl close 7 2>err &&
	stderr_has "gemctl close: no object with handle 7 (DRM_IOCTL_GEM_CLOSE: Invalid argument)" &&
	test_expect_code 2 gemctl close x7 2>err &&
	stderr_has "bad handle '\''x7'\''"
'

test_expect_success 'write --pattern then read --hex' '
	gemctl -c "h = create 4096; write \$h --pattern 0xdeadbeef --length 12; read \$h --length 16 --hex" >out &&
	echo "00000000: de ad be ef de ad be ef de ad be ef 00 00 00 00" >expect &&
	test_cmp expect out
'

test_expect_success 'write --fill covers the rest of the object from --offset' '
	gemctl -c "h = create 4096; write \$h --fill 0x5a --offset 4088; read \$h --offset 4080 --length 16 --hex" >out &&
	echo "00000ff0: 00 00 00 00 00 00 00 00 5a 5a 5a 5a 5a 5a 5a 5a" >expect &&
	test_cmp expect out
'

test_expect_success 'write FILE and read raw bytes back, -o FILE too' '
	printf "hello, gem" >data &&
	gemctl -c "h = create 4096; write \$h data --offset 100; read \$h --offset 100 --length 10 -o back; read \$h --offset 100 --length 10" >raw &&
	test_cmp data back &&
	test_cmp data raw
'

test_expect_success 'write - reads stdin (with -f for the script)' '
	echo "h = create 4096; write \$h - ; read \$h --length 3 --hex" >script &&
	printf "abc" | gemctl -f script >out &&
	echo "00000000: 61 62 63" >expect &&
	test_cmp expect out
'

test_expect_success 'read assigned to a variable gives hex' '
	gemctl -c "h = create 4096; write \$h --pattern 0102; v = read \$h --length 3; echo \$v" >out &&
	echo 010201 >expect &&
	test_cmp expect out
'

test_expect_success 'write/read: bad handle, bad pattern, out of range, unknown size' '
	test_expect_code 1 gemctl write 9 --fill 1 --length 4 2>err &&
	stderr_has "no object with handle 9 (DRM_IOCTL_I915_GEM_PWRITE: No such file or directory)" &&
	test_expect_code 2 gemctl -c "h = create 4096; write \$h --pattern xyz" 2>err &&
	stderr_has "bad pattern" &&
	test_expect_code 1 gemctl -c "h = create 4096; read \$h --offset 4090 --length 16" 2>err &&
	stderr_has "DRM_IOCTL_I915_GEM_PREAD handle 1 offset 4090 length 16: Invalid argument" &&
	test_expect_code 2 gemctl read 1 2>err &&
	stderr_has "give --length"
'

test_expect_success 'flink and open: the other handle sees the same bytes' '
	gemctl -c "h = create 8192; write \$h --pattern 0xc0ffee00; n = flink \$h; echo \$n; g = open \$n; echo \$g; read \$g --length 4 --hex" >out &&
	printf "1\n2\n00000000: c0 ff ee 00\n" >expect &&
	test_cmp expect out
'

test_expect_success 'a second process opens a flink name' '
	gemctl -c "h = create 4096; write \$h --fill 0x11; flink \$h; read \$h --length 1 --hex" >/dev/null &&
	test_expect_code 1 gemctl open 99 2>err &&
	stderr_has "gemctl open: DRM_IOCTL_GEM_OPEN name 99: No such file or directory"
'

test_expect_success 'flink: bad handle' '
	test_expect_code 1 gemctl flink 5 2>err &&
	stderr_has "gemctl flink: no object with handle 5 (DRM_IOCTL_GEM_FLINK: No such file or directory)"
'

test_expect_success 'map --cpu and --gtt, unmap; a second map of the same handle fails' '
	gemctl -c "h = create 8192; map \$h --gtt; unmap \$h; map \$h; unmap \$h" >out &&
	grep "^handle 1 mapped gtt at 0x[0-9a-f]* length 8192$" out &&
	grep "^handle 1 mapped cpu at 0x[0-9a-f]* length 8192$" out &&
	test_expect_code 1 gemctl -e -c "h = create 4096; map \$h; map \$h" 2>err &&
	stderr_has "handle 1 is already mapped" &&
	test_expect_code 1 gemctl unmap 1 2>err &&
	stderr_has "handle 1 is not mapped" &&
	test_expect_code 1 gemctl map 3 --length 4096 2>err &&
	stderr_has "no object with handle 3 (DRM_IOCTL_I915_GEM_MMAP: No such file or directory)"
'

test_expect_success 'set-domain: names, and failures' '
	gemctl -e -c "h = create 4096; set-domain \$h gtt,gtt; set-domain \$h cpu; set-domain \$h cpu,cpu" &&
	test_expect_code 2 gemctl set-domain 1 blue 2>err &&
	stderr_has "unknown domain '\''blue'\''" &&
	test_expect_code 1 gemctl set-domain 4 cpu 2>err &&
	stderr_has "no object with handle 4 (DRM_IOCTL_I915_GEM_SET_DOMAIN: No such file or directory)"
'

test_expect_success 'tiling x with a stride, back to none' '
	gemctl -c "h = create 65536; tiling \$h x 512; tiling \$h none" >out &&
	printf "handle 1 tiling x stride 512 swizzle 0\nhandle 1 tiling none stride 0 swizzle 0\n" >expect &&
	test_cmp expect out
'

test_expect_success 'tiling: bad mode, missing stride, bad stride' '
	test_expect_code 2 gemctl tiling 1 z 512 2>err &&
	test_expect_code 2 gemctl tiling 1 x 2>err &&
	stderr_has "tiling x needs a STRIDE" &&
	test_expect_code 1 gemctl -c "h = create 65536; tiling \$h x 100" 2>err &&
	stderr_has "DRM_IOCTL_I915_GEM_SET_TILING handle 1 x stride 100: Invalid argument"
'

test_expect_success 'madvise: retained, and failures' '
	gemctl -q -c "h = create 4096; write \$h --length 4 --fill 1; madvise \$h dontneed; madvise \$h willneed" >out &&
	printf "1\n1\n" >expect &&
	test_cmp expect out &&
	# no pages yet: purged at once, as i915_gem_madvise_ioctl truncates
	gemctl -q -c "h = create 4096; madvise \$h dontneed; madvise \$h willneed" >out &&
	printf "0\n0\n" >expect &&
	test_cmp expect out &&
	test_expect_code 2 gemctl madvise 1 maybe 2>err &&
	test_expect_code 1 gemctl madvise 1 dontneed 2>err &&
	stderr_has "no object with handle 1 (DRM_IOCTL_I915_GEM_MADVISE: No such file or directory)"
'

test_expect_success 'caching: get, set cached, set none' '
	gemctl -q -c "h = create 4096; caching \$h; caching \$h cached; caching \$h none" >out &&
	printf "none\ncached\nnone\n" >expect &&
	test_cmp expect out &&
	test_expect_code 2 gemctl caching 1 lukewarm 2>err &&
	test_expect_code 1 gemctl caching 1 2>err &&
	stderr_has "no object with handle 1 (DRM_IOCTL_I915_GEM_GET_CACHING: No such file or directory)"
'

test_done
