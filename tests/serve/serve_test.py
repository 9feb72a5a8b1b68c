#!/usr/bin/env python3
"""Tests `tilescope serve` through HTTP, against the command line's own output.

Each case starts the server on a free port (--port 0, the port read from the
line it prints), runs its requests and stops it:

    check      a right kernel (tests/own/good) answers "clean" with the counts,
               grid and block of `tilescope check --json` on the same file and
               size; a broken one "problems" with check's counts, or "refused"
               at the line its file's expect-output names
    trace      /api/trace answers a trace (gzip when asked) that
               kernels/trace/trace_io reads back (read_trace) with the events
               of `tilescope trace` on the same file and size
    health     version, backend, queue
    hostile    tests/own/broken/hostile_*.cu refused at their lines, with no
               word of the machine's files; a kernel that never ends stopped
               at the time limit; the server answers between them
    hostile_at_once
               every hostile file sent at once, with the sandbox required, and
               a right kernel alongside: each hostile one refused, the right
               one clean, the server still there
    requests   malformed JSON 400, a missing or wrong token 401, a kernel over
               64 KB 413, a body announced at 10 MB 413, a size past the event
               budget 413, too fast 429, a full queue 503 with Retry-After
    slow       clients that never finish their requests: the server answers
               others within a second, and drops them at its I/O time limit
    static     /../../etc/passwd, %2e%2e and friends, a link out of the web
               folder: 403 or 404, never the file; the page itself served
    backend    "cuda" where the server holds no GPU (or is held to the CPU):
               "backend"

Standard library only. Exit status 0 when every expectation holds.
"""

import argparse
import gzip
import http.client
import json
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OWN = os.path.join(SOURCE_DIR, "tests", "own")
TOKEN = "class-secret-for-tests"
FAILURES = []


def expect(condition, what):
    if not condition:
        FAILURES.append(what)
        print("FAIL:", what, flush=True)
    return condition


class Server:
    """`tilescope serve` on a free port of 127.0.0.1, stopped on exit."""

    def __init__(self, tilescope, *args, sandbox="auto"):
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            [tilescope, "serve", "--port", "0", "--host", "127.0.0.1", "--token", TOKEN, "--sandbox", sandbox, *args],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.process.kill()
            self.log.seek(0)
            raise SystemExit("the server printed no URL: " + line + self.log.read())
        self.port = int(match.group(1))
        self.lines = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        expect(self.process.returncode == 0, "the server ends with 0 on SIGTERM, not %s" % self.process.returncode)

    def request(self, method, path, body=None, token=TOKEN, headers=None, timeout=60):
        """(status, headers, body bytes)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        h = dict(headers or {})
        if token is not None:
            h["Authorization"] = "Bearer " + token
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
            h["Content-Type"] = "application/json"
        connection.request(method, path, body=body, headers=h)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def post(self, path, body, **kw):
        status, headers, data = self.request("POST", path, body, **kw)
        try:
            return status, headers, json.loads(data)
        except ValueError:
            return status, headers, data

    def raw(self, text, timeout=10):
        """Sends `text` as it is (no client in between) and returns the answer's status and body."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            s.sendall(text.encode())
            data = b""
            try:
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            except (socket.timeout, ConnectionResetError):
                pass
        status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
        return status, data


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def size_of(path):
    """The size run_broken.py gives the file: 1D kernels (launch with five parameters) a row."""
    text = read(path)
    args = re.search(r"^// expect-args: (.*)$", text, re.M)
    if args:
        size = re.search(r"--size (\S+)", args.group(1))
        if size:
            return size.group(1)
    launch = re.search(r"void\s+launch\s*\(([^)]*)\)", text)
    return "1000" if launch and launch.group(1).count(",") == 4 else "64x48"


def cli_check(tilescope, path, size, radius):
    """`tilescope check --json` on the file: the oracle."""
    run = subprocess.run([tilescope, "check", "--kernel-file", path, "--size", size, "--radius", str(radius),
                          "--backend", "cpu", "--json"], capture_output=True, text=True, timeout=120)
    return run.returncode, json.loads(run.stdout) if run.stdout.strip() else None, run.stderr


def same_report(api, cli, what):
    for key in ("counts", "total", "grid", "block_dim", "kernel", "mask", "groups"):
        expect(api.get(key) == cli.get(key), "%s: %s is %r by the API, %r by check --json" %
               (what, key, api.get(key), cli.get(key)))


