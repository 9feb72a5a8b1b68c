#!/usr/bin/env bash
# The walls around a student's kernel file on the GPU machine: every
# tests/own/broken/hostile_*.cu run with --backend cuda under --sandbox off,
# required without bubblewrap (Landlock + seccomp), and required with
# bubblewrap; the right kernels of tests/own/good under each; the sandbox's
# raw cases (own_sandbox_test, own_forged_test: label sandbox) with and
# without bubblewrap.
#
# The machine lacks bubblewrap, libseccomp, toml++, cpp-httplib and stb, and
# libclang's headers: Debian's packages unpacked under $DEPS (default
# .gpu-deps/root: `dpkg-deb -x` of bubblewrap libseccomp-dev libseccomp2
# libtomlplusplus-dev libtomlplusplus3 libcpp-httplib-dev libcpp-httplib0.11
# libbrotli-dev libbrotli1 libstb-dev libstb0 libcap2 libsqlite3-dev
# libsqlite3-0 (the lab's database, app/lab/), the .pc files'
# prefix made relative, and llvm-14's clang-c headers under usr/include).
# The build lives outside /tmp, which the sandbox hides. Results go to $OUT.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/gpu-out}"
deps="$(cd "${DEPS:-$root/.gpu-deps/root}" && pwd)"
build="${BUILD:-/opt/tilescope-build}"
mkdir -p "$out"
lib="$deps/usr/lib/x86_64-linux-gnu"
export PKG_CONFIG_PATH="$lib/pkgconfig"
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bwrap_dir="$deps/usr/bin"

{
  nvidia-smi -L
  echo "CUDA: $(readlink -f /usr/local/cuda); LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
} | tee "$out/gpu.txt"
cmake -S "$root" -B "$build" -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$deps/usr" \
  -DTILESCOPE_CLANG_INCLUDE="$deps/usr/include" > "$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; exit 1; }
grep -E "TileScope:" "$out/configure.log"
# TARGETS: what to build (default: the command line, the worker and the sandbox's tests).
targets=(${TARGETS:-tilescope tilescope-worker own_sandbox_test own_forged_test own_sandbox_gpu_test})
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" > "$out/build.log" 2>&1 ||
  { grep -E "error" -A3 "$out/build.log" | head -60; exit 1; }
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
tilescope="$build/app/tilescope"
ldd "$build/tilescope-worker" | grep -E "nvrtc|cudart|libcuda" | tee -a "$out/gpu.txt"

one() {  # $1: a kernel file; the environment says which wall
  local f="$1" size=64x48 start=$SECONDS out rc
  grep -qE 'void\s+launch\s*\([^,)]*,[^,)]*,[^,)]*,[^,)]*,[^,)]*\)' "$f" && size=1000
  out=$(cd "$(dirname "$f")" && timeout 120 "$tilescope" check --kernel-file "$(basename "$f")" \
    --size "$size" --radius 1 --backend cuda --time-limit 20 2>&1)
  rc=$?
  out=$(printf '%s' "$out" | tr -d '\r' | grep -v '^$' | tail -2 | tr '\n' ' ')
  echo "$(basename "$f") [exit $rc, $((SECONDS - start)) s]: ${out:0:400}"
}
export -f one
export tilescope
run_all() {  # $1: label; the rest: environment assignments for tilescope
  local label="$1"; shift
  echo "=== $label"
  env "$@" "$tilescope" device 2>&1 | grep -i sandbox
  ls "$root"/tests/own/broken/hostile_*.cu "$root"/tests/own/good/*.cu | env "$@" xargs -P 8 -I{} bash -c 'one "$@"' _ {} | sort
}
{
  run_all "sandbox off" TILESCOPE_SANDBOX=off TILESCOPE_BWRAP=/nonexistent/bwrap
  run_all "sandbox required, no bubblewrap (Landlock + seccomp)" TILESCOPE_SANDBOX=required TILESCOPE_BWRAP=/nonexistent/bwrap
  run_all "sandbox required, bubblewrap" TILESCOPE_SANDBOX=required TILESCOPE_BWRAP="$bwrap_dir/bwrap"
} 2>&1 | tee "$out/hostile.log"
{
  cd "$build"
  echo "=== raw cases, no bubblewrap"
  TILESCOPE_BWRAP=/nonexistent/bwrap ctest -L sandbox -j 4 --output-on-failure 2>&1 | grep -vE "Passed|Skipped|^ *Start"
  echo "=== raw cases, bubblewrap"
  TILESCOPE_BWRAP="$bwrap_dir/bwrap" ctest -L sandbox -j 4 --output-on-failure 2>&1 | grep -vE "Passed|Skipped|^ *Start"
} 2>&1 | tee "$out/suites.log"
