#!/usr/bin/env bash
# The performance run, on the GPU machine (Ubuntu 24.04, nvcc 13, CMake 4.4,
# PyTorch, CuPy and NPP installed, no GLFW or OpenGL): builds without the app,
# runs the GPU tests, times every kernel with `tilescope bench` (2D kernels
# and conv2d_fast on 8192x8192 with 3x3, 5x5, 9x9 and 15x15 masks, 1D kernels
# on 2^26 elements), times the peers (bench/peers.py), profiles conv2d_fast
# once with ncu, measures the CPU executor (cpu_bench), and draws the
# roofline. Everything goes to $OUT (or ./perf-out): CSV, Markdown, logs and
# roofline.png. docs/performance.md is written from these files.
#
# stb is not packaged there: unpack Debian's libstb-dev under .deps/usr (as
# scripts/gpu-suite.sh does) and it is found through CMAKE_PREFIX_PATH.
#
# Environment: OUT, BUILD_DIR (default build-perf), PERF_QUICK=1 (a small
# image and fewer repetitions, to try the script out), NCU=0 (skip ncu).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/perf-out}"
build="${BUILD_DIR:-$root/build-perf}"
mkdir -p "$out"
cd "$root"

size2d=8192x8192
size1d=67108864
timing=()
if [ "${PERF_QUICK:-0}" = 1 ]; then
  size2d=2048x2048
  size1d=4194304
  timing=(--millis 50 --repeat 20)
fi

step() { echo "== $* ($(date +%T))" | tee -a "$out/steps.log"; }

step "the machine"
{
  nvidia-smi -L
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit,temperature.gpu \
    --format=csv
  nvcc --version | tail -2
  cmake --version | head -1
  python3 -c 'import torch, cupy; print("torch", torch.__version__, "cupy", cupy.__version__)' 2>&1
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"

step "configure and build"
testdata="$root/../shared/testdata"
[ -d "$root/.deps/testdata" ] && testdata="$root/.deps/testdata"
cmake -S "$root" -B "$build" -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$root/.deps/usr" -DTILESCOPE_TESTDATA_DIR="$testdata" > "$out/configure.log" 2>&1 \
  || { tail -40 "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" > "$out/build.log" 2>&1 \
  || { grep -E "error" -A3 "$out/build.log" | head -60; exit 1; }
tilescope="$build/app/tilescope"

step "GPU tests"
# ctest -L gpu, and the CUDA cases of the kernel and trace tests (every
# kernel, conv2d_fast included, against the reference on the real GPU).
(cd "$build" && ctest -L gpu --output-on-failure) > "$out/tests-gpu.log" 2>&1
gpu_status=$?
"$build/tests/kernels_test" --gtest_filter='*cuda*' >> "$out/tests-gpu.log" 2>&1 || gpu_status=1
"$build/tests/trace_test" --gtest_filter='TraceGpu.*' >> "$out/tests-gpu.log" 2>&1 || gpu_status=1
grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests passed|tests failed" "$out/tests-gpu.log"
echo "GPU tests: status $gpu_status" | tee -a "$out/steps.log"

step "tilescope bench"
# Clocks and power while the kernels run, to read the FP32 peak figures against.
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 250 > "$out/clocks.csv" 2>/dev/null &
smi=$!
"$tilescope" bench --kernel all --size "$size2d,$size1d" --radius 1,2,4,7 "${timing[@]}" \
  --csv "$out/bench.csv" --markdown "$out/bench.md" 2> "$out/bench.log"
bench_status=$?
# The tiled kernels lose most of their threads to the halo at 16x16 with big
# masks: the same kernels with 32x32 blocks, for a fairer picture.
"$tilescope" bench --kernel conv2d_tiled_in,conv2d_tiled_out,conv2d_tiled_cached,conv2d_tiled_pitched,conv2d_fast \
  --size "$size2d" --radius 1,2,4,7 --block 32 "${timing[@]}" \
  --csv "$out/bench-block32.csv" --markdown "$out/bench-block32.md" 2> "$out/bench-block32.log"
kill "$smi" 2>/dev/null
cat "$out/bench.md"
echo "bench: status $bench_status" | tee -a "$out/steps.log"

step "peers"
PYTHONUNBUFFERED=1 python3 "$root/bench/peers.py" --size "$size2d" --radius 1,2,4,7 \
  --csv "$out/peers.csv" --markdown "$out/peers.md" 2> "$out/peers.log"
echo "peers: status $?" | tee -a "$out/steps.log"
tail -3 "$out/peers.log"

if [ "${NCU:-1}" != 0 ] && command -v ncu > /dev/null; then
  step "ncu on conv2d_fast"
  # --clock-control none: the card keeps its own clocks (never lock or change them).
  for r in 1 4 7; do
    ncu --clock-control none --kernel-name regex:conv2d_fast --launch-count 1 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
      --section SchedulerStats --section WarpStateStats --section ComputeWorkloadAnalysis \
      "$tilescope" bench --kernel conv2d_fast --size "$size2d" --radius "$r" --warmup 0 --min-repeat 1 --repeat 1 \
      > "$out/ncu-conv2d_fast-r$r.txt" 2>&1
  done
  grep -hE "conv2d_fast|SM Frequency|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\) Throughput|Registers Per|Achieved Occupancy|Issue Slots Busy|No Eligible|FMA" \
    "$out"/ncu-conv2d_fast-r*.txt | head -60
fi

step "CPU executor"
"$build/bench/cpu_bench" --csv "$out/cpu_bench.csv" > "$out/cpu_bench.md" 2> "$out/cpu_bench.log"
cat "$out/cpu_bench.md"

step "roofline"
python3 "$root/bench/roofline.py" --bench "$out/bench.csv" --peers "$out/peers.csv" --output "$out/roofline.png" \
  > "$out/roofline.log" 2>&1
cat "$out/roofline.log"
step "done"
