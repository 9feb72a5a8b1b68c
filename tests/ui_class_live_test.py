#!/usr/bin/env python3
"""The Class panel following a lab, live, in the desktop app (docs/serve.md,
The class, live): a lab of 30 simulated students (tests/serve/lab_class.py:
30 tokens from a roster, right, racy, wrong and non-compiling kernels sent
over time) on `tilescope serve --roster`, and the app opened with the
teacher's link (`tilescope --class-server URL#token=...`) under the X
display of xvfb-run.

- Each check is drawn in the panel within 2 s of its answer (the app says,
  with --class-shown-log, the newest check of each frame that takes one in).
- Then `tilescope screenshot --class-now` at 1280x720 and 1920x1080: the
  summary, the histogram, the problems and a tile per student laid out
  without overlap or clipped text, their words those of the server's class
  (its /api/class, worked out here on its own); no name on the screen
  until --class-names, and every name then.
- A tile's click (--class-open-live, as the click) opens that student's
  kernel at its first problem: the Problems panel names the race.

  tests/ui_class_live_test.py --tilescope build/app/tilescope [--keep DIR]

Exits 0 when every check passes, 1 otherwise, 77 (skipped) without an X
display or a `serve` (built without cpp-httplib).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "serve"))
import lab_class  # noqa: E402


class Failures:
    def __init__(self):
        self.messages = []

    def check(self, ok, message):
        if not ok:
            self.messages.append(message)
            print("FAILED: " + message, flush=True)
        return ok


def expected_patterns(klass):
    """The problems grouped across students by kind and lines, most students
    first, as the panel must write them (worked out here on its own)."""
    groups = {}
    order = []
    total = len(klass["students"])
    for i, s in enumerate(klass["students"]):
        last = s.get("last")
        if not last or last["verdict"] not in ("problems", "refused"):
            continue
        for p in last["problems"]:
            first = p.get("line") if p["kind"] in ("refused", "backend") else p.get("first_line")
            key = (p["kind"], p.get("order", ""), p.get("array") or "", first or 0, p.get("second_line") or 0)
            if key not in groups:
                groups[key] = []
                order.append(key)
            if not groups[key] or groups[key][-1] != i:
                groups[key].append(i)
    order.sort(key=lambda k: (-len(groups[k]), k[3], k[4]))
    return [(k, len(groups[k]), total) for k in order]


def overlap(a, b):
    return not (a[2] <= b[0] + 1 or b[2] <= a[0] + 1 or a[3] <= b[1] + 1 or b[3] <= a[1] + 1)


def inside(a, b):
    return a[0] >= b[0] - 1 and a[1] >= b[1] - 1 and a[2] <= b[2] + 1 and a[3] <= b[3] + 1


def items(layout, prefix):
    return [i for i in layout["items"] if i["name"].startswith(prefix)]


def item(layout, name):
    for i in reversed(layout["items"]):
        if i["name"] == name:
            return i
    return None


def screenshot(tilescope, out, name, link, size, extra, env):
    png, lay = os.path.join(out, name + ".png"), os.path.join(out, name + ".json")
    command = [tilescope, "screenshot", "--out", png, "--layout", lay, "--backend", "cpu", "--size", size,
               "--class-server", link] + extra
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)
    if done.returncode != 0:
        raise RuntimeError(" ".join(command) + " exited %d: %s" % (done.returncode, done.stderr[-2000:]))
    with open(lay) as f:
        return json.load(f)


def check_shot(failures, layout, klass, names, label):
    """The class-now picture against the server's class."""
    students = klass["students"]
    window = item(layout, "class.window")
    if not failures.check(window is not None, label + ": the Class panel is drawn"):
        return
    win = window["rect"]
    # Large type: the lecture's font, filling the window.
    failures.check(win[2] - win[0] >= layout["framebuffer"][0] * 0.95,
                   label + ": the panel fills the window's width (%s)" % win)
    counts = {"right": 0, "stuck": 0, "refused": 0, "nothing": 0}
    for s in students:
        last = s.get("last")
        v = last["verdict"] if last else ""
        counts["right" if v == "clean" else "stuck" if v == "problems" else "refused" if v == "refused" else
               "nothing"] += 1
    title = item(layout, "class.live.title")
    want = "The class now: %d of %d right, %d stuck, %d %s not compile or run, %d nothing yet" % (
        counts["right"], len(students), counts["stuck"], counts["refused"],
        "does" if counts["refused"] == 1 else "do", counts["nothing"])
    failures.check(title is not None and title["text"] == want,
                   label + ": the summary %r, the server's class says %r" % (title and title["text"], want))
    for k, word in enumerate(["right", "stuck", "does not compile or run", "nothing yet"]):
        bar = item(layout, "class.live.bar.%d" % k)
        number = list(counts.values())[k]
        failures.check(bar is not None and bar["text"] == "%s: %d" % (word, number),
                       label + ": bar %d %r, want %r" % (k, bar and bar["text"], "%s: %d" % (word, number)))
    # The problems, most students first, in their sentences.
    patterns = expected_patterns(klass)
    drawn = items(layout, "class.live.pattern.")
    failures.check(len(drawn) == len(patterns),
                   label + ": %d problems listed, the class has %d" % (len(drawn), len(patterns)))
    if patterns and drawn:
        key, n, total = patterns[0]
        first = item(layout, "class.live.pattern.0")["text"]
        failures.check(first.startswith("%d of %d: " % (n, total)),
                       label + ": the first problem %r is %d of %d students'" % (first, n, total))
        if key[0] == "shared_race":
            failures.check("line %d and line %d" % (key[3], key[4]) in first and key[2] in first,
                           label + ": the first problem names its array and lines: %r" % first)
    # A tile per student, apart, inside the panel, in the roster's order.
    tiles = [item(layout, "class.live.student.%d" % (k + 1)) for k in range(len(students))]
    failures.check(all(tiles), label + ": a tile for each of the %d students" % len(students))
    tiles = [t for t in tiles if t]
    area = item(layout, "class.live.tiles")
    for t in tiles:
        if not inside(t["rect"], win) or (area and not inside(t["rect"], area["rect"])):
            failures.check(False, label + ": tile %r outside the panel %s" % (t["text"], win))
            break
    for a in range(len(tiles)):
        for b in range(a + 1, len(tiles)):
            if overlap(tiles[a]["rect"], tiles[b]["rect"]):
                failures.check(False, label + ": tiles %r and %r overlap" % (tiles[a]["text"], tiles[b]["text"]))
    blocks = [item(layout, n) for n in ("class.live.title", "class.live.histogram", "class.live.patterns",
                                        "class.live.tiles")]
    for a in range(len(blocks)):
        for b in range(a + 1, len(blocks)):
            if blocks[a] and blocks[b]:
                failures.check(not overlap(blocks[a]["rect"], blocks[b]["rect"]),
                               label + ": %s and %s overlap" % (blocks[a]["name"], blocks[b]["name"]))
    # Every student on the screen (the tiles fit: nothing scrolled away).
    if area:
        failures.check(all(t["rect"][3] <= area["rect"][3] + 1 for t in tiles),
                       label + ": every tile is on the screen, none scrolled away")
    for t, s in zip(tiles, students):
        last = s.get("last")
        verdict = last["verdict"] if last else ""
        mark = {"clean": "\u2713", "problems": "\u2717", "refused": "\u26a0"}.get(verdict, "\u2013")
        failures.check(" | " + mark in t["text"], label + ": %s's tile %r has the mark %s" % (s["id"], t["text"], mark))
    # The names: none shown unless asked for; every one when asked.
    texts = " ".join(i.get("text", "") or "" for i in layout["items"])
    shown = [s["name"] for s in students if s["name"] in texts]
    if names:
        failures.check(len(shown) == len(students), label + ": every name shown (%d of %d)" % (len(shown),
                                                                                             len(students)))
    else:
        failures.check(not shown, label + ": no name on the projector, found %s" % shown[:3])
    clipped = [i for i in layout["items"] if i["name"] == "clipped" and "class" in (i.get("text") or "").lower()]
    failures.check(not clipped, label + ": text of the panel clipped: %s" % clipped[:3])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tilescope", required=True)
    parser.add_argument("--keep", help="keep the screenshots and the lab here")
    parser.add_argument("--seconds", type=float, default=40.0, help="how long the lab's checks are spread over")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        print("SKIPPED: no X display: run under xvfb-run")
        return 77
    probe = subprocess.run([args.tilescope, "serve", "--help"], capture_output=True, text=True)
    if "--roster" not in probe.stdout:
        print("SKIPPED: this tilescope has no serve (built without cpp-httplib)")
        return 77

    folder = args.keep or tempfile.mkdtemp(prefix="tilescope-class-live-")
    os.makedirs(folder, exist_ok=True)
    failures = Failures()
    students, names = lab_class.write_roster(folder, 30)
    server = lab_class.LabServer(args.tilescope, folder)
    app = None
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    try:
        # The app, following the lab with the teacher's link.
        config = os.path.join(folder, "config")
        os.makedirs(config, exist_ok=True)
        app = subprocess.Popen([args.tilescope, "--class-server", server.teacher, "--class-shown-log",
                                "--config-dir", config], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env)
        drawn = []  # (check id, moment)
        seen = threading.Event()

        def read():
            for line in app.stdout:
                if line.startswith("tilescope: class now: check "):
                    drawn.append((int(line.split()[4]), time.time()))
                    seen.set()

        threading.Thread(target=read, daemon=True).start()
        threading.Thread(target=lambda: [None for _ in app.stderr], daemon=True).start()
        failures.check(seen.wait(60), "the app drew the class within 60 s of its start")
        if drawn:
            print("the app drew the class (no check yet: check %d)" % drawn[0][0], flush=True)

        # The lab: each student's checks over time.
        answers, tries = lab_class.run_lab(server, students, seconds=args.seconds)
        time.sleep(2.5)
        wrong = [(s, k, v) for (_, _, s, k, v) in answers
                 if {"clean": "right", "problems": "stuck", "refused": "refused"}.get(v) != lab_class.STATE[k]]
        failures.check(not wrong, "every check answered as its kernel deserves: %s" % wrong[:5])
        failures.check(all(c > 0 for (c, *_ ) in answers), "every check was kept (X-Tilescope-Check)")
        latencies = []
        for check_id, arrived, student, kind, verdict in sorted(answers):
            shown = [t for (c, t) in drawn if c >= check_id]
            if not shown:
                failures.check(False, "check %d (%s, %s) was never drawn" % (check_id, student, kind))
                continue
            latencies.append(max(0.0, shown[0] - arrived))
        if latencies:
            print("%d checks of %d students; drawn after their answer: median %.3f s, 95th percentile %.3f s, "
                  "slowest %.3f s" % (len(answers), len(students), statistics.median(latencies),
                                      sorted(latencies)[int(0.95 * (len(latencies) - 1))], max(latencies)),
                  flush=True)
            failures.check(max(latencies) < 2.0, "every check drawn within 2 s of its answer (slowest %.3f s)"
                           % max(latencies))
        app.terminate()
        try:
            app.wait(timeout=20)
        except subprocess.TimeoutExpired:
            app.kill()
        app = None

        # The projector's pictures of the class now, against the server's class.
        klass = server.klass()
        for size in ("1280x720", "1920x1080"):
            layout = screenshot(args.tilescope, folder, "class_now_" + size, server.teacher, size,
                                ["--class-now"], env)
            check_shot(failures, layout, klass, False, "class now at " + size)
            print("class now at %s: %d tiles, %d problems listed; %s" % (
                size, len(items(layout, "class.live.student.")), len(items(layout, "class.live.pattern.")),
                item(layout, "class.live.title")["text"] if item(layout, "class.live.title") else "no title"),
                flush=True)
        layout = screenshot(args.tilescope, folder, "class_now_names_1920x1080", server.teacher, "1920x1080",
                            ["--class-now", "--class-names"], env)
        check_shot(failures, layout, klass, True, "class now with names at 1920x1080")
        # The everyday layout: the panel beside the others.
        layout = screenshot(args.tilescope, folder, "class_everyday_1600x900", server.teacher, "1600x900",
                            ["--panels", "class,result"], env)
        failures.check(item(layout, "class.live.title") is not None and
                       len(items(layout, "class.live.student.")) == len(students),
                       "the everyday layout shows the live class too")

        # A tile's click: the first racy student's kernel at its first problem.
        racy = next((k + 1 for k, s in enumerate(klass["students"])
                     if s.get("last") and s["last"]["verdict"] == "problems" and any(
                         p["kind"] == "shared_race" for p in s["last"]["problems"])), None)
        if failures.check(racy is not None, "a student with a race, to open"):
            layout = screenshot(args.tilescope, folder, "class_open_1600x900", server.teacher, "1600x900",
                                ["--class-open-live", str(racy)], env)
            editor = item(layout, "editor.file")
            failures.check(editor is not None and "check-" in (editor.get("text") or ""),
                           "the student's kernel is open in the editor (%s)" % (editor and editor.get("text")))
            problems = " ".join((i.get("text") or "") for i in items(layout, "problems."))
            failures.check("race" in problems.lower() and "N_ds" in problems,
                           "the Problems panel names the race on N_ds: %r" % problems[:300])
            print("opened student %d's kernel: %s; problems: %s" % (racy, editor and editor.get("text"),
                                                                    problems[:160]), flush=True)
    except Exception as error:  # noqa: BLE001
        failures.check(False, "%s: %s" % (type(error).__name__, error))
    finally:
        if app:
            app.kill()
        code = server.stop()
        failures.check(code == 0, "the server ends with 0 on SIGTERM, not %s" % code)
        if failures.messages:
            with open(os.path.join(folder, "serve.log")) as f:
                print("the server's log:\n  " + "\n  ".join(f.read().splitlines()[-20:]))
        if not args.keep and not failures.messages:
            shutil.rmtree(folder, ignore_errors=True)
    if failures.messages:
        print("class live test: %d failed" % len(failures.messages))
        return 1
    print("class live test: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
