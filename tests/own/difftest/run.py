#!/usr/bin/env python3
"""Differential test of TileScope's kernel files: random kernels (generate.py),
or given files, each run two ways and compared bit for bit.

    (a) tilescope run --kernel-file K.cu --input in.npy --mask mask.npy -o out.npy [--backend cpu|cuda]
    (b) --mode cpu:     the same file compiled by the system's C++ compiler against
                        serial_cuda.h, every thread run in turn (barrier-free kernels only);
        --mode threads: the same, each block's threads as OS threads with a real
                        __syncthreads() (kernels with barriers too);
        --mode nvcc:    the same file compiled as written by nvcc -arch=sm_90 -fmad=false,
                        run on the GPU.

Floats agree when their bits are equal, or when both are NaN (any payload).

    run.py --tilescope build/app/tilescope --mode cpu --seed 1 --count 200 -j2
    run.py --tilescope build/app/tilescope --mode cpu --files tests/own/difftest/regressions
    run.py --tilescope build-gpu/app/tilescope --mode nvcc --count 3000 -j8 [--backend cuda]

Each disagreement is saved in --out (the kernel, both outputs, what differs)
with a one-line summary; the end prints how many kernels were generated,
agreed, disagreed and were refused by TileScope. A refusal counts as a failure:
every generated kernel is inside the documented subset. Exit status 1 when
anything did not agree, 0 otherwise.

A file from --files carries the `// difftest:` header generate.py writes
(dims, width, height, radius, barriers, seed); lines `// expect: P[I] = V`
(V a float or 0x-bits) also check both executions against the value CUDA
gives there.

Standard library only.
"""

import argparse
import collections
import multiprocessing
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402

SERIAL_FLAGS = ["-std=c++17", "-O1", "-ffp-contract=off", "-Werror=narrowing"]
NVCC_FLAGS = ["-arch=sm_90", "-fmad=false", "-std=c++17", "-w"]


def nvcc_flags(opts):
    """nvcc's flags for the reference. Against TileScope's CPU executor, no
    fused multiply-add (C++ rounds each operation). Against TileScope's own GPU
    path (--backend cuda: the plain kernel as NVRTC compiles it, fused
    multiply-adds on, as nvcc's default), nvcc's default too."""
    return [f for f in NVCC_FLAGS if not (opts["backend"] == "cuda" and f == "-fmad=false")]
THREAD_FLAGS = ["-DTS_THREADS", "-pthread"]

DRIVER = r"""// The reference execution's main(): reads the input and the mask, calls the
// kernel file's launch() with device pointers (or plain ones, serially), and
// writes P as raw float32.
#include <cstdio>
#include <cstdlib>
#include <vector>
#ifdef TS_NVCC
#include <cuda_runtime.h>
#endif

#if TS_DIMS == 2
void launch(const float* N, const float* M, float* P, int r, int width, int height);
#else
void launch(const float* N, const float* M, float* P, int r, int width);
#endif

static std::vector<float> readAll(const char* path) {
    std::vector<float> v;
    FILE* f = std::fopen(path, "rb");
    if (!f) { std::fprintf(stderr, "cannot read %s\n", path); std::exit(3); }
    float x;
    while (std::fread(&x, 4, 1, f) == 1) v.push_back(x);
    std::fclose(f);
    return v;
}

#ifdef TS_NVCC
static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e)); std::exit(4); }
}
#endif

int main(int argc, char** argv) {
    if (argc != 7) { std::fprintf(stderr, "usage: driver in.bin mask.bin r width height out.bin\n"); return 2; }
    std::vector<float> N = readAll(argv[1]), M = readAll(argv[2]);
    int r = std::atoi(argv[3]), width = std::atoi(argv[4]), height = std::atoi(argv[5]);
    std::vector<float> P(N.size(), 0.0f);
#ifdef TS_NVCC
    float *dN, *dM, *dP;
    // Managed memory: M is a valid source for cudaMemcpyToSymbol whatever copy kind launch() names.
    check(cudaMallocManaged(&dN, N.size() * 4), "cudaMallocManaged");
    check(cudaMallocManaged(&dM, M.size() * 4), "cudaMallocManaged");
    check(cudaMallocManaged(&dP, P.size() * 4), "cudaMallocManaged");
    for (size_t i = 0; i < N.size(); ++i) dN[i] = N[i];
    for (size_t i = 0; i < M.size(); ++i) dM[i] = M[i];
    check(cudaMemset(dP, 0, P.size() * 4), "cudaMemset");
    check(cudaDeviceSynchronize(), "before launch()");
#else
    float *dN = N.data(), *dM = M.data(), *dP = P.data();
#endif
#if TS_DIMS == 2
    launch(dN, dM, dP, r, width, height);
#else
    (void)height;
    launch(dN, dM, dP, r, width);
#endif
#ifdef TS_NVCC
    check(cudaGetLastError(), "the launch");
    check(cudaDeviceSynchronize(), "the kernel");
    for (size_t i = 0; i < P.size(); ++i) P[i] = dP[i];
#endif
    FILE* f = std::fopen(argv[6], "wb");
    if (!f || std::fwrite(P.data(), 4, P.size(), f) != P.size()) { std::fprintf(stderr, "cannot write\n"); return 3; }
    std::fclose(f);
    return 0;
}
"""


