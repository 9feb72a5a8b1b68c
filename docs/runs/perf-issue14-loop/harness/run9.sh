#!/bin/bash
# tilescope bench (the project's own timing) on the same machine: HEAD (oldsrc) and HEAD with this change (cleansrc), alternated
cd "$(dirname "$0")"
rm -rf oldsrc && cp -r cleansrc oldsrc && rm -rf oldsrc/build-perf
cp old/conv2d_fast_old.cuh oldsrc/kernels/conv/conv2d_fast.cuh
cp old/plain_language_old.cuh oldsrc/kernels/exec/plain_language.cuh
cp old/plan_old.cpp oldsrc/kernels/api/plan.cpp
cp old/kernels_test_old.cpp oldsrc/tests/kernels_test.cpp
for t in cleansrc oldsrc; do
  (cd $t && cmake -S . -B build-perf -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$PWD/.deps/usr" > $OUT/configure-$t.log 2>&1 \
    && cmake --build build-perf -j 16 --target tilescope > $OUT/build-$t.log 2>&1) || { echo "build $t failed"; tail -20 $OUT/build-$t.log; exit 1; }
done
echo "== built"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
for i in 1 2 3; do
  for t in cleansrc oldsrc; do
    $t/build-perf/app/tilescope bench --kernel conv2d_fast --size 8192x8192 --radius 1,2,3,4,5,6,7 --csv $OUT/bench-$t-$i.csv > $OUT/bench-$t-$i.log 2>&1 || echo "bench $t $i failed"
    echo "== $t round $i"; cut -d, -f7,8,12,20,24 $OUT/bench-$t-$i.csv | tail -n +2 | tr '\n' ' '; echo
  done
done
oldsrc/build-perf/app/tilescope bench --kernel conv2d_fast --size 8192x8192 --radius 5,6,7 --block 16 --csv $OUT/bench-oldsrc-block16.csv > /dev/null 2>&1
echo "== oldsrc block 16"; cut -d, -f7,8,12,20,24 $OUT/bench-oldsrc-block16.csv | tail -n +2 | tr '\n' ' '; echo
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader
