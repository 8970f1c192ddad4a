#!/bin/sh
# The interactive shell, driven through a pty with script(1): verbs,
# variables, tab completion of verbs, options, values, files and handles,
# history in $XDG_STATE_HOME, and Ctrl-C interrupting a wait without
# leaving the shell.
test_description='gemctl interactive shell'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-tty-lib.sh"
if test "$GEMCTL_TTY" != yes; then
	echo "1..0 # SKIP $GEMCTL_TTY"
	exit 0
fi

test_expect_success 'start gemd (hangcheck off: the spin stays)' '
	start_gemd --no-debugfs --hangcheck 0
'

feed_basic () {
	wait_prompts 1
	printf "h = create 4096\n"; wait_prompts 2
	printf "hand\t\n"; wait_prompts 3
	printf "hang --kind ba\t--help\n"; wait_prompts 4
	printf "echo \$h\n"; wait_prompts 5
	printf "set json on\n"; wait_prompts 6
	printf "busy \$h\n"; wait_prompts 7
	printf "set json off\n"; wait_prompts 8
	printf "close 99\n"; wait_prompts 9
	printf "help close\n"; wait_prompts 10
	printf "exit\n"
}

test_expect_success 'verbs, variables, errors and help in the shell' '
	run_shell feed_basic &&
	grep "^gemctl> handles $" t &&
	grep "^1$" t &&
	grep "^gemctl> hang --kind badop --help$" t &&
	grep "^usage: gemctl hang \[--kind loop|runaway|wait|badop|fault\] \[--at ADDR\]$" t &&
	grep "^{\"schema_version\":1,.*\"verb\":\"busy\".*\"busy\":false" t &&
	grep "^gemctl close: no object with handle 99 (DRM_IOCTL_GEM_CLOSE: Invalid argument)$" t &&
	grep "^usage: gemctl close H$" t
'

test_expect_success 'history is kept in $XDG_STATE_HOME/gemctl/history' '
	grep "^h = create 4096$" state/gemctl/history &&
	grep "^handles $" state/gemctl/history &&
	grep "^exit$" state/gemctl/history
'

feed_complete () {
	wait_prompts 1
	printf "sou\tscr\t\n"; wait_prompts 2
	printf "wor\tthr\t--dur\t100ms\n"; wait_prompts 3
	printf "g = create 8192\n"; wait_prompts 4
	printf "madvise 1 dont\t\n"; wait_prompts 5
	printf "exit\n"
}

test_expect_success 'tab completes verbs, file names, options, values and handles' '
	echo "echo from-script" >script.gemctl &&
	run_shell feed_complete &&
	grep "^gemctl> source script.gemctl $" t &&
	grep "^from-script$" t &&
	grep "^gemctl> workload thrash --duration 100ms$" t &&
	grep "^thrash: 1 client(s)" t &&
	grep "^gemctl> madvise 1 dontneed $" t &&
	grep "^handle 1 dontneed retained 0$" t	# no pages yet: purged
'

feed_interrupt () {
	wait_prompts 1
	printf "b = hang --kind loop\n"; wait_prompts 2
	printf "wait \$b --timeout 60s\n"
	test_wait_for 20 grep -q "wait .b --timeout 60s" typescript
	sleep 1
	printf "\003"; wait_prompts 3
	printf "echo still here\n"; wait_prompts 4
	printf "half a line\003"; wait_prompts 5
	printf "echo again\n"; wait_prompts 6
	printf "wedged --inject\n"; wait_prompts 7
	printf "\004"
}

test_expect_success 'Ctrl-C interrupts a wait and clears a line without leaving' '
	run_shell feed_interrupt &&
	grep "^^Cgemctl wait: interrupted$" t &&
	grep "^still here$" t &&
	grep "^again$" t &&
	! grep "^half a line" state/gemctl/history
'

test_done
