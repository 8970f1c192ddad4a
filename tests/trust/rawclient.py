#!/usr/bin/env python3
"""A hostile client speaking gemd's wire protocol without libgem (t0006).

  rawclient.py SOCK debugfs-read PATH   READ a debugfs file: prints the
                                        result (0 or -errno) and the length
  rawclient.py SOCK debugfs-write PATH BYTES
                                        WRITE BYTES to a debugfs file:
                                        prints the result (count or -errno)
  rawclient.py SOCK pin                 OPEN a file, then I915_GEM_PIN on
                                        it: prints the result
  rawclient.py SOCK open-hold           OPEN a file: prints its token (32
                                        hex digits, hi then lo) and holds
                                        it until stdin ends
  rawclient.py SOCK status-mmio         ask for the GPU's register file
                                        (GEM_MSG_STATUS): prints the result
                                        and, if 0, the size it gives
  rawclient.py SOCK create TOKEN        GEM_CREATE on the file TOKEN names:
                                        prints the result
  rawclient.py SOCK forge               OPEN a file, then GEM_CREATE with its
                                        token, with its low 64 bits only and
                                        with one bit of the high half
                                        flipped: prints the three results
  rawclient.py SOCK unread N PATH       send N debugfs reads of PATH on one
                                        channel and read no reply: prints
                                        "sent" and holds until killed
  rawclient.py SOCK half                send half of a message (a header
                                        promising 4096 payload bytes, then
                                        10 of them): prints "sent" and
                                        holds until killed
  rawclient.py SOCK badmagic SECONDS    connect, send a header with a bad
                                        magic, await the close, again, for
                                        SECONDS: prints how many were sent
  rawclient.py SOCK fill N              connect N sockets and say nothing:
                                        prints how many connected and holds
                                        them until killed
  rawclient.py SOCK hijack NAMES        for every autobound name in the
                                        file NAMES (from /proc/net/unix),
                                        bind it and OPEN (attack 5: run in
                                        a new network namespace): prints
                                        the files opened
"""
import os, re, socket, struct, sys, time

sys.dont_write_bytecode = True	# nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
from gemkit_sockpath import connect  # noqa: E402

MAGIC = 0x474d4431
HDR = struct.Struct("<IHHIIQQ")		# struct gem_msg_hdr (file: lo, hi)
OPEN_REPLY = struct.Struct("<IIQQ")	# struct gem_open_reply
RHDR = struct.Struct("<IiII")		# struct gem_reply_hdr
HELLO = struct.Struct("<IIII16s")	# struct gem_msg_hello
# The one source of the version: protocol.h.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "..", "..", "lib", "proto", "protocol.h")) as _h:
    VERSION = int(re.search(r"#define GEM_PROTOCOL_VERSION\s+(\d+)", _h.read()).group(1))
MSG_OPEN, MSG_HELLO, MSG_IOCTL, MSG_STATUS, MSG_DEBUGFS = 1, 2, 16, 19, 64
STATUS_MMIO = 3
DEBUGFS_READ, DEBUGFS_WRITE = 0, 1
# DRM_IOCTL_I915_GEM_PIN: _IOWR('d', 0x40 + 0x15, struct drm_i915_gem_pin)
I915_GEM_PIN = (3 << 30) | (24 << 16) | (ord("d") << 8) | 0x55
# DRM_IOCTL_I915_GEM_CREATE: _IOWR('d', 0x40 + 0x1b, struct drm_i915_gem_create)
I915_GEM_CREATE = (3 << 30) | (16 << 16) | (ord("d") << 8) | 0x5b


def recv_all(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise EOFError
        b += c
    return b


def call(s, type_, payload=b"", request=0, file_=(0, 0)):
    s.sendall(HDR.pack(MAGIC, type_, 0, len(payload), request, *file_) + payload)
    magic, result, length, _ = RHDR.unpack(recv_all(s, RHDR.size))
    assert magic == MAGIC
    return result, recv_all(s, length)


def hello(type_, path, bind_name=None):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    if bind_name is not None:
        s.bind(bind_name)
    elif type_ == MSG_OPEN:
        s.bind("")		# autobind
    connect(s, path)
    result, data = call(s, type_, HELLO.pack(VERSION, os.getpid(), os.getpid(), 0, b"rawclient"))
    return s, result, data


def create(path, token):
    """GEM_CREATE of 4 KiB on the file token names: the result."""
    ch, r, _ = hello(MSG_HELLO, path)
    result, _ = call(ch, MSG_IOCTL, struct.pack("<QII", 4096, 0, 0), I915_GEM_CREATE, token)
    ch.close()
    return result


def hold_until_killed():
    # Not until stdin ends: a "sleep | rawclient" pipeline is a job whose
    # sleep outlives the test that kills the client (and a "wait" for the
    # job waits for the sleep).
    sys.stdout.flush()
    while True:
        time.sleep(3600)


def main():
    path, verb = sys.argv[1], sys.argv[2]
    if verb == "debugfs-read":
        ch, r, _ = hello(MSG_HELLO, path)
        result, data = call(ch, MSG_DEBUGFS, sys.argv[3].encode() + b"\0", DEBUGFS_READ)
        print(result, len(data))
    elif verb == "debugfs-write":
        ch, r, _ = hello(MSG_HELLO, path)
        result, _ = call(ch, MSG_DEBUGFS, sys.argv[3].encode() + b"\0" +
                         sys.argv[4].encode(), DEBUGFS_WRITE)
        print(result)
    elif verb == "status-mmio":
        ch, r, _ = hello(MSG_HELLO, path)
        result, data = call(ch, MSG_STATUS, b"", STATUS_MMIO)
        print(result, *struct.unpack("<Q", data) if result == 0 else ())
    elif verb == "pin":
        f, r, data = hello(MSG_OPEN, path)
        token = OPEN_REPLY.unpack(data)[2:]
        ch, r, _ = hello(MSG_HELLO, path)
        result, _ = call(ch, MSG_IOCTL, struct.pack("<IIQQ", 1, 0, 0, 0), I915_GEM_PIN, token)
        print(result)
    elif verb == "open-hold":
        f, r, data = hello(MSG_OPEN, path)
        lo, hi = OPEN_REPLY.unpack(data)[2:]
        print("%016x%016x" % (hi, lo))
        sys.stdout.flush()
        sys.stdin.read()
    elif verb == "create":
        t = int(sys.argv[3], 16)
        print(create(path, (t & (2**64 - 1), t >> 64)))
    elif verb == "forge":
        f, r, data = hello(MSG_OPEN, path)
        lo, hi = OPEN_REPLY.unpack(data)[2:]
        print(create(path, (lo, hi)), create(path, (lo, 0)),
              create(path, (lo, hi ^ (1 << 63))))
    elif verb == "unread":
        ch, r, _ = hello(MSG_HELLO, path)
        req = sys.argv[4].encode() + b"\0"
        msg = HDR.pack(MAGIC, MSG_DEBUGFS, 0, len(req), DEBUGFS_READ, 0, 0) + req
        ch.setblocking(False)
        sent = 0
        # Until gemd stops reading too (its replies fill our buffer, then
        # its thread for us blocks): what it took is what it must answer.
        for _ in range(int(sys.argv[3])):
            try:
                ch.sendall(msg)
                sent += 1
            except BlockingIOError:
                break
        print("sent", sent)
        hold_until_killed()
    elif verb == "half":
        ch, r, _ = hello(MSG_HELLO, path)
        ch.sendall(HDR.pack(MAGIC, MSG_DEBUGFS, 0, 4096, DEBUGFS_READ, 0, 0) + b"x" * 10)
        print("sent")
        hold_until_killed()
    elif verb == "badmagic":
        end = time.time() + float(sys.argv[3])
        n = 0
        while time.time() < end:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connect(s, path)
            s.sendall(HDR.pack(0xbad, MSG_HELLO, 0, 0, 0, 0, 0))
            s.recv(64)
            s.close()
            n += 1
        print(n)
    elif verb == "fill":
        socks = []
        for _ in range(int(sys.argv[3])):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connect(s, path)
            socks.append(s)
        print(len(socks))
        hold_until_killed()
    elif verb == "hijack":
        # Read before the new network namespace: it has a /proc/net/unix
        # (and an abstract namespace) of its own.
        with open(sys.argv[3]) as f:
            names = set(line.strip() for line in f if line.strip())
        opened = []
        for n in sorted(names):
            try:
                s, r, _ = hello(MSG_OPEN, path, "\0" + n)
                if r == 0:
                    opened.append(s)
            except OSError:
                pass
        print(len(opened))
        sys.stdout.flush()
        sys.stdin.read()	# hold them until told
    else:
        print("rawclient: unknown verb", verb, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
