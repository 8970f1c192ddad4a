"""connect() to gemd's socket at a path of any length, for the Python
clients of the tests and scripts (rawclient.py, gemd-livefuzz, gemd-floods).

sun_path holds 108 bytes; a build directory nested deeper than that (as
distcheck's is in CI) puts every test's socket past it.  libgem goes
through /proc/self/fd/N of the socket's directory (common/sockpath.c);
so does this.
"""
import os

SUN_PATH_MAX = 108


def connect(s, path):
    """Connect socket S to the Unix socket at PATH, however long."""
    if len(os.fsencode(path)) < SUN_PATH_MAX:
        s.connect(path)
        return
    d = os.open(os.path.dirname(path) or ".", os.O_PATH | os.O_DIRECTORY)
    try:
        s.connect("/proc/self/fd/%d/%s" % (d, os.path.basename(path)))
    finally:
        os.close(d)
