#!/usr/bin/env python3
"""Mutated kernel files through the real binary: `tilescope check --kernel-file`
on copies of the correct kernels of tests/own/good/, each changed a few times
at random (lines deleted, duplicated or swapped; tokens deleted, duplicated or
swapped; numbers changed; CUDA words inserted; a name put for another).

Whatever a mutant holds, tilescope must:
  - end with exit status 0, 1 (the check found problems) or 2 (the file, or
    what it does, is refused), never a signal, never 3 (no backend: the runs
    ask for the CPU) or 4 (an internal error, a bug);
  - at exit status 2, print one line, `tilescope: NAME.cu[:LINE[:COLUMN]]: ...`,
    naming the file and, for a compiler's error, its line (within the file);
  - never show TileScope's internal names (own_user, ElementRef, tsAddTo,
    SharedArray, ...) that the file itself does not hold;
  - leave nothing in $TMPDIR (a fresh folder for each run) nor beside the file;
  - finish: each run has a time limit (--time-limit for the kernel, and a
    wall-clock limit for the whole command).

The mutants are the same for the same --seed and --count. Failing mutants are
printed whole (they are small), and with --keep FOLDER also saved there.

Standard library only. Exit status 0 when every mutant behaved, else 1.
"""

import argparse
import concurrent.futures
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOOD_DIR = os.path.join(SOURCE_DIR, "tests", "own", "good")

# What only TileScope's inside calls things: the translator's rewriting, the
# kernel language and its prelude. A student never wrote them, so never sees them.
INTERNAL_NAMES = ("own_user", "ElementRef", "Addend", "tilescope::", "Accumulator", "InputArray", "OutputArray",
                  "tsAddTo", "tsSharedAt", "tsDynamicShared", "launchKernel", "SharedArray", "ConstantArray",
                  "Global<", "tilescope-entry", "tilescope_own", "tilescope_prelude", "own_cpu_prelude",
                  "traced_types", "TS_REFUSED", "TS_MATH1")

# Words a student's file holds, inserted where a token was.
CUDA_WORDS = ("__global__", "__device__", "__host__", "__shared__", "__constant__", "__syncthreads();",
              "__syncthreads()", "<<<", ">>>", "threadIdx.x", "threadIdx.y", "blockIdx.x", "blockIdx.y",
              "blockDim.x", "blockDim.y", "gridDim.x", "dim3", "cudaMemcpyToSymbol", "cudaDeviceSynchronize()",
              "extern", "extern \"C\"", "static", "const", "float", "int", "unsigned", "float*", "const float*",
              "&", "*", "++", "--", "+=", "=", "-", "/", "%", "?", ":", ",", ";", "{", "}", "(", ")", "[", "]",
              "return", "if", "else", "for", "while", "break", "sizeof", "0", "1", "-1", "7", "15", "1024",
              "2147483647", "\n#define X 3\n", "\n#include <cuda.h>\n", "\n#include <vector>\n", "min(", "max(",
              "atomicAdd(", "new float[4]", "printf(\"%d\\n\", 1)")

TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[fFuUlL]*)
  | (?P<name>[A-Za-z_]\w*)
  | (?P<op><<<|>>>|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\#\#|.)
""", re.VERBOSE | re.DOTALL)


NO_SANDBOX_NOTE = "tilescope: note: kernel files run "

def tokenize(text):
    """Every piece of the text, in order: (kind, text); joined, they are the text again."""
    return [(m.lastgroup, m.group()) for m in TOKEN.finditer(text)]


def code_positions(tokens):
    return [i for i, (kind, _) in enumerate(tokens) if kind not in ("space", "comment")]


def new_number(rng, old):
    digits = re.match(r"\d+", old)
    n = int(digits.group()) if digits else 1
    return str(rng.choice([0, 1, 2, n + 1, max(n - 1, 0), n * 2, n * 1000, 2147483647, 4294967296]))


def mutate_once(rng, text):
    """One random change; returns the new text and what was done."""
    lines = text.split("\n")
    what = rng.choice(["delete line", "duplicate line", "swap lines", "delete token", "duplicate token",
                       "swap tokens", "change number", "insert word", "replace name"])
    if what.endswith("line") or what == "swap lines":
        if len(lines) < 2:
            return text + "\n}", "append }"
        i = rng.randrange(len(lines))
        if what == "delete line":
            del lines[i]
        elif what == "duplicate line":
            lines.insert(i, lines[i])
        else:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            what += " %d and %d" % (i + 1, j + 1)
            return "\n".join(lines), what
        return "\n".join(lines), "%s %d" % (what, i + 1)
    tokens = tokenize(text)
    code = code_positions(tokens)
    if not code:
        return text + rng.choice(CUDA_WORDS), "append a word"
    i = rng.choice(code)
    line = text.count("\n", 0, sum(len(t) for _, t in tokens[:i])) + 1
    if what == "delete token":
        tokens[i] = ("space", " ")
    elif what == "duplicate token":
        tokens.insert(i, tokens[i])
    elif what == "swap tokens":
        j = rng.choice(code)
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif what == "change number":
        numbers = [k for k in code if tokens[k][0] == "number"]
        if numbers:
            i = rng.choice(numbers)
            line = text.count("\n", 0, sum(len(t) for _, t in tokens[:i])) + 1
            tokens[i] = ("number", new_number(rng, tokens[i][1]))
    elif what == "insert word":
        tokens.insert(i, ("op", " " + rng.choice(CUDA_WORDS) + " "))
    else:
        names = sorted({t for kind, t in tokens if kind == "name"})
        spots = [k for k in code if tokens[k][0] == "name"]
        if names and spots:
            i = rng.choice(spots)
            line = text.count("\n", 0, sum(len(t) for _, t in tokens[:i])) + 1
            tokens[i] = ("name", rng.choice(names))
    return "".join(t for _, t in tokens), "%s at line %d" % (what, line)


def make_mutants(seed, count, max_changes):
    files = sorted(glob.glob(os.path.join(GOOD_DIR, "*.cu")))
    if not files:
        sys.exit("no kernel files in %s" % GOOD_DIR)
    originals = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            originals.append((os.path.basename(path), f.read()))
    rng = random.Random(seed)
    mutants = []
    for n in range(count):
        name, text = originals[n % len(originals)]
        changes = []
        for _ in range(rng.randint(1, max_changes)):
            text, what = mutate_once(rng, text)
            changes.append(what)
        stem = os.path.splitext(name)[0]
        mutants.append(("%s_m%03d.cu" % (stem, n), name, text, changes))
    return mutants


def is_1d(name):
    return name.startswith("conv1d")


def line_count(text):
    """Lines as the compilers count them: \\n, \\r\\n and a lone \\r each end one."""
    return len(re.split(r"\r\n|\r|\n", text))


def check_one(opts, work, mutant):
    """Runs tilescope on one mutant; returns (exit status, seconds, failures, output)."""
    name, original, text, _ = mutant
    folder = os.path.join(work, os.path.splitext(name)[0])
    tmp = os.path.join(folder, "tmp")
    home = os.path.join(folder, "kernel")
    os.makedirs(tmp)
    os.makedirs(home)
    with open(os.path.join(home, name), "w", encoding="utf-8", newline="") as f:
        f.write(text)
    size = "997" if is_1d(original) else "45x37"
    command = [opts.tilescope, "check", "--kernel-file", name, "--size", size, "--radius", "2", "--backend", "cpu",
               "--time-limit", str(opts.time_limit)]
    # No precompiled prelude (it needs $XDG_CACHE_HOME or $HOME): the first
    # compile would start building one in the background, whose compiler
    # writes into this run's $TMPDIR after tilescope has ended.
    env = dict(os.environ, TMPDIR=tmp, HOME="", XDG_CACHE_HOME="")
    start = time.monotonic()
    failures = []
    try:
        done = subprocess.run(command, cwd=home, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=opts.time_limit + 60)
        status = done.returncode
        out = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        status = None
        out = ((e.stdout or b"") + (e.stderr or b"")).decode("utf-8", "replace")
        failures.append("still running after %g s (killed)" % (opts.time_limit + 60))
    seconds = time.monotonic() - start

    if status is not None and status < 0:
        failures.append("tilescope was killed by signal %d" % -status)
    elif status is not None and status not in (0, 1, 2):
        failures.append("exit status %d (0, 1 or 2 expected)" % status)
    if status == 2:
        # The note that no sandbox can be had (bubblewrap missing) is no part of the refusal.
        lines = [l for l in out.splitlines() if l.strip() and not l.startswith(NO_SANDBOX_NOTE)]
        m = re.match(r"tilescope: %s(?::(\d+)(?::(\d+))?)?: \S" % re.escape(name), lines[0]) if lines else None
        if len(lines) != 1:
            failures.append("a refusal of %d lines (one expected)" % len(lines))
        if not m:
            failures.append("a refusal that does not start with 'tilescope: %s[:LINE[:COLUMN]]: '" % name)
        elif m.group(1) and not 1 <= int(m.group(1)) <= line_count(text):
            failures.append("a refusal at line %s of a file of %d lines" % (m.group(1), line_count(text)))
        elif not m.group(1) and lines[0][m.end() - 1:].startswith("error: ") and \
                not lines[0][m.end() - 1:].startswith("error: launch() cannot be called"):
            # A compiler's error is on a line of the file (a mutant includes no
            # other file); launch()'s signature is the one whole-file error.
            failures.append("a compiler error without its line")
    for internal in INTERNAL_NAMES:
        if internal in out and internal not in text:
            failures.append("the output shows the internal name %r" % internal)
    # Files left behind: in $TMPDIR, or beside the kernel file.
    left = []
    for root, dirs, files in os.walk(tmp):
        left += [os.path.relpath(os.path.join(root, f), folder) for f in dirs + files]
    left += [os.path.join("kernel", f) for f in os.listdir(home) if f != name]
    if left:
        failures.append("left behind: " + ", ".join(sorted(left)[:8]))
    shutil.rmtree(folder, ignore_errors=True)
    return status, seconds, failures, out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tilescope", required=True, help="the tilescope binary")
    p.add_argument("--seed", type=int, default=25)
    p.add_argument("--count", type=int, default=60, help="how many mutants")
    p.add_argument("--changes", type=int, default=2, help="at most this many changes to each mutant")
    p.add_argument("--time-limit", type=float, default=5.0, help="tilescope's --time-limit for each run")
    p.add_argument("--jobs", "-j", type=int, default=2)
    p.add_argument("--keep", help="save the failing mutants into this folder")
    p.add_argument("--verbose", "-v", action="store_true", help="print every mutant's result")
    opts = p.parse_args()
    opts.tilescope = os.path.abspath(opts.tilescope)

    mutants = make_mutants(opts.seed, opts.count, opts.changes)
    work = tempfile.mkdtemp(prefix="tilescope-mutants-")
    start = time.monotonic()
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
            results = list(pool.map(lambda m: check_one(opts, work, m), mutants))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    counts = {}
    failed = 0
    slowest = max(results, key=lambda r: r[1])[1] if results else 0.0
    for mutant, (status, seconds, failures, out) in zip(mutants, results):
        name, original, text, changes = mutant
        key = "killed" if status is None else str(status)
        counts[key] = counts.get(key, 0) + 1
        first = (out.strip().splitlines() or [""])[0]
        if opts.verbose or failures:
            print("%s (%s: %s): exit %s, %.2f s: %s" % (name, original, "; ".join(changes), key, seconds, first))
        if failures:
            failed += 1
            for f in failures:
                print("  FAIL: " + f)
            print("  the output:\n    " + "\n    ".join(out.strip().splitlines()[:12]))
            print("  the mutant:\n" + "\n".join("  %4d| %s" % (i + 1, l) for i, l in enumerate(text.split("\n"))))
            if opts.keep:
                os.makedirs(opts.keep, exist_ok=True)
                with open(os.path.join(opts.keep, name), "w", encoding="utf-8", newline="") as f:
                    f.write(text)
    summary = ", ".join("exit %s: %d" % (k, counts[k]) for k in sorted(counts))
    print("%d mutants (seed %d) in %.1f s, the slowest %.2f s: %s; %d failed" %
          (len(mutants), opts.seed, time.monotonic() - start, slowest, summary, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
