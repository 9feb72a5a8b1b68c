"""What the tests of the page served by `tilescope serve` share
(served_page_test.py, class_page_test.py): their command line, the checks that
the page, the browser and the program's `serve` are there, the page copied
into a scratch folder the server serves, waiting on the page's layout, and the
browser closed with its console said when a check failed."""
import argparse
import os
import shutil
import subprocess
import tempfile
import time

from page_test import layout, missing_page_or_browser

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def arguments(description, screenshot_help):
    """The parser of --tilescope, --web, --chromium and --screenshot."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--tilescope", required=True)
    parser.add_argument("--web", default=os.path.join(ROOT, "build-web", "web"))
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    parser.add_argument("--screenshot", help=screenshot_help)
    return parser


def missing_page_browser_or_serve(args, flag):
    """The exit status when the page or the browser is missing (1 or 77), or
    the program has no `serve` with `flag` (77, built without cpp-httplib);
    else None."""
    missing = missing_page_or_browser(args)
    if missing is not None:
        return missing
    probe = subprocess.run([args.tilescope, "serve", "--help"], capture_output=True, text=True)
    if flag not in probe.stdout:
        print("SKIPPED: this tilescope has no serve (built without cpp-httplib)")
        return 77
    return None


def scratch_page(web, prefix):
    """A scratch folder with a copy of the page in its web/: (scratch, web)."""
    scratch = tempfile.mkdtemp(prefix=prefix)
    copy = os.path.join(scratch, "web")
    shutil.copytree(web, copy)
    return scratch, copy


def wait_for(browser, what, predicate, timeout=120, shown=None):
    """Polls the page's layout until predicate(layout) holds; returns that
    layout. On a timeout the error says `what`, and what shown(layout) says."""
    deadline = time.time() + timeout
    lay = {}
    while time.time() < deadline:
        lay = layout(browser)
        if predicate(lay):
            return lay
        time.sleep(0.1)
    raise RuntimeError(f"{what}: not within {timeout} s" + (f" ({shown(lay)})" if shown else ""))


def close_browser(browser, failures):
    """Closes the browser, saying its console's last lines when a check failed."""
    if not browser:
        return
    if failures.messages and browser.console:
        print("the page's console:\n  " + "\n  ".join(browser.console[-30:]))
    browser.close()
