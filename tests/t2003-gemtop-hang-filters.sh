#!/bin/sh
# gemtop: a GPU hang is a banner (reverse video, the guilty client, the
# seconds since) until acknowledged, and a row of its own in Events; the
# header shows GPU busy %; each view has its own filter, typed on a
# cleared prompt, and an unknown term is an error; TERM=dumb gets plain
# text.  tmux runs gemtop; every wait is a bounded poll of the screen.
test_description='gemtop hang banner, hang rows, GPU busy, per-view filters, TERM=dumb'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemtop-test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemtop-tmux-lib.sh"

test_expect_success 'setup: gemd (short hangcheck), the workload, gemtop' '
	start_gemd_dfs --hangcheck 100ms &&
	start_workload &&
	start_gemtop 120 30 -C -d 0.2 &&
	wait_screen "^Lists  unbound 5/320K"
'

test_expect_success 'the header shows GPU busy' '
	wait_screen "  GPU busy [0-9]+\\.[0-9]%\$"
'

test_expect_success 'a hang: a reverse-video banner naming the guilty client' '
	gemctl -c "hang --kind badop; wait-hang --timeout 20s" >hang.out &&
	pid_comm="pid [0-9]+ \\((lt-)?gemctl\\)" &&
	wait_screen "^ GPU HANG 1 \\(badop\\): $pid_comm, seqno [0-9]+, [0-9]+s ago  -  a: acknowledge" &&
	$T capture-pane -e -p -t gt >attrs.out &&
	grep "GPU HANG 1" attrs.out | grep -q "$(printf "\\033")\\[[0-9;]*7[;m]"
'

test_expect_success 'the banner stays until a acknowledges it' '
	keys 2 && keys 1 &&
	wait_screen "^1 Objects" "^ GPU HANG 1" &&
	keys a &&
	wait_screen_gone "GPU HANG"
'

test_expect_success 'Events: the hang is a row of its own; its request did not complete' '
	keys 5 &&
	wait_screen "^ +- +[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3} HANG    1 \\(badop\\) seqno [0-9]+ pid [0-9]+ \\((lt-)?gemctl\\)" &&
	seqno=$(sed -n "s/.* HANG    1 (badop) seqno \\([0-9]*\\) .*/\\1/p" screen.out) &&
	test -n "$seqno" &&
	grep -E "retire  seqno $seqno  \\(hung: reset, not completed\\)" screen.out
'

test_expect_success 'Events: times are the local wall clock, labelled' '
	grep -q "^     SEQ TIME (local) EVENT" screen.out &&
	grep -E -q "^ +[0-9]+ +[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} (bind|submit|retire|domain) " screen.out
'

test_expect_success 'each view its own filter: submit in Events leaves Objects alone' '
	keys "\\" && wait_screen "^Filter Events:" &&
	keys -l "submit hang" && keys Enter &&
	wait_screen "^1 Objects.* filter: submit hang" &&
	! grep -E "^ +[0-9]+ +[0-9:.]+ (bind|retire|domain) " screen.out &&
	keys 1 &&
	wait_screen "^11 objects, 11 shown" &&
	! grep -q "^1 Objects.*filter:" screen.out
'

test_expect_success 'the prompt starts empty, shows the filter in force; Ctrl-U clears the line' '
	keys 5 && keys "\\" &&
	wait_screen "^Filter Events \\(now .submit hang.; Enter alone clears, Esc keeps\\):\$" &&
	keys -l "retire" && wait_screen "Esc keeps\\): retire\$" &&
	keys C-u && wait_screen "Esc keeps\\):\$" &&
	keys Escape && wait_screen "filter: submit hang"
'

test_expect_success 'an unknown term is an error, with a suggestion; the filter stays' '
	keys "\\" && keys -l "submt" && keys Enter &&
	wait_screen "^>>> filter not changed: unknown event type .submt. \\(did you mean .submit.\\?\\)" \
		"filter: submit hang" &&
	keys 1 && keys "\\" && keys -l "sise>1M" && keys Enter &&
	wait_screen "^>>> filter not changed: unknown filter term .sise>1M. \\(did you mean .size>1M.\\?\\)" \
		"^11 objects, 11 shown"
'

test_expect_success 'Enter on an empty prompt clears the view'"'"'s filter' '
	keys 5 && keys "\\" && keys Enter &&
	wait_screen "^>>> Events filter cleared" &&
	! grep -q "filter: submit" screen.out
'

test_expect_success 'a view without a filter says so' '
	keys 3 && keys "\\" &&
	wait_screen "^>>> the Clients view has no filter"
'

# The Clients view sorts its own columns (t2002); the Rings view has none.
test_expect_success 'sort keys in a view without a sort say so and change nothing' '
	keys 4 && keys ">" &&
	wait_screen "^>>> the Rings view has no sort; the Objects view \\(1\\) has" &&
	keys 1 && wait_screen "^[0-9]+ objects, [0-9]+ shown  sort SIZE"
'

# In a UTF-8 locale a block is three bytes and one column: the history
# line must be laid out (and clipped) in columns, with evict on screen.
for cols in 80 120 200; do
	test_expect_success "sparklines at $cols columns: fixed scales, evict on screen" '
		keys q && test_wait_for 10 test -s exit-status &&
		$T kill-session -t gt &&
		rm -f exit-status &&
		new_session -x '$cols' -y 30 \
			"LC_ALL=C.UTF-8 \"$GEMTOP\" -D \"$GEMD_SOCK\" -d 0.1; echo \$? >\"$TRASH/exit-status\"; sleep 30" &&
		wait_screen "^History aperture .* lag .* evict " &&
		line=$(grep "^History" screen.out) &&
		test $(printf "%s" "$line" | LC_ALL=C.UTF-8 wc -m) -le '$cols' &&
		case "$line" in *"$(printf "\342\226\210")"*) false ;; esac
	'
done

# What Esc saved, not the 3-second banner saying so: on a loaded machine
# ncurses' ESCDELAY and the 2 s refresh can leave the banner on screen for
# less time than a poll of the pane takes.
test_expect_success 'F2 setup: change the sort and delay, Esc saves gemtoprc' '
	keys q && test_wait_for 10 test -s exit-status &&
	$T kill-session -t gt &&
	start_gemtop 100 30 -C &&
	wait_screen "^[0-9]+ objects, [0-9]+ shown  sort SIZE" &&
	keys F2 && wait_screen "^gemtop setup" "^Refresh delay      1.00 s\$" &&
	keys Right && wait_screen "^Refresh delay      2.00 s\$" &&
	keys Down Down Down Down && keys Right &&
	wait_screen "^Sort objects by    LIST\$" &&
	keys Escape &&
	test_wait_for 10 grep -qs "^sort=LIST\$" "$XDG_CONFIG_HOME/gemtop/gemtoprc" &&
	grep -q "^delay=2.000\$" "$XDG_CONFIG_HOME/gemtop/gemtoprc"
'

test_expect_success 'the next gemtop starts with the saved settings; options win' '
	keys q && test_wait_for 10 test -s exit-status &&
	$T kill-session -t gt &&
	start_gemtop 100 30 -C &&
	wait_screen "^[0-9]+ objects, [0-9]+ shown  sort LIST" &&
	keys F2 && wait_screen "^Refresh delay      2.00 s\$" &&
	keys Escape && keys q && test_wait_for 10 test -s exit-status &&
	$T kill-session -t gt &&
	start_gemtop 100 30 -C -d 0.5 &&
	wait_screen "^[0-9]+ objects" &&
	keys F2 && wait_screen "^Refresh delay      0.50 s\$" &&
	keys Escape
'

test_expect_success 'a bad gemtoprc is said with its line; batch mode never reads it' '
	keys q && test_wait_for 10 test -s exit-status &&
	$T kill-session -t gt &&
	cp "$XDG_CONFIG_HOME/gemtop/gemtoprc" good-rc &&
	printf "delay=1\nsort=SIZ\n" >"$XDG_CONFIG_HOME/gemtop/gemtoprc" &&
	"$GEMTOP" -D "$GEMD_SOCK" -b -n 1 >/dev/null &&
	rm -f exit-status &&
	new_session -x 100 -y 30 \
		"\"$GEMTOP\" -D \"$GEMD_SOCK\" 2>\"$TRASH/rc-err\"; echo \$? >\"$TRASH/exit-status\"; sleep 30" &&
	test_wait_for 10 test -s exit-status &&
	echo 2 >expect && test_cmp expect exit-status &&
	echo "gemtop: $XDG_CONFIG_HOME/gemtop/gemtoprc: line 2: bad sort '\''SIZ'\''" >expect &&
	test_cmp expect rc-err &&
	cp good-rc "$XDG_CONFIG_HOME/gemtop/gemtoprc" &&
	$T kill-session -t gt &&
	start_gemtop 80 24 -C
'

test_expect_success 'TERM=dumb: plain text, no escape codes' '
	keys q && test_wait_for 10 test -s exit-status &&
	$T kill-session -t gt &&
	rm -f exit-status &&
	new_session -x 100 -y 30 \
		"TERM=dumb \"$GEMTOP\" -D \"$GEMD_SOCK\" -n 1 >\"$TRASH/dumb.out\" 2>&1; echo \$? >\"$TRASH/exit-status\"; sleep 30" &&
	test_wait_for 10 test -s exit-status &&
	echo 0 >expect && test_cmp expect exit-status &&
	grep -q "^Seqno: emitted" dumb.out &&
	! grep -q "$(printf "\\033")" dumb.out &&
	$T kill-session -t gt
'

# A hang from before gemtop started that nobody acknowledged (its error
# state is still there) gets the banner at start; a takes the banner down
# but keeps the error state, so the next gemtop shows it again until the
# error state is cleared.  The first frame with a sample has the banner
# if there is one: no wait for it to go away is needed.
GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"
banner_re="^ GPU HANG 1 \\(badop\\): pid [0-9]+ \\((lt-)?gemctl\\), seqno [0-9]+, [0-9]+s ago  -  a: acknowledge"

restart_gemtop () {
	keys q && test_wait_for 10 test -s exit-status &&
	$T kill-session -t gt &&
	start_gemtop 120 30 -C -d 0.2 &&
	wait_screen "^Lists  unbound"
}

test_expect_success 'a hang before gemtop started, not cleared: the banner at start' '
	start_gemtop 120 30 -C -d 0.2 &&
	wait_screen "^Lists  unbound" "$banner_re"
'

test_expect_success 'a takes it down and keeps the error state; the next gemtop shows it' '
	keys a &&
	wait_screen_gone "GPU HANG" &&
	"$GEMDUMP" -D "$GEMD_SOCK" hang >hang.txt &&
	grep -q "^GPU hang: badop" hang.txt &&
	restart_gemtop &&
	grep -E -q "$banner_re" screen.out
'

test_expect_success 'once the error state is cleared, gemtop starts without the banner' '
	gemctl clear-error &&
	restart_gemtop &&
	! grep -q "GPU HANG" screen.out
'

test_expect_success 'teardown' '
	$T kill-server;
	stop_gemd_if_running
'

test_done
