#!/usr/bin/env python3
"""Several `tilescope serve` behind nginx on one PostgreSQL (docs/serve.md,
Several servers), with Debian's own nginx and PostgreSQL started here, in a
temporary folder, on loopback only, as an ordinary user (initdb and postgres
refuse root: run as root, as CI is, they run as `nobody` through setpriv).

    config   each bad configuration stops `serve` with exit 2 and one line:
             a database that cannot be reached, a wrong password (serve and
             `lab export`), a schema newer than the program; a migration
             another server holds waits for it, saying so, and two servers
             started at once on a new database both come up; a roster other
             than the one the running servers serve is refused, naming both,
             and taken once they are stopped
    cluster  three servers behind nginx, configured with the nginx block of
             docs/serve.md (read from it: the test cannot drift from the
             document), a class sent through nginx three times: steadily,
             with one server killed (SIGKILL) mid-load and started again, and
             with PostgreSQL restarted mid-load. Every check answered right
             and recorded exactly once (its request key once, with the id its
             answer named), the class read whole from each server, a record
             made on one server waking a teacher's long poll on another;
             latency p50/p95 of each load

Sizes by options (--students, --seconds): ctest runs a small class; the
figures of docs/serve.md come from a larger run by hand:

    tests/serve/pg_test.py --tilescope build/app/tilescope cluster --students 90 --seconds 60 --json out.json

Exit status: 0 when every expectation holds, 77 (a skip, said why) where
PostgreSQL or nginx is not installed or the program was built without libpq.
Standard library only.
"""

import argparse
import glob
import http.client
import importlib.util
import json
import os
import pwd
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIP = 77
# The lab's advisory lock (app/lab/lab_pg.cpp: "tilescop" in ASCII).
LAB_LOCK = 0x74696C6573636F70
PASSWORD = "lab-password-1"
# The book's kernels, whose checks this test needs answered "clean" (what it
# tests is where they are recorded; the translator has tests of its own).
KERNELS = ("conv1d_basic_student.cu", "conv1d_tiled_student.cu", "conv2d_basic_student.cu",
           "conv2d_tiled_student.cu")


