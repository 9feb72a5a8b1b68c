#!/bin/bash
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu,driver_version --format=csv,noheader
ROUNDS=3 REPS=60 ./bench2 2>&1 | tee $OUT/sweep3.txt | grep -E "^S|copy|BAD"
for v in "r7 new b16x16" "r7 old b16x16"; do
  tag=$(echo $v | tr ' ' '_')
  ONLY="$v" REPS=3 timeout 200 ncu --section WarpStateStats --section SchedulerStats --section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis \
    -k regex:conv2d_fast --launch-skip 3 --launch-count 1 -o $OUT/ncu3_$tag ./bench2 > /dev/null 2>&1
  ncu --import $OUT/ncu3_$tag.ncu-rep --page details --print-details all > $OUT/ncu3_$tag.txt 2>&1
  echo "== $v"; grep -E "Duration|SM Frequency|Issue Slots Busy|No Eligible|Stall (No Instruction|Not Selected|Long Scoreboard|Math Pipe|Wait|Dispatch)|Achieved Occ|Registers Per|Pipe Fma Cycles" $OUT/ncu3_$tag.txt | sort -u
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader
