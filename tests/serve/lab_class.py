"""A lab of simulated students for the tests of the live Class panel
(tests/ui_class_live_test.py, the desktop app; tests/web/class_page_test.py,
the page): a roster of 30, `tilescope serve --roster` on a free port, and
each student's checks over time, mixed right, racy and wrong kernels, one
that does not compile, some fixed later (the files of tests/own).

Each answered check is returned with its id (X-Tilescope-Check) and the
moment its answer arrived, so that a test can hold the panel's refresh to
it.
"""
import concurrent.futures
import http.client
import json
import os
import re
import socket
import subprocess
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OWN = os.path.join(ROOT, "tests", "own")

# What a student may send, by what its check says: (file, the state the Class panel shows).
KERNELS = {
    "right": os.path.join(OWN, "good", "conv2d_tiled_student.cu"),
    "right_basic": os.path.join(OWN, "good", "conv2d_basic_student.cu"),
    "racy": os.path.join(OWN, "broken", "missing_syncthreads.cu"),
    "wrong": os.path.join(OWN, "broken", "flipped_mask.cu"),
    "out_of_bounds": os.path.join(OWN, "broken", "oob_read_no_ghost_test.cu"),
    "no_compile": os.path.join(OWN, "broken", "syntax_missing_semicolon.cu"),
}
STATE = {"right": "right", "right_basic": "right", "racy": "stuck", "wrong": "stuck", "out_of_bounds": "stuck",
         "no_compile": "refused"}

NAMES = ["Ada Byron", "Bo Chen", "Cy Diaz", "Di Evans", "Ed Fofanah", "Flo Garcia", "Gus Huang", "Hana Ito",
         "Ivo Jovanovic", "Jo Kim", "Kai Larsen", "Lu Mendes", "Mo Nakamura", "Ng, Zo\u00eb", "Ola Okafor",
         "Pia Petrov", "Quinn Rossi", "Ravi Singh", "Sara Tanaka", "Tom Uddin", "Uma Varga", "Vic Wang",
         "Wes Xu", "Xia Yilmaz", "Yan Zhou", "Zed Abbas", "Ana Borg", "Ben Cruz", "Cleo Dahl", "Dan Ek"]


def plan(students):
    """Each student's kernels, in the order they send them: a first try (a
    third right, the rest racy, wrong, out of bounds or not compiling), and
    for most of those who were not right, a second try later."""
    first = ["right", "racy", "racy", "wrong", "racy", "out_of_bounds", "no_compile", "right_basic", "racy", "wrong"]
    out = {}
    for i, student in enumerate(students):
        tries = [first[i % len(first)]]
        if STATE[tries[0]] != "right" and i % 3 != 2:
            tries.append("right" if i % 2 == 0 else "racy" if tries[0] != "racy" else "right_basic")
        out[student] = tries
    return out


def write_roster(folder, n=30):
    ids = ["s%02d" % (i + 1) for i in range(n)]
    with open(os.path.join(folder, "roster.csv"), "w", encoding="utf-8") as f:
        f.write("id,name\n")
        for i, student in enumerate(ids):
            name = NAMES[i % len(NAMES)]
            f.write('%s,"%s"\n' % (student, name) if "," in name else "%s,%s\n" % (student, name))
    return ids, {student: NAMES[i % len(NAMES)] for i, student in enumerate(ids)}


def read_links(folder):
    """({id: token}, the teacher's link)."""
    tokens = {}
    with open(os.path.join(folder, "roster.links.csv"), encoding="utf-8") as f:
        for line in f.read().splitlines()[1:]:
            student = line.split(",", 1)[0]
            token = re.search(r"#token=([0-9a-f]+)", line)
            if token:
                tokens[student] = token.group(1)
    with open(os.path.join(folder, "roster.teacher.txt"), encoding="utf-8") as f:
        teacher = re.search(r"(http://\S+#token=[0-9a-f]+)", f.read()).group(1)
    return tokens, teacher


class LabServer:
    """`tilescope serve --roster` on a free port of 127.0.0.1 in `folder`, stopped on exit."""

    def __init__(self, tilescope, folder, web=None):
        self.log = open(os.path.join(folder, "serve.log"), "w+")
        command = [os.path.abspath(tilescope), "serve", "--host", "127.0.0.1", "--port", "0", "--roster", "roster.csv", "--db",
                   "lab.sqlite", "--sandbox", "auto", "--backend", "cpu", "--workers", "2", "--rate", "600",
                   "--burst", "100"]
        if web:
            command += ["--web", web]
        self.process = subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.process.kill()
            self.log.seek(0)
            raise RuntimeError("the server printed no URL: " + line + self.log.read())
        self.port = int(match.group(1))
        # The links are written once it listens; its log goes on in the background.
        self.lines = [line]
        threading.Thread(target=self._read, daemon=True).start()
        deadline = time.time() + 30
        while not os.path.exists(os.path.join(folder, "roster.teacher.txt")) and time.time() < deadline:
            time.sleep(0.05)
        self.tokens, self.teacher = read_links(folder)

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.process.returncode

    def request(self, method, path, body=None, token=None, timeout=120):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Authorization": "Bearer " + token} if token else {}
        if body is not None:
            body = json.dumps(body)
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def check(self, student, kind, text):
        """A student's check of `text`: (check id, the moment its answer arrived, its verdict)."""
        body = {"kernel": text, "size": "64x48", "radius": 1}
        status, headers, data = self.request("POST", "/api/check", body, token=self.tokens[student])
        arrived = time.time()
        verdict = json.loads(data).get("status") if status == 200 else "HTTP %d" % status
        return int(headers.get("x-tilescope-check", "0")), arrived, verdict

    def klass(self):
        status, _, data = self.request("GET", "/api/class", token=self.teacher.split("#token=")[1])
        return json.loads(data) if status == 200 else None


def run_lab(server, students, seconds=40.0, at_once=3):
    """Every student's kernels, their first tries spread over the first half
    of `seconds` and their second ones over the second half, `at_once` in
    flight; returns [(check id, answer's moment, student, kernel, verdict)]."""
    tries = plan(students)
    texts = {}
    for kind, path in KERNELS.items():
        with open(path, encoding="utf-8") as f:
            texts[kind] = f.read()
    start = time.time()
    schedule = []
    for i, student in enumerate(students):
        for k, kind in enumerate(tries[student]):
            when = (k + i / len(students)) * seconds / 2.0
            # Each student's text differs from the others' (a comment of their
            # own, at the end: the lines the problems name stay where they are).
            schedule.append((when, student, kind, texts[kind] + "\n// %s, try %d\n" % (student, k + 1)))
    schedule.sort()
    answers = []
    lock = threading.Lock()
    order = {}  # a student's second try waits for their first

    def send(entry):
        when, student, kind, text = entry
        delay = start + when - time.time()
        if delay > 0:
            time.sleep(delay)
        with order.setdefault(student, threading.Lock()):
            check_id, arrived, verdict = server.check(student, kind, text)
        with lock:
            answers.append((check_id, arrived, student, kind, verdict))

    with concurrent.futures.ThreadPoolExecutor(max_workers=at_once) as pool:
        list(pool.map(send, schedule))
    return answers, tries


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
