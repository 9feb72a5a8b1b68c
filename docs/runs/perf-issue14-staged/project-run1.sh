#!/bin/bash
# conv2d_fast staged: build the tree and HEAD, GPU tests, sanitizers, stats, bench alternated, block sweep, ncu.
set -uo pipefail
root=$PWD
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu,driver_version --format=csv,noheader
cmake -S . -B build-perf -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$root/.deps/usr > $OUT/cfg-new.log 2>&1 || { tail -30 $OUT/cfg-new.log; exit 1; }
cmake -S .perf/oldsrc -B .perf/oldsrc/build-perf -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$root/.deps/usr > $OUT/cfg-old.log 2>&1 || { tail -30 $OUT/cfg-old.log; exit 1; }
(cmake --build .perf/oldsrc/build-perf -j 5 --target tilescope > $OUT/build-old.log 2>&1 || echo "OLD BUILD FAILED") &
cmake --build build-perf -j 12 > $OUT/build-new.log 2>&1 || { grep -E "error" -A3 $OUT/build-new.log | head -40; exit 1; }
wait
echo "== built $(date +%T)"
T=build-perf/app/tilescope; O=.perf/oldsrc/build-perf/app/tilescope
# GPU tests
(cd build-perf && ctest -L gpu --output-on-failure > $OUT/ctest-gpu.log 2>&1; tail -3 $OUT/ctest-gpu.log)
for t in kernels_test trace_test problems_test memory_model_test executor_test; do
  build-perf/tests/$t > $OUT/t-$t.log 2>&1; echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $OUT/t-$t.log | tr '\n' ' ')"
done
# correctness and sanitizers on the staged radii, aligned and not
for s in 1000x776 1001x777 64x40 8x8; do for r in 3 4; do
  echo "check $s r$r: $($T check --kernel conv2d_fast --size $s --radius $r --backend cuda 2>&1 | tail -1)"
done; done
for tool in memcheck racecheck synccheck initcheck; do
  for s in 1000x776 1001x777; do
    compute-sanitizer --tool $tool --error-exitcode 9 $T check --kernel conv2d_fast --size $s --radius 4 --backend cuda > $OUT/san-$tool-$s.log 2>&1
    echo "sanitizer $tool $s rc=$? $(grep -E 'ERROR SUMMARY' $OUT/san-$tool-$s.log | tail -1)"
  done
done
for r in 3 4; do for b in 8 16; do
  a=$($T stats --kernel conv2d_fast --size 70x52 --radius $r --block $b --backend cpu | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["totals"], sort_keys=True))')
  c=$($T stats --kernel conv2d_fast --size 70x52 --radius $r --block $b --backend cuda | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["totals"], sort_keys=True))')
  [ "$a" = "$c" ] && echo "stats r$r b$b: cpu == cuda" || echo "stats r$r b$b: DIFFER cpu=$a cuda=$c"
done; done
echo "== bench $(date +%T)"
for i in 1 2 3; do for t in new old; do
  B=$T; [ $t = old ] && B=$O
  $B bench --kernel conv2d_fast --size 8192x8192 --radius 1,2,3,4,5,6,7 --csv $OUT/bench-$t-$i.csv > /dev/null 2>&1 || echo "bench $t $i failed"
  echo "$t $i: $(tail -n +2 $OUT/bench-$t-$i.csv | cut -d, -f2,7,8,9,12,20,24,27 | tr '\n' ' ')"
done; done
$T bench --kernel conv2d_fast --size 8192x8192 --radius 3,4 --block 8,12,16,20,24,32 --csv $OUT/blocks.csv > /dev/null 2>&1
echo "blocks: $(tail -n +2 $OUT/blocks.csv | cut -d, -f7,8,9,12,20 | tr '\n' ' ')"
ncu --section WarpStateStats --section SchedulerStats --section SpeedOfLight --section Occupancy --section LaunchStats --section InstructionStats \
  -k regex:conv2d_fast --launch-skip 4 --launch-count 1 $T bench --kernel conv2d_fast --size 8192x8192 --radius 4 > $OUT/ncu-r4.txt 2>&1
grep -E "Duration|Issue Slots Busy|No Eligible|Achieved Occ|Registers Per|Executed Instructions  |Dynamic Shared|Block Limit" $OUT/ncu-r4.txt | sort -u
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader
