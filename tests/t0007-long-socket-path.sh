#!/bin/sh
# Socket paths longer than sun_path's 108 bytes: gemd binds, and every
# client (libgem, the interposer, gemctl, gemtop, gemdump) connects,
# through the path's directory (common/sockpath.h); a name too long even
# for that is refused with the limit named.  Whatever the depth of the
# build directory, the paths here are long.
test_description='gemd and its clients at socket paths longer than sun_path'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"

GEMTOP="$GEMKIT_BUILD_DIR/gemtop/gemtop"
GEMDUMP="$GEMKIT_BUILD_DIR/gemdump/gemdump"
IGT=/usr/libexec/igt-gpu-tools/benchmarks

# 4 levels of 60 bytes: over 240 bytes below the trash directory.
LONG="$TRASH/$(printf '%060d' 1)/$(printf '%060d' 2)/$(printf '%060d' 3)/$(printf '%060d' 4)"
S="$LONG/card0"
GEMD_SOCK=$S
echo i915 >"$TRASH/ping.expect"

test_expect_success 'gemd serves a path over 250 bytes long' '
	test ${#S} -gt 250 &&
	mkdir -p "$LONG" &&
	start_gemd &&
	test -S "$S" &&
	"$GEMD" -D "$S" --ping >out &&
	test_cmp ping.expect out &&
	grep "serving $S" "$GEMD_LOG"
'

test_expect_success 'a second gemd at the same long path is refused' '
	test_expect_code 1 "$GEMD" -D "$S" --daemon --log-file second.log 2>err &&
	grep "another gemd is already serving $S (pid $(gemd_pid))" err
'

test_expect_success 'libgem through gemctl: objects, blits, reads' '
	"$GEMCTL" -D "$S" -e -c "h = create 64K; fill \$h 0 0 16 16 0xff00ff00; wait \$h
		read \$h --length 8 --hex" >out &&
	echo "00000000: 00 ff 00 ff 00 ff 00 ff" >expect &&
	test_cmp expect out &&
	"$GEMCTL" -D "$S" --json info >info.json &&
	json_check "d[\"device\"] == \"$S\"" <info.json
'

test_expect_success 'the interposer: a program opens the device and an exec child shares it' '
	"$GEMCTL" -D "$S" run sh -c "test -c /dev/dri/card0 && echo \$GEM_DEVICE" >out &&
	echo "$S" >expect &&
	test_cmp expect out
'

# The C tests start their gemd under $TMPDIR: a drm_file inherited
# across exec and a reopen through /proc/self/fd name gemd by the path it
# bound, which sockpath_peer resolves in gemd's /proc.
for t in tests/gem/gem_basic tests/client/preload_fd; do
	test -x "$GEMKIT_BUILD_DIR/$t" || continue
	test_expect_success "$t with its gemd under a deep \$TMPDIR" '
		TMPDIR="$LONG" "$GEMKIT_BUILD_DIR/$t" >c.out 2>&1 &&
		! grep "^not ok" c.out &&
		grep "^1\.\.[1-9]" c.out
	'
done

if test -x "$IGT/gem_create"; then
	test_expect_success 'an IGT benchmark under gemctl run' '
		"$GEMCTL" -D "$S" run "$IGT/gem_create" -s 4096 -r 1 >igt.out 2>&1
	'
fi

if test -x "$GEMTOP"; then
	test_expect_success 'gemtop -b at the long path' '
		"$GEMTOP" -D "$S" -b -n 1 >top.out &&
		grep -i "aperture" top.out
	'
fi

if test -x "$GEMDUMP"; then
	test_expect_success 'gemdump capture at the long path' '
		"$GEMDUMP" -D "$S" capture -o now.core &&
		"$GEMDUMP" list now.core >list.out
	'
fi

test_expect_success 'stopping removes the socket' '
	stop_gemd &&
	test ! -e "$S"
'

test_expect_success 'the default path under a deep $XDG_RUNTIME_DIR' '
	XDG_RUNTIME_DIR="$LONG" "$GEMD" --daemon --pidfile xdg.pid \
		--log-file xdg.log &&
	test_pidfiles="$test_pidfiles $TRASH/xdg.pid" &&
	test -S "$LONG/gemkit/card0" &&
	XDG_RUNTIME_DIR="$LONG" "$GEMD" --ping >out &&
	test_cmp ping.expect out &&
	XDG_RUNTIME_DIR="$LONG" "$GEMCTL" info >/dev/null &&
	kill -TERM "$(cat xdg.pid)" &&
	test_wait_for 10 test_must_fail test -e "$LONG/gemkit/card0"
'

test_expect_success 'a relative long -D' '
	(cd "$LONG" && "$GEMD" -D rel/card0 --daemon --pidfile "$TRASH/rel.pid" \
		--log-file "$TRASH/rel.log") &&
	test_pidfiles="$test_pidfiles $TRASH/rel.pid" &&
	test -S "$LONG/rel/card0" &&
	grep "serving $LONG/rel/card0" rel.log &&
	"$GEMCTL" -D "$LONG/rel/card0" info >/dev/null &&
	kill -TERM "$(cat rel.pid)" &&
	test_wait_for 10 test_must_fail test -e "$LONG/rel/card0"
'

test_expect_success 'a last component too long for /proc/self/fd/N/ is refused, naming the limit' '
	name=$(printf "%086d" 0) &&
	test_expect_code 1 "$GEMD" -D "$LONG/$name" --log-file toolong.log 2>err &&
	grep "socket path too long: $LONG/$name (an AF_UNIX address holds 107 bytes;.* at most 85 bytes, not 86)" err &&
	test_expect_code 3 "$GEMCTL" -D "$LONG/$name" info 2>err &&
	grep "File name too long" err
'

test_done
