#!/bin/bash
# final: the project's kernel as it is in the tree against the kernel as it was, same process
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu,driver_version --format=csv,noheader
ROUNDS=5 REPS=100 ./bench2 2>&1 | tee $OUT/final.txt | grep -E "^S|copy|BAD"
for v in "r7 tree b16x16" "r7 old b16x16"; do
  tag=$(echo $v | tr ' ' '_')
  ONLY="$v" REPS=3 timeout 200 ncu --section WarpStateStats --section SchedulerStats --section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis --section InstructionStats \
    -k regex:conv2d_fast --launch-skip 5 --launch-count 1 -o $OUT/ncu_$tag ./bench2 > /dev/null 2>&1
  ncu --import $OUT/ncu_$tag.ncu-rep --page details --print-details all > $OUT/ncu-final-$tag.txt 2>&1
  rm -f $OUT/ncu_$tag.ncu-rep
  echo "== $v"; grep -E "Duration|Issue Slots Busy|No Eligible|Stall (No Instruction|Not Selected|Long Scoreboard|Math Pipe|Wait|Dispatch)|Achieved Occ|Registers Per|Pipe Fma Cycles|Executed Instructions  " $OUT/ncu-final-$tag.txt | sort -u
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader
