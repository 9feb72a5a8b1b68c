#!/bin/bash
set -e
cd "$(dirname "$0")"
F="-std=c++20 -arch=sm_90 -O3 -I../../kernels -I. -Xptxas -warn-spills"
for t in tu_tree vars vars2 vars3 vars5 tu_proj tu_projinc tu_projsync tu_projincsync; do nvcc $F -c $t.cu -o $t.o & done
nvcc $F -c main.cu -o main.o
wait
nvcc -arch=sm_90 -o bench main.o tu_tree.o vars.o vars2.o vars3.o vars5.o tu_proj.o tu_projinc.o tu_projsync.o tu_projincsync.o
