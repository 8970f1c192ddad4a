#!/bin/sh
# gemctl faults and driver control: every hang kind caught by wait-hang,
# clear-error, drop-caches, wedged, and suspend/resume with contents
# verified.
test_description='gemctl hang/wait-hang/clear-error/drop-caches/wedged/suspend/resume'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

DFS="$TRASH/debugfs"
test_debugfs_opt "$DFS"

test_expect_success 'start gemd (hangcheck 500 ms)' '
	start_gemd $DFS_OPT --hangcheck 500ms &&
	if $have_fuse; then test_wait_for 10 test -f "$DFS/dri/0/name"; fi
'

test_expect_success 'wait-hang with no hang: 124 and the ring state' '
	test_expect_code 124 gemctl wait-hang --timeout 200ms 2>err &&
	stderr_has "gemctl wait-hang: no hang within 200ms" &&
	stderr_has "gemctl: seqno emitted"
'

test_expect_success 'hang --kind badop is caught as badop' '
	gemctl -c "hang --kind badop; wait-hang --timeout 10s" >out &&
	grep "^submitted a '\''badop'\'' hang in batch handle 1$" out &&
	grep "^hang 1: badop, seqno [0-9]*, pid [0-9]*, file [0-9]*, acthd 0x[0-9a-f]* ipehr 0x1f800000, detected after [0-9]*ms, recovered$" out &&
	grep "^capture: .*i915_error_state$" out
'

test_expect_success 'hang --kind fault is caught as fault' '
	gemctl -q -c "hang --kind fault; wait-hang --timeout 10s" >out &&
	printf "1\nfault\n" >expect &&
	test_cmp expect out
'

test_expect_success 'hang --kind loop is caught by hangcheck' '
	gemctl -q -c "hang --kind loop; wait-hang --timeout 10s" >out &&
	printf "1\nhangcheck\n" >expect &&
	test_cmp expect out
'

test_expect_success 'hang --kind wait is caught by hangcheck after the kick' '
	gemctl --json -c "hang --kind wait; wait-hang --timeout 10s" >out &&
	sed -n 2p out | json_check "d[\"kind\"] == \"hangcheck\" and d[\"recovered\"] is True and d[\"ipehr\"] == 0x01800000 and d[\"seq\"] == 4"
'

test_expect_success 'the default kind is loop; a bad kind is a usage error' '
	test_expect_code 2 gemctl hang --kind sideways 2>err &&
	stderr_has "kind '\''sideways'\'' is not loop, runaway, wait, badop or fault" &&
	gemctl --json hang | json_check "d[\"kind\"] == \"loop\"" &&
	gemctl wait-hang --after 4 --timeout 10s >out &&
	grep "^hang 5: hangcheck" out
'

test_expect_success 'the GPU still works after the hangs' '
	gemctl -c "h = create 4096; fill \$h 0 0 1 1 0x01020304; wait \$h; read \$h --length 4 --hex" >out &&
	echo "00000000: 04 03 02 01" >expect &&
	test_cmp expect out
'

test_expect_success 'records: the first in i915_error_state, the last 4 in gemkit_errors' '
	gemctl wait-hang --since 1 --timeout 1s >out &&
	grep "^hang 1: badop" out &&
	grep "^capture: .*/i915_error_state$" out &&
	gemctl wait-hang --since 5 --timeout 1s >out &&
	grep "^hang 5: hangcheck" out &&
	grep "^capture: .*/gemkit_errors/5$" out &&
	gemctl --json wait-hang --since 3 --timeout 1s |
		json_check "d[\"seq\"] == 3 and d[\"record\"] == \"gemkit_errors/3\"" &&
	test_expect_code 2 gemctl wait-hang --since 0 2>err &&
	stderr_has "hang numbers start at 1" &&
	if $have_fuse; then
		ls "$DFS/dri/0/gemkit_errors" >out &&
		printf "2\n3\n4\n5\n" >expect &&
		test_cmp expect out &&
		grep "^gemd hang number: 4$" "$DFS/dri/0/gemkit_errors/4" &&
		grep "^gemd hang kind: hangcheck$" "$DFS/dri/0/gemkit_errors/4" &&
		grep "^gemd hang number: 1$" "$DFS/dri/0/i915_error_state" &&
		test_must_fail cat "$DFS/dri/0/gemkit_errors/1" 2>/dev/null
	fi
'

test_expect_success 'clear-error frees the capture' '
	gemctl clear-error &&
	gemctl wait-hang --since 5 --timeout 1s >out &&
	grep "^capture: none kept" out &&
	if $have_fuse; then
		echo "no error state collected" >expect &&
		test_cmp expect "$DFS/dri/0/i915_error_state"
	fi &&
	test_expect_code 2 gemctl clear-error now 2>err
'

test_expect_success 'wedged: not wedged; --inject is caught by wait-hang as wedged' '
	gemctl -q wedged >out &&
	echo 0 >expect &&
	test_cmp expect out &&
	gemctl -c "wedged --inject; wait-hang --after 5 --timeout 10s" >out &&
	grep "^hang 6: wedged" out &&
	gemctl wedged >out &&
	echo "not wedged" >expect &&
	test_cmp expect out
'

test_expect_success 'drop-caches bound unbinds an idle object' '
	gemctl -e -c "h = create 65536; fill \$h 0 0 4 4 1; wait \$h; drop-caches bound; inspect \$h" >out &&
	grep "^  gtt unbound$" out &&
	gemctl -q drop-caches >out &&
	echo 0x3ff >expect &&
	test_cmp expect out
'

