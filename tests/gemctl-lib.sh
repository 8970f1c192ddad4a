# Helpers for the gemctl shell tests (sourced after test-lib.sh).

GEMCTL="$GEMKIT_BUILD_DIR/gemctl/gemctl"
if ! test -x "$GEMCTL"; then
	echo "1..0 # SKIP $GEMCTL is not built"
	exit 0
fi

# gemctl against the private gemd.
gemctl () {
	"$GEMCTL" -D "$GEMD_SOCK" "$@"
}

# A failed or hung `gemctl run` keeps its private gemd's directory and
# names it on stderr (t0017): remove the ones named in the files given.
remove_kept () {
	sed -n "s/.* kept in \(\/tmp\/gemctl-run\.[A-Za-z0-9]*\).*/\1/p" "$@" |
	while read -r d; do rm -rf "$d"; done
}

# A socket path where nothing listens.
NODEV="$TRASH/nothing-here"

# json_check EXPR: every line of stdin is one JSON document (parsed by a
# real parser) for which the Python expression EXPR, over d, is true.
json_check () {
	if command -v python3 >/dev/null 2>&1; then
		python3 -c '
import json, sys
expr = sys.argv[1]
n = 0
for line in sys.stdin:
    if not line.strip():
        continue
    d = json.loads(line)
    n += 1
    if d.get("schema_version") != 1:
        sys.exit("no schema_version 1: %r" % d)
    if not eval(expr):
        sys.exit("false: %s on %r" % (expr, d))
if n == 0:
    sys.exit("no JSON document")
' "$1"
	else
		jq -e "$1" >/dev/null
	fi
}

# stderr_has TEXT: the last command's stderr (in ./err) contains TEXT.
stderr_has () {
	grep -F -- "$1" err >/dev/null || {
		echo >&2 "stderr lacks '$1':"
		cat >&2 err
		return 1
	}
}

# bg_workload OUT ERR [GEMCTL OPTIONS]: `gemctl OPTIONS workload gears`
# for up to 600 s in the background (its pid in $bg_pid), progress every
# 100 ms; returns once the first progress line says it runs: its own,
# not an earlier workload's in the same files (removed first, as the
# background shell may truncate them after the first look).
bg_workload () {
	bg_out=$1 bg_err=$2
	shift 2
	rm -f "$bg_out" "$bg_err" &&
	{ "$GEMCTL" -D "$GEMD_SOCK" "$@" workload gears --duration 600s --interval 100ms \
		>"$bg_out" 2>"$bg_err" & } &&
	bg_pid=$! &&
	test_register_pid $bg_pid &&
	test_wait_for 60 grep -q "^running gears" "$bg_err"
}

# interrupt_status PID: SIGINT it and check that it exits 130.
interrupt_status () {
	kill -INT $1 &&
	{ wait $1; echo $? >status; } &&
	echo 130 >expect &&
	test_cmp expect status
}
