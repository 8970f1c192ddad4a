#!/bin/sh
# gemctl run: the real-system files IGT reads beyond the device -- i915
# loaded (/proc/modules, /sys/module/i915, as libkmod reads them), card0's
# error (gemd's error state as Linux 6.1 prints it, cleared by a write)
# and rcs0's engine properties (kept per device, checked when written as
# the kernel checks them).
test_description='gemctl run: i915 loaded, card0/error, engine properties'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP needs python3 (write() through the interposer)"
	exit 0
fi

# Writes with write(2), as IGT's igt_sysfs_set does (a shell's echo goes
# through stdio inside libc, which the interposer does not see): for each
# PATH=TEXT, "PATH: ok N" or "PATH: ERRNO", then the file's contents.
# "@DIR/NAME" opens NAME relative to an fd on DIR, as igt_sysfs_open's
# callers do; a "!" before TEXT opens with O_TRUNC; TEXT "?bad" writes 4
# bytes from an unmapped address (through libc's write, so the interposer's).
cat >write.py <<\EOF
import ctypes, errno, os, sys
libc = ctypes.CDLL(None, use_errno=True)
for arg in sys.argv[1:]:
    path, text = arg.split("=", 1)
    flags = os.O_WRONLY
    if text.startswith("!"):
        flags |= os.O_TRUNC
        text = text[1:]
    text = text.encode().decode("unicode_escape").encode()
    dirfd = None
    name = path
    if path.startswith("@"):
        d, name = os.path.split(path[1:])
        dirfd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fd = os.open(name, flags, dir_fd=dirfd)
        try:
            if text == b"?bad":
                n = libc.write(fd, ctypes.c_void_p(8), 4)
                if n < 0:
                    raise OSError(ctypes.get_errno(), "write")
                res = "ok %d" % n
            else:
                res = "ok %d" % os.write(fd, text)
        finally:
            os.close(fd)
    except OSError as e:
        res = errno.errorcode[e.errno]
    with open(name, "rb", opener=lambda p, f: os.open(p, f, dir_fd=dirfd)) as f:
        now = f.read().decode()
    if dirfd is not None:
        os.close(dirfd)
    print("%s: %s: %r" % (os.path.basename(name), res, now))
EOF

test_expect_success '/proc/modules is the real list and i915, as 6.1 prints it' '
	{ cat /proc/modules 2>/dev/null | grep -v "^i915 " || true; } >expect &&
	echo "i915 3088384 0 - Live 0x0000000000000000" >>expect &&
	"$GEMCTL" run cat /proc/modules >out &&
	test_cmp expect out
'

test_expect_success '/sys/module/i915: loaded and live, parameters from gemd' '
	"$GEMCTL" run sh -c "M=/sys/module/i915 &&
		cat \$M/initstate \$M/refcnt \$M/coresize \$M/initsize \$M/taint &&
		ls \$M \$M/holders &&
		cat /sys/module/i915/parameters/reset" >out &&
	cat >expect <<-\EOF &&
	live
	0
	3088384
	0

	/sys/module/i915:
	coresize
	holders
	initsize
	initstate
	parameters
	refcnt
	taint

	/sys/module/i915/holders:
	3
	EOF
	test_cmp expect out
'

test_expect_success 'rcs0: the files Linux 6.1 has for a gen3 engine' '
	"$GEMCTL" run sh -c "ls /sys/class/drm/card0/engine &&
		E=/sys/class/drm/card0/engine/rcs0 && ls -A \$E \$E/.defaults &&
		for f in name class instance mmio_base capabilities known_capabilities \
			heartbeat_interval_ms stop_timeout_ms max_busywait_duration_ns \
			.defaults/heartbeat_interval_ms .defaults/stop_timeout_ms \
			.defaults/max_busywait_duration_ns; do
			printf \"%s=%s\n\" \$f \"\$(cat \$E/\$f)\"; done" >out &&
	cat >expect <<-\EOF &&
	rcs0
	/sys/class/drm/card0/engine/rcs0:
	.defaults
	capabilities
	class
	heartbeat_interval_ms
	instance
	known_capabilities
	max_busywait_duration_ns
	mmio_base
	name
	stop_timeout_ms

	/sys/class/drm/card0/engine/rcs0/.defaults:
	heartbeat_interval_ms
	max_busywait_duration_ns
	stop_timeout_ms
	name=rcs0
	class=0
	instance=0
	mmio_base=0x2000
	capabilities=
	known_capabilities=
	heartbeat_interval_ms=2500
	stop_timeout_ms=100
	max_busywait_duration_ns=8000
	.defaults/heartbeat_interval_ms=2500
	.defaults/stop_timeout_ms=100
	.defaults/max_busywait_duration_ns=8000
	EOF
	test_cmp expect out
'

# The properties are the device's, as sysfs is: the runs below join one
# gemd, and keep what they write while it lives.
E=/sys/class/drm/card0/engine/rcs0
test_expect_success 'setup: a gemd the engine property runs join' '
	start_gemd --no-debugfs
'

