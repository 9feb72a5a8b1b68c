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
- the kernel open last comes back after a reload (the browser's storage).

  tests/web/served_page_test.py --tilescope build/app/tilescope [--web build-web/web] [--chromium chromium]

Exits 0 when every check passes, 1 otherwise, 77 when no browser can be
started or the program has no `serve` (built without cpp-httplib).
"""
import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from page_test import (HEIGHT, WIDTH, Browser, Failures, check_clipboard, check_corner_block,  # noqa: E402
                       check_threads, item, layout, missing_page_or_browser, step_info, step_into_computing)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OWN = os.path.join(ROOT, "tests", "own")
GOOD = os.path.join(OWN, "good", "conv2d_tiled_student.cu")
BROKEN = os.path.join(OWN, "broken", "syntax_missing_semicolon.cu")
RACY = os.path.join(OWN, "broken", "missing_syncthreads.cu")
TOKEN = "served-page-test-token"


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
    deadline = time.time() + timeout
    lay = {}
    while time.time() < deadline:
        lay = layout(browser)
        if predicate(lay):
            return lay
        time.sleep(0.1)
    shown = {e["name"]: e.get("text") for e in lay.get("items", []) if e["name"].startswith(("editor.", "problems."))}
    raise RuntimeError(f"{what}: not within {timeout} s (the editor and problems showed {shown})")


def text_of(lay, name):
    entry = item(lay, name)
    return entry["text"] if entry else ""


def start_server(tilescope, web, port):
    process = subprocess.Popen(
        [tilescope, "serve", "--host", "127.0.0.1", "--port", str(port), "--token", TOKEN, "--web", web,
         "--sandbox", "auto", "--burst", "200", "--rate", "600", "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tilescope", required=True)
    parser.add_argument("--web", default=os.path.join(ROOT, "build-web", "web"))
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    parser.add_argument("--screenshot", help="save the stepped-through kernel's screenshot here (PNG)")
    args = parser.parse_args()
    missing = missing_page_or_browser(args)
    if missing is not None:
        return missing
    probe = subprocess.run([args.tilescope, "serve", "--help"], capture_output=True, text=True)
    if "--token" not in probe.stdout:
        print("SKIPPED: this tilescope has no serve (built without cpp-httplib)")
        return 77

    # The page and the teacher's exercise files in one folder, as served.
    scratch = tempfile.mkdtemp(prefix="tilescope-served-page-")
    web = os.path.join(scratch, "web")
    shutil.copytree(args.web, web)
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
    except SystemExit:
        pass
    except Exception as error:
        failures.check(False, f"{type(error).__name__}: {error}")
    finally:
        if browser:
            if failures.messages and browser.console:
                print("the page's console:\n  " + "\n  ".join(browser.console[-30:]))
            browser.close()
        server.terminate()
        try:
            log, _ = server.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            log, _ = server.communicate()
        if failures.messages:
            print("the server's log:\n  " + "\n  ".join((log or "").splitlines()[-30:]))
        shutil.rmtree(scratch, ignore_errors=True)
    return failures.finish("served page test")


if __name__ == "__main__":
    sys.exit(main())
