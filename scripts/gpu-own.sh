#!/usr/bin/env bash
# Students' kernel files on the GPU machine: build without the app, run the
# own-kernel tests with the GPU live, then every kernel file of the project
# (tests/own/good, broken and corpus) through `check --backend cuda` against
# the verdict its header expects, the differential test's regressions, and
# generated kernels compiled as written by nvcc (-fmad=false) against
# TileScope's CPU executor, and (nvcc's defaults) against TileScope's own
# NVRTC path. Results go to $OUT (or ./gpu-out).
#
#   scripts/gpu-own.sh [GENERATED_COUNT]     (0: the tests and files only)
#   scripts/gpu-own.sh --difftest COUNT      (the generated kernels only, on a build already made)
#   scripts/gpu-own.sh --files               (the kernel files only, on a build already made)
#
# BUILD_DIR (default build-gpu) is the build; SANDBOX (default auto) the wall
# each `check` runs behind: with `required`, the bubblewrap carried in
# .gpu-deps (TILESCOPE_BWRAP) is used.
#
# libclang: the GPU machine has libclang-16's library without its headers;
# Debian's clang-c headers are carried in .deps/usr/include (the C API is
# stable across versions), as are stb's.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/gpu-out}"
only_difftest=0
only_files=0
if [ "${1:-}" = "--difftest" ]; then only_difftest=1; shift; fi
if [ "${1:-}" = "--files" ]; then only_files=1; shift; set -- 0; fi
sandbox="${SANDBOX:-auto}"
if [ -x "$root/.gpu-deps/root/usr/bin/bwrap" ]; then
  export TILESCOPE_BWRAP="${TILESCOPE_BWRAP:-$root/.gpu-deps/root/usr/bin/bwrap}"
  export LD_LIBRARY_PATH="$root/.gpu-deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
count="${1:-3000}"
mkdir -p "$out"
build="${BUILD_DIR:-$root/build-gpu}"
export TILESCOPE_WORKER="${TILESCOPE_WORKER:-$build/tilescope-worker}"
jobs="$(nproc)"
tilescope="$build/app/tilescope"

nvidia-smi -L | tee "$out/gpu.txt"
lib="$(ls /usr/lib/x86_64-linux-gnu/libclang-*.so* /usr/lib/llvm-*/lib/libclang*.so* 2>/dev/null | head -1)"
echo "libclang: ${lib:-none}" | tee -a "$out/gpu.txt"
if [ "$only_files" = 0 ]; then
cmake -S "$root" -B "$build" -DTILESCOPE_APP=OFF -DTILESCOPE_BENCH=OFF -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$root/.deps/usr" -DTILESCOPE_CLANG_INCLUDE="$root/.deps/usr/include" \
  -DTILESCOPE_LIBCLANG="$lib" > "$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; exit 1; }
grep -E "TileScope:" "$out/configure.log"
cmake --build "$build" -j "$jobs" > "$out/build.log" 2>&1 || { grep -E "error" -A3 "$out/build.log" | head -60; exit 1; }
fi

if [ "$only_difftest" = 0 ] && [ "$only_files" = 0 ]; then
# The own-kernel tests (label own), GPU tests live.
(cd "$build" && ctest -L own -j "$jobs" --output-on-failure 2>&1 | tee "$out/ctest-own.log" | tail -15)
(cd "$build" && ctest -R "OwnLanguage|OwnKernelGpu|OwnPrintfGpu" -V 2>&1 | grep -E "^\[ *(OK|FAILED|SKIPPED) " | tee "$out/ctest-own-gpu.log")
fi
if [ "$only_difftest" = 0 ]; then

# Every kernel file through the GPU: the exit status its header expects.
python3 - "$tilescope" "$root" "$sandbox" > "$out/files-cuda.log" 2>&1 <<'EOF'
import glob, os, re, shlex, subprocess, sys
tilescope, root, sandbox = sys.argv[1], sys.argv[2], sys.argv[3]
files = sorted(glob.glob(f"{root}/tests/own/good/*.cu") + glob.glob(f"{root}/tests/own/broken/*.cu") +
               glob.glob(f"{root}/tests/own/corpus/*.cu"))
