#!/usr/bin/env python3
"""Throughput of `tilescope grade`: a generated class graded, the time printed.

Makes N submissions (default 200) of a 2D exercise from five templates, each
varied (tile or block size, names in comments, blank lines): tiled and right,
racy but right (every thread also stores the tile's corner: the same value,
a write-after-write race), out of bounds (no ghost-cell test), untiled (the
basic kernel), and one that does not compile. Grades them against a spec of
4 cases and prints the total and the time per submission.

    scripts/grade-bench.py [--binary build/app/tilescope] [-n 200] [-j N] [--keep DIR]
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SPEC = """[assignment]
name = "bench-exercise-10"
dims = 2

[[case]]
size = "64x48"
radius = 1
points = 1

[[case]]
size = "45x37"
radius = 2
points = 2

[[case]]
size = "70x30"
radius = 3
points = 2

[[case]]
size = "17x9"
radius = 2
points = 1
tiled = false

[require]
no_races = true
no_out_of_bounds = true
no_uninitialised_reads = true
tiled = true
"""


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def templates():
    tiled = read("tests/own/good/conv2d_tiled_student.cu")
    racy = tiled.replace(
        "    __syncthreads();                        // the whole input tile is loaded",
        "    // every thread stores the tile's corner too (the same value: a benign-looking race)\n"
        "    int row0 = by * outTile - r;\n"
        "    int col0 = bx * outTile - r;\n"
        "    N_ds[0][0] = (row0 >= 0 && row0 < height && col0 >= 0 && col0 < width) ? N[row0 * width + col0] : 0.0f;\n"
        "    __syncthreads();                        // the whole input tile is loaded")
    assert racy != tiled
    broken = tiled.replace("int tx = threadIdx.x;", "int tx = threadIdx.x")
    assert broken != tiled
    return {
        "tiled": (tiled, [("#define IN_TILE 16", "#define IN_TILE %d", [16, 32])]),
        "racy": (racy, [("#define IN_TILE 16", "#define IN_TILE %d", [16, 32])]),
        "oob": (read("tests/own/broken/oob_read_no_ghost_test.cu"),
                [("#define BLOCK_X 32", "#define BLOCK_X %d", [16, 32])]),
        "untiled": (read("tests/own/good/conv2d_basic_student.cu"), []),
        "compile_error": (broken, []),
    }


def make_class(folder, n, seed):
    rng = random.Random(seed)
    kinds = templates()
    names = sorted(kinds)
    counts = {k: 0 for k in names}
    for i in range(n):
        kind = names[i % len(names)]
        text, variations = kinds[kind]
        for old, new, values in variations:
            text = text.replace(old, new % rng.choice(values))
        text = "// student %03d, %s\n%s%s" % (i, kind, "\n" * rng.randint(0, 2), text)
        with open(os.path.join(folder, "student_%03d.cu" % i), "w") as f:
            f.write(text)
        counts[kind] += 1
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, "build/app/tilescope"))
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("-j", type=int, default=0, help="jobs (default: tilescope's, one per core)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="grade in this folder and keep it")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="tilescope-grade-bench-")
    os.makedirs(os.path.join(work, "class"), exist_ok=True)
    with open(os.path.join(work, "spec.toml"), "w") as f:
        f.write(SPEC)
    counts = make_class(os.path.join(work, "class"), a.n, a.seed)
    cmd = [a.binary, "grade", "--spec", os.path.join(work, "spec.toml"), "--out", os.path.join(work, "results"),
           os.path.join(work, "class")]
    if a.j:
        cmd += ["-j", str(a.j)]
    start = time.monotonic()
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    total = time.monotonic() - start
    if run.returncode != 0:
        sys.stderr.write(run.stderr)
        sys.exit("tilescope grade exited %d" % run.returncode)
    summary = run.stdout.strip().splitlines()[-1]
    print("submissions: %d (%s), 4 cases each, 3 warp orders per case" %
          (a.n, ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items()))))
    print("cores: %d, jobs: %s" % (os.cpu_count(), a.j or "one per core"))
    print("total: %.1f s" % total)
    print("per submission: %.2f s (wall time / submissions)" % (total / a.n))
    print("tilescope: %s" % summary)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
