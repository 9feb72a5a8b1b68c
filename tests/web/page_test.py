#!/usr/bin/env python3
"""The browser build in a real browser: headless Chromium loads the page from
a local web server and this script checks, by pixel colour, what the desktop
UI tests check (tests/ui_test.cpp): the corner block of conv2d_tiled_in with
its ghost cells and its halo ring, its edge threads switched off while the
others compute, the legend, and stepping by the keyboard. It also measures
what docs/performance.md reports for the page: the time from the page's load
to the first result, and the frame rate while stepping.

  tests/web/page_test.py [--web build-web/web] [--chromium chromium] [--report FILE]

The oracle is the book's geometry (section 7.5, 4th edition), worked out here
and not read from the app: the demo runs conv2d_tiled_in with a 5x5 mask
(r = 2) on 16x16 blocks over a 64x64 image, so IN_TILE_DIM = 16, OUT_TILE_DIM
= 12, and block (0,0) loads input rows and columns -2..13: those at -2 and -1
are ghost cells (16*16 - 14*14 = 60 of them), 12 and 13 the halo, and the
threads with tx or ty < 2 or >= 14 are switched off once the tile is loaded
(16*16 - 12*12 = 112 of them).

Needs python3-websocket and python3-pil (Debian); exits 0 when every check
passes, 1 otherwise, 77 when no browser can be started (skipped).
"""
import argparse
import base64
import functools
import http.server
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import websocket  # python3-websocket
from PIL import Image  # python3-pil

WIDTH, HEIGHT = 1600, 900

# The everyday palette (app/ui/theme.cpp: Okabe-Ito), as in tests/ui_test.cpp.
GHOST = (0xCC, 0x79, 0xA7)
HALO = (0xE6, 0x9F, 0x00)
SWITCHED_OFF = (0x8C, 0x8C, 0x8C)
COMPUTING = (0x00, 0x9E, 0x73)

R, IN_TILE = 2, 16
OUT_TILE = IN_TILE - 2 * R


class Failures:
    def __init__(self):
        self.messages = []

    def check(self, ok, message):
        if not ok:
            self.messages.append(message)
            print("FAILED: " + message, flush=True)
        return ok

    def finish(self, what):
        """The exit status, said in a line: 0 when every check passed."""
        if self.messages:
            print(f"{len(self.messages)} check(s) failed")
            return 1
        print(f"{what}: every check passed")
        return 0


def near(a, b, tolerance=12):
    return all(abs(int(x) - int(y)) <= tolerance for x, y in zip(a[:3], b[:3]))


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript", ".data": "application/octet-stream"}

    def log_message(self, *args):
        pass


def serve(folder):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(QuietHandler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Browser:
    """Headless Chromium, driven through the DevTools protocol."""

    def __init__(self, chromium, profile):
        self.process = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu-sandbox", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--use-angle=swiftshader",
             "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist", "--remote-debugging-port=0",
             f"--user-data-dir={profile}", f"--window-size={WIDTH},{HEIGHT}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        endpoint = None
        deadline = time.time() + 60
        while time.time() < deadline and endpoint is None:
            line = self.process.stderr.readline()
            if not line:
                if self.process.poll() is not None:
                    break
                continue
            match = re.search(r"DevTools listening on (ws://\S+)", line)
            if match:
                endpoint = match.group(1)
        if endpoint is None:
            raise RuntimeError("Chromium did not start its DevTools endpoint")
        threading.Thread(target=self._drain, daemon=True).start()
        port = re.search(r":(\d+)/", endpoint).group(1)
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(t for t in targets if t["type"] == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=120,
                                                  suppress_origin=True)
        self.next_id = 0
        self.console = []

    @classmethod
    def page(cls, chromium, profile):
        """A browser with its page's events on, at the tests' size."""
        browser = cls(chromium, profile)
        browser.call("Page.enable")
        browser.call("Runtime.enable")
        browser.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT, deviceScaleFactor=1,
                     mobile=False)
        return browser

    def _drain(self):
        for _ in self.process.stderr:
            pass

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("method") == "Runtime.consoleAPICalled":
                self.console.append(" ".join(str(a.get("value", "")) for a in message["params"]["args"]))
            elif message.get("method") == "Runtime.exceptionThrown":
                details = message["params"]["exceptionDetails"]
                self.console.append("exception: " + details.get("exception", {}).get("description", details["text"]))
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        return Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")

    def key(self, key, code, keycode):
        for kind in ("rawKeyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code, windowsVirtualKeyCode=keycode,
                      nativeVirtualKeyCode=keycode)

    def close(self):
        try:
            self.socket.close()
        finally:
            self.process.kill()
            self.process.wait()


