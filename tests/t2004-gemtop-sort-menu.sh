#!/bin/sh
# gemtop F6: the Objects view's sort menu, as htop's "Sort by" panel: a
# list of the columns opened on the one in force; Up/Down choose, Enter
# sorts, Esc (or F6 again) closes it unchanged; the sort keys > < still
# step.  tmux runs gemtop; every wait is a bounded poll of the screen.
test_description='gemtop F6: the sort menu'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemtop-test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemtop-tmux-lib.sh"

test_expect_success 'setup: gemd, the workload, gemtop on Objects' '
	start_gemd_dfs &&
	start_workload &&
	start_gemtop 100 30 -C -d 0.2 &&
	wait_screen "^11 objects, 11 shown  sort SIZE"
'

test_expect_success 'F6 opens the list of the columns on the one in force' '
	keys F6 &&
	# Its last line: tmux may capture a screen drawn only in part.
	wait_screen "^Enter sort Esc" &&
	sed -n "/^Sort by /,/^Enter sort Esc/p" screen.out | cut -c1-16 |
		sed "s/ *\$//" >actual &&
	cat >expect <<-\EOF &&
	Sort by
	  ID
	* SIZE
	  LIST
	  DOMAINS
	  OFFSET
	  FLAGS
	  RSEQ
	  WSEQ
	  CLIENT
	  NAME
	  AGE
	  EVICT
	Enter sort Esc
	EOF
	test_cmp expect actual
'

test_expect_success 'Down/Up move the choice; Enter sorts by it and closes the menu' '
	keys Down Down Down Down Up &&
	keys Enter &&
	wait_screen "^11 objects, 11 shown  sort OFFSET( |\$)" &&
	wait_screen_gone "^Sort by "
'

test_expect_success 'Esc closes it unchanged, from wherever it was moved' '
	keys F6 && wait_screen "^\\* OFFSET" &&
	keys End && keys Escape &&
	wait_screen_gone "^Sort by " &&
	grep -E -q "^11 objects, 11 shown  sort OFFSET( |\$)" screen.out
'

test_expect_success 'F6 again closes it too; > still steps to the next column' '
	keys F6 && wait_screen "^Sort by " &&
	keys F6 && wait_screen_gone "^Sort by " &&
	keys ">" && wait_screen "^11 objects, 11 shown  sort FLAGS( |\$)"
'

test_expect_success 'the help lists F6 from the key table' '
	keys h && wait_screen "^F6 +sort by: choose the column" &&
	grep -E -q "^> \\. +sort by the next column" screen.out &&
	keys Escape
'

test_expect_success 'q quits from the menu' '
	keys F6 && wait_screen "^Sort by " &&
	keys q &&
	test_wait_for 10 test -s exit-status &&
	echo 0 >expect &&
	test_cmp expect exit-status
'

test_expect_success 'cleanup' '
	stop_gemd_if_running
'

test_done
