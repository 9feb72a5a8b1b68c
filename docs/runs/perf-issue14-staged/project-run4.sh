#!/bin/bash
set -uo pipefail
root=$PWD
cmake -S . -B build-perf -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$root/.deps/usr > /tmp/cfg.log 2>&1 || { tail -30 /tmp/cfg.log; exit 1; }
cmake --build build-perf -j 16 --target tilescope problems_test kernels_test trace_test > /tmp/build.log 2>&1 || { grep -E "error" -A3 /tmp/build.log | head -40; exit 1; }
T=build-perf/app/tilescope
mkdir -p /tmp/logs
for t in problems_test kernels_test trace_test; do
  build-perf/tests/$t > /tmp/logs/t-$t.log 2>&1; echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' /tmp/logs/t-$t.log | head -3 | tr '\n' ' ')"
done
python3 -c "
import numpy as np
rng = np.random.default_rng(1)
for w, h in [(1000, 776), (1001, 777), (37, 23), (5, 3)]:
    np.save(f'/tmp/in{w}.npy', rng.random((h, w), dtype=np.float32))
for m in (7, 9):
    np.save(f'/tmp/m{m}.npy', rng.random((m, m), dtype=np.float32) - 0.5)
"
for tool in memcheck racecheck synccheck initcheck; do for w in 1000 1001 37 5; do for m in 7 9; do for b in 0 24; do
  bb=(); [ $b != 0 ] && bb=(--block $b)
  compute-sanitizer --tool $tool --error-exitcode 9 $T run --kernel conv2d_fast --input /tmp/in$w.npy --mask /tmp/m$m.npy --output /tmp/o.npy --backend cuda "${bb[@]}" > /tmp/logs/san-$tool-$w-$m-$b.log 2>&1
  echo "$tool w$w m$m b$b rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/logs/san-$tool-$w-$m-$b.log | tail -1 | sed 's/=* *//') | $(grep -v '^=' /tmp/logs/san-$tool-$w-$m-$b.log | tail -1 | grep -o 'grid.*')"
done; done; done; done
tar czf $OUT/final-logs.tgz -C /tmp logs
