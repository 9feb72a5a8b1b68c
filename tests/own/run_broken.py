#!/usr/bin/env python3
"""Runs tilescope on one kernel file (--kernel-file) and checks what it says.

The expectations are the file's first comment lines:

    // expect-exit: 2                       the exit status
    // expect-output: foo.cu:21:            a substring of stdout + stderr (one or more)
    // expect-no-output: out of bounds      a substring that must not appear (any number)
    // expect-output-lines: 1               how many non-empty lines stdout + stderr hold
    // expect-output-any: line 28|line 29   one of these substrings (where the place varies from run to run)
    // expect-args: check --size 64x48 --radius 1
    // expect-max-seconds: 10               the whole command, start to end

Without expect-args the command is `check --size 64x48 --radius 1` for a 2D
kernel and `check --size 1000 --radius 1` for a 1D one (its launch() takes
five parameters). The options below add to these or replace them, for files
that cannot carry them (a good kernel, a file that does not exist, a folder,
an empty file).

In the arguments, {tmp} is a fresh folder, {source} the project's root, and
{mask:R} (a square mask) or {mask1d:R} (a row) of radius R the path of a mask
file written into {tmp}.

tilescope runs in the kernel file's folder with the file's bare name, as a
student runs it, so the messages name the file as `name.cu:LINE`.

--sandbox MODE runs it behind that sandbox ($TILESCOPE_SANDBOX: off, auto or
required), and --no-bwrap as on a machine without bubblewrap
($TILESCOPE_BWRAP naming a program that is not there), where auto takes
Landlock and seccomp.

Standard library only. Exit status 0 when every expectation holds, else 1.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEYS = ("expect-exit", "expect-output", "expect-output-any", "expect-no-output", "expect-output-lines", "expect-args",
        "expect-max-seconds")


def read_header(text):
    """The expectations in the file's leading // comment lines."""
    found = {}
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("//"):
            break
        body = stripped[2:].strip()
        for key in KEYS:
            if body.startswith(key + ":"):
                found.setdefault(key, []).append(body[len(key) + 1:].strip())
    return found


def is_1d(text):
    """True when the file's launch() takes five parameters (N, M, P, r, width)."""
    m = re.search(r"\bvoid\s+launch\s*\(([^)]*)\)", text)
    return bool(m) and m.group(1).count(",") == 4


def mask_values(count):
    # Distinct, not symmetric, summing to about 1: a flipped or transposed
    # mask gives a different result.
    return [(i + 1) * 2.0 / (count * (count + 1)) for i in range(count)]


def write_mask(folder, radius, square):
    width = 2 * radius + 1
    values = mask_values(width * width if square else width)
    path = os.path.join(folder, "mask%s_r%d.txt" % ("" if square else "1d", radius))
    with open(path, "w") as f:
        rows = width if square else 1
        for r in range(rows):
            f.write(" ".join("%.9g" % v for v in values[r * width:(r + 1) * width]) + "\n")
    return path