# [SECTION] files

def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def write_npy(path, values, shape):
    descr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % (
        "%d," % shape[0] if len(shape) == 1 else ", ".join(str(s) for s in shape))
    pad = 64 - (10 + len(descr) + 1) % 64
    header = descr + " " * (pad % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%df" % len(values), *values))


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError("%s is not a .npy file" % path)
    major = data[6]
    if major == 1:
        hlen = struct.unpack("<H", data[8:10])[0]
        start = 10 + hlen
    else:
        hlen = struct.unpack("<I", data[8:12])[0]
        start = 12 + hlen
    header = data[start - hlen:start].decode("latin1")
    if "'<f4'" not in header:
        raise ValueError("%s: not float32 (%s)" % (path, header.strip()))
    body = data[start:]
    return list(struct.unpack("<%dI" % (len(body) // 4), body[:len(body) // 4 * 4]))


def read_raw_bits(path):
    with open(path, "rb") as f:
        body = f.read()
    return list(struct.unpack("<%dI" % (len(body) // 4), body[:len(body) // 4 * 4]))


def write_raw(path, values):
    with open(path, "wb") as f:
        f.write(struct.pack("<%df" % len(values), *values))


def input_values(count, seed):
    """A deterministic input: mostly values in [-2, 2], some exact small numbers, some tiny ones."""
    import random
    rng = random.Random("input:" + seed)
    out = []
    for _ in range(count):
        k = rng.random()
        if k < 0.7:
            v = rng.uniform(-2.0, 2.0)
        elif k < 0.8:
            v = float(rng.randint(-2, 2))
        elif k < 0.9:
            v = rng.randint(-16, 16) / 8.0
        else:
            v = rng.uniform(-1e-3, 1e-3)
        out.append(f32(v))
    return out


def mask_values(count):
    """Distinct and not symmetric (a flipped or transposed mask gives another result), summing to about 1."""
    return [f32((i + 1) * 2.0 / (count * (count + 1))) for i in range(count)]


def bits_to_float(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def is_nan(b):
    return (b & 0x7f800000) == 0x7f800000 and (b & 0x007fffff) != 0


def same(a, b):
    return a == b or (is_nan(a) and is_nan(b))


# [SECTION] the serial build

# A kernel's name, with its template arguments where it is a template (k<float>, k<128, float>).
LAUNCH_START = re.compile(r"([A-Za-z_]\w*(?:\s*<[^<>;()]*>)?)(\s*)<<\s*<")


def rewrite_launches(text):
    """k<<<cfg>>>(  ->  ts_launch(k, cfg)(  , also for `k << <cfg >> > (` and a template kernel's
    `k<float><<<cfg>>>(` (ts_launch(k<float>, cfg)(: the specialisation's address)."""
    out = []
    pos = 0
    while True:
        m = LAUNCH_START.search(text, pos)
        if not m:
            out.append(text[pos:])
            break
        name = m.group(1)
        i = m.end()
        depth = 0
        close = None
        while i < len(text):
            c = text[i]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
            elif c == ">" and depth == 0:
                m2 = re.compile(r">\s*>\s*>").match(text, i)
                if m2:
                    close = m2
                    break
            i += 1
        if close is None:
            raise ValueError("a <<< without its >>>")
        config = text[m.end():close.start()]
        out.append(text[pos:m.start()])
        out.append("ts_launch(%s, %s)" % (name, config.strip()))
        pos = close.end()
    return "".join(out)


EXTERN_SHARED = re.compile(r"extern\s+__shared__\s+float\s+([A-Za-z_]\w*)\s*\[\s*\]")


def to_serial(text):
    # Every extern __shared__ array is the block's dynamic shared memory, one and the same.
    text = EXTERN_SHARED.sub(lambda m: "float* const %s = ts_dynamic_shared" % m.group(1), text)
    return rewrite_launches(text)


# [SECTION] one kernel

class Job:
    def __init__(self, name, text, meta, tags, expect, path=None):
        self.path = path
        self.name = name
        self.text = text
        self.meta = meta
        self.tags = tags
        self.expect = expect


HEADER = re.compile(r"//\s*difftest:\s*(.*)")
EXPECT = re.compile(r"//\s*expect:\s*P\[(\d+)\]\s*=\s*(\S+)")


def parse_header(text):
    meta = {}
    tags = []
    expect = []
    for line in text.splitlines():
        m = HEADER.match(line.strip())
        if m:
            for item in m.group(1).split():
                if "=" in item:
                    k, v = item.split("=", 1)
                    meta[k] = v
        if line.strip().startswith("// difftest-tags:"):
            tags = line.split(":", 1)[1].split()
        m = EXPECT.match(line.strip())
        if m:
            v = m.group(2)
            if v.startswith("0x"):
                bits = int(v, 16)
            else:
                bits = struct.unpack("<I", struct.pack("<f", float(v)))[0]
            expect.append((int(m.group(1)), bits))
    for key in ("dims", "width", "height", "radius"):
        if key not in meta:
            raise ValueError("no `// difftest: dims=.. width=.. height=.. radius=..` header")
    meta.setdefault("barriers", "0")
    meta.setdefault("seed", "0")
    return meta, tags, expect


def run_command(command, cwd, timeout, env=None):
    start = time.monotonic()
    try:
        for attempt in range(3):
            try:
                done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      timeout=timeout, env=env)
                break
            except OSError:  # the program being written by a build right now: wait, then try again
                if attempt == 2:
                    raise
                time.sleep(5)
        out = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
        return done.returncode, out, time.monotonic() - start
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % timeout, time.monotonic() - start


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:300]
    return ""


def run_job(args):
    job, opts, drivers = args
    work = os.path.join(opts["work"], job.name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    result = {"name": job.name, "tags": job.tags, "dir": work}
    try:
        return _run_job(job, opts, drivers, work, result)
    except Exception as e:  # a bug of this script: say so, do not hide the kernel
        import traceback
        with open(os.path.join(work, "harness-error.txt"), "w") as f:
            f.write(traceback.format_exc())
        result.update(status="harness-error", message="%s: %s" % (type(e).__name__, e))
        return result


def _run_job(job, opts, drivers, work, result):
    meta = job.meta
    dims, width, height, radius = int(meta["dims"]), int(meta["width"]), int(meta["height"]), int(meta["radius"])
    count = width * (height if dims == 2 else 1)
    values = input_values(count, meta["seed"])
    mw = 2 * radius + 1
    mask = mask_values(mw * mw if dims == 2 else mw)
    kfile = os.path.join(work, "kernel.cu")
    with open(kfile, "w", newline="") as f:
        f.write(job.text)
    write_npy(os.path.join(work, "in.npy"), values, [height, width] if dims == 2 else [width])
    write_npy(os.path.join(work, "mask.npy"), mask, [mw, mw] if dims == 2 else [mw])
    write_raw(os.path.join(work, "in.bin"), values)
    write_raw(os.path.join(work, "mask.bin"), mask)

    # (b) the reference first: a failure there is this test's own bug.
    if opts["mode"] in ("cpu", "threads"):
        src = os.path.join(work, "serial.cpp")
        with open(src, "w") as f:
            f.write('#line 1 "kernel.cu"\n' + to_serial(job.text))
        exe = os.path.join(work, "serial")
        cmd = [opts["cxx"]] + SERIAL_FLAGS + (THREAD_FLAGS if opts["mode"] == "threads" else []) + [
            "-include", os.path.join(HERE, "serial_cuda.h"), "-I", os.path.join(HERE, "include"), src,
            drivers[dims], "-o", exe]
    else:
        exe = os.path.join(work, "gpu")
        cmd = [opts["nvcc"]] + nvcc_flags(opts) + [kfile, drivers[dims], "-o", exe]
    rc, out, _ = run_command(cmd, work, 300)
    if rc != 0:
        result.update(status="reference-error", message="the reference build failed: " + first_line(
            "\n".join(l for l in out.splitlines() if "error" in l) or out))
        return result
    rc, out, _ = run_command([exe, "in.bin", "mask.bin", str(radius), str(width), str(height), "ref.bin"], work, 120)
    if rc != 0:
        result.update(status="reference-error", message="the reference run failed (%s): %s" % (rc, first_line(out)))
        return result
    ref = read_raw_bits(os.path.join(work, "ref.bin"))
    if opts.get("write_expect") and job.path and not job.expect:
        write_expectations(job.path, ref)

    # (a) TileScope.
    cmd = [opts["tilescope"], "run", "--kernel-file", "kernel.cu", "--input", "in.npy", "--mask", "mask.npy",
           "-o", "tilescope.npy", "--backend", opts["backend"]]
    rc, out, seconds = run_command(cmd, work, 300, env=opts["env"])
    result["seconds"] = seconds
    with open(os.path.join(work, "tilescope.txt"), "w") as f:
        f.write("$ " + " ".join(cmd) + "\n" + out + "\n-- exit status %s\n" % rc)
    if rc != 0:
        result.update(status="refused" if rc == 2 else "tilescope-error",
                      message="tilescope exit %s: %s" % (rc, first_line(out)))
        return result
    got = read_npy(os.path.join(work, "tilescope.npy"))
    if opts.get("check"):
        unsound = check_problems(work, opts)
        if unsound:
            result.update(status="unsound", message="tilescope check finds the kernel is not race-free and "
                                                    "well-defined: " + unsound)
            return result

    if len(got) != len(ref):
        result.update(status="disagree", message="%d outputs from tilescope, %d from the reference" % (len(got), len(ref)))
        return result
    diffs = [i for i in range(len(ref)) if not same(got[i], ref[i])]
    problems = []
    # The files' expected values are CUDA's without fused multiply-adds.
    for index, bits in (job.expect if opts["backend"] != "cuda" else []):
        if index >= len(ref) or not same(ref[index], bits):
            problems.append("the reference gives P[%d] = %s, the file expects %s" % (
                index, fmt(ref[index]) if index < len(ref) else "nothing", fmt(bits)))
    if diffs:
        i = diffs[0]
        where = "P[%d]" % i if dims == 1 else "P[%d] (row %d, col %d)" % (i, i // width, i % width)
        result.update(status="disagree", first=i,
                      message="%d of %d outputs differ; first %s: tilescope %s, reference %s" % (
                          len(diffs), len(ref), where, fmt(got[i]), fmt(ref[i])))
        with open(os.path.join(work, "difference.txt"), "w") as f:
            f.write(result["message"] + "\n")
            for i in diffs[:50]:
                f.write("P[%d]: tilescope %s  reference %s\n" % (i, fmt(got[i]), fmt(ref[i])))
        return result
    if problems:
        result.update(status="reference-error", message="; ".join(problems))
        return result
    result.update(status="agree", message="")
    return result


UNSOUND = ("shared race", "uninitialised read", "out of bounds", "global race", "duplicate store", "barrier mismatch")


def check_problems(work, opts):
    """What `tilescope check` (the CPU executor's race, bounds and initialisation checks) finds wrong with
    the kernel, other than its result (a random kernel is no convolution): the generator's promise."""
    cmd = [opts["tilescope"], "check", "--kernel-file", "kernel.cu", "--input", "in.npy", "--mask", "mask.npy",
           "--backend", "cpu"]
    rc, out, _ = run_command(cmd, work, 300, env=opts["env"])
    with open(os.path.join(work, "check.txt"), "w") as f:
        f.write(out)
    for line in out.splitlines():
        if line.startswith(UNSOUND):
            return line.strip()[:200]
    return ""


def write_expectations(path, ref, count=4):
    """`// expect: P[i] = BITS` lines for the first outputs, ahead of the file's first #include."""
    with open(path) as f:
        lines = f.read().split("\n")
    at = next((i for i, l in enumerate(lines) if l.startswith("#include")), 1)
    lines[at:at] = ["// What CUDA gives (nvcc -fmad=false, and the serial C++ build):"] + [
        "// expect: P[%d] = 0x%08x  (%.9g)" % (i, ref[i], bits_to_float(ref[i])) for i in range(min(count, len(ref)))]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def fmt(bits):
    return "%.9g (0x%08x)" % (bits_to_float(bits), bits)


# [SECTION] main

def build_drivers(opts, folder):
    drivers = {}
    for dims in (1, 2):
        if opts["mode"] in ("cpu", "threads"):
            src = os.path.join(folder, "driver.cpp")
            obj = os.path.join(folder, "driver%d.o" % dims)
            cmd = [opts["cxx"]] + SERIAL_FLAGS + ["-DTS_DIMS=%d" % dims, "-c", src, "-o", obj]
        else:
            src = os.path.join(folder, "driver.cu")
            obj = os.path.join(folder, "driver%d.o" % dims)
            cmd = [opts["nvcc"]] + nvcc_flags(opts) + ["-DTS_NVCC", "-DTS_DIMS=%d" % dims, "-c", src, "-o", obj]
        with open(src, "w") as f:
            f.write(DRIVER)
        rc, out, _ = run_command(cmd, folder, 300)
        if rc != 0:
            sys.exit("run.py: the driver does not build:\n$ %s\n%s" % (" ".join(cmd), out))
        drivers[dims] = obj
    return drivers


def collect_files(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".cu"))
        else:
            files.append(p)
    return files


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tilescope", required=True, help="the tilescope binary")
    p.add_argument("--worker", help="tilescope-worker (default: $TILESCOPE_WORKER, or beside the build's app/)")
    p.add_argument("--mode", choices=("cpu", "threads", "nvcc"), default="cpu",
                   help="the reference: C++ running one thread after another (cpu, barrier-free kernels only); "
                        "C++ with each block's threads as OS threads and a real barrier (threads); nvcc on the "
                        "GPU (nvcc)")
    p.add_argument("--backend", choices=("cpu", "cuda"), default="cpu",
                   help="TileScope's execution: the CPU executor (cpu) or NVRTC on the GPU (cuda)")
    p.add_argument("--seed", default="1")
    p.add_argument("--count", type=int, default=20)
    b = p.add_mutually_exclusive_group()
    b.add_argument("--barriers", dest="barriers", action="store_const", const=True)
    b.add_argument("--no-barriers", dest="barriers", action="store_const", const=False)
    p.add_argument("--exclude", default="", help="tag prefixes the generator leaves out (generate.py --list-tags)")
    p.add_argument("--exclude-file",
                   help="a file of tag prefixes to leave out, the first word of each line (# comments); "
                        "broken.txt lists the classes TileScope gets wrong today")
    p.add_argument("--files", nargs="+", help="run these kernel files (or the .cu files of these folders) instead")
    p.add_argument("-j", "--jobs", type=int, default=1)
    p.add_argument("--out", help="where disagreements are saved (default: a new folder under /tmp)")
    p.add_argument("--keep", action="store_true", help="keep every kernel's folder, not only the failures'")
    p.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    p.add_argument("--nvcc", default="nvcc")
    p.add_argument("--quiet", action="store_true", help="no line per kernel that agreed")
    p.add_argument("--write-expect", action="store_true",
                   help="with --files: add `// expect:` lines (the reference's first outputs) to each file that "
                        "has none")
    p.add_argument("--check-kernels", action="store_true",
                   help="also run `tilescope check` on each kernel: a race, an uninitialised read or an access "
                        "outside an array it finds is the generator's bug (status unsound)")
    opts = p.parse_args()

    if opts.mode == "cpu" and opts.barriers:
        sys.exit("run.py: --mode cpu runs every thread in turn, so it takes no kernels with barriers")
    if opts.backend == "cuda" and opts.mode != "nvcc":
        print("run.py: note: --backend cuda with --mode %s compares TileScope's GPU run with the C++ build"
              % opts.mode)
    barriers = opts.barriers
    if opts.mode == "cpu":
        barriers = False
    exclude = [e.strip() for e in opts.exclude.split(",") if e.strip()]
    if opts.exclude_file:
        with open(opts.exclude_file) as f:
            for line in f:
                words = line.split("#", 1)[0].split()
                if words:
                    exclude.append(words[0])

    env = dict(os.environ)
    worker = opts.worker or env.get("TILESCOPE_WORKER")
    if not worker:
        guess = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(opts.tilescope))), "tilescope-worker")
        if os.path.exists(guess):
            worker = guess
    if worker:
        env["TILESCOPE_WORKER"] = os.path.abspath(worker)

    out = opts.out or tempfile.mkdtemp(prefix="tilescope-difftest-")
    marker = os.path.join(out, ".difftest")
    if os.path.exists(marker):
        # This script's folder from an earlier run: its failures are not this run's.
        for entry in os.listdir(out):
            path = os.path.join(out, entry)
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
    os.makedirs(out, exist_ok=True)
    open(marker, "w").close()
    work = os.path.join(out, "work")
    os.makedirs(work, exist_ok=True)
    settings = {"mode": opts.mode, "backend": opts.backend, "tilescope": os.path.abspath(opts.tilescope),
                "env": env, "work": work, "cxx": opts.cxx, "nvcc": opts.nvcc, "check": opts.check_kernels,
                "write_expect": opts.write_expect}
    drivers = build_drivers(settings, work)

    jobs = []
    skipped = 0
    if opts.files:
        for path in collect_files(opts.files):
            with open(path, newline="") as f:  # a file's CRLF line ends stay as they are
                text = f.read()
            meta, tags, expect = parse_header(text)
            if opts.mode == "cpu" and meta.get("barriers") == "1":
                skipped += 1
                print("skip %s: it has barriers (--mode cpu)" % path)
                continue
            name = os.path.splitext(os.path.basename(path))[0]
            if any(j.name == name for j in jobs):
                name = "%s_%d" % (name, len(jobs))
            jobs.append(Job(name, text, meta, tags, expect, path))
    else:
        for i in range(opts.count):
            seed = "%s:%d" % (opts.seed, i)
            k = generate.generate(seed, barriers=barriers, exclude=exclude)
            meta, tags, expect = parse_header(k.text)
            jobs.append(Job("k%s_%05d" % (re.sub(r"\W", "_", str(opts.seed)), i), k.text, meta, tags, expect))

    start = time.monotonic()
    counts = collections.Counter()
    tag_total = collections.Counter()
    tag_bad = collections.Counter()
    failures = []
    pool = multiprocessing.Pool(max(1, opts.jobs))
    try:
        for done, r in enumerate(pool.imap_unordered(run_job, [(j, settings, drivers) for j in jobs]), 1):
            counts[r["status"]] += 1
            if opts.quiet and done % 100 == 0:
                print("%d of %d kernels run, %d agreed" % (done, len(jobs), counts["agree"]))
                sys.stdout.flush()
            for t in r["tags"]:
                tag_total[t] += 1
            if r["status"] == "agree":
                if not opts.quiet:
                    print("ok       %s (%.1f s)" % (r["name"], r.get("seconds", 0)))
                if not opts.keep:
                    shutil.rmtree(r["dir"], ignore_errors=True)
                continue
            for t in r["tags"]:
                tag_bad[t] += 1
            saved = os.path.join(out, r["name"])
            shutil.rmtree(saved, ignore_errors=True)
            shutil.move(r["dir"], saved)
            failures.append(r)
            print("%-8s %s: %s  [%s]" % (r["status"].upper() if r["status"] != "disagree" else "DIFFER",
                                         r["name"], r["message"], os.path.join(saved, "kernel.cu")))
            sys.stdout.flush()
    finally:
        pool.close()
        pool.join()
    if not opts.keep:
        shutil.rmtree(work, ignore_errors=True)

    n = len(jobs)
    print()
    print("%s %d kernels (%s, TileScope backend %s) in %.0f s: %d agreed, %d disagreed, %d refused by TileScope, "
          "%d TileScope errors, %d reference failures, %d harness errors, %d unsound kernels%s" % (
              "ran" if opts.files else "generated and ran", n, {"cpu": "serial C++", "threads": "threaded C++",
                                                                       "nvcc": "nvcc"}[opts.mode],
              opts.backend, time.monotonic() - start, counts["agree"], counts["disagree"], counts["refused"],
              counts["tilescope-error"], counts["reference-error"], counts["harness-error"], counts["unsound"],
              (", %d skipped" % skipped) if skipped else ""))
    if failures:
        # Which construct classes the failing kernels hold more often than the rest: where to look first.
        rows = []
        bad = len(failures)
        for t, c in tag_bad.items():
            rows.append((c / bad - (tag_total[t] - c) / max(n - bad, 1), t, c, tag_total[t]))
        rows.sort(reverse=True)
        print("construct classes most over-represented among the failures (failing / all kernels with it):")
        for score, t, c, total in rows[:8]:
            print("  %-18s %d / %d" % (t, c, total))
        print("saved in %s" % out)
    elif not opts.out:
        shutil.rmtree(out, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