test_expect_success 'drop-caches: names and bad flags' '
	gemctl -q drop-caches retire,idle >out &&
	echo 0x44 >expect &&
	test_cmp expect out &&
	test_expect_code 2 gemctl drop-caches everything 2>err &&
	stderr_has "bad flags '\''everything'\''"
'

cat >suspend.gemctl <<\EOS
a = create 65536
fill $a 0 0 16 16 0xa1a2a3a4
b = create 16384
write $b --pattern 0x0011223344556677
c = create 65536
tiling $c x 512
fill $c 0 0 64 8 0xc0c1c2c3 --pitch 512
d = create 8192
write $d --fill 0xdd
madvise $d dontneed
wait $a
wait $c
echo before
read $a --length 64 --hex
read $b --offset 16376 --length 8 --hex
read $c --length 32 --hex
read $d --offset 8000 --length 16 --hex
echo ranges-before
r = gtt
suspend
echo suspended
gtt
read $a --length 64 --hex
EOS
test_expect_success 'suspend: idle, only pinned objects bound, pread still works' '
	gemctl -e -f suspend.gemctl >out &&
	sed -n "/^before$/,/^ranges-before$/p" out | sed "1d;\$d" >before &&
	test $(wc -l <before) -eq 8 &&
	grep "^00000000: a4 a3 a2 a1 a4 a3 a2 a1" before &&
	grep "^00000000: c3 c2 c1 c0 c3 c2 c1 c0" before &&
	grep "^00003ff8: 00 11 22 33 44 55 66 77$" before &&
	grep "^00001f40: dd dd dd dd dd dd dd dd dd dd dd dd dd dd dd dd$" before &&
	sed -n "/^suspended$/,\$p" out >after &&
	grep "; 1 ranges, 1 holes$" after &&
	grep "^0x00000000-0x00020000 .* pinned pinned" after &&
	sed -n 1,4p before >a-before &&
	tail -n 4 after >a-after &&
	test_cmp a-before a-after
'

test_expect_success 'while suspended execbuffer fails with EBUSY, suspend again with EALREADY' '
	test_expect_code 1 gemctl -c "h = create 4096; fill \$h 0 0 1 1 1" 2>err &&
	stderr_has "gemctl fill: DRM_IOCTL_I915_GEM_EXECBUFFER2 2 object(s): Device or resource busy" &&
	test_expect_code 1 gemctl suspend 2>err &&
	stderr_has "gemctl suspend: GEM_MSG_CONTROL suspend: Operation already in progress"
'

test_expect_success 'resume: work runs again, every object kept its contents' '
	gemctl resume &&
	test_expect_code 1 gemctl resume 2>err &&
	stderr_has "GEM_MSG_CONTROL resume: Operation already in progress" &&
	sed -e "/^suspend$/,\$d" suspend.gemctl >again.gemctl &&
	cat >>again.gemctl <<-\EOS &&
	suspend
	resume
	madvise $d willneed
	echo after
	read $a --length 64 --hex
	read $b --offset 16376 --length 8 --hex
	read $c --length 32 --hex
	read $d --offset 8000 --length 16 --hex
	fill $a 0 0 1 1 0x55555555
	wait $a
	read $a --length 4 --hex
	EOS
	gemctl -e -f again.gemctl >out &&
	sed -n "/^before$/,/^ranges-before$/p" out | sed "1d;\$d" >before &&
	sed -n "/^after$/,\$p" out | sed 1d >after &&
	grep "^handle 4 willneed retained 1$" out &&
	head -n 8 after >after8 &&
	test_cmp before after8 &&
	tail -n 1 after >last &&
	echo "00000000: 55 55 55 55" >expect &&
	test_cmp expect last
'

test_expect_success 'a file that hangs the GPU three times is banned: EIO is exit 4' '
	test_expect_code 4 gemctl -c "hang --kind badop; wait-hang; hang --kind badop; wait-hang
		hang --kind badop; wait-hang
		h = create 4096; fill \$h 0 0 1 1 1" >out 2>err &&
	stderr_has "gemctl fill: DRM_IOCTL_I915_GEM_EXECBUFFER2 2 object(s): Input/output error"
'

test_expect_success 'suspend and resume --json' '
	gemctl --json suspend | json_check "d[\"state\"] == \"suspended\"" &&
	gemctl --json resume | json_check "d[\"state\"] == \"running\""
'

# A session holds a file across the unbind: it belongs to the old device.
test_expect_success 'unbind: a held file gets ENODEV, opens find no device; bind: a new one' '
	gemctl -S ub exit >/dev/null 2>&1
	gemctl -S ub -q create 4096 >handle &&
	gemctl --json unbind | json_check "d[\"state\"] == \"unbound\"" &&
	test_expect_code 1 gemctl unbind 2>err &&
	stderr_has "gemctl unbind: GEM_MSG_CONTROL unbind: No such device" &&
	test_expect_code 1 gemctl -S ub read "$(cat handle)" --length 4 2>err &&
	stderr_has "DRM_IOCTL_I915_GEM_PREAD handle $(cat handle) offset 0 length 4: No such device" &&
	test_expect_code 3 gemctl create 4096 2>err &&
	stderr_has "gemctl create: no device at $GEMD_SOCK: gemd'"'"'s driver is unbound (\`gemctl bind\`), or gemd went away" &&
	gemctl --json bind | json_check "d[\"state\"] == \"running\"" &&
	test_expect_code 1 gemctl bind 2>err &&
	stderr_has "gemctl bind: GEM_MSG_CONTROL bind: Device or resource busy" &&
	gemctl create 4096 >out &&
	grep "^handle 1 size 4096$" out &&
	test_expect_code 1 gemctl -S ub read "$(cat handle)" --length 4 2>err &&
	gemctl -S ub exit
'

test_done
