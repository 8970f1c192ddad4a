#!/bin/sh
# Every verb declares its options once, in its entry's option table
# (gemctl/cmd-*.c); `help VERB`, `VERB --help` and `--complete` all read
# it.  Loop over every verb of the table and check that they agree.
test_description='gemctl: each verb'"'"'s help and completion list the same options'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

# help_options FILE: the long options a help text lists, one a line.
help_options () {
	sed -n '/^options:$/,$ s/^ *\(-[A-Za-z], \)\{0,1\}--\([a-z][a-z-]*\).*/--\2/p' "$1"
}

test_expect_success 'the verb table' '
	"$GEMCTL" --complete -- "" >verbs &&
	test $(wc -l <verbs) -ge 40 &&
	grep -x read verbs && grep -x bench verbs && grep -x run verbs
'

test_expect_success 'every verb: help VERB and VERB --help exit 0 and agree' '
	while read -r v; do
		"$GEMCTL" help "$v" >help-$v &&
		"$GEMCTL" "$v" --help >dash-$v &&
		test_cmp help-$v dash-$v &&
		grep -q "^usage: gemctl $v" help-$v ||
		{ echo "verb $v" >&2; return 1; }
	done <verbs
'

test_expect_success 'every verb: completion offers exactly the options help lists' '
	while read -r v; do
		help_options help-$v >help-opts &&
		"$GEMCTL" --complete -- "$v" - >offered &&
		grep -x -e --help offered &&
		{ grep -v -x -e --help offered >complete-opts || :; } &&
		test_cmp help-opts complete-opts ||
		{ echo "verb $v" >&2; return 1; }
	done <verbs
'

test_expect_success 'a verb without options says none; one with them lists each once' '
	! grep "^options:" help-close &&
	help_options help-read >opts &&
	printf "%s\n" --offset --length --output --hex >expect &&
	test_cmp expect opts &&
	grep -E "^  -o, --output FILE +write the bytes to FILE" help-read &&
	help_options help-copy >opts &&
	test $(sort opts | uniq -d | wc -l) = 0
'

test_expect_success 'an option value of kind FILE completes to files, by either name' '
	"$GEMCTL" --complete -- read 1 --output "" >out &&
	echo @files >expect &&
	test_cmp expect out &&
	"$GEMCTL" --complete -- read 1 -o "" >out &&
	test_cmp expect out &&
	"$GEMCTL" --complete -- -f "" >out &&
	test_cmp expect out &&
	"$GEMCTL" --complete -- read 1 --length "" >out &&
	test_must_be_empty out
'

test_expect_success 'the global options: --help and completion agree' '
	"$GEMCTL" --help | sed -n "/^options:/,/^$/p" >global-help &&
	help_options global-help >help-opts &&
	"$GEMCTL" --complete -- - >complete-opts &&
	test_cmp help-opts complete-opts &&
	! grep -e --complete complete-opts
'

test_expect_success 'an option from another verb'"'"'s table is a usage error' '
	test_expect_code 2 "$GEMCTL" -D "$NODEV" gtt --hex 2>err &&
	cat >expect <<-\EOS &&
	gemctl gtt: unknown option '\''--hex'\''
	usage: gemctl gtt [--holes]
	Try '\''gemctl gtt --help'\'' for more information.
	EOS
	test_cmp expect err
'

test_done