def case_check(t):
    with Server(t, "--backend", "cpu") as s:
        for name, size, radius in (("conv2d_tiled_student", "45x37", 2), ("conv1d_tiled_student", "1000", 3)):
            path = os.path.join(OWN, "good", name + ".cu")
            status, _, answer = s.post("/api/check", {"kernel": read(path), "size": size, "radius": radius,
                                                      "backend": "cpu"})
            code, oracle, _ = cli_check(t, path, size, radius)
            expect(status == 200 and answer.get("status") == "clean", "%s: clean, got %s %s" % (name, status, answer))
            expect(code == 0, "%s: check says clean (exit %s)" % (name, code))
            same_report(answer, oracle, name)
        # Broken: the problems of check, or refused at the file's line.
        for name in ("missing_syncthreads", "oob_write_p", "shared_uninitialised", "syntax_missing_semicolon", "undeclared_function",
                     "unsupported_atomic_add"):
            path = os.path.join(OWN, "broken", name + ".cu")
            size = size_of(path)
            status, _, answer = s.post("/api/check", {"kernel": read(path), "size": size, "radius": 1})
            code, oracle, said = cli_check(t, path, size, 1)
            if code == 0:
                expect(answer.get("status") == "clean", "%s: clean as check says, got %s" % (name, answer))
                same_report(answer, oracle, name)
            elif code == 1:
                expect(answer.get("status") == "problems", "%s: problems, got %s" % (name, answer))
                same_report(answer, oracle, name)
            else:
                # The line the command line names for the same file.
                wanted = re.search(re.escape(name) + r"\.cu:(\d+)", said)
                expect(answer.get("status") == "refused" and wanted and answer.get("line") == int(wanted.group(1)),
                       "%s: refused at line %s, got %s" % (name, wanted and wanted.group(1), answer))
                expect(wanted and "kernel.cu:%s" % wanted.group(1) in answer.get("reason", ""),
                       "%s: the reason names the line: %s" % (name, answer.get("reason")))
        # The log: one line a request, with the kernel's hash, the verdict and the time.
        time.sleep(0.2)
        logged = [l for l in s.lines if "POST /api/check" in l]
        expect(len(logged) == 8, "one log line per request, got %d" % len(logged))
        expect(all(re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ 127\.0\.0\.1 POST /api/check [0-9a-f]{12} "
                            r"(clean|problems|refused) 200 \d+ ms$", l) for l in logged), "log lines: %s" % logged)


def case_trace(t, read_trace):
    path = os.path.join(OWN, "good", "conv2d_tiled_student.cu")
    with tempfile.TemporaryDirectory() as tmp, Server(t, "--backend", "cpu") as s:
        status, headers, data = s.request("POST", "/api/trace", json.dumps(
            {"kernel": read(path), "size": "45x37", "radius": 2, "backend": "cpu"}),
            headers={"Accept-Encoding": "gzip"})
        expect(status == 200 and headers.get("content-type") == "application/octet-stream",
               "trace: binary, got %s %s" % (status, headers))
        expect(headers.get("content-encoding") == "gzip", "trace: gzip when asked")
        raw = gzip.decompress(data)
        expect(raw.startswith(b"TSTRACE\0"), "trace: the binary format's magic")
        served = os.path.join(tmp, "served.tstrace")
        with open(served, "wb") as f:
            f.write(raw)
        local = os.path.join(tmp, "local.tstrace")
        subprocess.run([t, "trace", "--kernel-file", path, "--size", "45x37", "--radius", "2", "--backend", "cpu",
                        "--out", local, "--format", "binary"], check=True, capture_output=True, timeout=120)
        a = subprocess.run([read_trace, served, path], capture_output=True, text=True)
        b = subprocess.run([read_trace, local, path], capture_output=True, text=True)
        expect(a.returncode == 0, "trace_io reads the served trace back: " + a.stderr)
        if a.returncode == 0 and b.returncode == 0:
            got, want = json.loads(a.stdout), json.loads(b.stdout)
            expect(got == want and got["events"] > 0, "served trace %s, local %s" % (got, want))
            expect(headers.get("x-tilescope-events") == str(want["events"]), "X-Tilescope-Events")
        # Without gzip asked for, the bytes as they are; a refused kernel answers JSON.
        status, headers, data = s.request("POST", "/api/trace", json.dumps(
            {"kernel": read(path), "size": "45x37", "radius": 2}))
        expect(data.startswith(b"TSTRACE\0") and "content-encoding" not in headers, "trace without gzip")
        broken = os.path.join(OWN, "broken", "syntax_missing_semicolon.cu")
        status, headers, answer = s.post("/api/trace", {"kernel": read(broken), "size": "64x48", "radius": 1})
        expect(answer.get("status") == "refused" and answer.get("line") == 21, "trace refused: %s" % answer)


