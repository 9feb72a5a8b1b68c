#!/bin/bash
set -uo pipefail
root=$PWD
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
cmake -S . -B build-perf -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$root/.deps/usr > $OUT/cfg-new.log 2>&1 || { tail -30 $OUT/cfg-new.log; exit 1; }
cmake -S .perf/oldsrc -B .perf/oldsrc/build-perf -DTILESCOPE_APP=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$root/.deps/usr > /dev/null 2>&1
(cmake --build .perf/oldsrc/build-perf -j 4 --target tilescope > /dev/null 2>&1 || echo "OLD BUILD FAILED") &
cmake --build build-perf -j 12 --target tilescope kernels_test problems_test trace_test > $OUT/build-new.log 2>&1 || { grep -E "error" -A3 $OUT/build-new.log | head -40; exit 1; }
wait
echo "== built $(date +%T)"
T=build-perf/app/tilescope; O=.perf/oldsrc/build-perf/app/tilescope
mkdir -p /tmp/logs
for t in kernels_test trace_test problems_test; do
  build-perf/tests/$t > /tmp/logs/t-$t.log 2>&1; echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED) ' /tmp/logs/t-$t.log | head -4 | tr '\n' ' ')"
  grep -E "Failure|Which is|Expected|actual|error|conv2d" /tmp/logs/t-$t.log | head -24
done
python3 -c "
import numpy as np
rng = np.random.default_rng(1)
for w, h in [(1000, 776), (1001, 777), (37, 23)]:
    np.save(f'/tmp/in{w}.npy', rng.random((h, w), dtype=np.float32))
for m in (7, 9):
    np.save(f'/tmp/m{m}.npy', rng.random((m, m), dtype=np.float32) - 0.5)
"
for tool in memcheck racecheck synccheck initcheck; do for w in 1000 1001 37; do for m in 7 9; do
  compute-sanitizer --tool $tool --error-exitcode 9 $T run --kernel conv2d_fast --input /tmp/in$w.npy --mask /tmp/m$m.npy --output /tmp/o.npy --backend cuda > /tmp/logs/san-$tool-$w-$m.log 2>&1
  echo "sanitizer $tool w$w m$m rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/logs/san-$tool-$w-$m.log | tail -1) $(grep -v '^=' /tmp/logs/san-$tool-$w-$m.log | tail -1)"
done; done; done
python3 - <<'PY'
import numpy as np, subprocess
# the plain kernel's output against a float64 reference, aligned and not
for w in (1000, 1001, 37):
    for m in (7, 9):
        subprocess.run(['build-perf/app/tilescope','run','--kernel','conv2d_fast','--input',f'/tmp/in{w}.npy','--mask',f'/tmp/m{m}.npy','--output','/tmp/o.npy','--backend','cuda'],capture_output=True)
        x = np.load(f'/tmp/in{w}.npy').astype(np.float64); k = np.load(f'/tmp/m{m}.npy').astype(np.float64); r = m // 2
        p = np.pad(x, r); ref = np.zeros_like(x)
        for i in range(m):
            for j in range(m): ref += k[i, j] * p[i:i + x.shape[0], j:j + x.shape[1]]
        o = np.load('/tmp/o.npy'); print(f'plain cuda w{w} m{m}: max abs err {np.abs(o - ref).max():.2e}')
PY
tar czf $OUT/logs.tgz -C /tmp logs
for i in 1 2; do for t in new old; do
  B=$T; [ $t = old ] && B=$O
  $B bench --kernel conv2d_fast --size 8192x8192 --radius 1,2,3,4,5,6,7 --csv $OUT/bench-$t-$i.csv > /dev/null 2>&1 || echo "bench $t $i failed"
  echo "$t $i: $(tail -n +2 $OUT/bench-$t-$i.csv | cut -d, -f7,8,9,12,20,24 | tr '\n' ' ')"
done; done
