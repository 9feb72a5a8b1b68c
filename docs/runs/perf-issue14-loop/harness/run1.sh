#!/bin/bash
# device run 1: sweep + tail shapes + ncu stall reasons of the project kernel at r4 (24x24) and r7 (16x16)
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
SIZES=1 ./bench 2>&1 | tee $OUT/sweep1.txt
for v in "r4 project b24x24" "r7 project b16x16"; do
  tag=$(echo $v | tr ' ' '_')
  ONLY="$v" REPS=3 timeout 200 ncu --section WarpStateStats --section SchedulerStats --section Occupancy --section SpeedOfLight \
    --section ComputeWorkloadAnalysis --section InstructionStats --section LaunchStats --section MemoryWorkloadAnalysis \
    -k regex:conv2d_fast --launch-skip 3 --launch-count 1 -o $OUT/ncu_$tag ./bench > $OUT/ncu_$tag.log 2>&1
  ncu --import $OUT/ncu_$tag.ncu-rep --page details --print-details all > $OUT/ncu_$tag.txt 2>&1
  ncu --import $OUT/ncu_$tag.ncu-rep --page raw > $OUT/ncu_${tag}_raw.txt 2>&1
  grep -iE "stall|issue|eligible|occupancy|Warp Cycles" $OUT/ncu_$tag.txt | head -60
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv
