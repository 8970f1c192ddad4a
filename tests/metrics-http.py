#!/usr/bin/env python3
"""HTTP client for the gemd --metrics tests (raw sockets, so a request can
be as wrong as a test needs).

  metrics-http.py get URL [--method M] [--accept A] [--header-bytes N]
                          [--path-bytes N]
      One request; prints "STATUS CONTENT-TYPE" and the body.  Exit 0 on
      any HTTP answer, 1 if the connection ended without one.
  metrics-http.py flood HOST:PORT N DEADLINE -- CMD...
      Open N connections, each sending half a request and then nothing
      (slow clients), run CMD while they are held (it must succeed), then
      wait up to DEADLINE seconds for gemd to close every one of them.
      Prints "held N cmd ok closed C answered A".
  metrics-http.py slow HOST:PORT
      Hold one connection with half a request and, meanwhile, scrape
      /metrics on another; prints the scrape's status.
  metrics-http.py query PROM_URL PROMQL
      An instant query of Prometheus' HTTP API; prints one line per
      series: "{label="value",...} VALUE", sorted.  Exit 1 on an error.
  metrics-http.py alerts PROM_URL
      Prometheus' alerts: "STATE ALERTNAME {labels}" per line, sorted.
  metrics-http.py free-port
      A loopback port nothing listened on a moment ago.
"""
import json
import urllib.request
import resource
import select
import socket
import subprocess
import sys
import time
import urllib.parse

PARTIAL = b"GET /metrics HTTP/1.1\r\nHost: gemd\r\nX-Slow: "


def hostport(s):
    host, _, port = s.rpartition(":")
    return host.strip("[]"), int(port)


def read_answer(sock, timeout):
    """The whole answer (until EOF or Content-Length), or b"" on EOF."""
    sock.settimeout(timeout)
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, BrokenPipeError):
            break
        if not chunk:
            break
        data += chunk
        head, sep, body = data.partition(b"\r\n\r\n")
        if sep:
            for line in head.split(b"\r\n")[1:]:
                k, _, v = line.partition(b":")
                if k.strip().lower() == b"content-length" and len(body) >= int(v):
                    return data
    return data


def request(url, method="GET", accept=None, header_bytes=0, path_bytes=0):
    u = urllib.parse.urlsplit(url)
    path = u.path + ("x" * path_bytes)
    lines = ["%s %s HTTP/1.1" % (method, path), "Host: %s" % u.netloc,
             "Connection: close"]
    if accept:
        lines.append("Accept: " + accept)
    if header_bytes:
        lines.append("X-Big: " + "a" * header_bytes)
    req = ("\r\n".join(lines) + "\r\n\r\n").encode()
    sock = socket.create_connection((u.hostname, u.port), timeout=30)
    try:
        sock.sendall(req)
    except (ConnectionResetError, BrokenPipeError):
        pass
    data = read_answer(sock, 30)
    sock.close()
    return data


def parse(data):
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = lines[0].split()[1] if lines and lines[0].startswith("HTTP/") else None
    ctype = "-"
    for line in lines[1:]:
        k, _, v = line.partition(":")
        if k.strip().lower() == "content-type":
            ctype = v.strip().replace(" ", "")
    return status, ctype, body


def cmd_get(args):
    opts = {"method": "GET", "accept": None, "header_bytes": 0, "path_bytes": 0}
    url = args[0]
    i = 1
    while i < len(args):
        key = args[i].lstrip("-").replace("-", "_")
        val = args[i + 1]
        opts[key] = int(val) if key.endswith("bytes") else val
        i += 2
    status, ctype, body = parse(request(url, **opts))
    if status is None:
        print("no answer")
        return 1
    print(status, ctype)
    sys.stdout.write(body.decode("utf-8"))
    return 0


def open_partial(addr):
    s = socket.socket(socket.AF_INET6 if ":" in addr[0] else socket.AF_INET)
    s.setblocking(False)
    s.connect_ex(addr)
    return s


def cmd_flood(args):
    addr = hostport(args[0])
    n = int(args[1])
    deadline = time.monotonic() + float(args[2])
    cmd = args[4:]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, n + 64)), hard))
    socks = [open_partial(addr) for _ in range(n)]
    # Every connect completes (or fails) before the half request goes out.
    pending = set(socks)
    while pending and time.monotonic() < deadline:
        _, w, _ = select.select([], list(pending)[:500], [], 1.0)
        for s in w:
            try:
                s.send(PARTIAL)
            except OSError:
                pass
            pending.discard(s)
    ok = subprocess.run(cmd).returncode == 0
    open_ = set(socks)
    answered = 0
    while open_ and time.monotonic() < deadline:
        r, _, _ = select.select(list(open_)[:500], [], [], 1.0)
        for s in r:
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if data.startswith(b"HTTP/1.1 4") or data.startswith(b"HTTP/1.1 5"):
                answered += 1
            if not data or data.startswith(b"HTTP/"):
                open_.discard(s)
    for s in socks:
        s.close()
    print("held %d cmd %s closed %d answered %d" %
          (n, "ok" if ok else "failed", n - len(open_), answered))
    return 0 if ok else 1


def cmd_slow(args):
    addr = hostport(args[0])
    slow = socket.create_connection(addr, timeout=30)
    slow.sendall(PARTIAL)
    host = "[%s]" % addr[0] if ":" in addr[0] else addr[0]
    status, _, _ = parse(request("http://%s:%d/metrics" % (host, addr[1])))
    slow.close()
    print(status)
    return 0


def prom_api(base, path, params=None):
    url = base.rstrip("/") + path
    if params:
        url += "?" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=30) as r:
        d = json.load(r)
    if d.get("status") != "success":
        raise SystemExit("prometheus: %r" % d)
    return d["data"]


def labels_str(m):
    return "{" + ",".join('%s="%s"' % (k, m[k]) for k in sorted(m)) + "}"


def cmd_query(args):
    data = prom_api(args[0], "/api/v1/query", {"query": args[1]})
    lines = []
    for r in data["result"]:
        lines.append("%s %s" % (labels_str(r["metric"]), r["value"][1]))
    for line in sorted(lines):
        print(line)
    return 0


def cmd_alerts(args):
    data = prom_api(args[0], "/api/v1/alerts")
    lines = []
    for a in data["alerts"]:
        labels = dict(a["labels"])
        name = labels.pop("alertname")
        lines.append("%s %s %s" % (a["state"], name, labels_str(labels)))
    for line in sorted(lines):
        print(line)
    return 0


def cmd_free_port(args):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    print(s.getsockname()[1])
    s.close()
    return 0


def main():
    cmds = {"get": cmd_get, "flood": cmd_flood, "slow": cmd_slow,
            "query": cmd_query, "alerts": cmd_alerts, "free-port": cmd_free_port}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    sys.exit(cmds[sys.argv[1]](sys.argv[2:]))


if __name__ == "__main__":
    main()
