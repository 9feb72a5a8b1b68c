#!/usr/bin/env python3
"""A class against `tilescope serve`: N students, each submitting a different
kernel file (POST /api/check) at a moment spread evenly over S seconds.

The kernels are tests/own/good's, each varied so that no two texts are the
same (a different constant, comment and whitespace, a different radius and
size), so nothing a server could cache helps. Every request must be answered
with the verdict its kernel deserves ("clean"); the script prints how many
were, the median and 95th-percentile latency (from sending the request to
the last byte of the answer), the slowest, and the server's peak memory
(VmHWM of /proc/PID/status, the server process; its workers are processes of
their own and are counted apart, at their peak, from their own status files
as they run).

    scripts/serve-load.py --tilescope build/app/tilescope --students 100 --seconds 60

With --url and --token it loads a server already running (its memory is then
not measured). Each student is a client of its own (X-Forwarded-For, and the
server started with --behind-proxy), as a class behind one proxy is.

With --roster the server is started as a lab (docs/serve.md, The lab): a
roster of the students, each sending with their own link's token, every check
recorded in the lab's database. --mix F sends a fraction F of the students a
kernel with a bug instead (a race, an access out of bounds: tests/own/broken's
missing_syncthreads and oob_read_no_ghost_test, varied the same way), whose
right answer is "problems". --backend and --sandbox are the server's. The
numbers then include each kernel's own time on the backend (kernel_ms, the
median and the largest) and the verdicts by kernel.

    scripts/serve-load.py --tilescope build/app/tilescope --roster --students 200 --seconds 60 \
        --backend cuda --sandbox required --mix 0.3

--retries N makes each student a client that tries again, as the page does
and as docs/serve.md asks of a client of several servers: on a connection
refused or reset, 502, 503 or 504 it waits (Retry-After, else a second) and
sends the same request again with the same Idempotency-Key, which the lab
records once. tests/serve/pg_test.py sends its load this way through nginx
to three servers (send_class below).

Standard library only. Exit status 0 when every request was answered right.
"""

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOOD = os.path.join(SOURCE_DIR, "tests", "own", "good")
BROKEN = os.path.join(SOURCE_DIR, "tests", "own", "broken")
# Kernels with a bug a student writes, each answered "problems".
BUGS = ("missing_syncthreads.cu", "oob_read_no_ghost_test.cu")


