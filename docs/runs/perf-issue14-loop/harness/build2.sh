#!/bin/bash
set -e
cd "$(dirname "$0")"
F="-std=c++20 -arch=sm_90 -O3 -I../kernels -I. -Xptxas -warn-spills"
for t in old tree; do nvcc $F -c tu_$t.cu -o tu_$t.o & done
nvcc $F -c main2.cu -o main2.o &
wait
nvcc -arch=sm_90 -o bench2 main2.o tu_old.o tu_tree.o
