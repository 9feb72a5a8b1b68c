#!/bin/bash
set -e
cd "$(dirname "$0")"
F="-std=c++20 -arch=sm_90 -O3 -I../../kernels -I. -Xptxas -warn-spills"
nvcc $F -c tu_tree.cu -o tu_tree.o &
nvcc $F -c vars.cu -o vars.o -Xptxas -v 2> ptxas.txt &
nvcc $F -c vars2.cu -o vars2.o -Xptxas -v 2> ptxas2.txt &
nvcc $F -c vars3.cu -o vars3.o -Xptxas -v 2> ptxas3.txt &
nvcc $F -c vars4.cu -o vars4.o -Xptxas -v 2> ptxas4.txt &
nvcc $F -c vars5.cu -o vars5.o -Xptxas -v 2> ptxas5.txt &
nvcc $F -c main.cu -o main.o &
wait
nvcc -arch=sm_90 -o bench main.o tu_tree.o vars.o vars2.o vars3.o vars4.o vars5.o
