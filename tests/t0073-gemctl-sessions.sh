#!/bin/sh
# gemctl -S NAME: handles, their sizes and variables last across gemctl
# invocations, held by a per-user holder process on a 0600 socket in the
# runtime dir; `gemctl -S NAME exit` or an idle time ends it.
test_description='gemctl sessions across invocations'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-tty-lib.sh"

SDIR="$XDG_RUNTIME_DIR/gemkit/gemctl"

# A holder left by a failing test must not outlive the script.
end_sessions () {
	for s in "$SDIR"/*; do
		test -S "$s" && "$GEMCTL" -S "${s##*/}" exit 2>/dev/null
	done
	return 0
}
trap 'end_sessions; test_cleanup_' EXIT

test_expect_success 'setup' '
	start_gemd --no-debugfs
'

test_expect_success 'a handle made by one gemctl is used by the next ones' '
	h=$(gemctl -S rig -q create 4096) &&
	test "$h" = 1 &&
	gemctl -S rig write "$h" --fill 0x5a --length 8 &&
	gemctl -S rig read "$h" --length 8 --hex >out &&
	echo "00000000: 5a 5a 5a 5a 5a 5a 5a 5a" >expect &&
	test_cmp expect out &&
	gemctl -S rig -q inspect "$h" >id &&
	test -s id &&
	gemctl -S rig handles >out &&
	echo 1 >expect &&
	test_cmp expect out
'

test_expect_success 'sizes and variables last too; -c and stdin scripts run in it' '
	gemctl -S rig -c "big = create 64K; fill \$big 0 0 16 16 0xff" &&
	gemctl -S rig -c "echo \$big" >out &&
	echo 2 >expect &&
	test_cmp expect out &&
	gemctl -S rig read 2 --offset 64 --length 4 --hex >out &&
	echo "00000040: ff 00 00 00" >expect &&
	test_cmp expect out &&
	printf "handles\n" | gemctl -S rig >out &&
	echo "1 2" >expect &&
	test_cmp expect out
'

test_expect_success 'exit codes and stderr come back from the holder' '
	test_expect_code 1 gemctl -S rig close 99 2>err &&
	echo "gemctl close: no object with handle 99 (DRM_IOCTL_GEM_CLOSE: Invalid argument)" >expect &&
	test_cmp expect err &&
	test_expect_code 124 gemctl -S rig wait-hang --timeout 50ms 2>err &&
	grep -q "^gemctl wait-hang: no hang within 50ms" err &&
	test_expect_code 1 gemctl -S rig -c "close 99; echo after" >out 2>err &&
	test_must_be_empty out &&
	test_expect_code 2 gemctl -S rig frobnicate 2>err
'

test_expect_success 'relative paths are the caller'"'"'s' '
	mkdir sub &&
	printf "handles\n" >sub/s.gemctl &&
	(cd sub && gemctl -S rig -f s.gemctl) >out &&
	echo "1 2" >expect &&
	test_cmp expect out
'

test_expect_success 'the socket is 0600 in a 0700 directory of the runtime dir' '
	test -S "$SDIR/rig" &&
	ls -ld "$SDIR" | cut -c1-10 >mode &&
	ls -l "$SDIR/rig" | cut -c1-10 >>mode &&
	printf "drwx------\nsrw-------\n" >expect &&
	test_cmp expect mode
'

test_expect_success 'sessions are separate' '
	gemctl -S other -q create 4096 >out &&
	echo 1 >expect &&
	test_cmp expect out &&
	gemctl -S other handles >out &&
	test_cmp expect out &&
	gemctl -S other exit
'

# One holder runs one command at a time.  A workload holds the session
# (its first progress line says it runs); a second command waits its turn
# and says so, and Ctrl-C on it cancels it alone.
busy_session () {
	bg_workload w.out w.err -S rig &&
	wpid=$bg_pid
}

end_workload () {
	interrupt_status $wpid &&
	grep -q "; interrupted\$" w.out
}

# A create in the background, until it says it waits its turn (its own
# c.err, not an earlier one's).
queued_create () {
	rm -f c.out c.err &&
	{ "$GEMCTL" -D "$GEMD_SOCK" -S rig -q create 4096 >c.out 2>c.err & } &&
	cpid=$! &&
	test_register_pid $cpid &&
	test_wait_for 30 grep -qFx "$waits_turn" c.err
}

# The workload goes on: more progress lines than n.
more_progress () {
	test $(grep -c "^running" w.err) -gt $1
}

waits_turn="gemctl: session 'rig' runs another command; this one waits its turn (Ctrl-C cancels it)"