test_expect_success 'engine properties: what is written is kept, as the kernel shows it' '
	"$GEMCTL" run -D "$GEMD_SOCK" python3 write.py "$E/heartbeat_interval_ms=1000\n" \
		"@/sys/dev/char/226:0/engine/rcs0/stop_timeout_ms=0x10" \
		"$E/max_busywait_duration_ns=+8000000" \
		"$E/stop_timeout_ms=!017\n" >out &&
	cat >expect <<-\EOF &&
	heartbeat_interval_ms: ok 5: '"'"'1000\n'"'"'
	stop_timeout_ms: ok 4: '"'"'16\n'"'"'
	max_busywait_duration_ns: ok 8: '"'"'8000000\n'"'"'
	stop_timeout_ms: ok 4: '"'"'15\n'"'"'
	EOF
	test_cmp expect out &&
	"$GEMCTL" run -D "$GEMD_SOCK" cat $E/heartbeat_interval_ms \
		$E/.defaults/heartbeat_interval_ms >out 2>err &&
	printf "1000\n2500\n" >expect &&
	test_cmp expect out
'

test_expect_success 'engine properties: the kernel'"'"'s refusals and their errnos' '
	"$GEMCTL" run -D "$GEMD_SOCK" python3 write.py "$E/heartbeat_interval_ms=abc" \
		"$E/heartbeat_interval_ms=12 " "$E/heartbeat_interval_ms= 12" \
		"$E/heartbeat_interval_ms=0" "$E/heartbeat_interval_ms=4294967292" \
		"$E/stop_timeout_ms=4294967293" "$E/stop_timeout_ms=-1" \
		"$E/max_busywait_duration_ns=8000001" \
		"$E/max_busywait_duration_ns=18446744073709551616" \
		"$E/stop_timeout_ms=!junk" "$E/stop_timeout_ms=0x" \
		"$E/name=rcs1" "$E/.defaults/stop_timeout_ms=5" \
		"$E/heartbeat_interval_ms=?bad" >out &&
	cat >expect <<-\EOF &&
	heartbeat_interval_ms: EINVAL: '"'"'1000\n'"'"'
	heartbeat_interval_ms: EINVAL: '"'"'1000\n'"'"'
	heartbeat_interval_ms: EINVAL: '"'"'1000\n'"'"'
	heartbeat_interval_ms: ENODEV: '"'"'1000\n'"'"'
	heartbeat_interval_ms: EINVAL: '"'"'1000\n'"'"'
	stop_timeout_ms: EINVAL: '"'"'15\n'"'"'
	stop_timeout_ms: EINVAL: '"'"'15\n'"'"'
	max_busywait_duration_ns: EINVAL: '"'"'8000000\n'"'"'
	max_busywait_duration_ns: ERANGE: '"'"'8000000\n'"'"'
	stop_timeout_ms: EINVAL: '"'"'15\n'"'"'
	stop_timeout_ms: EINVAL: '"'"'15\n'"'"'
	name: EACCES: '"'"'rcs0\n'"'"'
	stop_timeout_ms: EACCES: '"'"'100\n'"'"'
	heartbeat_interval_ms: EFAULT: '"'"'1000\n'"'"'
	EOF
	test_cmp expect out
'

test_expect_success 'engine properties: another gemd'"'"'s device shows the defaults' '
	"$GEMCTL" run -D "$GEMD_SOCK" cat $E/heartbeat_interval_ms >out 2>err &&
	echo 1000 >expect && test_cmp expect out &&
	"$GEMCTL" run --private cat $E/heartbeat_interval_ms >out 2>err &&
	echo 2500 >expect && test_cmp expect out &&
	stop_gemd
'

# The debugfs i915_error_state (3.x) as Linux 6.1 prints it in sysfs
# card0/error: the engine's name, buffer offsets high and low, dumps as
# one "~" line of ascii85 ('z' for 0, else five digits from '!').
cat >sixone.py <<\EOF
import re, sys
def a85(v):
    if v == 0:
        return "z"
    d = ""
    for _ in range(5):
        d = chr(33 + v % 85) + d
        v //= 85
    return d
out, words = [], None
def flush():
    global words
    if words is not None:
        out.append("~" + "".join(a85(w) for w in words))
    words = None
for line in sys.stdin.read().splitlines():
    m = re.match(r"[0-9a-f]{8} :  ([0-9a-f]{8})$", line)
    if m and words is not None:
        words.append(int(m.group(1), 16))
        continue
    flush()
    m = re.match(r"render ring --- (gtt_offset|ringbuffer) = 0x([0-9a-f]{8})$", line)
    if m:
        name = "batch" if m.group(1) == "gtt_offset" else "ring"
        out.append("rcs0 --- %s = 0x00000000 %s" % (name, m.group(2)))
        words = []
        continue
    line = line.replace("render command stream:", "rcs0 command stream:")
    out.append(line.replace("render ring --- ", "rcs0 --- "))
flush()
print("\n".join(out))
EOF

if test_have_fuse; then
test_expect_success 'card0/error: no error state, then the hang'"'"'s, cleared by a write' '
	"$GEMCTL" run sh -c "cat /sys/class/drm/card0/error &&
		\"$GEMCTL\" -q -c \"hang --kind badop; wait-hang --timeout 20s\" >/dev/null &&
		cat /sys/class/drm/card0/error >error &&
		cat /sys/kernel/debug/dri/0/i915_error_state >debugfs &&
		python3 write.py @/sys/dev/char/226:0/error=1 &&
		cat /sys/dev/char/226:0/error" >out 2>err &&
	remove_kept err &&
	cat >expect <<-\EOF &&
	no error state collected
	error: ok 1: '"'"'no error state collected\n'"'"'
	no error state collected
	EOF
	test_cmp expect out &&
	python3 sixone.py <debugfs >expect &&
	test_cmp expect error &&
	grep "^rcs0 --- batch = 0x00000000 [0-9a-f]\{8\}\$" error &&
	sed -n "s/^gemd hang kind: //p" error >kind &&
	echo badop >expect &&
	test_cmp expect kind
'
fi

test_done
