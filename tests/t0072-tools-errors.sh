#!/bin/sh
# Errors in the user's terms: the object first, the ioctl and errno after,
# the same words for every verb; "did you mean" for verbs, commands and
# options; one usage line for a bad option; script errors naming the file
# and line; -e by default in scripts (+e opts out); sleep and repeat.
test_description='gemctl, gemdump, gemtop: error wording, suggestions, script locations, -e, sleep, repeat'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

GEMTOP="$GEMKIT_BUILD_DIR/gemtop/gemtop"
GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"

test_expect_success 'setup' '
	start_gemd --no-debugfs
'

test_expect_success 'a bad handle: "no object with handle N" first, for every verb' '
	test_expect_code 1 gemctl fill 99 0 0 1 1 1 2>err &&
	echo "gemctl fill: no object with handle 99 (DRM_IOCTL_I915_GEM_GET_TILING: No such file or directory)" >expect &&
	test_cmp expect err &&
	test_expect_code 1 gemctl close 42 2>err &&
	echo "gemctl close: no object with handle 42 (DRM_IOCTL_GEM_CLOSE: Invalid argument)" >expect &&
	test_cmp expect err &&
	test_expect_code 1 gemctl -c "h = create 4096; inspect 42" 2>err &&
	echo "gemctl inspect: no object with handle 42" >expect &&
	test_cmp expect err &&
	test_expect_code 1 gemctl inspect 42 2>err &&
	echo "gemctl inspect: no object with handle 42 (this gemctl holds no handles: keep them across runs with -S NAME, or use --id)" >expect &&
	test_cmp expect err &&
	for v in "busy 7" "wait 7" "flink 7" "caching 7" "madvise 7 dontneed" \
		 "set-domain 7 cpu" "read 7 --length 4" "write 7 --fill 1 --length 4"; do
		test_expect_code 1 gemctl $v 2>err &&
		grep -q "^gemctl ${v%% *}: no object with handle 7 (DRM_IOCTL_" err || return 1
	done
'

test_expect_success 'a misspelt verb or global option: did you mean, one usage line' '
	test_expect_code 2 "$GEMCTL" craete 4096 2>err &&
	echo "gemctl: unknown verb '\''craete'\'' (did you mean '\''create'\''?)" >expect &&
	test_cmp expect err &&
	test_expect_code 2 "$GEMCTL" --tmeout 3 info 2>err &&
	cat >expect <<-\EOS &&
	gemctl: unknown option '\''--tmeout'\'' (did you mean '\''--timeout'\''?)
	usage: gemctl [OPTIONS] VERB [ARGS]...
	Try '\''gemctl --help'\'' for more information.
	EOS
	test_cmp expect err &&
	test_expect_code 2 "$GEMCTL" --timeout 2>err &&
	head -n 1 err >actual &&
	echo "gemctl: option '\''--timeout'\'' needs a value" >expect &&
	test_cmp expect actual &&
	test_expect_code 2 "$GEMCTL" frobnicate 2>err &&
	echo "gemctl: unknown verb '\''frobnicate'\'' (try '\''gemctl help'\'')" >expect &&
	test_cmp expect err
'

test_expect_success 'a misspelt verb option: said before the device is tried' '
	test_expect_code 2 "$GEMCTL" -D "$NODEV" read --offst 3 1 2>err &&
	cat >expect <<-\EOS &&
	gemctl read: unknown option '\''--offst'\'' (did you mean '\''--offset'\''?)
	usage: gemctl read H [--offset N] [--length N] [-o FILE|--hex]
	Try '\''gemctl read --help'\'' for more information.
	EOS
	test_cmp expect err
'

test_expect_success 'gemdump and gemtop: the same suggestions and usage line' '
	test_expect_code 2 "$GEMDUMP" lst 2>err &&
	cat >expect <<-\EOS &&
	gemdump: unknown command '\''lst'\'' (did you mean '\''list'\''?)
	usage: gemdump [OPTIONS] COMMAND [ARGS]
	Try '\''gemdump --help'\'' for more information.
	EOS
	test_cmp expect err &&
	test_expect_code 2 "$GEMDUMP" bo --ofset 3 1 2>err &&
	head -n 1 err >actual &&
	echo "gemdump bo: unknown option '\''--ofset'\'' (did you mean '\''--offset'\''?)" >expect &&
	test_cmp expect actual &&
	if test -x "$GEMTOP"; then
		test_expect_code 2 "$GEMTOP" --iteratons 3 2>err &&
		cat >expect <<-\EOS &&
		gemtop: unknown option '\''--iteratons'\'' (did you mean '\''--iterations'\''?)
		usage: gemtop [options]
		Try '\''gemtop --help'\'' for more information.
		EOS
		test_cmp expect err
	fi
