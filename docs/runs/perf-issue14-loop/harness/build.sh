#!/bin/bash
# builds the variant harness: one object per radius, in parallel
set -e
cd "$(dirname "$0")"
F="-std=c++17 -arch=sm_90 -O3 -I../kernels -Xptxas -warn-spills"
for r in 1 2 4 7; do nvcc $F -c vars_r$r.cu -o vars_r$r.o 2>&1 | grep -v "^$" | sed "s/^/r$r: /" & done
nvcc $F -c main.cu -o main.o &
wait
nvcc -arch=sm_90 -o bench main.o vars_r1.o vars_r2.o vars_r4.o vars_r7.o
