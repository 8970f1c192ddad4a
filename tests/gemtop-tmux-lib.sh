# gemtop in tmux, for the t2xxx shell tests (source after
# gemtop-test-lib.sh): a private server, a session named gt running
# gemtop, keys, and bounded polls of what the pane shows.

if ! command -v tmux >/dev/null 2>&1; then
	echo "1..0 # SKIP no tmux"
	exit 0
fi

# A private tmux server; never the caller's.  By label (its socket in
# tmux's own short directory): tmux refuses -S paths longer than sun_path,
# and the trash directory of a deep build is.
unset TMUX
T="tmux -L gemkit-${0##*/}-$$"
test_cleanup_tmux_ () {
	$T kill-server 2>/dev/null
	test_cleanup_
}
trap 'test_cleanup_tmux_' EXIT

# new_session ARGS...: a detached session gt.  A server whose last session
# just ended may still be exiting, and then new-session fails ("server
# exited unexpectedly"): try again.
new_session () {
	for try in 1 2 3 4 5; do
		$T new-session -d -s gt -c "$TRASH" "$@" && return 0
		sleep 0.5
	done
	return 1
}

# Start gemtop in a COLSxROWS tmux window named gt; its exit status goes
# to the file exit-status.
start_gemtop () {
	cols=$1 rows=$2
	shift 2
	rm -f exit-status
	new_session -x "$cols" -y "$rows" \
		"\"$GEMTOP\" -D \"$GEMD_SOCK\" $*; echo \$? >\"$TRASH/exit-status\"; sleep 30"
}

keys () {
	$T send-keys -t gt "$@"
}

# screen_has PATTERN...: one capture of the pane shows a line matching
# each ERE.  tmux may capture a frame half drawn, so a test that checks
# several lines of a frame waits for all of them at once.
screen_has () {
	$T capture-pane -p -t gt >screen.out 2>/dev/null || return 1
	for screen_pattern_ in "$@"; do
		grep -E -q -e "$screen_pattern_" screen.out || return 1
	done
}

screen_lacks () {
	$T capture-pane -p -t gt >screen.out 2>/dev/null &&
	! grep -E -q -e "$1" screen.out
}

wait_screen () {
	test_wait_for 10 screen_has "$@" || { cat screen.out; return 1; }
}

wait_screen_gone () {
	test_wait_for 10 eval '! screen_has "$1"' || { cat screen.out; return 1; }
}
