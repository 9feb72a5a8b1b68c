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
# libclang (a student's kernel file is read with it) from Debian's packages
# carried as .deb files under .deps/debs, unpacked beside the build.
clang_args=()
if ls "$root"/.deps/debs/libclang1-*.deb > /dev/null 2>&1 && ! ldconfig -p | grep -q libclang; then
  llvm="/tmp/tilescope-llvm"
  for deb in "$root"/.deps/debs/lib{clang1,llvm,z3,edit,ffi,xml2,icu}*.deb; do dpkg -x "$deb" "$llvm"; done
  lib=$(ls "$llvm"/usr/lib/x86_64-linux-gnu/libclang-*.so.1 | head -1)
  export LD_LIBRARY_PATH="$llvm/usr/lib/x86_64-linux-gnu:$llvm/usr/lib/llvm-14/lib:${LD_LIBRARY_PATH:-}"
  clang_args=(-DTILESCOPE_LIBCLANG="$lib" -DTILESCOPE_CLANG_INCLUDE="$root/.deps/usr/include")
fi
testdata="$root/../shared/testdata"
[ -d "$root/.deps/testdata" ] && testdata="$root/.deps/testdata"
cmake -S "$root" -B "$build" -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$root/.deps/usr" -DTILESCOPE_TESTDATA_DIR="$testdata" "${clang_args[@]}" > "$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" > "$out/build.log" 2>&1 || { grep -E "error" -A3 "$out/build.log" | head -60; exit 1; }
# BUILD_ONLY=1: the build alone (a caller runs the tests it wants).
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
(cd "$build" && ctest --output-on-failure -j 8 2>&1 | tee "$out/ctest.log" | tail -25)
(cd "$build" && ctest -L gpu -V 2>&1 | grep -E "^\[|Test|PASS|FAIL|SKIP" | tail -20) > "$out/ctest-gpu.log"
cat "$out/ctest-gpu.log"

# The command line on the real kernels, each checked against the reference.
# `list` prints the corrected kernels up to its first blank line; the
# listings as printed follow under a heading.
tilescope="$build/app/tilescope"
corrected() { "$tilescope" list | sed '/^$/,$d'; }
data="$testdata/teaching-kit-convolution"
for k in $(corrected | grep conv2d); do
  "$tilescope" run --kernel "$k" --input "$data/0/input0.ppm" --mask "$data/0/input1.raw" \
    --output "$out/$k.ppm" --backend cuda 2>&1 | tail -1
done 2>&1 | tee "$out/cli.log"
rm -f "$out"/*.ppm

# The same counts from both executions, and the hardware record of a GPU run.
for k in $(corrected); do
  size=48x40; case "$k" in conv1d_*) size=300 ;; esac
  a=$("$tilescope" stats --kernel "$k" --size "$size" --radius 2 --block 16 --backend cpu | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["totals"], sort_keys=True))')
  b=$("$tilescope" stats --kernel "$k" --size "$size" --radius 2 --block 16 --backend cuda | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["totals"], sort_keys=True))')
  [ "$a" = "$b" ] && echo "stats $k: cpu == cuda" || echo "stats $k: DIFFER cpu=$a cuda=$b"
done 2>&1 | tee "$out/stats.log"
"$tilescope" trace --kernel conv2d_tiled_in --size 256x256 --radius 2 --block 16 --backend cuda \
  --out /tmp/tiled_in.tstrace --chrome "$out/tiled_in.chrome.json" > "$out/trace.json" && \
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); x=[e for e in d["traceEvents"] if e["ph"]=="X"]; print("chrome trace:", len(x), "blocks on", len({e["tid"] for e in x}), "SMs")' "$out/tiled_in.chrome.json"

# A student's own kernel files, compiled with NVRTC: each checked on the GPU.
for f in "$root"/tests/own/good/*.cu; do
  size=64x48; case "$f" in *conv1d*) size=1000 ;; esac
  echo "$(basename "$f"): $("$tilescope" check --kernel-file "$f" --size "$size" --radius 2 --backend cuda 2>&1 | tail -1)"
done 2>&1 | tee "$out/own.log"
