#!/usr/bin/env python3
"""The page opened with the teacher's link follows the lab, live (docs/serve.md,
The class, live): `tilescope serve --roster` with the test build's page, a
lab of 30 simulated students (tests/serve/lab_class.py) checking right,
racy, wrong and non-compiling kernels over time, and headless Chromium on
the teacher's link (?classnow=1: the projector's layout).

- The page's Class panel shows each check within 2 s of its answer (its
  layout, read every 0.1 s, names the newest check it drew).
- At the end its tiles say what the server's class says, with no name shown.
- A tile's click opens that student's kernel (the teacher's link may run
  again what a student sent): the Problems panel names its race.
- A student's link does not show the class.

  tests/web/class_page_test.py --tilescope build/app/tilescope --web build-web/web [--screenshot FILE.png]

Exits 0 when every check passes, 1 otherwise, 77 when no browser can be
started or the program has no `serve`.
"""
import os
import re
import shutil
import statistics
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "serve"))
from page_test import Browser, Failures, item, layout  # noqa: E402
import lab_class  # noqa: E402
import served_page  # noqa: E402
from served_page import wait_for  # noqa: E402


def drawn_check(lay):
    """The newest check the page's Class panel drew (-1: none drawn; 0: the class, no check yet)."""
    status = item(lay, "class.live.status")
    if not status:
        return -1
    match = re.search(r"\(check (\d+)\)", status.get("text") or "")
    return int(match.group(1)) if match else 0


def click(browser, rect):
    x, y = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
    browser.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
    time.sleep(0.2)
    browser.call("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left", clickCount=1)
    time.sleep(0.1)
    browser.call("Input.dispatchMouseEvent", type="mouseReleased", x=x, y=y, button="left", clickCount=1)


def main():
    parser = served_page.arguments(__doc__.split("\n")[0], "save the page's class now here (PNG)")
    parser.add_argument("--seconds", type=float, default=40.0)
    args = parser.parse_args()
    missing = served_page.missing_page_browser_or_serve(args, "--roster")
    if missing is not None:
        return missing

    scratch, web = served_page.scratch_page(args.web, "tilescope-class-page-")
    students, names = lab_class.write_roster(scratch, 30)
    failures = Failures()
    server = lab_class.LabServer(args.tilescope, scratch, web=web)
    browser = None
    try:
        browser = Browser.page(args.chromium, os.path.join(scratch, "profile"))
        token = server.teacher.split("#token=")[1]
        base = f"http://127.0.0.1:{server.port}/index.html?probe=1"
        started = time.time()
        browser.call("Page.navigate", url=f"{base}&classnow=1#token={token}")
        lay = wait_for(browser, "the page's class", lambda l: drawn_check(l) >= 0)
        print(f"the page drew the class {time.time() - started:.1f} s after it was asked for", flush=True)

        # The lab, in the background; the page's layout read every 0.1 s meanwhile.
        result = {}
        lab = threading.Thread(target=lambda: result.update(
            zip(("answers", "tries"), lab_class.run_lab(server, students, seconds=args.seconds))))
        lab.start()
        drawn = []  # (newest check drawn, moment)
        while lab.is_alive() or (drawn and time.time() - drawn[-1][1] < 2.5):
            check = drawn_check(layout(browser))
            if not drawn or check != drawn[-1][0]:
                drawn.append((check, time.time()))
            time.sleep(0.1)
            if not lab.is_alive() and not drawn:
                break
        lab.join()
        end = time.time() + 2.5
        while time.time() < end:
            check = drawn_check(layout(browser))
            if check != drawn[-1][0]:
                drawn.append((check, time.time()))
            time.sleep(0.1)
        answers = result.get("answers", [])
        failures.check(len(answers) > 30, f"the lab sent its checks ({len(answers)})")
        latencies = []
        for check_id, arrived, student, kind, verdict in sorted(answers):
            shown = [t for (c, t) in drawn if c >= check_id]
            if not failures.check(bool(shown), f"check {check_id} ({student}, {kind}) drawn by the page"):
                continue
            latencies.append(max(0.0, shown[0] - arrived))
        if latencies:
            print("%d checks of %d students; drawn by the page after their answer: median %.3f s, 95th percentile "
                  "%.3f s, slowest %.3f s (the layout read every 0.1 s)" % (
                      len(answers), len(students), statistics.median(latencies),
                      sorted(latencies)[int(0.95 * (len(latencies) - 1))], max(latencies)), flush=True)
            failures.check(max(latencies) < 2.0, "every check drawn within 2 s (slowest %.3f s)" % max(latencies))

        # What the tiles say, against the server's class; no name on the projector.
        klass = server.klass()
        lay = layout(browser)
        tiles = [item(lay, "class.live.student.%d" % (k + 1)) for k in range(len(students))]
        failures.check(all(tiles), "a tile for each of the 30 students")
        for tile, s in zip(tiles, klass["students"]):
            if not tile:
                continue
            verdict = s["last"]["verdict"] if s.get("last") else ""
            mark = {"clean": "\u2713", "problems": "\u2717", "refused": "\u26a0"}.get(verdict, "\u2013")
            failures.check(" | " + mark in tile["text"], f"{s['id']}'s tile {tile['text']!r} has the mark {mark}")
        texts = " ".join(i.get("text") or "" for i in lay.get("items", []))
        failures.check(not any(n in texts for n in names.values()), "no name on the page's class now")
        title = item(lay, "class.live.title")
        print("the page's class now: %s" % (title and title["text"]), flush=True)
        if args.screenshot:
            browser.screenshot().save(args.screenshot)

        # A tile's click: a racy student's kernel, compiled and run by the server, at its race.
        racy = next((k + 1 for k, s in enumerate(klass["students"])
                     if s.get("last") and any(p["kind"] == "shared_race" for p in s["last"]["problems"])), None)
        if failures.check(racy is not None, "a student with a race, to open") and tiles[racy - 1]:
            click(browser, tiles[racy - 1]["rect"])
            lay = wait_for(browser, "the racy student's kernel in the Problems panel",
                           lambda l: "race" in ((item(l, "problems.summary") or {}).get("text") or "").lower(),
                           timeout=180)
            editor = item(lay, "editor.file")
            failures.check(editor is not None and "check-" in (editor.get("text") or ""),
                           f"the student's kernel in the editor ({editor and editor.get('text')})")
            print("tile %d clicked: %s; %s" % (racy, editor and editor.get("text"),
                                               (item(lay, "problems.summary") or {}).get("text")), flush=True)

        # A student's link: the page shows no class.
        student = students[0]
        browser.call("Page.navigate", url=f"{base}#token={server.tokens[student]}")
        time.sleep(1.0)
        lay = wait_for(browser, "the student's page", lambda l: l.get("served", "") != "" and l.get("settled"))
        time.sleep(2.0)
        lay = layout(browser)
        failures.check(item(lay, "class.live.title") is None, "a student's link shows no class")
    except Exception as error:  # noqa: BLE001
        failures.check(False, f"{type(error).__name__}: {error}")
    finally:
        served_page.close_browser(browser, failures)
        code = server.stop()
        failures.check(code == 0, f"the server ends with 0 on SIGTERM, not {code}")
        if failures.messages:
            with open(os.path.join(scratch, "serve.log")) as f:
                print("the server's log:\n  " + "\n  ".join(f.read().splitlines()[-20:]))
        shutil.rmtree(scratch, ignore_errors=True)
    return failures.finish("class page test")


if __name__ == "__main__":
    sys.exit(main())
