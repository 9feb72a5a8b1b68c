#!/usr/bin/env bash
# Every kernel, plain and instrumented, under compute-sanitizer's four tools.
# The sweep is the test suite's own: kernels_test runs every kernel on the
# GPU over sizes 1, 2, 13 (prime), 97, 300 (1D) and 1x1, 13x13, 37x23, 3x67,
# 67x3, 5x5 (2D), radii 0-7, and every block edge at every radius (1D: 1, 3,
# 4, 32, 33, 100, 256, 1024; 2D: 1, 3, 4, 8, 12, 16, 20, 24, 31, 32); gpu_test
# runs the instrumented kernels. gpu_failure_test is left out: it faults the
# GPU on purpose, which the sanitizers would rightly report. Run on the GPU machine after scripts/gpu-suite.sh
# (it reuses build-gpu). Summary in $OUT/sanitizer-summary.txt.
#
# Then conv2d_fast's tuning menu (kernels/api/fast_tuning.hpp): every shape
# at every radius, through `tilescope bench --menu` at two sizes whose edges
# cut its tiles, once per tool, each launch's output checked against the
# double-precision reference by the bench itself.
#
#   scripts/gpu-check.sh [all|menu]      (BUILD_DIR: the build, default build-gpu)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/gpu-out}"
build="${BUILD_DIR:-$root/build-gpu}"
stage="${1:-all}"
mkdir -p "$out"
summary="$out/sanitizer-summary.txt"
: > "$summary"

menu() {
  for tool in memcheck racecheck synccheck initcheck; do
    log="$out/$tool-menu.log"
    compute-sanitizer --tool "$tool" --error-exitcode 9 --print-limit 20 "$build/app/tilescope" bench \
      --kernel conv2d_fast --menu --size 260x97,36x36 --radius 0,1,2,3,4,5,6,7 --warmup 0 --min-repeat 1 \
      --repeat 1 --millis 1 > "$log" 2>&1
    rc=$?
    errors=$(grep -Eo "(ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY: [0-9]+ hazards displayed \([0-9]+ errors)" "$log" | tail -1)
    shapes=$(grep -c "| \`conv2d_fast\` |.*| ok |" "$log")
    wrong=$(grep -c "| \`conv2d_fast\` |.*| FAILED |" "$log")
    echo "$tool menu: exit $rc, ${errors:-no summary}, $shapes shape runs right, $wrong wrong" | tee -a "$summary"
  done
}
if [ "$stage" = menu ]; then menu; exit 0; fi
for tool in memcheck racecheck synccheck initcheck; do
  for test in "kernels_test --gtest_filter=*cuda*:BookNumbers.*" "gpu_test"; do
    set -- $test
    log="$out/$tool-$1.log"
    compute-sanitizer --tool "$tool" --error-exitcode 9 --print-limit 20 "$build/tests/$@" > "$log" 2>&1
    rc=$?
    errors=$(grep -Eo "(ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY: [0-9]+ hazards displayed \([0-9]+ errors)" "$log" | tail -1)
    passed=$(grep -Eo "\[  PASSED  \] [0-9]+ tests?" "$log" | tail -1)
    echo "$tool $1: exit $rc, ${errors:-no summary}, ${passed:-tests did not pass}" | tee -a "$summary"
  done
done

# The control: the same memcheck on a kernel that does store out of bounds
# (gpu_failure_test's deliberate fault) must report it, or a clean run above
# would prove nothing.
log="$out/memcheck-control.log"
compute-sanitizer --tool memcheck --print-limit 5 "$build/tests/gpu_failure_test" \
  --gtest_filter='GpuFailure.ALostContext*' > "$log" 2>&1
errors=$(grep -Eo "ERROR SUMMARY: [0-9]+ error" "$log" | tail -1)
if grep -q "Invalid __global__ write" "$log"; then
  echo "control: memcheck reports the deliberate fault (${errors:-no summary}): the tool is live" | tee -a "$summary"
else
  echo "control: memcheck did NOT report the deliberate fault (${errors:-no summary}): the runs above prove nothing" |
    tee -a "$summary"
fi

menu
