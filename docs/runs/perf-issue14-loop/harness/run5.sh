#!/bin/bash
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu,driver_version --format=csv,noheader
ROUNDS=5 REPS=100 ./bench2 2>&1 | tee $OUT/sweep5.txt | grep -E "^S|copy|BAD"
for v in "r7 tree b16x16" "r7 old b16x16" "r4 tree b24x24" "r4 old b24x24"; do
  tag=$(echo $v | tr ' ' '_')
  ONLY="$v" REPS=3 timeout 200 ncu --section WarpStateStats --section SchedulerStats --section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis --section InstructionStats \
    -k regex:conv2d_fast --launch-skip 5 --launch-count 1 -o $OUT/ncu5_$tag ./bench2 > /dev/null 2>&1
  ncu --import $OUT/ncu5_$tag.ncu-rep --page details --print-details all > $OUT/ncu5_$tag.txt 2>&1
  echo "== $v"; grep -E "Duration|Issue Slots Busy|No Eligible|Stall (No Instruction|Not Selected|Long Scoreboard|Math Pipe|Wait|Dispatch)|Achieved Occ|Registers Per|Pipe Fma Cycles|DRAM Throughput|Executed Instructions  " $OUT/ncu5_$tag.txt | sort -u
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader
