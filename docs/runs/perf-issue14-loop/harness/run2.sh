#!/bin/bash
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
ROUNDS=3 REPS=60 ./bench 2>&1 | tee $OUT/sweep2.txt | grep -E "^S|copy|BAD"
for v in "r7 xv roll4 b16x16"; do
  tag=$(echo $v | tr ' ' '_')
  ONLY="$v" REPS=3 timeout 200 ncu --section WarpStateStats --section SchedulerStats --section SpeedOfLight --section Occupancy \
    -k regex:kroll --launch-skip 3 --launch-count 1 -o $OUT/ncu_$tag ./bench > $OUT/ncu_$tag.log 2>&1
  ncu --import $OUT/ncu_$tag.ncu-rep --page details --print-details all > $OUT/ncu_$tag.txt 2>&1
  grep -E "Duration|Issue Slots Busy|No Eligible|Stall (No Instruction|Not Selected|Long Scoreboard|Math Pipe|Wait|Dispatch)|Achieved Occ" $OUT/ncu_$tag.txt
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