'

test_expect_success 'script errors name the file and line, and the reason' '
	cat >rig.gemctl <<-\EOS &&
	h = create 4096

	# a comment line
	fill $h 0 0 1 1 1
	copy $h
	echo not reached
	EOS
	test_expect_code 2 gemctl -f rig.gemctl >out 2>err &&
	cat >expect <<-\EOS &&
	rig.gemctl:5: gemctl copy: missing or extra arguments
	usage: gemctl copy SRC DST WIDTH HEIGHT [--from X,Y] [--to X,Y] [--src-pitch P] [--pitch P] [--bpp N]
	Try '\''gemctl copy --help'\'' for more information.
	EOS
	test_cmp expect err &&
	test_must_be_empty out &&
	test_expect_code 1 gemctl >out 2>err <<-\EOS &&
	echo one
	close 99
	EOS
	echo "<stdin>:2: gemctl close: no object with handle 99 (DRM_IOCTL_GEM_CLOSE: Invalid argument)" >expect &&
	test_cmp expect err
'

test_expect_success 'scripts stop at the first failure by default; +e goes on' '
	printf "close 99\necho after\n" >two.gemctl &&
	test_expect_code 1 gemctl -f two.gemctl >out 2>err &&
	test_must_be_empty out &&
	test_expect_code 1 gemctl -c "close 99; echo after" >out 2>err &&
	test_must_be_empty out &&
	test_expect_code 1 gemctl <two.gemctl >out 2>err &&
	test_must_be_empty out &&
	gemctl +e -f two.gemctl >out 2>err &&
	echo after >expect &&
	test_cmp expect out &&
	gemctl -c "set errexit off; close 99; echo after" >out 2>err &&
	test_cmp expect out
'

test_expect_success 'sleep DUR: a bare number is seconds; junk is a usage error' '
	gemctl -c "sleep 10ms; sleep 0.01; echo woke" >out &&
	echo woke >expect &&
	test_cmp expect out &&
	test_expect_code 2 gemctl sleep soon 2>err &&
	echo "gemctl sleep: bad timeout '\''soon'\''" >expect &&
	test_cmp expect err
'

test_expect_success 'repeat N { ... }: inline, over lines, nested, with a variable count' '
	gemctl -c "repeat 3 { echo a }; echo b" >out &&
	printf "a\na\na\nb\n" >expect &&
	test_cmp expect out &&
	cat >loop.gemctl <<-\EOS &&
	n = echo 2
	h = create 4096
	repeat $n {
		fill $h 0 0 1 1 1
		repeat 2 { echo inner }
		echo outer
	}
	echo done
	EOS
	gemctl -f loop.gemctl >out &&
	printf "inner\ninner\nouter\ninner\ninner\nouter\ndone\n" >expect &&
	test_cmp expect out
'

test_expect_success 'repeat: an error inside names its line; a missing } is said' '
	cat >bad.gemctl <<-\EOS &&
	repeat 2 {
		echo in
		close 77
	}
	EOS
	test_expect_code 1 gemctl -f bad.gemctl >out 2>err &&
	echo in >expect &&
	test_cmp expect out &&
	echo "bad.gemctl:3: gemctl close: no object with handle 77 (DRM_IOCTL_GEM_CLOSE: Invalid argument)" >expect &&
	test_cmp expect err &&
	printf "echo x\nrepeat 2 {\necho y\n" >open.gemctl &&
	test_expect_code 2 gemctl -f open.gemctl >out 2>err &&
	echo "open.gemctl:2: gemctl: repeat: no '\''}'\'' closes the block opened here" >expect &&
	test_cmp expect err &&
	test_expect_code 2 gemctl -c "repeat many { echo x }" 2>err &&
	echo "gemctl: repeat: expected a count before '\''{'\''" >expect &&
	test_cmp expect err
'

test_expect_success 'gemctl --<Tab> offers the options, not the verbs' '
	"$GEMCTL" --complete -- -- >cands &&
	grep -q "^--timeout\$" cands &&
	grep -q "^--session\$" cands &&
	! grep -q "^create\$" cands
'

test_expect_success 'stop gemd' '
	stop_gemd
'

test_done
