#!/usr/bin/env bash
# The memory model (docs/memory-model.md) against the GPU's own counters:
# for each kernel at radius 1, 2 and 4, `tilescope memory` counts the model's
# requests, sectors and wavefronts and replays the launch through its caches
# (a trace of the whole launch, a few waves of blocks at a time), and Nsight
# Compute reads the same quantities from one plain launch of the same kernel
# on the same input (caches flushed before it, clocks left alone).
# Writes $OUT/memory/model-*.json, $OUT/memory/ncu-*.csv and the table
# $OUT/memory-check.md (scripts/memory_table.py), and prints the table.
#
#   scripts/memory-check.sh [SIZE2D] [SIZE1D]      (default 1024x1024 and 1048576)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/gpu-out}"
mkdir -p "$out/memory"
size2d="${1:-1024x1024}"
size1d="${2:-1048576}"
build=/tmp/tilescope-memory-build
cmake -S "$root" -B "$build" -DTILESCOPE_APP=OFF -DTILESCOPE_TESTS=OFF -DTILESCOPE_BENCH=OFF \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$root/.deps/usr" > "$out/memory-configure.log" 2>&1 ||
  { tail -30 "$out/memory-configure.log"; exit 1; }
cmake --build "$build" --target tilescope -j "$(nproc)" > "$out/memory-build.log" 2>&1 ||
  { grep -E "error" -A3 "$out/memory-build.log" | head -40; exit 1; }
tilescope="$build/app/tilescope"
python3 - "$size2d" "$size1d" <<'PY'
import sys, numpy as np
w, h = (int(v) for v in sys.argv[1].split("x"))
rng = np.random.default_rng(7)
np.save("/tmp/memory-in2d.npy", rng.random((h, w), dtype=np.float32))
np.save("/tmp/memory-in1d.npy", rng.random(int(sys.argv[2]), dtype=np.float32))
for r in (1, 2, 4):
    m = 2 * r + 1
    np.save(f"/tmp/memory-mask2d-{r}.npy", rng.random((m, m), dtype=np.float32))
    np.save(f"/tmp/memory-mask1d-{r}.npy", rng.random(m, dtype=np.float32))
PY
kernels=$("$tilescope" list | sed '/^$/,$d')
cases=()
for k in $kernels; do for r in 1 2 4; do cases+=("$k $r"); done; done
args() {  # kernel radius -> the input and mask options
  local dims=2d input=/tmp/memory-in2d.npy
  case "$1" in conv1d_*) dims=1d; input=/tmp/memory-in1d.npy ;; esac
  echo "--kernel $1 --input $input --mask /tmp/memory-mask$dims-$2.npy"
}
export -f args
export tilescope out
# The model: every case at once, a few at a time (each holds up to a few GB of trace).
start=$(date +%s)
printf '%s\n' "${cases[@]}" | xargs -P "${MODEL_JOBS:-6}" -L 1 bash -c \
  '"$tilescope" memory $(args "$0" "$1") --backend cpu > "$out/memory/model-$0-$1.json" 2> "$out/memory/model-$0-$1.err"'
echo "model: $(( $(date +%s) - start )) s for ${#cases[@]} launches" | tee "$out/memory/model-time.txt"
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,smsp__sass_inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sector_hit_rate.pct,dram__bytes_read.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
metrics+=,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum
metrics+=,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
start=$(date +%s)
for c in "${cases[@]}"; do
  set -- $c
  ncu --clock-control none --cache-control all --metrics "$metrics" --csv --launch-count 1 -k "regex:conv" \
    "$tilescope" run $(args "$1" "$2") --output /tmp/memory-out.npy --backend cuda \
    > "$out/memory/ncu-$1-$2.csv" 2> "$out/memory/ncu-$1-$2.err"
done
echo "ncu: $(( $(date +%s) - start )) s" | tee -a "$out/memory/model-time.txt"
python3 "$root/scripts/memory_table.py" "$out/memory" "$size2d" "$size1d" > "$out/memory-check.md"
cat "$out/memory-check.md"