def load_script():
    spec = importlib.util.spec_from_file_location("serve_load", os.path.join(ROOT, "scripts", "serve-load.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LOAD = load_script()


def schema_version():
    with open(os.path.join(ROOT, "app", "lab", "lab_store.hpp"), encoding="utf-8") as f:
        return int(re.search(r"constexpr int kSchemaVersion = (\d+);", f.read()).group(1))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Failures:
    def __init__(self):
        self.count = 0

    def expect(self, ok, what):
        if not ok:
            self.count += 1
            print("FAILED: " + what, file=sys.stderr)
        return ok


# [SECTION] The engines: PostgreSQL and nginx as an ordinary user

class Engines:
    """PostgreSQL (and nginx) in `folder`, run as the calling user, or as
    nobody when that is root."""

    def __init__(self, folder):
        self.folder = folder
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        self.pg_bin = os.path.dirname(bins[-1]) if bins else None
        self.nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
        self.as_user = []
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            self.as_user = ["setpriv", "--reuid", str(nobody.pw_uid), "--regid", str(nobody.pw_gid), "--clear-groups"]
            os.chown(folder, nobody.pw_uid, nobody.pw_gid)
        self.pg_port = None
        self.data = os.path.join(folder, "pgdata")
        self.nginx_process = None

    def missing(self):
        if not self.pg_bin:
            return "PostgreSQL is not installed (Debian: apt-get install postgresql)"
        if not self.nginx:
            return "nginx is not installed (Debian: apt-get install nginx)"
        return None

    def owned(self, path):
        if self.as_user:
            nobody = pwd.getpwnam("nobody")
            os.chown(path, nobody.pw_uid, nobody.pw_gid)

    def start_pg(self):
        pwfile = os.path.join(self.folder, "pwfile")
        with open(pwfile, "w") as f:
            f.write(PASSWORD + "\n")
        self.owned(pwfile)
        subprocess.run(self.as_user + [os.path.join(self.pg_bin, "initdb"), "-D", self.data, "-U", "lab",
                                       "--pwfile", pwfile, "-A", "scram-sha-256", "--no-sync", "-E", "UTF8",
                                       "--locale=C"], check=True, stdout=subprocess.DEVNULL, cwd=self.folder)
        self.pg_port = free_port()
        self.pg_ctl("start")

    def pg_ctl(self, what):
        options = "-c listen_addresses=127.0.0.1 -p %d -k %s" % (self.pg_port, self.folder)
        subprocess.run(self.as_user + [os.path.join(self.pg_bin, "pg_ctl"), "-D", self.data, "-l",
                                       os.path.join(self.folder, "pg.log"), "-o", options, "-m", "fast", "-w",
                                       what], check=True, stdout=subprocess.DEVNULL, cwd=self.folder)

    def url(self, db, password=PASSWORD):
        return "postgresql://lab:%s@127.0.0.1:%d/%s" % (password, self.pg_port, db)

    def psql(self, sql, db="postgres"):
        env = dict(os.environ, PGPASSWORD=PASSWORD)
        out = subprocess.run([os.path.join(self.pg_bin, "psql"), "-X", "-At", "-v", "ON_ERROR_STOP=1", "-h",
                              "127.0.0.1", "-p", str(self.pg_port), "-U", "lab", "-d", db, "-c", sql],
                             env=env, check=True, capture_output=True, text=True)
        return out.stdout.strip()

    def createdb(self, name):
        self.psql("CREATE DATABASE %s" % name)

    def start_nginx(self, config):
        path = os.path.join(self.folder, "nginx.conf")
        with open(path, "w") as f:
            f.write(config)
        self.nginx_log = os.path.join(self.folder, "nginx.log")
        with open(self.nginx_log, "w") as log:
            self.nginx_process = subprocess.Popen(self.as_user + [self.nginx, "-p", self.folder, "-c", path, "-e",
                                                                  "stderr", "-g", "daemon off;"],
                                                  cwd=self.folder, stderr=log)

    def stop(self):
        if self.nginx_process:
            self.nginx_process.terminate()
            try:
                self.nginx_process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.nginx_process.kill()
        if self.pg_port:
            try:
                self.pg_ctl("stop")
            except subprocess.CalledProcessError:
                pass


def nginx_config(folder, listen_port, upstream_ports):
    """docs/serve.md's nginx block, run here: its upstream's servers are
    this test's three, its TLS listener a plain one on loopback (no
    certificate here), the redirect from port 80 left out. Every other line
    is the document's own."""
    with open(os.path.join(ROOT, "docs", "serve.md"), encoding="utf-8") as f:
        doc = f.read()
    blocks = re.findall(r"```nginx\n(.*?)```", doc, re.S)
    if len(blocks) != 1:
        raise SystemExit("docs/serve.md must hold exactly one ```nginx block; it holds %d" % len(blocks))
    block = blocks[0]
    servers = re.findall(r"^( *)server +[\w.\-]+:\d+( [^;\n]*)?;\n", block, re.M)
    if not servers:
        raise SystemExit("docs/serve.md's nginx block has no `server HOST:PORT ...;` in its upstream")
    indent, parameters = servers[0]
    mine = "".join("%sserver 127.0.0.1:%d%s;\n" % (indent, p, parameters) for p in upstream_ports)
    block = re.sub(r"(^ *server +[\w.\-]+:\d+( [^;\n]*)?;\n)+", lambda m: mine, block, count=1, flags=re.M)
    block, listens = re.subn(r"listen +443 ssl[^;]*;", "listen 127.0.0.1:%d;" % listen_port, block)
    block = re.sub(r"^ *ssl_[^\n]*\n", "", block, flags=re.M)
    block, redirects = re.subn(r"server \{\n *listen 80;.*?\n\}\n", "", block, flags=re.S)
    if listens != 1 or redirects != 1:
        raise SystemExit("docs/serve.md's nginx block changed shape (a `listen 443 ssl` server and a port-80 "
                         "redirect are expected): update tests/serve/pg_test.py's nginx_config with it")
    temp = "".join("    %s_temp_path %s/%s;\n" % (k, folder, k) for k in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                             "scgi"))
    return ("worker_processes 1;\npid %s/nginx.pid;\nerror_log stderr;\nevents { worker_connections 1024; }\n"
            "http {\n    access_log off;\n%s%s}\n" % (folder, temp, block))


# [SECTION] Servers

class Server:
    started = []  # every one, stopped at the end whatever happened

    def __init__(self, tilescope, folder, url, port, roster=None, name="server"):
        self.tilescope, self.url, self.port, self.roster = tilescope, url, port, roster
        self.folder = os.path.join(folder, name)
        os.makedirs(self.folder, exist_ok=True)
        self.process = None
        Server.started.append(self)
        self.err_lines = []
        self.out_lines = []
        self.listening = threading.Event()

    def command(self):
        c = [self.tilescope, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--db", self.url,
             "--behind-proxy", "--workers", "1", "--queue", "64", "--backend", "cpu", "--sandbox", "auto",
             "--compile-cache", "off", "--rate", "600", "--burst", "100"]
        if self.roster:
            c += ["--roster", self.roster]
        return c

    def start(self):
        self.listening.clear()
        self.err_lines, self.out_lines = [], []
        self.process = subprocess.Popen(self.command(), cwd=self.folder, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)

        def read(stream, lines, watch):
            for line in stream:
                lines.append(line.rstrip("\n"))
                if watch and "listening on" in line:
                    self.listening.set()

        threading.Thread(target=read, args=(self.process.stdout, self.out_lines, True), daemon=True).start()
        threading.Thread(target=read, args=(self.process.stderr, self.err_lines, False), daemon=True).start()
        return self

    def wait_listening(self, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.listening.is_set():
                return True
            if self.process.poll() is not None:
                time.sleep(0.2)  # the rest of its lines
                return False
            time.sleep(0.05)
        return False

    def exit_status(self, timeout=60):
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return None

    def stderr(self):
        time.sleep(0.1)
        return "\n".join(self.err_lines)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()


def write_roster(path, n, extra=0):
    with open(path, "w", encoding="utf-8") as f:
        f.write("id,name\n" + "".join("s%03d,Student %d\n" % (i, i) for i in range(n + extra)))


def refused(f, server, words, what, secret=None):
    """A server that must stop at start, with exit 2 and one line naming the cause."""
    status = server.exit_status()
    message = [line for line in server.stderr().splitlines() if line.startswith("tilescope:")]
    f.expect(status == 2, "%s: exit %s, not 2 (stderr: %s)" % (what, status, server.stderr()))
    f.expect(len(message) == 1, "%s: %d lines of error, not one: %s" % (what, len(message), message))
    text = message[0] if message else ""
    for w in words:
        f.expect(w in text, "%s: the message lacks %r: %s" % (what, w, text))
    if secret:
        f.expect(secret not in server.stderr(), "%s: the password is shown: %s" % (what, text))
    print("  %s: %s" % (what, text))
    return text


def get_json(port, path, token, timeout=60):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    c.request("GET", path, headers={"Authorization": "Bearer " + token})
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, json.loads(body)


def links(folder, stem="roster"):
    with open(os.path.join(folder, stem + ".links.csv"), encoding="utf-8") as f:
        students = [line.strip().rsplit("#token=", 1)[1] for line in f.read().splitlines()[1:] if "#token=" in line]
    with open(os.path.join(folder, stem + ".teacher.txt"), encoding="utf-8") as f:
        teacher = re.search(r"#token=([0-9a-f]+)", f.read()).group(1)
    return students, teacher


# [SECTION] The bad configurations

def case_config(args, engines, tmp, f):
    roster = os.path.join(tmp, "roster.csv")
    write_roster(roster, 4)
    version = schema_version()

    # Nothing listens there.
    nowhere = "postgresql://lab:%s@127.0.0.1:%d/lab" % (PASSWORD, free_port())
    refused(f, Server(args.tilescope, tmp, nowhere, free_port(), roster, "nowhere").start(),
            ["postgresql://lab@127.0.0.1:", "cannot reach the database", "Connection refused"],
            "a database that cannot be reached", PASSWORD)

    engines.createdb("lab")
    refused(f, Server(args.tilescope, tmp, engines.url("lab", "not-the-password"), free_port(), roster,
                      "wrong").start(),
            ["wrong password for user \"lab\""], "a wrong password", "not-the-password")
    # `lab export` reads the spec first: one that exists.
    spec = os.path.join(ROOT, "tests", "grade", "specs", "class1d.toml")
    export = subprocess.run([args.tilescope, "lab", "export", "--db", engines.url("lab", "not-the-password"),
                             "--spec", spec, "--out", os.path.join(tmp, "export")], capture_output=True, text=True)
    f.expect(export.returncode == 2 and "wrong password for user \"lab\"" in export.stderr and
             "not-the-password" not in export.stderr,
             "lab export with a wrong password: exit %d: %s" % (export.returncode, export.stderr))
    print("  lab export, a wrong password: %s" % export.stderr.strip())

    # A schema newer than this program.
    engines.createdb("newer")
    engines.psql("CREATE TABLE tilescope_schema (version integer NOT NULL); "
                 "INSERT INTO tilescope_schema VALUES (%d)" % (version + 7), "newer")
    refused(f, Server(args.tilescope, tmp, engines.url("newer"), free_port(), roster, "newer").start(),
            ["made by a newer TileScope (its schema is version %d, this one knows up to %d)" % (version + 7, version)],
            "a schema newer than the program")

    # A migration another server holds: this one waits for it, and says so.
    engines.createdb("migrate")
    holder = subprocess.Popen([os.path.join(engines.pg_bin, "psql"), "-X", "-At", "-h", "127.0.0.1", "-p",
                               str(engines.pg_port), "-U", "lab", "-d", "migrate"],
                              env=dict(os.environ, PGPASSWORD=PASSWORD), stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    holder.stdin.write("SELECT pg_advisory_lock(%d);\n" % LAB_LOCK)
    holder.stdin.flush()
    holder.stdout.readline()
    waiting = Server(args.tilescope, tmp, engines.url("migrate"), free_port(), roster, "waiting").start()
    deadline = time.time() + 20
    while time.time() < deadline and not any("waiting for" in line for line in waiting.err_lines):
        time.sleep(0.1)
    said = [line for line in waiting.err_lines if "waiting for" in line]
    f.expect(bool(said), "a server whose migration is held says it waits: %s" % waiting.stderr())
    time.sleep(1)
    f.expect(waiting.process.poll() is None and not waiting.listening.is_set(),
             "a server whose migration is held waits (running, not listening)")
    f.expect(engines.psql("SELECT to_regclass('tilescope_schema') IS NULL", "migrate") == "t",
             "nothing migrated while the lock is held")
    holder.stdin.write("SELECT pg_advisory_unlock(%d);\n\\q\n" % LAB_LOCK)
    holder.stdin.flush()
    holder.wait(timeout=10)
    f.expect(waiting.wait_listening(), "the waiting server starts once the lock is given back: %s" % waiting.stderr())
    f.expect(engines.psql("SELECT version FROM tilescope_schema", "migrate") == str(version),
             "migrated to version %d once the lock is given back" % version)
    print("  a migration held by another: %s" % (said[0] if said else "(nothing said)"))
    waiting.stop()

    # Two servers on a new database at once: one migrates, the other waits
    # and finds it done; both serve.
    engines.createdb("together")
    pair = [Server(args.tilescope, tmp, engines.url("together"), free_port(), roster, "together%d" % i).start()
            for i in range(2)]
    for i, s in enumerate(pair):
        f.expect(s.wait_listening(), "server %d of two started at once on a new database: %s" % (i, s.stderr()))
    f.expect(engines.psql("SELECT version FROM tilescope_schema", "together") == str(version),
             "two servers at once: schema version %d" % version)
    f.expect(engines.psql("SELECT count(*) FROM students", "together") == "4", "two servers at once: 4 students")

    # One schema: the tables an SQLite lab holds, with the same columns in
    # the same order, made by the same program from the same roster.
    sqlite_server = Server(args.tilescope, tmp, os.path.join(tmp, "lab.sqlite"), free_port(), roster, "sqlite")
    f.expect(sqlite_server.start().wait_listening(), "an SQLite lab started: %s" % sqlite_server.stderr())
    sqlite_server.stop()
    import sqlite3
    with sqlite3.connect(os.path.join(tmp, "lab.sqlite")) as lite:
        for table in ("students", "checks", "kernels", "lab"):
            mine = ",".join(row[1] for row in lite.execute("SELECT * FROM pragma_table_info('%s')" % table))
            theirs = engines.psql("SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM "
                                  "information_schema.columns WHERE table_name = '%s'" % table, "together")
            f.expect(mine == theirs, "table %s: SQLite's columns %s, PostgreSQL's %s" % (table, mine, theirs))
        f.expect(lite.execute("PRAGMA user_version").fetchone()[0] == version, "the SQLite lab at version %d" % version)

    # Another roster while they run: refused, naming both.
    other = os.path.join(tmp, "other-roster.csv")
    write_roster(other, 4, extra=1)
    refused(f, Server(args.tilescope, tmp, engines.url("together"), free_port(), other, "other").start(),
            [other, "is not the roster the other servers of", roster, "5 students", "4 students",
             "2 servers connected", "give every server the same roster"],
            "a roster other than the running servers'")
    # Taken once they are stopped: a roster changes between labs.
    for s in pair:
        s.stop()
    alone = Server(args.tilescope, tmp, engines.url("together"), free_port(), other, "alone").start()
    f.expect(alone.wait_listening(), "another roster is taken when no other server runs: %s" % alone.stderr())
    f.expect(engines.psql("SELECT count(*) FROM students WHERE active = 1", "together") == "5",
             "the new roster's 5 students let in")
    alone.stop()


# [SECTION] Three servers behind nginx, under load

def phase(f, name, results, engines, db, n):
    """What one load showed: every check answered right, recorded once with
    the id its answer named, and its latencies."""
    right = [r for r in results if r[0] == 200 and r[1] == r[6]]
    for r in results:
        if not (r[0] == 200 and r[1] == r[6]):
            f.expect(False, "%s: %s not answered right: %s %s after %d tries" % (name, r[11], r[0], r[1], r[9]))
    rows = engines.psql("SELECT request_key, count(*), min(id) FROM checks WHERE request_key LIKE '%s-%%' "
                        "GROUP BY request_key" % name, db)
    recorded = {}
    for line in rows.splitlines():
        key, count, first = line.split("|")
        recorded[key] = (int(count), int(first))
    for r in results:
        key = r[11]
        got = recorded.get(key)
        f.expect(got is not None and got[0] == 1,
                 "%s: %s recorded %s times, not once" % (name, key, got[0] if got else 0))
        if got and r[10] is not None:
            f.expect(got[1] == r[10], "%s: %s's answer named check %s, the database holds it as %s" %
                     (name, key, r[10], got[1]))
    servers = engines.psql("SELECT count(DISTINCT server) FROM checks WHERE request_key LIKE '%s-%%'" % name, db)
    latencies = [r[2] for r in results]
    numbers = {"students": n, "answered_right": len(right), "lost": n - len(right),
               "recorded_once": sum(1 for r in results if recorded.get(r[11], (0,))[0] == 1),
               "sent_again": sum(1 for r in results if r[9] > 1),
               "servers_answering": int(servers),
               "p50_s": round(statistics.median(latencies), 3), "p95_s": round(LOAD.percentile(latencies, 95), 3),
               "max_s": round(max(latencies), 3)}
    print("  %s: %s" % (name, json.dumps(numbers)))
    return numbers


def case_cluster(args, engines, tmp, f):
    n = args.students
    engines.createdb("lab")
    url = engines.url("lab")
    roster = os.path.join(tmp, "roster.csv")
    write_roster(roster, n)
    ports = [free_port() for _ in range(3)]
    servers = [Server(args.tilescope, tmp, url, p, roster, "server%d" % i) for i, p in enumerate(ports)]
    started = time.time()
    for s in servers:
        s.start()
    for i, s in enumerate(servers):
        if not f.expect(s.wait_listening(), "server %d started: %s" % (i, s.stderr())):
            return
    print("  three servers up in %.1f s" % (time.time() - started))
    front = free_port()
    engines.start_nginx(nginx_config(tmp, front, ports))
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            c = http.client.HTTPConnection("127.0.0.1", front, timeout=2)
            c.request("GET", "/api/health")
            if c.getresponse().status == 200:
                break
        except OSError:
            time.sleep(0.1)
    tokens, teacher = links(tmp)
    f.expect(len(tokens) == n, "%d students' links, not %d" % (len(tokens), n))
    report = {"servers": 3, "students_per_load": n, "spread_s": args.seconds}

    def load(name, during=None):
        work = LOAD.kernels(n, names=KERNELS)
        log_from = os.path.getsize(engines.nginx_log)
        timer = None
        if during:
            timer = threading.Thread(target=during)
            timer.start()
        results = LOAD.send_class("127.0.0.1", front, tokens, work, args.seconds, retries=8, key_prefix=name)
        if timer:
            timer.join()
        numbers = phase(f, name, results, engines, "lab", n)
        # What nginx passed on to the next server (a refused connection, a
        # server that went away mid-request, a 502 or 503).
        with open(engines.nginx_log, encoding="utf-8", errors="replace") as log:
            log.seek(log_from)
            numbers["passed_on_by_nginx"] = sum(1 for line in log if "upstream" in line and "[error]" in line)
        return numbers

    report["steady"] = load("steady")
    f.expect(report["steady"]["servers_answering"] == 3, "the steady load reached all three servers")

    def kill_one():
        # Mid-load, and while it runs a check: that request is lost with it.
        time.sleep(args.seconds * 0.3)
        t0 = time.time()
        while time.time() - t0 < args.seconds * 0.5:
            try:
                if get_json(ports[1], "/api/health", "", timeout=2)[1].get("running", 0) > 0:
                    break
            except (OSError, ValueError):
                pass
            time.sleep(0.02)
        servers[1].kill()
        print("  killed server 1 (SIGKILL) at %.1f s of the load" % (args.seconds * 0.3 + time.time() - t0))
        time.sleep(2)
        servers[1].start()
        f.expect(servers[1].wait_listening(), "server 1 started again: %s" % servers[1].stderr())

    report["server_killed"] = load("killed", kill_one)

    def restart_pg():
        # Stopped (fast: its connections cut), down for 2 s, started again.
        time.sleep(args.seconds * 0.3)
        t = time.time()
        engines.pg_ctl("stop")
        time.sleep(2)
        engines.pg_ctl("start")
        print("  PostgreSQL stopped at %.1f s of the load and started again %.1f s later" %
              (args.seconds * 0.3, time.time() - t))

    report["postgresql_restarted"] = load("pgrestart", restart_pg)

    # The class, read from each server: the whole of it, as the database holds it.
    total = int(engines.psql("SELECT count(*) FROM checks", "lab"))
    newest = int(engines.psql("SELECT max(id) FROM checks", "lab"))
    for i, p in enumerate(ports):
        status, now = get_json(p, "/api/class", teacher)
        sent = sum(1 for s in now.get("students", []) if s.get("last"))
        f.expect(status == 200 and now.get("checks") == total and sent == n and now.get("last_check") == newest,
                 "server %d's class: %s checks, %d students with a check, last %s (the database: %d, %d, %d)" %
                 (i, now.get("checks"), sent, now.get("last_check"), total, n, newest))

    # A record made through one server wakes a teacher's long poll on another.
    woke = {}

    def poll():
        woke["status"], woke["class"] = get_json(ports[0], "/api/class?after=%d&wait=20" % newest, teacher)
        woke["at"] = time.time()

    poller = threading.Thread(target=poll)
    poller.start()
    time.sleep(1)
    work = LOAD.kernels(1, names=KERNELS)[0]
    body = json.dumps({"kernel": work[1], "size": work[2], "radius": work[3], "backend": "cpu"})
    status, answer, _, check = LOAD.send_one("127.0.0.1", ports[2], tokens[0], body, "wake-000")
    answered = time.time()
    poller.join(timeout=30)
    late = woke.get("at", answered + 99) - answered
    f.expect(status == 200 and woke.get("status") == 200 and
             woke.get("class", {}).get("last_check") == int(check or -1) and late < 3,
             "a check on server 2 (id %s) wakes the long poll on server 0 within 3 s: it answered %.2f s later, "
             "last_check %s" % (check, late, woke.get("class", {}).get("last_check")))
    report["long_poll_across_servers_s"] = round(max(0.0, late), 3)
    print("  a check on server 2 woke the long poll on server 0 %.2f s after its answer" % late)

    for s in servers:
        s.stop()
    print(json.dumps(report))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(report, out, indent=2)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tilescope", required=True)
    parser.add_argument("--students", type=int, default=12, help="students in each load (cluster)")
    parser.add_argument("--seconds", type=float, default=10.0, help="each load spread over this long (cluster)")
    parser.add_argument("--json", help="write the cluster's figures here")
    parser.add_argument("case", choices=["config", "cluster"])
    args = parser.parse_args()
    args.tilescope = os.path.abspath(args.tilescope)

    tmp = tempfile.mkdtemp(prefix="tilescope-pg-")
    os.chmod(tmp, 0o755)
    engines = Engines(tmp)
    why = engines.missing()
    if why:
        print("SKIP: %s; the test of several servers on PostgreSQL needs it" % why)
        return SKIP
    probe = subprocess.run([args.tilescope, "serve", "--token", "t", "--db", "postgresql://nobody@127.0.0.1:1/x",
                            "--port", "0", "--sandbox", "off"], capture_output=True, text=True, timeout=60)
    if "no PostgreSQL support" in probe.stderr:
        print("SKIP: this tilescope was built without libpq (%s)" % probe.stderr.strip())
        return SKIP
    f = Failures()
    try:
        engines.start_pg()
        (case_config if args.case == "config" else case_cluster)(args, engines, tmp, f)
    finally:
        for s in Server.started:
            s.stop()
        engines.stop()
        if f.count == 0 and not os.environ.get("TILESCOPE_KEEP"):
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print("kept for a look: " + tmp)
    print("%s: %s" % (args.case, "ok" if f.count == 0 else "%d failed" % f.count))
    return 0 if f.count == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
