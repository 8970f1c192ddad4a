# Shared by gemtop's shell tests (t2xxx): where the programs are, the
# prerequisites, and the known workload.  Source after test-lib.sh.

GEMTOP="$GEMKIT_BUILD_DIR/gemtop/gemtop"
# No gemtoprc of the caller's: F2's file lands in the trash directory.
XDG_CONFIG_HOME="$TRASH/config"
export XDG_CONFIG_HOME
WORKLOAD="$GEMKIT_BUILD_DIR/tests/gemtop-workload"
DFS="$TRASH/debugfs"

if ! test -x "$GEMTOP"; then
	echo "1..0 # SKIP gemtop is not built (no ncursesw)"
	exit 0
fi
HAVE_FUSE=
if test -c /dev/fuse && grep -q '^#define HAVE_FUSE3 1' "$GEMKIT_BUILD_DIR/config.h"; then
	HAVE_FUSE=yes
fi
HAVE_PYTHON=
if command -v python3 >/dev/null 2>&1 && python3 -c 'import json' 2>/dev/null; then
	HAVE_PYTHON=yes
fi

# test_expect_with PREREQ 'title' 'commands': skipped (and said so) when
# the prerequisite (FUSE, PYTHON) is missing.
test_expect_with () {
	prereq=$1
	shift
	case $prereq in
	FUSE) have=$HAVE_FUSE ;;
	PYTHON) have=$HAVE_PYTHON ;;
	*) have= ;;
	esac
	if test -n "$have"; then
		test_expect_success "$@"
	else
		test_count=$((test_count + 1))
		echo "ok $test_count # skip $1 (no $prereq)"
	fi
}

# The last test of a script: test_done removes the trash directory, the
# gemd pidfile with it, before the exit trap would kill the daemon.
stop_gemd_if_running () {
	if test -f "$GEMD_PIDFILE" && kill -0 "$(gemd_pid)" 2>/dev/null; then
		stop_gemd
	fi
}

# gemd with its debugfs next to the socket (or none without FUSE).
start_gemd_dfs () {
	if test -n "$HAVE_FUSE"; then
		start_gemd --aperture 16M --debugfs "$DFS" "$@" &&
		test_wait_for 10 test -f "$DFS/dri/0/gemkit_objects"
	else
		start_gemd --aperture 16M --no-debugfs "$@"
	fi
}

# The known workload: 10 objects of 64 KiB; 3 bound (inactive), 2 pinned,
# 1 flinked; plus gemd's own 128 KiB ring (pinned) in a 16 MiB aperture.
start_workload () {
	rm -f ready
	"$WORKLOAD" -D "$GEMD_SOCK" -n "${1:-10}" -s 64K -b 3 -p 2 -f 1 -r ready &
	WORKLOAD_PID=$!
	test_register_pid $WORKLOAD_PID
	test_wait_for 10 test -s ready
}
