#!/bin/sh
# gemctl run: a GPU hang reaches libudev's "kernel" monitors as the drm
# uevent Linux 6.1 sends (ACTION=change on card0, ERROR=1), which IGT's
# hang detector waits for; monitors of other subsystems stay libudev's.
test_description='gemctl run: a hang as a udev ERROR=1 uevent'
. "$(dirname "$0")/test-lib.sh"
. "$GEMKIT_SRC_DIR/tests/gemctl-lib.sh"
if ! command -v python3 >/dev/null 2>&1 ||
   ! python3 -c 'import ctypes, os; ctypes.CDLL("libudev.so.1", mode=os.RTLD_GLOBAL)' 2>/dev/null; then
	echo "1..0 # SKIP needs python3 and libudev.so.1"
	exit 0
fi

# A libudev client as IGT's igt_fork_hang_detector is: libudev loaded
# globally and called through the global scope, as a program linked with
# it calls it.  Prints what each monitor's fd is, then makes a hang with
# gemctl and prints the device each monitor receives.
cat >udev.py <<\EOF
import ctypes, os, select, socket, subprocess, sys
ctypes.CDLL("libudev.so.1", mode=os.RTLD_GLOBAL)
u = ctypes.CDLL(None)
P = ctypes.c_void_p
for name, res, args in (
        ("udev_new", P, []),
        ("udev_monitor_new_from_netlink", P, [P, ctypes.c_char_p]),
        ("udev_monitor_filter_add_match_subsystem_devtype", ctypes.c_int,
         [P, ctypes.c_char_p, ctypes.c_char_p]),
        ("udev_monitor_enable_receiving", ctypes.c_int, [P]),
        ("udev_monitor_get_fd", ctypes.c_int, [P]),
        ("udev_monitor_receive_device", P, [P]),
        ("udev_monitor_unref", P, [P]),
        ("udev_device_get_devnum", ctypes.c_ulong, [P]),
        ("udev_device_get_property_value", ctypes.c_char_p, [P, ctypes.c_char_p]),
        ("udev_device_get_action", ctypes.c_char_p, [P]),
        ("udev_device_get_devnode", ctypes.c_char_p, [P]),
        ("udev_device_get_syspath", ctypes.c_char_p, [P]),
        ("udev_device_unref", P, [P])):
    f = getattr(u, name)
    f.restype = res
    f.argtypes = args

udev = u.udev_new()

def monitor(subsystem):
    mon = u.udev_monitor_new_from_netlink(udev, b"kernel")
    assert mon
    assert u.udev_monitor_filter_add_match_subsystem_devtype(mon, subsystem, None) >= 0
    assert u.udev_monitor_enable_receiving(mon) >= 0
    fd = u.udev_monitor_get_fd(mon)
    s = socket.socket(fileno=os.dup(fd))
    print("%s fd: %s" % (subsystem.decode(), s.family.name))
    s.close()
    return mon, fd

def receive(what, mon):
    dev = u.udev_monitor_receive_device(mon)
    if not dev:
        print("%s: none" % what)
        return
    card = os.stat("/dev/dri/card0").st_rdev
    print("%s: %s %s ERROR=%s %s devnum %s" % (what,
          u.udev_device_get_action(dev).decode(),
          u.udev_device_get_syspath(dev).decode(),
          u.udev_device_get_property_value(dev, b"ERROR").decode(),
          u.udev_device_get_devnode(dev).decode(),
          "card0" if u.udev_device_get_devnum(dev) == card else "other"))
    u.udev_device_unref(dev)

drm, fd = monitor(b"drm")
usb, _ = monitor(b"usb")
receive("before", drm)
subprocess.run([sys.argv[1], "-q", "-c", "hang --kind badop; wait-hang --timeout 20s"],
               stdout=subprocess.DEVNULL, check=True)
r, _, _ = select.select([fd], [], [], 30)
print("readable" if r else "not readable")
receive("hang", drm)
receive("then", drm)
u.udev_monitor_unref(usb)
u.udev_monitor_unref(drm)
EOF

test_expect_success 'a drm monitor hears the hang as ERROR=1 on card0' '
	"$GEMCTL" run python3 udev.py "$GEMCTL" >out 2>err &&
	remove_kept err &&
	cat >expect <<-\EOF &&
	drm fd: AF_UNIX
	usb fd: AF_NETLINK
	before: none
	readable
	hang: change /sys/devices/pci0000:00/0000:00:02.0/drm/card0 ERROR=1 /dev/dri/card0 devnum card0
	then: none
	EOF
	test_cmp expect out
'

test_done
