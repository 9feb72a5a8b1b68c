#!/usr/bin/env python3
"""The page served by `tilescope serve`, with a student's own kernel files:
headless Chromium opens the page from a running server, each kernel file by a
teacher's link (?open=FILE, the file beside the page), and this script checks
what a student sees:

- a file that does not compile is marked at its line in the Editor (the line
  the compiler names, read from the file's own `expect-output` header);
- a right tiled kernel (tests/own/good/conv2d_tiled_student.cu, the book's
  input-tile strategy with IN_TILE 16) is said to be right, and stepped
  through: its corner block shows the 60 ghost cells, the halo band and the
  112 switched-off edge threads that tests/web/page_test.py checks for the
  built-in conv2d_tiled_in on the same demo (the same geometry, worked out
  there from the book);
- the tiled kernel without its __syncthreads() shows its race in the
  Problems panel;
- the kernel open last comes back after a reload (the browser's storage);
- in the lecture layout at 1920x1080 the Editor shows a screenful of the racy
  kernel, no panel over another, at its first problem by itself.

  tests/web/served_page_test.py --tilescope build/app/tilescope [--web build-web/web] [--chromium chromium]

Exits 0 when every check passes, 1 otherwise, 77 when no browser can be
started or the program has no `serve` (built without cpp-httplib).
"""
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from page_test import (HEIGHT, WIDTH, Browser, Failures, check_clipboard, check_corner_block,  # noqa: E402
                       check_threads, item, layout, step_info, step_into_computing)
import served_page  # noqa: E402
from served_page import ROOT  # noqa: E402
OWN = os.path.join(ROOT, "tests", "own")
GOOD = os.path.join(OWN, "good", "conv2d_tiled_student.cu")
BROKEN = os.path.join(OWN, "broken", "syntax_missing_semicolon.cu")
RACY = os.path.join(OWN, "broken", "missing_syncthreads.cu")
TOKEN = "served-page-test-token"
# A projector's screen, and the lines of code the Editor shows on it at the least.
LECTURE_WIDTH, LECTURE_HEIGHT = 1920, 1080
LECTURE_EDITOR_LINES = 15


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def expected_line(path):
    """The line the compiler's message names, from the file's expect-output header."""
    name = os.path.basename(path)
    with open(path) as f:
        for line in f:
            match = re.match(r"// expect-output: " + re.escape(name) + r":(\d+):", line)
            if match:
                return int(match.group(1))
    raise RuntimeError(f"{path} names no line in its expect-output header")


def wait_for(browser, what, predicate, timeout=180):
    """Polls the page's layout until predicate(layout) holds; returns that layout."""
    def shown(lay):
        items = {e["name"]: e.get("text") for e in lay.get("items", []) if e["name"].startswith(("editor.", "problems."))}
        return f"the editor and problems showed {items}"
    return served_page.wait_for(browser, what, predicate, timeout, shown)


def race_lines(path):
    """The lines of the race the file's expect-output header names ("lines 32 -> 46")."""
    with open(path) as f:
        for line in f:
            match = re.search(r"// expect-output: shared race .* lines (\d+) -> (\d+)", line)
            if match:
                return int(match.group(1)), int(match.group(2))
    raise RuntimeError(f"{path} names no race in its expect-output header")


def overlapping_windows(lay):
    """Pairs of top-level windows (panels, legend, menu bar) that cover each other by more than a pixel."""
    windows = [(e["text"], e["rect"]) for e in lay.get("items", [])
               if e["name"] == "window" and not e["text"].startswith(("##Tooltip", "##Popup"))]
    pairs = []
    for i, (a, ra) in enumerate(windows):
        for b, rb in windows[i + 1:]:
            if min(ra[2], rb[2]) - max(ra[0], rb[0]) > 1 and min(ra[3], rb[3]) - max(ra[1], rb[1]) > 1:
                pairs.append((a, b))
    return pairs


def visible_lines(lay):
    return sorted(int(e["name"].split(".")[-1]) for e in lay.get("items", []) if e["name"].startswith("editor.line."))


