#!/bin/sh
# The bash and zsh completions: real bash-completion drives
# completions/gemctl; zsh loads completions/_gemctl.  Both ask
# `gemctl --complete`, which reads the verb table.
test_description='gemctl --complete and the bash/zsh completions'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

BASH_COMPLETION=/usr/share/bash-completion/bash_completion

test_expect_success '--complete: verbs, options, values, files, commands' '
	"$GEMCTL" --complete -- cr >out &&
	echo create >expect &&
	test_cmp expect out &&
	"$GEMCTL" --complete -- hang --kind "" >out &&
	printf "loop\nwait\nbadop\nfault\n" >expect &&
	test_cmp expect out &&
	"$GEMCTL" --complete -- -D /x wait-h >out &&
	echo wait-hang >expect &&
	test_cmp expect out &&
	"$GEMCTL" --complete -- exec "" >out &&
	echo @files >expect &&
	test_cmp expect out &&
	"$GEMCTL" --complete -- run "" >out &&
	echo @commands >expect &&
	test_cmp expect out &&
	"$GEMCTL" --complete -- --js >out &&
	echo --json >expect &&
	test_cmp expect out
'

test_expect_success '--complete: drop-caches offers every DROP_* name the verb takes' '
	"$GEMCTL" --complete -- drop-caches "" >out &&
	printf "%s\n" unbound bound retire active freed shrink-all idle \
		reset-active reset-seqno rcu >expect &&
	test_cmp expect out &&
	test_expect_code 2 "$GEMCTL" -D /nonexistent drop-caches bogus 2>err &&
	grep -F "bad flags '"'"'bogus'"'"' (a number, or names joined by '"'"','"'"': unbound,bound,retire,active,freed,shrink-all,idle,reset-active,reset-seqno,rcu)" err
'

test_expect_success '--complete: every verb of --help is offered' '
	"$GEMCTL" --help | sed -n "/^verbs:/,/^$/p" | awk "NF > 1 { print \$1 }" | sort >help-verbs &&
	"$GEMCTL" --complete -- "" | sort >complete-verbs &&
	test_cmp help-verbs complete-verbs
'

test_expect_success '--complete: flink names come from the driver' '
	start_gemd --no-debugfs &&
	"$GEMCTL" -D "$GEMD_SOCK" --complete -- open "" >out &&
	test_must_be_empty out &&
	{ gemctl -c "h = create 4096; flink \$h; wait-hang --timeout 60s" >holder 2>&1 &
	  holder=$!; } &&
	test_register_pid $holder &&
	test_wait_for 20 grep -q "^name 1$" holder &&
	"$GEMCTL" --complete -- -D "$GEMD_SOCK" open "" >out &&
	echo 1 >expect &&
	test_cmp expect out &&
	kill $holder
'

bash_complete () {
	# bash_complete WORDS...: what completions/gemctl offers for the last word.
	bash -c '
		. "$1" || exit 1
		. "$2" || exit 1
		shift 2
		PATH="$(dirname "$GEMCTL_BIN"):$PATH"
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="${COMP_WORDS[*]}"
		COMP_POINT=${#COMP_LINE}
		_gemctl gemctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"
	' bash "$BASH_COMPLETION" "$GEMKIT_SRC_DIR/completions/gemctl" "$@"
}

if test -r "$BASH_COMPLETION" && command -v bash >/dev/null 2>&1; then
	GEMCTL_BIN="$GEMCTL"
	export GEMCTL_BIN

	test_expect_success 'bash: verbs' '
		bash_complete gemctl wa | sort >out &&
		printf "wait\nwait-hang\n" >expect &&
		test_cmp expect out
	'

	test_expect_success 'bash: options and their values' '
		bash_complete gemctl read 1 --h >out &&
		printf "%s\n" --hex --help >expect &&
		test_cmp expect out &&
		bash_complete gemctl madvise 1 w >out &&
		echo willneed >expect &&
		test_cmp expect out &&
		bash_complete gemctl workload t | sort >out &&
		printf "texdown\nthrash\n" >expect &&
		test_cmp expect out
	'

	test_expect_success 'bash: file names through bash-completion'"'"'s _filedir' '
		mkdir -p dir && >dir/batch.bin && >dir/other.bin &&
		bash_complete gemctl exec dir/b >out &&
		echo dir/batch.bin >expect &&
		test_cmp expect out
	'

	test_expect_success 'bash: after -D and its value, verbs again' '
		bash_complete gemctl -D /nowhere cl | sort >out &&
		printf "clear-error\nclients\nclose\n" >expect &&
		test_cmp expect out
	'
else
	test_expect_success 'bash: bash-completion is not installed (skipped)' 'true'
fi

if command -v zsh >/dev/null 2>&1; then
	test_expect_success 'zsh: _gemctl parses' '
		zsh -n "$GEMKIT_SRC_DIR/completions/_gemctl"
	'

	test_expect_success 'zsh: compsys completes verbs through _gemctl (zpty)' '
		cat >zrc <<-EOF &&
		fpath=("$GEMKIT_SRC_DIR/completions" \$fpath)
		path=("$(dirname "$GEMCTL")" \$path)
		autoload -Uz compinit && compinit -u -D
		zmodload zsh/zpty
		zpty -b z zsh -f -i
		zpty -w z "fpath=(\$fpath); path=(\$path); PS1=; autoload -Uz compinit; compinit -u -D; zstyle \":completion:*\" list-prompt \"\"; setopt no_beep"
		zpty -w z "gemctl wait-ha	"
		zpty -w z ""
		sleep 2
		zpty -r z out "*wait-hang*" && print -r -- "\$out" | grep -q "gemctl wait-hang" && print OK
		zpty -d z
		EOF
		timeout 30 zsh -f zrc >out 2>&1 &&
		grep "^OK$" out
	'
fi

test_done
