#!/bin/bash
set -e
cd "$(dirname "$0")"
F="-std=c++20 -arch=sm_90 -O3 -I../../kernels -I. -Xptxas -warn-spills"
for t in vars vars3 tu_p0 tu_p1 tu_p2 tu_p3; do nvcc $F -c $t.cu -o $t.o & done
nvcc $F -c main.cu -o main.o
wait
nvcc -arch=sm_90 -o bench main.o vars.o vars3.o tu_p0.o tu_p1.o tu_p2.o tu_p3.o