def check_lecture_editor(browser, failures, base, screenshot):
    """The Editor in the page's lecture layout at 1920x1080, as a teacher
    projects it: a screenful of the racy kernel at lecture size, no panel
    over another, and the view at the check's first problem by itself."""
    browser.call("Emulation.setDeviceMetricsOverride", width=LECTURE_WIDTH, height=LECTURE_HEIGHT,
                 deviceScaleFactor=1, mobile=False)
    try:
        first = min(race_lines(RACY))
        browser.call("Page.navigate", url=f"{base}&lecture=1&open={os.path.basename(RACY)}")
        lay = wait_for(browser, "the race marked in the lecture layout's Editor",
                       lambda l: l.get("settled") and any(e["name"].startswith("editor.marker.")
                                                          for e in l.get("items", [])))
        time.sleep(1.0)  # a scroll asked for lands a frame or two later
        lay = layout(browser)
        lines = visible_lines(lay)
        failures.check(len(lines) >= LECTURE_EDITOR_LINES,
                       f"the lecture layout's Editor shows {len(lines)} lines, at least {LECTURE_EDITOR_LINES}")
        failures.check(first in lines, f"the Editor went to the first problem's line {first} by itself "
                                       f"(it shows lines {lines[:1]}..{lines[-1:]})")
        failures.check(not overlapping_windows(lay), f"no panel over another ({overlapping_windows(lay)})")
        windows = {e["text"]: e["rect"] for e in lay.get("items", []) if e["name"] == "window"}
        editor = next((r for name, r in windows.items() if name.startswith("Editor")), None)
        failures.check(editor is not None and editor[2] <= LECTURE_WIDTH + 1 and editor[3] <= LECTURE_HEIGHT + 1,
                       f"the Editor inside the page ({editor})")
        print(f"lecture layout: the Editor shows lines {lines[:1]}..{lines[-1:]} ({len(lines)}), "
              f"the first problem at line {first}", flush=True)
        if screenshot:
            browser.screenshot().save(screenshot)
    finally:
        browser.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT, deviceScaleFactor=1,
                     mobile=False)


def text_of(lay, name):
    entry = item(lay, name)
    return entry["text"] if entry else ""


LAB_DB = ""  # the server's record of the lab, in its own folder


def start_server(tilescope, web, port):
    # In a folder of its own: the lab's database and the compiled kernels go beside it, not into the checkout.
    folder = tempfile.mkdtemp(prefix="tilescope-served-page-")
    global LAB_DB
    LAB_DB = os.path.join(folder, "lab.sqlite")
    process = subprocess.Popen(
        [os.path.abspath(tilescope), "serve", "--host", "127.0.0.1", "--port", str(port), "--token", TOKEN, "--web",
         os.path.abspath(web), "--sandbox", "auto", "--burst", "200", "--rate", "600", "--workers", "2",
         "--db", LAB_DB],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=folder)
    deadline = time.time() + 30
    while time.time() < deadline:
        if process.poll() is not None:
            return process, process.stdout.read()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process, ""
        except OSError:
            time.sleep(0.1)
    return process, "the server did not listen within 30 s"


def main():
    parser = served_page.arguments(__doc__.split("\n")[0], "save the stepped-through kernel's screenshot here (PNG)")
    parser.add_argument("--lecture-screenshot", help="save the Editor in the lecture layout here (PNG)")
    args = parser.parse_args()
    missing = served_page.missing_page_browser_or_serve(args, "--token")
    if missing is not None:
        return missing

    # The page and the teacher's exercise files in one folder, as served.
    scratch, web = served_page.scratch_page(args.web, "tilescope-served-page-")
    for path in (GOOD, BROKEN, RACY):
        shutil.copy(path, web)
    port = free_port()
    server, failed = start_server(args.tilescope, web, port)
    failures = Failures()
    profile = os.path.join(scratch, "profile")
    browser = None
    try:
        if failed:
            failures.check(False, "tilescope serve did not start: " + failed)
            raise SystemExit
        browser = Browser.page(args.chromium, profile)
        base = f"http://127.0.0.1:{port}/index.html?probe=1&select=0,0&show=editor,problems"

        # A file that does not compile: marked at the compiler's line.
        line = expected_line(BROKEN)
        started = time.time()
        browser.call("Page.navigate", url=f"{base}&open={os.path.basename(BROKEN)}#token={TOKEN}")
        lay = wait_for(browser, "the broken kernel's error line", lambda l: item(l, "editor.error.line"))
        failures.check(text_of(lay, "editor.error.line") == str(line),
                       f"the Editor marks line {text_of(lay, 'editor.error.line')}, the compiler names {line}")
        failures.check(lay.get("served", "") != "", f"the page found its server ({lay.get('served')!r})")
        print(f"broken kernel: line {text_of(lay, 'editor.error.line')} marked, "
              f"{time.time() - started:.1f} s after the page was asked for", flush=True)

        # A right kernel: said right, and stepped through as the built-in one.
        started = time.time()
        browser.call("Page.navigate", url=f"{base}&open={os.path.basename(GOOD)}")
        lay = wait_for(browser, "the right kernel's verdict and step-through",
                       lambda l: "right" in text_of(l, "editor.verdict") and l.get("settled")
                       and item(l, "grid.cell0") and item(l, "threads.cell0"))
        print(f"right kernel: {text_of(lay, 'editor.verdict')!r}, {time.time() - started:.1f} s", flush=True)
        browser.call("Input.dispatchMouseEvent", type="mouseMoved", x=WIDTH // 2, y=HEIGHT - 5)
        browser.key("Home", "Home", 36)
        time.sleep(0.3)
        info = step_info(layout(browser))
        failures.check(info is not None and info[0] == 0, f"Home goes to step 0 ({info})")
        info, presses = step_into_computing(browser, failures, info)
        failures.check(info is not None and info[2] >= 1, f"→ reached the computing phase ({info})")
        time.sleep(0.3)
        lay = layout(browser)
        shot = browser.screenshot()
        if args.screenshot:
            shot.save(args.screenshot)
        ghosts, halos = check_corner_block(failures, shot, lay)
        off, computing = check_threads(failures, shot, lay)
        print(f"right kernel stepped {presses} steps: {ghosts} ghost cells, {halos} halo cells banded, "
              f"{off} threads switched off, {computing} computing", flush=True)

        # The race: in the Problems panel.
        browser.call("Page.navigate", url=f"{base}&open={os.path.basename(RACY)}")
        lay = wait_for(browser, "the race in the Problems panel",
                       lambda l: l.get("settled") and "race" in text_of(l, "problems.summary").lower())
        rows = [e["text"] for e in lay.get("items", []) if e["name"].startswith("problems.row.")]
        failures.check(any("N_ds" in r for r in rows), f"a problem row names N_ds ({rows[:3]})")
        print(f"racy kernel: {text_of(lay, 'problems.summary')!r}; first row {rows[:1]}", flush=True)
        # Marked in the Editor at its lines too.
        lay = wait_for(browser, "the race marked in the Editor",
                       lambda l: len([e for e in l.get("items", []) if e["name"].startswith("editor.marker.")]) >= 2,
                       timeout=20)
        marks = [e["name"] for e in lay.get("items", []) if e["name"].startswith("editor.marker.")]
        failures.check(len(marks) >= 2, f"the Editor marks the race at its lines ({marks})")

        # The Editor's copy and paste, through the system clipboard (tests/web/page_test.py).
        check_clipboard(browser, failures, f"http://127.0.0.1:{port}")

        # A reload without a link: the kernel open last, from the browser's storage.
        time.sleep(3.0)  # the storage is written back every 2 s (app/web/page.js)
        browser.call("Page.navigate", url=f"http://127.0.0.1:{port}/index.html?probe=1&show=editor")
        lay = wait_for(browser, "the kernel open last, after a reload",
                       lambda l: text_of(l, "editor.file").endswith(os.path.basename(RACY)), timeout=60)
        print(f"after a reload the Editor has {text_of(lay, 'editor.file')}", flush=True)

        # The Editor in the lecture layout, on a projector's screen.
        check_lecture_editor(browser, failures, f"http://127.0.0.1:{port}/index.html?probe=1&select=0,0&show=editor",
                             args.lecture_screenshot)
    except SystemExit:
        pass
    except Exception as error:
        failures.check(False, f"{type(error).__name__}: {error}")
    finally:
        served_page.close_browser(browser, failures)
        server.terminate()
        try:
            log, _ = server.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            log, _ = server.communicate()
        # Every request the page sent carries a key of its own (app/web/main.cpp), so that one passed on by
        # nginx to another server is recorded once.
        try:
            with sqlite3.connect(LAB_DB) as db:
                keys = [row[0] for row in db.execute("SELECT request_key FROM checks")]
            failures.check(len(keys) >= 3 and all((k or "").startswith("page-") for k in keys) and
                           len(set(keys)) == len(keys),
                           f"each of the page's {len(keys)} recorded requests has its own key ({keys[:3]})")
        except sqlite3.Error as error:
            failures.check(False, f"the lab's record could not be read: {error}")
        if failures.messages:
            print("the server's log:\n  " + "\n  ".join((log or "").splitlines()[-30:]))
        shutil.rmtree(scratch, ignore_errors=True)
        if LAB_DB:
            shutil.rmtree(os.path.dirname(LAB_DB), ignore_errors=True)
    return failures.finish("served page test")


if __name__ == "__main__":
    sys.exit(main())
