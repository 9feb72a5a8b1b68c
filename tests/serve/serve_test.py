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
    lab.roster a roster's bad lines and bad databases (locked, read-only, not
               a database, from a newer schema): one line each, exit 2; a good
               roster's links in files of mode 0600, no token on the terminal;
               the rate limit per student (24 students behind one address);
               a teacher's link refused where a student's is needed, and the
               reverse
    lab.privacy
               a student reads their own checks and kernels, gets 403 for
               another's; the teacher reads all; what the database holds
    lab.restart
               the server killed with SIGKILL mid-lab and started again: every
               answered check still there, every link still valid
    lab.self_check
               a pipeline that cannot compile: serve and grade stop at start
               with the reason (exit 3), one line, nothing graded

Standard library only. Exit status 0 when every expectation holds.
"""

import argparse
import gzip
import http.client
import json
import os
import re
import shutil
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

    def __init__(self, tilescope, *args, sandbox="auto", token=TOKEN, cwd=None):
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            [tilescope, "serve", "--port", "0", "--host", "127.0.0.1", *(["--token", token] if token else []),
             "--sandbox", sandbox, *args],
            stdout=subprocess.PIPE, stderr=self.log, text=True, cwd=cwd)
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


# [SECTION] The lab: a roster, a token per student, every check kept


def write_roster(folder, count, name="roster.csv", header=True):
    """A roster of `count` students s01, s02, ... (names with letters beyond ASCII); their ids."""
    ids = ["s%02d" % (i + 1) for i in range(count)]
    with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
        if header:
            f.write("id,name\n")
        for i, sid in enumerate(ids):
            f.write('%s,"Zo\u00eb Student %d"\n' % (sid, i + 1))
    return ids


def read_links(folder, stem="roster"):
    """{id: token} from <stem>.links.csv, and the teacher's token from <stem>.teacher.txt."""
    tokens = {}
    with open(os.path.join(folder, stem + ".links.csv"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    expect(lines[0] == "id,name,link", "links file header: %r" % lines[0])
    for line in lines[1:]:
        match = re.match(r"^([^,]+),.*,http://127\.0\.0\.1:\d+/#token=([0-9a-f]{32})$", line)
        expect(match, "a student's link: %r" % line)
        if match:
            tokens[match.group(1)] = match.group(2)
    with open(os.path.join(folder, stem + ".teacher.txt"), encoding="utf-8") as f:
        teacher = re.search(r"#token=([0-9a-f]{32})", f.read())
    expect(teacher, "the teacher's link")
    return tokens, teacher.group(1) if teacher else None


def refused_at_start(tilescope, args, code, words, cwd=None, env=None, prefix=()):
    """The command run to its end: exit `code`, one line on stderr holding `words`."""
    run = subprocess.run([*prefix, tilescope, *args], capture_output=True, text=True, timeout=60, cwd=cwd,
                         env=dict(os.environ, **(env or {})))
    lines = run.stderr.strip().splitlines()
    expect(run.returncode == code and len(lines) == 1 and words in run.stderr,
           "%s: exit %d and one line with %r; got %s: %r" % (" ".join(args[:4]), code, words, run.returncode,
                                                              run.stderr))
    return run


def case_lab_roster(t):
    serve = ["serve", "--port", "0", "--host", "127.0.0.1", "--sandbox", "auto"]
    with tempfile.TemporaryDirectory() as tmp:
        # Bad rosters: one line each, exit 2, nothing made.
        for text, words in ((b"id,name\ns1,Ada\ns2,Bob\ns1,Carol\n", "roster.csv:4: the id s1 is on line 2 too"),
                            (b"s1,Ada\ns2,\n", "roster.csv:2: student s2 has an empty name"),
                            (b"s1,Ada\ns2,Zo\xeb\n", "roster.csv:2: not UTF-8 (the byte 0xEB)")):
            with open(os.path.join(tmp, "roster.csv"), "wb") as f:
                f.write(text)
            refused_at_start(t, serve + ["--roster", "roster.csv"], 2, words, cwd=tmp)
            expect(sorted(os.listdir(tmp)) == ["roster.csv"], "nothing made beside a bad roster: %s" % os.listdir(tmp))
        ids = write_roster(tmp, 24)
        # Bad databases: one line each, exit 2.
        with open(os.path.join(tmp, "junk.sqlite"), "wb") as f:
            f.write(b"not a database at all\n" * 300)
        refused_at_start(t, serve + ["--roster", "roster.csv", "--db", "junk.sqlite"], 2,
                         "junk.sqlite: not a TileScope lab database", cwd=tmp)
        import sqlite3
        newer = os.path.join(tmp, "newer.sqlite")
        with sqlite3.connect(newer) as c:
            c.execute("PRAGMA user_version = 99")
        refused_at_start(t, serve + ["--roster", "roster.csv", "--db", "newer.sqlite"], 2,
                         "newer.sqlite: made by a newer TileScope (its schema is version 99", cwd=tmp)
        locked = os.path.join(tmp, "locked.sqlite")
        holder = sqlite3.connect(locked, isolation_level=None)
        holder.execute("PRAGMA journal_mode=WAL")
        holder.execute("CREATE TABLE held (x)")
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("INSERT INTO held VALUES (1)")
        refused_at_start(t, serve + ["--roster", "roster.csv", "--db", "locked.sqlite"], 2,
                         "locked.sqlite: locked by another program", cwd=tmp)
        holder.execute("ROLLBACK")
        holder.close()
        readonly = os.path.join(tmp, "ro")
        os.mkdir(readonly)
        shutil.copy(os.path.join(tmp, "roster.csv"), readonly)
        with sqlite3.connect(os.path.join(readonly, "lab.sqlite")) as c:
            c.execute("PRAGMA user_version = 0")
        os.chmod(os.path.join(readonly, "lab.sqlite"), 0o444)
        os.chmod(readonly, 0o555)
        if os.geteuid() == 0:
            # Root writes whatever the mode says: the server runs as nobody.
            if shutil.which("setpriv"):
                refused_at_start(t, serve + ["--roster", "roster.csv", "--db", "lab.sqlite"], 2,
                                 "lab.sqlite: read-only", cwd=readonly,
                                 prefix=("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"))
            else:
                print("lab.roster: no setpriv; the read-only database is left to lab_test")
        else:
            refused_at_start(t, serve + ["--roster", "roster.csv", "--db", "lab.sqlite"], 2, "lab.sqlite: read-only",
                             cwd=readonly)
        os.chmod(readonly, 0o755)

        # A good roster: links in files only the teacher reads, no token on the terminal.
        with Server(t, "--roster", "roster.csv", "--burst", "4", "--rate", "6", token=None, cwd=tmp) as s:
            time.sleep(0.3)
            tokens, teacher = read_links(tmp)
            expect(sorted(tokens) == ids and teacher, "a link for each of 24 students and the teacher")
            for name in ("roster.links.csv", "roster.teacher.txt"):
                mode = os.stat(os.path.join(tmp, name)).st_mode & 0o777
                expect(mode == 0o600, "%s: mode 0600, got %o" % (name, mode))
            said = "".join(s.lines)
            s.log.seek(0)
            said += s.log.read()
            expect("24 students' links in %s" % os.path.join(tmp, "roster.links.csv") in said,
                   "the server says where the links are: %r" % said)
            expect(not any(tok in said for tok in list(tokens.values()) + [teacher]),
                   "no token on the terminal: %r" % said)
            expect(os.path.exists(os.path.join(tmp, "lab.sqlite")), "lab.sqlite made in the working folder")

            # The teacher's link where a student's is needed, and the reverse.
            good = read(os.path.join(OWN, "good", "conv2d_basic_student.cu"))
            status, _, answer = s.post("/api/check", {"kernel": good, "size": "8x8", "radius": 1}, token=teacher)
            expect(status == 403 and "teacher's link" in answer.get("error", ""),
                   "a check sent with the teacher's link: 403, got %s %s" % (status, answer))
            status, _, answer = s.post("/api/compile", {"kernel": good}, token=teacher)
            expect(status == 403, "a compile sent with the teacher's link: 403, got %s" % status)
            status, _, data = s.request("GET", "/api/class", token=tokens[ids[1]])
            answer = json.loads(data)
            expect(status == 403 and "student's link" in answer.get("error", ""),
                   "the class read with a student's link: 403, got %s %s" % (status, answer))
            status, _, data = s.request("GET", "/api/class", token=teacher)
            expect(status == 200 and len(json.loads(data)["students"]) == 24, "the class, for the teacher")
            # 24 students behind one address, 3 requests each at once (a burst of 4 each): no 429.
            answers = []

            def send(token):
                answers.append(s.post("/api/check", "{", token=token)[0])

            threads = [threading.Thread(target=send, args=(tokens[sid],)) for sid in ids for _ in range(3)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            expect(answers.count(400) == 72 and 429 not in answers,
                   "72 requests of 24 students from one address: each answered, got %s" %
                   {c: answers.count(c) for c in set(answers)})
            statuses = [s.post("/api/check", "{", token=tokens[ids[0]])[0] for _ in range(2)]
            status, headers, _ = s.post("/api/check", "{", token=tokens[ids[0]])
            expect(statuses[0] == 400 and 429 in statuses + [status] and int(headers.get("retry-after", "0")) >= 1,
                   "the student past their own burst of 4: 429, got %s then %s" % (statuses, status))
            for token in (None, "wrong", TOKEN):
                status, _, _ = s.post("/api/check", "{", token=token)
                expect(status == 401, "token %r on a roster's server: 401, got %s" % (token, status))


def case_lab_privacy(t):
    good_path = os.path.join(OWN, "good", "conv2d_tiled_student.cu")
    racy_path = os.path.join(OWN, "broken", "missing_syncthreads.cu")
    good, racy = read(good_path), read(racy_path)
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "roster.csv"), "w") as f:
            f.write("ada,Ada\nbob,Bob\ncarol,Carol\n")
        with Server(t, "--roster", "roster.csv", "--db", "class.sqlite", "--backend", "cpu", token=None,
                    cwd=tmp) as s:
            time.sleep(0.3)
            tokens, teacher = read_links(tmp)
            status, h1, a1 = s.post("/api/check", {"kernel": good, "size": "45x37", "radius": 2}, token=tokens["ada"])
            expect(status == 200 and a1.get("status") == "clean", "ada's check: clean, got %s" % a1)
            status, h2, a2 = s.post("/api/check", {"kernel": racy, "size": size_of(racy_path), "radius": 1},
                                    token=tokens["bob"])
            expect(status == 200 and a2.get("status") == "problems", "bob's check: problems, got %s" % a2)
            ada_id, bob_id = int(h1.get("x-tilescope-check", 0)), int(h2.get("x-tilescope-check", 0))
            expect(ada_id > 0 and bob_id > ada_id, "each answer names its record: %s %s" % (ada_id, bob_id))

            def get(path, token):
                status, _, data = s.request("GET", path, token=token)
                return status, json.loads(data)

            status, mine = get("/api/checks", tokens["ada"])
            expect(status == 200 and mine["student"] == "ada" and [c["id"] for c in mine["checks"]] == [ada_id],
                   "ada's history is hers alone: %s" % mine)
            status, record = get("/api/checks/%d" % ada_id, tokens["ada"])
            expect(status == 200 and record.get("kernel") == good and record.get("verdict") == "clean",
                   "ada reads her own kernel back")
            status, other = get("/api/checks/%d" % bob_id, tokens["ada"])
            expect(status == 403 and "another student's" in other.get("error", "") and "kernel" not in other,
                   "bob's check read with ada's link: 403, got %s %s" % (status, other))
            status, other = get("/api/checks?student=bob", tokens["ada"])
            expect(status == 200 and [c["id"] for c in other["checks"]] == [ada_id],
                   "?student= on a student's link still lists only their own: %s" % other)
            status, theirs = get("/api/checks", tokens["bob"])
            groups = theirs["checks"][0]["problems"] if theirs.get("checks") else []
            expect(status == 200 and [c["id"] for c in theirs["checks"]] == [bob_id] and groups and
                   all(g.get("first_line", 0) > 0 for g in groups),
                   "bob's history, his problems with their lines: %s" % theirs)
            status, nothing = get("/api/checks", tokens["carol"])
            expect(status == 200 and nothing["checks"] == [], "carol has sent nothing")
            status, everyone = get("/api/checks", teacher)
            expect(status == 200 and [c["id"] for c in everyone["checks"]] == [ada_id, bob_id],
                   "the teacher reads every check: %s" % everyone)
            status, record = get("/api/checks/%d" % bob_id, teacher)
            expect(status == 200 and record.get("kernel") == racy, "the teacher reads bob's kernel")
            status, _ = get("/api/checks/%d" % (bob_id + 1000), teacher)
            expect(status == 404, "no such check: 404, got %s" % status)
            status, klass = get("/api/class", teacher)
            verdicts = {row["id"]: (row["last"] or {}).get("verdict") for row in klass.get("students", [])}
            expect(verdicts == {"ada": "clean", "bob": "problems", "carol": None}, "the class now: %s" % verdicts)
        # What the database holds, read by another program.
        import hashlib
        import sqlite3
        with sqlite3.connect(os.path.join(tmp, "class.sqlite")) as c:
            rows = c.execute("SELECT c.student, c.kind, c.kernel_hash, k.text, c.verdict, c.problems, c.backend, "
                             "c.ms, c.kernel_ms, c.request FROM checks c JOIN kernels k ON k.hash = c.kernel_hash "
                             "ORDER BY c.id").fetchall()
            mode = c.execute("PRAGMA journal_mode").fetchone()[0]
        expect(mode == "wal", "the database is in WAL mode: %s" % mode)
        expect(len(rows) == 2, "two records, got %d" % len(rows))
        for row, (student, text, verdict) in zip(rows, (("ada", good, "clean"), ("bob", racy, "problems"))):
            expect(row[0] == student and row[1] == "check" and row[2] == hashlib.sha256(text.encode()).hexdigest()
                   and row[3] == text and row[4] == verdict and row[6] == "cpu" and row[7] > 0 and row[8] >= 0,
                   "%s's record: %s" % (student, row[:2] + row[4:]))
            expect(json.loads(row[9]).get("size") in ("45x37", size_of(racy_path)), "the request kept: %s" % row[9])
        expect(any(g["kind"] == "shared_race" and g["first_line"] > 0 for g in json.loads(rows[1][5])),
               "bob's race kept with its lines: %s" % rows[1][5])
    # Without a roster the class's one token reads nothing back.
    with Server(t) as s:
        status, _, data = s.request("GET", "/api/checks")
        expect(status == 403 and "no roster" in json.loads(data).get("error", ""),
               "checks on a server without a roster: 403, got %s %s" % (status, data))


def case_lab_restart(t):
    good = read(os.path.join(OWN, "good", "conv2d_tiled_student.cu"))
    racy_path = os.path.join(OWN, "broken", "missing_syncthreads.cu")
    racy = read(racy_path)
    wrong = read(os.path.join(OWN, "broken", "syntax_missing_semicolon.cu"))
    with tempfile.TemporaryDirectory() as tmp:
        ids = write_roster(tmp, 30, header=False)
        s = Server(t, "--roster", "roster.csv", "--backend", "cpu", "--workers", "2", token=None, cwd=tmp)
        time.sleep(0.3)
        tokens, teacher = read_links(tmp)
        answered = {}  # record id -> (student, verdict, text)
        plan = [(ids[0], good, "check", "clean"), (ids[1], racy, "check", "problems"),
                (ids[2], wrong, "compile", "refused"), (ids[3], good, "compile", "compiled"),
                (ids[0], racy, "check", "problems"), (ids[4], wrong, "check", "refused")]
        for sid, text, kind, verdict in plan:
            body = {"kernel": text} if kind == "compile" else {"kernel": text, "size": "45x37", "radius": 1}
            status, headers, answer = s.post("/api/" + kind, body, token=tokens[sid])
            expect(status == 200 and answer.get("status") == verdict,
                   "%s's %s: %s, got %s %s" % (sid, kind, verdict, status, str(answer)[:200]))
            answered[int(headers.get("x-tilescope-check", 0))] = (sid, verdict, text)
        # Two more on their way, and the server killed as they go.
        in_flight = []

        def send(sid):
            try:
                in_flight.append((sid, s.post("/api/check", {"kernel": good, "size": "45x37", "radius": 1},
                                              token=tokens[sid], timeout=30)))
            except (OSError, http.client.HTTPException):
                pass  # cut off by the kill: never answered

        threads = [threading.Thread(target=send, args=(sid,)) for sid in ids[5:7]]
        for th in threads:
            th.start()
        time.sleep(0.2)
        s.process.kill()
        s.process.wait()
        for th in threads:
            th.join()
        for sid, (status, headers, answer) in in_flight:
            if status == 200:  # answered before the kill: it must be kept too
                answered[int(headers.get("x-tilescope-check", 0))] = (sid, answer.get("status"), good)
        expect(len(answered) >= 6, "six checks answered before the kill")
        # Started again on the same roster (the database as default, lab.sqlite here).
        with Server(t, "--roster", "roster.csv", "--backend", "cpu", token=None, cwd=tmp) as again:
            time.sleep(0.3)
            expect(read_links(tmp) == (tokens, teacher), "every student's token as before the restart")
            status, _, data = again.request("GET", "/api/checks", token=teacher)
            kept = {c["id"]: c for c in json.loads(data)["checks"]} if status == 200 else {}
            for rid, (sid, verdict, text) in answered.items():
                c = kept.get(rid)
                expect(c is not None and c["student"] == sid and c["verdict"] == verdict,
                       "check %d (%s, %s) kept across SIGKILL: %s" % (rid, sid, verdict, c))
                if c:
                    status, _, data = again.request("GET", "/api/checks/%d" % rid, token=teacher)
                    expect(json.loads(data).get("kernel") == text, "check %d's kernel kept" % rid)
            status, headers, answer = again.post("/api/check", {"kernel": good, "size": "20x16", "radius": 1},
                                                 token=tokens[ids[29]])
            expect(status == 200 and int(headers.get("x-tilescope-check", 0)) > max(answered),
                   "a new check after the restart is numbered after the old ones")
        # And started from the database alone: the roster it holds, the same links.
        with Server(t, "--db", "lab.sqlite", "--backend", "cpu", token=None, cwd=tmp) as third:
            status, _, data = third.request("GET", "/api/checks", token=tokens[ids[0]])
            expect(status == 200 and len(json.loads(data)["checks"]) == 2,
                   "s01's two checks, from the database alone: %s" % data[:200])


def case_lab_self_check(t):
    """A compiler that does not work: every student's kernel would be "does not compile"."""
    broken = {"TILESCOPE_CXX": "/bin/false"}
    with tempfile.TemporaryDirectory() as tmp:
        write_roster(tmp, 3)
        run = refused_at_start(t, ["serve", "--port", "0", "--host", "127.0.0.1", "--sandbox", "auto", "--roster",
                                   "roster.csv"], 3, "self-check failed", cwd=tmp, env=broken)
        expect("nothing is served" in run.stderr and not run.stdout, "serve: %r %r" % (run.stdout, run.stderr))
        run = refused_at_start(t, ["serve", "--port", "0", "--host", "127.0.0.1", "--sandbox", "auto", "--token",
                                   TOKEN], 3, "self-check failed", cwd=tmp, env=broken)
        spec = os.path.join(SOURCE_DIR, "tests", "grade", "specs", "class2d.toml")
        out = os.path.join(tmp, "results")
        run = refused_at_start(t, ["grade", "--spec", spec, os.path.join(SOURCE_DIR, "tests", "grade", "class2d"),
                                   "--out", out, "--sandbox", "auto"], 3, "self-check failed", env=broken)
        expect("nothing was graded" in run.stderr and not run.stdout and not os.path.exists(out),
               "grade: nothing graded, nothing written: %r" % run.stdout)
        # A kernel file refused for the same reason: its reason, and no second line about naming a kernel.
        run = subprocess.run([t, "check", "--kernel-file", os.path.join(OWN, "good", "conv2d_tiled_student.cu"),
                              "--size", "16x16", "--radius", "1", "--sandbox", "auto"], capture_output=True,
                             text=True, timeout=60, env=dict(os.environ, **broken))
        expect(run.returncode != 0 and "name a kernel" not in run.stderr,
               "check of a file the compiler refuses: no line about naming a kernel: %r" % run.stderr)
    # With a compiler that works, the server says its self-check passed.
    with Server(t) as s:
        time.sleep(0.2)
        s.log.seek(0)
        said = s.log.read()
        expect("self-check: a right kernel file translated, compiled and ran clean" in said,
               "the server's self-check line: %r" % said)


CASES = {"check": case_check, "page": case_page, "trace": None, "health": case_health, "hostile": case_hostile,
         "hostile_at_once": case_hostile_at_once,
         "requests": case_requests, "slow": case_slow, "static": case_static, "backend": case_backend,
         "lab.roster": case_lab_roster, "lab.privacy": case_lab_privacy, "lab.restart": case_lab_restart,
         "lab.self_check": case_lab_self_check}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tilescope", required=True)
    parser.add_argument("--read-trace", help="the read_trace test program (for the trace case)")
    parser.add_argument("case", choices=sorted(CASES))
    args = parser.parse_args()
    args.tilescope = os.path.abspath(args.tilescope)  # the lab's cases run it from folders of their own
    start = time.time()
    if args.case == "trace":
        case_trace(args.tilescope, args.read_trace)
    else:
        CASES[args.case](args.tilescope)
    print("%s: %s in %.1f s" % (args.case, "FAILED (%d)" % len(FAILURES) if FAILURES else "ok", time.time() - start))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
