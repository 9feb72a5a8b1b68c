#!/bin/bash
set -uo pipefail
root=$PWD
cmake -S . -B build-perf -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$root/.deps/usr > /tmp/cfg.log 2>&1 || { tail -30 /tmp/cfg.log; exit 1; }
cmake --build build-perf -j 16 --target tilescope kernels_test trace_test problems_test memory_model_test > /tmp/build.log 2>&1 || { grep -E "error" -A3 /tmp/build.log | head -40; exit 1; }
T=build-perf/app/tilescope
(cd build-perf && ctest -L gpu 2>&1 | tail -2)
for t in kernels_test trace_test problems_test memory_model_test; do
  build-perf/tests/$t > /tmp/t-$t.log 2>&1; echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' /tmp/t-$t.log | head -3 | tr '\n' ' ')"
done
for r in 3 4; do
  a=$($T stats --kernel conv2d_fast --size 70x52 --radius $r --backend cpu | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["totals"], sort_keys=True))')
  c=$($T stats --kernel conv2d_fast --size 70x52 --radius $r --backend cuda | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["totals"], sort_keys=True))')
  [ "$a" = "$c" ] && echo "stats r$r: cpu == cuda" || echo "stats r$r: DIFFER"
done
$T bench --kernel conv2d_fast --size 8192x8192 --radius 1,2,3,4,7 --csv $OUT/bench-head.csv > /dev/null 2>&1
echo "head: $(tail -n +2 $OUT/bench-head.csv | cut -d, -f7,8,9,12,20,24 | tr '\n' ' ')"
