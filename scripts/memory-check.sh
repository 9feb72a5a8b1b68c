#!/usr/bin/env bash
# The warp-request model (kernels/trace/warp_requests.cpp) against the GPU's
# own counters: for each kernel and radius, `tilescope stats` counts the
# model's requests, sectors and wavefronts from a trace of the whole launch,
# and Nsight Compute (ncu) reads the same quantities from one plain launch.
# Prints a table (Markdown) to stdout and to $OUT/memory-check.md.
#
#   scripts/memory-check.sh [SIZE2D] [SIZE1D]      (default 256x256 and 65536)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/gpu-out}"
mkdir -p "$out"
size2d="${1:-256x256}"
size1d="${2:-65536}"
build=/tmp/tilescope-memory-build
cmake -S "$root" -B "$build" -DTILESCOPE_APP=OFF -DTILESCOPE_TESTS=OFF -DTILESCOPE_BENCH=OFF \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$root/.deps/usr" > "$out/memory-configure.log" 2>&1 ||
  { tail -30 "$out/memory-configure.log"; exit 1; }
cmake --build "$build" --target tilescope -j "$(nproc)" > "$out/memory-build.log" 2>&1 ||
  { grep -E "error" -A3 "$out/memory-build.log" | head -40; exit 1; }
tilescope="$build/app/tilescope"
# Inputs for the plain runs: random floats of the two sizes.
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
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
table="$out/memory-check.md"
{
  echo "| kernel | r | size | ld requests model / ncu | ld sectors model / ncu | st sectors model / ncu | shared ld wavefronts model / ncu | shared st wavefronts model / ncu |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
} > "$table"
for k in $("$tilescope" list | sed '/^$/,$d'); do
  size="$size2d"; input=/tmp/memory-in2d.npy; dims=2d
  case "$k" in conv1d_*) size="$size1d"; input=/tmp/memory-in1d.npy; dims=1d ;; esac
  for r in 1 2 4; do
    mask="/tmp/memory-mask$dims-$r.npy"
    model=$("$tilescope" stats --kernel "$k" --input "$input" --mask "$mask" --backend cpu 2>/dev/null |
      python3 -c 'import json,sys; t=json.load(sys.stdin)["totals"]; print(" ".join(str(t[k]) for k in ["global_load_requests","global_load_sectors","global_store_sectors","shared_load_wavefronts","shared_store_wavefronts"]))' 2>/dev/null)
    [ -z "$model" ] && model="- - - - -"
    hw=$(ncu --metrics "$metrics" --csv --launch-count 1 -k "regex:conv" "$tilescope" run --kernel "$k" --input "$input" \
      --output /tmp/memory-out.npy --mask "$mask" --backend cuda 2>/dev/null |
      python3 -c '
import csv, sys
rows = [r for r in csv.reader(l for l in sys.stdin if l.startswith("\""))]
head, body = rows[0], rows[1:]
name, value = head.index("Metric Name"), head.index("Metric Value")
want = ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"]
got = {r[name]: r[value].replace(",", "") for r in body}
print(" ".join(got.get(w, "-") for w in want))' 2>/dev/null)
    [ -z "$hw" ] && hw="- - - - -"
    read -r m1 m2 m3 m4 m5 <<< "$model"
    read -r h1 h2 h3 h4 h5 <<< "$hw"
    echo "| $k | $r | $size | $m1 / $h1 | $m2 / $h2 | $m3 / $h3 | $m4 / $h4 | $m5 / $h5 |" >> "$table"
  done
done
cat "$table"
