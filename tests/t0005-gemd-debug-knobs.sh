#!/bin/sh
# gemd's debugging knobs (gemd(8), ENVIRONMENT): GEMKIT_VERIFY checks the
# memory manager after every ioctl, GEMKIT_FAILMALLOC=N fails the Nth
# allocation after start-up with a clean ENOMEM for the client.
test_description='gemd: GEMKIT_VERIFY and GEMKIT_FAILMALLOC'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

# start_gemd with one variable set for gemd alone.
start_gemd_with () {
	eval "$1" &&
	export GEMKIT_VERIFY GEMKIT_FAILMALLOC &&
	start_gemd --no-debugfs --log-level info
	ret=$?
	GEMKIT_VERIFY=1
	unset GEMKIT_FAILMALLOC
	return $ret
}

test_expect_success 'the tests run gemd with its state verified' '
	test "$GEMKIT_VERIFY" = 1 &&
	start_gemd_with GEMKIT_VERIFY=1 &&
	gemctl create 4096 &&
	grep "verifying the memory manager.s state after each affordable ioctl" \
		"$GEMD_LOG" &&
	stop_gemd
'

test_expect_success 'GEMKIT_VERIFY=all checks after every ioctl, 0 not at all' '
	start_gemd_with GEMKIT_VERIFY=all &&
	grep "state after every ioctl" "$GEMD_LOG" &&
	stop_gemd &&
	: >"$GEMD_LOG" &&
	start_gemd_with GEMKIT_VERIFY=0 &&
	! grep "verifying" "$GEMD_LOG" &&
	stop_gemd
'

test_expect_success 'GEMKIT_FAILMALLOC=1: the first client cannot open a file' '
	: >"$GEMD_LOG" &&
	start_gemd_with GEMKIT_FAILMALLOC=1 &&
	grep "faultsim: allocation 1 from now fails, and 0 after it" "$GEMD_LOG" &&
	test_expect_code 3 gemctl create 4096 2>err &&
	stderr_has "cannot reach gemd at $GEMD_SOCK: Cannot allocate memory" &&
	gemctl create 4096 >out &&
	grep "^handle 1 size 4096" out &&
	stop_gemd
'

# Opening makes two allocations: the file, and the DRM master its first
# opener becomes; the create is the third.
test_expect_success 'GEMKIT_FAILMALLOC=3: the create fails with ENOMEM, gemd serves on' '
	: >"$GEMD_LOG" &&
	start_gemd_with GEMKIT_FAILMALLOC=3 &&
	test_expect_code 1 gemctl create 4096 2>err &&
	stderr_has "DRM_IOCTL_I915_GEM_CREATE size 4096: Cannot allocate memory" &&
	gemctl -c "create 4096; create 8192" >out &&
	grep "^handle 2 size 8192" out &&
	stop_gemd
'

test_expect_success 'GEMKIT_FAILMALLOC=N,R fails R more; a bad value is ignored' '
	: >"$GEMD_LOG" &&
	start_gemd_with GEMKIT_FAILMALLOC=2,3 &&
	grep "allocation 2 from now fails, and 3 after it" "$GEMD_LOG" &&
	stop_gemd &&
	: >"$GEMD_LOG" &&
	start_gemd_with GEMKIT_FAILMALLOC=x &&
	grep "GEMKIT_FAILMALLOC=.x. is not N\[,R\]" "$GEMD_LOG" &&
	gemctl create 4096 &&
	stop_gemd
'

test_done