test_expect_success 'Ctrl-C on a command waiting its turn cancels it alone' '
	busy_session &&
	queued_create &&
	interrupt_status $cpid &&
	test_must_be_empty c.out &&
	grep -qFx "gemctl: session '\''rig'\'': cancelled while it waited for the command before it" c.err &&
	n=$(grep -c "^running" w.err) &&
	test_wait_for 30 more_progress $n &&
	end_workload &&
	gemctl -S rig handles >out &&
	echo "1 2" >expect &&
	test_cmp expect out
'

test_expect_success 'two commands at once: the second waits its turn, then runs' '
	busy_session &&
	queued_create &&
	test_must_be_empty c.out &&
	end_workload &&
	{ wait $cpid; echo $? >cst; } &&
	echo 0 >expect &&
	test_cmp expect cst &&
	echo 3 >expect &&
	test_cmp expect c.out &&
	gemctl -S rig handles >out &&
	echo "1 2 3" >expect &&
	test_cmp expect out
'

# The holder has come to the queued create: it ran it (the old way, which
# did not ask), or it holds the caller's descriptors (c.out among them,
# taken with the request when its turn came) and waits for it to say go.
turn_reached () {
	test -s c.out || ls -l /proc/$hpid/fd | grep -q "/c\.out\$"
}

test_expect_success 'Ctrl-C as the turn comes: the command is cancelled, not run unasked' '
	busy_session &&
	queued_create &&
	hpid=$(gemctl clients | awk "NR == 2 { print \$2 }") &&
	kill -STOP $cpid &&
	end_workload &&
	test_wait_for 30 turn_reached &&
	kill -INT $cpid &&
	kill -CONT $cpid &&
	{ wait $cpid; echo $? >cst; } &&
	echo 130 >expect &&
	test_cmp expect cst &&
	test_must_be_empty c.out &&
	grep -qFx "gemctl: session '\''rig'\'': cancelled while it waited for the command before it" c.err &&
	gemctl -S rig handles >out &&
	echo "1 2 3" >expect &&
	test_cmp expect out
'

# The shell through the holder, on the caller's terminal (script(1)).
if test "$GEMCTL_TTY" = yes; then
feed_session () {
	wait_prompts 1
	printf "shell\n"; wait_prompts 2
	printf "handles\n"; wait_prompts 3
	printf "big4 = create 8192\n"; wait_prompts 4
	printf "echo \$big4\n"; wait_prompts 5
	printf "exit\n"
}

test_expect_success 'gemctl -S rig shell: the shell on the session'"'"'s handles' '
	run_shell feed_session -S rig shell &&
	echo 0 >expect &&
	test_cmp expect status &&
	grep -q "^gemctl> handles$" t &&
	grep -q "^1 2 3$" t &&
	grep -q "^4$" t &&
	grep -q "^gemctl shell: already in the shell$" t &&
	gemctl -S rig handles >out &&
	echo "1 2 3 4" >expect &&
	test_cmp expect out
'

feed_exit () {
	wait_prompts 1
	printf "echo \$big4\n"; wait_prompts 2
	printf "exit\n"
}

test_expect_success 'gemctl -S rig with no verb on a terminal: the shell too' '
	run_shell feed_exit -S rig &&
	echo 0 >expect &&
	test_cmp expect status &&
	grep -q "^4$" t
'
fi

test_expect_success 'one device a session' '
	test_expect_code 2 "$GEMCTL" -D "$NODEV" -S rig handles 2>err &&
	echo "gemctl: this session holds $GEMD_SOCK, not $NODEV (one device a session)" >expect &&
	test_cmp expect err
'

test_expect_success 'exit ends it: the holder goes, its handles are closed' '
	id=$(cat id) &&
	gemctl -S rig exit &&
	test_wait_for 10 test ! -e "$SDIR/rig" &&
	test_expect_code 1 gemctl inspect --id "$id" 2>err &&
	grep -q "no object with id $id" err &&
	test_expect_code 1 gemctl -S rig exit 2>err &&
	echo "gemctl: no session '\''rig'\''" >expect &&
	test_cmp expect err
'

test_expect_success 'an idle holder ends by itself' '
	gemctl -S idle --session-idle 100ms -q create 4096 >out &&
	test_wait_for 20 test ! -e "$SDIR/idle" &&
	gemctl -S idle handles >out &&
	echo >expect &&
	test_cmp expect out &&
	gemctl -S idle exit
'

test_expect_success 'bad session names are usage errors' '
	test_expect_code 2 gemctl -S ../x handles 2>err &&
	grep -q "bad session name" err &&
	test_expect_code 2 gemctl -S .hidden handles 2>err
'

test_expect_success 'stop gemd' '
	stop_gemd
'

test_done
