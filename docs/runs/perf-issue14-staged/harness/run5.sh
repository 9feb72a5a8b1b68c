#!/bin/bash
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu,driver_version --format=csv,noheader
ROUNDS=5 REPS=60 ./bench 2>&1 | tee $OUT/run5.txt | grep -E "^S|copy|BAD"
for v in "r4 pf1k b16x16"; do
  tag=$(echo $v | tr ' ' '_')
  ONLY="$v" ROUNDS=1 REPS=3 timeout 200 ncu --section WarpStateStats --section SchedulerStats --section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis --section InstructionStats --section MemoryWorkloadAnalysis \
    -k regex:"pf" --launch-skip 5 --launch-count 1 -o $OUT/ncu_$tag ./bench > /dev/null 2>&1
  ncu --import $OUT/ncu_$tag.ncu-rep --page details --print-details all > $OUT/ncu-$tag.txt 2>&1
  rm -f $OUT/ncu_$tag.ncu-rep
  echo "== $v"; grep -E "Duration|Issue Slots Busy|No Eligible|Stall (No Instruction|Not Selected|Long Scoreboard|Short Scoreboard|MIO|Math Pipe|Wait|Barrier|Dispatch)|Achieved Occ|Registers Per|Pipe Fma Cycles|Executed Instructions  |DRAM Throughput|Bank" $OUT/ncu-$tag.txt | sort -u
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader
