#!/bin/sh
# gemctl run: unmodified DRM programs on gemd through the interposer, and
# Debian's IGT benchmarks with CI-sized arguments.
test_description='gemctl run and the IGT benchmarks'
. "$(dirname "$0")/test-lib.sh"

. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"
IGT=/usr/libexec/igt-gpu-tools/benchmarks

# No gemd answers at the default device (test-lib puts the runtime
# directory in the trash): every run starts its own.



test_expect_success 'exit status is the program'"'"'s' '
	"$GEMCTL" run true &&
	test_expect_code 7 "$GEMCTL" run sh -c "exit 7" 2>err1 &&
	test_expect_code 137 "$GEMCTL" run -- sh -c "kill -9 \$\$" 2>err2 &&
	test_expect_code 127 "$GEMCTL" run /nonexistent/program 2>err3 &&
	remove_kept err1 err2 err3 &&
	! grep "kept in" err3
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 "$GEMCTL" run &&
	test_expect_code 2 "$GEMCTL" run --bogus true
'

test_expect_success 'the program sees the device and the 945G in sysfs' '
	"$GEMCTL" run sh -c "test -c /dev/dri/card0 &&
		cat /sys/class/drm/card0/device/device /sys/dev/char/226:0/device/vendor" >out &&
	printf "0x2772\n0x8086\n" >expect &&
	test_cmp expect out
'

# Its own directory, not a listing of /tmp: other gemctl runs on the
# machine come and go meanwhile.
test_expect_success 'the private gemd is gone afterwards' '
	"$GEMCTL" run sh -c "echo \$GEM_DEVICE" >dev &&
	dir=$(dirname "$(cat dev)") &&
	case "$dir" in /tmp/gemctl-run.*) ;; *) false ;; esac &&
	! test -e "$dir" &&
	! test -e "$XDG_RUNTIME_DIR/gemkit/card0"
'

test_expect_success 'debugfs appears at /sys/kernel/debug/dri/0' '
	"$GEMCTL" run cat /sys/kernel/debug/dri/0/name >out &&
	echo "i915 dev=0000:00:02.0 unique=0000:00:02.0" >expect &&
	test_cmp expect out
'

test_expect_success 'i915 module parameters: debugfs and /sys/module agree' '
	"$GEMCTL" run sh -c "cat /sys/module/i915/parameters/reset &&
		echo 1 >/sys/kernel/debug/dri/0/i915_params/reset &&
		cat /sys/module/i915/parameters/reset &&
		echo 0 >/sys/module/i915/parameters/enable_hangcheck &&
		cat /sys/kernel/debug/dri/0/i915_params/enable_hangcheck &&
		cat /sys/kernel/debug/dri/128/name" >out &&
	printf "3\n1\nN\ni915 dev=0000:00:02.0 unique=0000:00:02.0\n" >expect &&
	test_cmp expect out
'

test_expect_success 'a reachable gemd is used, not a private one' '
	start_gemd &&
	"$GEMCTL" run -D "$GEMD_SOCK" sh -c "echo \$GEM_DEVICE" >out &&
	echo "$GEMD_SOCK" >expect &&
	test_cmp expect out &&
	stop_gemd
'

# libgem's own fds next to interposed ones in one program (no timing
# asserted: one round of the benchmark).
test_expect_success 'libgem and the interposer in one program' '
	"$GEMCTL" run "$GEMKIT_BUILD_DIR/preload-bench" 1 >out &&
	grep "^interposed / libgem:" out &&
	grep "^pass-through / plain:" out &&
	grep "^interposed GEM_PREAD 1 MiB / memcpy: *[0-9.]* (goal <= 1.25)  \(met\|MISSED\)$" out &&
	grep "^interposed GEM_PWRITE 1 MiB / memcpy: *[0-9.]* (goal <= 1.25)  \(met\|MISSED\)$" out
'

# The command streamer against ends the CPU takes back: what it saw is
# timing (not asserted), the table and the error paths are not.
test_expect_success 'cs-window-bench prints one line per delay' '
	"$GEMCTL" run "$GEMKIT_BUILD_DIR/cs-window-bench" 2 >out &&
	test $(wc -l <out) = 6 &&
	grep -c "^END held  *[0-9]* ns:  *seen  *[0-2] of 2 at once,  *[0-2] of 2 after 1 ms$" out >n &&
	echo 5 >expect && test_cmp expect n &&
	grep "^END held  *[0-9]* ns (IGT.s end+reset): seen  *[0-2] of 2 at once" out
