# The gemctl shell on a terminal: script(1) gives it a pty, a feeder
# types at its prompts (sourced after gemctl-lib.sh).  GEMCTL_TTY is
# "yes", or why these tests cannot run.

GEMCTL_TTY=yes
if ! command -v script >/dev/null 2>&1; then
	GEMCTL_TTY="no script(1) to give gemctl a terminal"
elif ! grep -q '^#define HAVE_READLINE 1' "$GEMKIT_BUILD_DIR/config.h"; then
	GEMCTL_TTY="gemctl built without readline"
fi

# No bracketed-paste escapes in the transcript.
echo "set enable-bracketed-paste off" >"$TRASH/inputrc"
INPUTRC="$TRASH/inputrc"
XDG_STATE_HOME="$TRASH/state"
export INPUTRC XDG_STATE_HOME

# How many prompts the transcript shows so far.
prompts () {
	tr -d '\r' <typescript 2>/dev/null | grep -o 'gemctl> ' | wc -l
}

# run_shell FEEDER [ARGS]: run `gemctl -D SOCK ARGS` (the shell) under
# script(1) with FEEDER's output as its terminal input; the transcript
# lands in ./typescript (\r dropped in ./t), its status in ./status.
run_shell () {
	feeder=$1
	shift
	rm -f typescript
	"$feeder" | timeout 60 script -qfec "$GEMCTL -D $GEMD_SOCK $*" typescript >/dev/null 2>&1
	echo $? >status
	tr -d '\r' <typescript >t
}

# has_prompts N: the transcript shows at least N prompts.
has_prompts () {
	test "$(prompts)" -ge "$1"
}

# wait_prompts N: until it does, so each line is typed at a prompt.
wait_prompts () {
	test_wait_for 20 has_prompts "$1"
}
