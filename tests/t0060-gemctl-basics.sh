#!/bin/sh
# gemctl: options, help, exit codes, and the scripting contract.
test_description='gemctl help, exit codes, -c/-f/stdin scripts, variables, -e, -x, -q'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

test_expect_success '--help lists the verbs and the exit codes' '
	"$GEMCTL" --help >out &&
	grep "^  create " out &&
	grep "^  wait-hang " out &&
	grep "^  run " out &&
	grep "124 timeout" out
'

test_expect_success '--version' '
	"$GEMCTL" --version >out &&
	grep "^gemctl (gemkit) [0-9]" out
'

test_expect_success 'help VERB and VERB --help show the usage' '
	"$GEMCTL" help fill >out &&
	grep "^usage: gemctl fill H X1 Y1 X2 Y2 COLOR" out &&
	"$GEMCTL" fill --help >out2 &&
	test_cmp out out2
'

test_expect_success 'an unknown verb is a usage error (2)' '
	test_expect_code 2 "$GEMCTL" frobnicate 2>err &&
	stderr_has "unknown verb '\''frobnicate'\''"
'

test_expect_success 'a bad global option is a usage error (2)' '
	test_expect_code 2 "$GEMCTL" --no-such-option 2>err
'

test_expect_success 'missing device: exit 3 for ioctl, debugfs and control verbs' '
	test_expect_code 3 "$GEMCTL" -D "$NODEV" create 4096 2>err &&
	stderr_has "gemctl create: no gemd at $NODEV (is gemd running? start it with \`gemd --daemon\`)" &&
	test_expect_code 3 "$GEMCTL" -D "$NODEV" info 2>err &&
	test_expect_code 3 "$GEMCTL" -D "$NODEV" wait-hang --timeout 100ms 2>err &&
	test_expect_code 3 "$GEMCTL" -D "$NODEV" suspend 2>err &&
	test_expect_code 3 "$GEMCTL" -D "$NODEV" drop-caches 2>err
'

test_expect_success 'GEM_DEVICE picks the device' '
	start_gemd --no-debugfs &&
	GEM_DEVICE="$GEMD_SOCK" "$GEMCTL" -q create 4096 >out &&
	echo 1 >expect &&
	test_cmp expect out
'

test_expect_success '-q prints only the essential value' '
	gemctl -q create 8192 >out &&
	echo 1 >expect &&
	test_cmp expect out
'

test_expect_success 'handles persist across the commands of one -c' '
	gemctl -c "a = create 4096; b = create 4096; echo \$a \$b; close \$a; handles" >out &&
	printf "1 2\n2\n" >expect &&
	test_cmp expect out
'

test_expect_success '${name} and variables in double quotes' '
	gemctl -c "x = echo 7; echo \"v=\${x}\" '\''\$x'\''" >out &&
	echo "v=7 \$x" >expect &&
	test_cmp expect out
'

test_expect_success 'an unset variable is a usage error' '
	test_expect_code 2 gemctl -c "close \$nope" 2>err &&
	stderr_has "unset variable '\''nope'\''"
'

test_expect_success 'with +e a script goes on; its status is the last command'"'"'s' '
	gemctl +e -c "close 99; echo after" >out 2>err &&
	echo after >expect &&
	test_cmp expect out &&
	stderr_has "gemctl close: no object with handle 99 (DRM_IOCTL_GEM_CLOSE: "
'

test_expect_success '-e stops at the first failure with its status' '
	test_expect_code 1 gemctl -e -c "close 99; echo after" >out 2>err &&
	test_must_be_empty out
'

test_expect_success '-x echoes each command with its variables expanded' '
	gemctl -x -c "h = create 4096; close \$h" 2>err &&
	printf "+ h = create 4096\n+ close 1\n" >expect &&
	test_cmp expect err
'

test_expect_success '-f SCRIPT, comments and quoting' '
	cat >script <<-\EOS &&
	# a comment
	h = create 4096   # another
	write $h --pattern "0x0102"
	read $h --length 4 --hex
	EOS
	gemctl -f script >out &&
	echo "00000000: 01 02 01 02" >expect &&
	test_cmp expect out
'

test_expect_success 'a script on non-tty stdin' '
	printf "h = create 4096\nflink \$h\n" | gemctl -q >out &&
	echo 1 >expect &&
	test_cmp expect out
'

test_expect_success 'source FILE runs in the same session' '
	echo "h = create 4096" >lib &&
	gemctl -c "source lib; echo \$h" >out &&
	echo 1 >expect &&
	test_cmp expect out
'

test_expect_success 'set json on switches the output mode inside a script' '
	gemctl -c "set json on; create 4096" | json_check "d[\"verb\"] == \"create\" and d[\"handle\"] == 1"
'

test_expect_success 'an unterminated quote is a usage error' '
	test_expect_code 2 gemctl -c "echo \"abc" 2>err &&
	stderr_has "unterminated quote"
'

test_done
