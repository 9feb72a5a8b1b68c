#!/usr/bin/env bash
# The differential test of kernel files on the GPU machine: random kernels of
# the subset (tests/own/difftest/generate.py), each compiled as written by
# nvcc (-arch=sm_90 -fmad=false) and run on the GPU, against TileScope's run
# of the same file, bit for bit (tests/own/difftest/run.py). Builds nothing:
# build-gpu/ must already hold a CUDA build of TileScope (the app off; as
# scripts/gpu-own.sh makes it).
#
#   scripts/difftest-gpu.sh [STAGE] [COUNT]
#
# STAGE (default all):
#   regressions  tests/own/difftest/regressions/*.cu against the CPU executor and against NVRTC
#   nobarriers   COUNT barrier-free kernels, nvcc against TileScope's CPU executor
#   barriers     COUNT/2 kernels with __syncthreads(), nvcc against the CPU executor
#   cuda         COUNT/2 kernels (with and without barriers), nvcc against TileScope's
#                own GPU path (--backend cuda: NVRTC)
#   all          the four in turn
# COUNT defaults to 3000. Each stage prints its summary (generated, agreed,
# disagreed, refused) and keeps what failed in $OUT/<stage> (default
# ./difftest-gpu-out), packed into $OUT/difftest-failures.tgz at the end.
# Exit status 1 when any stage had a failure.
#
# A stage of 1000 kernels takes a few minutes on 16 cores (nvcc ~1-2 s and
# TileScope ~1 s a kernel, -j nproc); where a command may run at most 10
# minutes, run the stages one at a time. The generator's seeds differ per
# stage (SEED, default 1000, is the first), so the stages never repeat a kernel.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
stage="${1:-all}"
count="${2:-3000}"
out="${OUT:-$PWD/difftest-gpu-out}"
seed="${SEED:-1000}"
jobs="${JOBS:-$(nproc)}"
build="${BUILD_DIR:-$root/build-gpu}"
tilescope="$build/app/tilescope"
run="$root/tests/own/difftest/run.py"

case "$stage" in
  all|regressions|nobarriers|barriers|cuda) ;;
  *) echo "usage: $0 [all|regressions|nobarriers|barriers|cuda] [COUNT]" >&2; exit 2 ;;
esac
if [ ! -x "$tilescope" ]; then
  echo "$0: no $tilescope: build TileScope with CUDA into $build first (scripts/gpu-own.sh does)" >&2
  exit 2
fi
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
if [ ! -x "$nvcc" ]; then
  echo "$0: no nvcc (set NVCC)" >&2
  exit 2
fi
export TILESCOPE_WORKER="${TILESCOPE_WORKER:-$build/tilescope-worker}"
mkdir -p "$out"
nvidia-smi -L > "$out/gpu.txt" 2>&1 || true
"$nvcc" --version | tail -2 >> "$out/gpu.txt"

status=0
difftest() {  # name, then run.py's arguments
  local name="$1"
  shift
  echo "== $name: run.py $*"
  python3 "$run" --tilescope "$tilescope" --nvcc "$nvcc" -j "$jobs" --quiet --out "$out/$name" "$@" 2>&1 |
    tee "$out/$name.log" | grep -vE "^[0-9]+ of [0-9]+ kernels run" | tail -14
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}

if [ "$stage" = all ] || [ "$stage" = regressions ]; then
  difftest regressions-cpu --mode nvcc --backend cpu --files "$root/tests/own/difftest/regressions"
  difftest regressions-cuda --mode nvcc --backend cuda --files "$root/tests/own/difftest/regressions"
fi
if [ "$stage" = all ] || [ "$stage" = nobarriers ]; then
  difftest nobarriers --mode nvcc --backend cpu --no-barriers --seed "$seed" --count "$count"
fi
if [ "$stage" = all ] || [ "$stage" = barriers ]; then
  difftest barriers --mode nvcc --backend cpu --barriers --seed "$((seed + 1))" --count "$((count / 2))"
fi
if [ "$stage" = all ] || [ "$stage" = cuda ]; then
  difftest cuda --mode nvcc --backend cuda --seed "$((seed + 2))" --count "$((count / 2))"
fi

# What failed, small enough to bring back.
(cd "$out" && tar czf difftest-failures.tgz --exclude='*/work' --exclude='*/gpu' --exclude='*/serial' \
   $(ls -d regressions-cpu regressions-cuda nobarriers barriers cuda 2>/dev/null) 2>/dev/null)
echo "results in $out (failures packed in $out/difftest-failures.tgz)"
exit "$status"