def case_health(t):
    with Server(t, "--workers", "3") as s:
        # A second server on the same port is refused, not handed half the requests.
        second = subprocess.run([t, "serve", "--host", "127.0.0.1", "--port", str(s.port), "--token", TOKEN, "--sandbox", "auto"],
                                capture_output=True, text=True, timeout=20)
        expect(second.returncode == 2 and "cannot listen" in second.stderr,
               "a second server on the port: exit 2, got %s %s" % (second.returncode, second.stderr))
        status, headers, answer = s.request("GET", "/api/health", token=None)
        j = json.loads(answer)
        version = re.search(r"project\(\w+\s+VERSION\s+([\d.]+)", read(os.path.join(SOURCE_DIR, "CMakeLists.txt"))).group(1)
        expect(status == 200 and j["status"] == "ok" and j["workers"] == 3 and j["queue"] == 0, "health: %s" % j)
        expect(j["version"] == version, "health's version %s, the project's %s" % (j["version"], version))
        expect(j["backend"] == "auto" and "gpu" in j, "health: backend and gpu")


def case_hostile(t):
    with Server(t, "--time-limit", "2", "--burst", "100") as s:
        for name in sorted(os.listdir(os.path.join(OWN, "broken"))):
            if not name.startswith("hostile_"):
                continue
            path = os.path.join(OWN, "broken", name)
            text = read(path)
            if re.search(r"^// expect-exit: 0$", text, re.M):
                continue  # a hostile file the translation makes harmless: right, not refused
            line = int(re.search(re.escape(name) + r":(\d+)", text).group(1))
            status, _, answer = s.post("/api/check", {"kernel": text, "size": size_of(path), "radius": 1})
            expect(status == 200 and answer.get("status") == "refused" and answer.get("line") == line,
                   "%s: refused at line %d, got %s %s" % (name, line, status, answer))
            body = json.dumps(answer)
            for secret in ["root:", "/bin/bash", "daemon:"] + re.findall(r"^// expect-no-output: (.*)$", text, re.M):
                expect(secret not in body, "%s: the answer holds %r" % (name, secret))
            status, _, h = s.request("GET", "/api/health", token=None)
            expect(status == 200, "health answers after " + name)
        # A kernel that never ends: stopped at the time limit, the server still
        # there. On the CPU executor: NVRTC compiles this spin loop into one
        # that ends (the GPU machine's run finishes it), so a server with a
        # GPU would answer "clean".
        path = os.path.join(OWN, "broken", "infinite_loop_while_true.cu")
        start = time.time()
        status, _, answer = s.post("/api/check", {"kernel": read(path), "size": size_of(path), "radius": 1,
                                                  "backend": "cpu"})
        expect(answer.get("status") == "refused" and "time limit" in answer.get("reason", ""),
               "an endless kernel: refused at the time limit, got %s" % answer)
        expect(time.time() - start < 15, "the time limit holds")
        status, _, _ = s.request("GET", "/api/health", token=None)
        expect(status == 200, "health answers after the endless kernel")


def case_hostile_at_once(t):
    """A class's worst minute: every hostile file at once, a right kernel among them."""
    paths = [os.path.join(OWN, "broken", n) for n in sorted(os.listdir(os.path.join(OWN, "broken")))
             if n.startswith("hostile_") and not re.search(r"^// expect-exit: 0$",
                                                           read(os.path.join(OWN, "broken", n)), re.M)]
    good = os.path.join(OWN, "good", "conv2d_tiled_student.cu")
    with Server(t, "--time-limit", "10", "--burst", "1000", "--rate", "6000", "--queue", "200",
                sandbox="required") as s:
        answers = {}

        def submit(path):
            text = read(path)
            try:
                answers[path] = s.post("/api/check", {"kernel": text, "size": size_of(path), "radius": 1},
                                       timeout=120)
            except OSError as e:
                answers[path] = (0, {}, {"error": str(e)})

        threads = [threading.Thread(target=submit, args=(p,)) for p in paths + [good]]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        expect(s.process.poll() is None, "the server is still there after %d hostile files at once" % len(paths))
        for path in paths:
            status, _, answer = answers[path]
            name = os.path.basename(path)
            expect(status == 200 and isinstance(answer, dict) and answer.get("status") == "refused",
                   "%s, sent with the others: refused, got %s %s" % (name, status, str(answer)[:300]))
        status, _, answer = answers[good]
        expect(status == 200 and answer.get("status") == "clean",
               "the right kernel sent alongside: clean, got %s %s" % (status, str(answer)[:300]))
        status, _, _ = s.request("GET", "/api/health", token=None)
        expect(status == 200, "health answers after them all")


