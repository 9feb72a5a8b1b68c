#!/bin/bash
set -uo pipefail
root=$PWD
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
cmake -S . -B build-perf -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$root/.deps/usr > $OUT/cfg-new.log 2>&1 || { tail -30 $OUT/cfg-new.log; exit 1; }
cmake -S .perf/oldsrc -B .perf/oldsrc/build-perf -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$root/.deps/usr > /dev/null 2>&1
(cmake --build .perf/oldsrc/build-perf -j 4 --target tilescope > /dev/null 2>&1 || echo "OLD BUILD FAILED") &
cmake --build build-perf -j 12 > /tmp/build-new.log 2>&1 || { grep -E "error" -A3 /tmp/build-new.log | head -40; exit 1; }
wait
echo "== built $(date +%T)"
T=build-perf/app/tilescope; O=.perf/oldsrc/build-perf/app/tilescope
mkdir -p /tmp/logs
(cd build-perf && ctest -L gpu --output-on-failure > /tmp/logs/ctest-gpu.log 2>&1; tail -2 /tmp/logs/ctest-gpu.log)
for t in kernels_test trace_test problems_test memory_model_test executor_test gpu_test gpu_failure_test; do
  build-perf/tests/$t > /tmp/logs/t-$t.log 2>&1; echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' /tmp/logs/t-$t.log | head -3 | tr '\n' ' ')"
  grep -E "Failure|Which is|Expected|actual" /tmp/logs/t-$t.log | head -8
done
for r in 3 4; do for b in 8 16 24; do
  a=$($T stats --kernel conv2d_fast --size 70x52 --radius $r --block $b --backend cpu | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["totals"], sort_keys=True))')
  c=$($T stats --kernel conv2d_fast --size 70x52 --radius $r --block $b --backend cuda | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["totals"], sort_keys=True))')
  [ "$a" = "$c" ] && echo "stats r$r b$b: cpu == cuda" || echo "stats r$r b$b: DIFFER"
done; done
echo "== bench $(date +%T)"
for i in 1 2 3; do for t in new old; do
  B=$T; [ $t = old ] && B=$O
  $B bench --kernel conv2d_fast --size 8192x8192 --radius 1,2,3,4,5,6,7 --csv $OUT/bench-$t-$i.csv > /dev/null 2>&1 || echo "bench $t $i failed"
  echo "$t $i: $(tail -n +2 $OUT/bench-$t-$i.csv | cut -d, -f7,8,9,12,20,24 | tr '\n' ' ')"
done; done
$T bench --kernel conv2d_fast --size 8192x8192 --radius 3,4 --block 8,12,16,20,24,32 --csv $OUT/blocks.csv > /dev/null 2>&1
echo "blocks: $(tail -n +2 $OUT/blocks.csv | cut -d, -f7,8,9,12,20 | tr '\n' ' ')"
ncu --section WarpStateStats --section SchedulerStats --section SpeedOfLight --section Occupancy --section LaunchStats --section InstructionStats --section MemoryWorkloadAnalysis \
  -k regex:conv2d_fast --launch-skip 4 --launch-count 1 $T bench --kernel conv2d_fast --size 8192x8192 --radius 4 > /tmp/logs/ncu-r4.txt 2>&1
grep -E "Duration|Issue Slots Busy|No Eligible|Achieved Occ|Registers Per|Executed Instructions  |DRAM Throughput|Stall (Long|Barrier|Short|MIO|Wait|Math)" /tmp/logs/ncu-r4.txt | sort -u
cp /tmp/logs/ncu-r4.txt $OUT/
tar czf $OUT/logs.tgz -C /tmp logs
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader
