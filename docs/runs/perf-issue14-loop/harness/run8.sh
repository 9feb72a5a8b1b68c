#!/bin/bash
# the repository at HEAD with this change (cleansrc): build without the app, GPU tests, tilescope bench on conv2d_fast
cd "$(dirname "$0")/cleansrc"
set -o pipefail
cmake -S . -B build-perf -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$PWD/.deps/usr" \
  > $OUT/configure.log 2>&1 || { tail -30 $OUT/configure.log; exit 1; }
cmake --build build-perf -j 16 --target tilescope kernels_test trace_test gpu_test gpu_failure_test > $OUT/build.log 2>&1 \
  || { grep -E "error" -A3 $OUT/build.log | head -40; exit 1; }
echo "== built"
(cd build-perf && ctest -L gpu --output-on-failure) > $OUT/tests-gpu.log 2>&1; echo "ctest -L gpu: $?"
build-perf/tests/kernels_test --gtest_filter='*cuda*:*Cuda*' >> $OUT/tests-gpu.log 2>&1; echo "kernels_test cuda: $?"
build-perf/tests/trace_test --gtest_filter='TraceGpu.*' >> $OUT/tests-gpu.log 2>&1; echo "trace_test TraceGpu: $?"
grep -E "PASSED|FAILED|tests passed|Skipped" $OUT/tests-gpu.log | head -20
build-perf/app/tilescope bench --kernel conv2d_fast --size 8192x8192 --radius 1,2,3,4,5,6,7 --csv $OUT/bench-fast.csv --markdown $OUT/bench-fast.md > $OUT/bench.log 2>&1; echo "bench: $?"
cat $OUT/bench-fast.md; tail -5 $OUT/bench.log
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader
