#!/bin/sh
# gemd's bash and zsh completions read `gemd --complete`, which prints
# the option table that --help and getopt are made from.
test_description='gemd --complete and completions/gemd, completions/_gemd'
. "$(dirname "$0")/test-lib.sh"

BASH_COMPLETION=/usr/share/bash-completion/bash_completion

test_expect_success '--complete lists exactly the options of --help' '
	"$GEMD" --help | grep -oE -- "--[a-z-]+" | sort -u >help-opts &&
	"$GEMD" --complete | grep -v "^=" | grep -oE -- "--[a-z-]+" | sort -u >complete-opts &&
	test_cmp help-opts complete-opts &&
	! grep -e "--ping" -e "--complete" complete-opts
'

test_expect_success '--complete: short names, argument kinds, the log levels' '
	"$GEMD" --complete >table &&
	grep -x -- "-D --device socket" table &&
	grep -x -- "--daemon none" table &&
	grep -x -- "--debugfs dir" table &&
	grep -x -- "--group group" table &&
	grep -x -- "--log-level level" table &&
	grep -x -- "-h --help none" table &&
	tail -n 1 table >last &&
	echo "=level error warning notice info debug" >expect &&
	test_cmp expect last
'

test_expect_success 'every level --complete offers is one --log-level takes' '
	for l in $(tail -n 1 table | cut -d" " -f2-); do
		"$GEMD" --log-level "$l" --help >/dev/null || return 1
	done &&
	test_expect_code 2 "$GEMD" --log-level loud 2>err &&
	grep "invalid --log-level" err
'

bash_complete () {
	# bash_complete WORDS...: what completions/gemd offers for the last word.
	bash -c '
		. "$1" || exit 1
		. "$2" || exit 1
		shift 2
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_gemd
		((${#COMPREPLY[@]})) && printf "%s\n" "${COMPREPLY[@]}"
		exit 0
	' bash "$BASH_COMPLETION" "$GEMKIT_SRC_DIR/completions/gemd" "$@"
}

if test -r "$BASH_COMPLETION" && command -v bash >/dev/null 2>&1; then
	test_expect_success 'bash: options, log levels, directories' '
		bash_complete "$GEMD" --hang >out &&
		echo --hangcheck >expect &&
		test_cmp expect out &&
		bash_complete "$GEMD" --log-level d >out &&
		echo debug >expect &&
		test_cmp expect out &&
		mkdir -p dir/sub && >dir/file &&
		bash_complete "$GEMD" --debugfs dir/ >out &&
		echo dir/sub >expect &&
		test_cmp expect out &&
		bash_complete "$GEMD" --aperture "" >out &&
		test_must_be_empty out
	'
else
	test_expect_success 'bash: bash-completion is not installed (skipped)' 'true'
fi

if command -v zsh >/dev/null 2>&1; then
	test_expect_success 'zsh: _gemd parses' '
		zsh -n "$GEMKIT_SRC_DIR/completions/_gemd"
	'
fi

test_done
