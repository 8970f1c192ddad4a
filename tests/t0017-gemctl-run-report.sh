#!/bin/sh
# gemctl run tells the user what gemd saw: one line on stderr for hangs,
# bans or a wedged GPU, and a private gemd's log and error states kept
# when that happened or the program failed.  As root, the program's mount
# namespace holds no other gemd's debugfs mount.
test_description='gemctl run: hangs reported, evidence kept, other mounts not pinned'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

# The private directory a line of stderr names.
kept_dir () {
	sed -n 's/.* kept in \(\/tmp\/gemctl-run\.[A-Za-z0-9]*\).*/\1/p' "$1"
}

test_expect_success 'a clean run says nothing and keeps nothing' '
	"$GEMCTL" run sh -c "echo \$GEM_DEVICE" >dev 2>err &&
	test_must_be_empty err &&
	dir=$(dirname "$(cat dev)") &&
	case "$dir" in /tmp/gemctl-run.*) ;; *) false ;; esac &&
	! test -e "$dir"
'

test_expect_success 'a hang during the run: one line, the log and error state kept' '
	"$GEMCTL" run sh -c "\"$GEMCTL\" -q -c \"hang --kind badop; wait-hang --timeout 10s\"" \
		>out 2>err &&
	echo badop >expect &&
	sed -n 2p out >actual &&
	test_cmp expect actual &&
	test "$(wc -l <err)" = 1 &&
	grep "^gemctl run: 1 GPU hang during the run; gemd.s log and error states kept in /tmp/gemctl-run\.[A-Za-z0-9]*$" err &&
	dir=$(kept_dir err) &&
	test -n "$dir" &&
	grep "gemd\[[0-9]*\]: error: GPU hang 1 (badop)" "$dir/gemd.log" &&
	grep "^gemd hang kind: badop$" "$dir/i915_error_state" &&
	grep "^gemd hang number: 1$" "$dir/gemkit_errors/1" &&
	rm -rf "$dir"
'

test_expect_success 'a failing program: its status, and where the log is' '
	test_expect_code 5 "$GEMCTL" run sh -c "exit 5" 2>err &&
	grep "^gemctl run: sh exited with status 5; gemd.s log kept in /tmp/gemctl-run\.[A-Za-z0-9]*/gemd.log$" err &&
	dir=$(sed -n "s/.* kept in \(.*\)\/gemd.log$/\1/p" err) &&
	grep "gemd\[[0-9]*\]: notice: gemkit .* serving" "$dir/gemd.log" &&
	! test -e "$dir/i915_error_state" &&
	rm -rf "$dir"
'

test_expect_success '$TMPDIR: the private directory, and what is kept, go there' '
	mkdir scratch &&
	test_expect_code 5 env TMPDIR="$PWD/scratch" "$GEMCTL" run \
		sh -c "echo \$GEM_DEVICE; exit 5" >dev 2>err &&
	case "$(cat dev)" in "$PWD"/scratch/gemctl-run.*/card0) ;; *) false ;; esac &&
	grep "^gemctl run: sh exited with status 5; gemd.s log kept in $PWD/scratch/gemctl-run\.[A-Za-z0-9]*/gemd.log$" err &&
	test "$(ls scratch)" = "$(basename "$(dirname "$(cat dev)")")" &&
	rm -rf scratch
'

test_expect_success 'a shared gemd: the line points at it' '
	start_gemd --no-debugfs --hangcheck 200ms &&
	"$GEMCTL" run -D "$GEMD_SOCK" sh -c \
		"\"$GEMCTL\" -q -c \"hang --kind badop; wait-hang --timeout 10s; hang --kind badop; wait-hang --timeout 10s; hang --kind badop; wait-hang --timeout 10s\"" \
		>out 2>err &&
	grep "^gemctl run: 3 GPU hangs, 1 client banned during the run (gemd at $GEMD_SOCK: see its log, and gemdump hang)$" err &&
	gemctl --json info | json_check "d[\"counters\"][\"bans\"] == 1 and d[\"counters\"][\"wedged\"] == 0" &&
	stop_gemd
'

if test "$(id -u)" = 0 && test_have_fuse; then
test_expect_success 'the program holds no other gemd debugfs mount' '
	start_gemd --debugfs "$TRASH/other" &&
	test_wait_for 10 test -f "$TRASH/other/dri/0/name" &&
	"$GEMCTL" run sh -c "cat /proc/self/mountinfo" >mounts &&
	! grep " $TRASH/other " mounts &&
	grep -c "fuse.gemd-debugfs" mounts >n &&
	echo 2 >expect &&
	test_cmp expect n &&
	stop_gemd
'
fi

test_done
