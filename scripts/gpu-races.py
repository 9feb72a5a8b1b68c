#!/usr/bin/env python3
"""What goes wrong, on the GPU: the problem detector against compute-sanitizer.

For each listing as printed and each tiled kernel with one barrier dropped:
  1. `tilescope check` on the CPU executor and on the instrumented GPU run:
     the same detector on two traces; every problem but the wrong outputs
     (which depend on how the hardware ran the race) must agree;
  2. the plain CUDA kernel (`run --backend cuda --as-is`) under
     compute-sanitizer racecheck: the source lines of each shared-memory
     hazard it reports, against the detector's race line pairs;
  3. the same under memcheck: each (block, thread, line) it reports outside
     an allocation, against the detector's accesses outside N and P.
Writes races.md (the table for docs/what-goes-wrong.md) and races.json to $OUT.
Run on the GPU machine after scripts/gpu-suite.sh has built build-gpu.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.environ.get("OUT", os.path.join(root, "gpu-out"))
tilescope = os.path.join(root, "build-gpu", "app", "tilescope")
tmp = tempfile.mkdtemp()


def barrier_lines(path):
    lines = []
    for n, text in enumerate(open(path), start=1):
        code = text.split("//")[0]
        if "__syncthreads()" in code:
            lines.append(n)
    return lines


def inputs(dims, size, channels, radius):
    rng = np.random.default_rng(3)
    shape = (size[0],) if dims == 1 else (size[1], size[0]) + ((channels,) if channels > 1 else ())
    n = os.path.join(tmp, f"in{dims}_{size}_{channels}.npy")
    np.save(n, rng.uniform(0.1, 1.0, shape).astype(np.float32))
    w = 2 * radius + 1
    m = os.path.join(tmp, f"mask{dims}_{radius}.txt")
    with open(m, "w") as f:
        rows = 1 if dims == 1 else w
        for _ in range(rows):
            f.write(" ".join(["%.4f" % (1.0 / (w * rows))] * w) + "\n")
    return n, m


def check(kernel, n, m, block, drop, backend):
    cmd = [tilescope, "check", "--kernel", kernel, "--input", n, "--mask", m, "--block", str(block),
           "--backend", backend, "--json"]
    if drop:
        cmd += ["--drop-barrier", str(drop)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise RuntimeError(" ".join(cmd) + ": " + p.stderr)
    return json.loads(p.stdout)


def signature(report):
    """What must agree between the two traces: every problem but wrong outputs."""
    keep = []
    for p in report["problems"]:
        if p["kind"] == "wrong_result":
            continue
        f, s = p["first"], p["second"]
        keep.append((p["kind"], p["order"], p["index"], json.dumps(f, sort_keys=True), json.dumps(s, sort_keys=True)))
    counts = {k: v for k, v in report["counts"].items() if k != "wrong_result"}
    return sorted(keep), counts


def sanitizer(tool, kernel, n, m, block, drop):
    cmd = ["compute-sanitizer", "--tool", tool, "--print-limit", "100000"]
    if tool == "racecheck":
        cmd += ["--racecheck-report", "hazard"]
    cmd += [tilescope, "run", "--kernel", kernel, "--input", n, "--mask", m, "--block", str(block), "--backend",
            "cuda", "--as-is", "--output", os.path.join(tmp, "out.npy")]
    if drop:
        cmd += ["--drop-barrier", str(drop)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.stdout + p.stderr


def racecheck_pairs(log):
    """Unordered pairs of kernel-file lines of each reported hazard."""
    pairs = set()
    for block in re.split(r"=+ (?:Error|Warning): ", log)[1:]:
        lines = re.findall(r"\.cuh:(\d+)", block)
        if len(lines) >= 2:
            pairs.add(tuple(sorted((int(lines[0]), int(lines[1])))))
        elif len(lines) == 1:
            pairs.add((int(lines[0]), int(lines[0])))
    return pairs


def memcheck_accesses(log):
    found = set()
    for m in re.finditer(r"Invalid __global__ (read|write).*?\.cuh:(\d+).*?by thread \((\d+),(\d+),\d+\) in block "
                         r"\((\d+),(\d+),\d+\)", log, re.S):
        found.add((int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5)), int(m.group(6))))
    return found


def detector_pairs(report):
    return {tuple(sorted((g["first_line"], g["second_line"]))) for g in report["groups"]
            if g["kind"] == "shared_race"}


def detector_outside(report):
    found = set()
    for p in report["problems"]:
        if p["kind"] == "out_of_bounds" and p["space"] == "global":
            a = p["first"]
            found.add((a["line"], a["thread"][0], a["thread"][1], a["block"][0], a["block"][1]))
    return found


def main():
    cases = []
    conv = os.path.join(root, "kernels", "conv")
    listing = subprocess.run([tilescope, "list"], capture_output=True, text=True).stdout.split()
    for name in listing:
        if not name.endswith("_as_printed"):
            continue
        dims = 1 if name.startswith("conv1d") else 2
        cases.append((name, dims, None))
    for name in ["conv1d_tiled", "conv1d_tiled_cached", "conv2d_tiled_in", "conv2d_tiled_out", "conv2d_tiled_cached",
                 "conv2d_tiled_pitched"]:
        for line in barrier_lines(os.path.join(conv, name + ".cuh")):
            cases.append((name, 1 if name.startswith("conv1d") else 2, line))

    rows, results = [], []
    for kernel, dims, drop in cases:
        size = (70,) if dims == 1 else (20, 18)
        channels = 2 if kernel == "conv2d_tiled_pitched" else 1
        radius, block = (2, 16) if dims == 1 else (1, 8)
        n, m = inputs(dims, size, channels, radius)
        cpu = check(kernel, n, m, block, drop, "cpu")
        gpu = check(kernel, n, m, block, drop, "cuda")
        same = signature(cpu) == signature(gpu)
        race_log = sanitizer("racecheck", kernel, n, m, block, drop)
        mem_log = sanitizer("memcheck", kernel, n, m, block, drop)
        rc, dp = racecheck_pairs(race_log), detector_pairs(gpu)
        mc, do = memcheck_accesses(mem_log), detector_outside(gpu)
        summary = {k: v for k, v in gpu["counts"].items() if v}
        results.append({"kernel": kernel, "drop": drop, "cpu_counts": cpu["counts"], "gpu_counts": gpu["counts"],
                        "cpu_gpu_agree": same, "racecheck_pairs": sorted(rc), "detector_pairs": sorted(dp),
                        "memcheck": len(mc), "detector_outside": len(do), "memcheck_subset": mc <= do,
                        "racecheck_summary": re.findall(r"RACECHECK SUMMARY: .*", race_log)[-1:],
                        "memcheck_summary": re.findall(r"ERROR SUMMARY: .*", mem_log)[-1:]})
        rows.append("| `%s`%s | %s | %s | %s | %s | %s |" % (
            kernel, " without line %d" % drop if drop else "",
            ", ".join("%s %d" % (k.replace("_", " "), v) for k, v in summary.items()) or "none",
            "yes" if same else "NO",
            " ".join("%d-%d" % p for p in sorted(dp)) or "-",
            " ".join("%d-%d" % p for p in sorted(rc)) or "-",
            "%d of %d%s" % (len(mc & do), len(do), "" if mc <= do else " (+%d the detector lacks)" % len(mc - do))))
        print(rows[-1], flush=True)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "races.md"), "w") as f:
        f.write("| case | detector on the GPU trace | CPU trace agrees | detector race lines | racecheck hazard "
                "lines | memcheck accesses (of the detector's outside global arrays) |\n|---|---|---|---|---|---|\n")
        f.write("\n".join(rows) + "\n")
    with open(os.path.join(out, "races.json"), "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