def case_requests(t):
    good = read(os.path.join(OWN, "good", "conv2d_basic_student.cu"))
    with Server(t, "--rate", "600", "--burst", "100") as s:
        for body in ("{", "[1, 2]", "not json", '{"kernel": 3, "size": "8x8", "radius": 1}',
                     '{"kernel": "x", "size": "8y8", "radius": 1}', '{"kernel": "x", "size": "8x8"}',
                     '{"kernel": "x", "size": "8x8", "radius": -1}', '{"kernel": "x", "size": "8x8", "mask": [[1, 2], [3]]}'):
            status, _, answer = s.post("/api/check", body)
            expect(status == 400 and answer.get("status") == "bad_request", "%r: 400, got %s %s" % (body, status, answer))
        for token in (None, "wrong", TOKEN + "x", TOKEN[:-1], ""):
            status, headers, answer = s.post("/api/check", {"kernel": good, "size": "8x8", "radius": 1}, token=token)
            expect(status == 401 and headers.get("www-authenticate") == "Bearer", "token %r: 401, got %s" % (token, status))
        status, _, answer = s.post("/api/check", {"kernel": good + "//" + "x" * 70000, "size": "8x8", "radius": 1})
        expect(status == 413 and answer.get("status") == "too_large", "a kernel over 64 KB: 413, got %s" % status)
        status, data = s.raw("POST /api/check HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
                             "Content-Length: 10000000\r\n\r\n{" % TOKEN)
        expect(status == 413, "a body announced at 10 MB: 413, got %s" % status)
        status, _, answer = s.post("/api/check", {"kernel": good, "size": "4000x4000", "radius": 3})
        expect(status == 413 and "event" in answer.get("error", ""), "a size past the event budget: 413, %s" % answer)
        status, _, answer = s.post("/api/check", {"kernel": good, "size": "20x16", "radius": 1,
                                                  "mask": [[0, 0, 0], [0, 1, 0], [0, 0, 0]]})
        expect(answer.get("status") == "clean" and answer.get("mask", "").startswith("given, 3x3"),
               "a mask given as values: %s" % answer.get("mask"))
    # Too fast: a bucket of 2, refilled at one a second.
    with Server(t, "--rate", "60", "--burst", "2") as s:
        statuses = [s.post("/api/check", "{")[0] for _ in range(3)]
        status, headers, answer = s.post("/api/check", "{")
        expect(statuses[:2] == [400, 400] and status == 429 and int(headers.get("retry-after", "0")) >= 1,
               "too fast: 400, 400, then 429 with Retry-After; got %s then %s" % (statuses, status))
        status, _, _ = s.post("/api/check", "{", headers={"X-Forwarded-For": "10.1.2.3"})
        expect(status == 429, "X-Forwarded-For is not believed without --behind-proxy")
        status, _, _ = s.request("GET", "/api/health", token=None)
        expect(status == 200, "health is not rate limited")
    # A full queue: one worker, one place; the third of three at once is turned away.
    endless = read(os.path.join(OWN, "broken", "infinite_loop_while_true.cu"))
    with Server(t, "--workers", "1", "--queue", "1", "--time-limit", "1") as s:
        answers = []

        def submit(i):
            answers.append(s.post("/api/check", {"kernel": endless + "\n// student %d\n" % i, "size": "1000",
                                                 "radius": 1}))

        threads = [threading.Thread(target=submit, args=(i,)) for i in range(3)]
        for th in threads:
            th.start()
            time.sleep(0.3)
        for th in threads:
            th.join()
        busy = [a for a in answers if a[0] == 503]
        expect(len(busy) >= 1 and all(int(a[1].get("retry-after", "0")) >= 1 for a in busy),
               "a full queue: 503 with Retry-After, got %s" % [a[0] for a in answers])
        expect(len([a for a in answers if a[0] == 200]) >= 1, "the queued jobs are answered")