def click(browser, x, y):
    for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
        browser.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
        time.sleep(0.05)


def chord(browser, key, code, keycode, commands=()):
    """Ctrl+key, with the editing command Chromium runs for it ("copy",
    "paste"): the browser's own clipboard events come with it. Ctrl goes down
    first, as a hand presses it (GLFW reads the modifier keys' own state)."""
    def send(kind, k, c, kc, **extra):
        browser.call("Input.dispatchKeyEvent", type=kind, key=k, code=c, windowsVirtualKeyCode=kc,
                     nativeVirtualKeyCode=kc, **extra)
    send("rawKeyDown", "Control", "ControlLeft", 17, modifiers=2)
    send("rawKeyDown", key, code, keycode, modifiers=2, commands=list(commands))
    send("keyUp", key, code, keycode, modifiers=2)
    send("keyUp", "Control", "ControlLeft", 17)


def check_clipboard(browser, failures, origin):
    """The Editor's copy and paste go through the system clipboard: Ctrl+C puts
    the selected line there (read back with navigator.clipboard), and text put
    there by another program comes in with Ctrl+V. Needs the Editor showing a
    file, its lines in the layout (editor.line.N)."""
    browser.call("Browser.grantPermissions", origin=origin,
                 permissions=["clipboardReadWrite", "clipboardSanitizedWrite"])
    # The clipboard is a focused page's: a headless one has no window to focus.
    browser.call("Emulation.setFocusEmulationEnabled", enabled=True)
    lay = layout(browser)
    lines = sorted(int(e["name"].split(".")[-1]) for e in lay.get("items", []) if e["name"].startswith("editor.line."))
    if not lines:
        failures.check(False, "the Editor shows no lines to copy")
        return
    n = lines[len(lines) // 2]
    line = item(lay, f"editor.line.{n}")
    x0, y0, x1, y1 = line["rect"]
    scale = lay.get("scale", 1.0) or 1.0
    click(browser, (x0 + 4) / scale, (y0 + y1) / 2 / scale)
    time.sleep(0.2)
    # Ctrl+C with no selection copies the cursor's line (the editor's rule).
    chord(browser, "c", "KeyC", 67, commands=["copy"])
    time.sleep(0.5)
    copied = browser.evaluate("navigator.clipboard.readText()") or ""
    failures.check(copied.strip() == line["text"].strip(),
                   f"Ctrl+C put line {n} on the system clipboard ({copied!r}, the line is {line['text']!r})")
    # Another program's text, pasted at the start of that line.
    browser.evaluate("navigator.clipboard.writeText('/* pasted */ ')")
    click(browser, (x0 + 1) / scale, (y0 + y1) / 2 / scale)
    browser.key("Home", "Home", 36)
    time.sleep(0.2)
    chord(browser, "v", "KeyV", 86, commands=["paste"])
    time.sleep(0.5)
    pasted = text_of_item(layout(browser), f"editor.line.{n}")
    failures.check(pasted.lstrip().startswith("/* pasted */") or "/* pasted */" in pasted,
                   f"Ctrl+V pasted the system clipboard into line {n} ({pasted!r})")
    print(f"clipboard: copied {copied.strip()!r}, pasted into line {n}: {pasted!r}", flush=True)


def text_of_item(lay, name):
    entry = item(lay, name)
    return entry.get("text", "") if entry else ""


def layout(browser):
    text = browser.evaluate("typeof Module !== 'undefined' && Module.calledRun ? "
                            "Module.UTF8ToString(Module._tilescope_layout()) : '{}'")
    return json.loads(text or "{}")


def item(lay, name):
    for entry in reversed(lay.get("items", [])):
        if entry["name"] == name:
            return entry
    return None


def wait_settled(browser, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        lay = layout(browser)
        if lay.get("settled") and item(lay, "grid.cell0") and item(lay, "threads.cell0"):
            return lay
        time.sleep(0.05)
    raise RuntimeError("the page did not show its first result in %d s" % timeout)


def step_info(lay):
    """(step, steps, phase) from the stepping bar's probe record."""
    entry = item(lay, "trace.step")
    if not entry:
        return None
    step, steps, phase, _phases = (int(v) for v in entry["text"].split())
    return step, steps, phase


def press_and_wait(browser, key, code, keycode, before):
    """Presses a key and waits (up to 0.5 s) for the stepping bar to leave step `before`."""
    browser.key(key, code, keycode)
    info = None
    for _ in range(100):
        info = step_info(layout(browser))
        if info and info[0] != before:
            break
        time.sleep(0.005)
    return info


def step_into_computing(browser, failures, info):
    """From step 0, → until the first step of phase 1 (after the barrier that
    ends the tile load), then three steps more (as the desktop test's
    computeStep), checking that each press moves one step. Returns the
    stepping bar's (step, steps, phase) and the presses."""
    presses, extra = 0, 3
    while info and presses < 400 and (info[2] < 1 or extra > 0):
        if info[2] >= 1:
            extra -= 1
        before = info[0]
        info = press_and_wait(browser, "ArrowRight", "ArrowRight", 39, before)
        presses += 1
        if not failures.check(info and info[0] == before + 1, f"→ moved from step {before} to {info and info[0]}"):
            break
    return info, presses


def check_corner_block(failures, shot, lay):
    cell0 = item(lay, "grid.cell0")["rect"]
    view = item(lay, "grid.view")["rect"]
    cell = cell0[2] - cell0[0]
    failures.check(cell >= 8, f"the grid zooms to the selected block (a cell is {cell:.1f} pixels)")

    def at(x, y, u, v):
        return cell0[0] + (x + u) * cell, cell0[1] + (y + v) * cell

    def visible(p):
        return view[0] < p[0] < view[2] and view[1] < p[1] < view[3]

    ghosts = halos = internal = 0
    for y in range(-R, IN_TILE - R):
        for x in range(-R, IN_TILE - R):
            if x < 0 or y < 0:  # outside the image: a ghost cell, stored as 0
                p = at(x, y, 0.3, 0.5)
                if failures.check(visible(p), f"ghost cell {x},{y} is in view"):
                    seen = shot.getpixel((int(p[0]), int(p[1])))
                    ghosts += failures.check(near(seen, GHOST), f"ghost cell {x},{y} is {seen}, not the ghost colour")
            elif (x >= OUT_TILE or y >= OUT_TILE) and 1 <= y < OUT_TILE - 1:
                # the halo band, at the cell's bottom edge (away from the tiles' outlines)
                p = at(x, y, 0.5, 0.86)
                if failures.check(visible(p), f"halo cell {x},{y} is in view"):
                    seen = shot.getpixel((int(p[0]), int(p[1])))
                    halos += failures.check(near(seen, HALO), f"halo cell {x},{y} is {seen}, not the halo colour")
            elif 3 <= x < 10 and 3 <= y < 10:
                p = at(x, y, 0.5, 0.86)
                seen = shot.getpixel((int(p[0]), int(p[1])))
                internal += failures.check(not near(seen, HALO, 30), f"internal cell {x},{y} has the halo colour")
    failures.check(ghosts == IN_TILE * IN_TILE - (IN_TILE - R) ** 2,
                   f"{ghosts} ghost cells in the ghost colour, of the corner block's 60")
    failures.check(halos == 2 * 10, f"{halos} halo cells banded, of 20")
    return ghosts, halos


def check_threads(failures, shot, lay):
    cell0 = item(lay, "threads.cell0")
    columns = int(cell0["text"])
    failures.check(columns == IN_TILE, f"the thread view has {columns} columns, not {IN_TILE}")
    x0, y0, x1, _ = cell0["rect"]
    cell = x1 - x0
    off = computing = 0
    for t in range(IN_TILE * IN_TILE):
        tx, ty = t % IN_TILE, t // IN_TILE
        seen = shot.getpixel((int(x0 + (tx + 0.3) * cell), int(y0 + (ty + 0.35) * cell)))
        edge = tx < R or tx >= IN_TILE - R or ty < R or ty >= IN_TILE - R
        if edge:
            off += failures.check(near(seen, SWITCHED_OFF), f"edge thread {tx},{ty} is {seen}, not switched off")
        else:
            failures.check(not near(seen, SWITCHED_OFF), f"inner thread {tx},{ty} is drawn switched off")
            computing += near(seen, COMPUTING)
    failures.check(off == IN_TILE * IN_TILE - OUT_TILE * OUT_TILE, f"{off} edge threads switched off, of 112")
    failures.check(computing > 0, "some inner threads are computing")
    return off, computing


def check_legend(failures, shot, lay):
    swatches = {e["text"]: e["rect"] for e in lay.get("items", []) if e["name"] == "legend.swatch"}
    for word, colour in (("ghost", GHOST), ("halo", HALO), ("switched off", SWITCHED_OFF)):
        label = next((t for t in swatches if word in t.lower()), None)
        if not failures.check(label is not None, f"the legend has a swatch for {word} (it has {sorted(swatches)})"):
            continue
        x0, y0, x1, y1 = swatches[label]
        inside = [shot.getpixel((int(x0 + (x1 - x0) * u), int(y0 + (y1 - y0) * 0.5))) for u in (0.25, 0.5, 0.75)]
        failures.check(any(near(p, colour, 16) for p in inside),
                       f"the legend's {word} swatch ({label}) is {inside}, not {colour}")


def missing_page_or_browser(args):
    """The exit status when args.web holds no page (1) or no Chromium is found (77, skipped); else None."""
    if not os.path.isfile(os.path.join(args.web, "index.html")):
        print(f"no page in {args.web}: build it first (scripts/bootstrap.sh web)")
        return 1
    if not args.chromium:
        print("SKIPPED: no Chromium (Debian: chromium)")
        return 77
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--web", default=os.path.join(root, "build-web", "web"))
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    parser.add_argument("--report", help="write the measured numbers here (JSON)")
    parser.add_argument("--screenshot", help="save the checked screenshot here (PNG)")
    args = parser.parse_args()
    missing = missing_page_or_browser(args)
    if missing is not None:
        return missing

    failures = Failures()
    server = serve(args.web)
    profile = tempfile.mkdtemp(prefix="tilescope-chromium-")
    browser = None
    report = {}
    try:
        browser = Browser.page(args.chromium, profile)
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html?probe=1&select=0,0"
        start = time.time()
        browser.call("Page.navigate", url=url)
        lay = wait_settled(browser)
        report["first_result_seconds"] = round(time.time() - start, 3)
        print(f"first result {report['first_result_seconds']:.2f} s after the page was asked for", flush=True)

        # The app says, once, that it runs on the CPU executor.
        backend = item(lay, "result.backend")
        failures.check(backend is not None and "cpu" in backend["text"].lower(),
                       f"the Result panel says the CPU ran it: {backend and backend['text']!r}")

        # Stepping by the keyboard: → moves one step; step into the computing
        # phase (phase 1, after the barrier that ends the tile load).
        browser.call("Input.dispatchMouseEvent", type="mouseMoved", x=WIDTH // 2, y=HEIGHT - 5)
        info = step_info(lay)
        failures.check(info is not None, "the stepping bar is shown")
        if info and info[0] != 0:
            browser.key("Home", "Home", 36)
            time.sleep(0.2)
            info = step_info(layout(browser))
        failures.check(info is not None and info[0] == 0, f"Home goes to step 0 ({info})")
        presses, frames_start = 0, time.time()
        info, presses = step_into_computing(browser, failures, info)
        stepping = time.time() - frames_start
        report["key_steps"] = presses
        report["key_steps_per_second"] = round(presses / stepping, 1)
        print(f"{presses} steps by key in {stepping:.2f} s ({presses / stepping:.1f} a second), now {info}",
              flush=True)
        failures.check(info is not None and info[2] >= 1, f"→ reached the computing phase ({info})")

        # The frame rate standing, and while the trace plays (Space plays it
        # and stops it), over two seconds each.
        frame_rate = """new Promise(resolve => {
            let frames = 0; const start = performance.now();
            function tick(now) { frames++; if (now - start < 2000) requestAnimationFrame(tick);
                                 else resolve(frames * 1000 / (now - start)); }
            requestAnimationFrame(tick); })"""
        fps = browser.evaluate(frame_rate)
        report["standing_fps"] = round(fps, 1)
        browser.key(" ", "Space", 32)
        playing_from = step_info(layout(browser))
        report["playing_fps"] = round(browser.evaluate(frame_rate), 1)
        browser.key(" ", "Space", 32)
        played = step_info(layout(browser))
        failures.check(played and playing_from and played[0] > playing_from[0],
                       f"Space played the trace ({playing_from} to {played})")
        browser.key("Home", "Home", 36)
        for _ in range(info[0] if info else 0):
            browser.key("ArrowRight", "ArrowRight", 39)
        for _ in range(100):
            now = step_info(layout(browser))
            if now and info and now[0] == info[0]:
                break
            time.sleep(0.02)

        time.sleep(0.3)
        lay = layout(browser)
        shot = browser.screenshot()
        if args.screenshot:
            shot.save(args.screenshot)
        ghosts, halos = check_corner_block(failures, shot, lay)
        off, computing = check_threads(failures, shot, lay)
        check_legend(failures, shot, lay)
        report.update(ghosts=ghosts, halos=halos, switched_off=off, computing=computing)

        # The Charts panel: its sweep traces a block per point through the
        # fibers, from inside a panel, between two frames.
        start = time.time()
        browser.call("Page.navigate", url=url.replace("probe=1", "probe=1&charts=1"))
        time.sleep(0.5)
        lay = wait_settled(browser, timeout=240)
        points = [e for e in lay.get("items", []) if e["name"].startswith("charts.point.")]
        report["charts_seconds"] = round(time.time() - start, 2)
        failures.check(len(points) > 0, "the Charts panel drew its measured points")
        print(f"charts: {len(points)} points measured and drawn in {report['charts_seconds']:.1f} s", flush=True)

        # What this browser can show at all: a page that only clears a WebGL 2
        # canvas of the same size every frame (the ceiling for any page here;
        # headless Chromium draws WebGL with SwiftShader, on the CPU).
        browser.call("Page.navigate", url="data:text/html,<body style='margin:0'><canvas id=c width=%d height=%d>"
                     "</canvas><script>const gl=document.getElementById('c').getContext('webgl2');"
                     "function f(){gl.clearColor(Math.random(),0.2,0.3,1);gl.clear(gl.COLOR_BUFFER_BIT);"
                     "requestAnimationFrame(f)}f()</script>" % (WIDTH, HEIGHT))
        time.sleep(1.0)
        report["empty_webgl_page_fps"] = round(browser.evaluate(frame_rate), 1)
        print(f"an empty WebGL 2 page of the same size: {report['empty_webgl_page_fps']} fps in this browser",
              flush=True)
        print(f"corner block: {ghosts} ghost cells, {halos} halo cells banded; threads: {off} switched off, "
              f"{computing} computing", flush=True)
        print(f"frame rate: {report['standing_fps']} fps standing, {report['playing_fps']} fps playing the trace",
              flush=True)
    except Exception as error:  # a page that never settles, a browser that died
        failures.check(False, f"{type(error).__name__}: {error}")
    finally:
        if browser:
            if failures.messages and browser.console:
                print("the page's console:\n  " + "\n  ".join(browser.console[-30:]))
            browser.close()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    if args.report:
        with open(args.report, "w") as f:
            json.dump(report, f, indent=2)
    return failures.finish("page test")


if __name__ == "__main__":
    sys.exit(main())