'

test_expect_success 'cs-window-bench outside the interposer, bad counts' '
	test_expect_code 2 "$GEMKIT_BUILD_DIR/cs-window-bench" 2>err &&
	grep "not under the interposer; run it as .gemctl run" err &&
	test_expect_code 2 "$GEMKIT_BUILD_DIR/cs-window-bench" 0 2>err &&
	grep "^usage: gemctl run .*cs-window-bench \[TRIALS\]$" err &&
	test_expect_code 2 "$GEMKIT_BUILD_DIR/cs-window-bench" 2 3 2>err &&
	"$GEMKIT_BUILD_DIR/cs-window-bench" --help >out &&
	grep "^usage: gemctl run" out &&
	"$GEMKIT_BUILD_DIR/cs-window-bench" --version >out &&
	grep "^cs-window-bench (gemkit) " out
'

if ! test -x "$IGT/gem_create"; then
	# A TAP skip, counted in the plan like the tests it stands for.
	test_count=$((test_count + 1))
	echo "ok $test_count # SKIP IGT benchmarks: intel-gpu-tools is not installed"
	test_done
fi

# Each benchmark must exit 0 (IGT: 77 is a skip, 98 a failure).
# The benchmarks that hang the GPU on purpose (gem_busy) leave gemd's
# evidence behind: in the trash, not in /tmp.
igt_run () {
	TMPDIR=$PWD "$GEMCTL" run "$IGT/$@" >igt.out 2>&1 || {
		status=$?
		tail -20 igt.out
		echo "exit status $status"
		return 1
	}
}

test_expect_success 'IGT gem_create -s 4096 -r 1' 'igt_run gem_create -s 4096 -r 1'
test_expect_success 'IGT gem_prw -r 1 -D read' 'igt_run gem_prw -r 1 -D read'
test_expect_success 'IGT gem_prw -r 1 -D write' 'igt_run gem_prw -r 1 -D write'
test_expect_success 'IGT gem_set_domain -r 1' 'igt_run gem_set_domain -r 1'
test_expect_success 'IGT gem_exec_nop -r 1' 'igt_run gem_exec_nop -r 1'
test_expect_success 'IGT gem_exec_nop -r 1 -e all' 'igt_run gem_exec_nop -r 1 -e all'
test_expect_success 'IGT gem_busy -r 1' 'igt_run gem_busy -r 1'
test_expect_success 'IGT gem_exec_reloc -l 1 -b 2 -r 4' 'igt_run gem_exec_reloc -l 1 -b 2 -r 4'
test_expect_success 'IGT gem_blt -r 1 -t 1 -s 65536' 'igt_run gem_blt -r 1 -t 1 -s 65536'
test_expect_success 'IGT intel_upload_blit_small' 'igt_run intel_upload_blit_small'

# Without root there is no mount namespace: the interposer redirects
# /sys/kernel/debug instead.
as_nobody () {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env -u XDG_RUNTIME_DIR "$@"
}
if test "$(id -u)" = 0 && command -v setpriv >/dev/null 2>&1 &&
   (cd /tmp && as_nobody test -x "$GEMCTL") 2>/dev/null; then
	test_expect_success 'without root: IGT gem_exec_nop -r 1' '
		(cd /tmp && as_nobody "$GEMCTL" run "$IGT/gem_exec_nop" -r 1) >igt.out 2>&1
	'
fi

# The work is real: every copy gem_blt times is a 64 KiB blit gemd's GPU
# executed (its counters start at zero).
counter () {
	sed -n "s/.* $1=\([0-9]*\).*/\1/p" "$TRASH/dfs/dri/0/gemkit_counters"
}
if test -c /dev/fuse && grep -q '^#define HAVE_FUSE3 1' "$GEMKIT_BUILD_DIR/config.h"; then
test_expect_success 'gem_blt really executes its blits on gemd' '
	start_gemd --debugfs "$TRASH/dfs" &&
	"$GEMCTL" run -D "$GEMD_SOCK" "$IGT/gem_blt" -r 1 -t 1 -s 65536 >igt.out 2>&1 &&
	blits=$(counter gpu_blits) &&
	bytes=$(counter gpu_blit_bytes) &&
	stop_gemd &&
	test "$blits" -gt 0 &&
	test "$bytes" -eq $((blits * 65536))
'
fi

test_done