def kernels(n, mix=0.0, names=None):
    """n different (kernel text, size, radius, the verdict it deserves): the
    good kernels (those of `names` only, when given), and a fraction `mix`
    of them (spread evenly) with a bug."""
    files = sorted(f for f in os.listdir(GOOD) if f.endswith(".cu") and (names is None or f in names))
    out = []
    bugs = 0
    for i in range(n):
        buggy = mix > 0 and int((i + 1) * mix) > bugs
        if buggy:
            name = BUGS[bugs % len(BUGS)]
            bugs += 1
            path = os.path.join(BROKEN, name)
        else:
            name = files[i % len(files)]
            path = os.path.join(GOOD, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # Student i's own touches: a comment, blank lines and spaces, a constant.
        text = "// student %03d, submission %d\n" % (i, i * 7919 % 1000) + text.replace("\n\n", "\n" + " " * (i % 5) + "\n\n", 1)
        text += "\n#define STUDENT_%d_CONSTANT %d.%df\n" % (i, i, i % 10)
        one_d = name.startswith("conv1d")
        radius = 1 + i % 3
        size = str(800 + 8 * i) if one_d else "%dx%d" % (24 + i % 17, 20 + i % 13)
        out.append((name, text, size, radius, "problems" if buggy else "clean"))
    return out


def send_one(host, port, token, body, key=None, retries=0, forwarded_for=None, timeout=300):
    """POST /api/check, sent again on a connection error, 502, 503 or 504 up
    to `retries` more times with the same Idempotency-Key. Returns (HTTP
    status or 0, the answer's JSON or the error's text, tries, the
    X-Tilescope-Check header)."""
    headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
    if key:
        headers["Idempotency-Key"] = key
    if forwarded_for:
        headers["X-Forwarded-For"] = forwarded_for
    tries = 0
    while True:
        tries += 1
        wait = 1.0
        try:
            c = http.client.HTTPConnection(host, port, timeout=timeout)
            c.request("POST", "/api/check", body=body, headers=headers)
            r = c.getresponse()
            raw = r.read()
            c.close()
            if r.status in (502, 503, 504) and tries <= retries:
                wait = float(r.getheader("Retry-After") or 1)
            else:
                try:
                    answer = json.loads(raw)
                except ValueError:
                    answer = {"status": "not JSON: %r" % raw[:200]}
                return r.status, answer, tries, r.getheader("X-Tilescope-Check")
        except (OSError, http.client.HTTPException) as e:
            if tries > retries:
                return 0, {"status": "lost: %s" % e}, tries, None
        time.sleep(min(wait, 5.0))


def send_class(host, port, tokens, work, seconds, backend="cpu", retries=0, key_prefix=None, forwarded=False):
    """Each of `work` (kernels()) sent by its student at a moment spread
    evenly over `seconds`. Returns one result per student: (status, the
    answer's status, latency in seconds, name, size, radius, deserved,
    kernel_ms, backend, tries, the record's id, the request key)."""
    results = [None] * len(work)
    start = time.time()

    def student(i):
        name, text, size, radius, deserved = work[i]
        time.sleep(max(0.0, start + i * seconds / len(work) - time.time()))
        sent = time.time()
        body = json.dumps({"kernel": text, "size": size, "radius": radius, "backend": backend})
        key = "%s-%03d" % (key_prefix, i) if key_prefix else None
        status, answer, tries, check = send_one(host, port, tokens[i], body, key, retries,
                                                "10.0.%d.%d" % (i // 250, i % 250 + 1) if forwarded else None)
        results[i] = (status, answer.get("status"), time.time() - sent, name, size, radius, deserved,
                      answer.get("kernel_ms"), answer.get("backend") or answer.get("executor"), tries,
                      int(check) if check else None, key)

    threads = [threading.Thread(target=student, args=(i,)) for i in range(len(work))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def percentile(values, p):
    """The p-th percentile (0-100) of `values`, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100.0 * len(ordered) + 0.5)) - 1))]


def peak_kb(pid, key="VmHWM"):
    try:
        with open("/proc/%d/status" % pid) as f:
            match = re.search(r"^%s:\s+(\d+) kB" % key, f.read(), re.M)
            return int(match.group(1)) if match else 0
    except OSError:
        return 0


def recorded_checks(db):
    """How many checks the lab's database holds (sqlite3 of Python's own library)."""
    try:
        import sqlite3
        with sqlite3.connect("file:%s?mode=ro" % db, uri=True) as c:
            return c.execute("SELECT COUNT(*) FROM checks").fetchone()[0]
    except Exception as e:  # noqa: BLE001 -- reported, not fatal
        return "unread: %s" % e


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tilescope", help="start this tilescope's server (else --url)")
    parser.add_argument("--url", help="a server already running: http://HOST:PORT")
    parser.add_argument("--token", default="load-test-token")
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0, help="the submissions are spread over this long")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--roster", action="store_true", help="a lab: a roster, one token per student, a database")
    parser.add_argument("--mix", type=float, default=0.0, help="the fraction of students whose kernel has a bug")
    parser.add_argument("--backend", default="cpu", help="the server's backend (cpu, cuda, auto)")
    parser.add_argument("--sandbox", default="auto", help="the server's sandbox (off, auto, required)")
    parser.add_argument("--links", help="with --url: the students' links file (roster.links.csv) for their tokens")
    parser.add_argument("--retries", type=int, default=0,
                        help="send again on a connection error, 502, 503 or 504, this many times at most")
    parser.add_argument("--json", help="write the numbers here too")
    args = parser.parse_args()

    server = None
    tokens = [args.token] * args.students
    lab = tempfile.mkdtemp(prefix="serve-load-") if args.roster else None
    if args.tilescope:
        command = [args.tilescope, "serve", "--host", "127.0.0.1", "--port", "0", "--workers", str(args.workers),
                   "--queue", str(max(64, args.students)), "--backend", args.backend, "--sandbox", args.sandbox]
        if lab:
            roster = os.path.join(lab, "roster.csv")
            with open(roster, "w", encoding="utf-8") as f:
                f.write("id,name\n" + "".join("s%03d,Student %d\n" % (i, i) for i in range(args.students)))
            command += ["--roster", roster, "--db", os.path.join(lab, "lab.sqlite")]
        else:
            command += ["--token", args.token, "--behind-proxy"]
        server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        line = server.stdout.readline()
        match = re.search(r"http://([\d.]+):(\d+)/", line)
        if not match:
            server.kill()
            sys.exit("serve-load: the server printed no URL: " + line)
        host, port = match.group(1), int(match.group(2))
        threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
        if lab:
            with open(os.path.join(lab, "roster.links.csv"), encoding="utf-8") as f:
                links = {line.split(",")[0]: line.strip().rsplit("#token=", 1)[1]
                         for line in f.read().splitlines()[1:] if "#token=" in line}
            tokens = [links["s%03d" % i] for i in range(args.students)]
    elif args.url:
        match = re.match(r"http://([^:/]+):(\d+)", args.url)
        host, port = match.group(1), int(match.group(2))
        if args.links:
            with open(args.links, encoding="utf-8") as f:
                tokens = [line.strip().rsplit("#token=", 1)[1] for line in f.read().splitlines()[1:]
                          if "#token=" in line][:args.students]
            if len(tokens) < args.students:
                sys.exit("serve-load: %s holds %d students' links, fewer than --students" % (args.links, len(tokens)))
    else:
        sys.exit("serve-load: give --tilescope or --url")

    # The workers' peak, sampled while they run.
    worker_peak = [0]
    done = threading.Event()

    def sample():
        while server and not done.is_set():
            for pid in os.listdir("/proc"):
                if pid.isdigit():
                    try:
                        with open("/proc/%s/stat" % pid) as f:
                            fields = f.read().split(") ")[-1].split()
                        if int(fields[1]) == server.pid:  # a child of the server
                            worker_peak[0] = max(worker_peak[0], peak_kb(int(pid), "VmRSS"))
                    except (OSError, IndexError, ValueError):
                        pass
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()

    work = kernels(args.students, args.mix)
    start = time.time()
    # Each request its own key where it may be sent again: a retry is then recorded once.
    results = send_class(host, port, tokens, work, args.seconds, args.backend, args.retries,
                         "load-%d" % os.getpid() if args.retries else None, forwarded=not lab and not args.links)
    wall = time.time() - start
    done.set()
    server_peak = peak_kb(server.pid) if server else 0
    if server:
        server.terminate()
        server.wait(timeout=30)

    latencies = sorted(r[2] for r in results)
    right = [r for r in results if r[0] == 200 and r[1] == r[6]]
    wrong = [r for r in results if not (r[0] == 200 and r[1] == r[6])]
    p95 = percentile(latencies, 95)
    numbers = {"students": len(work), "spread_s": args.seconds, "workers": args.workers,
               "answered_right": len(right), "lost_or_wrong": len(wrong),
               "median_s": round(statistics.median(latencies), 3), "p95_s": round(p95, 3),
               "max_s": round(latencies[-1], 3), "wall_s": round(wall, 1),
               "server_peak_mb": round(server_peak / 1024, 1), "worker_peak_mb": round(worker_peak[0] / 1024, 1),
               "backend": args.backend, "sandbox": args.sandbox, "roster": bool(lab)}
    kernel_ms = sorted(r[7] for r in results if isinstance(r[7], (int, float)))
    if kernel_ms:
        numbers["kernel_ms_median"] = round(statistics.median(kernel_ms), 3)
        numbers["kernel_ms_max"] = round(kernel_ms[-1], 3)
    by_kernel = {}
    for r in results:
        key = "%s -> %s" % (r[3], r[6])
        got = by_kernel.setdefault(key, {})
        got[str(r[1])] = got.get(str(r[1]), 0) + 1
    numbers["verdicts"] = by_kernel
    if lab:
        numbers["recorded"] = recorded_checks(os.path.join(lab, "lab.sqlite"))
    print(json.dumps(numbers))
    for r in wrong[:10]:
        print("  not answered right: %s %s (%s, %s, r=%s; deserves %s)" % (r[0], r[1], r[3], r[4], r[5], r[6]),
              file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(numbers, f, indent=2)
    return 0 if not wrong else 1


if __name__ == "__main__":
    sys.exit(main())
