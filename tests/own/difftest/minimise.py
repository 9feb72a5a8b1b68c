#!/usr/bin/env python3
"""Shrinks a kernel file that run.py reports (a disagreement, a refusal) to
fewer lines that still fail the same way: greedily drops single lines and
whole { } blocks, keeping each removal after which the file still builds
for the reference and still fails as before.

    minimise.py --tilescope build/app/tilescope KERNEL.cu [-o SMALL.cu] [--mode cpu|nvcc]

The result usually needs a last hand edit (names, the expected values); it
keeps the `// difftest:` header. Standard library only.
"""

import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402


def status_of(text, settings, drivers, name):
    meta, tags, expect = run.parse_header(text)
    r = run.run_job((run.Job(name, text, meta, tags, []), settings, drivers))
    return r


def same_failure(a, b):
    if a["status"] != b["status"]:
        return False
    if a["status"] == "refused":
        # the same reason, wherever the line now is
        return a["message"].split(": ", 3)[-1] == b["message"].split(": ", 3)[-1]
    return True


def blocks(lines):
    """(start, end) line spans to try removing: each { ... } block with its header (an if with its
    else), then each single line; larger spans first."""
    spans = []
    stack = []
    for i, line in enumerate(lines):
        s = line.strip()
        if s.startswith("}") and stack:
            start = stack.pop()
            if s.startswith("} else"):
                stack.append(start)  # the else goes on: the whole if-else is one span
                continue
            spans.append((start, i))
            # the part before an else on its own
        elif s.endswith("{"):
            stack.append(i)
    for i, line in enumerate(lines):
        s = line.strip()
        if s and not s.startswith("//") and not s.endswith("{") and not s.startswith("}"):
            spans.append((i, i))
    spans.sort(key=lambda se: -(se[1] - se[0]))
    return spans


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tilescope", required=True)
    p.add_argument("--mode", choices=("cpu", "threads", "nvcc"), default="cpu")
    p.add_argument("--backend", choices=("cpu", "cuda"), default="cpu")
    p.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    p.add_argument("--nvcc", default="nvcc")
    p.add_argument("-o", "--output")
    p.add_argument("file")
    opts = p.parse_args()

    env = dict(os.environ)
    if "TILESCOPE_WORKER" not in env:
        guess = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(opts.tilescope))), "tilescope-worker")
        if os.path.exists(guess):
            env["TILESCOPE_WORKER"] = guess
    work = tempfile.mkdtemp(prefix="tilescope-minimise-")
    # Every candidate is also checked by `tilescope check`: a removal that leaves a race or a read of
    # shared memory nobody wrote (a barrier, a first store removed) fails for another reason.
    settings = {"mode": opts.mode, "backend": opts.backend, "tilescope": os.path.abspath(opts.tilescope), "env": env,
                "work": work, "cxx": opts.cxx, "nvcc": opts.nvcc, "check": True}
    drivers = run.build_drivers(settings, work)
    with open(opts.file) as f:
        text = f.read()
    first = status_of(text, settings, drivers, "original")
    if first["status"] == "agree":
        sys.exit("minimise.py: %s agrees; nothing to minimise" % opts.file)
    print("failure: %s %s" % (first["status"], first["message"]))
    lines = text.split("\n")
    tries = 0
    changed = True
    while changed:
        changed = False
        for (a, b) in blocks(lines):
            if a >= len(lines) or lines[a].strip().startswith("// difftest"):
                continue
            candidate = lines[:a] + lines[b + 1:]
            tries += 1
            r = status_of("\n".join(candidate), settings, drivers, "try%d" % tries)
            if same_failure(r, first):
                lines = candidate
                changed = True
                print("  %d lines" % len(lines))
                break
    result = "\n".join(lines)
    if opts.output:
        with open(opts.output, "w") as f:
            f.write(result)
    else:
        sys.stdout.write(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