def one(f):
    text = open(f, errors="replace").read()
    head = text[:3000]
    # expect-exit-cuda: where the GPU's own compiler makes the file behave otherwise (the file says why).
    exit_ = re.search(r"// expect-exit-cuda: (\d+)", head) or re.search(r"// expect-exit: (\d+)", head)
    args = re.search(r"// expect-args: (.*)", head)
    one_d = re.search(r"void\s+launch\s*\([^)]*int\s+\w+\s*,\s*int\s+\w+\s*\)", text) and \
        not re.search(r"void\s+launch\s*\([^)]*int\s+\w+\s*,\s*int\s+\w+\s*,\s*int\s+\w+\s*\)", text)
    cmd = shlex.split(args.group(1)) if args else ["check", "--size", "1000" if one_d else "64x48", "--radius", "1"]
    if "{" in " ".join(cmd) or cmd[0] != "check":
        return None
    expected = int(exit_.group(1)) if exit_ else 0
    try:
        r = subprocess.run([tilescope] + cmd + ["--kernel-file", os.path.basename(f), "--backend", "cuda",
                                            "--sandbox", sandbox],
                           cwd=os.path.dirname(f), capture_output=True, text=True, timeout=120)
        got, said = r.returncode, (r.stdout + r.stderr).strip().splitlines()
    except subprocess.TimeoutExpired:
        got, said = "timeout", []
    ok = got == expected
    return ok, (f"{'same ' if ok else 'DIFFER'} {os.path.relpath(f, root)}: expected {expected}, cuda {got}"
                + ("" if ok else " | " + " / ".join(said[-3:])))
from concurrent.futures import ThreadPoolExecutor
same = differ = 0
with ThreadPoolExecutor(8) as pool:
    for r in pool.map(one, files):
        if r is None:
            continue
        same += r[0]
        differ += not r[0]
        print(r[1])
print(f"{same} files gave the expected exit status on the GPU (sandbox {sandbox}), {differ} did not")
EOF
tail -1 "$out/files-cuda.log"; grep DIFFER "$out/files-cuda.log" | head -20
fi

# The differential test: nvcc as written against the CPU executor, then
# against TileScope's own GPU path (NVRTC, plain output).
diff="$root/tests/own/difftest/run.py"
if [ -f "$diff" ] && [ "$only_difftest" = 0 ] && [ "$only_files" = 0 ]; then
  python3 "$diff" --tilescope "$tilescope" --mode nvcc --files "$root/tests/own/difftest/regressions" -j "$jobs" \
    --quiet 2>&1 | tail -3 | tee "$out/difftest-regressions.log"
  python3 "$diff" --tilescope "$tilescope" --mode nvcc --backend cuda --files "$root/tests/own/difftest/regressions" \
    -j "$jobs" --quiet 2>&1 | tail -3 | tee -a "$out/difftest-regressions.log"
fi
if [ -f "$diff" ] && [ "$count" -gt 0 ]; then
  python3 "$diff" --tilescope "$tilescope" --mode nvcc --seed 1000 --count "$count" --no-barriers -j "$jobs" \
    --quiet --out "$out/difftest-nobarriers" 2>&1 | tail -4 | tee "$out/difftest-nvcc.log"
  python3 "$diff" --tilescope "$tilescope" --mode nvcc --seed 5000 --count "$((count / 2))" --barriers -j "$jobs" \
    --quiet --out "$out/difftest-barriers" 2>&1 | tail -4 | tee -a "$out/difftest-nvcc.log"
  python3 "$diff" --tilescope "$tilescope" --mode nvcc --backend cuda --seed 9000 --count "$((count / 3))" -j "$jobs" \
    --quiet --out "$out/difftest-cuda" 2>&1 | tail -4 | tee "$out/difftest-cuda.log"
  # What disagreed, small enough to come back.
  (cd "$out" && tar czf difftest-failures.tgz difftest-nobarriers difftest-barriers difftest-cuda 2>/dev/null;
   rm -rf difftest-nobarriers difftest-barriers difftest-cuda)
fi