def case_slow(t):
    with Server(t, "--io-timeout", "2") as s:
        slow = []
        for _ in range(20):
            c = socket.create_connection(("127.0.0.1", s.port), timeout=10)
            c.sendall(b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"kernel\": ")
            slow.append(c)
        c = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        c.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # never ends its headers
        slow.append(c)
        start = time.time()
        status, _, _ = s.request("GET", "/api/health", token=None, timeout=5)
        took = time.time() - start
        expect(status == 200 and took < 1.0, "health beside 21 slow clients: %s in %.2f s" % (status, took))
        start = time.time()
        for c in slow:
            try:
                c.recv(1024)  # the server closes (or answers 4xx) at its I/O time limit
            except socket.timeout:
                expect(False, "a slow client still held after 10 s")
            c.close()
        expect(time.time() - start < 6, "slow clients dropped within the I/O time limit (%.1f s)" % (time.time() - start))
        status, _, _ = s.request("GET", "/api/health", token=None, timeout=5)
        expect(status == 200, "health after the slow clients")


def case_static(t):
    with tempfile.TemporaryDirectory() as tmp:
        web = os.path.join(tmp, "web")
        os.makedirs(os.path.join(web, "sub"))
        with open(os.path.join(web, "index.html"), "w") as f:
            f.write("<!doctype html><title>TileScope page</title>")
        with open(os.path.join(web, "sub", "a.js"), "w") as f:
            f.write("console.log(1)")
        with open(os.path.join(tmp, "secret.txt"), "w") as f:
            f.write("SECRET-OUTSIDE-THE-WEB-FOLDER")
        os.symlink("/etc/passwd", os.path.join(web, "passwd"))
        os.symlink(os.path.join(tmp, "secret.txt"), os.path.join(web, "secret.txt"))
        os.symlink(tmp, os.path.join(web, "up"))
        with Server(t, "--web", web) as s:
            status, data = s.raw("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            expect(status == 200 and b"TileScope page" in data, "/ is the page: %s" % status)
            status, data = s.raw("GET /sub/a.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            expect(status == 200 and b"text/javascript" in data, "/sub/a.js served as JavaScript")
            for path in ("/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd",
                         "/%2E%2E/%2E%2E/%2E%2E/etc/passwd", "/sub/../../secret.txt", "/sub/%2e%2e/%2e%2e/secret.txt",
                         "/passwd", "/secret.txt", "/up/secret.txt", "/up/web/../secret.txt", "//etc/passwd",
                         "/..\\..\\etc\\passwd", "/index.html%00.js", "/%252e%252e/%252e%252e/etc/passwd",
                         "/....//....//etc/passwd", "/etc/passwd"):
                status, data = s.raw("GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % path)
                expect(status in (400, 403, 404), "%s: 400, 403 or 404, got %s" % (path, status))
                expect(b"root:" not in data and b"SECRET-OUTSIDE" not in data, "%s: the file served" % path)
            status, _, _ = s.request("GET", "/api/health", token=None)
            expect(status == 200, "health after the paths")
    with Server(t) as s:
        status, _, data = s.request("GET", "/", token=None)
        expect(status == 200 and b"build-web" in data, "without a web build, / says how to build it")


def case_backend(t):
    good = read(os.path.join(OWN, "good", "conv2d_basic_student.cu"))
    with Server(t, "--backend", "cpu") as s:
        status, _, answer = s.post("/api/check", {"kernel": good, "size": "16x16", "radius": 1, "backend": "cuda"})
        expect(answer.get("status") == "backend", "cuda on a server held to the CPU: backend, got %s" % answer)
    with Server(t) as s:
        _, _, health = s.request("GET", "/api/health", token=None)
        if json.loads(health)["gpu"] is None:
            status, _, answer = s.post("/api/check", {"kernel": good, "size": "16x16", "radius": 1, "backend": "cuda"})
            expect(answer.get("status") == "backend" and answer.get("reason"),
                   "cuda without a GPU: backend, got %s" % answer)


def case_page(t):
    """The page's two requests: /api/compile, then /api/run with its own input."""
    good = os.path.join(OWN, "good", "conv2d_tiled_student.cu")
    broken = os.path.join(OWN, "broken", "syntax_missing_semicolon.cu")
    with Server(t, "--backend", "cpu") as s:
        status, _, answer = s.post("/api/compile", {"kernel": read(good)})
        expect(status == 200 and answer.get("status") == "compiled", "compile: %s %s" % (status, answer))
        kernel = answer.get("kernel", {}) if isinstance(answer, dict) else {}
        expect(kernel.get("name") == "conv2d_tiled" and kernel.get("dims") == 2 and
               kernel.get("mask_space") == "constant" and kernel.get("uses_shared") is True and
               kernel.get("array_names", [None] * 4)[3] == "N_ds" and answer.get("barrier_lines") == [40],
               "compile: the kernel's entry, %s" % answer)
        status, _, answer = s.post("/api/compile", {"kernel": read(broken)})
        expect(answer.get("status") == "refused" and answer.get("line") == 21 and answer.get("column") == 52,
               "compile refused at 21:52: %s" % answer)
        status, _, answer = s.post("/api/compile", {"kernel": read(good)}, token="wrong")
        expect(status == 401, "compile with a wrong token: 401, got %s" % status)

        # The page's own input: 7 x 5 values, a 3 x 3 mask; the run against
        # `tilescope check` on the same numbers written as a file.
        values = [float((i * 37) % 11) for i in range(35)]
        mask = [[0.0, 0.1, 0.0], [0.2, 0.3, 0.1], [0.0, 0.2, 0.1]]
        request = {"kernel": read(good), "size": "7x5", "input": values, "mask": mask, "backend": "cpu"}
        status, headers, data = s.request("POST", "/api/run", json.dumps(request),
                                          headers={"Accept-Encoding": "gzip"})
        expect(status == 200 and headers.get("content-encoding") == "gzip", "run: 200 gzip, %s %s" % (status, headers))
        raw = gzip.decompress(data) if headers.get("content-encoding") == "gzip" else data
        expect(raw.startswith(b"TSRUN\0\0\0"), "run: the served run's magic")
        if raw.startswith(b"TSRUN"):
            size = int.from_bytes(raw[12:16], "little")
            header = json.loads(raw[16:16 + size])
            trace = int.from_bytes(raw[16 + size:24 + size], "little")
            output = raw[24 + size + trace:]
            expect(header.get("status") == "clean" and header.get("output") == {
                "width": 7, "height": 5, "channels": 1, "rank": 2} and len(output) == 35 * 4,
                "run: %s, %d bytes of output" % (header, len(output)))
            got = struct.unpack("<35f", output) if len(output) == 140 else ()
            want = [sum(mask[i][j] * (values[(y + i - 1) * 7 + x + j - 1] if 0 <= y + i - 1 < 5 and
                                      0 <= x + j - 1 < 7 else 0.0) for i in range(3) for j in range(3))
                    for y in range(5) for x in range(7)]
            expect(len(got) == 35 and max(abs(a - b) for a, b in zip(got, want)) < 1e-5,
                   "run: the output is the convolution of the input sent (%s)" % (got[:4],))
        for bad, what in ((dict(request, input=values[:-1]), "an input one value short"),
                          (dict(request, input=values[:-1] + ["x"]), "an input with a string"),
                          (dict(request, channels=9), "9 channels"),
                          (dict(request, schedule="sideways"), "an unknown schedule")):
            status, _, answer = s.post("/api/run", bad)
            expect(status == 400 and answer.get("status") == "bad_request", "run with %s: 400, got %s %s" %
                   (what, status, answer))


CASES = {"check": case_check, "page": case_page, "trace": None, "health": case_health, "hostile": case_hostile,
         "hostile_at_once": case_hostile_at_once,
         "requests": case_requests, "slow": case_slow, "static": case_static, "backend": case_backend}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tilescope", required=True)
    parser.add_argument("--read-trace", help="the read_trace test program (for the trace case)")
    parser.add_argument("case", choices=sorted(CASES))
    args = parser.parse_args()
    start = time.time()
    if args.case == "trace":
        case_trace(args.tilescope, args.read_trace)
    else:
        CASES[args.case](args.tilescope)
    print("%s: %s in %.1f s" % (args.case, "FAILED (%d)" % len(FAILURES) if FAILURES else "ok", time.time() - start))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
