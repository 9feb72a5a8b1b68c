#!/usr/bin/env bash
# The GPU machine's run: build without the app (no GLFW or OpenGL there),
# run every test with the GPU tests live, and exercise the command line on
# the real kernels. Results go to $OUT (or ./gpu-out).
#
# Extra Debian packages the GPU machine lacks (stb) can be unpacked under
# .deps/usr and are found through CMAKE_PREFIX_PATH.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/gpu-out}"
mkdir -p "$out"
build="$root/build-gpu"

nvidia-smi -L | tee "$out/gpu.txt"
testdata="$root/../shared/testdata"
[ -d "$root/.deps/testdata" ] && testdata="$root/.deps/testdata"
cmake -S "$root" -B "$build" -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$root/.deps/usr" -DTILESCOPE_TESTDATA_DIR="$testdata" > "$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" > "$out/build.log" 2>&1 || { grep -E "error" -A3 "$out/build.log" | head -60; exit 1; }
(cd "$build" && ctest --output-on-failure -j 8 2>&1 | tee "$out/ctest.log" | tail -25)
(cd "$build" && ctest -L gpu -V 2>&1 | grep -E "^\[|Test|PASS|FAIL|SKIP" | tail -20) > "$out/ctest-gpu.log"
cat "$out/ctest-gpu.log"

# The command line on the real kernels, each checked against the reference.
tilescope="$build/app/tilescope"
data="$testdata/teaching-kit-convolution"
for k in $("$tilescope" list | grep conv2d); do
  "$tilescope" run --kernel "$k" --input "$data/0/input0.ppm" --mask "$data/0/input1.raw" \
    --output "$out/$k.ppm" --backend cuda 2>&1 | tail -1
done 2>&1 | tee "$out/cli.log"
rm -f "$out"/*.ppm
