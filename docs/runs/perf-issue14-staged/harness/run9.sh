#!/bin/bash
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
ROUNDS=11 REPS=60 ./bench 2>&1 | tee $OUT/run9.txt | grep -E "^S|copy|BAD"
