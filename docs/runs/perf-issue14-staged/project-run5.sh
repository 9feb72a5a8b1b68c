#!/bin/bash
set -uo pipefail
root=$PWD
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
cmake -S . -B build-perf -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$root/.deps/usr > /tmp/cfg.log 2>&1 || { tail -30 /tmp/cfg.log; exit 1; }
cmake -S .perf/oldsrc -B .perf/oldsrc/build-perf -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$root/.deps/usr > /dev/null 2>&1
(cmake --build .perf/oldsrc/build-perf -j 5 --target tilescope > /dev/null 2>&1 || echo "OLD BUILD FAILED") &
cmake --build build-perf -j 11 --target tilescope kernels_test trace_test problems_test memory_model_test > /tmp/build.log 2>&1 || { grep -E "error" -A3 /tmp/build.log | head -40; exit 1; }
wait
T=build-perf/app/tilescope; O=.perf/oldsrc/build-perf/app/tilescope
for t in kernels_test trace_test problems_test memory_model_test; do
  build-perf/tests/$t > /tmp/t-$t.log 2>&1; echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' /tmp/t-$t.log | head -3 | tr '\n' ' ')"
done
for i in 1 2 3 4; do for t in new old; do
  B=$T; [ $t = old ] && B=$O
  $B bench --kernel conv2d_fast --size 8192x8192 --radius 1,2,3,4,7 --csv $OUT/bench-$t-$i.csv > /dev/null 2>&1 || echo "bench $t $i failed"
  echo "$t $i: $(tail -n +2 $OUT/bench-$t-$i.csv | cut -d, -f7,8,9,12,20,24 | tr '\n' ' ')"
done; done
python3 -c "
import numpy as np
rng = np.random.default_rng(1)
for w, h in [(1000, 776), (1001, 777), (37, 23)]:
    np.save(f'/tmp/in{w}.npy', rng.random((h, w), dtype=np.float32))
np.save('/tmp/m9.npy', rng.random((9, 9), dtype=np.float32) - 0.5); np.save('/tmp/m7.npy', rng.random((7, 7), dtype=np.float32) - 0.5)
"
for tool in memcheck racecheck initcheck; do for w in 1000 1001 37; do for m in 7 9; do
  compute-sanitizer --tool $tool --error-exitcode 9 $T run --kernel conv2d_fast --input /tmp/in$w.npy --mask /tmp/m$m.npy --output /tmp/o.npy --backend cuda > /tmp/san.log 2>&1
  echo "$tool w$w m$m rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | tail -1 | sed 's/=* *//') | $(grep -v '^=' /tmp/san.log | tail -1 | grep -o 'grid.*')"
done; done; done
