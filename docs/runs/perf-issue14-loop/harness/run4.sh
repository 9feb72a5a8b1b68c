#!/bin/bash
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu,driver_version --format=csv,noheader
ROUNDS=3 REPS=60 ./bench2 2>&1 | tee $OUT/sweep4.txt | grep -E "^S|copy|BAD"
for v in "r7 new8 b16x16" "r4 new8 b24x24"; do
  tag=$(echo $v | tr ' ' '_')
  ONLY="$v" REPS=3 timeout 200 ncu --section WarpStateStats --section SchedulerStats --section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis \
    -k regex:conv2d_fast --launch-skip 5 --launch-count 1 -o $OUT/ncu4_$tag ./bench2 > /dev/null 2>&1
  ncu --import $OUT/ncu4_$tag.ncu-rep --page details --print-details all > $OUT/ncu4_$tag.txt 2>&1
  echo "== $v"; grep -E "Duration|Issue Slots Busy|No Eligible|Stall (No Instruction|Not Selected|Long Scoreboard|Math Pipe|Wait|Dispatch)|Achieved Occ|Registers Per|Pipe Fma Cycles|DRAM Throughput" $OUT/ncu4_$tag.txt | sort -u
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader
