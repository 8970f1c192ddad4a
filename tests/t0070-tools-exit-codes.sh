#!/bin/sh
# gemctl, gemtop and gemdump share one exit-code table
# (common/exitcodes.def) and one wording for a gemd that is not there or
# does not answer: a rig sees the same status whichever tool met it.
test_description='gemctl, gemtop, gemdump: the same failure, the same exit code and words'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

GEMTOP="$GEMKIT_BUILD_DIR/gemtop/gemtop"
GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"
test -x "$GEMTOP" || GEMTOP=
POPULATE="$GEMKIT_BUILD_DIR/tests/gemdump/gd-populate"
have_gemtop () { test -n "$GEMTOP"; }

test_expect_success '--help of each tool ends with the same exit status table' '
	cat >expect <<-\EOS &&
	exit status: 0 ok, 1 the operation failed, 2 usage error,
	3 device unreachable, 4 GPU hung or wedged, 124 timeout,
	130 interrupted (SIGINT).
	EOS
	"$GEMCTL" --help >out && grep -A2 "^exit status:" out >actual &&
	test_cmp expect actual &&
	"$GEMDUMP" --help >out && grep -A2 "^exit status:" out >actual &&
	test_cmp expect actual &&
	"$GEMDUMP" diff --help >out && grep -A2 "^exit status:" out >actual &&
	test_cmp expect actual &&
	if have_gemtop; then
		"$GEMTOP" --help >out && grep -A2 "^exit status:" out >actual &&
		test_cmp expect actual
	fi
'

test_expect_success 'no gemd: exit 3 and one wording from all three tools' '
	msg="no gemd at $NODEV (is gemd running? start it with \`gemd --daemon\`)" &&
	test_expect_code 3 "$GEMCTL" -D "$NODEV" create 4096 2>err &&
	echo "gemctl create: $msg" >expect && test_cmp expect err &&
	test_expect_code 3 "$GEMCTL" -D "$NODEV" info 2>err &&
	echo "gemctl info: $msg" >expect && test_cmp expect err &&
	test_expect_code 3 "$GEMCTL" -D "$NODEV" wait-hang --timeout 100ms 2>err &&
	echo "gemctl wait-hang: $msg" >expect && test_cmp expect err &&
	test_expect_code 3 "$GEMDUMP" -D "$NODEV" capture -o cap 2>err &&
	echo "gemdump capture: $msg" >expect && test_cmp expect err &&
	test_expect_code 3 "$GEMDUMP" -D "$NODEV" hang 2>err &&
	echo "gemdump hang: $msg" >expect && test_cmp expect err &&
	if have_gemtop; then
		test_expect_code 3 "$GEMTOP" -D "$NODEV" -b -n 1 2>err &&
		echo "gemtop: $msg" >expect && test_cmp expect err
	fi
'

test_expect_success 'GEM_DEVICE names the path in the message too' '
	GEM_DEVICE="$NODEV" test_expect_code 3 "$GEMDUMP" capture -o cap 2>err &&
	echo "gemdump capture: no gemd at $NODEV (is gemd running? start it with \`gemd --daemon\`)" >expect &&
	test_cmp expect err
'

test_expect_success 'a bad command line: exit 2 from all three tools' '
	test_expect_code 2 "$GEMCTL" --no-such-option 2>err &&
	test_expect_code 2 "$GEMDUMP" --no-such-option 2>err &&
	if have_gemtop; then
		test_expect_code 2 "$GEMTOP" --no-such-option 2>err
	fi
'

test_expect_success 'two captures of one gemd' '
	start_gemd --no-debugfs &&
	"$GEMDUMP" -D "$GEMD_SOCK" capture -o a.core &&
	"$GEMDUMP" -D "$GEMD_SOCK" capture -o same.core &&
	{ "$POPULATE" "$GEMD_SOCK" >populate.out 2>&1 & } &&
	test_register_pid $! &&
	test_wait_for 10 grep -q "^ready" populate.out &&
	"$GEMDUMP" -D "$GEMD_SOCK" capture -o b.core
'

test_expect_success 'gemdump diff: 0 when the captures agree, 1 when they differ (as diff(1))' '
	"$GEMDUMP" diff a.core same.core >out &&
	test_expect_code 1 "$GEMDUMP" diff a.core b.core >out &&
	grep "^+ obj " out &&
	test_expect_code 1 "$GEMDUMP" diff a.core no-such.core 2>err
'

test_expect_success 'gemdump find: an address outside the aperture is exit 1' '
	"$GEMDUMP" info b.core >info &&
	aperture=$(sed -n "s/^device:.* aperture \([0-9]*\) bytes.*/\1/p" info) &&
	test -n "$aperture" &&
	addr=$(printf "0x%08x" "$aperture") &&
	test_expect_code 1 "$GEMDUMP" find b.core "$addr" >out &&
	printf "%s: outside the aperture [0, %s)\n" "$addr" "$addr" >expect &&
	test_cmp expect out
'

# SIGSTOP: the socket is there and nobody answers it.
test_expect_success 'a stopped gemd: exit 124 and one wording' '
	pid=$(gemd_pid) &&
	kill -STOP "$pid" &&
	msg="gemd at $GEMD_SOCK does not answer (is it stopped or hung?)" &&
	{
		test_expect_code 124 timeout 60 "$GEMCTL" -D "$GEMD_SOCK" -t 300ms list 2>err1 &&
		test_expect_code 124 timeout 60 "$GEMDUMP" -D "$GEMD_SOCK" capture -o c.core 2>err2 &&
		if have_gemtop; then
			test_expect_code 124 timeout 60 "$GEMTOP" -D "$GEMD_SOCK" -b -n 1 >/dev/null 2>err3
		else
			echo "gemtop: $msg" >err3
		fi
		ret=$?
	} &&
	kill -CONT "$pid" &&
	test $ret = 0 &&
	echo "gemctl list: $msg" >expect && test_cmp expect err1 &&
	echo "gemdump capture: $msg" >expect && test_cmp expect err2 &&
	echo "gemtop: $msg" >expect && test_cmp expect err3
'

test_expect_success 'stop gemd' '
	stop_gemd
'

test_done