def expand(argument, tmp):
    argument = argument.replace("{tmp}", tmp).replace("{source}", SOURCE_DIR)
    argument = re.sub(r"\{mask:(\d+)\}", lambda m: write_mask(tmp, int(m.group(1)), True), argument)
    argument = re.sub(r"\{mask1d:(\d+)\}", lambda m: write_mask(tmp, int(m.group(1)), False), argument)
    return argument


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tilescope", required=True, help="the tilescope binary")
    p.add_argument("--args", help="the command before --kernel-file (replaces expect-args)")
    p.add_argument("--expect-exit", type=int)
    p.add_argument("--expect-output", action="append", default=[])
    p.add_argument("--expect-no-output", action="append", default=[])
    p.add_argument("--expect-output-lines", type=int)
    p.add_argument("--max-seconds", type=float)
    p.add_argument("--max-difference", type=float,
                   help="the largest difference from the reference that `run` prints must be at most this")
    p.add_argument("--empty", action="store_true", help="give tilescope an empty file of this name instead")
    p.add_argument("--sandbox", choices=("off", "auto", "required"), help="the sandbox to run it behind")
    p.add_argument("--no-bwrap", action="store_true", help="as on a machine without bubblewrap")
    p.add_argument("file", help="the kernel file (or the name tilescope is given)")
    opts = p.parse_args()

    tmp = tempfile.mkdtemp(prefix="tilescope-own-")
    try:
        return run(opts, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# The note Auto writes where its wall is weaker than bubblewrap ("... run
# without a sandbox", "... run behind Landlock ...").
NO_SANDBOX_NOTE = "tilescope: note: kernel files run "


def run(opts, tmp):
    path = opts.file
    if opts.empty:
        path = os.path.join(tmp, os.path.basename(path))
        open(path, "w").close()
    text = ""
    if os.path.isfile(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    header = read_header(text)

    args = opts.args
    if args is None:
        args = header.get("expect-args", [None])[-1]
    if args is None:
        args = "check --size %s --radius 1" % ("1000" if is_1d(text) else "64x48")
    exit_code = opts.expect_exit
    if exit_code is None and "expect-exit" in header:
        exit_code = int(header["expect-exit"][-1])
    outputs = header.get("expect-output", []) + opts.expect_output
    absent = header.get("expect-no-output", []) + opts.expect_no_output
    lines = opts.expect_output_lines
    if lines is None and "expect-output-lines" in header:
        lines = int(header["expect-output-lines"][-1])
    max_seconds = opts.max_seconds
    if max_seconds is None and "expect-max-seconds" in header:
        max_seconds = float(header["expect-max-seconds"][-1])
    if exit_code is None:
        print("%s: no expectation (// expect-exit: N in the file's first lines, or --expect-exit)" % path)
        return 1

    # Run where the file is, with its bare name, as a student would.
    bare = path.rstrip("/") or path
    folder, name = os.path.dirname(os.path.abspath(bare)), os.path.basename(bare)
    if not os.path.isdir(folder):
        folder, name = os.getcwd(), path
    command = [os.path.abspath(opts.tilescope)] + [expand(a, tmp) for a in shlex.split(args)] + ["--kernel-file", name]
    # The CPU executor, also on a machine with a GPU: it is where a crash or
    # an endless loop is caught and named, which is what these files test.
    if "--backend" not in command and command[1:2] != ["bench"]:
        command += ["--backend", "cpu"]
    settings = (["TILESCOPE_SANDBOX=" + opts.sandbox] if opts.sandbox else []) + (
        ["TILESCOPE_BWRAP=" + os.path.join(tmp, "no-bwrap-here")] if opts.no_bwrap else [])
    print("$ (cd %s && %s)" % (shlex.quote(folder), " ".join(settings + [shlex.quote(c) for c in command])))

    env = dict(os.environ)
    if opts.sandbox:
        env["TILESCOPE_SANDBOX"] = opts.sandbox
    if opts.no_bwrap:
        env["TILESCOPE_BWRAP"] = os.path.join(tmp, "no-bwrap-here")
    limit = (max_seconds + 20) if max_seconds else 300
    start = time.monotonic()
    try:
        done = subprocess.run(command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=limit,
                              env=env)
    except subprocess.TimeoutExpired:
        print("FAIL: still running after %g s (killed)" % limit)
        return 1
    seconds = time.monotonic() - start
    out = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
    shown = out if len(out) <= 6000 else out[:3000] + "\n[...]\n" + out[-3000:]
    print(shown.rstrip("\n"))
    print("-- exit status %d after %.2f s" % (done.returncode, seconds))

    failures = []
    if done.returncode < 0:
        failures.append("tilescope itself was killed by signal %d" % -done.returncode)
    if done.returncode != exit_code:
        failures.append("exit status %d, expected %d" % (done.returncode, exit_code))
    for s in outputs:
        if s not in out:
            failures.append("the output lacks %r" % s)
    for alternatives in header.get("expect-output-any", []):
        if not any(a in out for a in alternatives.split("|")):
            failures.append("the output holds none of %r" % alternatives)
    for s in absent:
        if s in out:
            failures.append("the output holds %r, which it should not" % s)
    if lines is not None:
        # Where no sandbox can be had (bubblewrap missing), the program says
        # so once, in a line of its own that is no part of the answer.
        count = len([l for l in out.splitlines() if l.strip() and not l.startswith(NO_SANDBOX_NOTE)])
        if count != lines:
            failures.append("the output is %d lines, expected %d" % (count, lines))
    if max_seconds is not None and seconds > max_seconds:
        failures.append("took %.2f s, expected at most %g s" % (seconds, max_seconds))
    if opts.max_difference is not None:
        m = re.search(r"largest difference from the [\w-]+ reference ([-+0-9.eE]+|nan|inf)", out)
        if not m:
            failures.append("the output names no largest difference from the reference")
        else:
            value = float(m.group(1))
            if not value <= opts.max_difference:  # also catches nan
                failures.append("largest difference %g, expected at most %g" % (value, opts.max_difference))

    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print("ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
